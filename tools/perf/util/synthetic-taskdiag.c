// SPDX-License-Identifier: GPL-2.0
/*
 * Synthesize the FORK, NAMESPACES, COMM and MMAP2 events of existing tasks
 * from /proc/task-diag through libtaskdiag, instead of reading three or
 * more /proc files per task.
 *
 * With threads reading ahead (more than one CPU, enough tasks), two
 * transactions are read side by side, both in tgid order, each on a thread
 * of its own so that the kernel dumps them on two CPUs at once: every
 * thread with TASK_DIAG_SHOW_BASE, and every process with
 * TASK_DIAG_SHOW_VMA, with the build ID of each mapped file for build-id
 * MMAP2 events.  Otherwise one transaction describes every thread and, in
 * the message of its thread group leader only (TASK_DIAG_SHOW_VMA_LEADERS),
 * the maps of its process; a kernel without that flag gets the two
 * transactions.  The events are those of the /proc walk in
 * synthetic-events.c, in the same order: FORK, NAMESPACES and COMM of each
 * thread, and the MMAP2 events of a process after the COMM of its thread
 * group leader.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <api/fs/fs.h>
#include <linux/string.h>
#include <taskdiag/taskdiag.h>

#include "build-id.h"
#include "debug.h"
#include "event.h"
#include "machine.h"
#include "symbol_conf.h"
#include "synthetic-events.h"
#include "synthetic-source.h"
#include "synthetic-taskdiag.h"
#include "tool.h"

struct td_synth {
	const struct perf_tool	*tool;
	perf_event__handler_t	process;
	struct machine		*machine;
	bool			needs_mmap;
	bool			mmap_data;
	bool			read_ahead;	/* a thread reads each session */
	bool			one_txn;	/* the leaders carry the maps */
	bool			build_ids;	/* the kernel reads them */
	struct perf_synth_events ev;
	struct taskdiag		*maps;		/* ALL: processes and their VMAs */
	struct taskdiag_task	*proc;		/* current process of @maps */
	int			maps_state;	/* 1: @proc valid, 0: end, -errno */
	pid_t			cur_tgid;	/* whose events are being sent */
	unsigned long		nr_threads;
};

/*
 * A session on /proc/task-diag, or on the transport @new_source gives; with
 * @read_ahead a thread of libtaskdiag reads the answer ahead
 */
static struct taskdiag *td_synth__open(perf_taskdiag_source_fn new_source,
				       bool read_ahead)
{
	struct taskdiag_opts opts = {
		.sz		= sizeof(opts),
		.backend	= TASKDIAG_BACKEND_KERNEL,
		.buf_size	= perf_synthesize_taskdiag_buf,
		.read_ahead	= read_ahead,
	};

	if (new_source)
		opts.source = new_source();
	return taskdiag__new(&opts);
}

static void td_synth__exit(struct td_synth *s)
{
	taskdiag__delete(s->maps);
	perf_synth_events__exit(&s->ev);
}

/* The process @tgid in the maps transaction, or NULL if it has none there */
static struct taskdiag_task *td_synth__proc(struct td_synth *s, u32 tgid)
{
	while (s->maps_state > 0 && taskdiag_task__tgid(s->proc) < tgid)
		s->maps_state = taskdiag__next(s->maps, &s->proc);
	if (s->maps_state > 0 && taskdiag_task__tgid(s->proc) == tgid)
		return s->proc;
	return NULL;
}

static u32 td_synth__prot(__u64 vm_flags)
{
	return (vm_flags & TASK_DIAG_VMA_F_READ ? PROT_READ : 0) |
	       (vm_flags & TASK_DIAG_VMA_F_WRITE ? PROT_WRITE : 0) |
	       (vm_flags & TASK_DIAG_VMA_F_EXEC ? PROT_EXEC : 0);
}

/*
 * The VMA flags of a request: without -d only executable mappings make
 * MMAP2 events; build-id MMAP2 events take the build IDs from the kernel.
 */
static __u64 td_synth__vma_show(bool mmap_data)
{
	return TASK_DIAG_SHOW_VMA |
	       (mmap_data ? 0 : TASK_DIAG_SHOW_VMA_EXEC) |
	       (symbol_conf.buildid_mmap2 ? TASK_DIAG_SHOW_VMA_BUILD_ID : 0);
}

