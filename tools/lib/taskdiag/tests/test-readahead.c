// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Read-ahead (taskdiag_opts.read_ahead): the source is read on a thread of
 * the session, and the caller gets the same tasks in the same order, the
 * same errors at the same places, as without it.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "internal.h"
#include "helpers.h"
#include "tests.h"

#define RA_READS_MAX	4096

/* A source that reads @ms and notes which thread made each read */
struct tid_source {
	struct taskdiag_source	src;
	struct mem_source	*ms;
	const struct sb		*next;		/* the answer of the next request */
	pid_t			tids[RA_READS_MAX];
	size_t			lens[RA_READS_MAX];	/* asked */
	int			nr_reads;
};

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

static ssize_t tid_read(void *arg, void *buf, size_t len)
{
	struct tid_source *ts = arg;

	int n = __atomic_load_n(&ts->nr_reads, __ATOMIC_RELAXED);

	if (n < RA_READS_MAX) {
		ts->tids[n] = gettid_();
		ts->lens[n] = len;
	}
	__atomic_store_n(&ts->nr_reads, n + 1, __ATOMIC_RELEASE);
	return ts->ms->src.read(ts->ms->src.arg, buf, len);
}

static int tid_request(void *arg, const void *req, size_t len)
{
	struct tid_source *ts = arg;

	if (ts->next) {
		ts->ms->data = ts->next->buf;
		ts->ms->len = ts->next->len;
		ts->next = NULL;
	}
	return ts->ms->src.request(ts->ms->src.arg, req, len);
}

/* A session on @sb through @ts (which reads @ms), read ahead or not */
static struct taskdiag *ra_session(struct tid_source *ts,
				   struct mem_source *ms, const struct sb *sb,
				   size_t buf_size, bool read_ahead)
{
	struct taskdiag_opts opts = {
		.sz = sizeof(opts),
		.buf_size = buf_size,
		.source = &ts->src,
		.read_ahead = read_ahead,
	};

	memset(ts, 0, sizeof(*ts));
	ts->src.sz = sizeof(ts->src);
	ts->src.request = tid_request;
	ts->src.read = tid_read;
	ts->src.arg = ts;
	ts->ms = ms;
	return mem_session_opts(ms, sb, &opts, SHOW_ALL);
}

/* Reads made on another thread than the caller's */
static int reads_elsewhere(const struct tid_source *ts)
{
	int i, n = 0;

	for (i = 0; i < ts->nr_reads && i < RA_READS_MAX; i++)
		n += ts->tids[i] != gettid_();
	return n;
}

/* @nr tasks of 0 to 9 VMAs, the answer to request number @seq */
static void many_tasks(struct sb *sb, __u32 seq, __u32 nr)
{
	__u32 pid;

	sb_init(sb, seq);
	for (pid = 1; pid <= nr; pid++)
		sb_task(sb, pid, pid, pid % 10);
}

/* With a small buffer: many reads, the same tasks, read on a thread */
static int same_tasks_read_elsewhere(void)
{
	static struct run plain, ahead;
	static struct tid_source ts;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int i, plain_reads, ahead_reads;

	many_tasks(&sb, 1, 300);
	td = ra_session(&ts, &ms, &sb, 4096, false);
	CHECK(td);
	run_all(td, &plain);
	taskdiag__delete(td);
	plain_reads = ts.nr_reads;
	CHECK_EQ(reads_elsewhere(&ts), 0);

	td = ra_session(&ts, &ms, &sb, 4096, true);
	CHECK(td);
	run_all(td, &ahead);
	taskdiag__delete(td);
	ahead_reads = ts.nr_reads;
	sb_free(&sb);

	CHECK_EQ(plain.ret, 0);
	CHECK_EQ(ahead.ret, 0);
	CHECK_EQ(plain.nr_tasks, 300);
	CHECK_EQ(ahead.nr_tasks, 300);
	for (i = 0; i < 300; i++) {
		CHECK_EQ(ahead.pids[i], i + 1);
		CHECK_EQ(ahead.nr_vmas[i], plain.nr_vmas[i]);
	}
	CHECK(plain_reads > 10);
	/* the first read is the caller's; at most one more past the end */
	CHECK(ahead_reads >= plain_reads && ahead_reads <= plain_reads + 1);
	CHECK(reads_elsewhere(&ts) >= plain_reads - 1);
	return 0;
}

/*
 * An answer that ends, NLMSG_DONE and all, in the first read: nothing is
 * read ahead (no thread, no second buffer, no read that returns 0)
 */
