// SPDX-License-Identifier: GPL-2.0
/*
 * Synthesize the FORK, NAMESPACES, COMM and MMAP2 events of existing tasks
 * from /proc/task-diag through libtaskdiag, instead of reading three or
 * more /proc files per task.
 *
 * Two transactions are read side by side, both in tgid order: every thread
 * with TASK_DIAG_SHOW_BASE, and every process with TASK_DIAG_SHOW_VMA for
 * its maps, so that the maps of a process are read once, not once per
 * thread.  The events are those of the /proc walk in synthetic-events.c,
 * in the same order: FORK, NAMESPACES and COMM of each thread, and the
 * MMAP2 events of a process after the COMM of its thread group leader.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include <taskdiag/taskdiag.h>

#include "debug.h"
#include "event.h"
#include "machine.h"
#include "synthetic-events.h"
#include "synthetic-taskdiag.h"
#include "tool.h"

struct td_synth {
	const struct perf_tool	*tool;
	perf_event__handler_t	process;
	struct machine		*machine;
	bool			needs_mmap;
	bool			mmap_data;
	union perf_event	*comm_event;
	union perf_event	*mmap_event;
	union perf_event	*fork_event;
	union perf_event	*ns_event;
	struct taskdiag		*maps;		/* ALL: processes and their VMAs */
	struct taskdiag_task	*proc;		/* current process of @maps */
	int			maps_state;	/* 1: @proc valid, 0: end, -errno */
	pid_t			cur_tgid;	/* whose events are being sent */
	unsigned long		nr_threads;
};

const struct taskdiag_source *(*perf_synthesize_taskdiag_source)(void);

static struct taskdiag *td_synth__open(void)
{
	struct taskdiag_opts opts = {
		.sz		= sizeof(opts),
		.backend	= TASKDIAG_BACKEND_KERNEL,
		.buf_size	= perf_synthesize_taskdiag_buf,
	};

	if (perf_synthesize_taskdiag_source)
		opts.source = perf_synthesize_taskdiag_source();
	return taskdiag__new(&opts);
}

static int td_synth__init(struct td_synth *s, struct machine *machine)
{
	size_t id = machine->id_hdr_size;

	s->comm_event = malloc(sizeof(s->comm_event->comm) + id);
	s->mmap_event = malloc(sizeof(s->mmap_event->mmap2) + id);
	s->fork_event = malloc(sizeof(s->fork_event->fork) + id);
	s->ns_event = malloc(sizeof(s->ns_event->namespaces) +
			     NR_NAMESPACES * sizeof(struct perf_ns_link_info) + id);
	if (!s->comm_event || !s->mmap_event || !s->fork_event || !s->ns_event)
		return -ENOMEM;
	return 0;
}

