// SPDX-License-Identifier: GPL-2.0
/*
 * Exactly once, deterministically: every task alive for the whole dump is
 * reported exactly once although tasks of its group exit between two
 * reads, and a description continued with TASK_DIAG_FLAG_CONT is closed,
 * not continued with another address space, when the pid of the continued
 * task is reused or the task execs.
 *
 * - thread_group.*: THREAD and ALL_THREAD dumps of a process [L, T1..T4]
 *   whose threads exit on command: the walk must neither depend on the
 *   (non-leader) tid of the request nor resume by position when threads
 *   already sent and the one it was to resume at have exited;
 * - parent.*: the same for CHILDREN when children are reaped;
 * - cont.*: a process P with NR_CONT_VMAS mappings at CONT_BASE upwards is
 *   continued in 4 KiB reads, then P is replaced by a new process of the
 *   same pid (clone3() with set_tid) or execs: the next message about P
 *   must close its description.
 *
 * All steps are synchronised through pipes, waitpid() and polling /proc.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/types.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "td_test.h"

#ifndef __NR_clone3
#define __NR_clone3		435
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif

#define MAX_THREADS	5		/* L and T1..T4 */
#define NR_KIDS		4		/* A, B, C, D */
#define NR_CONT_VMAS	2000		/* a description of many 4 KiB reads */
#define CONT_BASE	0x10000000UL	/* below what any image maps */
#define CONT_END	(CONT_BASE + NR_CONT_VMAS * 4096UL)
#define GONE_POLLS	10000		/* 1 ms each */
/* The exec()ed image of cont_exec_new_mm: the fd to report on */
#define EXEC_ENV	"TD_EXACTLY_ONCE_READY_FD"

/*
 * The image that cont_exec_new_mm makes P exec (this program again): say
 * that it runs, then wait to be killed (PR_SET_PDEATHSIG is kept).
 */
