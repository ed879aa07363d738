// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Reassembly of tasks continued over several messages.
 *
 * A message with TASK_DIAG_FLAG_CONT is followed by one about the same
 * task that carries the rest of its groups, starting with the one that
 * did not fit; a VMA list or a command line goes on where it stopped.  The
 * groups are merged into td->task, the VMAs and the command line appended,
 * so that the caller sees one task.
 * A continued task that exits is closed by a message about it without
 * attributes and without the flag: the task is then marked as exited.
 * Any other task in between breaks the protocol (-EPROTO).
 */
#include <errno.h>

#include "internal.h"
#include "parse.h"

static int td_reasm_attr(struct taskdiag *td, const struct td_attr *a)
{
	switch (a->type) {
	case TASK_DIAG_BASE:
	case TASK_DIAG_CRED:
	case TASK_DIAG_STAT:
	case TASK_DIAG_STATM:
	case TASK_DIAG_PSINFO:
		return td_task_set_group(td, a->type, a->data, a->len);
	case TASK_DIAG_CMDLINE:
		return td_task_add_cmdline(td, a->data, a->len);
	case TASK_DIAG_VMA:
		return td_vma_parse_attr(td, a->data, a->len);
	default:
		td_log(TASKDIAG_LOG_DEBUG, "pid %u: unknown attribute %u skipped",
		       td->task.pid, a->type);
		return 0;
	}
}

static int td_reasm_attrs(struct taskdiag *td, const struct td_tmsg *tm)
{
	struct td_attr attr;
	size_t off = 0;
	int ret;

	while ((ret = td_attr_next(td, tm->attrs, tm->attrs_len, &off,
				   &attr)) > 0) {
		ret = td_reasm_attr(td, &attr);
		if (ret)
			return ret;
	}
	return ret;
}

/* The message goes on with the task of the previous one, or closes it */
static int td_reasm_cont(struct taskdiag *td, const struct td_tmsg *tm)
{
	struct taskdiag_task *task = &td->task;

	if (tm->msg.pid != task->pid || tm->msg.tgid != task->tgid)
		return td_err(td, -EPROTO,
			      "continued task %u/%u interrupted by task %u/%u",
			      task->pid, task->tgid, tm->msg.pid, tm->msg.tgid);
	if (!tm->attrs_len && !(tm->msg.flags & TASK_DIAG_FLAG_CONT))
		task->exited = true;
	return 0;
}

/**
 * td_reasm_msg() - take in a TASK_DIAG_CMD_GET message
 * @td: the session
 * @payload: the payload of the message
 * @len: its length
 *
 * Return: 1 when td->task is complete, 0 when it goes on in the next
 * message, or -EBADMSG, -EPROTO, -ENOMEM.
 */
int td_reasm_msg(struct taskdiag *td, const void *payload, size_t len)
{
	struct td_tmsg tm;
	int err;

	err = td_tmsg_parse(td, payload, len, &tm);
	if (err)
		return err;

	if (td->stream.cont)
		err = td_reasm_cont(td, &tm);
	else
		td_task_reset(&td->task, tm.msg.pid, tm.msg.tgid);
	if (!err)
		err = td_reasm_attrs(td, &tm);
	if (err)
		return err;

	td->stream.cont = tm.msg.flags & TASK_DIAG_FLAG_CONT;
	if (td->stream.cont)
		return 0;
	td_task_finish(&td->task);
	return 1;
}

/**
 * td_reasm_end() - the answer ended
 * @td: the session
 *
 * Return: 0, or -EPROTO if a continued task was never finished.
 */
int td_reasm_end(struct taskdiag *td)
{
	if (!td->stream.cont)
		return 0;
	return td_err(td, -EPROTO, "the answer ended inside continued task %u",
		      td->task.pid);
}
