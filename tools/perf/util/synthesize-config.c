// SPDX-License-Identifier: GPL-2.0
/*
 * The synthesize.* section of perf config:
 *
 *	[synthesize]
 *		task-diag = false		# always walk /proc
 *		task-diag-buffer = 262144	# read buffer of /proc/task-diag
 *		task-diag-read-ahead = false	# no threads reading ahead
 *		task-diag-read-ahead-tasks = 0	# read ahead whatever the tasks
 *		procmap-query = true		# the /proc walk's maps by ioctl
 *		bpf-iter = true			# BPF iterators, not /proc
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "debug.h"
#include "synthetic-bpf-iter.h"
#include "synthetic-procmap-query.h"
#include "synthetic-taskdiag.h"

bool perf_synthesize_taskdiag = true;
unsigned long perf_synthesize_taskdiag_buf = 256 * 1024;
bool perf_synthesize_taskdiag_read_ahead = true;
unsigned long perf_synthesize_taskdiag_read_ahead_tasks = 2000;
bool perf_synthesize_bpf_iter;

/*
 * @value of the key @var as a number from @min on, without a sign, into
 * @dest; -EINVAL, saying that it is not @what, leaving @dest as it was
 */
static int synthesize_config__ulong(const char *var, const char *value,
				    unsigned long min, const char *what,
				    unsigned long *dest)
{
	u64 nr;

	if (perf_config_u64(&nr, var, value) || (s64)nr < 0 || nr < min ||
	    nr > ULONG_MAX) {
		pr_err("%s: %s is not %s\n", var, value, what);
		return -EINVAL;
	}
	*dest = nr;
	return 0;
}

int perf_synthesize_config(const char *var, const char *value)
{
	if (!strcmp(var, "synthesize.task-diag")) {
		perf_synthesize_taskdiag = perf_config_bool(var, value);
		return 0;
	}
	if (!strcmp(var, "synthesize.bpf-iter")) {
		perf_synthesize_bpf_iter = perf_config_bool(var, value);
		return 0;
	}
	if (!strcmp(var, "synthesize.procmap-query")) {
		perf_synthesize_procmap_query = perf_config_bool(var, value);
		return 0;
	}
	if (!strcmp(var, "synthesize.task-diag-read-ahead")) {
		perf_synthesize_taskdiag_read_ahead = perf_config_bool(var, value);
		return 0;
	}
	if (!strcmp(var, "synthesize.task-diag-read-ahead-tasks"))
		return synthesize_config__ulong(var, value, 0, "a number of tasks",
						&perf_synthesize_taskdiag_read_ahead_tasks);
	if (!strcmp(var, "synthesize.task-diag-buffer"))
		return synthesize_config__ulong(var, value, 4096,
						"a size of at least 4096 bytes",
						&perf_synthesize_taskdiag_buf);
	return 0;
}

#ifndef HAVE_BPF_SKEL
bool perf_bpf_iter__usable(char *why, size_t size)
{
	snprintf(why, size, "perf was built without BPF skeletons");
	return false;
}

int perf_event__synthesize_threads_bpf_iter(const struct perf_tool *tool __maybe_unused,
					    perf_event__handler_t process __maybe_unused,
					    struct machine *machine __maybe_unused,
					    bool needs_mmap __maybe_unused,
					    bool mmap_data __maybe_unused)
{
	if (perf_synthesize_bpf_iter)
		pr_debug("synthesize.bpf-iter: perf was built without BPF skeletons, synthesizing from /proc\n");
	return -EOPNOTSUPP;
}
#endif