static void __attribute__((constructor)) exec_helper(void)
{
	const char *env = getenv(EXEC_ENV);

	if (!env)
		return;
	if (write(atoi(env), "E", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/* @pid reported exactly once in @d; @name tells it in the log */
/* close(@fd) of a fixture's descriptor that was opened (>= 0) */
static void close_open(int fd)
{
	if (fd >= 0)
		close(fd);
}

static void expect_once(struct __test_metadata *_metadata, struct td_dump *d,
			pid_t pid, const char *name)
{
	EXPECT_EQ(1U, td_count(d, pid))
		TH_LOG("%s (%d) reported %u times", name, pid,
		       td_count(d, pid));
}

/*
 * The length of one message with TASK_DIAG_BASE only (all are the same):
 * what a ONE dump returns minus its NLMSG_DONE.  Drains the dump.
 */
static ssize_t base_msg_len(int fd, pid_t pid)
{
	char buf[4096];
	ssize_t n;

	if (td_request(fd, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ONE, pid,
		       TD_SEQ))
		return -1;
	n = read(fd, buf, sizeof(buf));
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	if (n <= (ssize_t)NLMSG_LENGTH(sizeof(int)))
		return -1;
	return n - NLMSG_LENGTH(sizeof(int));
}

/* Poll until /proc/@pid/task/@tid is gone: the thread is unhashed */
static int wait_thread_gone(pid_t pid, pid_t tid)
{
	char path[64];
	int i;

	snprintf(path, sizeof(path), "/proc/%d/task/%d", pid, tid);
	for (i = 0; i < GONE_POLLS; i++) {
		if (access(path, F_OK) && errno == ENOENT)
			return 0;
		usleep(1000);
	}
	return -ETIMEDOUT;
}

/* A process [L, T1..Tn-1] whose threads Ti exit on command */
struct thread_group {
	pid_t tid[MAX_THREADS];		/* [0]: the leader L, [i]: Ti */
	int quit[MAX_THREADS];		/* a byte written to quit[i] ends Ti */
	int n;
};

struct member_arg {
	int idx;
	int quit;			/* read end of the thread's quit pipe */
	int report;			/* write end: { idx, tid } */
};

static void *member_fn(void *p)
{
	struct member_arg *a = p;
	int rec[2] = { a->idx, (int)syscall(SYS_gettid) };
	char c;

	if (write(a->report, rec, sizeof(rec)) != sizeof(rec))
		_exit(1);
	while (read(a->quit, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;			/* pthread_exit(): only this thread */
}

/* In the child: start T1..T@n-1 in this order, report L, sleep */
static int group_leader(int n, int quit[][2], int report)
{
	static struct member_arg args[MAX_THREADS];
	int rec[2] = { 0, getpid() };
	pthread_attr_t attr;
	pthread_t th;
	int i;

	if (pthread_attr_init(&attr) ||
	    pthread_attr_setstacksize(&attr, 64 << 10))
		return 1;
	for (i = 1; i < n; i++) {
		args[i].idx = i;
		args[i].quit = quit[i][0];
		args[i].report = report;
		if (pthread_create(&th, &attr, member_fn, &args[i]))
			return 1;
	}
	if (write(report, rec, sizeof(rec)) != sizeof(rec))
		return 1;
	for (;;)
		pause();
}

/* Fork the process [L, T1..T@n-1]; 0 once every thread runs */
static int group_spawn(struct thread_group *g, int n)
{
	int quit[MAX_THREADS][2], rep[2], rec[2], i, got = 0, ret = 0;
	pid_t parent = getpid(), pid;

	if (pipe(rep))
		return -errno;
	for (i = 1; i < n; i++)
		if (pipe(quit[i]))
			return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		die_with_parent(parent);
		close(rep[0]);
		for (i = 1; i < n; i++)
			close(quit[i][1]);
		_exit(group_leader(n, quit, rep[1]));
	}
	g->tid[0] = pid;
	g->n = n;
	close(rep[1]);
	for (i = 1; i < n; i++) {
		close(quit[i][0]);
		g->quit[i] = quit[i][1];
	}
	for (; got < n; got++) {
		if (read(rep[0], rec, sizeof(rec)) != sizeof(rec) ||
		    rec[0] < 0 || rec[0] >= n) {
			ret = -ECHILD;
			break;
		}
		g->tid[rec[0]] = rec[1];
	}
	close(rep[0]);
	return ret;
}

/* Make Ti exit; 0 once it is gone from /proc/L/task */
static int group_exit(struct thread_group *g, int i)
{
	if (write(g->quit[i], "q", 1) != 1)
		return -errno;
	return wait_thread_gone(g->tid[0], g->tid[i]);
}

FIXTURE(thread_group) {
	/* the process [L, T1..], made by the test */
	struct thread_group g;
	/* /proc/task-diag */
	int fd;
};

FIXTURE_SETUP(thread_group)
{
	int i;

	self->fd = -1;
	self->g.n = 0;
	self->g.tid[0] = 0;
	for (i = 0; i < MAX_THREADS; i++)
		self->g.quit[i] = -1;
	TD_SKIP_IF_MISSING();
	self->fd = td_open();
	ASSERT_GE(self->fd, 0) TH_LOG("open %s: %m", TD_PATH);
}

FIXTURE_TEARDOWN(thread_group)
{
	int i;

	close_open(self->fd);
	kill_reap(self->g.tid[0]);
	for (i = 0; i < MAX_THREADS; i++)
		if (self->g.quit[i] >= 0)
			close(self->g.quit[i]);
}

/*
 * THREAD with the pid of a non-leader thread T1, which exits before the
 * first read: the process lives on, its other threads are reported.
 */
TEST_F(thread_group, thread_nonleader_tid_exits)
{
	struct thread_group *g = &self->g;
	struct td_dump d;

	ASSERT_EQ(0, group_spawn(g, 3));
	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_THREAD, g->tid[1], TD_SEQ));
	ASSERT_EQ(0, group_exit(g, 1));

	td_dump_init(&d, TASK_DIAG_SHOW_BASE, TD_SEQ);
	ASSERT_EQ(0, td_read_all(self->fd, &d, TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	expect_once(_metadata, &d, g->tid[0], "L");
	expect_once(_metadata, &d, g->tid[2], "T2");
	EXPECT_EQ(0U, td_count(&d, g->tid[1])) TH_LOG("T1 had exited");
	EXPECT_EQ(2U, d.nr_tasks);
	td_dump_free(&d);
}

/*
 * L and T1 were sent, the walk is to resume at T2: T1 and T2 exit, then
 * the rest is read with @bufsize reads.  L, T1, T3 and T4 once each.
 */
static void exit_cursor_then_read(struct __test_metadata *_metadata,
				  struct thread_group *g, int fd,
				  struct td_dump *d, size_t bufsize)
{
	ASSERT_EQ(0, group_exit(g, 1));
	ASSERT_EQ(0, group_exit(g, 2));
	ASSERT_EQ(0, td_read_all(fd, d, bufsize));
	TD_EXPECT_CLEAN(d);
	td_expect_no_dups(_metadata, d);
	expect_once(_metadata, d, g->tid[0], "L");
	expect_once(_metadata, d, g->tid[1], "T1");
	expect_once(_metadata, d, g->tid[3], "T3");
	expect_once(_metadata, d, g->tid[4], "T4");
}

/*
 * THREAD of L, two messages a read: after the first read (L, T1; the walk
 * is to resume at T2) T1 and T2 exit.  T3 and T4 must be reported.
 */
TEST_F(thread_group, thread_cursor_after_exits)
{
	struct thread_group *g = &self->g;
	struct td_dump d;
	ssize_t msg;

	ASSERT_EQ(0, group_spawn(g, 5));
	msg = base_msg_len(self->fd, g->tid[0]);
	ASSERT_LT(0, msg);

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_THREAD, g->tid[0], TD_SEQ));
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, TD_SEQ);
	ASSERT_EQ(2 * msg, td_read_once(self->fd, &d, 2 * msg));
	ASSERT_EQ(2U, d.nr_tasks);
	ASSERT_EQ((__u32)g->tid[0], d.tasks[0].pid);
	ASSERT_EQ((__u32)g->tid[1], d.tasks[1].pid);

	exit_cursor_then_read(_metadata, g, self->fd, &d, 2 * msg);
	td_dump_free(&d);
}

/*
 * The same in ALL_THREAD: one message a read until T1 was sent, so that
 * the walk is to resume at T2 inside the process; then T1 and T2 exit.
 */
TEST_F(thread_group, all_thread_cursor_after_exits)
{
	struct thread_group *g = &self->g;
	struct td_dump d;
	ssize_t msg;

	ASSERT_EQ(0, group_spawn(g, 5));
	msg = base_msg_len(self->fd, g->tid[0]);
	ASSERT_LT(0, msg);

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_ALL_THREAD, 0, TD_SEQ));
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, TD_SEQ);
	do {
		ASSERT_EQ(msg, td_read_once(self->fd, &d, msg))
			TH_LOG("T1 (%d) not reported", g->tid[1]);
	} while (d.tasks[d.nr_tasks - 1].pid != (__u32)g->tid[1]);
	ASSERT_LE(2U, d.nr_tasks);
	ASSERT_EQ((__u32)g->tid[0], d.tasks[d.nr_tasks - 2].pid);

	exit_cursor_then_read(_metadata, g, self->fd, &d, TD_BUF_SMALL);
	EXPECT_EQ(1U, td_count(&d, getpid()));
	td_dump_free(&d);
}

