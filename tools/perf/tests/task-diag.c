// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag synthesis: for a controlled set of tasks (threads, a child, an
 * exec'd program, exec and data mappings, a memfd, a deleted file, shared
 * anonymous memory and a kernel thread) the events synthesized from
 * /proc/task-diag are those of the /proc walk, byte for byte; and when
 * task_diag fails midway, the /proc walk completes what it sent.  So are
 * those of the /proc walk with its maps from PROCMAP_QUERY, task_diag's
 * peer in perf bench taskdiag, and so are those of the BPF task and
 * task_vma iterators.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include "build-id.h"
#include "debug.h"
#include "event.h"
#include "machine.h"
#include "symbol.h"
#include "synthetic-bpf-iter.h"
#include "synthetic-events.h"
#include "synthetic-procmap-query.h"
#include "synthetic-taskdiag.h"
#include "tests.h"
#include "thread_map.h"
#include "tool.h"

#ifdef HAVE_TASKDIAG_SUPPORT
#include <taskdiag/taskdiag.h>

#define TD_MAX_PIDS	8
/* as perf record's sample_id_all gives: events have room for sample ids */
#define TD_ID_HDR_SIZE	24

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

static int __capture_event(struct td_capture *cap, union perf_event *event)
{
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

/* Keep the events of our tasks; the /proc walk may call it from threads */
static int capture_event(const struct perf_tool *tool, union perf_event *event,
			 struct perf_sample *sample __maybe_unused,
			 struct machine *machine __maybe_unused)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct td_capture *cap = container_of(tool, struct td_capture, tool);
	pid_t tgid = event_tgid(event);
	size_t i;
	int err;

	for (i = 0; i < cap->nr_pids && cap->pids[i] != tgid; i++)
		;
	if (i == cap->nr_pids)
		return 0;
	pthread_mutex_lock(&lock);
	err = __capture_event(cap, event);
	pthread_mutex_unlock(&lock);
	return err;
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

/* The host machine, its events with room for sample ids as with perf record */
static struct machine *td_machine__new(void)
{
	struct machine *machine = machine__new_host();

	if (machine)
		machine->id_hdr_size = TD_ID_HDR_SIZE;
	return machine;
}

/* In the order of event_cmp(), where the order of sending does not matter */
static void capture__sort(struct td_capture *cap)
{
	qsort(cap->events, cap->nr, sizeof(*cap->events), event_cmp);
}

enum td_fault_kind {
	TD_FAULT_EIO,		/* the read fails */
	TD_FAULT_CORRUPT,	/* its header is garbage */
	TD_FAULT_EINTR,		/* interrupted: to be retried */
};

/*
 * A transport over /proc/task-diag that counts the requests sent on it and
 * the errors it met, opens the file again when a request finds the answer
 * to the previous one unread (EBUSY) as the library does, and fails the
 * read numbered fault.reads_left (counted over both transactions of a
 * synthesis) with EIO or EINTR, or hands it over with a corrupted header
 * for the library to reject; with fault.fail_maps, the first read after a
 * request of VMAs fails with EIO.  With read-ahead the two sessions of a
 * synthesis are read on two threads at once: fault_lock orders the counts.
 */
struct td_fault_fd {
	struct taskdiag_source	src;
	int			fd;
};

static struct {
	struct td_fault_fd	fds[2];
	unsigned int		nr_fds;
	unsigned int		nr_requests;
	unsigned int		nr_vma_requests;	/* that show VMAs */
	unsigned int		nr_reopens;		/* after EBUSY */
	unsigned int		nr_errors;		/* not injected */
	unsigned int		nr_injected;
	unsigned int		nr_rejected;		/* of reject_show */
	__u64			reject_show;	/* refused as an older kernel does */
	__u64			show_seen;	/* of the requests sent */
	long			reads_left;		/* < 0: none fails */
	enum td_fault_kind	kind;
	bool			fail_maps;
	pid_t			tid;		/* of the test */
	unsigned int		nr_reads_elsewhere;	/* on another thread */
} fault = { .reads_left = -1 };

static pthread_mutex_t fault_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Whether the tests let a second thread read ahead: only those of the
 * read-ahead, so that the others count each read as made in order
 */
static bool read_ahead;

/* Write the request @req on @f's file, opened first if need be */
static ssize_t fault_write(struct td_fault_fd *f, const void *req, size_t len)
{
	if (f->fd < 0)
		f->fd = open("/proc/task-diag", O_RDWR | O_CLOEXEC);
	return f->fd < 0 ? -1 : write(f->fd, req, len);
}

static int __fault_request(void *arg, const void *req, size_t len)
{
	struct td_fault_fd *f = arg;
	struct task_diag_pid p = {};
	ssize_t n;

	if (len > NLMSG_HDRLEN)
		memcpy(&p, (const char *)req + NLMSG_HDRLEN,
		       min_t(size_t, sizeof(p), len - NLMSG_HDRLEN));
	if (p.show_flags & fault.reject_show) {
		fault.nr_rejected++;
		return -EINVAL;		/* unknown show_flags bits */
	}
	n = fault_write(f, req, len);

	/* an answer not read to its end (a failed read): start afresh */
	if (n < 0 && errno == EBUSY) {
		close(f->fd);
		f->fd = -1;
		fault.nr_reopens++;
		n = fault_write(f, req, len);
	}
	if (n != (ssize_t)len) {
		fault.nr_errors++;
		return n < 0 ? -errno : -EIO;
	}
	fault.nr_requests++;
	fault.show_seen |= p.show_flags;
	if (p.show_flags & TASK_DIAG_SHOW_VMA) {
		fault.nr_vma_requests++;
		if (fault.fail_maps) {
			fault.reads_left = 0;
			fault.kind = TD_FAULT_EIO;
		}
	}
	return 0;
}

static int fault_request(void *arg, const void *req, size_t len)
{
	int err;

	pthread_mutex_lock(&fault_lock);
	err = __fault_request(arg, req, len);
	pthread_mutex_unlock(&fault_lock);
	return err;
}

static ssize_t fault_read(void *arg, void *buf, size_t len)
{
	struct td_fault_fd *f = arg;
	bool corrupt = false;
	ssize_t n;

	pthread_mutex_lock(&fault_lock);
	if (syscall(SYS_gettid) != fault.tid)
		fault.nr_reads_elsewhere++;
	if (fault.reads_left >= 0 && fault.reads_left-- == 0) {
		fault.nr_injected++;
		if (fault.kind != TD_FAULT_CORRUPT) {
			pthread_mutex_unlock(&fault_lock);
			return fault.kind == TD_FAULT_EINTR ? -EINTR : -EIO;
		}
		corrupt = true;
	}
	pthread_mutex_unlock(&fault_lock);
	n = read(f->fd, buf, len);
	if (n < 0) {
		n = -errno;
		pthread_mutex_lock(&fault_lock);
		fault.nr_errors++;
		pthread_mutex_unlock(&fault_lock);
		return n;
	}
	if (corrupt && n > 0)
		memset(buf, 0xff, min_t(size_t, n, 8));	/* nlmsg_len, type */
	return n;
}

static const struct taskdiag_source *fault_source(void)
{
	struct td_fault_fd *f = &fault.fds[fault.nr_fds++ % ARRAY_SIZE(fault.fds)];

	f->src.sz = sizeof(f->src);
	f->src.request = fault_request;
	f->src.read = fault_read;
	f->src.arg = f;
	f->fd = -1;
	fault.tid = syscall(SYS_gettid);
	return &f->src;
}

static void fault__reset(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fault.fds); i++) {
		if (fault.nr_fds > i && fault.fds[i].fd >= 0)
			close(fault.fds[i].fd);
		fault.fds[i].fd = -1;
	}
	fault.nr_fds = fault.nr_requests = fault.nr_vma_requests = 0;
	fault.nr_errors = fault.nr_injected = fault.nr_reopens = 0;
	fault.nr_rejected = 0;
	fault.reject_show = fault.show_seen = 0;
	fault.reads_left = -1;
	fault.fail_maps = false;
	fault.nr_reads_elsewhere = 0;
}

