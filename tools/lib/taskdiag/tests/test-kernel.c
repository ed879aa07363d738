// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Tests of the kernel backend on the real /proc/task-diag; skipped where
 * there is none (run them in the guest: tests/guest_compare.sh does).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "tests.h"

static struct taskdiag *kernel_session(size_t buf_size)
{
	struct taskdiag_opts opts = {
		.sz = sizeof(opts),
		.backend = TASKDIAG_BACKEND_KERNEL,
		.buf_size = buf_size,
	};

	return taskdiag__new(&opts);
}

static bool no_kernel(void)
{
	return access("/proc/task-diag", F_OK) != 0;
}

static int request_errors(void)
{
	struct taskdiag *td;
	int e[4];

	if (no_kernel())
		SKIP("no /proc/task-diag: not the task_diag kernel");
	td = kernel_session(0);
	CHECK(td);
	e[0] = td_request(td, TASK_DIAG_DUMP_ONE, 0x3ffffff0, 0);
	e[1] = td_request(td, 17, 0, 0);
	e[2] = td_request(td, TASK_DIAG_DUMP_ALL, 0,
				 TASK_DIAG_SHOW_VMA_STAT);
	e[3] = td_request(td, TASK_DIAG_DUMP_ONE, 0, 0);
	taskdiag__delete(td);
	CHECK_EQ(e[0], -ESRCH);
	CHECK_EQ(e[1], -EINVAL);
	CHECK_EQ(e[2], -EINVAL);
	CHECK_EQ(e[3], -ESRCH);
	return 0;
}

/* A request while the previous answer is unread (EBUSY) still works */
static int request_mid_answer(void)
{
	struct taskdiag_task *task;
	struct taskdiag *td;
	struct run r;
	int ret;

	if (no_kernel())
		SKIP("no /proc/task-diag: not the task_diag kernel");
	td = kernel_session(0);
	CHECK(td);
	ret = td_request(td, TASK_DIAG_DUMP_ALL, 0, TASK_DIAG_SHOW_BASE);
	if (!ret)
		ret = taskdiag__next(td, &task) == 1 ? 0 : -1;
	if (!ret)
		ret = td_request(td, TASK_DIAG_DUMP_ONE, getpid(),
					TASK_DIAG_SHOW_BASE);
	if (!ret)
		ret = run_all(td, &r);
	taskdiag__delete(td);
	CHECK_EQ(ret, 0);
	CHECK_EQ(r.nr_tasks, 1);
	CHECK_EQ(r.pids[0], getpid());
	return 0;
}

/* An idle child: its maps do not change while we look */
static pid_t idle_child(void)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (pid > 0 && read(p[0], &c, 1) != 1)
		pid = -1;
	close(p[0]);
	return pid;
}

static int read_maps(pid_t pid, char *maps, size_t size)
{
	char path[64];
	size_t off = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	while ((n = read(fd, maps + off, size - off - 1)) > 0)
		off += n;
	close(fd);
	maps[off] = '\0';
	return 0;
}

/* The VMAs of @task are the lines of @maps, [vsyscall] included */
static int same_as_maps(const struct taskdiag_task *task, const char *maps)
{
	const struct taskdiag_vma *v;
	char line[8192];
	size_t i, off = 0;
	int n;

	taskdiag_task__for_each_vma(task, i, v) {
		n = taskdiag_vma__format(v, line, sizeof(line));
		if (strncmp(maps + off, line, n) || maps[off + n] != '\n') {
			printf("# got  %s\n# maps %.*s\n", line, n, maps + off);
			return -1;
		}
		off += n + 1;
	}
	CHECK(!maps[off]);
	return 0;
}

/* A task's VMAs, in a buffer that grows from 64 bytes, are its maps */
static int maps_in_small_buffer(void)
{
	static char maps[1 << 20];
	struct taskdiag_task *task;
	struct taskdiag *td;
	int ret = -1;
	pid_t pid;

	if (no_kernel())
		SKIP("no /proc/task-diag: not the task_diag kernel");
	pid = idle_child();
	CHECK(pid > 0);
	td = kernel_session(64);
	if (!td || read_maps(pid, maps, sizeof(maps)) ||
	    td_request(td, TASK_DIAG_DUMP_ONE, pid,
			      TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_VMA_STAT) ||
	    taskdiag__next(td, &task) != 1)
		goto out;
	ret = same_as_maps(task, maps);
	if (!ret && (taskdiag__buf_size(td) <= 64 ||
		     taskdiag__next(td, &task) != 0))
		ret = -1;
out:
	if (ret)
		printf("# %s\n", taskdiag__errmsg(td));
	taskdiag__delete(td);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return ret;
}

const struct td_test kernel_tests[] = {
	TD_TEST(request_errors),
	TD_TEST(request_mid_answer),
	TD_TEST(maps_in_small_buffer),
	{ }
};
