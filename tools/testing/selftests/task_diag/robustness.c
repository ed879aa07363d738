// SPDX-License-Identifier: GPL-2.0
/*
 * What a reader of /proc/task-diag costs the system and how it is
 * bounded: the memory a file keeps is charged to the reader's memory
 * cgroup, reads go on when order-3 pages cannot be had, a reader that
 * is killed stops walking at once, and a long walk lets others run.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "td_test.h"

#define NR_FDS		256
#define CHUNK		(32 * 1024)	/* the skb a file keeps */
#define BIG_READ	(64 * 1024)
#define NOBODY		65534
#define NR_WALKED	6000		/* processes a killed reader walks */
#define NR_SMALL_READS	300		/* processes: a dump of many small reads */
#define NR_VMAS		100000		/* VMAs the exec filter skips */
#define FAIL_DIR	"/sys/kernel/debug/fail_page_alloc"

/* The number a file like memory.current holds, or -1 */
static long long read_ll(const char *path)
{
	char *buf = read_file(path, NULL);
	long long v = buf ? atoll(buf) : -1;

	free(buf);
	return v;
}

/* In cgroup @procs: open NR_FDS files, a request and a read on each */
static void open_and_read(const char *procs, int ready, int go)
{
	char pid[16], buf[4096], c = 0;
	int i, fd;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_str(procs, pid) || write(ready, &c, 1) != 1 ||
	    read(go, &c, 1) != 1)
		_exit(1);
	for (i = 0; i < NR_FDS; i++) {
		fd = td_open();
		if (fd < 0 || td_request(fd, TASK_DIAG_SHOW_BASE,
					 TASK_DIAG_DUMP_ONE, getpid(), 1) ||
		    read(fd, buf, sizeof(buf)) <= 0)
			_exit(2);
	}
	if (write(ready, &c, 1) != 1)
		_exit(1);
	pause();
	_exit(0);
}

/*
 * Each open file keeps its read buffer (one 32 KiB skb) between reads:
 * charged to the memory cgroup of the process that read, not to nobody.
 */
TEST(read_buffers_charged_to_memcg)
{
	char dir[] = "/tmp/td-cgroup.XXXXXX", path[128], c;
	int ready[2], go[2], status;
	long long before, after;
	pid_t pid;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, mount("none", dir, "cgroup2", 0, NULL)) TH_LOG("%m");
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
	ASSERT_EQ(0, write_str(path, "+memory")) TH_LOG("%s: %m", path);
	snprintf(path, sizeof(path), "%s/td", dir);
	ASSERT_EQ(0, mkdir(path, 0755));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		snprintf(path, sizeof(path), "%s/td/cgroup.procs", dir);
		open_and_read(path, ready[1], go[0]);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	snprintf(path, sizeof(path), "%s/td/memory.current", dir);
	before = read_ll(path);
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(1, read(ready[0], &c, 1));
	after = read_ll(path);
	TH_LOG("%d files: memory.current %lld -> %lld", NR_FDS, before, after);
	EXPECT_LE(0, before);
	EXPECT_LE(before + NR_FDS * CHUNK * 9LL / 10, after);

	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	snprintf(path, sizeof(path), "%s/td", dir);
	EXPECT_EQ(0, rmdir(path));
	EXPECT_EQ(0, umount(dir));
	rmdir(dir);
}

/* fail_page_alloc: fail every allocation of order >= 3 of the tasks that
 * asked for it (make-it-fail), sleeping ones included */
static int fail_order3_setup(void)
{
	static const char *const attrs[][2] = {
		{ "min-order", "3" }, { "probability", "100" },
		{ "interval", "1" }, { "times", "-1" }, { "space", "0" },
		{ "task-filter", "Y" }, { "ignore-gfp-wait", "N" },
		{ "ignore-gfp-highmem", "N" }, { "verbose", "0" },
	};
	char path[128];
	size_t i;

	if (access(FAIL_DIR, F_OK))
		mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (access(FAIL_DIR, F_OK))
		return -1;
	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(path, sizeof(path), FAIL_DIR "/%s", attrs[i][0]);
		if (write_str(path, attrs[i][1]))
			return -1;
	}
	return 0;
}

/* Read @fd to its end with reads of @size: 0, or the errno of a failure */
static int read_to_end(int fd, struct td_dump *d, size_t size)
{
	char *buf = malloc(size);
	ssize_t n;
	int err = 0;

	while (buf && (n = read(fd, buf, size)) != 0) {
		if (n < 0) {
			err = errno;
			break;
		}
		td_dump_feed(d, buf, n);
	}
	free(buf);
	return buf ? err : ENOMEM;
}

