/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A struct taskdiag_source that serves an answer from memory: whole
 * messages as the kernel does, or cut where told, with faults on demand.
 */
#ifndef __LIBTASKDIAG_SOURCE_H
#define __LIBTASKDIAG_SOURCE_H

#include <stddef.h>
#include <sys/types.h>
#include <taskdiag/taskdiag.h>

struct mem_source {
	struct taskdiag_source	src;
	const char		*data;
	size_t			len;
	size_t			off;
	const size_t		*cuts;		/* where successive reads end */
	size_t			nr_cuts;
	size_t			cut;
	size_t			chunk;		/* cut every @chunk bytes */
	int			eintr;		/* -EINTR for so many reads */
	int			err;		/* returned by read number @err_at */
	int			err_at;
	int			request_err;	/* returned by request() */
	int			nr_reads;
	int			nr_requests;
	unsigned char		req[64];	/* the last request */
	size_t			req_len;
};

void mem_source_init(struct mem_source *ms, const void *data, size_t len);
ssize_t mem_whole_msgs(const char *p, size_t left, size_t len);

#endif /* __LIBTASKDIAG_SOURCE_H */
