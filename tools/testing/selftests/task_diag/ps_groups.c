// SPDX-License-Identifier: GPL-2.0
/*
 * The groups ps needs besides BASE, CRED, STAT and STATM: TASK_DIAG_CMDLINE
 * against /proc/PID/cmdline (arguments of every kind, setproctitle(),
 * command lines continued over many messages, kernel threads, zombies,
 * threads) and TASK_DIAG_PSINFO against /proc/PID/stat (nice values, a
 * real-time policy, a controlling terminal and its foreground group, per
 * thread start times).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "td_test.h"

#define PF_KTHREAD_FLAG	0x00200000	/* PF_KTHREAD */
#define PF_WQ_WORKER_FLAG 0x00000020	/* PF_WQ_WORKER */
#define NR_THREADS	3
#define LONG_ARG	100000		/* below MAX_ARG_STRLEN (128 KiB) */
#define KTHREADD	2

/* The children of the fixture, by role */
enum {
	ARGS,		/* sh with arguments of every kind, reading a pipe */
	LONG,		/* sh with two LONG_ARG-byte arguments */
	PROCTITLE,	/* overwrote its whole argument area, final NUL too */
	PROCTITLE_ENV,	/* overwrote its arguments and environment, no NUL */
	NICED,		/* nice 7 */
	UNNICED,	/* nice -5 */
	FIFO,		/* SCHED_FIFO, priority 10 */
	TTY,		/* leads a session whose terminal is a pty, foreground */
	THREADED,	/* NR_THREADS threads besides the main one */
	ZOMBIE,		/* exited, waited for with WNOWAIT */
	NR_CHILDREN
};

FIXTURE(ps) {
	pid_t child[NR_CHILDREN];
	int hold[2];		/* the pipe the sh children read: kept open */
	int ptm;		/* the TTY child's pty master */
};

/* Fork a child that executes sh -c 'read x' with @args after it */
static pid_t spawn_sh(int in, char *const *args, int nargs)
{
	char *argv[10] = { "sh", "-c", "read x", "td-ps" };
	pid_t pid;
	int i;

	for (i = 0; i < nargs && i + 4 < 9; i++)
		argv[i + 4] = args[i];
	pid = fork();
	if (!pid) {
		die_with_parent(getppid());
		dup2(in, 0);
		execv("/bin/sh", argv);
		_exit(127);
	}
	return pid;
}

/* Wait until @pid executed (its comm became sh) */
static int wait_exec(pid_t pid)
{
	struct proc_stat st;
	int i;

	for (i = 0; i < 2000; i++) {
		if (!proc_read_stat(pid, 0, &st) && !strcmp(st.comm, "sh"))
			return 0;
		usleep(5000);
	}
	return -1;
}

/* arg_start, arg_end, env_start and env_end of @pid, from its stat */
static int proc_arg_env(pid_t pid, unsigned long v[4])
{
	char path[64], *buf, *p;
	int i, ret = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	buf = read_file(path, NULL);
	if (!buf)
		return -1;
	p = strrchr(buf, ')');
	for (i = 0; p && i < 46; i++)		/* to field 48, arg_start */
		p = strchr(p + 1, ' ');
	if (p && sscanf(p, " %lu %lu %lu %lu", &v[0], &v[1], &v[2],
			&v[3]) == 4 && v[1] > v[0] && v[3] >= v[2])
		ret = 0;
	free(buf);
	return ret;
}

/*
 * setproctitle(): overwrite all of [arg_start, arg_end), the final NUL
 * too, or (@arg) all of [arg_start, env_end) with no NUL left
 */
static int proctitle_fn(void *arg)
{
	unsigned long v[4], end;

	if (proc_arg_env(getpid(), v))
		return -1;
	end = arg ? v[3] : v[1];
	memset((char *)v[0], 'X', end - v[0]);
	memcpy((char *)v[0], "td-proctitle", 12);
	return 0;
}

static int nice_fn(void *arg)
{
	return setpriority(PRIO_PROCESS, 0, *(int *)arg);
}

