/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_SYNTHETIC_BPF_ITER_H
#define __PERF_SYNTHETIC_BPF_ITER_H

#include <stdbool.h>
#include <stddef.h>
#include "synthetic-events.h"

struct machine;
struct perf_tool;

/* synthesize.bpf-iter: synthesize from the BPF task and task_vma iterators */
extern bool perf_synthesize_bpf_iter;

/* without BPF skeletons: false, and -EOPNOTSUPP (synthesize-config.c) */
bool perf_bpf_iter__usable(char *why, size_t size);
int perf_event__synthesize_threads_bpf_iter(const struct perf_tool *tool,
					    perf_event__handler_t process,
					    struct machine *machine,
					    bool needs_mmap, bool mmap_data);

#endif /* __PERF_SYNTHETIC_BPF_ITER_H */
