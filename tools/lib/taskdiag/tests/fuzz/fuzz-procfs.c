// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: the text parsers of the procfs backend.  An input is
 * the files of a fake /proc/1 separated by NUL bytes, in this order:
 * status, stat, statm, maps, smaps, task/1/children (missing ones are
 * empty).  They are written to a directory of /dev/shm, which the
 * procfs backend reads as its procfs, with every strategy and group.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <taskdiag/taskdiag.h>

#include "fuzz.h"

static const char * const files[] = {
	"1/status", "1/stat", "1/statm", "1/maps", "1/smaps",
	"1/task/1/children",
};

static char root[64];

static int write_file(const char *name, const uint8_t *data, size_t len)
{
	char path[PATH_MAX];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	ret = len && write(fd, data, len) != (ssize_t)len ? -1 : 0;
	close(fd);
	return ret;
}

static void remove_root(void)
{
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, files[i]);
		unlink(path);
	}
	for (i = 4; i > 0; i--) {
		snprintf(path, sizeof(path), "%s%s", root,
			 i == 4 ? "/1/task/1" : i == 3 ? "/1/task" :
			 i == 2 ? "/1" : "");
		rmdir(path);
	}
}

/* The fake /proc/1, once; its files for each input */
static int make_root(void)
{
	static const char * const dirs[] = { "", "/1", "/1/task", "/1/task/1" };
	char path[PATH_MAX];
	size_t i;

	if (root[0])
		return 0;
	snprintf(root, sizeof(root), "/dev/shm/td-fuzz-procfs.%d", getpid());
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
	}
	atexit(remove_root);
	return 0;
}

static int write_files(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size, *sep;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		sep = data < end ? memchr(data, 0, end - data) : NULL;
		if (!sep)
			sep = end;
		if (write_file(files[i], data, sep - data))
			return -1;
		data = sep < end ? sep + 1 : end;
	}
	return 0;
}

static void dump(struct taskdiag *td, __u64 strategy, __u64 show)
{
	struct taskdiag_request_opts req = {
		.sz = sizeof(req), .strategy = strategy, .show_flags = show,
		.pid = 1,
	};
	struct taskdiag_task *task;
	size_t sum = 0;
	int ret;

	ret = taskdiag__request(td, &req);
	while (!ret && (ret = taskdiag__next(td, &task)) > 0) {
		sum += fuzz_use_task(task);
		ret = 0;
	}
	if (ret < 0 && !taskdiag__errmsg(td)[0])
		abort();	/* every error comes with a message */
	(void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	__u64 all = TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_CRED |
		    TASK_DIAG_SHOW_STAT | TASK_DIAG_SHOW_STATM |
		    TASK_DIAG_SHOW_VMA;
	struct taskdiag_opts opts = {
		.sz = sizeof(opts), .backend = TASKDIAG_BACKEND_PROCFS,
	};
	struct taskdiag *td;

	if (make_root() || write_files(data, size))
		abort();
	opts.proc_root = root;
	td = taskdiag__new(&opts);
	if (!td)
		abort();
	dump(td, TASK_DIAG_DUMP_ONE, all);
	dump(td, TASK_DIAG_DUMP_ALL, all | TASK_DIAG_SHOW_VMA_STAT);
	dump(td, TASK_DIAG_DUMP_ALL_THREAD, all | TASK_DIAG_SHOW_VMA_LEADERS |
	     TASK_DIAG_SHOW_VMA_EXEC);
	dump(td, TASK_DIAG_DUMP_CHILDREN, TASK_DIAG_SHOW_BASE);
	taskdiag__delete(td);
	return 0;
}