static void td_synth__exit(struct td_synth *s)
{
	taskdiag__delete(s->maps);
	zfree(&s->comm_event);
	zfree(&s->mmap_event);
	zfree(&s->fork_event);
	zfree(&s->ns_event);
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

static int td_synth__mmaps(struct td_synth *s, struct taskdiag_task *proc,
			   pid_t pid, pid_t tgid)
{
	struct perf_record_mmap2 *ev = &s->mmap_event->mmap2;
	const struct taskdiag_vma *v;
	size_t i;

	taskdiag_task__for_each_vma(proc, i, v) {
		ev->start = v->vma.start;
		ev->len = v->vma.end;		/* made a length by the entry */
		ev->pgoff = v->vma.pgoff;
		ev->maj = v->vma.major;
		ev->min = v->vma.minor;
		ev->ino = v->vma.inode;
		ev->prot = td_synth__prot(v->vma.vm_flags);
		ev->flags = v->vma.vm_flags & TASK_DIAG_VMA_F_MAYSHARE ?
			    MAP_SHARED : MAP_PRIVATE;
		strlcpy(ev->filename, v->name ?: "", sizeof(ev->filename));
		if (perf_event__synthesize_mmap2_entry(s->tool, s->mmap_event,
						       pid, tgid, s->process,
						       s->machine, s->mmap_data,
						       false))
			return -1;
	}
	return 0;
}

static int td_synth__comm(struct td_synth *s, const struct task_diag_base *b)
{
	memset(&s->comm_event->comm, 0, sizeof(s->comm_event->comm));
	strlcpy(s->comm_event->comm.comm, b->comm, sizeof(s->comm_event->comm.comm));
	perf_event__finish_comm(s->comm_event, b->tgid, b->pid, s->machine);
	return perf_tool__process_synth_event(s->tool, s->comm_event,
					      s->machine, s->process);
}

/*
 * The events of one thread, as __event__synthesize_thread() sends them;
 * like there, a thread whose events could not be processed does not stop
 * the others.
 */
static int td_synth__thread(struct td_synth *s, struct taskdiag_task *t)
{
	const struct task_diag_base *b = taskdiag_task__base(t);
	struct taskdiag_task *proc;

	if (!b)
		return 0;			/* exited while it was described */
	s->nr_threads++;
	s->cur_tgid = b->tgid;

	if (perf_event__synthesize_fork(s->tool, s->fork_event, b->pid, b->tgid,
					b->ppid, s->process, s->machine) < 0 ||
	    perf_event__synthesize_namespaces(s->tool, s->ns_event, b->pid,
					      b->tgid, s->process, s->machine) < 0 ||
	    td_synth__comm(s, b))
		return 0;

	if (b->pid != b->tgid || !s->needs_mmap)
		return 0;
	proc = td_synth__proc(s, b->tgid);
	if (!proc)
		return s->maps_state < 0 ? s->maps_state : 0;
	td_synth__mmaps(s, proc, b->pid, b->tgid);
	return 0;
}

static int td_synth__all(struct td_synth *s, struct taskdiag *threads)
{
	struct taskdiag_task *t;
	int err;

	err = taskdiag__request(threads, TASK_DIAG_DUMP_ALL_THREAD, 0,
				TASK_DIAG_SHOW_BASE);
	if (err)
		return err;

	if (s->needs_mmap) {
		s->maps = td_synth__open();
		if (!s->maps)
			return -errno;
		/* without -d only executable mappings make MMAP2 events */
		err = taskdiag__request(s->maps, TASK_DIAG_DUMP_ALL, 0,
					TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA |
					(s->mmap_data ? 0 : TASK_DIAG_SHOW_VMA_EXEC));
		if (err)
			return err;
		s->maps_state = taskdiag__next(s->maps, &s->proc);
	}

	while ((err = taskdiag__next(threads, &t)) > 0) {
		err = td_synth__thread(s, t);
		if (err)
			return err;
	}
	return err;
}

/* Whether the tasks of @machine are those of this host's /proc/task-diag */
static bool td_synth__usable(struct machine *machine)
{
	return perf_synthesize_taskdiag && machine__is_host(machine) &&
	       (!machine->root_dir || !machine->root_dir[0]);
}

/**
 * perf_event__synthesize_threads_taskdiag - synthesize all tasks' events
 * @tool: the tool the events are for
 * @process: called with every event
 * @machine: the machine, which must be the host
 * @needs_mmap: send the MMAP2 events of every process
 * @mmap_data: send those of data mappings too
 * @resume_tgid: on an error, where the /proc walk has to go on: 0 when no
 *	event was sent, else the process whose events were being sent, which
 *	may thus get some of them twice; the processes before it are complete
 *
 * Return: 0, -EOPNOTSUPP when task_diag is switched off or cannot serve
 * @machine, or the -errno of libtaskdiag (-ENOENT: no /proc/task-diag).
 */
int perf_event__synthesize_threads_taskdiag(const struct perf_tool *tool,
					    perf_event__handler_t process,
					    struct machine *machine,
					    bool needs_mmap, bool mmap_data,
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

	threads = td_synth__open();
	if (!threads)
		return -errno;

	err = td_synth__init(&s, machine);
	if (!err)
		err = td_synth__all(&s, threads);
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
 * perf_event__synthesize_task_taskdiag - synthesize the events of one task
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
 * The thread map path (perf record -p/-t/-u): COMM, NAMESPACES and, for a
 * thread group leader, MMAP2, from one TASK_DIAG_DUMP_ONE request.
 *
 * Return: the tgid of @pid; -errno as perf_event__synthesize_threads_taskdiag()
 * when no event was sent, so that the /proc path may take over; -ECANCELED
 * when sending failed (@process failed), which the /proc path may not repeat.
 */
int perf_event__synthesize_task_taskdiag(const struct perf_tool *tool,
					 union perf_event *comm_event,
					 union perf_event *mmap_event,
					 union perf_event *ns_event, pid_t pid,
					 perf_event__handler_t process,
					 struct machine *machine,
					 bool needs_mmap, bool mmap_data)
{
	struct td_synth s = {
		.tool = tool, .process = process, .machine = machine,
		.mmap_data = mmap_data, .comm_event = comm_event,
		.mmap_event = mmap_event,
	};
	__u64 show = TASK_DIAG_SHOW_BASE;
	const struct task_diag_base *b;
	struct taskdiag_task *t;
	struct taskdiag *td;
	int err;

	if (!td_synth__usable(machine))
		return -EOPNOTSUPP;
	if (needs_mmap)
		show |= TASK_DIAG_SHOW_VMA | (mmap_data ? 0 : TASK_DIAG_SHOW_VMA_EXEC);

	td = td_synth__open();
	if (!td)
		return -errno;
	err = taskdiag__request(td, TASK_DIAG_DUMP_ONE, pid, show);
	if (!err)
		err = taskdiag__next(td, &t);
	b = err > 0 ? taskdiag_task__base(t) : NULL;
	if (!b) {
		err = err < 0 ? err : -ESRCH;
		goto out;
	}
	err = -ECANCELED;
	if (td_synth__comm(&s, b) ||
	    perf_event__synthesize_namespaces(tool, ns_event, b->pid, b->tgid,
					      process, machine) < 0)
		goto out;
	if (b->pid == b->tgid && needs_mmap && td_synth__mmaps(&s, t, b->pid, b->tgid))
		goto out;
	err = b->tgid;
out:
	taskdiag__delete(td);
	return err;
}
