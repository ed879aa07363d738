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
	memset(task, 0, sizeof(*task));
}

static void *td_task_group(struct taskdiag_task *task, int group,
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
	default:
		return NULL;
	}
}

/**
 * td_task_set_group() - copy a fixed-size group into the current task
 * @td: the session
 * @group: TASK_DIAG_BASE, TASK_DIAG_CRED, TASK_DIAG_STAT or TASK_DIAG_STATM
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

	dst = td_task_group(task, group, &size);
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

/* A group of @task if it was received, and its size */
static const void *td_task_get(const struct taskdiag_task *task, int group,
			       const void *copy, size_t copy_size, size_t *size)
{
	bool has = taskdiag_task__has(task, group);

	if (size)
		*size = has ? copy_size : 0;
	return has ? copy : NULL;
}

const struct task_diag_base *
taskdiag_task__base(const struct taskdiag_task *task, size_t *size)
{
	return td_task_get(task, TASK_DIAG_BASE, &task->base,
			   sizeof(task->base), size);
}

const struct task_diag_creds *
taskdiag_task__creds(const struct taskdiag_task *task, size_t *size)
{
	return td_task_get(task, TASK_DIAG_CRED, &task->creds,
			   sizeof(task->creds), size);
}

const struct task_diag_stat *
taskdiag_task__stat(const struct taskdiag_task *task, size_t *size)
{
	return td_task_get(task, TASK_DIAG_STAT, &task->stat,
			   sizeof(task->stat), size);
}

const struct task_diag_statm *
taskdiag_task__statm(const struct taskdiag_task *task, size_t *size)
{
	return td_task_get(task, TASK_DIAG_STATM, &task->statm,
			   sizeof(task->statm), size);
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
