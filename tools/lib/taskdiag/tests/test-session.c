// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Tests of sessions: options, backends, the request message, logging.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "tests.h"

static int auto_picks_a_backend(void)
{
	enum taskdiag_backend b;
	struct taskdiag *td;

	td = taskdiag__new(NULL);
	CHECK(td);
	b = taskdiag__backend(td);
	taskdiag__delete(td);
	if (access("/proc/task-diag", F_OK))
		CHECK_EQ(b, TASKDIAG_BACKEND_PROCFS);
	else
		CHECK_EQ(b, TASKDIAG_BACKEND_KERNEL);
	return 0;
}

static int kernel_backend_missing_file(void)
{
	struct taskdiag_opts opts = {
		.sz = sizeof(opts),
		.backend = TASKDIAG_BACKEND_KERNEL,
		.proc_root = "/nonexistent",
	};

	errno = 0;
	CHECK(!taskdiag__new(&opts));
	CHECK_EQ(errno, ENOENT);
	opts.backend = TASKDIAG_BACKEND_AUTO;
	CHECK(!taskdiag__new(&opts));
	CHECK_EQ(errno, ENOENT);
	return 0;
}

static int opts_size_checked(void)
{
	struct {
		struct taskdiag_opts opts;
		char more[16];
	} big;
	struct taskdiag_opts opts = { .backend = TASKDIAG_BACKEND_PROCFS };
	struct taskdiag *td;

	CHECK(!taskdiag__new(&opts));
	CHECK_EQ(errno, EINVAL);
	memset(&big, 0, sizeof(big));
	big.opts.sz = sizeof(big);
	big.opts.backend = TASKDIAG_BACKEND_PROCFS;
	td = taskdiag__new(&big.opts);
	CHECK(td);
	taskdiag__delete(td);
	big.more[3] = 1;
	CHECK(!taskdiag__new(&big.opts));
	CHECK_EQ(errno, EINVAL);
	/* an older, smaller struct: the rest is taken as zero */
	opts.sz = offsetof(struct taskdiag_opts, buf_size);
	td = taskdiag__new(&opts);
	CHECK(td);
	CHECK_EQ(taskdiag__backend(td), TASKDIAG_BACKEND_PROCFS);
	taskdiag__delete(td);
	return 0;
}

static int bad_sources_refused(void)
{
	struct mem_source ms;
	struct taskdiag_opts opts = { .sz = sizeof(opts), .source = &ms.src };

	mem_source_init(&ms, NULL, 0);
	opts.backend = TASKDIAG_BACKEND_PROCFS;
	CHECK(!taskdiag__new(&opts));
	CHECK_EQ(errno, EINVAL);
	opts.backend = TASKDIAG_BACKEND_KERNEL;
	ms.src.read = NULL;
	CHECK(!taskdiag__new(&opts));
	CHECK_EQ(errno, EINVAL);
	return 0;
}

static int backend_names(void)
{
	CHECK(!strcmp(taskdiag__backend_name(TASKDIAG_BACKEND_AUTO), "auto"));
	CHECK(!strcmp(taskdiag__backend_name(TASKDIAG_BACKEND_KERNEL),
		      "kernel"));
	CHECK(!strcmp(taskdiag__backend_name(TASKDIAG_BACKEND_PROCFS),
		      "procfs"));
	CHECK(!strcmp(taskdiag__backend_name(42), "unknown"));
	taskdiag__delete(NULL);
	return 0;
}

static int request_message(void)
{
	struct mem_source ms;
	struct taskdiag_opts opts = { .sz = sizeof(opts), .source = &ms.src };
	struct task_diag_pid req;
	struct nlmsghdr nlh;
	struct taskdiag *td;

	mem_source_init(&ms, NULL, 0);
	td = taskdiag__new(&opts);
	CHECK(td);
	CHECK_EQ(taskdiag__backend(td), TASKDIAG_BACKEND_KERNEL);
	CHECK_EQ(taskdiag__buf_size(td), 128 * 1024);
	CHECK(!td_request(td, TASK_DIAG_DUMP_THREAD, 1234,
				 TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA));
	CHECK(!td_request(td, TASK_DIAG_DUMP_CHILDREN, 99,
				 TASK_DIAG_SHOW_CRED));
	taskdiag__delete(td);

	CHECK_EQ(ms.nr_requests, 2);
	CHECK_EQ(ms.req_len, NLMSG_HDRLEN + sizeof(req));
	memcpy(&nlh, ms.req, sizeof(nlh));
	memcpy(&req, ms.req + NLMSG_HDRLEN, sizeof(req));
	CHECK_EQ(nlh.nlmsg_len, ms.req_len);
	CHECK_EQ(nlh.nlmsg_type, TASK_DIAG_CMD_GET);
	CHECK_EQ(nlh.nlmsg_flags, NLM_F_REQUEST);
	CHECK_EQ(nlh.nlmsg_seq, 2);
	CHECK_EQ(req.dump_strategy, TASK_DIAG_DUMP_CHILDREN);
	CHECK_EQ(req.pid, 99);
	CHECK_EQ(req.show_flags, TASK_DIAG_SHOW_CRED);
	return 0;
}

