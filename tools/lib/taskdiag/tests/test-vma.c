// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Tests of the records of TASK_DIAG_VMA: every offset and length that
 * lies, and the /proc/PID/maps form.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "helpers.h"
#include "tests.h"

#define REC	sizeof(struct task_diag_vma)
#define STAT	sizeof(struct task_diag_vma_stat)

/* One task with one record @rec followed by @tail; the last next() */
static int run_rec(const struct task_diag_vma *rec, const void *tail,
		   size_t tail_len, struct run *r)
{
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_attr_begin(&sb, TASK_DIAG_VMA);
	sb_vma(&sb, 0x1000, "/first", true);
	sb_vma_rec(&sb, rec, tail, tail_len);
	sb_attr_end(&sb);
	sb_msg_end(&sb);
	td = mem_session(&ms, &sb, 0);
	if (!td)
		return -1000;
	ret = run_all(td, r);
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

/* A record with a stat and the name "name" after it, as the kernel */
static void good_rec(struct task_diag_vma *rec, char *tail)
{
	memset(rec, 0, sizeof(*rec));
	memset(tail, 0, STAT + 8);
	rec->start = 0x2000;
	rec->end = 0x3000;
	rec->stat_off = REC;
	rec->stat_len = STAT;
	rec->name_off = REC + STAT;
	rec->name_len = 5;
	rec->vma_len = REC + STAT + 8;
	memcpy(tail + STAT, "name", 5);
}

static int good_record(void)
{
	struct task_diag_vma rec;
	char tail[STAT + 8];
	struct run r;

	good_rec(&rec, tail);
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), 0);
	CHECK_EQ(r.nr_vmas[0], 2);
	return 0;
}

static int name_off_out_of_bounds(void)
{
	struct task_diag_vma rec;
	char tail[STAT + 8];
	struct run r;

	good_rec(&rec, tail);
	rec.name_off = rec.vma_len - 2;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	good_rec(&rec, tail);
	rec.name_off = 0xffff;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	return 0;
}

static int name_len_out_of_bounds(void)
{
	struct task_diag_vma rec;
	char tail[STAT + 8];
	struct run r;

	good_rec(&rec, tail);
	rec.name_len = 9;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	good_rec(&rec, tail);
	rec.name_len = 0xffff;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	return 0;
}

static int name_in_header(void)
{
	struct task_diag_vma rec;
	char tail[STAT + 8];
	struct run r;

	good_rec(&rec, tail);
	rec.name_off = 8;
	rec.name_len = 1;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	return 0;
}

static int name_not_terminated(void)
{
	struct task_diag_vma rec;
	char tail[STAT + 8];
	struct run r;

	good_rec(&rec, tail);
	rec.name_len = 4;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	good_rec(&rec, tail);
	memset(tail + STAT, 'x', 8);
	rec.name_len = 8;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	return 0;
}

static int stat_off_out_of_bounds(void)
{
	struct task_diag_vma rec;
	char tail[STAT + 8];
	struct run r;

	good_rec(&rec, tail);
	rec.stat_off = REC + 16;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	good_rec(&rec, tail);
	rec.stat_off = 0xfff0;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	good_rec(&rec, tail);
	rec.stat_off = 4;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	return 0;
}

static int stat_len_too_short(void)
{
	struct task_diag_vma rec;
	char tail[STAT + 8];
	struct run r;

	good_rec(&rec, tail);
	rec.stat_len = STAT - 8;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	return 0;
}

static int name_and_stat_overlap(void)
{
	struct task_diag_vma rec;
	char tail[STAT + 8];
	struct run r;

	good_rec(&rec, tail);
	rec.name_off = REC + STAT - 4;
	rec.name_len = 1;
	tail[STAT - 4] = 0;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	return 0;
}

/* vma_len 0 must not make the walk stand still */
static int vma_len_zero(void)
{
	struct task_diag_vma rec;
	char tail[STAT + 8];
	struct run r;

	good_rec(&rec, tail);
	rec.vma_len = 0;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	rec.vma_len = 8;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	return 0;
}