static int fifo_fn(void *arg)
{
	struct sched_param sp = { .sched_priority = 10 };

	return sched_setscheduler(0, SCHED_FIFO, &sp);
}

/* Lead a session with the pty slave @arg names as its terminal */
static int tty_fn(void *arg)
{
	int fd;

	if (setsid() < 0)
		return -1;
	fd = open(arg, O_RDWR);		/* becomes the controlling terminal */
	if (fd < 0 || ioctl(fd, TIOCSCTTY, 0) || tcsetpgrp(fd, getpid()))
		return -1;
	return 0;
}

static int threaded_fn(void *arg)
{
	return start_threads(NR_THREADS, "td-ps-%d");
}

static pid_t spawn_tty(int *ptm)
{
	char *name;

	*ptm = posix_openpt(O_RDWR | O_NOCTTY);
	if (*ptm < 0 || grantpt(*ptm) || unlockpt(*ptm))
		return -1;
	name = ptsname(*ptm);
	return name ? spawn_child(tty_fn, name) : -1;
}

FIXTURE_SETUP(ps)
{
	static char nl[] = "new\nline", tab[] = "a\ttab", bad[] = "\xff\xfe-\x01";
	static char space[] = "two words", empty[] = "";
	char *args[] = { space, empty, nl, tab, bad };
	char *longs[2];
	int i, pos = 7, neg = -5, whole = 1;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	self->ptm = -1;
	ASSERT_EQ(0, pipe(self->hold));

	self->child[ARGS] = spawn_sh(self->hold[0], args, 5);
	ASSERT_GT(self->child[ARGS], 0);
	for (i = 0; i < 2; i++) {
		longs[i] = malloc(LONG_ARG);
		ASSERT_NE(NULL, longs[i]);
		memset(longs[i], 'a' + i, LONG_ARG - 1);
		longs[i][LONG_ARG - 1] = '\0';
	}
	self->child[LONG] = spawn_sh(self->hold[0], longs, 2);
	free(longs[0]);
	free(longs[1]);
	ASSERT_GT(self->child[LONG], 0);
	self->child[PROCTITLE] = spawn_child(proctitle_fn, NULL);
	ASSERT_GT(self->child[PROCTITLE], 0);
	self->child[PROCTITLE_ENV] = spawn_child(proctitle_fn, &whole);
	ASSERT_GT(self->child[PROCTITLE_ENV], 0);
	self->child[NICED] = spawn_child(nice_fn, &pos);
	ASSERT_GT(self->child[NICED], 0);
	self->child[UNNICED] = spawn_child(nice_fn, &neg);
	ASSERT_GT(self->child[UNNICED], 0);
	self->child[FIFO] = spawn_child(fifo_fn, NULL);
	ASSERT_GT(self->child[FIFO], 0);
	self->child[TTY] = spawn_tty(&self->ptm);
	ASSERT_GT(self->child[TTY], 0);
	self->child[THREADED] = spawn_child(threaded_fn, NULL);
	ASSERT_GT(self->child[THREADED], 0);
	self->child[ZOMBIE] = spawn_zombie();
	ASSERT_GT(self->child[ZOMBIE], 0);

	ASSERT_EQ(0, wait_exec(self->child[ARGS]));
	ASSERT_EQ(0, wait_exec(self->child[LONG]));
	ASSERT_EQ(0, stop_child(self->child[THREADED]));
}

FIXTURE_TEARDOWN(ps)
{
	kill_reap_all(self->child, NR_CHILDREN);
	if (self->ptm >= 0)
		close(self->ptm);
	close(self->hold[0]);
	close(self->hold[1]);
}

/* Every child's command line is the bytes of its /proc/PID/cmdline */
TEST_F(ps, cmdline_matches_proc)
{
	struct td_diff df = {};
	struct td_dump d;
	int i;

	for (i = 0; i < NR_CHILDREN; i++) {
		td_dump_one(_metadata, &d, TASK_DIAG_SHOW_CMDLINE, self->child[i],
			    TD_BUF_BIG);
		cmdline_diff(&d.tasks[0], self->child[i], 0, &df);
		td_dump_free(&d);
	}
	EXPECT_NO_DIFF(&df);
}

