// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: an answer of /proc/task-diag (see fuzz.h for the
 * format of an input) read through libtaskdiag, every task looked at.
 * The source poisons what a read did not fill, faults are injected as the
 * trailer says.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "internal.h"
#include "source.h"

static int nr_allocs, fail_at = -1;

static void *fuzz_realloc(void *ptr, size_t size)
{
	if (nr_allocs++ == fail_at)
		return NULL;
	return realloc(ptr, size);
}

static void fuzz_session(const struct fuzz_trailer *t, struct mem_source *ms)
{
	struct taskdiag_opts opts = {
		.sz = sizeof(opts),
		.buf_size = 64UL << (t->buf_shift % 12),
		.source = &ms->src,
	};
	struct taskdiag_request_opts req = {
		.sz = sizeof(req),
		.strategy = TASK_DIAG_DUMP_ALL,
		.show_flags = ~0ULL,
	};
	struct taskdiag_task *task;
	int i, ret, transient = 0;
	struct taskdiag *td;
	size_t sum = 0;

	taskdiag__test_set_realloc(fuzz_realloc);
	td = taskdiag__new(&opts);
	taskdiag__test_set_realloc(NULL);
	if (!td)
		return;
	if (taskdiag__request(td, &req))
		goto out;
	for (i = 0; i < 1000000; i++) {
		ret = taskdiag__next(td, &task);
		if ((ret == -EINTR || ret == -EIO) && transient++ < 4)
			continue;
		if (ret <= 0)
			break;
		sum += fuzz_use_task(task);
	}
	if (ret < 0 && !taskdiag__errmsg(td)[0])
		abort();	/* every error comes with a message */
out:
	taskdiag__delete(td);
	(void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_trailer t = { .buf_shift = 11 };
	struct mem_source ms;
	char *copy;

	if (size >= sizeof(t) &&
	    !memcmp(data + size - sizeof(t), FUZZ_MAGIC, 4)) {
		memcpy(&t, data + size - sizeof(t), sizeof(t));
		size -= sizeof(t);
	}
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);

	mem_source_init(&ms, copy, size);
	ms.chunk = t.chunk * 16;
	ms.eintr = t.flags & FUZZ_F_EINTR ? 1 : 0;
	if (t.flags & FUZZ_F_EIO) {
		ms.err = -EIO;
		ms.err_at = 2;
	}
	nr_allocs = 0;
	fail_at = t.flags & FUZZ_F_ENOMEM ? t.arg : -1;
	fuzz_session(&t, &ms);
	free(copy);
	return 0;
}
