/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The input of the fuzzer: an answer of /proc/task-diag, as captured with
 * "taskdiag --dump-raw FILE", optionally followed by a trailer that tells
 * how to serve it.  Without a trailer the answer is read with the default
 * buffer, whole messages at a time.  @chunk cuts reads anywhere, in the
 * middle of messages too; 0 serves whole messages, as the kernel does.
 */
#ifndef __LIBTASKDIAG_FUZZ_H
#define __LIBTASKDIAG_FUZZ_H

#include <stddef.h>

#define FUZZ_MAGIC		"TDFZ"

#define FUZZ_F_EINTR		0x01	/* the first read fails with EINTR */
#define FUZZ_F_EIO		0x02	/* the second read fails with EIO */
#define FUZZ_F_ENOMEM		0x04	/* allocation number @arg fails */

struct fuzz_trailer {
	char		magic[4];
	unsigned char	buf_shift;	/* buffer: 64 << (buf_shift % 12) */
	unsigned char	chunk;		/* reads of chunk * 16 bytes at most */
	unsigned char	flags;		/* FUZZ_F_* */
	unsigned char	arg;
};

struct taskdiag_task;

/* use.c: touch everything @task gives, as a caller would */
size_t fuzz_use_task(const struct taskdiag_task *task);

#endif /* __LIBTASKDIAG_FUZZ_H */