/* The arguments come as execve() passed them, each ended by a NUL */
TEST_F(ps, cmdline_values)
{
	static const char want[] = "sh\0-c\0read x\0td-ps\0two words\0\0"
				   "new\nline\0a\ttab\0\xff\xfe-\x01";
	struct td_dump d;

	td_dump_one(_metadata, &d, TASK_DIAG_SHOW_CMDLINE, self->child[ARGS],
		    TD_BUF_BIG);
	ASSERT_EQ(sizeof(want), d.tasks[0].cmdline_len);
	EXPECT_EQ(0, memcmp(want, d.tasks[0].cmdline, sizeof(want)));
	td_dump_free(&d);

	/* setproctitle(): up to the first NUL, into the environment */
	td_dump_one(_metadata, &d, TASK_DIAG_SHOW_CMDLINE, self->child[PROCTITLE],
		    TD_BUF_BIG);
	EXPECT_EQ(0, strncmp(d.tasks[0].cmdline, "td-proctitleXX", 14));
	td_dump_free(&d);
}

/*
 * A title that leaves no NUL up to the end of the environment ends there
 * (and within a page): never what follows the environment
 */
TEST_F(ps, cmdline_proctitle_ends_with_the_environment)
{
	size_t want, i, pg = sysconf(_SC_PAGESIZE);
	const struct td_task *t;
	unsigned long v[4];
	struct td_dump d;

	ASSERT_EQ(0, proc_arg_env(self->child[PROCTITLE_ENV], v));
	want = v[3] - v[0] < pg ? v[3] - v[0] : pg;
	td_dump_one(_metadata, &d, TASK_DIAG_SHOW_CMDLINE,
		    self->child[PROCTITLE_ENV], TD_BUF_BIG);
	t = &d.tasks[0];
	ASSERT_EQ(want, t->cmdline_len);
	EXPECT_EQ(0, memcmp(t->cmdline, "td-proctitle", 12));
	for (i = 12; i < t->cmdline_len && t->cmdline[i] == 'X'; i++)
		;
	EXPECT_EQ(want, i);
	td_dump_free(&d);
}

/* Kernel threads and zombies have an empty one, but have the group */
TEST_F(ps, cmdline_empty)
{
	pid_t pids[] = { KTHREADD, self->child[ZOMBIE] };
	struct td_dump d;
	int i;

	for (i = 0; i < 2; i++) {
		td_dump_one(_metadata, &d, TASK_DIAG_SHOW_CMDLINE, pids[i],
			    TD_BUF_BIG);
		EXPECT_TRUE(d.tasks[0].groups & TASK_DIAG_SHOW_CMDLINE);
		EXPECT_EQ(0U, d.tasks[0].cmdline_len);
		EXPECT_EQ(1U, d.tasks[0].cmdline_parts);
		td_dump_free(&d);
	}
}

/*
 * 200 KB of command line, read in buffers of sizes that end the parts at
 * every alignment: the parts join to what /proc reads, in many messages,
 * and the groups before and after it come once.
 */
TEST_F(ps, cmdline_continued)
{
	__u64 show = TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_CMDLINE |
		     TASK_DIAG_SHOW_PSINFO;
	struct td_diff df = {};
	unsigned int conts = 0;
	struct td_dump d;
	size_t size;

	for (size = TD_BUF_SMALL; size < TD_BUF_SMALL + 256; size += 4) {
		td_dump_one(_metadata, &d, show, self->child[LONG], size);
		cmdline_diff(&d.tasks[0], self->child[LONG], 0, &df);
		EXPECT_EQ(show, d.tasks[0].groups);
		EXPECT_GT(d.tasks[0].cmdline_parts, 40U);
		EXPECT_EQ(d.tasks[0].ncont + 1, d.tasks[0].nmsgs);
		conts += d.tasks[0].ncont;
		td_dump_free(&d);
	}
	EXPECT_NO_DIFF(&df);
	EXPECT_GT(conts, 64U * 40);

	td_dump_one(_metadata, &d, show, self->child[LONG], TD_BUF_BIG);
	cmdline_diff(&d.tasks[0], self->child[LONG], 0, &df);
	EXPECT_NO_DIFF(&df);
	EXPECT_EQ(2U * LONG_ARG + 19, d.tasks[0].cmdline_len);
	td_dump_free(&d);
}

