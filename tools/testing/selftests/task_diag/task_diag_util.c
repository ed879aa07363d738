// SPDX-License-Identifier: GPL-2.0
/*
 * Test-local /proc/task-diag client: requests, reading, checking and
 * reassembling responses.  Every check that fails is counted in
 * td_dump.nr_errors and the first one is described in td_dump.error, so
 * that a test can EXPECT_EQ(0, d.nr_errors) and log d.error.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "task_diag_util.h"

#define TD_MAX_READS	(1U << 22)	/* a response never needs that many */

bool td_available(void)
{
	return access(TD_PATH, F_OK) == 0;
}

int td_open(void)
{
	return open(TD_PATH, O_RDWR);
}

/*
 * Build a request of @len bytes in @buf (zeroed first): the netlink header
 * with nlmsg_len = @len, then as much of struct task_diag_pid as fits.
 */
size_t td_req_fill(void *buf, size_t len, __u64 show_flags, __u64 strategy,
		   __u32 pid, __u32 seq)
{
	struct task_diag_pid req = {
		.show_flags = show_flags,
		.dump_strategy = strategy,
		.pid = pid,
	};
	struct nlmsghdr nlh = {
		.nlmsg_len = len,
		.nlmsg_type = TASK_DIAG_CMD_GET,
		.nlmsg_flags = NLM_F_REQUEST,
		.nlmsg_seq = seq,
	};
	size_t n;

	memset(buf, 0, len);
	memcpy(buf, &nlh, len < sizeof(nlh) ? len : sizeof(nlh));
	if (len > NLMSG_HDRLEN) {
		n = len - NLMSG_HDRLEN;
		memcpy((char *)buf + NLMSG_HDRLEN, &req,
		       n < sizeof(req) ? n : sizeof(req));
	}
	return len;
}

/* Write a TD_REQ_LEN request; returns what write() returned */
ssize_t td_write_req(int fd, __u64 show_flags, __u64 strategy, __u32 pid,
		     __u32 seq)
{
	char buf[TD_REQ_LEN];

	td_req_fill(buf, sizeof(buf), show_flags, strategy, pid, seq);
	return write(fd, buf, sizeof(buf));
}

/* Like td_write_req(), but 0 on success and -errno on failure */
int td_request(int fd, __u64 show_flags, __u64 strategy, __u32 pid, __u32 seq)
{
	ssize_t ret = td_write_req(fd, show_flags, strategy, pid, seq);

	if (ret < 0)
		return -errno;
	return ret == (ssize_t)TD_REQ_LEN ? 0 : -EIO;
}

static void td_err(struct td_dump *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->nr_errors++) {
		va_start(ap, fmt);
		vsnprintf(d->error, sizeof(d->error), fmt, ap);
		va_end(ap);
	}
}

void td_dump_init(struct td_dump *d, __u64 show_flags, __u32 seq)
{
	memset(d, 0, sizeof(*d));
	d->show_flags = show_flags;
	d->seq = seq;
	d->pending = -1;
}

void td_dump_free(struct td_dump *d)
{
	size_t i, j;

	for (i = 0; i < d->nr_tasks; i++) {
		for (j = 0; j < d->tasks[i].nr_vmas; j++)
			free(d->tasks[i].vmas[j].name);
		free(d->tasks[i].vmas);
		free(d->tasks[i].cmdline);
	}
	free(d->tasks);
	free(d->index);
	td_dump_init(d, d->show_flags, d->seq);
}

static void *td_grow(void *array, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return array;
	while (n < need)
		n *= 2;
	p = realloc(array, n * size);
	if (!p) {
		fprintf(stderr, "# task_diag_util: out of memory\n");
		abort();
	}
	*cap = n;
	return p;
}

static struct td_task *td_task_new(struct td_dump *d, __u32 pid, __u32 tgid)
{
	struct td_task *t;

