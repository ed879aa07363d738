/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_SYNTHETIC_PROCMAP_QUERY_H
#define __PERF_SYNTHETIC_PROCMAP_QUERY_H

#include <stdbool.h>
#include <sys/types.h>
#include "synthetic-events.h"

struct machine;
struct perf_tool;
union perf_event;

/* synthesize.procmap-query: the /proc walk asks PROCMAP_QUERY for the maps */
extern bool perf_synthesize_procmap_query;

bool perf_procmap_query__available(void);
int perf_event__synthesize_mmap_events_query(const struct perf_tool *tool,
					     union perf_event *event, int maps_fd,
					     pid_t pid, pid_t tgid,
					     perf_event__handler_t process,
					     struct machine *machine,
					     bool mmap_data);
int perf_event__synthesize_gate_area(const struct perf_tool *tool,
				     union perf_event *event, pid_t pid,
				     pid_t tgid, perf_event__handler_t process,
				     struct machine *machine, bool mmap_data);

#endif /* __PERF_SYNTHETIC_PROCMAP_QUERY_H */
