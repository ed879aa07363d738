// SPDX-License-Identifier: GPL-2.0
/*
 * What the sources of the existing tasks' events other than the /proc walk
 * (synthetic-taskdiag.c, synthetic-bpf-iter.c) share.
 */
#include <errno.h>
#include <stdlib.h>
#include <linux/zalloc.h>

#include "event.h"
#include "machine.h"
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