/*
 * A helper parent P with the children A, B, C, D (forked in this order);
 * it kills and reaps the child whose index is written to @cmd and answers
 * with a byte on @ack.
 */
static int parent_main(int cmd, int ack)
{
	pid_t kid[NR_KIDS];
	unsigned char i;

	for (i = 0; i < NR_KIDS; i++) {
		kid[i] = spawn_child(NULL, NULL);
		if (kid[i] < 0)
			return 1;
	}
	if (write(ack, kid, sizeof(kid)) != sizeof(kid))
		return 1;
	while (read(cmd, &i, 1) == 1) {
		if (i >= NR_KIDS)
			return 1;
		kill_reap(kid[i]);
		if (write(ack, "K", 1) != 1)
			return 1;
	}
	return 0;
}

FIXTURE(parent) {
	/* the helper parent P and its children */
	pid_t p;
	pid_t kid[NR_KIDS];
	/* write end of P's command pipe, read end of its answers */
	int cmd;
	int ack;
	/* /proc/task-diag */
	int fd;
};

FIXTURE_SETUP(parent)
{
	pid_t me = getpid();
	int cmd[2], ack[2];

	self->fd = -1;
	self->cmd = -1;
	self->ack = -1;
	self->p = 0;
	TD_SKIP_IF_MISSING();
	ASSERT_EQ(0, pipe(cmd));
	ASSERT_EQ(0, pipe(ack));
	self->p = fork();
	ASSERT_LE(0, self->p);
	if (!self->p) {
		die_with_parent(me);
		close(cmd[1]);
		close(ack[0]);
		_exit(parent_main(cmd[0], ack[1]));
	}
	close(cmd[0]);
	close(ack[1]);
	self->cmd = cmd[1];
	self->ack = ack[0];
	ASSERT_EQ((ssize_t)sizeof(self->kid),
		  read(self->ack, self->kid, sizeof(self->kid)));
	self->fd = td_open();
	ASSERT_GE(self->fd, 0) TH_LOG("open %s: %m", TD_PATH);
}

