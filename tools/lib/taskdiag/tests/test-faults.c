// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Fault injection: EINTR and other errors of the source, messages that do
 * not fit in the buffer, allocations that fail.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "internal.h"
#include "tests.h"

static int eintr_once_retried(void)
{
	struct mem_source ms;
	struct taskdiag *td;
	size_t cuts[3];
	struct run r;
	struct sb sb;

	three_tasks(&sb, cuts);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	ms.eintr = 1;
	run_all(td, &r);
	taskdiag__delete(td);
	sb_free(&sb);
	CHECK_EQ(r.ret, 0);
	CHECK_EQ(r.nr_tasks, 3);
	CHECK_EQ(ms.nr_reads, 3);
	return 0;
}

/* Many EINTRs in a row are reported; the next calls lose nothing */
static int eintr_storm_reported(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	int i, ret, nr = 0;
	size_t cuts[3];
	struct sb sb;

	three_tasks(&sb, cuts);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	ms.cuts = cuts;
	ms.nr_cuts = 3;
	ms.eintr = 40;
	for (i = 0; i < 100; i++) {
		ret = taskdiag__next(td, &task);
		if (ret == -EINTR)
			continue;
		if (ret <= 0)
			break;
		nr++;
		if (taskdiag_task__pid(task) != (__u32)nr)
			ret = -1000;
	}
	taskdiag__delete(td);
	sb_free(&sb);
	CHECK_EQ(ret, 0);
	CHECK_EQ(nr, 3);
	CHECK(i > 3);
	return 0;
}

static int read_error_then_resume(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	size_t cuts[3];
	struct run r;
	struct sb sb;
	int ret;

	three_tasks(&sb, cuts);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	ms.cuts = cuts;
	ms.nr_cuts = 3;
	ms.err = -EIO;
	ms.err_at = 2;
	ret = taskdiag__next(td, &task);
	if (ret == 1)
		ret = taskdiag__next(td, &task);
	if (ret == -EIO)
		ret = run_all(td, &r);
	taskdiag__delete(td);
	sb_free(&sb);
	CHECK_EQ(ret, 0);
	CHECK_EQ(r.nr_tasks, 2);
	CHECK_EQ(r.pids[0], 2);
	return 0;
}

static int emsgsize_grows_buffer(void)
{
	struct mem_source ms;
	struct taskdiag *td;
	struct run r;
	struct sb sb;
	size_t size;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 40);
	sb_task(&sb, 2, 2, 1);
	td = mem_session(&ms, &sb, 100);
	CHECK(td);
	size = run_all_and_delete(td, &r);
	CHECK(size > 100);
	sb_free(&sb);
	CHECK_EQ(r.ret, 0);
	CHECK_EQ(r.nr_tasks, 2);
	CHECK_EQ(r.nr_vmas[0], 40);
	return 0;
}

static ssize_t always_emsgsize(void *arg, void *buf, size_t len)
{
	return -EMSGSIZE;
}

static ssize_t too_much(void *arg, void *buf, size_t len)
{
	return len + 1;
}

static ssize_t bogus(void *arg, void *buf, size_t len)
{
	return -5000;
}

static int ok_request(void *arg, const void *req, size_t len)
{
	return 0;
}

/* The first read returns what @read returns */
static int run_read(ssize_t (*read)(void *, void *, size_t))
{
	struct taskdiag_source src = {
		.sz = sizeof(src), .request = ok_request, .read = read,
	};
	struct taskdiag_opts opts = { .sz = sizeof(opts), .source = &src };
	struct taskdiag_task *task;
	struct taskdiag *td;
	int ret;

	td = taskdiag__new(&opts);
	if (!td)
		return -1000;
	ret = td_request(td, TASK_DIAG_DUMP_ALL, 0, 0);
	if (!ret)
		ret = taskdiag__next(td, &task);
	taskdiag__delete(td);
	return ret;
}

static int emsgsize_has_a_limit(void)
{
	CHECK_EQ(run_read(always_emsgsize), -EMSGSIZE);
	return 0;
}

