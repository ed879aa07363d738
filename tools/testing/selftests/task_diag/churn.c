// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks exit and appear while a response is read: nothing breaks, the
 * tasks alive throughout are reported exactly once, and a task that exits
 * while its description is continued gets an empty continuation.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "td_test.h"

#define NR_LONG		50	/* long-lived processes */
#define NR_LONG_THREADS	3	/* threads of each */
#define NR_CHURNERS	3
#define ROUNDS		8	/* dumps per test */
#define CHURN_VMAS	300	/* mappings of the VMA churner's children */
#define NR_CONT_VMAS	2000	/* enough for many 4 KiB reads */
#define NR_SLEEPERS	10

/* Children that exit at once, in a loop */
static void forker_loop(void)
{
	pid_t pid;

	for (;;) {
		pid = fork();
		if (!pid)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

static void *short_thread(void *arg)
{
	return arg;
}

/* Threads that exit at once, in a loop */
static void thread_loop(void)
{
	pthread_attr_t attr;
	pthread_t th;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	for (;;)
		if (!pthread_create(&th, &attr, short_thread, NULL))
			pthread_join(th, NULL);
}

/* Children with many VMAs that live a little, so some exit mid-description */
static void vma_forker_loop(void)
{
	unsigned int seed = getpid();
	pid_t pid;

	if (map_many_vmas(CHURN_VMAS))
		_exit(1);
	for (;;) {
		pid = fork();
		if (!pid) {
			usleep(rand_r(&seed) % 2000);
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

FIXTURE(churn) {
	/* NR_LONG sleeping processes of NR_LONG_THREADS threads each */
	pid_t *longlived;
	/* the threads of those, as /proc/PID/task listed them */
	pid_t *tids;
	int nr_tids;
	/* forker_loop, thread_loop and vma_forker_loop */
	pid_t churner[NR_CHURNERS];
};

FIXTURE_SETUP(churn)
{
	void (*loops[NR_CHURNERS])(void) = { forker_loop, thread_loop,
					     vma_forker_loop };
	pid_t *t;
	int i, j, n;

	TD_SKIP_IF_MISSING();
	self->longlived = calloc(NR_LONG, sizeof(pid_t));
	self->tids = calloc(NR_LONG * NR_LONG_THREADS, sizeof(pid_t));
	ASSERT_NE(NULL, self->longlived);
	ASSERT_NE(NULL, self->tids);
	ASSERT_EQ(0, spawn_many(self->longlived, NR_LONG, NR_LONG_THREADS));
	for (i = 0; i < NR_LONG; i++) {
		n = proc_tids(self->longlived[i], &t);
		ASSERT_EQ(NR_LONG_THREADS, n);
		for (j = 0; j < n; j++)
			self->tids[self->nr_tids++] = t[j];
		free(t);
	}
	for (i = 0; i < NR_CHURNERS; i++) {
		self->churner[i] = spawn_loop(loops[i]);
		ASSERT_GT(self->churner[i], 0);
	}
	usleep(100000);		/* let them get going */
}

FIXTURE_TEARDOWN(churn)
{
	kill_reap_all(self->churner, NR_CHURNERS);
	if (self->longlived)
		kill_reap_all(self->longlived, NR_LONG);
	free(self->longlived);
	free(self->tids);
}

TEST_F_TIMEOUT(churn, all_thread_small_reads, 600)
{
	struct td_dump d;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE,
				     TASK_DIAG_DUMP_ALL_THREAD, 0,
				     TD_BUF_SMALL));
		TD_EXPECT_CLEAN(&d);
		td_expect_no_dups(_metadata, &d);
		td_expect_each_once(_metadata, &d, self->tids, self->nr_tids);
		td_expect_each_once(_metadata, &d, self->churner, NR_CHURNERS);
		EXPECT_EQ(1U, td_count(&d, getpid()));
		td_dump_free(&d);
	}
}

TEST_F_TIMEOUT(churn, all_vmas_small_reads, 600)
{
	unsigned int emptied = 0;
	struct td_diff df = {};
	struct td_dump d;
	size_t i;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE |
				     TASK_DIAG_SHOW_VMA, TASK_DIAG_DUMP_ALL, 0,
				     TD_BUF_SMALL));
		TD_EXPECT_CLEAN(&d);
		td_expect_no_dups(_metadata, &d);
		td_expect_each_once(_metadata, &d, self->longlived, NR_LONG);
		td_expect_each_once(_metadata, &d, self->churner, NR_CHURNERS);
		for (i = 0; i < NR_LONG; i++) {
			struct td_task *t = td_find(&d, self->longlived[i]);

			if (t)
				vmas_vs_proc(t, self->longlived[i], &df);
		}
		for (i = 0; i < d.nr_tasks; i++)
			emptied += d.tasks[i].closed_empty;
		td_dump_free(&d);
	}
	EXPECT_NO_DIFF(&df);
	TH_LOG("%u descriptions ended by an empty continuation", emptied);
}

TEST_F_TIMEOUT(churn, children_small_reads, 600)
{
	struct td_dump d;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE |
				     TASK_DIAG_SHOW_VMA,
				     TASK_DIAG_DUMP_CHILDREN, getpid(),
				     TD_BUF_SMALL));
		TD_EXPECT_CLEAN(&d);
		EXPECT_EQ((size_t)NR_LONG + NR_CHURNERS, d.nr_tasks);
		td_expect_each_once(_metadata, &d, self->longlived, NR_LONG);
		td_expect_each_once(_metadata, &d, self->churner, NR_CHURNERS);
		td_dump_free(&d);
	}
}