/* taskdiag__request() of @strategy for @pid with the groups @show */
static int td_synth__ask(struct taskdiag *td, __u64 strategy, pid_t pid,
			 __u64 show)
{
	struct taskdiag_request_opts req = {
		.sz		= sizeof(req),
		.strategy	= strategy,
		.show_flags	= show,
		.pid		= pid,
	};

	return taskdiag__request(td, &req);
}

/*
 * td_synth__ask(), and again without the build IDs on a kernel that
 * refuses them (EINVAL) but may know the rest; notes whether the kernel
 * reads the build IDs of the answer
 */
static int td_synth__request(struct td_synth *s, struct taskdiag *td,
			     __u64 strategy, pid_t pid, __u64 show)
{
	int err = td_synth__ask(td, strategy, pid, show);

	if (err == -EINVAL && (show & TASK_DIAG_SHOW_VMA_BUILD_ID)) {
		show &= ~TASK_DIAG_SHOW_VMA_BUILD_ID;
		err = td_synth__ask(td, strategy, pid, show);
	}
	s->build_ids = !err && (show & TASK_DIAG_SHOW_VMA_BUILD_ID);
	return err;
}

/*
 * The build ID of @v for its MMAP2 event: the one the kernel read; none
 * for a mapping of no file ([vdso], anonymous code), which has none to
 * read; else NULL, to let perf read it from the file the path names.
 */
static const struct build_id *td_synth__build_id(const struct td_synth *s,
						 const struct taskdiag_vma *v,
						 struct build_id *bid)
{
	if (v->build_id) {
		build_id__init(bid, v->build_id, v->build_id_len);
		return bid;
	}
	if (s->build_ids && !v->inode && !v->major && !v->minor) {
		memset(bid, 0, sizeof(*bid));
		return bid;
	}
	return NULL;
}

static int td_synth__mmaps(struct td_synth *s, struct taskdiag_task *proc,
			   pid_t pid, pid_t tgid)
{
	struct perf_record_mmap2 *ev = &s->ev.mmap_event->mmap2;
	const struct taskdiag_vma *v;
	struct build_id bid;
	size_t i;

	taskdiag_task__for_each_vma(proc, i, v) {
		ev->start = v->start;
		ev->len = v->end;		/* made a length by the entry */
		ev->pgoff = v->pgoff;
		ev->maj = v->major;
		ev->min = v->minor;
		ev->ino = v->inode;
		ev->prot = td_synth__prot(v->vm_flags);
		ev->flags = v->vm_flags & TASK_DIAG_VMA_F_MAYSHARE ?
			    MAP_SHARED : MAP_PRIVATE;
		strlcpy(ev->filename, v->name ?: "", sizeof(ev->filename));
		if (perf_event__synthesize_mmap2_entry(s->tool, s->ev.mmap_event,
						       pid, tgid, s->process,
						       s->machine, s->mmap_data,
						       false,
						       td_synth__build_id(s, v, &bid)))
			return -1;
	}
	return 0;
}

/*
 * The events of one thread, as __event__synthesize_thread() sends them;
 * like there, a thread whose events could not be processed does not stop
 * the others.
 */
static int td_synth__thread(struct td_synth *s, struct taskdiag_task *t)
{
	const struct task_diag_base *b = taskdiag_task__base(t, NULL);
	struct taskdiag_task *proc;

	if (!b)
		return 0;			/* exited while it was described */
	s->nr_threads++;
	s->cur_tgid = b->tgid;

	if (perf_synth_events__thread(&s->ev, s->tool, s->process, s->machine,
				      b->comm, b->tgid, b->pid, b->ppid))
		return 0;

	if (b->pid != b->tgid || !s->needs_mmap)
		return 0;
	proc = s->one_txn ? t : td_synth__proc(s, b->tgid);
	if (!proc)
		return s->maps_state < 0 ? s->maps_state : 0;
	td_synth__mmaps(s, proc, b->pid, b->tgid);
	return 0;
}

/*
 * The requests of a synthesis without maps, with read-ahead, or on a
 * kernel without TASK_DIAG_SHOW_VMA_LEADERS: every thread on @threads, and
 * on a second session, read ahead as @threads is, the VMAs of every
 * process (each message says whose they are).  The build IDs are asked
 * for unless the kernel refused the one transaction: without
 * TASK_DIAG_SHOW_VMA_LEADERS it has no build IDs either.
 */
