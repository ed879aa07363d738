// SPDX-License-Identifier: GPL-2.0
/*
 * rawread: read what a tool needs about every task through the raw
 * interfaces, and count the system calls it took.
 *
 * Pairs that read the same data:
 *	rawread proc-stat	/proc/PID/stat and /proc/PID/statm of every process
 *	rawread td-stat		one TASK_DIAG_DUMP_ALL, BASE + STAT + STATM
 *
 *	rawread proc-maps	/proc/PID/maps of every process
 *	rawread query-maps	PROCMAP_QUERY of every VMA of every process, and its name
 *	rawread td-maps		one TASK_DIAG_DUMP_ALL, BASE + VMA
 *
 * and the executable mappings only, as perf synthesizes them:
 *	rawread query-exec	PROCMAP_QUERY_VMA_EXECUTABLE of every process
 *	rawread td-exec		one TASK_DIAG_DUMP_ALL, BASE + VMA + VMA_EXEC
 *
 * and the request of perf's synthesis, to see what perf adds to it:
 *	rawread td-perf		TASK_DIAG_DUMP_ALL_THREAD, BASE + VMA + VMA_EXEC +
 *				VMA_LEADERS
 *	rawread td-perf-data	the same with the data mappings (perf record -d)
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
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <linux/netlink.h>
#include <linux/task_diag.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

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
	snprintf(path, sizeof(path), "/proc/%s/statm", pid);
	read_file(path);
	tasks++;
}

static void maps_of(const char *pid, const char *arg)
{
	char path[300];

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	read_file(path);
	tasks++;
}

/* Every VMA of @pid (those of @arg's flags), one PROCMAP_QUERY each */
static void query_of(const char *pid, const char *arg)
{
	struct procmap_query q;
	char path[300];
	__u64 addr = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	syscalls++;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	for (;;) {
		memset(&q, 0, sizeof(q));
		q.size = sizeof(q);
		q.query_flags = PROCMAP_QUERY_COVERING_OR_NEXT_VMA |
				(arg ? PROCMAP_QUERY_VMA_EXECUTABLE : 0);
		q.query_addr = addr;
		q.vma_name_addr = (unsigned long)buf;
		q.vma_name_size = 4096;
		syscalls++;
		if (ioctl(fd, PROCMAP_QUERY, &q))
			break;
		bytes += sizeof(q) + q.vma_name_size;
		addr = q.vma_end;
	}
	syscalls++;
	close(fd);
	tasks++;
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

static void proc_stat(void)
{
	for_each_pid("/proc", stat_of, NULL);
}

static void proc_maps(void)
{
	for_each_pid("/proc", maps_of, NULL);
}

static void query_maps(void)
{
	for_each_pid("/proc", query_of, NULL);
}

static void query_exec(void)
{
	for_each_pid("/proc", query_of, "exec");
}

#define PERF_SHOW	(TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_VMA_LEADERS)

static const struct {
	const char	*name;
	void		(*walk)(void);	/* of /proc; or one task_diag dump: */
	__u64		show;
	__u64		strategy;
} modes[] = {
	{ "proc-stat", proc_stat },
	{ "td-stat", NULL, TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_STAT | TASK_DIAG_SHOW_STATM },
	{ "proc-maps", proc_maps },
	{ "query-maps", query_maps },
	{ "td-maps", NULL, TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA },
	{ "query-exec", query_exec },
	{ "td-exec", NULL, TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_VMA_EXEC },
	{ "td-perf", NULL, PERF_SHOW | TASK_DIAG_SHOW_VMA_EXEC, TASK_DIAG_DUMP_ALL_THREAD },
	{ "td-perf-data", NULL, PERF_SHOW, TASK_DIAG_DUMP_ALL_THREAD },
};

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	struct timespec t0, t1;
	unsigned int i;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(modes); i++)
		if (!strcmp(mode, modes[i].name))
			break;
	if (i == ARRAY_SIZE(modes)) {
		fprintf(stderr, "usage: rawread MODE, one of:");
		for (i = 0; i < ARRAY_SIZE(modes); i++)
			fprintf(stderr, " %s", modes[i].name);
		fprintf(stderr, "\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (modes[i].walk)
		modes[i].walk();
	else
		err = task_diag(modes[i].strategy, modes[i].show);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%s %lu %lu %lu %.6f\n", mode, tasks, bytes, syscalls,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return err;
}