static int no_read_ahead_past_done(void)
{
	static struct tid_source ts;
	struct mem_source ms;
	struct taskdiag *td;
	int ret, nr_reads;
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 3);
	sb_task(&sb, 2, 1, 0);
	sb_done(&sb);
	td = ra_session(&ts, &ms, &sb, 0, true);
	CHECK(td);
	run_all(td, &r);
	/* a new request waits for the read in flight, were there one */
	ts.next = &sb;
	ret = td_request(td, TASK_DIAG_DUMP_ALL, 0, SHOW_ALL);
	nr_reads = ts.nr_reads;
	taskdiag__delete(td);
	sb_free(&sb);
	CHECK_EQ(r.ret, 0);
	CHECK_EQ(r.nr_tasks, 2);
	CHECK_EQ(r.nr_vmas[0], 3);
	CHECK_EQ(ret, 0);
	CHECK_EQ(nr_reads, 1);
	CHECK_EQ(reads_elsewhere(&ts), 0);
	return 0;
}

/*
 * Tasks 1, 2 (with @nr_vmas VMAs) and 3 read ahead on a session of
 * @buf_size, all of them: the size the buffer ends with, 0 without session;
 * *@answer_len, the length of the answer
 */
static size_t read_long_middle(struct tid_source *ts, int nr_vmas,
			       size_t buf_size, struct run *r,
			       size_t *answer_len)
{
	struct mem_source ms;
	struct taskdiag *td;
	size_t size = 0;
	struct sb sb;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 0);
	sb_task(&sb, 2, 2, nr_vmas);
	sb_task(&sb, 3, 3, 1);
	sb_done(&sb);
	*answer_len = sb.len;
	td = ra_session(ts, &ms, &sb, buf_size, true);
	if (td)
		size = run_all_and_delete(td, r);
	sb_free(&sb);
	return size;
}

/* A message too big for the buffer, met by a read ahead, grows it */
static int emsgsize_ahead_grows_buffer(void)
{
	static struct tid_source ts;
	size_t size, len;
	struct run r;

	size = read_long_middle(&ts, 60, 512, &r, &len);
	CHECK(size);				/* the session opened */
	CHECK_EQ(r.ret, 0);
	CHECK_EQ(r.nr_tasks, 3);
	CHECK_EQ(r.nr_vmas[1], 60);
	CHECK_EQ(r.nr_vmas[2], 1);
	CHECK(size > 512);
	CHECK(reads_elsewhere(&ts) > 0);
	return 0;
}

/* An error of a read ahead comes after the tasks before it, then resume */
static int error_ahead_in_order(void)
{
	static struct tid_source ts;
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	size_t cuts[3];
	struct run r;
	struct sb sb;
	int ret;

	three_tasks(&sb, cuts);
	td = ra_session(&ts, &ms, &sb, 0, true);
	CHECK(td);
	ms.cuts = cuts;
	ms.nr_cuts = 3;
	ms.err = -EIO;
	ms.err_at = 2;
	ret = taskdiag__next(td, &task);
	CHECK_EQ(ret, 1);
	CHECK_EQ(taskdiag_task__pid(task), 1);
	ret = taskdiag__next(td, &task);
	CHECK_EQ(ret, -EIO);
	ret = run_all(td, &r);
	taskdiag__delete(td);
	sb_free(&sb);
	CHECK_EQ(ret, 0);
	CHECK_EQ(r.nr_tasks, 2);
	CHECK_EQ(r.pids[0], 2);
	CHECK_EQ(r.pids[1], 3);
	CHECK(ts.tids[1] != gettid_());		/* the read that failed */
	return 0;
}

/*
 * A new request in the middle of an answer, while a read is ahead, then
 * the end of the session in the middle of the next
 */
static int new_request_and_delete_midway(void)
{
	static struct tid_source ts;
	struct taskdiag_task *task;
	struct sb sb[3];
	struct mem_source ms;
	struct taskdiag *td;
	struct run r;
	int ret;

	many_tasks(&sb[0], 1, 300);
	many_tasks(&sb[1], 2, 300);
	many_tasks(&sb[2], 3, 300);
	td = ra_session(&ts, &ms, &sb[0], 4096, true);
	CHECK(td);
	ret = taskdiag__next(td, &task);
	CHECK_EQ(ret, 1);
	ts.next = &sb[1];
	ret = td_request(td, TASK_DIAG_DUMP_ALL, 0, SHOW_ALL);
	CHECK_EQ(ret, 0);
	run_all(td, &r);
	CHECK_EQ(r.ret, 0);
	CHECK_EQ(r.nr_tasks, 300);
	CHECK_EQ(r.pids[0], 1);
	CHECK_EQ(r.pids[299], 300);
	ts.next = &sb[2];
	ret = td_request(td, TASK_DIAG_DUMP_ALL, 0, SHOW_ALL);
	CHECK_EQ(ret, 0);
	ret = taskdiag__next(td, &task);
	taskdiag__delete(td);
	sb_free(&sb[0]);
	sb_free(&sb[1]);
	sb_free(&sb[2]);
	CHECK_EQ(ret, 1);
	CHECK(reads_elsewhere(&ts) > 0);
	return 0;
}

/* Reads made so far, up to @want, waiting up to 10 s for them */
static int reads_reach(struct tid_source *ts, int want)
{
	int n, i;

	for (i = 0; i < 10000; i++) {
		n = __atomic_load_n(&ts->nr_reads, __ATOMIC_ACQUIRE);
		if (n >= want)
			return n;
		usleep(1000);
	}
	return n;
}

