// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Answers captured from the kernel (tests/fuzz/corpus/real-*, see
 * tests/fuzz/capture.sh) read without an error, with the buffer size they
 * were captured with and with others.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "helpers.h"
#include "tests.h"

#ifndef TD_CORPUS_DIR
#define TD_CORPUS_DIR "tests/fuzz/corpus"
#endif

static char *load(const char *path, size_t *len)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	*len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return buf;
}

/* Read the answer in @data with a @buf_size buffer; the number of tasks */
static int replay(const char *data, size_t len, size_t buf_size)
{
	struct mem_source ms;
	struct taskdiag_opts opts = {
		.sz = sizeof(opts), .source = &ms.src, .buf_size = buf_size,
	};
	struct taskdiag *td;
	struct run r;
	int ret;

	mem_source_init(&ms, data, len);
	td = taskdiag__new(&opts);
	if (!td)
		return -ENOMEM;
	ret = td_request(td, TASK_DIAG_DUMP_ALL, 0, 0);
	if (!ret)
		ret = run_all(td, &r);
	taskdiag__delete(td);
	return ret ? ret : r.nr_tasks;
}

static int check_capture(const char *name)
{
	size_t len, sizes[] = { 64, 1000, 4096, 0 }, i;
	struct fuzz_trailer t;
	char path[512], *data;
	int n, ret;

	snprintf(path, sizeof(path), "%s/%s", TD_CORPUS_DIR, name);
	data = load(path, &len);
	CHECK(data && len > sizeof(t));
	memcpy(&t, data + len - sizeof(t), sizeof(t));
	if (!memcmp(t.magic, FUZZ_MAGIC, 4))
		len -= sizeof(t);
	n = replay(data, len, 64UL << (t.buf_shift % 12));
	if (n <= 0)
		printf("# %s: %d\n", name, n);
	CHECK(n > 0);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		ret = replay(data, len, sizes[i]);
		CHECK_EQ(ret, n);
	}
	return 0;
}

static int real_captures(void)
{
	DIR *dir = opendir(TD_CORPUS_DIR);
	struct dirent *d;
	int nr = 0, ret = 0;

	CHECK(dir);
	while (!ret && (d = readdir(dir))) {
		if (strncmp(d->d_name, "real-", 5))
			continue;
		ret = check_capture(d->d_name);
		nr++;
	}
	closedir(dir);
	CHECK(nr > 0);
	if (!ret)
		printf("# %d captures read\n", nr);
	return ret ? ret : !nr;
}

const struct td_test capture_tests[] = {
	TD_TEST(real_captures),
	{ }
};
