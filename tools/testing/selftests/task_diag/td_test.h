/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every task_diag test program includes: the kselftest harness and
 * the test-local helpers.
 */
#ifndef __TD_TEST_H
#define __TD_TEST_H

/*
 * The functions that TEST(), FIXTURE_SETUP() and friends generate do not
 * use all their parameters, and TEST_F()'s wrapper keeps a local across
 * setjmp(): keep -Wextra quiet about the harness's code in test files
 * (the helpers are built with the full -Wextra).
 */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wclobbered"
#endif
#include "kselftest_harness.h"

#include "task_diag_util.h"
#include "td_compare.h"
#include "test_util.h"

/* In a FIXTURE_SETUP() or TEST(): skip when the kernel has no task_diag */
#define TD_SKIP_IF_MISSING()						\
	do {								\
		if (!td_available())					\
			SKIP(return, "%s missing (CONFIG_TASK_DIAG=n?)", \
			     TD_PATH);					\
	} while (0)

#define TD_SKIP_IF_NOT_ROOT()						\
	do {								\
		if (geteuid())						\
			SKIP(return, "needs root");			\
	} while (0)

/* Log the first protocol error a dump found, if any */
#define TD_EXPECT_CLEAN(d)						\
	EXPECT_EQ(0U, (d)->nr_errors)					\
		TH_LOG("%u protocol errors, first: %s", (d)->nr_errors,	\
		       (d)->error)

/* No difference between task_diag and /proc in @df */
#define EXPECT_NO_DIFF(df)						\
	EXPECT_EQ(0, (df)->n) TH_LOG("%s", (df)->why)

/* Each of @pids reported exactly once in @d */
static inline void td_expect_each_once(struct __test_metadata *_metadata,
				       struct td_dump *d, const pid_t *pids,
				       int n)
{
	int i, missing = 0, first = 0;

	for (i = 0; i < n; i++) {
		if (td_count(d, pids[i]) == 1)
			continue;
		if (!missing++)
			first = pids[i];
	}
	EXPECT_EQ(0, missing)
		TH_LOG("%d tasks not reported once, pid %d %u times", missing,
		       first, td_count(d, first));
}

/*
 * Dump one task with ONE, read in @bufsize reads: @d then holds exactly
 * that task, without protocol errors
 */
static inline void td_dump_one(struct __test_metadata *_metadata,
			       struct td_dump *d, __u64 show, pid_t pid,
			       size_t bufsize)
{
	ASSERT_EQ(0, td_dump(d, show, TASK_DIAG_DUMP_ONE, pid, bufsize));
	TD_EXPECT_CLEAN(d);
	ASSERT_EQ(1U, d->nr_tasks);
	ASSERT_EQ((__u32)pid, d->tasks[0].pid);
}

/* No task reported twice in @d */
static inline void td_expect_no_dups(struct __test_metadata *_metadata,
				     struct td_dump *d)
{
	__u32 dup = 0;

	EXPECT_EQ(0U, td_nr_dups(d, &dup)) TH_LOG("pid %u reported twice", dup);
}

#endif /* __TD_TEST_H */
