// SPDX-License-Identifier: GPL-2.0
/*
 * taskdiag --dump-raw: /proc/task-diag read through a source that also
 * appends every buffer read to a file, to capture real answers (for the
 * fuzzer's corpus, for instance).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd.h"

struct raw_source {
	struct taskdiag_source	src;
	int			fd;	/* /proc/task-diag */
	FILE			*out;
};

static int raw_request(void *arg, const void *req, size_t len)
{
	struct raw_source *raw = arg;
	ssize_t n = write(raw->fd, req, len);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static ssize_t raw_read(void *arg, void *buf, size_t len)
{
	struct raw_source *raw = arg;
	ssize_t n = read(raw->fd, buf, len);

	if (n < 0)
		return -errno;
	if (n > 0 && fwrite(buf, 1, n, raw->out) != (size_t)n)
		return -EIO;
	return n;
}

struct raw_source *raw_source__new(const char *proc_root, const char *path)
{
	struct raw_source *raw = calloc(1, sizeof(*raw));
	char file[PATH_MAX];

	if (!raw)
		return NULL;
	snprintf(file, sizeof(file), "%s/task-diag",
		 proc_root ? proc_root : "/proc");
	raw->fd = open(file, O_RDWR | O_CLOEXEC);
	if (raw->fd < 0)
		goto err_free;
	raw->out = fopen(path, "w");
	if (!raw->out)
		goto err_close;

	raw->src.sz = sizeof(raw->src);
	raw->src.request = raw_request;
	raw->src.read = raw_read;
	raw->src.arg = raw;
	return raw;

err_close:
	close(raw->fd);
err_free:
	free(raw);
	return NULL;
}

const struct taskdiag_source *raw_source__source(struct raw_source *raw)
{
	return &raw->src;
}

void raw_source__delete(struct raw_source *raw)
{
	if (!raw)
		return;
	fclose(raw->out);
	close(raw->fd);
	free(raw);
}
