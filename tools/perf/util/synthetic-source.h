/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_SYNTHETIC_SOURCE_H
#define __PERF_SYNTHETIC_SOURCE_H

#include <sys/types.h>
#include "synthetic-events.h"

struct machine;
struct perf_tool;

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
int perf_synth_events__comm(struct perf_synth_events *ev, const struct perf_tool *tool,
			    perf_event__handler_t process, struct machine *machine,
			    const char *comm, pid_t tgid, pid_t tid);
int perf_synth_events__thread(struct perf_synth_events *ev, const struct perf_tool *tool,
			      perf_event__handler_t process, struct machine *machine,
			      const char *comm, pid_t tgid, pid_t tid, pid_t ppid);

#endif /* __PERF_SYNTHETIC_SOURCE_H */
