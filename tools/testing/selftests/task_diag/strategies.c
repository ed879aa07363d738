// SPDX-License-Identifier: GPL-2.0
/*
 * Dump strategies at scale: every task they select reported exactly once,
 * in their order, whatever the read() size; and descriptions that do not
 * fit in one read continued (TASK_DIAG_FLAG_CONT) without losing or
 * repeating anything.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "td_test.h"

#define NR_PROCS	1000
#define NR_MT_PROCS	1000
#define NR_MT_THREADS	10
#define NR_BIG_THREADS	1234
#define NR_VMAS		2000

/* ALL: processes only, in increasing tgid order */
static void expect_process_order(struct __test_metadata *_metadata,
				 struct td_dump *d)
{
	size_t i, bad = 0;

	for (i = 0; i < d->nr_tasks; i++)
		if (d->tasks[i].pid != d->tasks[i].tgid ||
		    (i && d->tasks[i].tgid <= d->tasks[i - 1].tgid))
			bad++;
	EXPECT_EQ(0U, bad) TH_LOG("ALL is not processes in tgid order");
}

/* ALL_THREAD: processes in tgid order, the threads of each together */
static void expect_thread_order(struct __test_metadata *_metadata,
				struct td_dump *d)
{
	size_t i, bad = 0;

	for (i = 1; i < d->nr_tasks; i++)
		if (d->tasks[i].tgid < d->tasks[i - 1].tgid)
			bad++;
	EXPECT_EQ(0U, bad) TH_LOG("ALL_THREAD is not grouped in tgid order");
}

/* The sorted pids of the tasks of @d in our process group, in @out */
static size_t group_pids(struct td_dump *d, __u32 *out)
{
	__u32 pgid = getpgrp();
	size_t i, n = 0;

	for (i = 0; i < d->nr_index; i++)
		if (d->tasks[d->index[i].idx].base.pgid == pgid)
			out[n++] = d->index[i].pid;
	return n;
}

/* @a and @b report the same tasks of our process group */
static bool same_group_set(struct td_dump *a, struct td_dump *b)
{
	__u32 *pa, *pb;
	size_t na, nb;
	bool same;

	td_nr_dups(a, NULL);	/* builds the index */
	td_nr_dups(b, NULL);
	pa = calloc(a->nr_tasks + 1, sizeof(*pa));
	pb = calloc(b->nr_tasks + 1, sizeof(*pb));
	if (!pa || !pb)
		abort();
	na = group_pids(a, pa);
	nb = group_pids(b, pb);
	same = na == nb && !memcmp(pa, pb, na * sizeof(*pa));
	free(pa);
	free(pb);
	return same;
}

FIXTURE(procs) {
	/* NR_PROCS single-threaded sleeping children */
	pid_t *pids;
};

FIXTURE_SETUP(procs)
{
	TD_SKIP_IF_MISSING();
	self->pids = calloc(NR_PROCS, sizeof(pid_t));
	ASSERT_NE(NULL, self->pids);
	ASSERT_EQ(0, spawn_many(self->pids, NR_PROCS, 1));
}

FIXTURE_TEARDOWN(procs)
{
	if (!self->pids)
		return;
	kill_reap_all(self->pids, NR_PROCS);
	free(self->pids);
}

TEST_F_TIMEOUT(procs, all_reports_every_process, 600)
{
	struct td_dump d;

	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ALL, 0,
			     TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	td_expect_no_dups(_metadata, &d);
	td_expect_each_once(_metadata, &d, self->pids, NR_PROCS);
	EXPECT_EQ(1U, td_count(&d, getpid()));
	expect_process_order(_metadata, &d);
	td_dump_free(&d);
}

TEST_F_TIMEOUT(procs, children_reports_every_child, 600)
{
	struct td_dump d;
	size_t i, bad = 0;

	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_CHILDREN,
			     getpid(), TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	EXPECT_EQ((size_t)NR_PROCS, d.nr_tasks);
	td_expect_each_once(_metadata, &d, self->pids, NR_PROCS);
	for (i = 0; i < d.nr_tasks; i++)
		if (d.tasks[i].base.ppid != (__u32)getpid())
			bad++;
	EXPECT_EQ(0U, bad);
	td_dump_free(&d);
}

TEST_F_TIMEOUT(procs, same_set_small_and_big_reads, 600)
{
	static const __u64 strategies[] = { TASK_DIAG_DUMP_ALL,
					    TASK_DIAG_DUMP_ALL_THREAD,
					    TASK_DIAG_DUMP_CHILDREN };
	struct td_dump small, big;
	size_t s;

	for (s = 0; s < ARRAY_SIZE(strategies); s++) {
		ASSERT_EQ(0, td_dump(&small, TASK_DIAG_SHOW_BASE,
				     strategies[s], getpid(), TD_BUF_SMALL));
		ASSERT_EQ(0, td_dump(&big, TASK_DIAG_SHOW_BASE, strategies[s],
				     getpid(), TD_BUF_BIG));
		TD_EXPECT_CLEAN(&small);
		TD_EXPECT_CLEAN(&big);
		td_expect_no_dups(_metadata, &small);
		td_expect_no_dups(_metadata, &big);
		td_expect_each_once(_metadata, &small, self->pids, NR_PROCS);
		td_expect_each_once(_metadata, &big, self->pids, NR_PROCS);
		EXPECT_TRUE(same_group_set(&small, &big))
			TH_LOG("strategy %llu: 4 KiB and 1 MiB reads differ",
			       (unsigned long long)strategies[s]);
		td_dump_free(&small);
		td_dump_free(&big);
	}
}