	d->tasks = td_grow(d->tasks, &d->cap_tasks, d->nr_tasks + 1,
			   sizeof(*d->tasks));
	t = &d->tasks[d->nr_tasks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tgid = tgid;
	return t;
}

/*
 * The build ID of a record: only with TASK_DIAG_SHOW_VMA_BUILD_ID, after
 * the fixed fields, apart from name and stat
 */
static void td_add_build_id(struct td_dump *d, struct td_task *t,
			    const char *p, struct td_vma *v)
{
	const struct task_diag_vma *rec = &v->rec;
	size_t off = rec->build_id_off, len = rec->build_id_len;

	if (!(d->show_flags & TASK_DIAG_SHOW_VMA_BUILD_ID)) {
		if (off || len || rec->__reserved1 || rec->__reserved2)
			td_err(d, "pid %u: VMA %llx: build ID %zu+%zu not asked for",
			       t->pid, (unsigned long long)rec->start, off, len);
		return;
	}
	if (!len)
		return;
	if (len > TASK_DIAG_BUILD_ID_MAX || off < sizeof(*rec) ||
	    off + len > rec->vma_len ||
	    (rec->name_len && off < rec->name_off + rec->name_len &&
	     rec->name_off < off + len) ||
	    (rec->stat_len && off < rec->stat_off + rec->stat_len &&
	     rec->stat_off < off + len)) {
		td_err(d, "pid %u: VMA %llx: bad build ID off %zu len %zu",
		       t->pid, (unsigned long long)rec->start, off, len);
		return;
	}
	memcpy(v->build_id, p + off, len);
	v->build_id_len = len;
}

/* Check one VMA record's name and stat and append it to @t */
static void td_add_vma(struct td_dump *d, struct td_task *t, const char *p,
		       const struct task_diag_vma *rec)
{
	bool want_stat = d->show_flags & TASK_DIAG_SHOW_VMA_STAT;
	struct td_vma *v, *prev = t->nr_vmas ? &t->vmas[t->nr_vmas - 1] : NULL;

	if (rec->start >= rec->end || (rec->start | rec->end) & 0xfff)
		td_err(d, "pid %u: bad VMA %llx-%llx", t->pid,
		       (unsigned long long)rec->start,
		       (unsigned long long)rec->end);
	/* legitimate only if the mappings changed during the dump */
	if (prev && rec->start < prev->rec.end)
		t->nr_vma_disorder++;

	t->vmas = td_grow(t->vmas, &t->cap_vmas, t->nr_vmas + 1,
			  sizeof(*t->vmas));
	v = &t->vmas[t->nr_vmas++];
	memset(v, 0, sizeof(*v));
	v->rec = *rec;

	if (rec->name_len) {
		if ((size_t)rec->name_off + rec->name_len > rec->vma_len ||
		    rec->name_off < sizeof(*rec) ||
		    p[rec->name_off + rec->name_len - 1] != '\0' ||
		    strlen(p + rec->name_off) != rec->name_len - 1U)
			td_err(d, "pid %u: VMA %llx: bad name off %u len %u",
			       t->pid, (unsigned long long)rec->start,
			       rec->name_off, rec->name_len);
		else
			v->name = strdup(p + rec->name_off);
	}

	td_add_build_id(d, t, p, v);
	if (!!rec->stat_len != want_stat)
		td_err(d, "pid %u: VMA %llx: stat_len %u with%s TASK_DIAG_SHOW_VMA_STAT",
		       t->pid, (unsigned long long)rec->start, rec->stat_len,
		       want_stat ? "" : "out");
	if (!rec->stat_len)
		return;
	if (rec->stat_len < sizeof(v->stat) || rec->stat_off < sizeof(*rec) ||
	    (size_t)rec->stat_off + rec->stat_len > rec->vma_len) {
		td_err(d, "pid %u: VMA %llx: bad stat off %u len %u", t->pid,
		       (unsigned long long)rec->start, rec->stat_off,
		       rec->stat_len);
		return;
	}
	memcpy(&v->stat, p + rec->stat_off, sizeof(v->stat));
	v->has_stat = true;
}

/* The records of a TASK_DIAG_VMA attribute, each vma_len bytes long */
static void td_feed_vmas(struct td_dump *d, struct td_task *t, const char *p,
			 size_t len)
{
	struct task_diag_vma rec;
	size_t off = 0;

	while (off < len) {
		if (len - off < sizeof(rec)) {
			td_err(d, "pid %u: %zu trailing bytes in TASK_DIAG_VMA",
			       t->pid, len - off);
			return;
		}
		memcpy(&rec, p + off, sizeof(rec));
		if (rec.vma_len < sizeof(rec) || rec.vma_len > len - off ||
		    rec.vma_len % NLA_ALIGNTO) {
			td_err(d, "pid %u: bad vma_len %u (%zu bytes left)",
			       t->pid, rec.vma_len, len - off);
			return;
		}
		td_add_vma(d, t, p + off, &rec);
		off += rec.vma_len;
	}
}

/* Append a part of the command line; a part may be empty */
static void td_feed_cmdline(struct td_dump *d, struct td_task *t,
			    const char *p, size_t len)
{
	char *buf = realloc(t->cmdline, t->cmdline_len + len + 1);

	if (!buf) {
		td_err(d, "pid %u: no memory for %zu cmdline bytes", t->pid,
		       t->cmdline_len + len);
		return;
	}
	memcpy(buf + t->cmdline_len, p, len);
	t->cmdline = buf;
	t->cmdline_len += len;
	t->cmdline[t->cmdline_len] = '\0';
	t->cmdline_parts++;
}

/* Copy a fixed-size group out of its (only 4-byte aligned) attribute */
static void td_copy_group(struct td_dump *d, struct td_task *t, void *dst,
			  size_t size, const char *p, size_t len, int type)
{
	if (len < size) {
		td_err(d, "pid %u: attribute %d has %zu bytes, want %zu",
		       t->pid, type, len, size);
		return;
	}
	memcpy(dst, p, size);
}

static void td_feed_attr(struct td_dump *d, struct td_task *t, int type,
			 const char *p, size_t len)
{
	switch (type) {
	case TASK_DIAG_BASE:
		td_copy_group(d, t, &t->base, sizeof(t->base), p, len, type);
		/* the kernel takes the ids once: the header's are BASE's */
		if (t->base.pid != t->pid || t->base.tgid != t->tgid)
			td_err(d, "pid %u tgid %u: BASE says pid %u tgid %u",
			       t->pid, t->tgid, t->base.pid, t->base.tgid);
		break;
	case TASK_DIAG_CRED:
		td_copy_group(d, t, &t->creds, sizeof(t->creds), p, len, type);
		break;
	case TASK_DIAG_STAT:
		td_copy_group(d, t, &t->stat, sizeof(t->stat), p, len, type);
		break;
	case TASK_DIAG_STATM:
		td_copy_group(d, t, &t->statm, sizeof(t->statm), p, len, type);
		break;
	case TASK_DIAG_PSINFO:
		td_copy_group(d, t, &t->psinfo, sizeof(t->psinfo), p, len,
			      type);
		break;
	case TASK_DIAG_VMA:
		td_feed_vmas(d, t, p, len);
		break;
	case TASK_DIAG_CMDLINE:
		td_feed_cmdline(d, t, p, len);
		break;
	}
}

/*
 * Groups come in attribute order, each once, and only if requested.  The
 * first group of a continuation may be the one that closed the previous
 * message only if it is TASK_DIAG_VMA or TASK_DIAG_CMDLINE (the rest of
 * the list or of the bytes).
 */
static bool td_check_group(struct td_dump *d, struct td_task *t, int type,
			   int prev, bool first_of_cont)
{
	bool again = first_of_cont && type == (int)d->pending_group &&
		     (type == TASK_DIAG_VMA || type == TASK_DIAG_CMDLINE);

	if (type == TASK_DIAG_VMA_STAT || type > TASK_DIAG_ATTR_MAX ||
	    !(d->show_flags & (1ULL << type))) {
		td_err(d, "pid %u: attribute %d was not requested", t->pid,
		       type);
		return false;
	}
	if (type <= prev && !again) {
		td_err(d, "pid %u: attribute %d after %d", t->pid, type, prev);
		return false;
	}
	if ((t->groups & (1ULL << type)) && !again) {
		td_err(d, "pid %u: attribute %d sent twice", t->pid, type);
		return false;
	}
	return true;
}

/* Walk the attributes of one message; returns how many there were */
static unsigned int td_feed_attrs(struct td_dump *d, struct td_task *t,
				  const char *p, size_t len, bool cont)
{
	int prev = cont ? (int)d->pending_group : -1;
	unsigned int n = 0;
	struct nlattr nla;
	size_t off = 0;
	int type;

	while (off < len) {
		if (len - off < NLA_HDRLEN) {
			td_err(d, "pid %u: %zu trailing bytes", t->pid,
			       len - off);
			break;
		}
		memcpy(&nla, p + off, sizeof(nla));
		if (nla.nla_len < NLA_HDRLEN || nla.nla_len > len - off) {
			td_err(d, "pid %u: bad nla_len %u (%zu bytes left)",
			       t->pid, nla.nla_len, len - off);
			break;
		}
		type = nla.nla_type & NLA_TYPE_MASK;
		if (td_check_group(d, t, type, prev, cont && !n)) {
			td_feed_attr(d, t, type, p + off + NLA_HDRLEN,
				     nla.nla_len - NLA_HDRLEN);
			t->groups |= 1ULL << type;
		}
		prev = type;
		n++;
		off += NLA_ALIGN(nla.nla_len);
	}
	if (n)
		d->pending_group = prev;
	return n;
}

static void td_check_header(struct td_dump *d, const struct nlmsghdr *nlh,
			    const struct task_diag_msg *msg)
{
	if (nlh->nlmsg_type != TASK_DIAG_CMD_GET)
		td_err(d, "pid %u: nlmsg_type %#x", msg->pid, nlh->nlmsg_type);
	if (!(nlh->nlmsg_flags & NLM_F_MULTI))
		td_err(d, "pid %u: nlmsg_flags %#x without NLM_F_MULTI",
		       msg->pid, nlh->nlmsg_flags);
	if (nlh->nlmsg_seq != d->seq)
		td_err(d, "pid %u: nlmsg_seq %#x, request had %#x", msg->pid,
		       nlh->nlmsg_seq, d->seq);
	if (msg->flags & ~TASK_DIAG_FLAG_CONT)
		td_err(d, "pid %u: unknown flags %#x", msg->pid, msg->flags);
	if (!msg->pid || !msg->tgid)
		td_err(d, "message with pid %u tgid %u", msg->pid, msg->tgid);
}

/* The task a message is about: the continued one, or a new record */
static struct td_task *td_task_for(struct td_dump *d,
				   const struct task_diag_msg *msg, bool *cont)
{
	struct td_task *t;

	*cont = false;
	if (d->pending >= 0) {
		t = &d->tasks[d->pending];
		d->pending = -1;
		if (msg->pid == t->pid && msg->tgid == t->tgid) {
			*cont = true;
			return t;
		}
		td_err(d, "pid %u was continued, but the next message is about %u",
		       t->pid, msg->pid);
	}
	return td_task_new(d, msg->pid, msg->tgid);
}

static void td_feed_msg(struct td_dump *d, const char *p, size_t len)
{
	size_t hdr = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct task_diag_msg));
	struct task_diag_msg msg;
	struct nlmsghdr nlh;
	struct td_task *t;
	unsigned int n;
	bool cont;

	memcpy(&nlh, p, sizeof(nlh));
	memcpy(&msg, p + NLMSG_HDRLEN, sizeof(msg));
	d->nr_msgs++;
	td_check_header(d, &nlh, &msg);

	t = td_task_for(d, &msg, &cont);
	t->nmsgs++;
	n = td_feed_attrs(d, t, p + hdr, len > hdr ? len - hdr : 0, cont);
	if (cont && !n) {
		t->closed_empty = true;
		if (msg.flags)
			td_err(d, "pid %u: empty continuation with flags %#x",
			       t->pid, msg.flags);
	}
	if (!(msg.flags & TASK_DIAG_FLAG_CONT))
		return;
	t->ncont++;
	if (!n)
		td_err(d, "pid %u: TASK_DIAG_FLAG_CONT without attributes",
		       t->pid);
	d->pending = t - d->tasks;
}

