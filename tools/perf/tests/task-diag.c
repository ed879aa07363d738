// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag synthesis: for a controlled set of tasks (threads, a child, an
 * exec'd program, exec and data mappings, a memfd, a deleted file, shared
 * anonymous memory and a kernel thread) the events synthesized from
 * /proc/task-diag are those of the /proc walk, byte for byte.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include "debug.h"
#include "event.h"
#include "machine.h"
#include "synthetic-events.h"
#include "synthetic-taskdiag.h"
#include "tests.h"
#include "thread_map.h"
#include "tool.h"

#define TD_MAX_PIDS	8

/* The events of the controlled tasks that a synthesis sent */
struct td_capture {
	struct perf_tool	tool;
	pid_t			pids[TD_MAX_PIDS];	/* tgids to keep */
	size_t			nr_pids;
	union perf_event	**events;
	size_t			nr, alloc;
};

/* The controlled tasks */
struct td_tasks {
	pid_t	parent;		/* threads, mappings; parent of child */
	pid_t	child;		/* forked by parent */
	pid_t	execd;		/* runs /bin/sleep */
	int	ready[2];
};

static pid_t event_tgid(const union perf_event *ev)
{
	switch (ev->header.type) {
	case PERF_RECORD_FORK:
		return ev->fork.pid;
	case PERF_RECORD_COMM:
		return ev->comm.pid;
	case PERF_RECORD_MMAP2:
		return ev->mmap2.pid;
	case PERF_RECORD_NAMESPACES:
		return ev->namespaces.pid;
	default:
		return -1;
	}
}

static int capture_event(const struct perf_tool *tool, union perf_event *event,
			 struct perf_sample *sample __maybe_unused,
			 struct machine *machine __maybe_unused)
{
	struct td_capture *cap = container_of(tool, struct td_capture, tool);
	pid_t tgid = event_tgid(event);
	size_t i;

	for (i = 0; i < cap->nr_pids && cap->pids[i] != tgid; i++)
		;
	if (i == cap->nr_pids)
		return 0;
	if (cap->nr == cap->alloc) {
		size_t n = cap->alloc ? 2 * cap->alloc : 64;
		void *p = realloc(cap->events, n * sizeof(*cap->events));

		if (!p)
			return -ENOMEM;
		cap->events = p;
		cap->alloc = n;
	}
	cap->events[cap->nr] = memdup(event, event->header.size);
	return cap->events[cap->nr++] ? 0 : -ENOMEM;
}

static void capture__exit(struct td_capture *cap)
{
	while (cap->nr)
		free(cap->events[--cap->nr]);
	zfree(&cap->events);
	cap->alloc = 0;
}

static int event_cmp(const void *a, const void *b)
{
	const union perf_event *x = *(union perf_event * const *)a;
	const union perf_event *y = *(union perf_event * const *)b;

	if (x->header.size != y->header.size)
		return x->header.size < y->header.size ? -1 : 1;
	return memcmp(x, y, x->header.size);
}

/* Synthesize all tasks, from task_diag or from /proc; keep ours */
static int synthesize(struct td_capture *cap, bool taskdiag, bool needs_mmap,
		      bool mmap_data)
{
	bool saved = perf_synthesize_taskdiag;
	struct machine *machine = machine__new_host();
	int err;

	if (!machine)
		return -ENOMEM;
	if (taskdiag) {
		err = perf_event__synthesize_threads_taskdiag(&cap->tool, capture_event,
							      machine, needs_mmap,
							      mmap_data);
	} else {
		perf_synthesize_taskdiag = false;
		err = perf_event__synthesize_threads(&cap->tool, capture_event, machine,
						     needs_mmap, mmap_data, 1);
		perf_synthesize_taskdiag = saved;
	}
	machine__delete(machine);
	if (!err)
		qsort(cap->events, cap->nr, sizeof(*cap->events), event_cmp);
	return err;
}

static size_t count_type(const struct td_capture *cap, u32 type)
{
	size_t i, n = 0;

	for (i = 0; i < cap->nr; i++)
		n += cap->events[i]->header.type == type;
	return n;
}

