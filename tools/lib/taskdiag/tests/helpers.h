/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the tests of answers share: a session on a built answer, and a
 * summary of what taskdiag__next() returned.
 */
#ifndef __LIBTASKDIAG_HELPERS_H
#define __LIBTASKDIAG_HELPERS_H

#include <stdbool.h>
#include <taskdiag/taskdiag.h>

#include "builder.h"
#include "source.h"

#define RUN_MAX		4096
#define SHOW_ALL	(TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_CRED | \
			 TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_VMA_STAT | \
			 TASK_DIAG_SHOW_STAT | TASK_DIAG_SHOW_STATM)

struct run {
	int	ret;			/* what the last taskdiag__next() said */
	int	nr_tasks;
	__u32	pids[RUN_MAX];
	size_t	nr_vmas[RUN_MAX];
	bool	exited[RUN_MAX];
};

void save_seed(const void *data, size_t len, size_t buf_size);
int td_request(struct taskdiag *td, __u64 strategy, __u32 pid,
	       __u64 show_flags);
struct taskdiag *mem_session(struct mem_source *ms, const struct sb *sb,
			     size_t buf_size);
struct taskdiag *mem_session_flags(struct mem_source *ms, const struct sb *sb,
				   size_t buf_size, __u64 show_flags);
struct taskdiag *mem_session_opts(struct mem_source *ms, const struct sb *sb,
				  struct taskdiag_opts *opts, __u64 show_flags);
void three_tasks(struct sb *sb, size_t cuts[3]);
int run_all(struct taskdiag *td, struct run *r);
size_t run_all_and_delete(struct taskdiag *td, struct run *r);
int check_task_vmas(const struct taskdiag_task *task, __u64 base,
		    size_t first, size_t nr);

#endif /* __LIBTASKDIAG_HELPERS_H */
