// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What the fuzzers do with each task they get.
 */
#include <string.h>

#include <taskdiag/taskdiag.h>

#include "fuzz.h"

/* Touch everything the task gives, as a caller would */
size_t fuzz_use_task(const struct taskdiag_task *task)
{
	const struct task_diag_base *b = taskdiag_task__base(task, NULL);
	const struct taskdiag_vma *v;
	size_t i, sum = taskdiag_task__pid(task);
	char line[8192];

	if (b)
		sum += strlen(b->comm) + b->ppid;
	if (taskdiag_task__creds(task, NULL))
		sum += taskdiag_task__creds(task, NULL)->cap_bset.cap[1];
	if (taskdiag_task__stat(task, NULL))
		sum += taskdiag_task__stat(task, NULL)->threads;
	if (taskdiag_task__statm(task, NULL))
		sum += taskdiag_task__statm(task, NULL)->stack_vm;
	taskdiag_task__for_each_vma(task, i, v) {
		sum += taskdiag_vma__format(v, line, sizeof(line));
		if (v->stat)
			sum += v->stat->pss;
	}
	return sum + taskdiag_task__exited(task);
}

