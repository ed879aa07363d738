// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Logging through the caller's callback, and the last error of a session.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static taskdiag_log_fn td_log_fn;
static void *td_log_arg;

void taskdiag__set_log(taskdiag_log_fn fn, void *arg)
{
	td_log_fn = fn;
	td_log_arg = arg;
}

static __printf(2, 0) void td_vlog(int level, const char *fmt, va_list ap)
{
	char msg[TD_ERRMSG_LEN];

	if (!td_log_fn)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	td_log_fn(level, msg, td_log_arg);
}

void td_log(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	td_vlog(level, fmt, ap);
	va_end(ap);
}

/*
 * Remember @fmt as the last error of @td, log it and return @err, so that
 * error paths read "return td_err(td, -EBADMSG, ...);".
 */
int td_err(struct taskdiag *td, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(td->errmsg, sizeof(td->errmsg), fmt, ap);
	va_end(ap);
	td_log(TASKDIAG_LOG_ERROR, "%s", td->errmsg);
	return err;
}

const char *taskdiag__errmsg(const struct taskdiag *td)
{
	return td ? td->errmsg : td_new_error();
}

/* strerror_r() of glibc with _GNU_SOURCE, or the XSI one (musl...) */
static const char *td_strerror_r(int err, char *buf, size_t size)
{
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
	return strerror_r(err, buf, size);
#else
	return strerror_r(err, buf, size) ? "Unknown error" : buf;
#endif
}

/* An error in words, in a buffer of the calling thread: for messages */
const char *td_strerror(int err)
{
	static __thread char buf[64];

	return taskdiag__strerror(err, buf, sizeof(buf));
}

const char *taskdiag__strerror(int err, char *buf, size_t size)
{
	const char *s;

	if (!buf || !size)
		return "";
	if (err < 0)
		err = -err;
	switch (err) {
	case EBADMSG:
		s = "malformed task-diag response";
		break;
	case EPROTO:
		s = "task-diag protocol error";
		break;
	default:
		s = td_strerror_r(err, buf, size);
	}
	if (s != buf)
		snprintf(buf, size, "%s", s);
	return buf;
}
