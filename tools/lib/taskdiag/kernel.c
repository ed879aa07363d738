// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel backend: /proc/task-diag, written and read as a source.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define TD_WRITE_TRIES	8

static int td_kernel_open_fd(struct taskdiag *td)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/task-diag", td->proc_root);
	td->kernel_fd = open(path, O_RDWR | O_CLOEXEC);
	if (td->kernel_fd < 0)
		return td_err(td, -errno, "%s: %s", path, td_strerror(errno));
	return 0;
}

static ssize_t td_kernel_write(struct taskdiag *td, const void *req,
			       size_t len)
{
	ssize_t n;
	int i;

	for (i = 0; i < TD_WRITE_TRIES; i++) {
		n = write(td->kernel_fd, req, len);
		if (n >= 0 || errno != EINTR)
			break;
	}
	return n < 0 ? -errno : n;
}

/*
 * Write the request.  EBUSY means that the answer to the previous one was
 * not read to its end: a new file descriptor starts afresh.
 */
static int td_kernel_request(void *arg, const void *req, size_t len)
{
	struct taskdiag *td = arg;
	ssize_t n;
	int err;

	if (td->kernel_fd < 0) {
		err = td_kernel_open_fd(td);
		if (err)
			return err;
	}
	n = td_kernel_write(td, req, len);
	if (n == -EBUSY) {
		td_log(TASKDIAG_LOG_DEBUG, "previous answer unread: reopening");
		td_kernel_close(td);
		err = td_kernel_open_fd(td);
		if (err)
			return err;
		n = td_kernel_write(td, req, len);
	}
	if (n < 0)
		return n;
	return (size_t)n == len ? 0 : -EIO;
}

static ssize_t td_kernel_read(void *arg, void *buf, size_t len)
{
	struct taskdiag *td = arg;
	ssize_t n = read(td->kernel_fd, buf, len);

	return n < 0 ? -errno : n;
}

/**
 * td_kernel_open() - open /proc/task-diag under td->proc_root
 * @td: the session
 *
 * Return: 0 or -errno.
 */
int td_kernel_open(struct taskdiag *td)
{
	int err = td_kernel_open_fd(td);

	if (err)
		return err;
	td->kernel_src.sz = sizeof(td->kernel_src);
	td->kernel_src.request = td_kernel_request;
	td->kernel_src.read = td_kernel_read;
	td->kernel_src.arg = td;
	return 0;
}

void td_kernel_close(struct taskdiag *td)
{
	if (td->kernel_fd >= 0)
		close(td->kernel_fd);
	td->kernel_fd = -1;
}

/* Our pid in the pid namespace of the procfs mount */
static __u32 td_self_pid(struct taskdiag *td)
{
	char path[PATH_MAX], buf[32];
	unsigned long pid = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/self", td->proc_root);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		pid = strtoul(buf, NULL, 10);
	}
	return pid && pid <= 0xffffffffUL ? pid : (__u32)getpid();
}

/**
 * td_kernel_probe() - check that the file answers a request for ourselves
 * @td: the session, set up for the kernel backend
 *
 * Return: 0 if it does, -errno otherwise.
 */
int td_kernel_probe(struct taskdiag *td)
{
	struct taskdiag_request_opts req = {
		.sz		= sizeof(req),
		.strategy	= TASK_DIAG_DUMP_ONE,
		.pid		= td_self_pid(td),
	};
	struct taskdiag_task *task;
	int ret, n = 0;

	ret = taskdiag__request(td, &req);
	if (ret)
		return ret;
	while ((ret = taskdiag__next(td, &task)) > 0)
		n++;
	td->state = TD_IDLE;
	if (ret < 0)
		return ret;
	if (n != 1)
		return td_err(td, -EPROTO, "probe: %d tasks instead of 1", n);
	return 0;
}

static int td_kernel_send(struct taskdiag *td)
{
	const struct taskdiag_source *src = td->stream.src;
	char req[64];
	size_t len;
	int err;

	len = td_request_build(td, req, sizeof(req));
	td_stream_reset(td);
	err = src->request(src->arg, req, len);
	if (err > 0 || err < -4095)
		err = -EIO;
	if (err)
		return td_err(td, err,
			      "request strategy %llu pid %u flags %#llx: %s",
			      (unsigned long long)td->strategy, td->pid,
			      (unsigned long long)td->show_flags,
			      td_strerror(-err));
	return 0;
}

const struct td_backend_ops td_kernel_ops = {
	.backend	= TASKDIAG_BACKEND_KERNEL,
	.request	= td_kernel_send,
	.next		= td_stream_next,
};