/* Both captures hold the same events, field by field */
static int compare_captures(const struct td_capture *td, const struct td_capture *proc)
{
	size_t i;

	if (td->nr != proc->nr) {
		pr_debug("task_diag sent %zu events, /proc %zu\n", td->nr, proc->nr);
		return TEST_FAIL;
	}
	for (i = 0; i < td->nr; i++) {
		if (event_cmp(&td->events[i], &proc->events[i])) {
			pr_debug("event %zu differs: type %u vs %u\n", i,
				 td->events[i]->header.type, proc->events[i]->header.type);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

static void *sleeper(void *arg __maybe_unused)
{
	for (;;)
		pause();
	return NULL;
}

/* Mappings of every kind the /proc walk reports; 0 or -1 */
static int map_everything(void)
{
	char path[] = "/tmp/perf-task-diag-XXXXXX";
	int fd, mfd;

	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, 8192))
		return -1;
	if (mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED)
		return -1;
	unlink(path);				/* "/tmp/... (deleted)" */
	close(fd);

	mfd = memfd_create("perf-task-diag", 0);
	if (mfd < 0 || ftruncate(mfd, 4096))
		return -1;
	if (mmap(NULL, 4096, PROT_READ, MAP_SHARED, mfd, 0) == MAP_FAILED)
		return -1;				/* "/memfd:... (deleted)" */
	close(mfd);

	if (mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0) == MAP_FAILED)
		return -1;				/* "/dev/zero (deleted)" */
	if (mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
		return -1;				/* "//anon" */
	return 0;
}

static void __noreturn parent_main(struct td_tasks *t)
{
	pthread_t th;
	int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (map_everything())
		_exit(1);
	for (i = 0; i < 2; i++)
		if (pthread_create(&th, NULL, sleeper, NULL))
			_exit(1);
	t->child = fork();
	if (t->child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sleeper(NULL);
	}
	if (t->child < 0 || write(t->ready[1], &t->child, sizeof(t->child)) < 0)
		_exit(1);
	sleeper(NULL);
	_exit(0);
}

static int tasks__start(struct td_tasks *t)
{
	if (pipe(t->ready))
		return -errno;
	t->parent = fork();
	if (t->parent == 0)
		parent_main(t);
	t->execd = fork();
	if (t->execd == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl("/bin/sleep", "sleep", "1000", NULL);
		_exit(127);
	}
	if (t->parent < 0 || t->execd < 0 ||
	    read(t->ready[0], &t->child, sizeof(t->child)) != sizeof(t->child))
		return -1;
	usleep(200 * 1000);		/* let sleep(1) finish its exec */
	return 0;
}

static void tasks__stop(struct td_tasks *t)
{
	if (t->parent > 0) {
		kill(t->parent, SIGKILL);
		waitpid(t->parent, NULL, 0);
	}
	if (t->execd > 0) {
		kill(t->execd, SIGKILL);
		waitpid(t->execd, NULL, 0);
	}
	close(t->ready[0]);
	close(t->ready[1]);
}

static void capture__init(struct td_capture *cap, const struct td_tasks *t,
			  bool namespaces)
{
	memset(cap, 0, sizeof(*cap));
	perf_tool__init(&cap->tool, false);
	cap->tool.namespace_events = namespaces;
	cap->pids[cap->nr_pids++] = t->parent;
	cap->pids[cap->nr_pids++] = t->child;
	cap->pids[cap->nr_pids++] = t->execd;
	cap->pids[cap->nr_pids++] = 2;		/* kthreadd: a kernel thread */
}

/* Skip when this perf or this kernel has no task_diag */
static bool no_task_diag(void)
{
#ifdef HAVE_TASKDIAG_SUPPORT
	return access("/proc/task-diag", R_OK | W_OK) != 0;
#else
	return true;
#endif
}

/* Run both syntheses over the controlled tasks and compare them */
static int compare_syntheses(bool needs_mmap, bool mmap_data, bool namespaces,
			     size_t min_mmaps)
{
	struct td_capture td, proc;
	struct td_tasks t = {};
	int ret = TEST_FAIL;

	if (no_task_diag())
		return TEST_SKIP;
	if (tasks__start(&t))
		goto out;
	capture__init(&td, &t, namespaces);
	capture__init(&proc, &t, namespaces);
	if (synthesize(&td, true, needs_mmap, mmap_data) ||
	    synthesize(&proc, false, needs_mmap, mmap_data))
		goto out_free;

	ret = compare_captures(&td, &proc);
	/* 3 threads of the parent, its child, the exec'd one, kthreadd */
	if (count_type(&td, PERF_RECORD_FORK) != 6 ||
	    count_type(&td, PERF_RECORD_COMM) != 6) {
		pr_debug("expected FORK and COMM of 6 tasks\n");
		ret = TEST_FAIL;
	}
	if (!!count_type(&td, PERF_RECORD_NAMESPACES) != namespaces) {
		pr_debug("NAMESPACES events only when asked for\n");
		ret = TEST_FAIL;
	}
	if (needs_mmap ? count_type(&td, PERF_RECORD_MMAP2) < min_mmaps :
			 count_type(&td, PERF_RECORD_MMAP2) != 0) {
		pr_debug("%zu MMAP2 events, expected %s%zu\n",
			 count_type(&td, PERF_RECORD_MMAP2),
			 needs_mmap ? "at least " : "", min_mmaps);
		ret = TEST_FAIL;
	}
out_free:
	capture__exit(&td);
	capture__exit(&proc);
out:
	tasks__stop(&t);
	return ret;
}

static int test__task_diag_same_events(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	return compare_syntheses(true, false, false, 3);
}

static int test__task_diag_data_mmaps(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	/* memfd, shared and private anonymous, heap, stack... */
	return compare_syntheses(true, true, false, 8);
}

static int test__task_diag_no_mmaps(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	return compare_syntheses(false, false, false, 0);
}

static int test__task_diag_namespaces(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	return compare_syntheses(true, false, true, 3);
}

/* The events of the thread map path, from task_diag or from /proc */
static int synthesize_thread_map(struct td_capture *cap,
				 struct perf_thread_map *threads, bool taskdiag)
{
	bool saved = perf_synthesize_taskdiag;
	struct machine *machine = machine__new_host();
	int err;

	if (!machine)
		return -ENOMEM;
	perf_synthesize_taskdiag = taskdiag;
	err = perf_event__synthesize_thread_map(&cap->tool, threads, capture_event,
						machine, true, false);
	perf_synthesize_taskdiag = saved;
	machine__delete(machine);
	if (!err)
		qsort(cap->events, cap->nr, sizeof(*cap->events), event_cmp);
	return err;
}

/* perf record -p: the thread map path sends the same events both ways */
static int test__task_diag_thread_map(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	struct perf_thread_map *threads = NULL;
	struct td_capture td, proc;
	struct td_tasks t = {};
	int ret = TEST_FAIL;

	if (no_task_diag())
		return TEST_SKIP;
	if (tasks__start(&t))
		goto out;
	threads = thread_map__new_by_pid(t.parent);
	capture__init(&td, &t, false);
	capture__init(&proc, &t, false);
	if (!threads || perf_thread_map__nr(threads) != 3 ||
	    synthesize_thread_map(&td, threads, true) ||
	    synthesize_thread_map(&proc, threads, false))
		goto out_free;

	ret = compare_captures(&td, &proc);
	if (count_type(&td, PERF_RECORD_COMM) != 3 ||
	    count_type(&td, PERF_RECORD_MMAP2) < 3) {
		pr_debug("expected 3 COMM and MMAP2 events of the process\n");
		ret = TEST_FAIL;
	}
out_free:
	capture__exit(&td);
	capture__exit(&proc);
out:
	perf_thread_map__put(threads);
	tasks__stop(&t);
	return ret;
}

/* In a mount namespace whose /proc shows no /proc/task-diag */
static int __noreturn fallback_child(void)
{
	struct td_capture with, without;
	struct td_tasks t = {};
	int ret = TEST_FAIL;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", "/proc", "proc", 0, "subset=pid"))
		_exit(TEST_SKIP & 0xff);
	if (!access("/proc/task-diag", F_OK) || tasks__start(&t))
		goto out;
	capture__init(&with, &t, false);
	capture__init(&without, &t, false);
	if (synthesize(&with, true, true, false) != -ENOENT)
		goto out_free;
	capture__exit(&with);
	capture__init(&with, &t, false);
	/* perf_synthesize_taskdiag is on: the /proc walk must take over */
	if (perf_event__synthesize_threads(&with.tool, capture_event, machine__new_host(),
					   true, false, 1))
		goto out_free;
	qsort(with.events, with.nr, sizeof(*with.events), event_cmp);
	if (synthesize(&without, false, true, false))
		goto out_free;
	ret = compare_captures(&with, &without);
	if (ret == TEST_OK && count_type(&with, PERF_RECORD_MMAP2) < 3)
		ret = TEST_FAIL;
out_free:
	capture__exit(&with);
	capture__exit(&without);
out:
	tasks__stop(&t);
	_exit(ret & 0xff);
}

static int test__task_diag_fallback(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	pid_t pid;
	int status;

	if (no_task_diag())
		return TEST_SKIP;
	pid = fork();
	if (pid < 0)
		return TEST_FAIL;
	if (pid == 0)
		fallback_child();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return TEST_FAIL;
	return (signed char)WEXITSTATUS(status);
}

static struct test_case tests__task_diag[] = {
	TEST_CASE_REASON("task_diag and /proc synthesize the same events",
			 task_diag_same_events, "no /proc/task-diag or perf built without it"),
	TEST_CASE_REASON("same data mmaps (record -d)",
			 task_diag_data_mmaps, "no /proc/task-diag or perf built without it"),
	TEST_CASE_REASON("no MMAP2 when mmaps are not needed (--synth=task)",
			 task_diag_no_mmaps, "no /proc/task-diag or perf built without it"),
	TEST_CASE_REASON("same NAMESPACES events (--namespaces)",
			 task_diag_namespaces, "no /proc/task-diag or perf built without it"),
	TEST_CASE_REASON("thread map targets (record -p) synthesize the same events",
			 task_diag_thread_map, "no /proc/task-diag or perf built without it"),
	TEST_CASE_REASON("falls back to /proc without /proc/task-diag",
			 task_diag_fallback, "no /proc/task-diag, or no mount namespace"),
	{ .name = NULL, }
};

struct test_suite suite__task_diag = {
	.desc = "task-diag",
	.test_cases = tests__task_diag,
};
