// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A transaction: one request, then its answer task by task.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "internal.h"

/* The one netlink message of a request */
struct td_request_msg {
	struct nlmsghdr		nlh;
	struct task_diag_pid	tdp;
};

static_assert(offsetof(struct td_request_msg, tdp) == NLMSG_HDRLEN,
	      "struct task_diag_pid must follow the header");

/**
 * td_request_build() - the request message of the current request
 * @td: the session
 * @buf: where to build it
 * @size: the size of @buf
 *
 * Return: its length, or 0 if @buf is too small.
 */
size_t td_request_build(struct taskdiag *td, void *buf, size_t size)
{
	struct td_request_msg req;

	if (size < sizeof(req))
		return 0;
	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = TASK_DIAG_CMD_GET;
	req.nlh.nlmsg_flags = NLM_F_REQUEST;
	req.nlh.nlmsg_seq = td->seq;
	req.tdp.show_flags = td->show_flags;
	req.tdp.dump_strategy = td->strategy;
	req.tdp.pid = td->pid;
	memcpy(buf, &req, sizeof(req));
	return sizeof(req);
}

int taskdiag__request(struct taskdiag *td,
		      const struct taskdiag_request_opts *user_opts)
{
	struct taskdiag_request_opts opts;
	int err;

	if (!td)
		return -EINVAL;
	td->state = TD_IDLE;	/* the answer to the previous request is dropped */
	if (!user_opts)
		return td_err(td, -EINVAL, "no struct taskdiag_request_opts");
	err = td_opts_copy(&opts, sizeof(opts), user_opts, user_opts->sz);
	if (err || opts.__reserved)
		return td_err(td, -EINVAL, "bad struct taskdiag_request_opts");
	td->strategy = opts.strategy;
	td->pid = opts.pid;
	td->show_flags = opts.show_flags;
	td->seq++;
	td->errmsg[0] = '\0';
	td->state = TD_IDLE;
	td->error = 0;
	td_task_reset(&td->task, 0, 0);

	err = td->ops->request(td);
	if (err)
		return err;
	td->state = TD_ACTIVE;
	return 0;
}

int taskdiag__next(struct taskdiag *td, struct taskdiag_task **task)
{
	int ret;

	if (!td || !task)
		return -EINVAL;
	*task = NULL;
	switch (td->state) {
	case TD_IDLE:
		return td_err(td, -EINVAL, "no request was sent");
	case TD_END:
		return 0;
	case TD_FAILED:
		return td->error;
	case TD_ACTIVE:
	default:
		break;
	}

	ret = td->ops->next(td);
	if (ret > 0)
		*task = &td->task;
	else if (!ret)
		td->state = TD_END;
	return ret;
}