TEST_F_TIMEOUT(procs, one_reports_one, 600)
{
	static const size_t sizes[] = { TD_BUF_SMALL, TD_BUF_BIG };
	pid_t pid = self->pids[NR_PROCS / 2];
	struct td_dump d;
	size_t i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ONE,
				     pid, sizes[i]));
		TD_EXPECT_CLEAN(&d);
		EXPECT_EQ(1U, d.nr_msgs);
		ASSERT_EQ(1U, d.nr_tasks);
		EXPECT_EQ((__u32)pid, d.tasks[0].pid);
		EXPECT_EQ((__u32)pid, d.tasks[0].tgid);
		td_dump_free(&d);
	}
}

FIXTURE(threads) {
	/* NR_MT_PROCS children of NR_MT_THREADS threads each */
	pid_t *pids;
};

FIXTURE_SETUP(threads)
{
	TD_SKIP_IF_MISSING();
	self->pids = calloc(NR_MT_PROCS, sizeof(pid_t));
	ASSERT_NE(NULL, self->pids);
	ASSERT_EQ(0, spawn_many(self->pids, NR_MT_PROCS, NR_MT_THREADS));
}

FIXTURE_TEARDOWN(threads)
{
	if (!self->pids)
		return;
	kill_reap_all(self->pids, NR_MT_PROCS);
	free(self->pids);
}

/* Every thread of @pid, as /proc/PID/task lists them, once in @d */
static int check_threads(struct td_dump *d, pid_t pid, int nthreads)
{
	struct td_task *t;
	pid_t *tids;
	int n, i, bad = 0;

	n = proc_tids(pid, &tids);
	if (n != nthreads)
		bad++;
	for (i = 0; i < n; i++) {
		t = td_find(d, tids[i]);
		if (td_count(d, tids[i]) != 1 || t->tgid != (__u32)pid)
			bad++;
	}
	free(tids);
	return bad;
}

TEST_F_TIMEOUT(threads, all_thread_reports_every_thread, 1500)
{
	struct td_dump small, big;
	int i, bad = 0, first = 0;

	ASSERT_EQ(0, td_dump(&small, TASK_DIAG_SHOW_BASE,
			     TASK_DIAG_DUMP_ALL_THREAD, 0, TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&small);
	td_expect_no_dups(_metadata, &small);
	expect_thread_order(_metadata, &small);
	for (i = 0; i < NR_MT_PROCS; i++) {
		if (check_threads(&small, self->pids[i], NR_MT_THREADS) &&
		    !bad++)
			first = self->pids[i];
	}
	EXPECT_EQ(0, bad) TH_LOG("%d processes, pid %d first, not fully seen",
				 bad, first);
	TH_LOG("%zu threads in %u reads of 4 KiB", small.nr_tasks,
	       small.nr_reads);

	ASSERT_EQ(0, td_dump(&big, TASK_DIAG_SHOW_BASE,
			     TASK_DIAG_DUMP_ALL_THREAD, 0, TD_BUF_BIG));
	TD_EXPECT_CLEAN(&big);
	td_expect_no_dups(_metadata, &big);
	expect_thread_order(_metadata, &big);
	EXPECT_TRUE(same_group_set(&small, &big));
	td_dump_free(&small);
	td_dump_free(&big);
}

FIXTURE(big_group) {
	/* one child of NR_BIG_THREADS threads */
	pid_t pid;
};

static int big_group_fn(void *arg)
{
	return start_threads(NR_BIG_THREADS - 1, NULL);
}

FIXTURE_SETUP(big_group)
{
	TD_SKIP_IF_MISSING();
	self->pid = spawn_child(big_group_fn, NULL);
	ASSERT_GT(self->pid, 0);
}

FIXTURE_TEARDOWN(big_group)
{
	kill_reap(self->pid);
}

TEST_F_TIMEOUT(big_group, thread_reports_every_thread, 600)
{
	static const size_t sizes[] = { TD_BUF_SMALL, TD_BUF_BIG };
	struct td_dump d;
	size_t i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE,
				     TASK_DIAG_DUMP_THREAD, self->pid,
				     sizes[i]));
		TD_EXPECT_CLEAN(&d);
		EXPECT_EQ((size_t)NR_BIG_THREADS, d.nr_tasks);
		td_expect_no_dups(_metadata, &d);
		EXPECT_EQ(0, check_threads(&d, self->pid, NR_BIG_THREADS));
		td_dump_free(&d);
	}
}