/* A new request drops the unread rest of the previous answer */
static int new_request_drops_answer(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret = -1;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 0);
	sb_task(&sb, 2, 2, 0);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	if (taskdiag__next(td, &task) != 1)
		goto out;
	sb.seq = 2;
	memcpy(sb.buf + 8, &sb.seq, 4);
	memcpy(sb.buf + 8 + NLMSG_ALIGN(*(__u32 *)sb.buf), &sb.seq, 4);
	if (td_request(td, TASK_DIAG_DUMP_ALL, 0, SHOW_ALL) ||
	    taskdiag__next(td, &task) != 1 || taskdiag_task__pid(task) != 1)
		goto out;
	ret = 0;
out:
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

/* Every group accessor tells the size of its copy, 0 for a missing group */
static int group_sizes(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	size_t size = 1;
	struct sb sb;

	sb_init(&sb, 1);
	sb_task(&sb, 10, 10, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 11, 11, 0);
	sb_base(&sb, 11, 11, "bare");
	sb_msg_end(&sb);
	td = mem_session_flags(&ms, &sb, 0, SHOW_ALL);
	CHECK(td);
	CHECK_EQ(taskdiag__next(td, &task), 1);
	CHECK(taskdiag_task__base(task, &size));
	CHECK_EQ(size, sizeof(struct task_diag_base));
	CHECK(taskdiag_task__creds(task, &size));
	CHECK_EQ(size, sizeof(struct task_diag_creds));
	CHECK(taskdiag_task__stat(task, &size));
	CHECK_EQ(size, sizeof(struct task_diag_stat));
	CHECK(taskdiag_task__statm(task, &size));
	CHECK_EQ(size, sizeof(struct task_diag_statm));
	CHECK_EQ(taskdiag__next(td, &task), 1);
	CHECK(!taskdiag_task__creds(task, &size));
	CHECK_EQ(size, 0);
	CHECK(!taskdiag_task__statm(task, NULL));
	taskdiag__delete(td);
	sb_free(&sb);
	return 0;
}

/* struct taskdiag_request_opts: sz checked like taskdiag_opts' */
static int request_opts_size_checked(void)
{
	struct {
		struct taskdiag_request_opts req;
		char more[16];
	} big;
	struct taskdiag_opts opts = { .sz = sizeof(opts), .source = NULL };
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;

	mem_source_init(&ms, NULL, 0);
	opts.source = &ms.src;
	td = taskdiag__new(&opts);
	CHECK(td);
	memset(&big, 0, sizeof(big));
	CHECK_EQ(taskdiag__request(td, NULL), -EINVAL);
	CHECK_EQ(taskdiag__request(td, &big.req), -EINVAL);	/* sz 0 */
	CHECK(strstr(taskdiag__errmsg(td), "taskdiag_request_opts"));
	big.req.sz = sizeof(big);
	big.req.strategy = TASK_DIAG_DUMP_ALL;
	CHECK_EQ(taskdiag__request(td, &big.req), 0);
	big.more[3] = 1;
	CHECK_EQ(taskdiag__request(td, &big.req), -EINVAL);
	CHECK_EQ(ms.nr_requests, 1);
	/* the answer of the request before is dropped all the same */
	CHECK_EQ(taskdiag__next(td, &task), -EINVAL);
	big.more[3] = 0;
	big.req.__reserved = 1;
	CHECK_EQ(taskdiag__request(td, &big.req), -EINVAL);
	taskdiag__delete(td);
	return 0;
}

/* Why taskdiag__new() failed, for the thread that called it */
static int errmsg_of_failed_new(void)
{
	struct taskdiag_opts opts = {
		.sz = sizeof(opts),
		.backend = TASKDIAG_BACKEND_KERNEL,
		.proc_root = "/nonexistent",
	};
	struct taskdiag *td;

	CHECK(!taskdiag__new(&opts));
	CHECK_EQ(errno, ENOENT);
	CHECK(strstr(taskdiag__errmsg(NULL), "/nonexistent"));
	opts.sz = 1;
	CHECK(!taskdiag__new(&opts));
	CHECK(strstr(taskdiag__errmsg(NULL), "taskdiag_opts"));
	opts.sz = sizeof(opts);
	opts.__reserved[6] = 1;
	CHECK(!taskdiag__new(&opts));
	CHECK_EQ(errno, EINVAL);
	opts.__reserved[6] = 0;
	opts.sz = sizeof(opts);
	opts.backend = TASKDIAG_BACKEND_PROCFS;
	opts.proc_root = NULL;
	td = taskdiag__new(&opts);
	CHECK(td);
	CHECK_EQ(taskdiag__errmsg(NULL)[0], '\0');
	taskdiag__delete(td);
	return 0;
}