/*
 * The thread reads on while the caller does something else, up to
 * TD_RA_DEPTH buffers ahead of it, and the caller then gets every task
 */
static int reads_on_without_caller(void)
{
	static struct tid_source ts;
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct run r;
	struct sb sb;
	int ahead, ret, i;

	many_tasks(&sb, 1, 300);
	td = ra_session(&ts, &ms, &sb, 4096, true);
	CHECK(td);
	ret = taskdiag__next(td, &task);
	CHECK_EQ(ret, 1);
	CHECK_EQ(taskdiag_task__pid(task), 1);
	ahead = reads_reach(&ts, 1 + TD_RA_DEPTH);
	usleep(50000);
	CHECK_EQ(ahead, 1 + TD_RA_DEPTH);
	CHECK_EQ(__atomic_load_n(&ts.nr_reads, __ATOMIC_ACQUIRE), ahead);
	run_all(td, &r);
	taskdiag__delete(td);
	sb_free(&sb);
	CHECK_EQ(r.ret, 0);
	CHECK_EQ(r.nr_tasks, 299);
	for (i = 0; i < 299; i++)
		CHECK_EQ(r.pids[i], i + 2);
	for (i = 1; i < ahead; i++)
		CHECK(ts.tids[i] != gettid_());
	return 0;
}

/*
 * An answer of less than the buffer: one read without read-ahead; with it,
 * reads of TD_RAMP_FIRST bytes and then of an eighth of what was read, so
 * that the caller parses the first while the next are read
 */
static int short_reads_first(void)
{
	static struct run plain, ahead;
	static struct tid_source ts;
	size_t read = 0, want;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int i;

	many_tasks(&sb, 1, 100);
	sb_done(&sb);
	CHECK(sb.len > 3 * TD_RAMP_FIRST && sb.len < 256 * 1024);
	td = ra_session(&ts, &ms, &sb, 256 * 1024, false);
	CHECK(td);
	run_all(td, &plain);
	taskdiag__delete(td);
	CHECK_EQ(ts.nr_reads, 1);
	CHECK_EQ(ts.lens[0], 256 * 1024);

	td = ra_session(&ts, &ms, &sb, 256 * 1024, true);
	CHECK(td);
	run_all(td, &ahead);
	taskdiag__delete(td);
	CHECK_EQ(plain.ret, 0);
	CHECK_EQ(ahead.ret, 0);
	CHECK_EQ(ahead.nr_tasks, 100);
	for (i = 0; i < 100; i++) {
		CHECK_EQ(ahead.pids[i], plain.pids[i]);
		CHECK_EQ(ahead.nr_vmas[i], plain.nr_vmas[i]);
	}
	CHECK(ts.nr_reads >= 4);
	for (i = 0; i < ts.nr_reads; i++) {
		want = read / TD_RAMP_SHARE;
		if (want < TD_RAMP_FIRST)
			want = TD_RAMP_FIRST;
		CHECK_EQ(ts.lens[i], want);
		read += mem_whole_msgs(sb.buf + read, sb.len - read, want);
	}
	CHECK_EQ(read, sb.len);
	CHECK(reads_elsewhere(&ts) >= ts.nr_reads - 1);
	sb_free(&sb);
	return 0;
}

/*
 * A message longer than a short read (-EMSGSIZE, here to the read ahead) is
 * read with the whole buffer, which does not grow, and so is the rest
 */
static int long_message_ends_short_reads(void)
{
	static struct tid_source ts;
	size_t size, len;
	struct run r;

	size = read_long_middle(&ts, 300, 256 * 1024, &r, &len);
	CHECK(size);				/* the session opened */
	CHECK(len > TD_RAMP_FIRST + 4096);	/* longer than a short read */
	CHECK_EQ(r.ret, 0);
	CHECK_EQ(r.nr_tasks, 3);
	CHECK_EQ(r.nr_vmas[1], 300);
	CHECK_EQ(r.nr_vmas[2], 1);
	CHECK_EQ(size, 256 * 1024);
	CHECK_EQ(ts.nr_reads, 3);
	CHECK_EQ(ts.lens[0], TD_RAMP_FIRST);	/* task 1 */
	CHECK_EQ(ts.lens[1], TD_RAMP_FIRST);	/* -EMSGSIZE */
	CHECK_EQ(ts.lens[2], 256 * 1024);	/* tasks 2 and 3 */
	CHECK(ts.tids[1] != gettid_());
	return 0;
}

const struct td_test readahead_tests[] = {
	TD_TEST(same_tasks_read_elsewhere),
	TD_TEST(no_read_ahead_past_done),
	TD_TEST(emsgsize_ahead_grows_buffer),
	TD_TEST(error_ahead_in_order),
	TD_TEST(new_request_and_delete_midway),
	TD_TEST(reads_on_without_caller),
	TD_TEST(short_reads_first),
	TD_TEST(long_message_ends_short_reads),
	{ NULL, NULL },
};
