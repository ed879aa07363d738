/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_SYNTHETIC_TASKDIAG_H
#define __PERF_SYNTHETIC_TASKDIAG_H

#include <stdbool.h>
#include "event.h"
#include "synthetic-events.h"

struct machine;
struct perf_tool;

/* synthesize.task-diag: synthesize from /proc/task-diag when it works */
extern bool perf_synthesize_taskdiag;
/* synthesize.task-diag-buffer: the read buffer size, in bytes */
extern unsigned long perf_synthesize_taskdiag_buf;
/*
 * synthesize.task-diag-read-ahead: with more than one CPU to run on, two
 * threads read the threads and the maps ahead while the events are sent
 */
extern bool perf_synthesize_taskdiag_read_ahead;
/*
 * synthesize.task-diag-read-ahead-tasks: only from that many tasks on the
 * system (0: whatever their number)
 */
extern unsigned long perf_synthesize_taskdiag_read_ahead_tasks;

struct taskdiag;

int perf_synthesize_config(const char *var, const char *value);

#ifdef HAVE_TASKDIAG_SUPPORT
bool perf_taskdiag__available(void);
bool perf_taskdiag__read_ahead(void);
int perf_event__synthesize_threads_taskdiag(const struct perf_tool *tool,
					    perf_event__handler_t process,
					    struct machine *machine,
					    bool needs_mmap, bool mmap_data,
					    perf_taskdiag_source_fn new_source,
					    pid_t *resume_tgid);
struct taskdiag *perf_taskdiag__open(struct machine *machine,
				     perf_taskdiag_source_fn new_source);
struct taskdiag *perf_taskdiag__session(struct machine *machine,
					perf_taskdiag_source_fn new_source);
void perf_taskdiag__session_end(struct taskdiag *td);
int perf_event__synthesize_task_taskdiag(struct taskdiag *td,
					 const struct perf_tool *tool,
					 union perf_event *comm_event,
					 union perf_event *mmap_event,
					 union perf_event *ns_event, pid_t pid,
					 perf_event__handler_t process,
					 struct machine *machine,
					 bool needs_mmap, bool mmap_data);
#else
static inline bool perf_taskdiag__available(void)
{
	return false;
}

static inline int
perf_event__synthesize_threads_taskdiag(const struct perf_tool *tool __maybe_unused,
					perf_event__handler_t process __maybe_unused,
					struct machine *machine __maybe_unused,
					bool needs_mmap __maybe_unused,
					bool mmap_data __maybe_unused,
					perf_taskdiag_source_fn new_source __maybe_unused,
					pid_t *resume_tgid __maybe_unused)
{
	return -EOPNOTSUPP;
}

static inline struct taskdiag *
perf_taskdiag__open(struct machine *machine __maybe_unused,
		    perf_taskdiag_source_fn new_source __maybe_unused)
{
	return NULL;
}

static inline struct taskdiag *
perf_taskdiag__session(struct machine *machine __maybe_unused,
		       perf_taskdiag_source_fn new_source __maybe_unused)
{
	return NULL;
}

static inline void perf_taskdiag__session_end(struct taskdiag *td __maybe_unused)
{
}

static inline int
perf_event__synthesize_task_taskdiag(struct taskdiag *td __maybe_unused,
				     const struct perf_tool *tool __maybe_unused,
				     union perf_event *comm_event __maybe_unused,
				     union perf_event *mmap_event __maybe_unused,
				     union perf_event *ns_event __maybe_unused,
				     pid_t pid __maybe_unused,
				     perf_event__handler_t process __maybe_unused,
				     struct machine *machine __maybe_unused,
				     bool needs_mmap __maybe_unused,
				     bool mmap_data __maybe_unused)
{
	return -EOPNOTSUPP;
}
#endif

#endif /* __PERF_SYNTHETIC_TASKDIAG_H */
