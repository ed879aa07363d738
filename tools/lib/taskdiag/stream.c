// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The answer of the kernel (or of a source): read buffers of whole netlink
 * messages, one task per TASK_DIAG_CMD_GET message.  The buffer is reused
 * for every read and grows only when a message does not fit (-EMSGSIZE);
 * with read-ahead (readahead.c) the next ones are read while it is parsed,
 * and the first reads of an answer are short (td_read_count()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "parse.h"

static size_t td_buf_size(size_t size)
{
	if (!size)
		return TD_BUF_DEFAULT;
	if (size < TD_BUF_MIN)
		return TD_BUF_MIN;
	return size < TD_BUF_MAX ? size : TD_BUF_MAX;
}

int td_stream_init(struct taskdiag *td, const struct taskdiag_source *src,
		   size_t size)
{
	struct td_stream *s = &td->stream;

	s->src = src;
	s->size = td_buf_size(size);
	s->buf = td_realloc(td, NULL, s->size);
	if (!s->buf)
		return td_err(td, -ENOMEM, "no memory for a %zu-byte buffer",
			      s->size);
	td_stream_reset(td);
	return 0;
}

/* Forget the previous answer */
void td_stream_reset(struct taskdiag *td)
{
	struct td_stream *s = &td->stream;

	td_ra_drop(td);
	s->len = 0;
	s->off = 0;
	s->answered = 0;
	s->whole = false;
	s->cont = false;
	s->eof = false;
}

void td_stream_free(struct taskdiag *td)
{
	td_ra_free(td);
	free(td->stream.buf);
	td->stream.buf = NULL;
}

/* The next message needs more than the buffer: double it */
static int td_stream_grow(struct taskdiag *td)
{
	struct td_stream *s = &td->stream;
	size_t size = s->size * 2;
	char *buf;

	if (s->size >= TD_BUF_MAX)
		return td_fail(td, td_err(td, -EMSGSIZE,
				   "a message does not fit in %zu bytes",
				   s->size));
	if (size > TD_BUF_MAX)
		size = TD_BUF_MAX;
	buf = td_realloc(td, s->buf, size);
	if (!buf)
		return td_fail(td, td_err(td, -ENOMEM,
				   "no memory for a %zu-byte buffer", size));
	td_log(TASKDIAG_LOG_DEBUG, "read buffer grown to %zu bytes", size);
	s->buf = buf;
	s->size = size;
	return 0;
}

/**
 * td_answer_ends() - whether a buffer ends with the answer's NLMSG_DONE
 * @buf: what a read returned
 * @len: its length
 * @seq: the sequence number of the request
 *
 * As the kernel's last read does: then there is nothing to read ahead.
 * Only a hint (the tail of a task's message could look the same): the
 * parser still finds the end on its own, and reads on if it was not.
 *
 * Return: true if the last message of @buf is NLMSG_DONE of @seq.
 */
bool td_answer_ends(const char *buf, size_t len, __u32 seq)
{
	const size_t done = NLMSG_HDRLEN + sizeof(int);
	struct nlmsghdr h;

	if (len < done)
		return false;
	memcpy(&h, buf + len - done, sizeof(h));
	return h.nlmsg_len == done && h.nlmsg_type == NLMSG_DONE &&
	       h.nlmsg_seq == seq;
}

/**
 * td_read_count() - how many bytes to ask of the next read of an answer
 * @answered: bytes of the answer read before
 * @size: the buffer's size
 * @ramp: the first reads are to be short (read-ahead)
 *
 * With @ramp, TD_RAMP_FIRST and then 1/TD_RAMP_SHARE of what was read: a
 * short answer still comes in several reads, the first parsed while the
 * kernel writes the next, instead of parsed after the kernel wrote all of
 * it in one read.
 *
 * Return: the length of the read, at most @size.
 */
size_t td_read_count(size_t answered, size_t size, bool ramp)
{
	size_t count = answered / TD_RAMP_SHARE;

	if (!ramp)
		return size;
	if (count < TD_RAMP_FIRST)
		count = TD_RAMP_FIRST;
	return count < size ? count : size;
}

/*
 * Read the next buffer, or take the one read ahead: 1, or 0 at the end.
 * EINTR is retried, up to TD_EINTR_MAX times in a row; other errors of the
 * source are returned and the next call tries again (the kernel loses
 * nothing).
 */
static int td_stream_fill(struct taskdiag *td)
{
	struct td_stream *s = &td->stream;
	int eintr = 0, err;
	ssize_t n;

	for (;;) {
		if (!td_ra_take(td, &n)) {
			s->count = td_read_count(s->answered, s->size,
						 s->read_ahead && !s->whole);
			n = s->src->read(s->src->arg, s->buf, s->count);
		}
		if (n > 0 && (size_t)n <= s->count) {
			s->len = n;
			s->off = 0;
			s->answered += n;
			if (s->read_ahead &&
			    !td_answer_ends(s->buf, s->len, td->seq))
				td_ra_start(td);
			return 1;
		}
		if (!n) {
			s->eof = true;
			return 0;
		}
		if (n > 0 || n < -4095)
			return td_fail(td, td_err(td, -EPROTO,
					   "read returned %zd for %zu bytes",
					   n, s->count));
		if (n == -EINTR && ++eintr < TD_EINTR_MAX)
			continue;
		if (n != -EMSGSIZE)
			return td_err(td, n, "reading the answer: %s",
				      td_strerror(-n));
		if (s->count < s->size) {
			s->whole = true;	/* longer than a short read */
			continue;
		}
		err = td_stream_grow(td);
		if (err)
			return err;
	}
}

/* One message: 1 when it completes a task, 0 to go on, or -errno */
static int td_stream_msg(struct taskdiag *td, const struct td_nlmsg *msg)
{
	struct td_stream *s = &td->stream;

	if (msg->hdr.nlmsg_seq != td->seq)
		return td_err(td, -EPROTO, "message of sequence %u, not %u",
			      msg->hdr.nlmsg_seq, td->seq);

	switch (msg->hdr.nlmsg_type) {
	case TASK_DIAG_CMD_GET:
		return td_reasm_msg(td, msg->data, msg->len);
	case NLMSG_DONE:
		s->eof = true;
		s->off = s->len;
		return 0;
	case NLMSG_ERROR:
		return td_nlmsg_error(td, msg);
	case NLMSG_NOOP:
		return 0;
	default:
		return td_err(td, -EPROTO, "unexpected message type %#x",
			      msg->hdr.nlmsg_type);
	}
}

/**
 * td_stream_next() - read messages until a task is complete
 * @td: the session
 *
 * Return: 1 with td->task complete, 0 at the end of the answer, or -errno.
 */
int td_stream_next(struct taskdiag *td)
{
	struct td_stream *s = &td->stream;
	struct td_nlmsg msg;
	int ret;

	for (;;) {
		if (s->off == s->len) {
			if (s->eof) {
				ret = td_reasm_end(td);
				return ret ? td_fail(td, ret) : 0;
			}
			ret = td_stream_fill(td);
			if (ret < 0)
				return ret;
			continue;
		}
		ret = td_nlmsg_next(td, s->buf, s->len, &s->off, &msg);
		if (ret > 0)
			ret = td_stream_msg(td, &msg);
		if (ret)
			return ret < 0 ? td_fail(td, ret) : 1;
	}
}
