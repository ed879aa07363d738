// SPDX-License-Identifier: GPL-2.0
/*
 * rawread: read what a tool needs about every task through the raw
 * interfaces, and count the system calls it took.
 *
 *	rawread proc-stat	/proc/PID/stat of every process
 *	rawread proc-maps	/proc/PID/task/TID/maps of every thread
 *	rawread td-base		one TASK_DIAG_DUMP_ALL, TASK_DIAG_SHOW_BASE
 *	rawread td-maps		one TASK_DIAG_DUMP_ALL_THREAD, BASE + VMA
 *
 * Prints "<mode> <tasks> <bytes> <syscalls> <seconds>", the time of the
 * reading alone, without the start of the program.  No parsing beyond what is
 * needed to find the tasks: this measures the interfaces, not a client.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/task_diag.h>

static unsigned long syscalls, bytes, tasks;
static char buf[256 * 1024];

static void read_file(const char *path)
{
	ssize_t n;
	int fd;

	syscalls++;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	do {
		syscalls++;
		n = read(fd, buf, sizeof(buf));
		if (n > 0)
			bytes += n;
	} while (n > 0);
	syscalls++;
	close(fd);
}

/* Call @fn for every numeric entry of @path; count the readdir calls */
static void for_each_pid(const char *path, void (*fn)(const char *, const char *),
			 const char *arg)
{
	struct dirent *de;
	DIR *d;

	syscalls += 3;		/* open, getdents (at least once), close */
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
			fn(de->d_name, arg);
	closedir(d);
}

static void stat_of(const char *pid, const char *arg)
{
	char path[300];

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	read_file(path);
	tasks++;
}

static void maps_of_thread(const char *tid, const char *pid)
{
	char path[300];

	snprintf(path, sizeof(path), "/proc/%s/task/%s/maps", pid, tid);
	read_file(path);
	tasks++;
}

static void threads_of(const char *pid, const char *arg)
{
	char path[300];

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%s/task", pid);
	for_each_pid(path, maps_of_thread, pid);
}

static int task_diag(__u64 strategy, __u64 show)
{
	struct {
		struct nlmsghdr nlh;
		struct task_diag_pid req;
	} msg = {
		.nlh = { .nlmsg_len = sizeof(msg), .nlmsg_type = TASK_DIAG_CMD_GET },
		.req = { .show_flags = show, .dump_strategy = strategy },
	};
	ssize_t n;
	int fd;

	syscalls += 2;
	fd = open("/proc/task-diag", O_RDWR);
	if (fd < 0 || write(fd, &msg, sizeof(msg)) != sizeof(msg)) {
		perror("/proc/task-diag");
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		int len = n;

		syscalls++;
		bytes += n;
		for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			struct task_diag_msg *m = NLMSG_DATA(h);

			if (h->nlmsg_type == NLMSG_DONE)
				break;
			tasks += !(m->flags & TASK_DIAG_FLAG_CONT);
		}
	}
	syscalls += 2;
	close(fd);
	return n < 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	struct timespec t0, t1;
	int err = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!strcmp(mode, "proc-stat"))
		for_each_pid("/proc", stat_of, NULL);
	else if (!strcmp(mode, "proc-maps"))
		for_each_pid("/proc", threads_of, NULL);
	else if (!strcmp(mode, "td-base"))
		err = task_diag(TASK_DIAG_DUMP_ALL, TASK_DIAG_SHOW_BASE);
	else if (!strcmp(mode, "td-maps"))
		err = task_diag(TASK_DIAG_DUMP_ALL_THREAD,
				TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA);
	else {
		fprintf(stderr, "usage: rawread proc-stat|proc-maps|td-base|td-maps\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%s %lu %lu %lu %.6f\n", mode, tasks, bytes, syscalls,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return err;
}