#define NR_THREADS	4
#define NR_ROUNDS	20

/*
 * One thread's sessions: one on /proc (itself, every group), one on a
 * memory source, and a taskdiag__new() that fails with a message of its
 * own; each must see its own answers only
 */
static void *sessions_of_a_thread(void *arg)
{
	struct taskdiag_opts opts = {
		.sz = sizeof(opts), .backend = TASKDIAG_BACKEND_PROCFS,
	};
	long id = (long)arg, bad = 0;
	struct taskdiag_task *task;
	struct taskdiag *td, *mem;
	struct mem_source ms;
	char root[64];
	size_t cuts[3];
	struct run r;
	struct sb sb;
	int i;

	three_tasks(&sb, cuts);
	td = taskdiag__new(&opts);
	for (i = 0; td && i < NR_ROUNDS; i++) {
		if (td_request(td, TASK_DIAG_DUMP_ONE, getpid(), SHOW_ALL) ||
		    taskdiag__next(td, &task) != 1 ||
		    taskdiag_task__pid(task) != (__u32)getpid() ||
		    !taskdiag_task__nr_vmas(task) || taskdiag__next(td, &task))
			bad++;
		mem = mem_session_flags(&ms, &sb, 256 << (id + i % 4), SHOW_ALL);
		if (!mem || run_all(mem, &r) || r.nr_tasks != 3 ||
		    r.pids[2] != 3 || r.nr_vmas[1] != 3)
			bad++;
		taskdiag__delete(mem);
		snprintf(root, sizeof(root), "/nonexistent-%ld-%d", id, i);
		opts.proc_root = root;
		if (taskdiag__new(&opts) || !strstr(taskdiag__errmsg(NULL), root))
			bad++;
		opts.proc_root = NULL;
	}
	taskdiag__delete(td);
	sb_free(&sb);
	return (void *)(td ? bad : -1);
}

static int sessions_on_threads(void)
{
	pthread_t threads[NR_THREADS];
	void *bad;
	long i;
	int ret = 0;

	for (i = 0; i < NR_THREADS; i++)
		CHECK(!pthread_create(&threads[i], NULL, sessions_of_a_thread,
				      (void *)i));
	for (i = 0; i < NR_THREADS; i++) {
		CHECK(!pthread_join(threads[i], &bad));
		if (bad) {
			printf("# thread %ld: %ld bad rounds\n", i, (long)bad);
			ret = -1;
		}
	}
	return ret;
}

static int log_count;
static int log_level;

static void count_log(int level, const char *msg, void *arg)
{
	log_count++;
	log_level = level;
	if (arg != &log_count || !msg[0])
		log_count = -1000;
}

static int log_and_errmsg(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	char buf[64];
	struct sb sb;
	int ret;

	sb_init(&sb, 1);
	sb_raw(&sb, "garbage!", 8);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	CHECK(!*taskdiag__errmsg(td));
	taskdiag__set_log(count_log, &log_count);
	ret = taskdiag__next(td, &task);
	taskdiag__set_log(NULL, NULL);
	CHECK_EQ(ret, -EBADMSG);
	CHECK(strstr(taskdiag__errmsg(td), "truncated") ||
	      strstr(taskdiag__errmsg(td), "nlmsg_len"));
	taskdiag__delete(td);
	sb_free(&sb);
	CHECK_EQ(log_count, 1);
	CHECK_EQ(log_level, TASKDIAG_LOG_ERROR);
	CHECK(strstr(taskdiag__strerror(-EBADMSG, buf, sizeof(buf)),
		     "malformed"));
	CHECK(!strcmp(taskdiag__strerror(ENOENT, buf, sizeof(buf)),
		      "No such file or directory"));
	CHECK(!strcmp(taskdiag__errmsg(NULL), ""));
	return 0;
}

const struct td_test session_tests[] = {
	TD_TEST(auto_picks_a_backend),
	TD_TEST(kernel_backend_missing_file),
	TD_TEST(opts_size_checked),
	TD_TEST(bad_sources_refused),
	TD_TEST(backend_names),
	TD_TEST(request_message),
	TD_TEST(new_request_drops_answer),
	TD_TEST(log_and_errmsg),
	TD_TEST(group_sizes),
	TD_TEST(request_opts_size_checked),
	TD_TEST(errmsg_of_failed_new),
	TD_TEST(sessions_on_threads),
	{ }
};