static int td_synth__two_txns(struct td_synth *s, struct taskdiag *threads,
			      perf_taskdiag_source_fn new_source)
{
	__u64 show = td_synth__vma_show(s->mmap_data);
	int err;

	err = td_synth__ask(threads, TASK_DIAG_DUMP_ALL_THREAD, 0,
			    TASK_DIAG_SHOW_BASE);
	if (err || !s->needs_mmap)
		return err;

	s->maps = td_synth__open(new_source, s->read_ahead);
	if (!s->maps)
		return -errno;
	if (!s->read_ahead)
		show &= ~TASK_DIAG_SHOW_VMA_BUILD_ID;
	err = td_synth__request(s, s->maps, TASK_DIAG_DUMP_ALL, 0, show);
	if (err)
		return err;
	s->maps_state = taskdiag__next(s->maps, &s->proc);
	return 0;
}

static int td_synth__all(struct td_synth *s, struct taskdiag *threads,
			 perf_taskdiag_source_fn new_source)
{
	struct taskdiag_task *t;
	int err;

	if (s->needs_mmap && !s->read_ahead) {
		/* EINVAL: a kernel without TASK_DIAG_SHOW_VMA_LEADERS */
		err = td_synth__request(s, threads, TASK_DIAG_DUMP_ALL_THREAD, 0,
					TASK_DIAG_SHOW_BASE |
					TASK_DIAG_SHOW_VMA_LEADERS |
					td_synth__vma_show(s->mmap_data));
		s->one_txn = !err;
		if (err && err != -EINVAL)
			return err;
	}
	if (!s->one_txn) {
		err = td_synth__two_txns(s, threads, new_source);
		if (err)
			return err;
	}

	while ((err = taskdiag__next(threads, &t)) > 0) {
		err = td_synth__thread(s, t);
		if (err)
			return err;
	}
	return err;
}

/*
 * The number of tasks on the system, all pid namespaces': the last field of
 * /proc/loadavg ("runnable/all last_pid"); ULONG_MAX when it cannot be read
 */
static unsigned long td_synth__nr_tasks(void)
{
	unsigned long nr = ULONG_MAX;
	char *buf, *all;
	size_t len;

	if (procfs__read_str("loadavg", &buf, &len))
		return nr;
	all = strchr(buf, '/');
	if (all)
		nr = strtoul(all + 1, NULL, 10);
	free(buf);
	return nr;
}

/* Whether this thread may run on more than one CPU */
static bool td_synth__cpus(void)
{
	cpu_set_t cpus;

	if (sched_getaffinity(0, sizeof(cpus), &cpus))
		return sysconf(_SC_NPROCESSORS_ONLN) > 1;
	return CPU_COUNT(&cpus) > 1;
}

/**
 * perf_taskdiag__read_ahead - whether threads read the answers ahead
 *
 * They do with synthesize.task-diag-read-ahead, more than one CPU to run
 * on and at least synthesize.task-diag-read-ahead-tasks tasks on the
 * system: with fewer, starting and joining the threads costs more than
 * reading on two CPUs gains.
 *
 * Return: true when a synthesis now would read ahead.
 */
bool perf_taskdiag__read_ahead(void)
{
	return perf_synthesize_taskdiag_read_ahead && td_synth__cpus() &&
	       (!perf_synthesize_taskdiag_read_ahead_tasks ||
		td_synth__nr_tasks() >= perf_synthesize_taskdiag_read_ahead_tasks);
}

/* Whether the tasks of @machine are those of this host's /proc/task-diag */
static bool td_synth__usable(struct machine *machine)
{
	return perf_synthesize_taskdiag && machine__is_host(machine) &&
	       (!machine->root_dir || !machine->root_dir[0]);
}

/**
 * perf_taskdiag__available - whether the host's tasks are to be synthesized
 *	from task_diag
 *
 * Return: true when synthesize.task-diag is on and the kernel has
 * /proc/task-diag; the synthesis may still fall back to /proc.
 */
bool perf_taskdiag__available(void)
{
	return perf_synthesize_taskdiag && !access("/proc/task-diag", F_OK);
}