/*
 * With every order-3 allocation of this task failing, a file whose buffer
 * was allocated by a first read goes on with it, and a file that never
 * had one falls back to a smaller buffer: no read fails.
 */
TEST(reads_survive_order3_failure)
{
	static pid_t pids[NR_SMALL_READS];
	char buf[TD_BUF_SMALL];
	struct td_dump d;
	int fd, err;
	ssize_t n;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_EQ(0, fail_order3_setup())
		TH_LOG("no %s: CONFIG_FAIL_PAGE_ALLOC", FAIL_DIR);
	/* enough tasks for many small reads */
	ASSERT_EQ(0, spawn_many(pids, NR_SMALL_READS, 1));

	/* a first read allocates the buffer, later ones may not */
	fd = td_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, td_request(fd, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ALL, 0, 1));
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 1);
	n = read(fd, buf, sizeof(buf));
	ASSERT_LT(0, n);
	td_dump_feed(&d, buf, n);
	ASSERT_EQ(0, write_str("/proc/thread-self/make-it-fail", "1"));
	err = read_to_end(fd, &d, TD_BUF_SMALL);
	write_str("/proc/thread-self/make-it-fail", "0");
	EXPECT_EQ(0, err) TH_LOG("read with the kept buffer: %s", strerror(err));
	EXPECT_TRUE(d.done);
	EXPECT_EQ(1U, td_count(&d, pids[NR_SMALL_READS - 1]));
	td_dump_free(&d);
	close(fd);

	/* no buffer yet: the smaller one serves */
	fd = td_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, td_request(fd, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ALL, 0, 1));
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 1);
	ASSERT_EQ(0, write_str("/proc/thread-self/make-it-fail", "1"));
	err = read_to_end(fd, &d, BIG_READ);
	write_str("/proc/thread-self/make-it-fail", "0");
	EXPECT_EQ(0, err) TH_LOG("read with the fallback buffer: %s", strerror(err));
	EXPECT_TRUE(d.done);
	EXPECT_EQ(1U, td_count(&d, getpid()));
	EXPECT_EQ(1U, td_count(&d, pids[NR_SMALL_READS - 1]));
	td_dump_free(&d);
	close(fd);
	kill_reap_all(pids, NR_SMALL_READS);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * As nobody, read @fd (opened by root on a hidepid=ptraceable procfs, so
 * that no root task is sent and one read walks them all); tell @ready
 * first.  Exits 0 after its read.
 */
static void nobody_read(int fd, int ready)
{
	char *buf = malloc(BIG_READ), c = 0;

	if (!buf || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY) || write(ready, &c, 1) != 1)
		_exit(1);
	_exit(read(fd, buf, BIG_READ) < 0 ? 2 : 0);
}

/* Fork nobody_read() on @fd; kill it @kill_after s after it is ready.
 * The time its read took, or -1. */
