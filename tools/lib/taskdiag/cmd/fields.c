// SPDX-License-Identifier: GPL-2.0
/*
 * The fields of the groups, by name: what the text and JSON outputs print
 * of a group, and the fields that -o may list.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

#define F(grp, type, f, kind)	{ #f, grp, kind, offsetof(struct type, f), 0 }
#define BASE(f, kind)		F(TASK_DIAG_BASE, task_diag_base, f, kind)
#define CRED(f, kind)		F(TASK_DIAG_CRED, task_diag_creds, f, kind)
#define STAT(f, kind)		F(TASK_DIAG_STAT, task_diag_stat, f, kind)
#define STATM(f)		F(TASK_DIAG_STATM, task_diag_statm, f, CMD_U64)
#define VMA_STAT(f)		F(TASK_DIAG_VMA_STAT, task_diag_vma_stat, f, CMD_U64)

/* pss comes in bytes shifted left by 12 bits (fs/proc/task_mmu.c) */
#define PSS_SHIFT		12

const struct cmd_field cmd_fields[] = {
	BASE(pid, CMD_U32),
	BASE(tgid, CMD_U32),
	BASE(ppid, CMD_U32),
	BASE(tpid, CMD_U32),
	BASE(sid, CMD_U32),
	BASE(pgid, CMD_U32),
	BASE(state, CMD_STATE),
	BASE(comm, CMD_COMM),
	CRED(uid, CMD_U32),
	CRED(euid, CMD_U32),
	CRED(suid, CMD_U32),
	CRED(fsuid, CMD_U32),
	CRED(gid, CMD_U32),
	CRED(egid, CMD_U32),
	CRED(sgid, CMD_U32),
	CRED(fsgid, CMD_U32),
	CRED(cap_inheritable, CMD_CAPS),
	CRED(cap_permitted, CMD_CAPS),
	CRED(cap_effective, CMD_CAPS),
	CRED(cap_bset, CMD_CAPS),
	STAT(minflt, CMD_U64),
	STAT(cminflt, CMD_U64),
	STAT(majflt, CMD_U64),
	STAT(cmajflt, CMD_U64),
	STAT(utime, CMD_U64),
	STAT(stime, CMD_U64),
	STAT(cutime, CMD_U64),
	STAT(cstime, CMD_U64),
	STAT(threads, CMD_U32),
	STATM(anon),
	STATM(file),
	STATM(shmem),
	STATM(total_vm),
	STATM(total_rss),
	STATM(hiwater_vm),
	STATM(hiwater_rss),
	STATM(text),
	STATM(lib),
	STATM(swap),
	STATM(ptes),
	STATM(pmds),
	STATM(locked_vm),
	STATM(pinned_vm),
	STATM(data_vm),
	STATM(stack_vm),
	VMA_STAT(resident),
	VMA_STAT(shared_clean),
	VMA_STAT(shared_dirty),
	VMA_STAT(private_clean),
	VMA_STAT(private_dirty),
	VMA_STAT(referenced),
	VMA_STAT(anonymous),
	VMA_STAT(anonymous_thp),
	VMA_STAT(swap),
	{ "pss", TASK_DIAG_VMA_STAT, CMD_U64,
	  offsetof(struct task_diag_vma_stat, pss), PSS_SHIFT },
	{ }
};

/**
 * field_find() - a field of a task's groups, by name
 * @name: its name
 *
 * Return: the field, or NULL if no group of a task has it (the fields of
 * a VMA's counters are not a task's).
 */
const struct cmd_field *field_find(const char *name)
{
	const struct cmd_field *f;

	for (f = cmd_fields; f->name; f++)
		if (f->group != TASK_DIAG_VMA_STAT && !strcmp(f->name, name))
			return f;
	return NULL;
}

/* The value of a CMD_U32 or CMD_U64 field, in the unit it is printed in */
unsigned long long field_value(const void *group, const struct cmd_field *f)
{
	const char *p = (const char *)group + f->off;

	if (f->kind == CMD_U32)
		return *(const __u32 *)p;
	return *(const __u64 *)p >> f->shift;
}

/* A group of a task that fields describe, or NULL if it was not sent */
const void *task_group(const struct taskdiag_task *task, int group)
{
	switch (group) {
	case TASK_DIAG_BASE:
		return taskdiag_task__base(task, NULL);
	case TASK_DIAG_CRED:
		return taskdiag_task__creds(task, NULL);
	case TASK_DIAG_STAT:
		return taskdiag_task__stat(task, NULL);
	case TASK_DIAG_STATM:
		return taskdiag_task__statm(task, NULL);
	default:
		return NULL;
	}
}

/**
 * caps_hex() - a capability set as 16 hex digits, as /proc/PID/status has it
 * @caps: the set
 * @buf: where to write it: CAPS_HEX_LEN bytes
 *
 * Return: @buf.
 */
const char *caps_hex(const struct task_diag_caps *caps, char *buf)
{
	snprintf(buf, CAPS_HEX_LEN, "%08x%08x", caps->cap[1], caps->cap[0]);
	return buf;
}

char state_letter(__u8 state)
{
	static const char letters[] = "RSDTtXZPI";

	return state < sizeof(letters) - 1 ? letters[state] : '?';
}