/*
 * From how many tasks on the system the tests of the read-ahead read ahead:
 * 0, whatever their number, but for the test of that setting
 */
static unsigned long read_ahead_tasks;

/* The synthesis settings of perf config that a test sets */
struct td_want {
	bool		taskdiag;	/* synthesize.task-diag */
	bool		read_ahead;	/* synthesize.task-diag-read-ahead */
	unsigned long	read_ahead_tasks; /* and -read-ahead-tasks */
};

/*
 * Whether perf synthesizes from task_diag, and reads ahead as the test
 * says (read_ahead): each test says what it needs, whatever the user's
 * perf config says.  Returns the settings before, for taskdiag__restore().
 */
static struct td_want taskdiag__want(bool on)
{
	struct td_want was = {
		.taskdiag = perf_synthesize_taskdiag,
		.read_ahead = perf_synthesize_taskdiag_read_ahead,
		.read_ahead_tasks = perf_synthesize_taskdiag_read_ahead_tasks,
	};

	perf_synthesize_taskdiag = on;
	perf_synthesize_taskdiag_read_ahead = read_ahead;
	perf_synthesize_taskdiag_read_ahead_tasks = read_ahead_tasks;
	return was;
}

static void taskdiag__restore(struct td_want was)
{
	perf_synthesize_taskdiag = was.taskdiag;
	perf_synthesize_taskdiag_read_ahead = was.read_ahead;
	perf_synthesize_taskdiag_read_ahead_tasks = was.read_ahead_tasks;
}

/* Whether a synthesis of the test reads ahead, as perf decides it */
static bool reads_ahead(void)
{
	struct td_want was = taskdiag__want(true);
	bool ret = perf_taskdiag__read_ahead();

	taskdiag__restore(was);
	return ret;
}

/* Synthesize all tasks, from task_diag or from /proc; keep ours */
static int synthesize(struct td_capture *cap, bool taskdiag, bool needs_mmap,
		      bool mmap_data)
{
	struct td_want saved = taskdiag__want(taskdiag);
	struct machine *machine = td_machine__new();
	pid_t resume_tgid = 0;
	int err;

	if (!machine) {
		err = -ENOMEM;
		goto out;
	}
	if (taskdiag) {
		/* counted in fault */
		err = perf_event__synthesize_threads_taskdiag(&cap->tool, capture_event,
							      machine, needs_mmap,
							      mmap_data, fault_source,
							      &resume_tgid);
	} else {
		unsigned int saved_timeout = proc_map_timeout;

		/*
		 * the reference is complete: no maps cut short after 500 ms,
		 * as reading build IDs from the files takes on a debug kernel
		 */
		proc_map_timeout = 600 * 1000;
		err = perf_event__synthesize_threads(&cap->tool, capture_event, machine,
						     needs_mmap, mmap_data, 1);
		proc_map_timeout = saved_timeout;
	}
	machine__delete(machine);
out:
	taskdiag__restore(saved);
	return err;
}

static size_t count_type(const struct td_capture *cap, u32 type)
{
	size_t i, n = 0;

	for (i = 0; i < cap->nr; i++)
		n += cap->events[i]->header.type == type;
	return n;
}

/* The COMM events naming @name, or the MMAP2 events of a file so named */
static size_t count_named(const struct td_capture *cap, u32 type, const char *name)
{
	size_t i, n = 0;

	for (i = 0; i < cap->nr; i++) {
		const union perf_event *ev = cap->events[i];

		n += ev->header.type == type &&
		     !strcmp(type == PERF_RECORD_COMM ? ev->comm.comm : ev->mmap2.filename,
			     name);
	}
	return n;
}

static size_t count_comm(const struct td_capture *cap, const char *comm)
{
	return count_named(cap, PERF_RECORD_COMM, comm);
}

static size_t count_build_ids(const struct td_capture *cap)
{
	size_t i, n = 0;

	for (i = 0; i < cap->nr; i++)
		n += cap->events[i]->header.type == PERF_RECORD_MMAP2 &&
		     cap->events[i]->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID;
	return n;
}

/* Both captures hold the same events in the same order, byte for byte */
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
	for (i = 0; i < 2; i++) {
		char name[16];

		snprintf(name, sizeof(name), "td-thread-%d", i);
		if (pthread_create(&th, NULL, sleeper, NULL) ||
		    pthread_setname_np(th, name))
			_exit(1);
	}
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

/*
 * Wait until the exec'd @pid is sleep(1) asleep (state S, as in its
 * nanosleep; loading pages is D): its exec, the dynamic loader's mappings
 * included, is over, however slow the kernel (a debug kernel under TCG
 * takes seconds); at most 60 s
 */
