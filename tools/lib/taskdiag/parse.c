// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The netlink parser: messages, the task header and attributes.
 *
 * A small in-tree parser rather than libnl:
 *  - perf links libtaskdiag statically and must not grow a dependency for
 *    it (libnl is optional on most distributions and absent on many
 *    embedded targets perf runs on);
 *  - it works in place on the read buffer: no message is copied or
 *    allocated (libnl builds a struct nl_msg per message), only the groups
 *    are copied out, once, to align them;
 *  - every length is checked here, against the read buffer and the
 *    enclosing message or attribute, with our own error messages, instead
 *    of trusting a general-purpose parser to catch what this format needs
 *    (the records inside TASK_DIAG_VMA are not netlink attributes at all);
 *  - the whole thing is a few hundred lines that the fuzzer covers.
 *
 * Every function either returns a view that lies inside the buffer it was
 * given or -EBADMSG with a message.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "parse.h"

#define TD_ALIGN4(len)	(((size_t)(len) + 3) & ~(size_t)3)

/* Move *@off by @step, but not past @len: the last padding may be missing */
static void td_advance(size_t *off, size_t step, size_t len)
{
	*off = step < len - *off ? *off + step : len;
}

/**
 * td_nlmsg_next() - the message at *@off of @buf
 * @td: the session, for errors
 * @buf: the read buffer
 * @len: the bytes in @buf
 * @off: where the message starts; moved past it
 * @msg: the message
 *
 * Return: 1 with a message, 0 at the end of @buf, -EBADMSG if what is left
 * is not a whole message.
 */
int td_nlmsg_next(struct taskdiag *td, const char *buf, size_t len,
		  size_t *off, struct td_nlmsg *msg)
{
	size_t left = len - *off;
	__u32 mlen;

	if (!left)
		return 0;
	if (left < NLMSG_HDRLEN)
		return td_err(td, -EBADMSG,
			      "truncated message header at offset %zu: %zu bytes",
			      *off, left);

	memcpy(&msg->hdr, buf + *off, sizeof(msg->hdr));
	mlen = msg->hdr.nlmsg_len;
	if (mlen < NLMSG_HDRLEN || mlen > left)
		return td_err(td, -EBADMSG,
			      "message at offset %zu: nlmsg_len %u not in [%d, %zu]",
			      *off, mlen, NLMSG_HDRLEN, left);

	msg->data = buf + *off + NLMSG_HDRLEN;
	msg->len = mlen - NLMSG_HDRLEN;
	td_advance(off, TD_ALIGN4(mlen), len);
	return 1;
}

/**
 * td_nlmsg_error() - the error an NLMSG_ERROR message carries
 * @td: the session, for errors
 * @msg: the message
 *
 * Return: 0 for an acknowledgment, the negative errno it carries, or
 * -EBADMSG if it is malformed.
 */
int td_nlmsg_error(struct taskdiag *td, const struct td_nlmsg *msg)
{
	char buf[64];
	int err;

	if (msg->len < sizeof(err))
		return td_err(td, -EBADMSG, "truncated NLMSG_ERROR: %zu bytes",
			      msg->len);
	memcpy(&err, msg->data, sizeof(err));
	if (!err)
		return 0;
	if (err > 0 || err < -4095)
		return td_err(td, -EBADMSG, "NLMSG_ERROR with error %d", err);
	return td_err(td, err, "the kernel answered with an error: %s",
		      taskdiag__strerror(err, buf, sizeof(buf)));
}

/**
 * td_tmsg_parse() - the task header and the attributes of a task message
 * @td: the session, for errors
 * @data: the payload of the message
 * @len: its length
 * @tm: the task header and where its attributes are
 *
 * Return: 0, or -EBADMSG if there is no struct task_diag_msg.
 */
int td_tmsg_parse(struct taskdiag *td, const char *data, size_t len,
		  struct td_tmsg *tm)
{
	size_t hdr = NLMSG_ALIGN(sizeof(tm->msg));

	if (len < sizeof(tm->msg))
		return td_err(td, -EBADMSG,
			      "task message of %zu bytes without task_diag_msg",
			      len);
	memcpy(&tm->msg, data, sizeof(tm->msg));
	if (hdr > len)
		hdr = len;
	tm->attrs = data + hdr;
	tm->attrs_len = len - hdr;
	return 0;
}

/**
 * td_attr_next() - the attribute at *@off of @buf
 * @td: the session, for errors
 * @buf: the attributes of a message
 * @len: their length
 * @off: where the attribute starts; moved past it
 * @attr: the attribute
 *
 * Return: 1 with an attribute, 0 at the end, -EBADMSG if what is left is
 * not a whole attribute.
 */
int td_attr_next(struct taskdiag *td, const char *buf, size_t len,
		 size_t *off, struct td_attr *attr)
{
	size_t left = len - *off;
	struct nlattr nla;

	if (!left)
		return 0;
	if (left < NLA_HDRLEN)
		return td_err(td, -EBADMSG,
			      "truncated attribute header: %zu bytes", left);

	memcpy(&nla, buf + *off, sizeof(nla));
	if (nla.nla_len < NLA_HDRLEN || nla.nla_len > left)
		return td_err(td, -EBADMSG,
			      "attribute %u: nla_len %u not in [%d, %zu]",
			      nla.nla_type & NLA_TYPE_MASK, nla.nla_len,
			      NLA_HDRLEN, left);

	attr->type = nla.nla_type & NLA_TYPE_MASK;
	attr->data = buf + *off + NLA_HDRLEN;
	attr->len = nla.nla_len - NLA_HDRLEN;
	td_advance(off, TD_ALIGN4(nla.nla_len), len);
	return 1;
}