static double walk_as_nobody(int fd, double kill_after)
{
	int ready[2], status;
	double t0, t;
	pid_t pid;
	char c;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (!pid)
		nobody_read(fd, ready[1]);
	close(ready[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		return -1;
	}
	t0 = now_s();
	if (kill_after > 0) {
		usleep(kill_after * 1e6);
		kill(pid, SIGKILL);
	}
	waitpid(pid, &status, 0);
	t = now_s() - t0;
	close(ready[0]);
	return t;
}

/* A root-opened ALL|BASE request on the hidepid=ptraceable procfs */
static int open_request(void)
{
	int fd = open("/proc/task-diag", O_RDWR);

	if (fd >= 0 && td_request(fd, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ALL,
				  0, 1)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * Kill a reader @delay s into its walk; then read the rest of the file as
 * root.  True if the killed read stopped inside the walk: root gets the
 * last process (the walk was not over) but not pid 1 (it had begun).
 */
static bool killed_mid_walk(pid_t last, double delay)
{
	struct td_dump d;
	bool mid;
	int fd;

	fd = open_request();
	if (fd < 0 || walk_as_nobody(fd, delay) < 0)
		return false;
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 1);
	mid = !read_to_end(fd, &d, BIG_READ) && d.done &&
	      !td_count(&d, 1) && td_count(&d, last) == 1;
	printf("# killed after %.1f ms: root then read %zu tasks%s\n",
	       delay * 1e3, d.nr_tasks, mid ? ", the rest of the walk" : "");
	td_dump_free(&d);
	close(fd);
	return mid;
}

/*
 * A reader that sees none of the tasks walks them all in one read: killed
 * meanwhile, it stops where it was (fatal_signal_pending()), and the file,
 * shared with root, goes on from there.  Had the killed read run to its
 * end, root would get nothing; had it not begun, everything.  The kill
 * comes at a third of the walk's time, a few times if it misses.
 */
/* Thousands of processes: minutes on a debug kernel */
FIXTURE(many) {
};

FIXTURE_SETUP(many)
{
}

FIXTURE_TEARDOWN(many)
{
}

TEST_F_TIMEOUT(many, killed_reader_stops_walking, 900)
{
	static pid_t pids[NR_WALKED];
	bool mid = false;
	double walk;
	int fd, i;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_EQ(0, mount("proc", "/proc", "proc", 0, "hidepid=4"));
	ASSERT_EQ(0, spawn_many(pids, NR_WALKED, 1));

	fd = open_request();
	ASSERT_GE(fd, 0);
	walk = walk_as_nobody(fd, 0);
	close(fd);
	ASSERT_LE(0, walk);
	TH_LOG("one read as nobody walks %d processes in %.1f ms", NR_WALKED,
	       walk * 1e3);
	for (i = 0; i < 10 && !mid; i++)
		mid = killed_mid_walk(pids[NR_WALKED - 1], walk / 3);
	EXPECT_TRUE(mid);
	kill_reap_all(pids, NR_WALKED);
}

/* A SCHED_FIFO thread that sleeps 1 ms at a time, and how late it woke */
struct rt_probe {
	volatile bool stop;
	volatile double worst;		/* s */
};

static void *rt_probe_fn(void *arg)
{
	struct timespec ts = { .tv_nsec = 1000000 };
	struct rt_probe *p = arg;
	double t, late;

	while (!p->stop) {
		t = now_s();
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		late = now_s() - t - 1e-3;
		if (late > p->worst)
			p->worst = late;
	}
	return NULL;
}

/* Start rt_probe_fn() on CPU 0, where the caller runs too */
static int rt_probe_start(pthread_t *th, struct rt_probe *p)
{
	struct sched_param sp = { .sched_priority = 50 };
	pthread_attr_t attr;
	cpu_set_t cpu;
	int err;

	CPU_ZERO(&cpu);
	CPU_SET(0, &cpu);
	if (sched_setaffinity(0, sizeof(cpu), &cpu))
		return errno;
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(cpu), &cpu);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	err = pthread_create(th, &attr, rt_probe_fn, p);
	pthread_attr_destroy(&attr);
	return err;
}

/* A child with NR_VMAS mappings, none executable but its program's */
static int many_vmas_fn(void *arg)
{
	return map_many_vmas(NR_VMAS) ? 1 : 0;
}

/*
 * With TASK_DIAG_SHOW_VMA_EXEC the walk of a task's VMAs may skip them
 * all without sending anything: it must still let other tasks run
 * (cond_resched()), or on a kernel without preemption a real-time task
 * of the same CPU waits for the whole walk.
 */
TEST_F_TIMEOUT(many, vma_exec_filter_lets_others_run, 900)
{
	struct rt_probe probe = {};
	struct td_dump d;
	double t, walk;
	pthread_t th;
	pid_t child;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_EQ(0, write_str("/proc/sys/vm/max_map_count", "262144"));
	child = spawn_child(many_vmas_fn, NULL);
	ASSERT_LT(0, child);
	ASSERT_EQ(0, rt_probe_start(&th, &probe));
	usleep(50000);
	probe.worst = 0;

	t = now_s();
	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA |
			     TASK_DIAG_SHOW_VMA_EXEC, TASK_DIAG_DUMP_ONE,
			     child, TD_BUF_BIG));
	walk = now_s() - t;
	probe.stop = true;
	pthread_join(th, NULL);
	TD_EXPECT_CLEAN(&d);
	EXPECT_EQ(1U, d.nr_tasks);
	td_dump_free(&d);
	kill_reap(child);

	TH_LOG("walk of %d VMAs: %.1f ms; a 1 ms sleeper on its CPU woke up to %.1f ms late",
	       NR_VMAS, walk * 1e3, probe.worst * 1e3);
	EXPECT_GT(walk / 2 + 2e-3, probe.worst);
}

TEST_HARNESS_MAIN
