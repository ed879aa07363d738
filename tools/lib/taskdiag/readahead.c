// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Read-ahead of the answer (taskdiag_opts.read_ahead): a thread of the
 * session reads the next buffers while the caller uses the ones before, so
 * that the kernel filling them and the caller parsing overlap.
 *
 * The thread reads on, up to TD_RA_DEPTH buffers ahead, from a read that
 * returned data until the end of the answer or an error: the reads are
 * never held up by the caller, who may be busy elsewhere (perf reads two
 * answers side by side).  The end of the answer and every error reach the
 * caller in order and stop the thread, and the caller handles them as
 * without read-ahead (a grown buffer, a retry) with its own reads until
 * the next data.  The thread blocks all signals: the caller's handlers
 * never run on it.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* One buffer of the ring, and the result of the read into it */
struct td_ra_buf {
	char		*buf;
	size_t		size;
	size_t		count;		/* asked of the read */
	ssize_t		ret;
};

/*
 * The ring: bufs[head] to bufs[head + nr - 1] (modulo TD_RA_DEPTH) were read
 * and wait for the caller; the thread reads into the one after them.
 */
struct td_read_ahead {
	pthread_t			thread;
	pthread_mutex_t			lock;
	pthread_cond_t			cond;
	const struct taskdiag_source	*src;
	struct td_ra_buf		bufs[TD_RA_DEPTH];
	unsigned int			head;
	unsigned int			nr;
	__u32				seq;	/* of the answer read */
	size_t				answered; /* bytes of it read */
	bool				ramp;	/* short reads first */
	bool				reading; /* read on while there is room */
	bool				busy;	/* a read is in flight */
	bool				stop;
};

/* Read into the next free buffer: false once the thread is to stop */
static bool td_ra_read_one(struct td_read_ahead *ra)
{
	struct td_ra_buf *b;
	size_t count;
	ssize_t ret;
	char *buf;

	while (!ra->stop && !(ra->reading && ra->nr < TD_RA_DEPTH))
		pthread_cond_wait(&ra->cond, &ra->lock);
	if (ra->stop)
		return false;
	b = &ra->bufs[(ra->head + ra->nr) % TD_RA_DEPTH];
	buf = b->buf;
	count = td_read_count(ra->answered, b->size, ra->ramp);
	ra->busy = true;
	pthread_mutex_unlock(&ra->lock);
	ret = ra->src->read(ra->src->arg, buf, count);
	pthread_mutex_lock(&ra->lock);
	ra->busy = false;
	if (ra->reading) {
		b->count = count;
		b->ret = ret;
		ra->answered += ret > 0 ? ret : 0;
		ra->nr++;
		/* the end, or an error that the caller sees first */
		if (ret <= 0 || td_answer_ends(buf, ret, ra->seq))
			ra->reading = false;
	}
	pthread_cond_broadcast(&ra->cond);
	return true;
}

static void *td_ra_thread(void *arg)
{
	struct td_read_ahead *ra = arg;

	pthread_mutex_lock(&ra->lock);
	while (td_ra_read_one(ra))
		;
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

/* Every buffer of the ring as big as the stream's, the thread idle */
static bool td_ra_size_bufs(struct taskdiag *td, struct td_read_ahead *ra)
{
	struct td_ra_buf *b;
	char *buf;

	for (b = ra->bufs; b < ra->bufs + TD_RA_DEPTH; b++) {
		if (b->size >= td->stream.size)
			continue;
		buf = td_realloc(td, b->buf, td->stream.size);
		if (!buf)
			return false;
		b->buf = buf;
		b->size = td->stream.size;
	}
	return true;
}

/**
 * td_ra_start() - read ahead, after a read that held data
 * @td: the session, its read-ahead on
 *
 * The thread reads on unless it is already, or unless what it read before
 * (an error, the end) is still to be taken.  Without a thread or the
 * memory for the buffers the caller reads on its own, as without
 * read-ahead.
 */
void td_ra_start(struct taskdiag *td)
{
	struct td_read_ahead *ra = td->stream.ra;

	if (!ra) {
		ra = td_ra_new(td);
		if (!ra) {
			td->stream.read_ahead = false;
			return;
		}
		td->stream.ra = ra;
	}
	pthread_mutex_lock(&ra->lock);
	if (!ra->reading && !ra->nr && !ra->busy && td_ra_size_bufs(td, ra)) {
		ra->seq = td->seq;
		ra->answered = td->stream.answered;
		ra->ramp = !td->stream.whole;
		ra->reading = true;
		pthread_cond_broadcast(&ra->cond);
	}
	pthread_mutex_unlock(&ra->lock);
}

/**
 * td_ra_take() - the result of the next read ahead, in the stream's buffer
 * @td: the session
 * @ret: where the result of read goes
 *
 * The stream and the ring swap their buffers: the stream's holds what was
 * read, the previous one is the ring's for a later read.
 *
 * Return: false when no read is ahead: the caller reads itself.
 */
bool td_ra_take(struct taskdiag *td, ssize_t *ret)
{
	struct td_read_ahead *ra = td->stream.ra;
	struct td_stream *s = &td->stream;
	struct td_ra_buf *b, old;

	if (!ra)
		return false;
	pthread_mutex_lock(&ra->lock);
	while (!ra->nr && ra->reading)
		pthread_cond_wait(&ra->cond, &ra->lock);
	if (!ra->nr) {
		pthread_mutex_unlock(&ra->lock);
		return false;
	}
	b = &ra->bufs[ra->head];
	old = (struct td_ra_buf){ .buf = s->buf, .size = s->size };
	s->buf = b->buf;
	s->size = b->size;
	s->count = b->count;
	*ret = b->ret;
	*b = old;
	ra->head = (ra->head + 1) % TD_RA_DEPTH;
	ra->nr--;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	return true;
}

/**
 * td_ra_drop() - forget what was read ahead, before a new request or the end
 * @td: the session
 *
 * Waits for the read in flight, if any: the source is not read by two
 * threads at once.
 */
void td_ra_drop(struct taskdiag *td)
{
	struct td_read_ahead *ra = td->stream.ra;

	if (!ra)
		return;
	pthread_mutex_lock(&ra->lock);
	ra->reading = false;
	while (ra->busy)
		pthread_cond_wait(&ra->cond, &ra->lock);
	ra->nr = 0;
	pthread_mutex_unlock(&ra->lock);
}

/**
 * td_ra_free() - stop the thread and free its buffers
 * @td: the session
 */
void td_ra_free(struct taskdiag *td)
{
	struct td_read_ahead *ra = td->stream.ra;
	unsigned int i;

	if (!ra)
		return;
	pthread_mutex_lock(&ra->lock);
	ra->stop = true;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	pthread_join(ra->thread, NULL);
	pthread_cond_destroy(&ra->cond);
	pthread_mutex_destroy(&ra->lock);
	for (i = 0; i < TD_RA_DEPTH; i++)
		free(ra->bufs[i].buf);
	free(ra);
	td->stream.ra = NULL;
}
