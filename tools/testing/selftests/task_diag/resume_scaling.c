// SPDX-License-Identifier: GPL-2.0
/*
 * A response much larger than one read(): 10,000 children dumped with
 * 4 KiB reads, each resumed from where the previous read stopped.  Every
 * child must be reported exactly once.  The number of reads and the time
 * taken are logged for information only: nothing here is timed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdlib.h>
#include <unistd.h>

#include "td_test.h"

#define NR_CHILDREN	10000

FIXTURE(ten_thousand) {
	/* NR_CHILDREN sleeping children */
	pid_t *pids;
};

FIXTURE_SETUP(ten_thousand)
{
	double start;

	TD_SKIP_IF_MISSING();
	self->pids = calloc(NR_CHILDREN, sizeof(pid_t));
	ASSERT_NE(NULL, self->pids);
	start = now_sec();
	ASSERT_EQ(0, spawn_many(self->pids, NR_CHILDREN, 1));
	TH_LOG("%d children forked in %.2f s", NR_CHILDREN, now_sec() - start);
}

FIXTURE_TEARDOWN(ten_thousand)
{
	if (!self->pids)
		return;
	kill_reap_all(self->pids, NR_CHILDREN);
	free(self->pids);
}

TEST_F_TIMEOUT(ten_thousand, children_small_reads, 1500)
{
	struct td_dump d;
	double start;

	start = now_sec();
	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_CHILDREN,
			     getpid(), TD_BUF_SMALL));
	TH_LOG("CHILDREN: %zu tasks, %u reads of at most %d bytes, %zu bytes, %.3f s",
	       d.nr_tasks, d.nr_reads, TD_BUF_SMALL, d.nr_bytes,
	       now_sec() - start);
	TD_EXPECT_CLEAN(&d);
	EXPECT_EQ((size_t)NR_CHILDREN, d.nr_tasks);
	td_expect_no_dups(_metadata, &d);
	td_expect_each_once(_metadata, &d, self->pids, NR_CHILDREN);
	EXPECT_LE(d.max_read, (size_t)TD_BUF_SMALL);
	td_dump_free(&d);
}

TEST_HARNESS_MAIN