static int wait_asleep(pid_t pid)
{
	char path[64], buf[128], want[32];
	int i, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	snprintf(want, sizeof(want), "%d (sleep) S ", pid);
	for (i = 0; i < 6000; i++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		if (!strncmp(buf, want, strlen(want)))
			return 0;
		usleep(10 * 1000);
	}
	pr_debug("pid %d did not go to sleep\n", pid);
	return -1;
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
	return wait_asleep(t->execd);	/* sleep(1) has finished its exec */
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

/* Skip when this kernel has no task_diag */
static bool no_task_diag(void)
{
	return access("/proc/task-diag", R_OK | W_OK) != 0;
}

/*
 * The requests of a synthesis: with maps and read-ahead, two transactions
 * on two files, every thread and every process with its maps and the
 * build IDs for build-id MMAP2 events; with maps but no read-ahead, one
 * ALL_THREAD transaction whose leaders carry them.  A kernel that refuses
 * (@reject) the build IDs gets the requests without them; one that refuses
 * TASK_DIAG_SHOW_VMA_LEADERS the two transactions, without build IDs,
 * after refusing the one.
 */
static int check_requests(bool needs_mmap, __u64 reject)
{
	bool ids = symbol_conf.buildid_mmap2;
	bool split = reads_ahead();
	bool older = !split && (reject & TASK_DIAG_SHOW_VMA_LEADERS);
	unsigned int want = needs_mmap && (split || older) ? 2 : 1, refused = 0;
	__u64 want_show = 0, never = reject;

	if (needs_mmap) {
		if (ids && (reject & TASK_DIAG_SHOW_VMA_BUILD_ID))
			refused++;
		if (older)
			refused++;
		if (split)
			never |= TASK_DIAG_SHOW_VMA_LEADERS;
		else if (!older)
			want_show = TASK_DIAG_SHOW_VMA_LEADERS;
		if (ids && !older && !(reject & TASK_DIAG_SHOW_VMA_BUILD_ID))
			want_show |= TASK_DIAG_SHOW_VMA_BUILD_ID;
	}
	if (fault.nr_requests != want || fault.nr_fds != want ||
	    fault.nr_rejected != refused ||
	    (fault.show_seen & want_show) != want_show ||
	    (fault.show_seen & never)) {
		pr_debug("%u requests (%u refused) on %u files, flags %#llx: expected %u with %#llx\n",
			 fault.nr_requests, fault.nr_rejected, fault.nr_fds,
			 (unsigned long long)fault.show_seen, want,
			 (unsigned long long)want_show);
		return TEST_FAIL;
	}
	return TEST_OK;
}

/*
 * Run both syntheses over the controlled tasks and compare them; task_diag
 * refuses the flags @reject as an older kernel that does not know them
 */
static int __compare_syntheses(bool needs_mmap, bool mmap_data, bool namespaces,
			       size_t min_mmaps, __u64 reject)
{
	struct td_capture td, proc;
	struct td_tasks t = {};
	int ret = TEST_FAIL;
	bool ahead;

	if (no_task_diag())
		return TEST_SKIP;
	if (tasks__start(&t))
		goto out;
	capture__init(&td, &t, namespaces);
	capture__init(&proc, &t, namespaces);
	fault.reject_show = reject;
	if (synthesize(&td, true, needs_mmap, mmap_data) ||
	    synthesize(&proc, false, needs_mmap, mmap_data))
		goto out_free;

	ret = compare_captures(&td, &proc);
	if (check_requests(needs_mmap, reject))
		ret = TEST_FAIL;
	/* 3 threads of the parent, its child, the exec'd one, kthreadd */
	if (count_type(&td, PERF_RECORD_FORK) != 6 ||
	    count_type(&td, PERF_RECORD_COMM) != 6) {
		pr_debug("expected FORK and COMM of 6 tasks\n");
		ret = TEST_FAIL;
	}
	if (count_comm(&td, "td-thread-0") != 1 || count_comm(&td, "td-thread-1") != 1) {
		pr_debug("expected the COMM of each named thread\n");
		ret = TEST_FAIL;
	}
	if (!!count_type(&td, PERF_RECORD_NAMESPACES) != namespaces) {
		pr_debug("NAMESPACES events only when asked for\n");
		ret = TEST_FAIL;
	}
	if (symbol_conf.buildid_mmap2 && !count_build_ids(&td)) {
		pr_debug("no MMAP2 event with a build-id\n");
		ret = TEST_FAIL;
	}
	ahead = reads_ahead();
	if (!!fault.nr_reads_elsewhere != ahead) {
		pr_debug("%u reads on another thread, read-ahead %s\n",
			 fault.nr_reads_elsewhere, ahead ? "on" : "off");
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
	fault__reset();
	capture__exit(&td);
	capture__exit(&proc);
out:
	tasks__stop(&t);
	return ret;
}

static int compare_syntheses(bool needs_mmap, bool mmap_data, bool namespaces,
			     size_t min_mmaps)
{
	return __compare_syntheses(needs_mmap, mmap_data, namespaces, min_mmaps,
				   0);
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

/* The build IDs from the kernel: those perf reads from the files */
static int test__task_diag_buildid_mmap(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	int ret;

	symbol_conf.buildid_mmap2 = true;
	ret = compare_syntheses(true, false, false, 3);
	symbol_conf.buildid_mmap2 = false;
	return ret;
}

/*
 * The MMAP2 events of @got, a source other than the /proc walk @proc:
 * at least @min_mmaps of them, or none when @needs_mmap is false; build
 * IDs when they are asked for; [vsyscall] sent as the walk sent it
 */
static int check_source_mmaps(const struct td_capture *got,
			      const struct td_capture *proc, bool needs_mmap,
			      size_t min_mmaps)
{
	size_t nr = count_type(got, PERF_RECORD_MMAP2);
	int ret = TEST_OK;

	if (needs_mmap ? nr < min_mmaps : nr != 0) {
		pr_debug("%zu MMAP2 events, expected %s%zu\n", nr,
			 needs_mmap ? "at least " : "", min_mmaps);
		ret = TEST_FAIL;
	}
	if (symbol_conf.buildid_mmap2 && !count_build_ids(got)) {
		pr_debug("no MMAP2 event with a build-id\n");
		ret = TEST_FAIL;
	}
	if (count_named(proc, PERF_RECORD_MMAP2, "[vsyscall]") !=
	    count_named(got, PERF_RECORD_MMAP2, "[vsyscall]")) {
		pr_debug("[vsyscall] not sent alike\n");
		ret = TEST_FAIL;
	}
	return ret;
}

/*
 * The /proc walk with its maps from PROCMAP_QUERY sends the events it
 * sends with them from the text of the maps files, [vsyscall] included
 */
static int compare_procmap_query(bool mmap_data, size_t min_mmaps)
{
	struct td_capture query, proc;
	struct td_tasks t = {};
	int ret = TEST_FAIL;
	bool err;

	if (!perf_procmap_query__available())
		return TEST_SKIP;
	if (tasks__start(&t))
		goto out;
	capture__init(&query, &t, false);
	capture__init(&proc, &t, false);
	perf_synthesize_procmap_query = true;
	err = synthesize(&query, false, true, mmap_data);
	perf_synthesize_procmap_query = false;
	if (err || synthesize(&proc, false, true, mmap_data))
		goto out_free;

	ret = compare_captures(&query, &proc);
	if (check_source_mmaps(&query, &proc, true, min_mmaps))
		ret = TEST_FAIL;
out_free:
	capture__exit(&query);
	capture__exit(&proc);
out:
	tasks__stop(&t);
	return ret;
}

static int test__procmap_query_same_events(struct test_suite *test __maybe_unused,
					   int subtest __maybe_unused)
{
	return compare_procmap_query(false, 3);
}

static int test__procmap_query_data_mmaps(struct test_suite *test __maybe_unused,
					  int subtest __maybe_unused)
{
	return compare_procmap_query(true, 8);
}

static int test__procmap_query_buildid_mmap(struct test_suite *test __maybe_unused,
					    int subtest __maybe_unused)
{
	int ret;

	symbol_conf.buildid_mmap2 = true;
	ret = compare_procmap_query(false, 3);
	symbol_conf.buildid_mmap2 = false;
	return ret;
}

/* Synthesize all tasks from the BPF iterators, whatever perf config says */
static int synthesize_bpf_iter(struct td_capture *cap, bool needs_mmap, bool mmap_data)
{
	struct machine *machine = td_machine__new();
	bool saved = perf_synthesize_bpf_iter;
	int err;

	if (!machine)
		return -ENOMEM;
	perf_synthesize_bpf_iter = true;
	err = perf_event__synthesize_threads_bpf_iter(&cap->tool, capture_event, machine,
						      needs_mmap, mmap_data);
	perf_synthesize_bpf_iter = saved;
	machine__delete(machine);
	return err;
}

/* The inode of the initial pid namespace (PROC_PID_INIT_INO) */
#define TD_PID_INIT_INO	0xEFFFFFFCU

/*
 * Where the BPF iterators do not load, why, and a skip only for reasons
 * outside perf: a perf built without BPF skeletons, not run by root, out
 * of the initial pid namespace, or on a kernel without BTF; else a fail
 */
static int bpf_iter_not_usable(const char *why)
{
#ifdef HAVE_BPF_SKEL
	bool must_load = !geteuid();
#else
	bool must_load = false;
#endif
	struct stat st;

	pr_debug("%s\n", why);
	if (stat("/proc/self/ns/pid", &st) || st.st_ino != TD_PID_INIT_INO ||
	    stat("/sys/kernel/btf/vmlinux", &st))
		must_load = false;
	if (!must_load)
		return TEST_SKIP;
	pr_debug("root, with the kernel's BTF: the BPF iterators should load\n");
	return TEST_FAIL;
}

/*
 * The BPF iterators send the events the /proc walk sends, [vsyscall]
 * included; where they cannot be loaded, bpf_iter_not_usable()
 */
static int compare_bpf_iter(bool needs_mmap, bool mmap_data, bool namespaces,
			    size_t min_mmaps)
{
	struct td_capture bpf, proc;
	struct td_tasks t = {};
	int ret = TEST_FAIL;
	char why[128];

	if (!perf_bpf_iter__usable(why, sizeof(why)))
		return bpf_iter_not_usable(why);
	if (tasks__start(&t))
		goto out;
	capture__init(&bpf, &t, namespaces);
	capture__init(&proc, &t, namespaces);
	if (synthesize_bpf_iter(&bpf, needs_mmap, mmap_data) ||
	    synthesize(&proc, false, needs_mmap, mmap_data))
		goto out_free;

	ret = compare_captures(&bpf, &proc);
	/* 3 threads of the parent, its child, the exec'd one, kthreadd */
	if (count_type(&bpf, PERF_RECORD_FORK) != 6 ||
	    count_type(&bpf, PERF_RECORD_COMM) != 6) {
		pr_debug("expected FORK and COMM of 6 tasks\n");
		ret = TEST_FAIL;
	}
	if (count_comm(&bpf, "td-thread-0") != 1 || count_comm(&bpf, "td-thread-1") != 1) {
		pr_debug("expected the COMM of each named thread\n");
		ret = TEST_FAIL;
	}
	if (!!count_type(&bpf, PERF_RECORD_NAMESPACES) != namespaces) {
		pr_debug("NAMESPACES events only when asked for\n");
		ret = TEST_FAIL;
	}
	if (check_source_mmaps(&bpf, &proc, needs_mmap, min_mmaps))
		ret = TEST_FAIL;
out_free:
	capture__exit(&bpf);
	capture__exit(&proc);
out:
	tasks__stop(&t);
	return ret;
}

static int test__bpf_iter_same_events(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	return compare_bpf_iter(true, false, false, 3);
}

static int test__bpf_iter_data_mmaps(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	/* memfd, shared and private anonymous, heap, stack... */
	return compare_bpf_iter(true, true, false, 8);
}

static int test__bpf_iter_no_mmaps(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	return compare_bpf_iter(false, false, false, 0);
}

static int test__bpf_iter_namespaces(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	return compare_bpf_iter(true, false, true, 3);
}

static int test__bpf_iter_buildid_mmap(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	int ret;

	symbol_conf.buildid_mmap2 = true;
	ret = compare_bpf_iter(true, false, false, 3);
	symbol_conf.buildid_mmap2 = false;
	return ret;
}

/*
 * Without the privilege to load BPF programs, synthesize.bpf-iter leaves
 * the synthesis to the /proc walk: the same events, none missing
 */
static int __noreturn bpf_iter_unprivileged_child(void)
{
	struct td_capture on, off;
	struct td_tasks t = {};
	char why[128];
	int ret = TEST_FAIL;

	if (setgid(65534) || setuid(65534))
		_exit(TEST_SKIP & 0xff);
	if (perf_bpf_iter__usable(why, sizeof(why))) {
		pr_debug("the BPF iterators load for user 65534\n");
		_exit(TEST_FAIL & 0xff);
	}
	if (tasks__start(&t))
		goto out;
	capture__init(&on, &t, false);
	capture__init(&off, &t, false);
	perf_synthesize_bpf_iter = true;
	if (synthesize(&on, false, true, false))
		goto out_free;
	perf_synthesize_bpf_iter = false;
	if (synthesize(&off, false, true, false))
		goto out_free;
	ret = compare_captures(&on, &off);
	if (count_type(&on, PERF_RECORD_COMM) != 6) {
		pr_debug("expected COMM of 6 tasks\n");
		ret = TEST_FAIL;
	}
out_free:
	capture__exit(&on);
	capture__exit(&off);
out:
	tasks__stop(&t);
	_exit(ret & 0xff);
}

static int test__bpf_iter_unprivileged(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	char why[128];
	int status;
	pid_t pid;

	if (!perf_bpf_iter__usable(why, sizeof(why)))
		return bpf_iter_not_usable(why);
	if (geteuid())
		return TEST_SKIP;
	pid = fork();
	if (pid < 0)
		return TEST_FAIL;
	if (pid == 0)
		bpf_iter_unprivileged_child();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return TEST_FAIL;
	return (signed char)WEXITSTATUS(status);
}

/* Copy @from to @to: 0 or -1 */
static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
	char buf[65536];
	ssize_t n = -1;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			n = -1;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return n ? -1 : 0;
}

/* Map a copy of perf executable, delete it, say so on @ready and wait */
static int __noreturn deleted_elf_child(const char *path, int ready)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *p = fd < 0 ? MAP_FAILED :
		  mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	char ok = p != MAP_FAILED && !unlink(path);

	if (write(ready, &ok, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/*
 * A mapped ELF file that was deleted since (a library upgraded under a
 * running process): /proc gives perf only its path, which names nothing,
 * task_diag the build ID of the file mapped, which the MMAP2 event carries
 */
static int test__task_diag_buildid_of_mapped_file(struct test_suite *test __maybe_unused,
						  int subtest __maybe_unused)
{
	char path[] = "/tmp/perf-td-elf-XXXXXX";
	struct td_capture cap;
	struct build_id want;
	union perf_event *ev;
	int ret = TEST_FAIL, fds[2], fd;
	size_t i, n = 0;
	pid_t child;
	char ok = 0;

	if (no_task_diag())
		return TEST_SKIP;
	if (filename__read_build_id("/proc/self/exe", &want) <= 0) {
		pr_debug("perf itself has no build ID\n");
		return TEST_SKIP;
	}
	fd = mkstemp(path);
	if (fd < 0 || close(fd) || copy_file("/proc/self/exe", path) ||
	    pipe(fds))
		return TEST_FAIL;
	child = fork();
	if (!child)
		deleted_elf_child(path, fds[1]);
	if (child < 0 || read(fds[0], &ok, 1) != 1 || !ok) {
		pr_debug("the child could not map and delete %s\n", path);
		goto out;
	}

	memset(&cap, 0, sizeof(cap));
	perf_tool__init(&cap.tool, false);
	cap.pids[cap.nr_pids++] = child;
	symbol_conf.buildid_mmap2 = true;
	if (synthesize(&cap, true, true, false))
		goto out_free;
	for (i = 0; i < cap.nr; i++) {
		ev = cap.events[i];
		if (ev->header.type != PERF_RECORD_MMAP2 ||
		    strncmp(ev->mmap2.filename, path, strlen(path)))
			continue;
		n++;
		if (!(ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) ||
		    ev->mmap2.build_id_size != want.size ||
		    memcmp(ev->mmap2.build_id, want.data, want.size)) {
			pr_debug("%s: not the build ID of the file mapped\n",
				 ev->mmap2.filename);
			goto out_free;
		}
	}
	ret = n == 1 ? TEST_OK : TEST_FAIL;
	if (n != 1)
		pr_debug("%zu MMAP2 events of %s, expected 1\n", n, path);
out_free:
	symbol_conf.buildid_mmap2 = false;
	fault__reset();
	capture__exit(&cap);
out:
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	unlink(path);
	close(fds[0]);
	close(fds[1]);
	return ret;
}

/*
 * A kernel without TASK_DIAG_SHOW_VMA_LEADERS and _BUILD_ID refuses the one
 * transaction: two give the same events, build-id MMAP2 ones included;
 * one without _BUILD_ID only: the one transaction without build IDs
 */
static int test__task_diag_older_kernel(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	const __u64 older = TASK_DIAG_SHOW_VMA_LEADERS | TASK_DIAG_SHOW_VMA_BUILD_ID;
	int ret;

	ret = __compare_syntheses(true, false, false, 3, older);
	symbol_conf.buildid_mmap2 = true;
	if (ret == TEST_OK)
		ret = __compare_syntheses(true, false, false, 3, older);
	if (ret == TEST_OK)
		ret = __compare_syntheses(true, false, false, 3,
					  TASK_DIAG_SHOW_VMA_BUILD_ID);
	symbol_conf.buildid_mmap2 = false;
	return ret;
}

/*
 * The events of the thread map path, from task_diag or from /proc; the
 * requests task_diag served are counted in fault
 */
static int synthesize_thread_map(struct td_capture *cap,
				 struct perf_thread_map *threads, bool taskdiag)
{
	struct machine *machine = td_machine__new();
	struct td_want saved;
	int err;

	if (!machine)
		return -ENOMEM;
	saved = taskdiag__want(taskdiag);
	err = perf_event__synthesize_thread_map_from(&cap->tool, threads,
						     capture_event, machine,
						     true, false, fault_source);
	taskdiag__restore(saved);
	machine__delete(machine);
	return err;
}

/* The tid of a thread of @pid other than its leader, -1 if none */
static pid_t non_leader_tid(pid_t pid)
{
	struct perf_thread_map *threads = thread_map__new_by_pid(pid);
	pid_t tid = -1;
	int i;

	for (i = 0; threads && i < perf_thread_map__nr(threads); i++)
		if (perf_thread_map__pid(threads, i) != pid)
			tid = perf_thread_map__pid(threads, i);
	perf_thread_map__put(threads);
	return tid;
}

/*
 * perf record -p PID (@leader) or -t TID of a thread that is not the
 * leader: the thread map path sends the same events both ways, also when
 * the read of the leader's maps fails (@fail_maps: /proc sends them)
 */
static int compare_thread_maps(bool leader, bool fail_maps)
{
	struct perf_thread_map *threads = NULL;
	struct td_capture td, proc;
	struct td_tasks t = {};
	int ret = TEST_FAIL;

	if (no_task_diag())
		return TEST_SKIP;
	if (tasks__start(&t))
		goto out;
	threads = leader ? thread_map__new_by_pid(t.parent) :
			   thread_map__new_by_tid(non_leader_tid(t.parent));
	capture__init(&td, &t, false);
	capture__init(&proc, &t, false);
	fault.fail_maps = fail_maps;
	if (!threads || perf_thread_map__nr(threads) != (leader ? 3 : 1) ||
	    synthesize_thread_map(&td, threads, true) ||
	    synthesize_thread_map(&proc, threads, false))
		goto out_free;

	ret = compare_captures(&td, &proc);
	/*
	 * task_diag served, on one session and without an error: a request
	 * per thread, one for the leader's maps; with -t, the leader is asked
	 * for besides the thread
	 */
	if (fault.nr_fds != 1 || fault.nr_requests != (leader ? 4 : 3) ||
	    fault.nr_vma_requests != 1 || fault.nr_errors) {
		pr_debug("task_diag: %u sessions, %u requests, %u of maps, %u errors; expected 1, %d, 1, 0\n",
			 fault.nr_fds, fault.nr_requests, fault.nr_vma_requests,
			 fault.nr_errors, leader ? 4 : 3);
		ret = TEST_FAIL;
	}
	/*
	 * answers are read to their end: a new file only after the failed
	 * read (procfs lists the leader first: other threads follow it)
	 */
	if (fault.nr_injected != fail_maps || fault.nr_reopens != fail_maps) {
		pr_debug("%u reads failed on purpose, %u new files; expected %d, %d\n",
			 fault.nr_injected, fault.nr_reopens, fail_maps, fail_maps);
		ret = TEST_FAIL;
	}
	/* a thread's leader not in the map is sent too, with the MMAP2 events */
	if (count_type(&td, PERF_RECORD_COMM) != (leader ? 3 : 2) ||
	    count_type(&td, PERF_RECORD_MMAP2) < 3) {
		pr_debug("expected %d COMM and the process's MMAP2 events\n",
			 leader ? 3 : 2);
		ret = TEST_FAIL;
	}
	if (!leader && count_comm(&td, "td-thread-0") + count_comm(&td, "td-thread-1") != 1) {
		pr_debug("expected the COMM of the named thread\n");
		ret = TEST_FAIL;
	}
out_free:
	fault__reset();
	capture__exit(&td);
	capture__exit(&proc);
out:
	perf_thread_map__put(threads);
	tasks__stop(&t);
	return ret;
}

static int test__task_diag_thread_map(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	return compare_thread_maps(true, false);
}

static int test__task_diag_thread_map_tid(struct test_suite *test __maybe_unused,
					  int subtest __maybe_unused)
{
	return compare_thread_maps(false, false);
}

static int test__task_diag_thread_map_maps_fail(struct test_suite *test __maybe_unused,
						int subtest __maybe_unused)
{
	return compare_thread_maps(true, true);
}

/* Events of the parent handed to capture_fail_second() */
static unsigned int fail_second_seen;

/*
 * capture_event(), but the parent's second event fails, once, as a write
 * to a full disk would; what is sent again after it is captured
 */
static int capture_fail_second(const struct perf_tool *tool, union perf_event *event,
			       struct perf_sample *sample, struct machine *machine)
{
	struct td_capture *cap = container_of(tool, struct td_capture, tool);

	if (event_tgid(event) == cap->pids[0] && ++fail_second_seen == 2)
		return -1;
	return capture_event(tool, event, sample, machine);
}

/*
 * perf record -p: when sending the events task_diag described fails, the
 * synthesis fails; the /proc path does not send them a second time
 */
static int test__task_diag_thread_map_send_fails(struct test_suite *test __maybe_unused,
						 int subtest __maybe_unused)
{
	struct perf_thread_map *threads = NULL;
	struct machine *machine = NULL;
	struct td_tasks t = {};
	struct td_capture cap;
	int ret = TEST_FAIL, err;
	struct td_want saved;

	if (no_task_diag())
		return TEST_SKIP;
	capture__init(&cap, &t, false);		/* empty, for the exit path */
	if (tasks__start(&t))
		goto out;
	capture__init(&cap, &t, false);
	threads = thread_map__new_by_pid(t.parent);
	machine = td_machine__new();
	if (!threads || !machine)
		goto out;
	fail_second_seen = 0;
	saved = taskdiag__want(true);
	err = perf_event__synthesize_thread_map_from(&cap.tool, threads,
						     capture_fail_second, machine,
						     true, false, fault_source);
	taskdiag__restore(saved);
	if (!err || cap.nr != 1)
		pr_debug("synthesis returned %d after sending %zu events, expected an error after 1\n",
			 err, cap.nr);
	else if (!fault.nr_requests)	/* the /proc walk fails the same way */
		pr_debug("task_diag was not asked\n");
	else
		ret = TEST_OK;
	fault__reset();
out:
	capture__exit(&cap);
	machine__delete(machine);
	perf_thread_map__put(threads);
	tasks__stop(&t);
	return ret;
}

/*
 * @got holds the events of @want and no others; those it holds twice all
 * belong to one process, the one task_diag was sending when it failed.
 */
static int compare_resumed(const struct td_capture *got,
			   const struct td_capture *want)
{
	pid_t twice = 0;
	size_t i, j = 0;

	for (i = 0; i < got->nr; i++) {
		if (i && !event_cmp(&got->events[i], &got->events[i - 1])) {
			if (twice && twice != event_tgid(got->events[i])) {
				pr_debug("events of %d and %d sent twice\n", twice,
					 event_tgid(got->events[i]));
				return TEST_FAIL;
			}
			twice = event_tgid(got->events[i]);
			continue;
		}
		if (j == want->nr || event_cmp(&got->events[i], &want->events[j])) {
			pr_debug("event %zu (type %u, pid %d) is not the /proc walk's\n",
				 i, got->events[i]->header.type, event_tgid(got->events[i]));
			return TEST_FAIL;
		}
		j++;
	}
	if (j != want->nr) {
		pr_debug("%zu events of the /proc walk missing\n", want->nr - j);
		return TEST_FAIL;
	}
	return TEST_OK;
}

/* perf_event__synthesize_threads() with task_diag failing at read @k */
static int synthesize_faulty(struct td_capture *cap, long k,
			     enum td_fault_kind kind, bool *failed)
{
	unsigned long saved_buf = perf_synthesize_taskdiag_buf;
	struct machine *machine = td_machine__new();
	struct td_want saved;
	int err;

	if (!machine)
		return -ENOMEM;
	fault.reads_left = k;
	fault.kind = kind;
	perf_synthesize_taskdiag_buf = 4096;		/* many reads */
	saved = taskdiag__want(true);
	err = perf_event__synthesize_threads_from(&cap->tool, capture_event,
						  machine, true, false, 1,
						  fault_source);
	taskdiag__restore(saved);
	perf_synthesize_taskdiag_buf = saved_buf;
	*failed = fault.reads_left < 0;
	fault__reset();
	machine__delete(machine);
	/* a resumed synthesis sends one process twice: compared as sets */
	if (!err && kind != TD_FAULT_EINTR)
		capture__sort(cap);
	return err;
}

static const char * const fault_names[] = {
	[TD_FAULT_EIO] = "failed", [TD_FAULT_CORRUPT] = "corrupted",
	[TD_FAULT_EINTR] = "interrupted",
};

/*
 * Fail every read of the synthesis in turn, or corrupt it: whatever task_diag
 * sent before, the /proc walk that takes over completes it, so perf.data
 * loses nothing.  An interrupted read is retried: the same events as /proc,
 * none twice.
 */
static int resume_after_faults(enum td_fault_kind kind)
{
	struct td_capture got, want;
	struct td_tasks t = {};
	int ret = TEST_FAIL;
	bool failed = true;
	long k;

	if (no_task_diag())
		return TEST_SKIP;
	if (tasks__start(&t))
		goto out;
	capture__init(&want, &t, false);
	if (synthesize(&want, false, true, false))
		goto out_free;
	if (kind != TD_FAULT_EINTR)
		capture__sort(&want);
	for (k = 0, ret = TEST_OK; failed && ret == TEST_OK; k++) {
		capture__init(&got, &t, false);
		if (synthesize_faulty(&got, k, kind, &failed))
			ret = TEST_FAIL;
		else if (kind == TD_FAULT_EINTR)
			ret = compare_captures(&got, &want);
		else
			ret = compare_resumed(&got, &want);
		capture__exit(&got);
		if (ret != TEST_OK)
			pr_debug("with read %ld %s\n", k, fault_names[kind]);
	}
	if (ret == TEST_OK && k < 3) {
		pr_debug("only %ld reads: nothing was tested\n", k);
		ret = TEST_FAIL;
	}
	pr_debug("%ld syntheses, each with one %s read\n", k - 1,
		 fault_names[kind]);
out_free:
	capture__exit(&want);
out:
	tasks__stop(&t);
	return ret;
}

/*
 * synthesize.task-diag-read-ahead-tasks: no thread reads ahead when more
 * tasks are asked for than the system has, and one transaction serves; with
 * one task asked for, as with 0, they do on more than one CPU.
 */
static int read_ahead_from_tasks(void)
{
	bool any, one;
	int ret;

	any = reads_ahead();
	read_ahead_tasks = 1;
	one = reads_ahead();
	if (one != any) {
		pr_debug("read-ahead from 1 task %s, whatever the tasks %s\n",
			 one ? "on" : "off", any ? "on" : "off");
		read_ahead_tasks = 0;
		return TEST_FAIL;
	}
	read_ahead_tasks = ULONG_MAX;
	if (reads_ahead()) {
		pr_debug("read-ahead on with fewer tasks than asked for\n");
		ret = TEST_FAIL;
	} else {
		ret = compare_syntheses(true, false, false, 3);
	}
	read_ahead_tasks = 0;
	return ret;
}

/*
 * With synthesize.task-diag-read-ahead and more than one CPU online, the
 * threads and the maps are two transactions, each read ahead on a thread
 * of libtaskdiag: in small buffers, so that the answers take several reads
 * and the caller waits for those made ahead (one made ahead of the last
 * buffer may be dropped before it starts); with data mappings, with
 * build-id MMAP2 events, on a kernel without build IDs, and not with fewer
 * tasks than synthesize.task-diag-read-ahead-tasks
 */
static int test__task_diag_read_ahead(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	unsigned long saved_buf = perf_synthesize_taskdiag_buf;
	int ret;

	perf_synthesize_taskdiag_buf = 4096;
	read_ahead = true;
	ret = compare_syntheses(true, false, false, 3);
	if (ret == TEST_OK)
		ret = compare_syntheses(true, true, false, 8);
	symbol_conf.buildid_mmap2 = true;
	if (ret == TEST_OK)
		ret = compare_syntheses(true, false, false, 3);
	if (ret == TEST_OK)
		ret = __compare_syntheses(true, false, false, 3,
					  TASK_DIAG_SHOW_VMA_LEADERS |
					  TASK_DIAG_SHOW_VMA_BUILD_ID);
	symbol_conf.buildid_mmap2 = false;
	if (ret == TEST_OK)
		ret = read_ahead_from_tasks();
	read_ahead = false;
	perf_synthesize_taskdiag_buf = saved_buf;
	return ret;
}

/* @value of @var: perf_synthesize_config() returns @err and leaves @got @want */
static int config_check(const char *var, const char *value, int err,
			const unsigned long *got, unsigned long want)
{
	int ret = perf_synthesize_config(var, value);

	if (ret == err && *got == want)
		return TEST_OK;
	pr_debug("%s = %s: %d and %lu, expected %d and %lu\n", var, value, ret,
		 *got, err, want);
	return TEST_FAIL;
}

/*
 * The numbers of synthesize.*: a value that is not one (a word, a sign, too
 * small a buffer) is refused with -EINVAL and leaves the setting as it was
 */
static int test__task_diag_config_numbers(struct test_suite *test __maybe_unused,
					  int subtest __maybe_unused)
{
	static const char * const bad_tasks[] = { "many", "-5", "" };
	static const char * const bad_buf[] = { "big", "-262144", "4095" };
	const char *tasks = "synthesize.task-diag-read-ahead-tasks";
	const char *buf = "synthesize.task-diag-buffer";
	unsigned long saved_tasks = perf_synthesize_taskdiag_read_ahead_tasks;
	unsigned long saved_buf = perf_synthesize_taskdiag_buf;
	int ret = TEST_OK;
	size_t i;

	perf_synthesize_taskdiag_read_ahead_tasks = 2000;
	perf_synthesize_taskdiag_buf = 262144;
	for (i = 0; i < ARRAY_SIZE(bad_tasks) && ret == TEST_OK; i++)
		ret = config_check(tasks, bad_tasks[i], -EINVAL,
				   &perf_synthesize_taskdiag_read_ahead_tasks, 2000);
	for (i = 0; i < ARRAY_SIZE(bad_buf) && ret == TEST_OK; i++)
		ret = config_check(buf, bad_buf[i], -EINVAL,
				   &perf_synthesize_taskdiag_buf, 262144);
	if (ret == TEST_OK)
		ret = config_check(tasks, "0", 0,
				   &perf_synthesize_taskdiag_read_ahead_tasks, 0);
	if (ret == TEST_OK)
		ret = config_check(tasks, "5000", 0,
				   &perf_synthesize_taskdiag_read_ahead_tasks, 5000);
	if (ret == TEST_OK)
		ret = config_check(buf, "4096", 0, &perf_synthesize_taskdiag_buf, 4096);
	perf_synthesize_taskdiag_read_ahead_tasks = saved_tasks;
	perf_synthesize_taskdiag_buf = saved_buf;
	return ret;
}

static int test__task_diag_read_ahead_errors(struct test_suite *test __maybe_unused,
					     int subtest __maybe_unused)
{
	int ret;

	read_ahead = true;
	ret = resume_after_faults(TD_FAULT_EIO);
	if (ret == TEST_OK)
		ret = resume_after_faults(TD_FAULT_EINTR);
	read_ahead = false;
	return ret;
}

static int test__task_diag_read_errors(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	return resume_after_faults(TD_FAULT_EIO);
}

static int test__task_diag_corrupt(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	return resume_after_faults(TD_FAULT_CORRUPT);
}

static int test__task_diag_eintr(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	return resume_after_faults(TD_FAULT_EINTR);
}

/* In a mount namespace whose /proc shows no /proc/task-diag */
static int __noreturn fallback_child(void)
{
	struct td_capture with, without;
	struct td_tasks t = {};
	struct machine *machine;
	int ret = TEST_FAIL, err;

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
	/* task_diag wanted but not there: the /proc walk must take over */
	machine = td_machine__new();
	if (!machine)
		goto out_free;
	taskdiag__want(true);
	err = perf_event__synthesize_threads(&with.tool, capture_event, machine,
					     true, false, 1);
	machine__delete(machine);
	if (err)
		goto out_free;
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
			 task_diag_same_events, "no /proc/task-diag"),
	TEST_CASE_REASON("same data mmaps (record -d)",
			 task_diag_data_mmaps, "no /proc/task-diag"),
	TEST_CASE_REASON("no MMAP2 when mmaps are not needed (--synth=task)",
			 task_diag_no_mmaps, "no /proc/task-diag"),
	TEST_CASE_REASON("same NAMESPACES events (--namespaces)",
			 task_diag_namespaces, "no /proc/task-diag"),
	TEST_CASE_REASON("same MMAP2 build-ids (--buildid-mmap)",
			 task_diag_buildid_mmap, "no /proc/task-diag"),
	TEST_CASE_REASON("build-id of a mapped file deleted since: the file mapped's",
			 task_diag_buildid_of_mapped_file, "no /proc/task-diag, or perf has no build-id"),
	TEST_CASE_REASON("older kernels: one or two transactions, same events",
			 task_diag_older_kernel, "no /proc/task-diag"),
	TEST_CASE_REASON("thread map targets (record -p) synthesize the same events",
			 task_diag_thread_map, "no /proc/task-diag"),
	TEST_CASE_REASON("a thread that is not the leader (record -t) the same way",
			 task_diag_thread_map_tid, "no /proc/task-diag"),
	TEST_CASE_REASON("thread map: a failed read of the leader's maps: /proc sends them",
			 task_diag_thread_map_maps_fail, "no /proc/task-diag"),
	TEST_CASE_REASON("thread map: events that failed to send are not sent again",
			 task_diag_thread_map_send_fails, "no /proc/task-diag"),
	TEST_CASE_REASON("a failed read: /proc completes the synthesis",
			 task_diag_read_errors, "no /proc/task-diag"),
	TEST_CASE_REASON("a corrupted response: /proc completes the synthesis",
			 task_diag_corrupt, "no /proc/task-diag"),
	TEST_CASE_REASON("an interrupted read is retried: nothing lost or sent twice",
			 task_diag_eintr, "no /proc/task-diag"),
	TEST_CASE_REASON("threads and maps read ahead side by side: the same events",
			 task_diag_read_ahead, "no /proc/task-diag"),
	TEST_CASE_REASON("read ahead: failed and interrupted reads as on one thread",
			 task_diag_read_ahead_errors, "no /proc/task-diag"),
	TEST_CASE("synthesize.* numbers: bad values refused, the setting kept",
		  task_diag_config_numbers),
	TEST_CASE_REASON("falls back to /proc without /proc/task-diag",
			 task_diag_fallback, "no /proc/task-diag, or no mount namespace"),
	TEST_CASE_REASON("PROCMAP_QUERY and /proc synthesize the same MMAP2 events",
			 procmap_query_same_events, "no PROCMAP_QUERY (Linux < 6.11)"),
	TEST_CASE_REASON("PROCMAP_QUERY: same data mmaps (record -d)",
			 procmap_query_data_mmaps, "no PROCMAP_QUERY (Linux < 6.11)"),
	TEST_CASE_REASON("PROCMAP_QUERY: same MMAP2 build-ids (--buildid-mmap)",
			 procmap_query_buildid_mmap, "no PROCMAP_QUERY (Linux < 6.11)"),
	TEST_CASE_REASON("BPF task and task_vma iterators and /proc: the same events",
			 bpf_iter_same_events, "no BPF skeletons, BTF or root (-v says why)"),
	TEST_CASE_REASON("BPF iterators: same data mmaps (record -d)",
			 bpf_iter_data_mmaps, "no BPF skeletons, BTF or root (-v says why)"),
	TEST_CASE_REASON("BPF iterators: no MMAP2 when mmaps are not needed",
			 bpf_iter_no_mmaps, "no BPF skeletons, BTF or root (-v says why)"),
	TEST_CASE_REASON("BPF iterators: same NAMESPACES events (--namespaces)",
			 bpf_iter_namespaces, "no BPF skeletons, BTF or root (-v says why)"),
	TEST_CASE_REASON("BPF iterators: same MMAP2 build-ids (--buildid-mmap)",
			 bpf_iter_buildid_mmap, "no BPF skeletons, BTF or root (-v says why)"),
	TEST_CASE_REASON("BPF iterators: an unprivileged perf synthesizes from /proc",
			 bpf_iter_unprivileged, "no BPF skeletons, BTF or root (-v says why)"),
	{ .name = NULL, }
};
#else /* !HAVE_TASKDIAG_SUPPORT */
static int test__task_diag_not_built(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	pr_debug("perf was built with NO_TASKDIAG=1\n");
	return TEST_SKIP;
}

static struct test_case tests__task_diag[] = {
	TEST_CASE_REASON("task_diag synthesis", task_diag_not_built,
			 "perf built with NO_TASKDIAG=1"),
	{ .name = NULL, }
};
#endif

struct test_suite suite__task_diag = {
	.desc = "task-diag",
	.test_cases = tests__task_diag,
};