/* THREAD of any thread is about all the threads of its process */
TEST_F_TIMEOUT(big_group, thread_of_any_thread, 600)
{
	struct td_dump d;
	pid_t *tids;
	int n;

	n = proc_tids(self->pid, &tids);
	ASSERT_EQ(NR_BIG_THREADS, n);
	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_THREAD,
			     tids[n - 1] == self->pid ? tids[0] : tids[n - 1],
			     TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	EXPECT_EQ((size_t)NR_BIG_THREADS, d.nr_tasks);
	EXPECT_EQ(0, check_threads(&d, self->pid, NR_BIG_THREADS));
	free(tids);
	td_dump_free(&d);
}

TEST_F_TIMEOUT(big_group, one_of_threaded_process, 600)
{
	struct td_dump d;

	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_STAT,
			     TASK_DIAG_DUMP_ONE, self->pid, TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	EXPECT_EQ(1U, d.nr_msgs);
	ASSERT_EQ(1U, d.nr_tasks);
	EXPECT_EQ((__u32)self->pid, d.tasks[0].pid);
	EXPECT_EQ((__u32)NR_BIG_THREADS, d.tasks[0].stat.threads);
	td_dump_free(&d);
}

FIXTURE(vmas) {
	/* a stopped child with NR_VMAS mappings that cannot merge */
	pid_t pid;
};

static int vmas_fn(void *arg)
{
	return map_many_vmas(NR_VMAS);
}

FIXTURE_SETUP(vmas)
{
	TD_SKIP_IF_MISSING();
	self->pid = spawn_child(vmas_fn, NULL);
	ASSERT_GT(self->pid, 0);
	ASSERT_EQ(0, stop_child(self->pid));
}

FIXTURE_TEARDOWN(vmas)
{
	kill_reap(self->pid);
}

/* The child's description in @d was continued and its VMAs are all there */
static void expect_continued(struct __test_metadata *_metadata,
			     struct td_dump *d, pid_t pid)
{
	struct td_diff df = {};
	struct td_task *t = td_find(d, pid);

	ASSERT_NE(NULL, t);
	EXPECT_EQ(1U, td_count(d, pid));
	EXPECT_LT(1U, t->nmsgs);
	EXPECT_EQ(t->nmsgs - 1, t->ncont);
	EXPECT_LE((size_t)NR_VMAS, t->nr_vmas);
	vmas_vs_proc(t, pid, &df);
	EXPECT_NO_DIFF(&df);
}

TEST_F_TIMEOUT(vmas, vma_continued, 300)
{
	struct td_dump d;

	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_VMA, TASK_DIAG_DUMP_ONE,
			     self->pid, TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	EXPECT_LE(d.max_read, (size_t)TD_BUF_SMALL);
	EXPECT_EQ(1U, d.nr_tasks);
	expect_continued(_metadata, &d, self->pid);
	td_dump_free(&d);
}

TEST_F_TIMEOUT(vmas, all_groups_continued, 300)
{
	struct td_diff df = {};
	struct td_dump d;
	struct td_task *t;

	ASSERT_EQ(0, td_dump(&d, TD_SHOW_ALL, TASK_DIAG_DUMP_ONE, self->pid,
			     TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	expect_continued(_metadata, &d, self->pid);
	t = td_find(&d, self->pid);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(TD_SHOW_ALL & ~TASK_DIAG_SHOW_VMA_STAT, t->groups);
	base_diff(t, self->pid, 0, &df);
	creds_diff(t, self->pid, &df);
	stat_diff(t, self->pid, 0, &df);
	statm_diff(t, self->pid, &df);
	EXPECT_NO_DIFF(&df);
	td_dump_free(&d);
}

TEST_F_TIMEOUT(vmas, continued_in_all_and_children, 300)
{
	static const __u64 strategies[] = { TASK_DIAG_DUMP_ALL,
					    TASK_DIAG_DUMP_CHILDREN };
	struct td_dump d;
	size_t s;

	for (s = 0; s < 2; s++) {
		ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE |
				     TASK_DIAG_SHOW_VMA, strategies[s],
				     getpid(), TD_BUF_SMALL));
		TD_EXPECT_CLEAN(&d);
		td_expect_no_dups(_metadata, &d);
		expect_continued(_metadata, &d, self->pid);
		td_dump_free(&d);
	}
}

/* Whatever the read() size, the same VMAs */
TEST_F_TIMEOUT(vmas, any_read_size, 300)
{
	static const size_t sizes[] = { 1024, 3000, 65536, TD_BUF_BIG };
	struct td_diff df = {};
	struct td_dump d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_VMA |
				     TASK_DIAG_SHOW_VMA_STAT,
				     TASK_DIAG_DUMP_ONE, self->pid, sizes[i]));
		TD_EXPECT_CLEAN(&d);
		ASSERT_EQ(1U, d.nr_tasks);
		EXPECT_LE(d.max_read, sizes[i]);
		vmas_vs_proc(&d.tasks[0], self->pid, &df);
		if (df.n)
			TH_LOG("reads of %zu bytes", sizes[i]);
		EXPECT_NO_DIFF(&df);
		td_dump_free(&d);
	}
}

TEST_HARNESS_MAIN