static int vma_len_beyond_attr(void)
{
	struct task_diag_vma rec;
	char tail[STAT + 8];
	struct run r;

	good_rec(&rec, tail);
	rec.vma_len += 4;
	CHECK_EQ(run_rec(&rec, tail, sizeof(tail), &r), -EBADMSG);
	return 0;
}

static int truncated_record(void)
{
	struct task_diag_vma rec;
	struct run r;

	memset(&rec, 0, sizeof(rec));
	rec.vma_len = REC;
	CHECK_EQ(run_rec(&rec, NULL, 0, &r), 0);
	CHECK_EQ(r.nr_vmas[0], 2);

	/* 60 bytes: stat_len would be past the end */
	{
		struct mem_source ms;
		struct taskdiag *td;
		struct sb sb;
		int ret;

		sb_init(&sb, 1);
		sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
		sb_attr_begin(&sb, TASK_DIAG_VMA);
		sb_raw(&sb, &rec, 60);
		sb_attr_end(&sb);
		sb_msg_end(&sb);
		td = mem_session(&ms, &sb, 0);
		CHECK(td);
		ret = run_all(td, &r);
		taskdiag__delete(td);
		sb_free(&sb);
		CHECK_EQ(ret, -EBADMSG);
	}
	return 0;
}

/* A record from a newer kernel: more fixed fields before stat and name */
static int longer_record(void)
{
	char buf[REC + 16 + STAT + 8];
	struct task_diag_vma rec;
	const struct taskdiag_vma *v;
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret = -1;

	memset(buf, 0x5a, sizeof(buf));
	memset(&rec, 0, sizeof(rec));
	rec.start = 0x10000;
	rec.end = 0x20000;
	rec.stat_off = REC + 16;
	rec.stat_len = STAT;
	rec.name_off = REC + 16 + STAT;
	rec.name_len = 4;
	rec.vma_len = sizeof(buf);
	memcpy(buf, &rec, sizeof(rec));
	memcpy(buf + rec.name_off, "new", 4);

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_attr(&sb, TASK_DIAG_VMA, buf, sizeof(buf));
	sb_msg_end(&sb);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	if (taskdiag__next(td, &task) == 1) {
		v = taskdiag_task__vma(task, 0);
		if (v && v->start == 0x10000 && !strcmp(v->name, "new") &&
		    v->stat && v->stat->resident == 0x5a5a5a5a5a5a5a5aULL)
			ret = 0;
	}
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

#define ID_LEN		TASK_DIAG_BUILD_ID_MAX
#define SHOW_IDS	(SHOW_ALL | TASK_DIAG_SHOW_VMA_BUILD_ID)

/*
 * One task with a record of @rec_len bytes, @rec and then @tail, asked for
 * @show_flags; its first VMA into @v (copied: the task is gone after)
 */
static int run_one_rec(const struct task_diag_vma *rec, size_t rec_len,
		       const void *tail, size_t tail_len, __u64 show_flags,
		       struct taskdiag_vma *v, char *name, __u8 *id)
{
	char buf[REC + STAT + ID_LEN + 64];
	const struct taskdiag_vma *got;
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret;

	memcpy(buf, rec, rec_len);
	memcpy(buf + rec_len, tail, tail_len);
	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_attr(&sb, TASK_DIAG_VMA, buf, rec_len + tail_len);
	sb_msg_end(&sb);
	td = mem_session_flags(&ms, &sb, 0, show_flags);
	if (!td)
		return -1000;
	ret = taskdiag__next(td, &task);
	got = ret == 1 ? taskdiag_task__vma(task, 0) : NULL;
	if (got) {
		*v = *got;
		strcpy(name, got->name ?: "");
		if (got->build_id)
			memcpy(id, got->build_id, got->build_id_len);
	}
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

/* A record as the kernel lays it out with a build ID: stat, ID, name */
static void id_rec(struct task_diag_vma *rec, char *tail)
{
	good_rec(rec, tail);
	memset(tail, 0, STAT + ID_LEN + 8);
	rec->build_id_off = REC + STAT;
	rec->build_id_len = ID_LEN;
	rec->name_off = REC + STAT + ID_LEN;
	rec->vma_len = REC + STAT + ID_LEN + 8;
	memset(tail + STAT, 0xb1, ID_LEN);
	memcpy(tail + STAT + ID_LEN, "name", 5);
}

static int build_id_record(void)
{
	char tail[STAT + ID_LEN + 8], name[16];
	struct task_diag_vma rec;
	struct taskdiag_vma v;
	__u8 id[ID_LEN] = {};

	id_rec(&rec, tail);
	CHECK_EQ(run_one_rec(&rec, REC, tail, sizeof(tail), SHOW_IDS, &v,
			     name, id), 1);
	CHECK(v.build_id);
	CHECK_EQ(v.build_id_len, ID_LEN);
	CHECK(!memcmp(id, tail + STAT, ID_LEN));
	CHECK(!strcmp(name, "name"));

	/* a file without one: no pointer */
	rec.build_id_off = rec.build_id_len = 0;
	CHECK_EQ(run_one_rec(&rec, REC, tail, sizeof(tail), SHOW_IDS, &v,
			     name, id), 1);
	CHECK(!v.build_id);
	return 0;
}

/* Not asked for: the fields are not trusted, whatever they hold */
static int build_id_not_asked(void)
{
	char tail[STAT + ID_LEN + 8], name[16];
	struct task_diag_vma rec;
	struct taskdiag_vma v;
	__u8 id[ID_LEN];

	id_rec(&rec, tail);
	CHECK_EQ(run_one_rec(&rec, REC, tail, sizeof(tail), SHOW_ALL, &v,
			     name, id), 1);
	CHECK(!v.build_id);
	CHECK_EQ(v.build_id_len, 0);
	CHECK(!strcmp(name, "name"));
	return 0;
}

/*
 * A record of a kernel before build IDs: 64 bytes of fixed fields, the
 * name right after them, where build_id_off and build_id_len are now
 */
static int record_of_older_kernel(void)
{
	char tail[8 + STAT], name[16];
	struct task_diag_vma rec;
	struct taskdiag_vma v;
	__u8 id[ID_LEN];

	memset(&rec, 0, sizeof(rec));
	memset(tail, 0, sizeof(tail));
	rec.start = 0x2000;
	rec.end = 0x3000;
	rec.name_off = TASK_DIAG_VMA_SIZE_VER0;
	rec.name_len = 8;
	rec.stat_off = TASK_DIAG_VMA_SIZE_VER0 + 8;
	rec.stat_len = STAT;
	rec.vma_len = TASK_DIAG_VMA_SIZE_VER0 + 8 + STAT;
	memcpy(tail, "/usr/x1", 8);
	CHECK_EQ(run_one_rec(&rec, TASK_DIAG_VMA_SIZE_VER0, tail, sizeof(tail),
			     SHOW_ALL, &v, name, id), 1);
	CHECK(!strcmp(name, "/usr/x1"));
	CHECK(v.stat);
	CHECK(!v.build_id);
	CHECK_EQ(v.build_id_len, 0);
	return 0;
}

static int build_id_lies(void)
{
	char tail[STAT + ID_LEN + 8], name[16];
	struct task_diag_vma rec;
	struct taskdiag_vma v;
	__u8 id[64];

	id_rec(&rec, tail);
	rec.build_id_len = ID_LEN + 1;		/* longer than any */
	CHECK_EQ(run_one_rec(&rec, REC, tail, sizeof(tail), SHOW_IDS, &v,
			     name, id), -EBADMSG);
	id_rec(&rec, tail);
	rec.build_id_off = rec.vma_len - 4;	/* past the end */
	CHECK_EQ(run_one_rec(&rec, REC, tail, sizeof(tail), SHOW_IDS, &v,
			     name, id), -EBADMSG);
	id_rec(&rec, tail);
	rec.build_id_off = 16;			/* in the fixed fields */
	CHECK_EQ(run_one_rec(&rec, REC, tail, sizeof(tail), SHOW_IDS, &v,
			     name, id), -EBADMSG);
	id_rec(&rec, tail);
	rec.build_id_off = REC + STAT + 4;	/* over the name */
	CHECK_EQ(run_one_rec(&rec, REC, tail, sizeof(tail), SHOW_IDS, &v,
			     name, id), -EBADMSG);
	id_rec(&rec, tail);
	rec.build_id_off = TASK_DIAG_VMA_SIZE_VER0 + 2;	/* reserved fields */
	rec.build_id_len = 4;
	CHECK_EQ(run_one_rec(&rec, REC, tail, sizeof(tail), SHOW_IDS, &v,
			     name, id), -EBADMSG);
	id_rec(&rec, tail);
	rec.build_id_off = REC + STAT - 4;	/* over the stat */
	CHECK_EQ(run_one_rec(&rec, REC, tail, sizeof(tail), SHOW_IDS, &v,
			     name, id), -EBADMSG);
	return 0;
}

static int empty_vma_attr(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret = -1;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_attr(&sb, TASK_DIAG_VMA, NULL, 0);
	sb_msg_end(&sb);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	if (taskdiag__next(td, &task) == 1 &&
	    taskdiag_task__has(task, TASK_DIAG_VMA) &&
	    !taskdiag_task__nr_vmas(task) && !taskdiag_task__vma(task, 0))
		ret = 0;
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

static int format_like_maps(void)
{
	struct taskdiag_vma v;
	char buf[256];
	int len;

	memset(&v, 0, sizeof(v));
	v.start = 0x55e213ee8000ULL;
	v.end = 0x55e213eea000ULL;
	v.vm_flags = TASK_DIAG_VMA_F_READ | TASK_DIAG_VMA_F_EXEC;
	v.pgoff = 0x2000;
	v.major = 0xfe;
	v.inode = 247134;
	v.name = "/usr/bin/cat";
	len = taskdiag_vma__format(&v, buf, sizeof(buf));
	CHECK(!strcmp(buf, "55e213ee8000-55e213eea000 r-xp 00002000 fe:00 247134"
		      "                     /usr/bin/cat"));
	CHECK_EQ(len, strlen(buf));

	v.name = NULL;
	v.vm_flags |= TASK_DIAG_VMA_F_WRITE | TASK_DIAG_VMA_F_MAYSHARE;
	v.inode = 0;
	v.major = 0;
	v.pgoff = 0;
	taskdiag_vma__format(&v, buf, sizeof(buf));
	CHECK(!strcmp(buf, "55e213ee8000-55e213eea000 rwxs 00000000 00:00 0 "));

	v.start = 0x1000;
	v.end = 0x2000;
	v.minor = 0x123;
	v.inode = 18446744073709551615ULL;
	v.name = "[x]";
	taskdiag_vma__format(&v, buf, sizeof(buf));
	CHECK(!strncmp(buf, "00001000-00002000 rwxs 00000000 00:123 18446744073709551615 ", 60));
	CHECK_EQ(strspn(buf + 60, " "), 13);
	CHECK(!strcmp(buf + 73, "[x]"));

	len = taskdiag_vma__format(&v, buf, 10);
	CHECK_EQ(strlen(buf), 9);
	CHECK(len > 70);
	return 0;
}

const struct td_test vma_tests[] = {
	TD_TEST(good_record),
	TD_TEST(name_off_out_of_bounds),
	TD_TEST(name_len_out_of_bounds),
	TD_TEST(name_in_header),
	TD_TEST(name_not_terminated),
	TD_TEST(stat_off_out_of_bounds),
	TD_TEST(stat_len_too_short),
	TD_TEST(name_and_stat_overlap),
	TD_TEST(vma_len_zero),
	TD_TEST(vma_len_beyond_attr),
	TD_TEST(truncated_record),
	TD_TEST(longer_record),
	TD_TEST(build_id_record),
	TD_TEST(build_id_not_asked),
	TD_TEST(record_of_older_kernel),
	TD_TEST(build_id_lies),
	TD_TEST(empty_vma_attr),
	TD_TEST(format_like_maps),
	{ }
};