/**
 * perf_event__synthesize_threads_taskdiag - synthesize all tasks' events
 * @tool: the tool the events are for
 * @process: called with every event
 * @machine: the machine, which must be the host
 * @needs_mmap: send the MMAP2 events of every process
 * @mmap_data: send those of data mappings too
 * @new_source: NULL to read /proc/task-diag, else what gives each
 *	transaction its transport
 * @resume_tgid: on an error, where the /proc walk has to go on: 0 when no
 *	event was sent, else the process whose events were being sent, which
 *	may thus get some of them twice; the processes before it are complete
 *
 * The events are sent from the calling thread, in the order of the /proc
 * walk; when perf_taskdiag__read_ahead() says so, two more threads read
 * the kernel's answers ahead, the threads on one and the maps on the
 * other, while this one sends the events of what they read before.
 *
 * Return: 0, -EOPNOTSUPP when task_diag is switched off or cannot serve
 * @machine, or the -errno of libtaskdiag (-ENOENT: no /proc/task-diag).
 */
int perf_event__synthesize_threads_taskdiag(const struct perf_tool *tool,
					    perf_event__handler_t process,
					    struct machine *machine,
					    bool needs_mmap, bool mmap_data,
					    perf_taskdiag_source_fn new_source,
					    pid_t *resume_tgid)
{
	struct td_synth s = {
		.tool = tool, .process = process, .machine = machine,
		.needs_mmap = needs_mmap, .mmap_data = mmap_data,
	};
	struct taskdiag *threads;
	char msg[128];
	int err;

	if (!td_synth__usable(machine))
		return -EOPNOTSUPP;

	s.read_ahead = perf_taskdiag__read_ahead();
	threads = td_synth__open(new_source, s.read_ahead);
	if (!threads)
		return -errno;

	err = perf_synth_events__init(&s.ev, machine);
	if (!err)
		err = td_synth__all(&s, threads, new_source);
	taskdiag__strerror(err, msg, sizeof(msg));
	if (!err)
		pr_debug("synthesized %lu threads from /proc/task-diag\n", s.nr_threads);
	else if (err == -ENOENT)
		pr_debug("no /proc/task-diag, synthesizing from /proc\n");
	else
		pr_warning("task_diag synthesis failed after %lu threads (%s%s%s), synthesizing from /proc from pid %d on\n",
			   s.nr_threads, msg, *taskdiag__errmsg(threads) ? ": " : "",
			   taskdiag__errmsg(threads), s.cur_tgid);
	*resume_tgid = s.cur_tgid;

	taskdiag__delete(threads);
	td_synth__exit(&s);
	return err;
}

/**
 * perf_taskdiag__open - a task_diag session for the tasks of @machine
 * @machine: the machine whose tasks are synthesized
 * @new_source: NULL to read /proc/task-diag, else what gives the transport
 *
 * Says (debug) why it could not be opened, unless the kernel has no
 * /proc/task-diag.
 *
 * Return: the session, without read-ahead; NULL when task_diag is
 * switched off, cannot serve @machine or cannot be opened.
 */
struct taskdiag *perf_taskdiag__open(struct machine *machine,
				     perf_taskdiag_source_fn new_source)
{
	struct taskdiag *td;

	if (!td_synth__usable(machine))
		return NULL;
	td = td_synth__open(new_source, false);
	if (!td && errno != ENOENT)
		pr_debug("task_diag: %s, synthesizing from /proc\n", strerror(errno));
	return td;
}

/**
 * perf_taskdiag__session - the task_diag session of a thread map synthesis
 * @machine: the machine whose tasks are synthesized
 * @new_source: NULL to read /proc/task-diag, else what gives the transport
 *
 * Return: a session that perf_event__synthesize_task_taskdiag() uses for
 * every task of the map, one file and one buffer; NULL when task_diag is
 * switched off, cannot serve @machine or cannot be opened, so that /proc
 * serves.
 */
struct taskdiag *perf_taskdiag__session(struct machine *machine,
					perf_taskdiag_source_fn new_source)
{
	struct taskdiag *td = perf_taskdiag__open(machine, new_source);

	if (td)
		pr_debug("synthesizing the thread map from /proc/task-diag\n");
	return td;
}

/**
 * perf_taskdiag__session_end - close what perf_taskdiag__session() opened
 * @td: the session, or NULL
 */
void perf_taskdiag__session_end(struct taskdiag *td)
{
	taskdiag__delete(td);
}

