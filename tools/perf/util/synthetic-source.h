/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_SYNTHETIC_SOURCE_H
#define __PERF_SYNTHETIC_SOURCE_H

struct machine;
union perf_event;

/*
 * The events a source of the existing tasks' events (task_diag, the BPF
 * iterators) fills and sends, one of each kind, with room for the sample
 * id of @machine
 */
struct perf_synth_events {
	union perf_event	*comm_event;
	union perf_event	*mmap_event;
	union perf_event	*fork_event;
	union perf_event	*ns_event;
};

int perf_synth_events__init(struct perf_synth_events *ev, struct machine *machine);
void perf_synth_events__exit(struct perf_synth_events *ev);

#endif /* __PERF_SYNTHETIC_SOURCE_H */
