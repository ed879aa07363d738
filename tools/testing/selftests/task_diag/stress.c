// SPDX-License-Identifier: GPL-2.0
/*
 * Dumps of every strategy, with every group, in a loop while other tasks
 * fork, exec, mmap/munmap/mprotect, change their comm, start threads and
 * exit as fast as they can.  No dump may break the protocol, report a task
 * twice, or miss a task that lived through it: the anchors (long-lived
 * processes whose long-lived threads see short-lived threads come and go
 * among them), each of their long-lived threads, and every process that
 * /proc listed, with the same start time, both before and after an ALL
 * dump.
 *
 * usage: stress [-d SECONDS]; TD_STRESS_SECS in the environment overrides
 * the default duration (20 s).  Each strategy runs at least twice, once
 * with each read size, however slow the kernel is.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "task_diag_util.h"
#include "test_util.h"

#define NR_ANCHORS	6
#define ANCHOR_THREADS	4	/* long-lived ones; short ones come and go */
#define MAX_PROCS	4096

enum churn { FORK, EXEC, MMAP, COMM, THREAD, NR_CHURN };

static const char * const churn_names[NR_CHURN] = {
	"forks+exits", "execs", "mmap/mprotect/munmap", "comm changes",
	"threads started+exited",
};

/* Shared with the churners */
static unsigned long *counts;
/* The long-lived threads of each anchor, written by the anchors */
static pid_t (*anchor_tids)[ANCHOR_THREADS];
/* Which anchor a child about to be forked is */
static int anchor_nr;

struct stress {
	pid_t anchors[NR_ANCHORS];
	pid_t churners[NR_CHURN];
	unsigned long dumps[TASK_DIAG_DUMP_THREAD + 1];
	unsigned long tasks_seen, lived_through;
	unsigned long failures;
	char first[512];
};

static void fail(struct stress *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->failures++) {
		va_start(ap, fmt);
		vsnprintf(s->first, sizeof(s->first), fmt, ap);
		va_end(ap);
	}
}

static void count(enum churn c)
{
	__atomic_add_fetch(&counts[c], 1, __ATOMIC_RELAXED);
}

static void churn_fork(void)
{
	for (;;) {
		pid_t pid = fork();

		if (!pid) {
			prctl(PR_SET_NAME, "td_short");
			_exit(0);
		}
		if (pid > 0 && waitpid(pid, NULL, 0) == pid)
			count(FORK);
	}
}

static void churn_exec(void)
{
	for (;;) {
		pid_t pid = fork();

		if (!pid) {
			execl("/bin/true", "true", NULL);
			_exit(127);
		}
		if (pid > 0 && waitpid(pid, NULL, 0) == pid)
			count(EXEC);
	}
}

static void churn_mmap(void)
{
	unsigned int seed = getpid();

	for (;;) {
		size_t pages = 1 + rand_r(&seed) % 64;
		int prot = rand_r(&seed) % 2 ? PROT_READ | PROT_EXEC : PROT_READ;
		char *p = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			continue;
		p[0] = 1;
		/* split it into VMAs, then drop them */
		mprotect(p + (pages / 2) * 4096, 4096, prot);
		munmap(p, pages * 4096);
		count(MMAP);
	}
}

static void churn_comm(void)
{
	char name[16];
	unsigned long i;

	for (i = 0;; i++) {
		snprintf(name, sizeof(name), "td_comm_%lu", i % 100000);
		prctl(PR_SET_NAME, name);
		count(COMM);
	}
}

static void *short_thread(void *arg)
{
	pthread_setname_np(pthread_self(), "td_thread");
	return arg;
}

static void churn_thread(void)
{
	pthread_t th;

	for (;;) {
		if (!pthread_create(&th, NULL, short_thread, NULL) &&
		    !pthread_join(th, NULL))
			count(THREAD);
	}
}

static void *anchor_sleeper(void *arg)
{
	anchor_tids[anchor_nr][(long)arg] = gettid();
	for (;;)
		pause();
	return NULL;
}

/*
 * An anchor: ANCHOR_THREADS long-lived threads, the main one of which
 * starts and joins short-lived threads without end, so that threads exit
 * next to the long-lived ones while they are described.
 */