/* The NLMSG_DONE that ends every answer: once, last, payload 0 */
static void td_feed_done(struct td_dump *d, const char *p,
			 const struct nlmsghdr *nlh)
{
	int payload;

	if (d->done)
		td_err(d, "read %u: a second NLMSG_DONE", d->nr_reads);
	d->done = true;
	if (nlh->nlmsg_len != NLMSG_LENGTH(sizeof(int))) {
		td_err(d, "NLMSG_DONE of nlmsg_len %u", nlh->nlmsg_len);
		return;
	}
	memcpy(&payload, p + NLMSG_HDRLEN, sizeof(payload));
	if (payload || !(nlh->nlmsg_flags & NLM_F_MULTI) ||
	    nlh->nlmsg_seq != d->seq)
		td_err(d, "NLMSG_DONE with payload %d, flags %#x, seq %#x",
		       payload, nlh->nlmsg_flags, nlh->nlmsg_seq);
	if (d->pending >= 0)
		td_err(d, "NLMSG_DONE while pid %u was continued",
		       d->tasks[d->pending].pid);
}

/* Walk the messages returned by one read() */
void td_dump_feed(struct td_dump *d, const void *buf, size_t len)
{
	size_t hdr = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct task_diag_msg));
	const char *p = buf;
	struct nlmsghdr nlh;
	size_t off = 0;

	d->nr_reads++;
	d->nr_bytes += len;
	if (len > d->max_read)
		d->max_read = len;
	while (off < len) {
		if (len - off < NLMSG_HDRLEN) {
			td_err(d, "read %u: %zu trailing bytes", d->nr_reads,
			       len - off);
			return;
		}
		memcpy(&nlh, p + off, sizeof(nlh));
		if (d->done)
			td_err(d, "read %u: a message after NLMSG_DONE",
			       d->nr_reads);
		if (nlh.nlmsg_type == NLMSG_DONE &&
		    nlh.nlmsg_len >= NLMSG_HDRLEN && nlh.nlmsg_len <= len - off) {
			td_feed_done(d, p + off, &nlh);
			off += NLMSG_ALIGN(nlh.nlmsg_len);
			continue;
		}
		if (nlh.nlmsg_len < hdr || nlh.nlmsg_len > len - off) {
			td_err(d, "read %u: message at %zu has nlmsg_len %u, %zu bytes left",
			       d->nr_reads, off, nlh.nlmsg_len, len - off);
			return;
		}
		td_feed_msg(d, p + off, nlh.nlmsg_len);
		off += NLMSG_ALIGN(nlh.nlmsg_len);
	}
}

