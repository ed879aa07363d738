// SPDX-License-Identifier: GPL-2.0
/*
 * What the sources of the existing tasks' events other than the /proc walk
 * (synthetic-taskdiag.c, synthetic-bpf-iter.c) share.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include "event.h"
#include "machine.h"
#include "synthetic-events.h"
#include "synthetic-source.h"

/**
 * perf_synth_events__init - room for the events a source sends
 * @ev: where to keep them
 * @machine: the machine whose sample id they carry
 *
 * Return: 0, or -ENOMEM with @ev to be freed by perf_synth_events__exit().
 */
int perf_synth_events__init(struct perf_synth_events *ev, struct machine *machine)
{
	size_t id = machine->id_hdr_size;

	ev->comm_event = malloc(sizeof(ev->comm_event->comm) + id);
	ev->mmap_event = malloc(sizeof(ev->mmap_event->mmap2) + id);
	ev->fork_event = malloc(sizeof(ev->fork_event->fork) + id);
	ev->ns_event = malloc(sizeof(ev->ns_event->namespaces) +
			      NR_NAMESPACES * sizeof(struct perf_ns_link_info) + id);
	if (!ev->comm_event || !ev->mmap_event || !ev->fork_event || !ev->ns_event)
		return -ENOMEM;
	return 0;
}

/**
 * perf_synth_events__exit - free what perf_synth_events__init() allocated
 * @ev: the events
 */
void perf_synth_events__exit(struct perf_synth_events *ev)
{
	zfree(&ev->comm_event);
	zfree(&ev->mmap_event);
	zfree(&ev->fork_event);
	zfree(&ev->ns_event);
}

/**
 * perf_synth_events__comm - send the COMM event of a thread
 * @ev: the events' room
 * @tool: the tool the event goes to
 * @process: how it gets it
 * @machine: the machine of the thread
 * @comm: the thread's name, cut to what the event holds
 * @tgid: the thread's process
 * @tid: the thread
 *
 * Return: what @process returned.
 */
int perf_synth_events__comm(struct perf_synth_events *ev, const struct perf_tool *tool,
			    perf_event__handler_t process, struct machine *machine,
			    const char *comm, pid_t tgid, pid_t tid)
{
	union perf_event *event = ev->comm_event;

	memset(&event->comm, 0, sizeof(event->comm));
	strlcpy(event->comm.comm, comm, sizeof(event->comm.comm));
	perf_event__finish_comm(event, tgid, tid, machine);
	return perf_tool__process_synth_event(tool, event, machine, process);
}

/**
 * perf_synth_events__thread - send the FORK, NAMESPACES and COMM events of
 * a thread, in the order __event__synthesize_thread() sends them
 * @ev: the events' room
 * @tool: the tool the events go to
 * @process: how it gets them
 * @machine: the machine of the thread
 * @comm: the thread's name
 * @tgid: the thread's process
 * @tid: the thread
 * @ppid: the parent of its process
 *
 * Return: 0, or non-zero once an event could not be sent (the next are not).
 */
int perf_synth_events__thread(struct perf_synth_events *ev, const struct perf_tool *tool,
			      perf_event__handler_t process, struct machine *machine,
			      const char *comm, pid_t tgid, pid_t tid, pid_t ppid)
{
	if (perf_event__synthesize_fork(tool, ev->fork_event, tid, tgid, ppid,
					process, machine) < 0 ||
	    perf_event__synthesize_namespaces(tool, ev->ns_event, tid, tgid,
					      process, machine) < 0)
		return -1;
	return perf_synth_events__comm(ev, tool, process, machine, comm, tgid, tid);
}
