// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A reassembled task: its groups as aligned copies and its accessors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Start a new task in @task, keeping the arrays for reuse */
void td_task_reset(struct taskdiag_task *task, __u32 pid, __u32 tgid)
{
	task->pid = pid;
	task->tgid = tgid;
	task->present = 0;
	task->exited = false;
	task->nr_vmas = 0;
	task->names_len = 0;
	task->cmdline_len = 0;
}

/* Point the VMAs at their names and stats, now that nothing moves anymore */
void td_task_finish(struct taskdiag_task *task)
{
	struct td_vma *v;
	size_t i;

	for (i = 0; i < task->nr_vmas; i++) {
		v = &task->vmas[i];
		v->pub.name = v->name_pos == TD_NO_NAME ? NULL :
			      task->names + v->name_pos;
		v->pub.stat = v->has_stat ? &v->stat : NULL;
		v->pub.stat_size = v->has_stat ? sizeof(v->stat) : 0;
		v->pub.build_id = v->pub.build_id_len ? v->build_id : NULL;
	}
}

void td_task_free(struct taskdiag_task *task)
{
	free(task->vmas);
	free(task->names);
	free(task->cmdline);
	memset(task, 0, sizeof(*task));
}

/* The copy of a fixed-size group in @task, and its size */
static const void *td_task_group(const struct taskdiag_task *task, int group,
				 size_t *size)
{
	switch (group) {
	case TASK_DIAG_BASE:
		*size = sizeof(task->base);
		return &task->base;
	case TASK_DIAG_CRED:
		*size = sizeof(task->creds);
		return &task->creds;
	case TASK_DIAG_STAT:
		*size = sizeof(task->stat);
		return &task->stat;
	case TASK_DIAG_STATM:
		*size = sizeof(task->statm);
		return &task->statm;
	case TASK_DIAG_PSINFO:
		*size = sizeof(task->psinfo);
		return &task->psinfo;
	default:
		return NULL;
	}
}

/**
 * td_task_set_group() - copy a fixed-size group into the current task
 * @td: the session
 * @group: TASK_DIAG_BASE, TASK_DIAG_CRED, TASK_DIAG_STAT, TASK_DIAG_STATM
 *	or TASK_DIAG_PSINFO
 * @data: the attribute payload
 * @len: its length: at least the size of the struct; a longer one comes
 *	from a newer kernel and its prefix is taken
 *
 * Return: 0, -EBADMSG if too short, -EPROTO if the task has it already.
 */
int td_task_set_group(struct taskdiag *td, int group, const void *data,
		      size_t len)
{
	struct taskdiag_task *task = &td->task;
	size_t size;
	void *dst;

	dst = (void *)td_task_group(task, group, &size);
	if (!dst)
		return td_err(td, -EINVAL, "group %d is not a struct", group);
	if (len < size)
		return td_err(td, -EBADMSG,
			      "pid %u: group %d of %zu bytes, expected %zu",
			      task->pid, group, len, size);
	if (task->present & TD_BIT(group))
		return td_err(td, -EPROTO, "pid %u: group %d sent twice",
			      task->pid, group);

	memcpy(dst, data, size);
	if (group == TASK_DIAG_BASE)
		task->base.comm[TASK_DIAG_COMM_LEN - 1] = '\0';
	task->present |= TD_BIT(group);
	return 0;
}

/**
 * td_task_add_cmdline() - append a part of the command line
 * @td: the session
 * @data: the attribute payload, maybe empty
 * @len: its length
 *
 * A command line may come in several parts, one per message of the task.
 *
 * Return: 0 or -ENOMEM.
 */
int td_task_add_cmdline(struct taskdiag *td, const void *data, size_t len)
{
	struct taskdiag_task *task = &td->task;
	int err;

	err = td_grow(td, (void **)&task->cmdline, &task->cmdline_cap,
		      task->cmdline_len + len + 1, 1);
	if (err)
		return err;
	memcpy(task->cmdline + task->cmdline_len, data, len);
	task->cmdline_len += len;
	task->cmdline[task->cmdline_len] = '\0';
	task->present |= TD_BIT(TASK_DIAG_CMDLINE);
	return 0;
}

__u32 taskdiag_task__pid(const struct taskdiag_task *task)
{
	return task->pid;
}

__u32 taskdiag_task__tgid(const struct taskdiag_task *task)
{
	return task->tgid;
}

bool taskdiag_task__has(const struct taskdiag_task *task, int group)
{
	if (group < 0 || group >= 64)
		return false;
	return task->present & TD_BIT(group);
}

bool taskdiag_task__exited(const struct taskdiag_task *task)
{
	return task->exited;
}

/* A fixed-size group of @task if it was received, and its size */
static const void *td_task_get(const struct taskdiag_task *task, int group,
			       size_t *size)
{
	size_t copy_size = 0;
	const void *copy = NULL;

	if (taskdiag_task__has(task, group))
		copy = td_task_group(task, group, &copy_size);
	if (size)
		*size = copy ? copy_size : 0;
	return copy;
}

const struct task_diag_base *
taskdiag_task__base(const struct taskdiag_task *task, size_t *size)
{
	return td_task_get(task, TASK_DIAG_BASE, size);
}

const struct task_diag_creds *
taskdiag_task__creds(const struct taskdiag_task *task, size_t *size)
{
	return td_task_get(task, TASK_DIAG_CRED, size);
}

const struct task_diag_stat *
taskdiag_task__stat(const struct taskdiag_task *task, size_t *size)
{
	return td_task_get(task, TASK_DIAG_STAT, size);
}

const struct task_diag_statm *
taskdiag_task__statm(const struct taskdiag_task *task, size_t *size)
{
	return td_task_get(task, TASK_DIAG_STATM, size);
}

const struct task_diag_psinfo *
taskdiag_task__psinfo(const struct taskdiag_task *task, size_t *size)
{
	return td_task_get(task, TASK_DIAG_PSINFO, size);
}

const char *taskdiag_task__cmdline(const struct taskdiag_task *task,
				   size_t *len)
{
	bool has = taskdiag_task__has(task, TASK_DIAG_CMDLINE);

	if (len)
		*len = has ? task->cmdline_len : 0;
	return has ? task->cmdline : NULL;
}

size_t taskdiag_task__nr_vmas(const struct taskdiag_task *task)
{
	return task->nr_vmas;
}

const struct taskdiag_vma *taskdiag_task__vma(const struct taskdiag_task *task,
					      size_t idx)
{
	return idx < task->nr_vmas ? &task->vmas[idx].pub : NULL;
}