static int source_reads_too_much(void)
{
	CHECK_EQ(run_read(too_much), -EPROTO);
	CHECK_EQ(run_read(bogus), -EPROTO);
	return 0;
}

static int request_error_reported(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 0);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	ms.request_err = -EBUSY;
	ret = td_request(td, TASK_DIAG_DUMP_ALL, 0, 0);
	if (ret == -EBUSY)
		ret = taskdiag__next(td, &task);
	taskdiag__delete(td);
	sb_free(&sb);
	CHECK_EQ(ret, -EINVAL);
	return 0;
}

/* An allocator that fails its call number fail_at (from 0) */
static int nr_allocs, fail_at = -1;

static void *failing_realloc(void *ptr, size_t size)
{
	if (nr_allocs++ == fail_at)
		return NULL;
	return realloc(ptr, size);
}

/* One session on @sb with @fail_at; 0 if it went well, -ENOMEM if not */
static int alloc_run(const struct sb *sb)
{
	struct mem_source ms;
	struct taskdiag_opts opts = {
		.sz = sizeof(opts), .source = &ms.src, .buf_size = 128,
	};
	struct taskdiag *td;
	struct run r;
	int ret;

	nr_allocs = 0;
	mem_source_init(&ms, sb->buf, sb->len);
	taskdiag__test_set_realloc(failing_realloc);
	td = taskdiag__new(&opts);
	taskdiag__test_set_realloc(NULL);
	if (!td)
		return errno == ENOMEM && taskdiag__errmsg(NULL)[0] ? -ENOMEM :
								       -1000;
	ret = td_request(td, TASK_DIAG_DUMP_ALL, 0, SHOW_ALL);
	if (!ret)
		ret = run_all(td, &r);
	if (!ret && r.nr_tasks != 3)
		ret = -1001;
	taskdiag__delete(td);
	return ret;
}

static int enomem_at_every_allocation(void)
{
	size_t cuts[3];
	struct sb sb;
	int i, total, ret = 0;

	three_tasks(&sb, cuts);
	fail_at = -1;
	CHECK_EQ(alloc_run(&sb), 0);
	total = nr_allocs;
	CHECK(total > 3);
	for (i = 0; i < total && !ret; i++) {
		fail_at = i;
		ret = alloc_run(&sb) == -ENOMEM ? 0 : -1;
		if (ret)
			printf("# allocation %d did not fail cleanly\n", i);
	}
	fail_at = -1;
	sb_free(&sb);
	return ret;
}

/* Once the arrays have grown, tasks cost no allocation */
static int no_allocation_per_task(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag_opts opts = {
		.sz = sizeof(opts), .source = &ms.src, .buf_size = 4096,
	};
	struct taskdiag *td;
	int i, ret = 0, warm = 0;
	struct sb sb;

	sb_init(&sb, 1);
	for (i = 1; i <= 2000; i++)
		sb_task(&sb, i, i, 1 + i % 10);
	mem_source_init(&ms, sb.buf, sb.len);
	fail_at = -1;
	taskdiag__test_set_realloc(failing_realloc);
	td = taskdiag__new(&opts);
	taskdiag__test_set_realloc(NULL);
	CHECK(td);
	CHECK(!td_request(td, TASK_DIAG_DUMP_ALL, 0, SHOW_ALL));
	for (i = 0; (ret = taskdiag__next(td, &task)) > 0; i++)
		if (i == 20)
			warm = nr_allocs;
	taskdiag__delete(td);
	sb_free(&sb);
	CHECK_EQ(ret, 0);
	CHECK_EQ(i, 2000);
	CHECK_EQ(nr_allocs, warm);
	return 0;
}

const struct td_test fault_tests[] = {
	TD_TEST(eintr_once_retried),
	TD_TEST(eintr_storm_reported),
	TD_TEST(read_error_then_resume),
	TD_TEST(emsgsize_grows_buffer),
	TD_TEST(emsgsize_has_a_limit),
	TD_TEST(source_reads_too_much),
	TD_TEST(request_error_reported),
	TD_TEST(enomem_at_every_allocation),
	TD_TEST(no_allocation_per_task),
	{ }
};
