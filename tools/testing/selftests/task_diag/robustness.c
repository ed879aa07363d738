// SPDX-License-Identifier: GPL-2.0
/*
 * What a reader of /proc/task-diag costs the system and how it is
 * bounded: the memory a file keeps is charged to the reader's memory
 * cgroup.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "td_test.h"

#define NR_FDS		256
#define CHUNK		(32 * 1024)	/* the skb a file keeps */

/* The number a file like memory.current holds, or -1 */
static long long read_ll(const char *path)
{
	char *buf = read_file(path, NULL);
	long long v = buf ? atoll(buf) : -1;

	free(buf);
	return v;
}

/* In cgroup @procs: open NR_FDS files, a request and a read on each */
static void open_and_read(const char *procs, int ready, int go)
{
	char pid[16], buf[4096], c = 0;
	int i, fd;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_str(procs, pid) || write(ready, &c, 1) != 1 ||
	    read(go, &c, 1) != 1)
		_exit(1);
	for (i = 0; i < NR_FDS; i++) {
		fd = td_open();
		if (fd < 0 || td_request(fd, TASK_DIAG_SHOW_BASE,
					 TASK_DIAG_DUMP_ONE, getpid(), 1) ||
		    read(fd, buf, sizeof(buf)) <= 0)
			_exit(2);
	}
	if (write(ready, &c, 1) != 1)
		_exit(1);
	pause();
	_exit(0);
}

/*
 * Each open file keeps its read buffer (one 32 KiB skb) between reads:
 * charged to the memory cgroup of the process that read, not to nobody.
 */
TEST(read_buffers_charged_to_memcg)
{
	char dir[] = "/tmp/td-cgroup.XXXXXX", path[128], c;
	int ready[2], go[2], status;
	long long before, after;
	pid_t pid;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, mount("none", dir, "cgroup2", 0, NULL)) TH_LOG("%m");
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
	ASSERT_EQ(0, write_str(path, "+memory")) TH_LOG("%s: %m", path);
	snprintf(path, sizeof(path), "%s/td", dir);
	ASSERT_EQ(0, mkdir(path, 0755));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		snprintf(path, sizeof(path), "%s/td/cgroup.procs", dir);
		open_and_read(path, ready[1], go[0]);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	snprintf(path, sizeof(path), "%s/td/memory.current", dir);
	before = read_ll(path);
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(1, read(ready[0], &c, 1));
	after = read_ll(path);
	TH_LOG("%d files: memory.current %lld -> %lld", NR_FDS, before, after);
	EXPECT_LE(0, before);
	EXPECT_LE(before + NR_FDS * CHUNK * 9LL / 10, after);

	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	snprintf(path, sizeof(path), "%s/td", dir);
	EXPECT_EQ(0, rmdir(path));
	EXPECT_EQ(0, umount(dir));
	rmdir(dir);
}

TEST_HARNESS_MAIN
