/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Bounds-checked views of netlink messages and attributes in a read
 * buffer.  Headers are copied out (the buffer guarantees no alignment);
 * payloads are pointers into the buffer with their length.
 */
#ifndef __LIBTASKDIAG_PARSE_H
#define __LIBTASKDIAG_PARSE_H

#include <stddef.h>
#include <linux/netlink.h>
#include <linux/task_diag.h>

struct taskdiag;

/* A netlink message */
struct td_nlmsg {
	struct nlmsghdr		hdr;
	const char		*data;		/* payload */
	size_t			len;		/* of the payload */
};

/* A TASK_DIAG_CMD_GET message: the task and its attributes */
struct td_tmsg {
	struct task_diag_msg	msg;
	const char		*attrs;
	size_t			attrs_len;
};

/* A netlink attribute */
struct td_attr {
	__u16			type;		/* without NLA_F_* */
	const char		*data;		/* payload */
	size_t			len;		/* of the payload */
};

int td_nlmsg_next(struct taskdiag *td, const char *buf, size_t len,
		  size_t *off, struct td_nlmsg *msg);
int td_nlmsg_error(struct taskdiag *td, const struct td_nlmsg *msg);
int td_tmsg_parse(struct taskdiag *td, const char *data, size_t len,
		  struct td_tmsg *tm);
int td_attr_next(struct taskdiag *td, const char *buf, size_t len,
		 size_t *off, struct td_attr *attr);

#endif /* __LIBTASKDIAG_PARSE_H */
