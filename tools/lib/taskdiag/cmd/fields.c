// SPDX-License-Identifier: GPL-2.0
/*
 * The __u64 fields of the groups, by name, for both outputs.
 */
#include <stddef.h>

#include "cmd.h"

#define FIELD(type, f)	{ #f, offsetof(struct type, f) }

const struct cmd_field stat_fields[] = {
	FIELD(task_diag_stat, minflt),
	FIELD(task_diag_stat, cminflt),
	FIELD(task_diag_stat, majflt),
	FIELD(task_diag_stat, cmajflt),
	FIELD(task_diag_stat, utime),
	FIELD(task_diag_stat, stime),
	FIELD(task_diag_stat, cutime),
	FIELD(task_diag_stat, cstime),
	{ }
};

const struct cmd_field statm_fields[] = {
	FIELD(task_diag_statm, anon),
	FIELD(task_diag_statm, file),
	FIELD(task_diag_statm, shmem),
	FIELD(task_diag_statm, total_vm),
	FIELD(task_diag_statm, total_rss),
	FIELD(task_diag_statm, hiwater_vm),
	FIELD(task_diag_statm, hiwater_rss),
	FIELD(task_diag_statm, text),
	FIELD(task_diag_statm, lib),
	FIELD(task_diag_statm, swap),
	FIELD(task_diag_statm, ptes),
	FIELD(task_diag_statm, pmds),
	FIELD(task_diag_statm, locked_vm),
	FIELD(task_diag_statm, pinned_vm),
	FIELD(task_diag_statm, data_vm),
	FIELD(task_diag_statm, stack_vm),
	{ }
};

const struct cmd_field vma_stat_fields[] = {
	FIELD(task_diag_vma_stat, resident),
	FIELD(task_diag_vma_stat, shared_clean),
	FIELD(task_diag_vma_stat, shared_dirty),
	FIELD(task_diag_vma_stat, private_clean),
	FIELD(task_diag_vma_stat, private_dirty),
	FIELD(task_diag_vma_stat, referenced),
	FIELD(task_diag_vma_stat, anonymous),
	FIELD(task_diag_vma_stat, anonymous_thp),
	FIELD(task_diag_vma_stat, swap),
	FIELD(task_diag_vma_stat, pss),
	{ }
};

unsigned long long field_value(const void *group, const struct cmd_field *f)
{
	return *(const __u64 *)((const char *)group + f->off);
}
