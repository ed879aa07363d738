/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compare what task_diag says about a task with what /proc says about it.
 * Each *_diff() counts the differences in @df and describes the first.
 */
#ifndef __TD_COMPARE_H
#define __TD_COMPARE_H

#include <sys/types.h>

#include "task_diag_util.h"
#include "test_util.h"

struct td_diff {
	int n;			/* differences found */
	char why[768];		/* the first one */
};

void diff_add(struct td_diff *df, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void base_diff(const struct td_task *t, pid_t pid, pid_t tid,
	       struct td_diff *df);
void creds_diff(const struct td_task *t, pid_t pid, struct td_diff *df);
void stat_diff(const struct td_task *t, pid_t pid, pid_t tid,
	       struct td_diff *df);
void statm_diff(const struct td_task *t, pid_t pid, struct td_diff *df);
void psinfo_diff(const struct td_task *t, pid_t pid, pid_t tid,
		 struct td_diff *df);
void cmdline_diff(const struct td_task *t, pid_t pid, pid_t tid,
		  struct td_diff *df);
void vmas_diff(const struct td_task *t, const struct proc_maps *m,
	       struct td_diff *df);
void vmflags_diff(const struct td_task *t, const struct proc_maps *m,
		  struct td_diff *df);
void vma_stats_diff(const struct td_task *t, const struct proc_maps *m,
		    struct td_diff *df);
void vmas_vs_proc(const struct td_task *t, pid_t pid, struct td_diff *df);
const struct td_vma *td_vma_named(const struct td_task *t, const char *name);

#endif /* __TD_COMPARE_H */