/* One read() of at most @bufsize bytes, fed to @d; returns its result */
ssize_t td_read_once(int fd, struct td_dump *d, size_t bufsize)
{
	char *buf = malloc(bufsize ? bufsize : 1);
	ssize_t ret;
	int err;

	if (!buf)
		abort();
	ret = read(fd, buf, bufsize);
	err = errno;
	if (ret > (ssize_t)bufsize)
		td_err(d, "read() returned %zd for %zu bytes", ret, bufsize);
	else if (ret > 0)
		td_dump_feed(d, buf, ret);
	else if (ret == 0 && !d->finished) {
		d->finished = true;
		if (!d->done)
			td_err(d, "response ended without NLMSG_DONE");
		if (d->pending >= 0)
			td_err(d, "response ended while pid %u was continued",
			       d->tasks[d->pending].pid);
	}
	free(buf);
	errno = err;
	return ret;
}

/* Read until read() returns 0: 0, or -errno of the read() that failed */
int td_read_all(int fd, struct td_dump *d, size_t bufsize)
{
	ssize_t ret;

	do {
		ret = td_read_once(fd, d, bufsize);
		if (ret < 0)
			return -errno;
		if (d->nr_reads > TD_MAX_READS) {
			td_err(d, "response does not end");
			return -E2BIG;
		}
	} while (ret > 0);
	return 0;
}