static void anchor_loop(void)
{
	pthread_t th;
	long i;

	for (i = 1; i < ANCHOR_THREADS; i++)
		if (pthread_create(&th, NULL, anchor_sleeper, (void *)i))
			_exit(1);
	anchor_tids[anchor_nr][0] = gettid();
	for (;;) {
		if (!pthread_create(&th, NULL, short_thread, NULL) &&
		    !pthread_join(th, NULL))
			count(THREAD);
	}
}

static void (* const churn_fns[NR_CHURN])(void) = {
	churn_fork, churn_exec, churn_mmap, churn_comm, churn_thread,
};

/* The start time of process @pid, or 0 */
static unsigned long long start_time(pid_t pid)
{
	struct proc_stat st;

	return proc_read_stat(pid, 0, &st) ? 0 : st.starttime;
}

struct proc_snap {
	pid_t pid[MAX_PROCS];
	unsigned long long start[MAX_PROCS];
	int nr;
};

static void snapshot(struct proc_snap *snap)
{
	struct dirent *de;
	DIR *dir = opendir("/proc");

	snap->nr = 0;
	while (dir && (de = readdir(dir)) && snap->nr < MAX_PROCS) {
		pid_t pid = atoi(de->d_name);

		if (pid <= 0)
			continue;
		snap->pid[snap->nr] = pid;
		snap->start[snap->nr++] = start_time(pid);
	}
	if (dir)
		closedir(dir);
}

/* Every process of @before still there, unchanged, in @after is in @d */
static void check_lived_through(struct stress *s, const struct proc_snap *before,
				const struct proc_snap *after, struct td_dump *d)
{
	int i, j;

	for (i = 0; i < before->nr; i++) {
		if (!before->start[i])
			continue;
		for (j = 0; j < after->nr && after->pid[j] != before->pid[i]; j++)
			;
		if (j == after->nr || after->start[j] != before->start[i])
			continue;
		s->lived_through++;
		if (td_count(d, before->pid[i]) != 1)
			fail(s, "ALL: pid %d lived through the dump, reported %u times",
			     before->pid[i], td_count(d, before->pid[i]));
	}
}

static void check_each_once(struct stress *s, struct td_dump *d,
			    const pid_t *pids, int n, const char *what)
{
	int i;

	for (i = 0; i < n; i++)
		if (td_count(d, pids[i]) != 1)
			fail(s, "%s: pid %d reported %u times", what, pids[i],
			     td_count(d, pids[i]));
}

/* The long-lived threads of anchor @i, each once */
static void check_threads(struct stress *s, struct td_dump *d, int i,
			  const char *what)
{
	check_each_once(s, d, anchor_tids[i], ANCHOR_THREADS, what);
}

/* Round r dumps with strategies[r % NR_STRATEGIES], alternating read sizes */
static const __u64 strategies[] = {
	TASK_DIAG_DUMP_ALL, TASK_DIAG_DUMP_ALL_THREAD,
	TASK_DIAG_DUMP_CHILDREN, TASK_DIAG_DUMP_THREAD,
	TASK_DIAG_DUMP_ONE,
};
#define NR_STRATEGIES	ARRAY_SIZE(strategies)

static void one_dump(struct stress *s, unsigned long round)
{
	static struct proc_snap before, after;
	__u64 strategy = strategies[round % NR_STRATEGIES];
	int a = round % NR_ANCHORS;
	pid_t anchor = s->anchors[a];
	size_t bufsize = (round / NR_STRATEGIES) % 2 ? 65536 : TD_BUF_SMALL;
	__u32 pid = strategy == TASK_DIAG_DUMP_CHILDREN ? getpid() : anchor;
	struct td_dump d;
	int err;

	if (strategy == TASK_DIAG_DUMP_ALL)
		snapshot(&before);
	err = td_dump(&d, TD_SHOW_ALL, strategy, pid, bufsize);
	if (err) {
		fail(s, "strategy %llu: dump failed: %s", strategy, strerror(-err));
		return;
	}
	s->dumps[strategy]++;
	s->tasks_seen += d.nr_tasks;
	if (d.nr_errors)
		fail(s, "strategy %llu: %s", strategy, d.error);
	if (td_nr_dups(&d, NULL))
		fail(s, "strategy %llu: a task reported twice", strategy);

	switch (strategy) {
	case TASK_DIAG_DUMP_ALL:
		snapshot(&after);
		check_lived_through(s, &before, &after, &d);
		check_each_once(s, &d, s->anchors, NR_ANCHORS, "ALL");
		break;
	case TASK_DIAG_DUMP_ALL_THREAD:
		check_threads(s, &d, a, "ALL_THREAD");
		break;
	case TASK_DIAG_DUMP_CHILDREN:
		check_each_once(s, &d, s->anchors, NR_ANCHORS, "CHILDREN");
		check_each_once(s, &d, s->churners, NR_CHURN, "CHILDREN");
		break;
	case TASK_DIAG_DUMP_THREAD:
		check_threads(s, &d, a, "THREAD");
		break;
	default:
		if (d.nr_tasks != 1 || td_count(&d, anchor) != 1)
			fail(s, "ONE: %zu tasks for anchor %d", d.nr_tasks, anchor);
	}
	td_dump_free(&d);
}