FIXTURE(cont_exit) {
	/* a child with NR_CONT_VMAS mappings: its description takes many reads */
	pid_t big;
	/* sleeping children forked after it */
	pid_t sleepers[NR_SLEEPERS];
	/* /proc/task-diag */
	int fd;
};

static int big_fn(void *arg)
{
	return map_many_vmas(NR_CONT_VMAS);
}

FIXTURE_SETUP(cont_exit)
{
	int i;

	self->fd = -1;
	TD_SKIP_IF_MISSING();
	self->big = spawn_child(big_fn, NULL);
	ASSERT_GT(self->big, 0);
	for (i = 0; i < NR_SLEEPERS; i++) {
		self->sleepers[i] = spawn_child(NULL, NULL);
		ASSERT_GT(self->sleepers[i], 0);
	}
	self->fd = td_open();
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(cont_exit)
{
	if (self->fd >= 0)
		close(self->fd);
	kill_reap(self->big);
	kill_reap_all(self->sleepers, NR_SLEEPERS);
}

/*
 * Read until the big child's description is continued with part of its
 * VMAs: where its message falls in a read, the first part may hold its
 * BASE alone
 */
static void read_into_big(struct __test_metadata *_metadata,
			  FIXTURE_DATA(cont_exit) *self, struct td_dump *d)
{
	while (!d->finished) {
		ASSERT_LE(0, td_read_once(self->fd, d, TD_BUF_SMALL));
		if (d->pending >= 0 &&
		    d->tasks[d->pending].pid == (__u32)self->big &&
		    d->tasks[d->pending].nr_vmas)
			return;
	}
	ASSERT_TRUE(false) TH_LOG("pid %d was not continued", self->big);
}

/* The big child's description: started, then closed by an empty message */
static void expect_closed(struct __test_metadata *_metadata,
			  struct td_dump *d, pid_t pid)
{
	struct td_task *t = td_find(d, pid);

	TD_EXPECT_CLEAN(d);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(1U, td_count(d, pid));
	EXPECT_TRUE(t->closed_empty);
	EXPECT_EQ(t->nmsgs - 1, t->ncont);
	EXPECT_LT(0U, t->nr_vmas);
	EXPECT_GT((size_t)NR_CONT_VMAS, t->nr_vmas);
}

/* ONE: the task is killed and reaped between two reads */
TEST_F_TIMEOUT(cont_exit, one_reaped_between_reads, 120)
{
	__u64 show = TASK_DIAG_SHOW_VMA;
	pid_t big = self->big;
	struct td_dump d;

	ASSERT_EQ(0, td_request(self->fd, show, TASK_DIAG_DUMP_ONE, big,
				TD_SEQ));
	td_dump_init(&d, show, TD_SEQ);
	read_into_big(_metadata, self, &d);
	kill_reap(self->big);
	self->big = 0;

	EXPECT_LT(0, td_read_once(self->fd, &d, TD_BUF_SMALL));
	EXPECT_EQ(0, td_read_once(self->fd, &d, TD_BUF_SMALL));
	EXPECT_EQ(1U, d.nr_tasks);
	EXPECT_EQ(2U, d.nr_msgs);
	expect_closed(_metadata, &d, big);
	td_dump_free(&d);
}

/* ONE: the task exits (a zombie, not reaped yet) between two reads */
TEST_F_TIMEOUT(cont_exit, one_exits_between_reads, 120)
{
	__u64 show = TASK_DIAG_SHOW_VMA;
	struct td_dump d;
	siginfo_t si;

	ASSERT_EQ(0, td_request(self->fd, show, TASK_DIAG_DUMP_ONE, self->big,
				TD_SEQ));
	td_dump_init(&d, show, TD_SEQ);
	read_into_big(_metadata, self, &d);
	ASSERT_EQ(0, kill(self->big, SIGKILL));
	ASSERT_EQ(0, waitid(P_PID, self->big, &si, WEXITED | WNOWAIT));

	ASSERT_EQ(0, td_read_all(self->fd, &d, TD_BUF_SMALL));
	EXPECT_EQ(1U, d.nr_tasks);
	expect_closed(_metadata, &d, self->big);
	td_dump_free(&d);
}

/* ALL and CHILDREN: the dump goes on with the tasks after it */
TEST_F_TIMEOUT(cont_exit, reaped_mid_dump, 120)
{
	static const __u64 strategies[] = { TASK_DIAG_DUMP_ALL,
					    TASK_DIAG_DUMP_CHILDREN };
	__u64 show = TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA;
	struct td_dump d;
	pid_t big;
	size_t s;

	for (s = 0; s < 2; s++) {
		if (s) {
			self->big = spawn_child(big_fn, NULL);
			ASSERT_GT(self->big, 0);
		}
		big = self->big;
		ASSERT_EQ(0, td_request(self->fd, show, strategies[s],
					getpid(), TD_SEQ));
		td_dump_init(&d, show, TD_SEQ);
		read_into_big(_metadata, self, &d);
		kill_reap(self->big);
		self->big = 0;

		ASSERT_EQ(0, td_read_all(self->fd, &d, TD_BUF_SMALL));
		expect_closed(_metadata, &d, big);
		td_expect_no_dups(_metadata, &d);
		td_expect_each_once(_metadata, &d, self->sleepers, NR_SLEEPERS);
		td_dump_free(&d);
	}
}

TEST_HARNESS_MAIN
