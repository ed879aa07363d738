// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Helpers of the tests of answers.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "tests.h"

/*
 * A session reading @sb through @ms with a @buf_size buffer, after a
 * request for everything; NULL on failure, with a diagnostic.
 */
/* taskdiag__request() with the options of a request in its arguments */
int td_request(struct taskdiag *td, __u64 strategy, __u32 pid,
	       __u64 show_flags)
{
	struct taskdiag_request_opts req = {
		.sz		= sizeof(req),
		.strategy	= strategy,
		.show_flags	= show_flags,
		.pid		= pid,
	};

	return taskdiag__request(td, &req);
}

struct taskdiag *mem_session(struct mem_source *ms, const struct sb *sb,
			     size_t buf_size)
{
	return mem_session_flags(ms, sb, buf_size, SHOW_ALL);
}

/* A session on the answer @sb to a request of the groups @show_flags */
struct taskdiag *mem_session_flags(struct mem_source *ms, const struct sb *sb,
				   size_t buf_size, __u64 show_flags)
{
	struct taskdiag_opts opts = {
		.sz = sizeof(opts),
		.buf_size = buf_size,
	};

	return mem_session_opts(ms, sb, &opts, show_flags);
}

/*
 * A session with the options @opts on the answer @sb, read through @ms or,
 * if @opts has one, the source that wraps @ms
 */
struct taskdiag *mem_session_opts(struct mem_source *ms, const struct sb *sb,
				  struct taskdiag_opts *opts, __u64 show_flags)
{
	struct taskdiag *td;
	int err;

	save_seed(sb->buf, sb->len, opts->buf_size);
	mem_source_init(ms, sb->buf, sb->len);
	if (!opts->source)
		opts->source = &ms->src;
	td = taskdiag__new(opts);
	if (!td) {
		printf("# taskdiag__new: %m\n");
		return NULL;
	}
	err = td_request(td, TASK_DIAG_DUMP_ALL, 0, show_flags);
	if (err) {
		printf("# taskdiag__request: %d\n", err);
		taskdiag__delete(td);
		return NULL;
	}
	return td;
}

/* Three tasks of 3 VMAs; a source cut at @cuts serves one per read */
void three_tasks(struct sb *sb, size_t cuts[3])
{
	sb_init(sb, 1);
	sb_task(sb, 1, 1, 3);
	cuts[0] = sb->len;
	sb_task(sb, 2, 2, 3);
	cuts[1] = sb->len;
	sb_task(sb, 3, 3, 3);
	cuts[2] = sb->len;
}

/* Read the whole answer; return what the last taskdiag__next() did */
int run_all(struct taskdiag *td, struct run *r)
{
	struct taskdiag_task *task;
	int i;

	memset(r, 0, sizeof(*r));
	while ((r->ret = taskdiag__next(td, &task)) > 0) {
		i = r->nr_tasks++;
		if (i >= RUN_MAX)
			continue;
		r->pids[i] = taskdiag_task__pid(task);
		r->nr_vmas[i] = taskdiag_task__nr_vmas(task);
		r->exited[i] = taskdiag_task__exited(task);
	}
	if (r->ret < 0)
		printf("# stopped at %d: %s\n", r->ret, taskdiag__errmsg(td));
	return r->ret;
}

/*
 * run_all() on @td, then delete it; return the size its buffer ended with,
 * which a message too big for the first one grows
 */
size_t run_all_and_delete(struct taskdiag *td, struct run *r)
{
	size_t size;

	run_all(td, r);
	size = taskdiag__buf_size(td);
	taskdiag__delete(td);
	return size;
}

static int check_vma(const struct taskdiag_vma *v, __u64 start, size_t i)
{
	struct task_diag_vma_stat st = sb_vma_stat(start);
	char name[32];

	CHECK(v);
	CHECK_EQ(v->start, start);
	CHECK_EQ(v->end, start + SB_VMA_LEN);
	CHECK_EQ(v->inode, start >> 12);
	CHECK_EQ(v->generation, 7);
	CHECK((uintptr_t)&v->start % 8 == 0);
	snprintf(name, sizeof(name), "/vma/%zu", i);
	if (i % 3)
		CHECK(v->name && !strcmp(v->name, name));
	else
		CHECK(!v->name);
	CHECK(v->stat);
	CHECK((uintptr_t)v->stat % 8 == 0);
	CHECK(!memcmp(v->stat, &st, sizeof(st)));
	/* the library's own copy, sizes told */
	CHECK_EQ(v->sz, sizeof(*v));
	CHECK(TASKDIAG_VMA_HAS(v, build_id));
	CHECK_EQ(v->stat_size, sizeof(st));
	CHECK(!v->build_id && !v->build_id_len);
	return 0;
}

/* The VMAs sb_task(pid, nr) made, from @first on, at @base */
int check_task_vmas(const struct taskdiag_task *task, __u64 base,
		    size_t first, size_t nr)
{
	size_t i;

	CHECK_EQ(taskdiag_task__nr_vmas(task), nr);
	for (i = 0; i < nr; i++)
		if (check_vma(taskdiag_task__vma(task, i),
			      base + (first + i) * SB_VMA_LEN, first + i))
			return -1;
	CHECK(!taskdiag_task__vma(task, nr));
	return 0;
}
