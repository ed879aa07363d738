// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An in-memory source for the tests and the fuzzer.
 */
#include <errno.h>
#include <string.h>
#include <linux/netlink.h>

#include "source.h"

/*
 * Under ASan, what a read did not fill is poisoned until the next read, so
 * that the parser cannot read past what it was given even inside its
 * buffer.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TD_ASAN 1
#endif
#endif
#if defined(TD_ASAN) || defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define poison(p, len)		ASAN_POISON_MEMORY_REGION(p, len)
#define unpoison(p, len)	ASAN_UNPOISON_MEMORY_REGION(p, len)
#else
static inline void poison(void *p, size_t len) { }
static inline void unpoison(void *p, size_t len) { }
#endif

/*
 * As many whole messages as fit in @len, like the kernel; a malformed
 * length makes the rest one message.  -EMSGSIZE if the first does not fit.
 */
ssize_t mem_whole_msgs(const char *p, size_t left, size_t len)
{
	size_t n = 0, mlen;
	__u32 l;

	while (n < left) {
		mlen = left - n;
		if (mlen >= NLMSG_HDRLEN) {
			memcpy(&l, p + n, sizeof(l));
			if (l >= NLMSG_HDRLEN && ((size_t)l + 3) / 4 * 4 <= mlen)
				mlen = ((size_t)l + 3) / 4 * 4;
		}
		if (n + mlen > len)
			break;
		n += mlen;
	}
	return n ? (ssize_t)n : -EMSGSIZE;
}

static ssize_t mem_next_len(struct mem_source *ms, size_t len)
{
	size_t left = ms->len - ms->off, n;

	if (!left)
		return 0;
	if (ms->cut < ms->nr_cuts && ms->cuts[ms->cut] > ms->off) {
		n = ms->cuts[ms->cut] - ms->off;
		if (n > left)
			n = left;
		if (n > len)
			return -EMSGSIZE;
		ms->cut++;
		return n;
	}
	if (ms->chunk) {
		n = ms->chunk < left ? ms->chunk : left;
		return n < len ? n : len;
	}
	return mem_whole_msgs(ms->data + ms->off, left, len);
}

static ssize_t mem_read(void *arg, void *buf, size_t len)
{
	struct mem_source *ms = arg;
	ssize_t n;

	unpoison(buf, len);
	ms->nr_reads++;
	if (ms->eintr > 0) {
		ms->eintr--;
		return -EINTR;
	}
	if (ms->err && ms->nr_reads == ms->err_at)
		return ms->err;
	n = mem_next_len(ms, len);
	if (n > 0) {
		memcpy(buf, ms->data + ms->off, n);
		ms->off += n;
		poison((char *)buf + n, len - n);
	}
	return n;
}

/* Every request gets the same answer, from its start */
static int mem_request(void *arg, const void *req, size_t len)
{
	struct mem_source *ms = arg;

	ms->nr_requests++;
	ms->req_len = len < sizeof(ms->req) ? len : sizeof(ms->req);
	memcpy(ms->req, req, ms->req_len);
	ms->off = 0;
	ms->cut = 0;
	return ms->request_err;
}

void mem_source_init(struct mem_source *ms, const void *data, size_t len)
{
	memset(ms, 0, sizeof(*ms));
	ms->src.sz = sizeof(ms->src);
	ms->src.request = mem_request;
	ms->src.read = mem_read;
	ms->src.arg = ms;
	ms->data = data;
	ms->len = len;
}
