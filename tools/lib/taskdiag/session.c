// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Sessions: options, the choice of the backend, and the end of it all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "procfs.h"

/* Why the last taskdiag__new() of this thread failed */
static __thread char td_new_errmsg[TD_ERRMSG_LEN];

const char *td_new_error(void)
{
	return td_new_errmsg;
}

static struct taskdiag *td_new_failed(int err, const char *msg)
{
	snprintf(td_new_errmsg, sizeof(td_new_errmsg), "%s", msg);
	errno = -err;
	return NULL;
}

static int td_use_stream(struct taskdiag *td,
			 const struct taskdiag_source *src, size_t buf_size)
{
	td->ops = &td_kernel_ops;
	return td_stream_init(td, src, buf_size);
}

static int td_use_source(struct taskdiag *td,
			 const struct taskdiag_opts *opts)
{
	const struct taskdiag_source *src = opts->source;

	if (opts->backend == TASKDIAG_BACKEND_PROCFS ||
	    src->sz < td_offsetofend(struct taskdiag_source, arg) ||
	    !src->request || !src->read)
		return td_err(td, -EINVAL, "bad source");
	return td_use_stream(td, src, opts->buf_size);
}

static int td_use_kernel(struct taskdiag *td, size_t buf_size)
{
	int err = td_kernel_open(td);

	return err ? err : td_use_stream(td, &td->kernel_src, buf_size);
}

/* The kernel if /proc/task-diag answers a probe, procfs otherwise */
static int td_use_auto(struct taskdiag *td, size_t buf_size)
{
	int err = td_use_kernel(td, buf_size);

	if (!err)
		err = td_kernel_probe(td);
	if (!err || err == -ENOMEM)
		return err;

	td_log(TASKDIAG_LOG_INFO, "kernel backend unavailable (%s): using procfs",
	       td->errmsg);
	td_stream_free(td);
	td_kernel_close(td);
	td->errmsg[0] = '\0';
	return td_procfs_open(td);
}

static int td_setup(struct taskdiag *td, const struct taskdiag_opts *opts)
{
	td->proc_root = td_strdup(td, opts->proc_root ? opts->proc_root :
						       "/proc");
	if (!td->proc_root)
		return -ENOMEM;
	if (opts->source)
		return td_use_source(td, opts);

	switch (opts->backend) {
	case TASKDIAG_BACKEND_AUTO:
		return td_use_auto(td, opts->buf_size);
	case TASKDIAG_BACKEND_KERNEL:
		return td_use_kernel(td, opts->buf_size);
	case TASKDIAG_BACKEND_PROCFS:
		return td_procfs_open(td);
	default:
		return -EINVAL;
	}
}

struct taskdiag *taskdiag__new(const struct taskdiag_opts *user_opts)
{
	struct taskdiag_opts opts;
	struct taskdiag *td;
	char msg[TD_ERRMSG_LEN];
	int err;

	err = td_opts_copy(&opts, sizeof(opts), user_opts,
			   user_opts ? user_opts->sz : 0);
	if (!err && !td_is_zero(opts.__reserved, sizeof(opts.__reserved)))
		err = -EINVAL;
	if (err)
		return td_new_failed(err, "bad struct taskdiag_opts");
	td = td_realloc_hook ? td_realloc_hook(NULL, sizeof(*td)) :
			       malloc(sizeof(*td));
	if (!td)
		return td_new_failed(-ENOMEM, "out of memory for the session");
	memset(td, 0, sizeof(*td));
	td->realloc_fn = td_realloc_hook;
	td->kernel_fd = -1;

	err = td_setup(td, &opts);
	if (err) {
		td_log(TASKDIAG_LOG_DEBUG, "%s: %s", __func__, td->errmsg);
		snprintf(msg, sizeof(msg), "%s", td->errmsg[0] ? td->errmsg :
			 "the backend cannot be set up");
		taskdiag__delete(td);
		return td_new_failed(err, msg);
	}
	td_new_errmsg[0] = '\0';
	if (td->ops == &td_kernel_ops)
		td->stream.read_ahead = opts.read_ahead;
	td_log(TASKDIAG_LOG_DEBUG, "backend: %s",
	       taskdiag__backend_name(td->ops->backend));
	return td;
}

void taskdiag__delete(struct taskdiag *td)
{
	if (!td)
		return;
	td_stream_free(td);	/* stops the read-ahead before the fd closes */
	td_kernel_close(td);
	td_procfs_close(td);
	td_task_free(&td->task);
	free(td->proc_root);
	free(td);
}

enum taskdiag_backend taskdiag__backend(const struct taskdiag *td)
{
	return td->ops->backend;
}

const char *taskdiag__backend_name(enum taskdiag_backend backend)
{
	switch (backend) {
	case TASKDIAG_BACKEND_AUTO:
		return "auto";
	case TASKDIAG_BACKEND_KERNEL:
		return "kernel";
	case TASKDIAG_BACKEND_PROCFS:
		return "procfs";
	default:
		return "unknown";
	}
}

size_t taskdiag__buf_size(const struct taskdiag *td)
{
	return td->ops == &td_kernel_ops ? td->stream.size : 0;
}
