// SPDX-License-Identifier: GPL-2.0
/*
 * A 32-bit (i386) caller of /proc/task-diag on a 64-bit kernel: built with
 * -m32, it writes the request with the i386 layout of the UAPI structures
 * and reads records whose 64-bit fields are only 4-byte aligned there.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <unistd.h>

#include "td_test.h"

/* The same layout on every ABI: no tail padding left to the compiler */
_Static_assert(sizeof(struct task_diag_pid) == 24, "task_diag_pid");
_Static_assert(sizeof(struct task_diag_stat) == 72, "task_diag_stat");
_Static_assert(sizeof(struct task_diag_statm) == 128, "task_diag_statm");
_Static_assert(sizeof(struct task_diag_vma) == 72, "task_diag_vma");
_Static_assert(offsetof(struct task_diag_vma, build_id_off) ==
	       TASK_DIAG_VMA_SIZE_VER0, "task_diag_vma: v3's size");
_Static_assert(sizeof(struct task_diag_vma_stat) == 80, "task_diag_vma_stat");

TEST(built_32bit)
{
	ASSERT_EQ(4U, sizeof(long)) TH_LOG("compat32 must be built with -m32");
}

/* Every group of a stopped child equals what /proc says, read by i386 */
TEST(groups_match_proc)
{
	struct td_diff df = {};
	struct td_dump d;
	pid_t pid;

	TD_SKIP_IF_MISSING();
	pid = spawn_child(NULL, NULL);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, stop_child(pid));
	ASSERT_EQ(0, td_dump(&d, TD_SHOW_ALL, TASK_DIAG_DUMP_ONE, pid,
			     TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	ASSERT_EQ(1U, d.nr_tasks);
	base_diff(&d.tasks[0], pid, 0, &df);
	creds_diff(&d.tasks[0], pid, &df);
	stat_diff(&d.tasks[0], pid, 0, &df);
	statm_diff(&d.tasks[0], pid, &df);
	vmas_vs_proc(&d.tasks[0], pid, &df);
	EXPECT_NO_DIFF(&df);
	td_dump_free(&d);
	kill_reap(pid);
}

/* What an i386 program built against the first header sends: 20 bytes */
TEST(first_version_request)
{
	char buf[TD_REQ_MIN];
	struct td_dump d;
	int fd;

	TD_SKIP_IF_MISSING();
	fd = td_open();
	ASSERT_LE(0, fd);
	td_req_fill(buf, sizeof(buf), TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ALL,
		    0, TD_SEQ);
	ASSERT_EQ((ssize_t)sizeof(buf), write(fd, buf, sizeof(buf)))
		TH_LOG("write: %m");
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, TD_SEQ);
	ASSERT_EQ(0, td_read_all(fd, &d, TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	EXPECT_EQ(1U, td_count(&d, getpid()));
	EXPECT_EQ(1U, td_count(&d, 1));
	td_dump_free(&d);
	close(fd);
}

TEST_HARNESS_MAIN