/* The threads of a process each have its command line */
TEST_F(ps, cmdline_per_thread)
{
	struct td_diff df = {};
	struct td_dump d;
	size_t i;

	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_CMDLINE, TASK_DIAG_DUMP_THREAD,
			     self->child[THREADED], TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	EXPECT_EQ((size_t)NR_THREADS + 1, d.nr_tasks);
	for (i = 0; i < d.nr_tasks; i++) {
		cmdline_diff(&d.tasks[i], self->child[THREADED], d.tasks[i].pid,
			     &df);
		EXPECT_NE(0U, d.tasks[i].cmdline_len);
	}
	td_dump_free(&d);
	EXPECT_NO_DIFF(&df);
}

/* ALL: the children among every process, each as /proc has it */
TEST_F(ps, cmdline_in_all)
{
	struct td_diff df = {};
	struct td_dump d;
	struct td_task *t;
	int i;

	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_CMDLINE, TASK_DIAG_DUMP_ALL, 0,
			     TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	td_expect_no_dups(_metadata, &d);
	for (i = 0; i < NR_CHILDREN; i++) {
		t = td_find(&d, self->child[i]);
		ASSERT_NE(NULL, t);
		cmdline_diff(t, self->child[i], 0, &df);
	}
	td_dump_free(&d);
	EXPECT_NO_DIFF(&df);
}

/* PSINFO of every child, of kthreadd and of ourselves against stat */
TEST_F(ps, psinfo_matches_proc_stat)
{
	struct td_diff df = {};
	struct td_dump d;
	int i;

	for (i = 0; i < NR_CHILDREN; i++) {
		td_dump_one(_metadata, &d, TASK_DIAG_SHOW_PSINFO, self->child[i],
			    TD_BUF_BIG);
		psinfo_diff(&d.tasks[0], self->child[i], 0, &df);
		td_dump_free(&d);
	}
	td_dump_one(_metadata, &d, TASK_DIAG_SHOW_PSINFO, KTHREADD, TD_BUF_BIG);
	psinfo_diff(&d.tasks[0], KTHREADD, 0, &df);
	td_dump_free(&d);
	EXPECT_NO_DIFF(&df);
}

/* The values compared are the ones set up, not zeroes on both sides */
TEST_F(ps, psinfo_values)
{
	const struct task_diag_psinfo *ps;
	struct td_dump d;

	td_dump_one(_metadata, &d, TASK_DIAG_SHOW_PSINFO, self->child[NICED],
		    TD_BUF_BIG);
	ps = &d.tasks[0].psinfo;
	EXPECT_EQ(7, ps->nice);
	EXPECT_EQ(27, ps->priority);
	EXPECT_EQ(0U, ps->tty_nr);
	EXPECT_EQ(-1, ps->tpgid);
	EXPECT_NE(0ULL, ps->start_time);
	td_dump_free(&d);

	td_dump_one(_metadata, &d, TASK_DIAG_SHOW_PSINFO, self->child[UNNICED],
		    TD_BUF_BIG);
	EXPECT_EQ(-5, d.tasks[0].psinfo.nice);
	td_dump_free(&d);

	td_dump_one(_metadata, &d, TASK_DIAG_SHOW_PSINFO, self->child[FIFO],
		    TD_BUF_BIG);
	EXPECT_EQ((__u32)SCHED_FIFO, d.tasks[0].psinfo.policy);
	EXPECT_EQ(10U, d.tasks[0].psinfo.rt_priority);
	EXPECT_EQ(-11, d.tasks[0].psinfo.priority);
	td_dump_free(&d);

	/* a pty (major 136 and up), the child's own group in the foreground */
	td_dump_one(_metadata, &d, TASK_DIAG_SHOW_PSINFO, self->child[TTY],
		    TD_BUF_BIG);
	ps = &d.tasks[0].psinfo;
	EXPECT_GE((ps->tty_nr >> 8) & 0xfff, 136U);
	EXPECT_EQ(self->child[TTY], ps->tpgid);
	td_dump_free(&d);

	td_dump_one(_metadata, &d, TASK_DIAG_SHOW_PSINFO, KTHREADD, TD_BUF_BIG);
	EXPECT_TRUE(d.tasks[0].psinfo.flags & PF_KTHREAD_FLAG);
	EXPECT_STREQ("kthreadd", d.tasks[0].psinfo.name);
	td_dump_free(&d);
}

