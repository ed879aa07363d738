// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks synthesized from /proc/task-diag when an event first names them.
 *
 * A tool that only shows the tasks its events name (perf top -a, perf
 * trace -a) need not synthesize every task before it starts: before an
 * event is processed, each task it names that the machine does not know
 * yet is asked of task_diag, one TASK_DIAG_DUMP_ONE request, and its COMM
 * (and NAMESPACES) events are sent, with the MMAP2 events of a thread group
 * leader when the tool needs them, as the thread map synthesis sends them;
 * the leader of an unknown thread goes first when unknown too.  A FORK
 * names the parent, so that a child born after the start clones the maps
 * of a parent that existed before.  A task that is gone cannot be asked
 * for; it is then known as unknown tasks always were.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/zalloc.h>

#include "debug.h"
#include "event.h"
#include "machine.h"
#include "sample.h"
#include "target.h"
#include "synthetic-source.h"
#include "synthetic-taskdiag.h"
#include "synthetic-taskdiag-seen.h"
#include "thread.h"

struct perf_seen_tasks {
	struct taskdiag		*td;
	const struct perf_tool	*tool;
	perf_event__handler_t	process;
	bool			needs_mmap;	/* of the leaders */
	struct perf_synth_events ev;	/* allocated when first needed */
	unsigned long		nr_tasks;	/* synthesized */
	unsigned long		nr_gone;	/* asked for, but gone */
};

/**
 * perf_seen_tasks__new - synthesize the tasks of @machine as they are seen
 * @tool: the tool the events go to
 * @process: how it gets them
 * @machine: the machine, which must be the host
 * @target: what the tool follows: system wide (CPUs) and no task given
 * @needs_mmap: send the MMAP2 events of each thread group leader
 *
 * Return: the state of perf_seen_tasks__event(); NULL when @target names
 * tasks, or task_diag is switched off, cannot serve @machine or cannot be
 * opened: the tool then synthesizes every task at its start.
 */
struct perf_seen_tasks *perf_seen_tasks__new(const struct perf_tool *tool,
					     perf_event__handler_t process,
					     struct machine *machine,
					     struct target *target,
					     bool needs_mmap)
{
	struct perf_seen_tasks *st;
	struct taskdiag *td;

	if (!target__has_cpu(target) || target__has_task(target))
		return NULL;
	td = perf_taskdiag__open(machine, NULL);
	if (!td)
		return NULL;
	st = zalloc(sizeof(*st));
	if (!st) {
		perf_taskdiag__session_end(td);
		return NULL;
	}
	st->td = td;
	st->tool = tool;
	st->process = process;
	st->needs_mmap = needs_mmap;
	pr_debug("synthesizing the tasks from /proc/task-diag as they are seen\n");
	return st;
}

/**
 * perf_seen_tasks__delete - close what perf_seen_tasks__new() opened
 * @st: the state, or NULL
 */
void perf_seen_tasks__delete(struct perf_seen_tasks *st)
{
	if (!st)
		return;
	pr_debug("synthesized %lu tasks seen from /proc/task-diag, %lu were gone\n",
		 st->nr_tasks, st->nr_gone);
	perf_taskdiag__session_end(st->td);
	perf_synth_events__exit(&st->ev);
	free(st);
}

/* The task an event names first: its own, or a FORK's parent; false if none */
static bool seen_task(const union perf_event *event,
		      const struct perf_sample *sample, pid_t *pid, pid_t *tid)
{
	switch (event->header.type) {
	case PERF_RECORD_SAMPLE:
		*pid = sample->pid;
		*tid = sample->tid;
		break;
	case PERF_RECORD_FORK:
		*pid = event->fork.ppid;
		*tid = event->fork.ptid;
		break;
	case PERF_RECORD_COMM:
		*pid = event->comm.pid;
		*tid = event->comm.tid;
		break;
	case PERF_RECORD_MMAP:
		*pid = event->mmap.pid;
		*tid = event->mmap.tid;
		break;
	case PERF_RECORD_MMAP2:
		*pid = event->mmap2.pid;
		*tid = event->mmap2.tid;
		break;
	case PERF_RECORD_NAMESPACES:
		*pid = event->namespaces.pid;
		*tid = event->namespaces.tid;
		break;
	default:
		return false;
	}
	/* -1: none; 0: the idle task, which the tools register themselves */
	return *pid > 0 && *tid > 0;
}

static bool seen_task_known(struct machine *machine, pid_t pid, pid_t tid)
{
	struct thread *thread = machine__find_thread(machine, pid, tid);
	bool known = thread != NULL;

	thread__put(thread);
	return known;
}

/* The events of @tid, and its process's maps if @tid leads it and they are needed */
static void seen_task_synthesize(struct perf_seen_tasks *st,
				 struct machine *machine, pid_t tid)
{
	int ret;

	ret = perf_event__synthesize_task_taskdiag(st->td, st->tool,
						   st->ev.comm_event,
						   st->ev.mmap_event,
						   st->ev.ns_event, tid,
						   st->process, machine,
						   st->needs_mmap, false);
	if (ret >= 0)
		st->nr_tasks++;
	else if (ret == -ESRCH)
		st->nr_gone++;
	else
		pr_debug("task_diag: task %d not synthesized: %s\n", tid,
			 strerror(-ret));
}

/**
 * perf_seen_tasks__event - synthesize the tasks @event names first
 * @st: the state of perf_seen_tasks__new()
 * @machine: the machine @event is for
 * @event: the event, before it is processed
 * @sample: its sample
 *
 * The thread group leader of an unknown task goes first when unknown too,
 * so that the task shares the maps of its process.
 */
void perf_seen_tasks__event(struct perf_seen_tasks *st, struct machine *machine,
			    const union perf_event *event,
			    const struct perf_sample *sample)
{
	pid_t pid, tid;

	if (!seen_task(event, sample, &pid, &tid) ||
	    seen_task_known(machine, pid, tid))
		return;
	if (!st->ev.comm_event && perf_synth_events__init(&st->ev, machine)) {
		perf_synth_events__exit(&st->ev);
		return;
	}
	if (tid != pid && !seen_task_known(machine, pid, pid))
		seen_task_synthesize(st, machine, pid);
	seen_task_synthesize(st, machine, tid);
}
