/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A small TAP harness for libtaskdiag's tests: one function per
 * behaviour, named after it, returning 0 or -1 after a "# " diagnostic.
 */
#ifndef __LIBTASKDIAG_TESTS_H
#define __LIBTASKDIAG_TESTS_H

#include <stdio.h>
#include <taskdiag/taskdiag.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct td_test {
	const char	*name;
	int		(*fn)(void);
};

#define TD_TEST(fn)	{ #fn, fn }

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		printf("# %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
		return -1;						\
	}								\
} while (0)

#define CHECK_EQ(a, b) do {						\
	long long __a = (long long)(a), __b = (long long)(b);		\
	if (__a != __b) {						\
		printf("# %s:%d: %s == %lld, expected %s == %lld\n",	\
		       __FILE__, __LINE__, #a, __a, #b, __b);		\
		return -1;						\
	}								\
} while (0)

extern const struct td_test parse_tests[];
extern const struct td_test vma_tests[];
extern const struct td_test cont_tests[];
extern const struct td_test fault_tests[];
extern const struct td_test readahead_tests[];
extern const struct td_test session_tests[];
extern const struct td_test procfs_tests[];
extern const struct td_test capture_tests[];
extern const struct td_test kernel_tests[];

/* main.c: where test streams are saved as fuzzer seeds, or NULL */
extern const char *seeds_dir;
extern const char *current_test;
/* main.c: why the running test skipped itself */
extern const char *skip_reason;

#define SKIP(reason) do {						\
	skip_reason = (reason);						\
	return 1;							\
} while (0)

#endif /* __LIBTASKDIAG_TESTS_H */
