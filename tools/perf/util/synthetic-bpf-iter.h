/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_SYNTHETIC_BPF_ITER_H
#define __PERF_SYNTHETIC_BPF_ITER_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/compiler.h>
#include "synthetic-events.h"

struct machine;
struct perf_tool;

/* synthesize.bpf-iter: synthesize from the BPF task and task_vma iterators */
extern bool perf_synthesize_bpf_iter;

#ifdef HAVE_BPF_SKEL
bool perf_bpf_iter__usable(char *why, size_t size);
int perf_event__synthesize_threads_bpf_iter(const struct perf_tool *tool,
					    perf_event__handler_t process,
					    struct machine *machine,
					    bool needs_mmap, bool mmap_data);
#else
static inline bool perf_bpf_iter__usable(char *why, size_t size)
{
	snprintf(why, size, "perf was built without BPF skeletons");
	return false;
}

static inline int
perf_event__synthesize_threads_bpf_iter(const struct perf_tool *tool __maybe_unused,
					perf_event__handler_t process __maybe_unused,
					struct machine *machine __maybe_unused,
					bool needs_mmap __maybe_unused,
					bool mmap_data __maybe_unused)
{
	return -EOPNOTSUPP;
}
#endif

#endif /* __PERF_SYNTHETIC_BPF_ITER_H */
