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

#endif /* __TD_TEST_H */
