/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_SYNTHETIC_TASKDIAG_SEEN_H
#define __PERF_SYNTHETIC_TASKDIAG_SEEN_H

#include "event.h"

struct machine;
struct perf_sample;
struct perf_seen_tasks;
struct perf_tool;
struct target;

#ifdef HAVE_TASKDIAG_SUPPORT
struct perf_seen_tasks *perf_seen_tasks__new(const struct perf_tool *tool,
					     perf_event__handler_t process,
					     struct machine *machine,
					     struct target *target,
					     bool needs_mmap);
void perf_seen_tasks__delete(struct perf_seen_tasks *st);
void perf_seen_tasks__event(struct perf_seen_tasks *st, struct machine *machine,
			    const union perf_event *event,
			    const struct perf_sample *sample);
#else
static inline struct perf_seen_tasks *
perf_seen_tasks__new(const struct perf_tool *tool __maybe_unused,
		     perf_event__handler_t process __maybe_unused,
		     struct machine *machine __maybe_unused,
		     struct target *target __maybe_unused,
		     bool needs_mmap __maybe_unused)
{
	return NULL;
}

static inline void perf_seen_tasks__delete(struct perf_seen_tasks *st __maybe_unused)
{
}

static inline void
perf_seen_tasks__event(struct perf_seen_tasks *st __maybe_unused,
		       struct machine *machine __maybe_unused,
		       const union perf_event *event __maybe_unused,
		       const struct perf_sample *sample __maybe_unused)
{
}
#endif

#endif /* __PERF_SYNTHETIC_TASKDIAG_SEEN_H */