FIXTURE_TEARDOWN(parent)
{
	close_open(self->fd);
	close_open(self->cmd);
	close_open(self->ack);
	kill_reap(self->p);
}

/* Make P (commands on @cmd, answers on @ack) reap child @i: 0 once done */
static int parent_reap(int cmd, int ack, unsigned char i)
{
	char c;

	if (write(cmd, &i, 1) != 1 || read(ack, &c, 1) != 1)
		return -EPIPE;
	return c == 'K' ? 0 : -EPROTO;
}

/*
 * CHILDREN of P, two messages a read: after the first read (A, B; the
 * walk is to resume at C) P reaps A and C.  D must be reported.
 */
TEST_F(parent, children_cursor_after_reaps)
{
	struct td_dump d;
	ssize_t msg;

	msg = base_msg_len(self->fd, self->p);
	ASSERT_LT(0, msg);

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_CHILDREN, self->p, TD_SEQ));
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, TD_SEQ);
	ASSERT_EQ(2 * msg, td_read_once(self->fd, &d, 2 * msg));
	ASSERT_EQ(2U, d.nr_tasks);
	ASSERT_EQ((__u32)self->kid[0], d.tasks[0].pid);
	ASSERT_EQ((__u32)self->kid[1], d.tasks[1].pid);

	ASSERT_EQ(0, parent_reap(self->cmd, self->ack, 0));
	ASSERT_EQ(0, parent_reap(self->cmd, self->ack, 2));
	ASSERT_EQ(0, td_read_all(self->fd, &d, 2 * msg));
	TD_EXPECT_CLEAN(&d);
	td_expect_no_dups(_metadata, &d);
	expect_once(_metadata, &d, self->kid[0], "A");
	expect_once(_metadata, &d, self->kid[1], "B");
	expect_once(_metadata, &d, self->kid[3], "D");
	td_dump_free(&d);
}

/*
 * NR_CONT_VMAS one-page mappings at CONT_BASE upwards that cannot merge
 * (alternately read-write, touched, and read-only): low addresses, so
 * that the VMA walk of a continued description stops among them.
 */
static int map_fixed_vmas(void *arg)
{
	return map_many_vmas_at((void *)CONT_BASE, NR_CONT_VMAS);
}

/* struct clone_args up to set_tid_size (CLONE_ARGS_SIZE_VER1) */
struct td_clone_args {
	__aligned_u64 flags;
	__aligned_u64 pidfd;
	__aligned_u64 child_tid;
	__aligned_u64 parent_tid;
	__aligned_u64 exit_signal;
	__aligned_u64 stack;
	__aligned_u64 stack_size;
	__aligned_u64 tls;
	__aligned_u64 set_tid;
	__aligned_u64 set_tid_size;
};

/* Fork a sleeping child with the pid @want: its pid, or -errno */
static pid_t clone_with_pid(pid_t want)
{
	pid_t tid = want, parent = getpid();
	struct td_clone_args args = {
		.exit_signal = SIGCHLD,
		.set_tid = (uintptr_t)&tid,
		.set_tid_size = 1,
	};
	long ret;

	ret = syscall(__NR_clone3, &args, sizeof(args));
	if (ret < 0)
		return -errno;
	if (!ret) {
		die_with_parent(parent);
		for (;;)
			pause();
	}
	return ret;
}

