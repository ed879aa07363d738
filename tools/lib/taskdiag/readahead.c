// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Read-ahead of the answer (taskdiag_opts.read_ahead): a thread of the
 * session reads the next buffer while the caller uses the one before, so
 * that the kernel filling one and the caller parsing the other overlap.
 *
 * At most one read is in flight, into the session's second buffer, and only
 * after a read that returned data: the end of the answer and every error
 * reach the caller in order, which handles them as without read-ahead (a
 * grown buffer, a retry) with its own reads until the next data.  The
 * thread blocks all signals: the caller's handlers never run on it.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct td_read_ahead {
	pthread_t			thread;
	pthread_mutex_t			lock;
	pthread_cond_t			cond;
	const struct taskdiag_source	*src;
	char				*buf;
	size_t				size;
	ssize_t				ret;	/* of the read into buf */
	bool				want;	/* a read into buf is asked for */
	bool				done;	/* ret is its result */
	bool				stop;
};

static void *td_ra_thread(void *arg)
{
	struct td_read_ahead *ra = arg;
	ssize_t ret;

	pthread_mutex_lock(&ra->lock);
	for (;;) {
		while (!ra->want && !ra->stop)
			pthread_cond_wait(&ra->cond, &ra->lock);
		if (ra->stop)
			break;
		pthread_mutex_unlock(&ra->lock);
		ret = ra->src->read(ra->src->arg, ra->buf, ra->size);
		pthread_mutex_lock(&ra->lock);
		ra->ret = ret;
		ra->want = false;
		ra->done = true;
		pthread_cond_broadcast(&ra->cond);
	}
	pthread_mutex_unlock(&ra->lock);
	return NULL;
}

/* The thread, its signals blocked; NULL if it cannot be had */
static struct td_read_ahead *td_ra_new(struct taskdiag *td)
{
	struct td_read_ahead *ra = td_realloc(td, NULL, sizeof(*ra));
	sigset_t all, old;
	int err;

	if (!ra)
		return NULL;
	*ra = (struct td_read_ahead){ .src = td->stream.src };
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->cond, NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&ra->thread, NULL, td_ra_thread, ra);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		td_log(TASKDIAG_LOG_DEBUG, "no read-ahead thread: %s",
		       td_strerror(err));
		pthread_cond_destroy(&ra->cond);
		pthread_mutex_destroy(&ra->lock);
		free(ra);
		return NULL;
	}
	return ra;
}

/**
 * td_ra_start() - read the next buffer ahead, after one that held data
 * @td: the session, its read-ahead on
 *
 * Without a thread or the memory for a second buffer the caller reads on
 * its own, as without read-ahead.
 */
void td_ra_start(struct taskdiag *td)
{
	struct td_read_ahead *ra = td->stream.ra;
	char *buf;

	if (!ra) {
		ra = td_ra_new(td);
		if (!ra) {
			td->stream.read_ahead = false;
			return;
		}
		td->stream.ra = ra;
	}
	if (ra->size < td->stream.size) {
		buf = td_realloc(td, ra->buf, td->stream.size);
		if (!buf)
			return;
		ra->buf = buf;
		ra->size = td->stream.size;
	}
	pthread_mutex_lock(&ra->lock);
	ra->want = true;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
}

/* Wait for the read in flight, if any: true if there was one */
static bool td_ra_wait(struct td_read_ahead *ra)
{
	bool had;

	pthread_mutex_lock(&ra->lock);
	while (ra->want)
		pthread_cond_wait(&ra->cond, &ra->lock);
	had = ra->done;
	ra->done = false;
	pthread_mutex_unlock(&ra->lock);
	return had;
}

/**
 * td_ra_take() - the result of the read ahead, in the stream's buffer
 * @td: the session
 * @ret: where the result of read goes
 *
 * The stream and the thread swap their buffers: the stream's holds what
 * was read, the previous one is the thread's for the next read.
 *
 * Return: false when no read was ahead: the caller reads itself.
 */
bool td_ra_take(struct taskdiag *td, ssize_t *ret)
{
	struct td_read_ahead *ra = td->stream.ra;
	struct td_stream *s = &td->stream;
	size_t size;
	char *buf;

	if (!ra || !td_ra_wait(ra))
		return false;
	buf = s->buf;
	size = s->size;
	s->buf = ra->buf;
	s->size = ra->size;
	ra->buf = buf;
	ra->size = size;
	*ret = ra->ret;
	return true;
}

/**
 * td_ra_drop() - forget the read ahead, before a new request or the end
 * @td: the session
 */
void td_ra_drop(struct taskdiag *td)
{
	if (td->stream.ra)
		td_ra_wait(td->stream.ra);
}

/**
 * td_ra_free() - stop the thread and free its buffer
 * @td: the session
 */
void td_ra_free(struct taskdiag *td)
{
	struct td_read_ahead *ra = td->stream.ra;

	if (!ra)
		return;
	pthread_mutex_lock(&ra->lock);
	ra->stop = true;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	pthread_join(ra->thread, NULL);
	pthread_cond_destroy(&ra->cond);
	pthread_mutex_destroy(&ra->lock);
	free(ra->buf);
	free(ra);
	td->stream.ra = NULL;
}