/* The one task of a TASK_DIAG_DUMP_ONE request of @pid, or NULL and @err */
static struct taskdiag_task *td_synth__one(struct td_synth *s,
					   struct taskdiag *td, pid_t pid,
					   __u64 show, int *err)
{
	struct taskdiag_task *t = NULL;

	*err = td_synth__request(s, td, TASK_DIAG_DUMP_ONE, pid, show);
	if (!*err)
		*err = taskdiag__next(td, &t);
	if (*err > 0)
		*err = 0;
	else if (!*err)
		*err = -ESRCH;
	return *err ? NULL : t;
}

/*
 * Read the answer of @td to its end once its task was used, so that the
 * next request goes on the same file (the kernel refuses a request while
 * an answer is unread, and the library then opens the file again)
 */
static void td_synth__end(struct taskdiag *td)
{
	struct taskdiag_task *t;

	while (taskdiag__next(td, &t) > 0)
		;
}

/*
 * The MMAP2 events of the thread group leader @pid, from a request of its
 * VMAs, or from /proc if that request failed: none was sent.  A leader
 * that exited since the request of its base has none (the /proc path
 * would fail the thread map there).
 */
static int td_synth__leader_mmaps(struct td_synth *s, struct taskdiag *td,
				  pid_t pid)
{
	struct taskdiag_task *t;
	int err;

	t = td_synth__one(s, td, pid, td_synth__vma_show(s->mmap_data), &err);
	if (t) {
		err = td_synth__mmaps(s, t, pid, pid);
		td_synth__end(td);
		return err;
	}
	if (err == -ESRCH)
		return 0;
	return perf_event__synthesize_mmap_events(s->tool, s->ev.mmap_event, pid,
						  pid, s->process, s->machine,
						  s->mmap_data);
}

/**
 * perf_event__synthesize_task_taskdiag - synthesize the events of one task
 * @td: the session of perf_taskdiag__session()
 * @tool: the tool the events are for
 * @comm_event: room for a COMM event, left filled in as the /proc path does
 * @mmap_event: room for an MMAP2 event
 * @ns_event: room for a NAMESPACES event
 * @pid: the task
 * @process: called with every event
 * @machine: the machine, which must be the host
 * @needs_mmap: send the MMAP2 events of @pid if it leads its process
 * @mmap_data: send those of data mappings too
 *
 * The thread map path (perf record -p/-t/-u): COMM and NAMESPACES of @pid
 * from a TASK_DIAG_DUMP_ONE request of its base, and the MMAP2 events of a
 * thread group leader from a second one of its VMAs (from /proc if that
 * one fails); the maps of the other threads, which perf does not use, are
 * not asked for.
 *
 * Return: the tgid of @pid; -errno of libtaskdiag when no event was sent,
 * so that the /proc path may take over; -ECANCELED when sending an event
 * failed, which the /proc path may not repeat.
 */
int perf_event__synthesize_task_taskdiag(struct taskdiag *td,
					 const struct perf_tool *tool,
					 union perf_event *comm_event,
					 union perf_event *mmap_event,
					 union perf_event *ns_event, pid_t pid,
					 perf_event__handler_t process,
					 struct machine *machine,
					 bool needs_mmap, bool mmap_data)
{
	struct td_synth s = {
		.tool = tool, .process = process, .machine = machine,
		.mmap_data = mmap_data,
		.ev = { .comm_event = comm_event, .mmap_event = mmap_event },
	};
	const struct task_diag_base *b;
	struct taskdiag_task *t;
	pid_t tgid;
	int err;

	t = td_synth__one(&s, td, pid, TASK_DIAG_SHOW_BASE, &err);
	b = t ? taskdiag_task__base(t, NULL) : NULL;
	if (!b) {
		if (t)
			td_synth__end(td);
		return err ?: -ESRCH;
	}
	tgid = b->tgid;
	err = perf_synth_events__comm(&s.ev, tool, process, machine, b->comm,
				      tgid, b->pid) ||
	      perf_event__synthesize_namespaces(tool, ns_event, pid, tgid,
						process, machine) < 0;
	td_synth__end(td);
	if (err)
		return -ECANCELED;
	if (pid == tgid && needs_mmap && td_synth__leader_mmaps(&s, td, pid))
		return -ECANCELED;
	return tgid;
}