/*
 * Fork P (with the mappings of map_fixed_vmas()) that execs this program
 * when a byte is written to *@cmd; the new image writes 'E' on *@ready.
 */
static pid_t spawn_exec_child(int *cmd, int *ready)
{
	char *const argv[] = { "exactly_once-exec", NULL };
	char env[64];
	char *const envp[] = { env, NULL };
	int c[2], r[2];
	pid_t parent = getpid(), pid;
	char ch;

	if (pipe(c))
		return -errno;
	if (pipe(r))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		die_with_parent(parent);
		close(c[1]);
		close(r[0]);
		ch = map_fixed_vmas(NULL) ? 'F' : 'R';
		if (write(r[1], &ch, 1) != 1 || ch != 'R')
			_exit(1);
		if (read(c[0], &ch, 1) != 1)
			_exit(1);
		snprintf(env, sizeof(env), EXEC_ENV "=%d", r[1]);
		execve("/proc/self/exe", argv, envp);
		_exit(1);
	}
	close(c[0]);
	close(r[1]);
	*cmd = c[1];
	*ready = r[0];
	if (read(r[0], &ch, 1) != 1 || ch != 'R') {
		kill_reap(pid);
		return -ECHILD;
	}
	return pid;
}

FIXTURE(cont) {
	/* P, the continued process */
	pid_t p;
	/* cont_pid_reused: the new process with P's pid */
	pid_t newp;
	/* cont_exec_new_mm: P's command pipe and its ready pipe */
	int cmd;
	int ready;
	/* /proc/task-diag */
	int fd;
};

FIXTURE_VARIANT(cont) {
	__u64 strategy;
};

/* P is the task of the request */
FIXTURE_VARIANT_ADD(cont, one) {
	.strategy = TASK_DIAG_DUMP_ONE,
};

/* P is found again by its tgid */
FIXTURE_VARIANT_ADD(cont, all) {
	.strategy = TASK_DIAG_DUMP_ALL,
};

/* P is a child of the test, and so is the process that reuses its pid */
FIXTURE_VARIANT_ADD(cont, children) {
	.strategy = TASK_DIAG_DUMP_CHILDREN,
};

FIXTURE_SETUP(cont)
{
	self->p = 0;
	self->newp = 0;
	self->cmd = -1;
	self->ready = -1;
	self->fd = -1;
	TD_SKIP_IF_MISSING();
	self->fd = td_open();
	ASSERT_GE(self->fd, 0) TH_LOG("open %s: %m", TD_PATH);
}

FIXTURE_TEARDOWN(cont)
{
	close_open(self->fd);
	close_open(self->cmd);
	close_open(self->ready);
	kill_reap(self->p);
	kill_reap(self->newp);
}

/* The pid the request names for @strategy */
static __u32 cont_req_pid(__u64 strategy, pid_t p)
{
	switch (strategy) {
	case TASK_DIAG_DUMP_ONE:
		return p;
	case TASK_DIAG_DUMP_CHILDREN:
		return getpid();
	}
	return 0;
}

/*
 * Request BASE|VMA with @strategy and read by 4 KiB until @p's
 * description is continued inside its VMA list: the index of its record
 * in @d, or -1.
 */
static long read_into_vmas(__u64 strategy, int fd, struct td_dump *d,
			   pid_t p)
{
	__u64 show = TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA;

	td_dump_init(d, show, TD_SEQ);
	if (td_request(fd, show, strategy, cont_req_pid(strategy, p), TD_SEQ))
		return -1;
	while (!d->finished) {
		if (td_read_once(fd, d, TD_BUF_SMALL) < 0)
			return -1;
		if (d->pending >= 0 && d->tasks[d->pending].pid == (__u32)p &&
		    d->tasks[d->pending].nr_vmas)
			return d->pending;
	}
	return -1;
}

