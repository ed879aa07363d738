// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag_all: the example client of the original task_diag series,
 * ported to the v3 interface.  Dumps processes or threads, one line per
 * task ("pid ... tgid ... ppid ... sid ... pgid ... comm ..."), optionally
 * with their credentials and memory mappings.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <linux/task_diag.h>
#include "task_diag_comm.h"

static void usage(char *name)
{
	pr_err("Usage: %s command [options]", name);
	pr_err(
"Commands:\n"
"\tall         - dump all processes\n"
"\tAll         - dump all threads\n"
"\tthreads     - dump all threads of the specified process\n"
"\tchildren    - dump all children of the specified process\n"
"\tone         - dump the specified process\n"
"Options:\n"
"\t-p|--pid    - PID of the required process\n"
"\t-m|--maps   - dump memory regions\n"
"\t-s|--smaps  - dump statistics for memory regions\n"
"\t-c|--cred   - dump credentials"
);
}

static int parse_command(const char *cmd, struct task_diag_pid *req)
{
	req->pid = 0; /* dump all tasks by default */

	switch (cmd[0]) {
	case 'c':
		req->dump_strategy = TASK_DIAG_DUMP_CHILDREN;
		break;
	case 't':
		req->dump_strategy = TASK_DIAG_DUMP_THREAD;
		break;
	case 'o':
		req->dump_strategy = TASK_DIAG_DUMP_ONE;
		break;
	case 'a':
		req->dump_strategy = TASK_DIAG_DUMP_ALL;
		break;
	case 'A':
		req->dump_strategy = TASK_DIAG_DUMP_ALL_THREAD;
		break;
	default:
		return -1;
	}
	return 0;
}

static int parse_options(int argc, char **argv, struct task_diag_pid *req)
{
	static const char short_opts[] = "p:cms";
	static struct option long_opts[] = {
		{ "pid",	required_argument, 0, 'p' },
		{ "maps",	no_argument, 0, 'm' },
		{ "smaps",	no_argument, 0, 's' },
		{ "cred",	no_argument, 0, 'c' },
		{},
	};
	int opt, idx;

	while (1) {
		idx = -1;
		opt = getopt_long(argc, argv, short_opts, long_opts, &idx);
		if (opt == -1)
			break;
		switch (opt) {
		case 'p':
			req->pid = atoi(optarg);
			break;
		case 'c':
			req->show_flags |= TASK_DIAG_SHOW_CRED;
			break;
		case 'm':
			req->show_flags |= TASK_DIAG_SHOW_VMA;
			break;
		case 's':
			req->show_flags |= TASK_DIAG_SHOW_VMA_STAT |
					   TASK_DIAG_SHOW_VMA;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

/* Read and print the response until read() returns 0 */
static int receive(int fd)
{
	static char buf[163840];
	int last_pid = 0, err;
	ssize_t size;

	while (1) {
		size = read(fd, buf, sizeof(buf));
		if (size < 0) {
			pr_perror("read /proc/task-diag");
			return -1;
		}
		if (size == 0)
			return 0;

		err = nlmsg_receive(buf, size, &show_task, &last_pid);
		if (err < 0)
			return -1;
		if (err == 0)
			return 0;
	}
}

int main(int argc, char *argv[])
{
	struct nlmsghdr *hdr;
	struct task_diag_pid *req;
	char nl_req[4096];
	int fd, ret;

	if (argc < 2) {
		usage(argv[0]);
		return 1;
	}

	memset(nl_req, 0, sizeof(nl_req));
	hdr = (void *)nl_req;
	hdr->nlmsg_len = nlmsg_total_size(0) + nla_total_size(sizeof(*req));
	hdr->nlmsg_type = TASK_DIAG_CMD_GET;
	hdr->nlmsg_flags = NLM_F_REQUEST;
	req = nlmsg_data(hdr);
	req->show_flags = TASK_DIAG_SHOW_BASE;

	if (parse_command(argv[1], req) || parse_options(argc, argv, req)) {
		usage(argv[0]);
		return 1;
	}

	fd = open("/proc/task-diag", O_RDWR);
	if (fd < 0) {
		pr_perror("open /proc/task-diag");
		return 1;
	}

	if (write(fd, hdr, hdr->nlmsg_len) != (ssize_t)hdr->nlmsg_len) {
		pr_perror("write /proc/task-diag");
		return 1;
	}

	ret = receive(fd);
	close(fd);
	return ret ? 1 : 0;
}