/* Request on @fd and read the whole response into @d (initialised here) */
int td_dump_fd(int fd, struct td_dump *d, __u64 show_flags, __u64 strategy,
	       __u32 pid, size_t bufsize)
{
	int ret;

	td_dump_init(d, show_flags, TD_SEQ);
	ret = td_request(fd, show_flags, strategy, pid, TD_SEQ);
	if (ret)
		return ret;
	return td_read_all(fd, d, bufsize);
}

/* The same on a file opened and closed for it */
int td_dump(struct td_dump *d, __u64 show_flags, __u64 strategy, __u32 pid,
	    size_t bufsize)
{
	int fd, ret;

	td_dump_init(d, show_flags, TD_SEQ);
	fd = td_open();
	if (fd < 0)
		return -errno;
	ret = td_dump_fd(fd, d, show_flags, strategy, pid, bufsize);
	close(fd);
	return ret;
}

static int td_key_cmp(const void *a, const void *b)
{
	const struct td_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void td_index(struct td_dump *d)
{
	size_t i;

	if (d->index && d->nr_index == d->nr_tasks)
		return;
	free(d->index);
	d->index = calloc(d->nr_tasks + 1, sizeof(*d->index));
	if (!d->index)
		abort();
	for (i = 0; i < d->nr_tasks; i++) {
		d->index[i].pid = d->tasks[i].pid;
		d->index[i].idx = i;
	}
	qsort(d->index, d->nr_tasks, sizeof(*d->index), td_key_cmp);
	d->nr_index = d->nr_tasks;
}

/* The first index entry for @pid, or NULL */
static struct td_key *td_lookup(struct td_dump *d, __u32 pid)
{
	size_t lo = 0, hi;

	td_index(d);
	hi = d->nr_index;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->index[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->nr_index && d->index[lo].pid == pid)
		return &d->index[lo];
	return NULL;
}

/* The (first) record of @pid, or NULL if it was not reported */
struct td_task *td_find(struct td_dump *d, __u32 pid)
{
	struct td_key *k = td_lookup(d, pid);

	return k ? &d->tasks[k->idx] : NULL;
}

/* How many separate descriptions of @pid the response had */
unsigned int td_count(struct td_dump *d, __u32 pid)
{
	struct td_key *k = td_lookup(d, pid), *end;
	unsigned int n = 0;

	if (!k)
		return 0;
	end = d->index + d->nr_index;
	for (; k < end && k->pid == pid; k++)
		n++;
	return n;
}

/* Pids described more than once; the first of them in *first_dup */
size_t td_nr_dups(struct td_dump *d, __u32 *first_dup)
{
	size_t i, n = 0;

	td_index(d);
	for (i = 1; i < d->nr_index; i++) {
		if (d->index[i].pid != d->index[i - 1].pid)
			continue;
		if (!n++ && first_dup)
			*first_dup = d->index[i].pid;
	}
	return n;
}