/* The anchors, once each has written the tids of its long-lived threads */
static int start_anchors(struct stress *s)
{
	int i, j, tries;

	anchor_tids = mmap(NULL, sizeof(*anchor_tids) * NR_ANCHORS,
			   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			   -1, 0);
	if (anchor_tids == MAP_FAILED)
		return -1;
	for (anchor_nr = 0; anchor_nr < NR_ANCHORS; anchor_nr++) {
		s->anchors[anchor_nr] = spawn_loop(anchor_loop);
		if (s->anchors[anchor_nr] < 0)
			return -1;
	}
	for (i = 0; i < NR_ANCHORS; i++)
		for (j = 0; j < ANCHOR_THREADS; j++)
			for (tries = 0; !anchor_tids[i][j]; tries++) {
				if (tries > 10000)
					return -1;
				usleep(1000);
			}
	return 0;
}

static int start(struct stress *s)
{
	int i;

	counts = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counts == MAP_FAILED || start_anchors(s))
		return -1;
	for (i = 0; i < NR_CHURN; i++) {
		s->churners[i] = spawn_loop(churn_fns[i]);
		if (s->churners[i] < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct stress s = {};
	const char *env = getenv("TD_STRESS_SECS");
	double secs = env ? atof(env) : 20, t0, t;
	unsigned long round;
	int opt, i;

	while ((opt = getopt(argc, argv, "d:")) != -1) {
		if (opt != 'd')
			ksft_exit_fail_msg("usage: %s [-d SECONDS]\n", argv[0]);
		secs = atof(optarg);
	}
	ksft_print_header();
	ksft_set_plan(1);
	if (!td_available())
		ksft_exit_skip("%s missing (CONFIG_TASK_DIAG=n?)\n", TD_PATH);
	if (start(&s))
		ksft_exit_fail_msg("could not start the tasks: %s\n", strerror(errno));

	t0 = now_sec();
	/* for @secs, and at least every strategy with both read sizes */
	for (round = 0; (t = now_sec() - t0) < secs || round < 2 * NR_STRATEGIES;
	     round++)
		one_dump(&s, round);
	kill_reap_all(s.churners, NR_CHURN);
	kill_reap_all(s.anchors, NR_ANCHORS);

	ksft_print_msg("%.1f s, %lu dumps (ALL %lu, ALL_THREAD %lu, CHILDREN %lu, THREAD %lu, ONE %lu) with every group, %lu task descriptions\n",
		       t, round, s.dumps[TASK_DIAG_DUMP_ALL],
		       s.dumps[TASK_DIAG_DUMP_ALL_THREAD],
		       s.dumps[TASK_DIAG_DUMP_CHILDREN],
		       s.dumps[TASK_DIAG_DUMP_THREAD], s.dumps[TASK_DIAG_DUMP_ONE],
		       s.tasks_seen);
	for (i = 0; i < NR_CHURN; i++)
		ksft_print_msg("  %-24s %lu (%.0f/s)\n", churn_names[i], counts[i],
			       counts[i] / t);
	ksft_print_msg("%lu processes lived through an ALL dump and were checked\n",
		       s.lived_through);
	if (s.failures)
		ksft_print_msg("%lu failures, first: %s\n", s.failures, s.first);
	ksft_test_result(!s.failures && round >= 10 && s.lived_through,
			 "stress: dumps under fork/exec/mmap/comm/thread churn\n");
	ksft_finished();
}
