// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libtaskdiag's tests, as TAP: "ok N - suite/test".
 *
 *   test-static|test-shared [--write-seeds DIR] [-x SUITE]... [SUITE...]
 *
 * Runs the suites named (all by default) but those after -x.  With
 * --write-seeds, every answer a test builds is also saved in DIR as a seed
 * of the fuzzer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "helpers.h"
#include "tests.h"

const char *seeds_dir;
const char *current_test;
const char *skip_reason;
static int seed_nr;

static const struct {
	const char		*name;
	const struct td_test	*tests;
} suites[] = {
	{ "parse",	parse_tests },
	{ "vma",	vma_tests },
	{ "cont",	cont_tests },
	{ "faults",	fault_tests },
	{ "readahead",	readahead_tests },
	{ "session",	session_tests },
	{ "procfs",	procfs_tests },
	{ "captures",	capture_tests },
	{ "kernel",	kernel_tests },
};

/* Seeds stay small: the fuzzer mutates them faster */
#define SEED_MAX	(32 * 1024)

/* Save the answer of the running test as a seed of the fuzzer */
void save_seed(const void *data, size_t len, size_t buf_size)
{
	struct fuzz_trailer t = { .magic = FUZZ_MAGIC };
	char path[4096];
	FILE *f;

	if (!seeds_dir || len > SEED_MAX)
		return;
	while (t.buf_shift < 11 && (64UL << t.buf_shift) < buf_size)
		t.buf_shift++;
	snprintf(path, sizeof(path), "%s/%s-%d", seeds_dir, current_test,
		 seed_nr++);
	f = fopen(path, "w");
	if (!f || (len && fwrite(data, 1, len, f) != len) ||
	    fwrite(&t, 1, sizeof(t), f) != sizeof(t) || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* SUITE is named by the arguments ARGV, or by none of them but -x */
static bool wanted(const char *suite, int argc, char **argv)
{
	bool named = false, any = false;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-x") && i + 1 < argc) {
			if (!strcmp(argv[++i], suite))
				return false;
			continue;
		}
		any = true;
		named |= !strcmp(argv[i], suite);
	}
	return named || !any;
}

static int run_suite(const char *suite, const struct td_test *t, int *n)
{
	int failed = 0, ret;

	for (; t->name; t++) {
		current_test = t->name;
		skip_reason = NULL;
		seed_nr = 0;
		fflush(stdout);
		ret = t->fn();
		printf("%s %d - %s/%s%s%s\n", ret < 0 ? "not ok" : "ok", ++*n,
		       suite, t->name, ret > 0 ? " # SKIP " : "",
		       ret > 0 && skip_reason ? skip_reason : "");
		failed += ret < 0;
	}
	return failed;
}

int main(int argc, char **argv)
{
	int failed = 0, n = 0;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && !strcmp(argv[1], "--write-seeds")) {
		seeds_dir = argv[2];
		argc -= 2;
		argv += 2;
	}
	for (i = 0; i < ARRAY_SIZE(suites); i++)
		if (wanted(suites[i].name, argc - 1, argv + 1))
			failed += run_suite(suites[i].name, suites[i].tests,
					    &n);
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