/* VMAs of @t from index @from on outside P's CONT_BASE mappings */
static size_t foreign_vmas(const struct td_task *t, size_t from)
{
	size_t i, n = 0;

	for (i = from; i < t->nr_vmas; i++)
		if (t->vmas[i].rec.start < CONT_BASE ||
		    t->vmas[i].rec.end > CONT_END)
			n++;
	return n;
}

/*
 * P is continued, then killed and reaped, and a new process gets its pid
 * (root: clone3() with set_tid).  The next message about P must close its
 * description: not one VMA of the new process may be appended to it.
 */
TEST_F(cont, cont_pid_reused)
{
	struct td_dump d;
	struct td_task *t;
	size_t nvmas;
	long idx;
	pid_t p;

	TD_SKIP_IF_NOT_ROOT();
	self->p = spawn_child(map_fixed_vmas, NULL);
	ASSERT_LT(0, self->p);
	p = self->p;
	idx = read_into_vmas(variant->strategy, self->fd, &d, p);
	ASSERT_LE(0, idx) TH_LOG("pid %d was not continued", p);
	nvmas = d.tasks[idx].nr_vmas;
	ASSERT_LT(d.tasks[idx].vmas[nvmas - 1].rec.end, CONT_END);

	kill_reap(self->p);
	self->p = 0;
	self->newp = clone_with_pid(p);
	/* not EEXIST (the pid was taken meanwhile): no clone3() or set_tid */
	if (self->newp < 0 && self->newp != -EEXIST) {
		int err = -self->newp;

		self->newp = 0;
		SKIP(return, "clone3() with set_tid: %s", strerror(err));
	}
	ASSERT_EQ(p, self->newp)
		TH_LOG("clone3() with set_tid %d: %s", p,
		       strerror(-self->newp));

	ASSERT_EQ(0, td_read_all(self->fd, &d, TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	t = &d.tasks[idx];
	EXPECT_EQ(nvmas, t->nr_vmas)
		TH_LOG("%zu VMAs of the new process %d appended to the old one's description",
		       t->nr_vmas - nvmas, p);
	EXPECT_TRUE(t->closed_empty)
		TH_LOG("pid %d: description not closed by an empty message", p);
	EXPECT_EQ(t->nmsgs - 1, t->ncont);
	EXPECT_GE(2U, td_count(&d, p));
	if (variant->strategy == TASK_DIAG_DUMP_ONE)
		EXPECT_EQ(1U, d.nr_tasks);
	td_dump_free(&d);
}

/*
 * P is continued, then execs (this program, which then waits): its
 * description must be closed, not continued with the VMAs of the new
 * image (all of which lie outside the old CONT_BASE mappings).
 */
TEST_F(cont, cont_exec_new_mm)
{
	struct td_dump d;
	struct td_task *t;
	size_t nvmas;
	long idx;
	char ch;

	self->p = spawn_exec_child(&self->cmd, &self->ready);
	ASSERT_LT(0, self->p);
	idx = read_into_vmas(variant->strategy, self->fd, &d, self->p);
	ASSERT_LE(0, idx) TH_LOG("pid %d was not continued", self->p);
	nvmas = d.tasks[idx].nr_vmas;
	ASSERT_LT(d.tasks[idx].vmas[nvmas - 1].rec.end, CONT_END);
	ASSERT_EQ(0U, foreign_vmas(&d.tasks[idx], nvmas - 1));

	ASSERT_EQ(1, write(self->cmd, "x", 1));
	ASSERT_EQ(1, read(self->ready, &ch, 1)) TH_LOG("exec failed");
	ASSERT_EQ('E', ch);

	ASSERT_EQ(0, td_read_all(self->fd, &d, TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	t = &d.tasks[idx];
	EXPECT_EQ(0U, foreign_vmas(t, nvmas))
		TH_LOG("%zu VMAs of the new image appended to the description of pid %d",
		       foreign_vmas(t, nvmas), self->p);
	EXPECT_TRUE(t->closed_empty)
		TH_LOG("pid %d: description not closed by an empty message",
		       self->p);
	EXPECT_EQ(t->nmsgs - 1, t->ncont);
	EXPECT_GE(2U, td_count(&d, self->p));
	td_dump_free(&d);
}

TEST_HARNESS_MAIN