/*
 * A workqueue worker's name says the work it runs or ran last
 * ("kworker/0:1-events", "+" while running): whether it is the same but
 * for that, /proc's name being another
 */
static bool worker_moved(const struct td_task *t)
{
	size_t n = strcspn(t->psinfo.name, "-+");
	struct proc_stat st;

	return !proc_read_stat(t->pid, 0, &st) &&
	       strcmp(st.comm, t->psinfo.name) &&
	       !strncmp(st.comm, t->psinfo.name, n) &&
	       (st.comm[n] == '-' || st.comm[n] == '+' || !st.comm[n]);
}

/*
 * The names of kernel threads, which may be longer than a comm
 * (workqueue workers: "kworker/0:1-events"), are /proc/PID/stat's
 */
TEST_F(ps, psinfo_names_of_kernel_threads)
{
	struct td_diff df = {};
	unsigned int nr = 0, longer = 0;
	struct td_dump d;
	size_t i;

	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_PSINFO | TASK_DIAG_SHOW_BASE,
			     TASK_DIAG_DUMP_ALL, 0, TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	for (i = 0; i < d.nr_tasks; i++) {
		const struct td_task *t = &d.tasks[i];
		struct td_diff one = {};

		if (!(t->psinfo.flags & PF_KTHREAD_FLAG))
			continue;
		nr++;
		longer += strlen(t->psinfo.name) >= TASK_DIAG_COMM_LEN;
		psinfo_diff(t, t->pid, 0, &one);
		/* gone meanwhile, or a worker that took other work since */
		if (!one.n || (kill(t->pid, 0) && errno == ESRCH) ||
		    ((t->psinfo.flags & PF_WQ_WORKER_FLAG) &&
		     worker_moved(t)))
			continue;
		diff_add(&df, "%s", one.why);
	}
	td_dump_free(&d);
	EXPECT_NO_DIFF(&df);
	EXPECT_GT(nr, 5U);
	EXPECT_GT(longer, 0U) TH_LOG("no kernel thread name longer than a comm");
}

/* Per thread for THREAD and ALL_THREAD: a thread's own start time */
TEST_F(ps, psinfo_per_thread)
{
	static const __u64 strategies[] = { TASK_DIAG_DUMP_THREAD,
					    TASK_DIAG_DUMP_ALL_THREAD };
	pid_t pid = self->child[THREADED];
	struct td_diff df = {};
	struct td_dump d;
	size_t s, i, n;

	for (s = 0; s < 2; s++) {
		ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_PSINFO, strategies[s],
				     pid, TD_BUF_SMALL));
		TD_EXPECT_CLEAN(&d);
		for (n = 0, i = 0; i < d.nr_tasks; i++) {
			if (d.tasks[i].tgid != (__u32)pid)
				continue;
			psinfo_diff(&d.tasks[i], pid, d.tasks[i].pid, &df);
			n++;
		}
		EXPECT_EQ((size_t)NR_THREADS + 1, n);
		td_dump_free(&d);
	}
	EXPECT_NO_DIFF(&df);
}

TEST_HARNESS_MAIN
