// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Tests of the netlink parser: well-formed answers and every header that
 * lies.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "helpers.h"
#include "tests.h"

/* Run @sb to its end with a @buf_size buffer; the last return value */
static int run_sb(struct sb *sb, size_t buf_size, struct run *r)
{
	struct mem_source ms;
	struct taskdiag *td = mem_session(&ms, sb, buf_size);
	int ret;

	if (!td)
		return -1000;
	ret = run_all(td, r);
	taskdiag__delete(td);
	sb_free(sb);
	return ret;
}

static int check_groups(const struct taskdiag_task *task, __u32 pid)
{
	const struct task_diag_creds *c = taskdiag_task__creds(task, NULL);
	const struct task_diag_base *b = taskdiag_task__base(task, NULL);
	const struct task_diag_statm *sm = taskdiag_task__statm(task, NULL);
	const struct task_diag_stat *st = taskdiag_task__stat(task, NULL);

	CHECK(b && c && st && sm);
	CHECK_EQ(b->pid, pid);
	CHECK_EQ(b->ppid, 1);
	CHECK_EQ(b->state, TASK_DIAG_INTERRUPTIBLE);
	CHECK(!strcmp(b->comm, "task"));
	CHECK_EQ(c->uid, pid);
	CHECK_EQ(c->euid, pid + 1);
	CHECK_EQ(c->cap_effective.cap[1], 0x1ff);
	CHECK_EQ(st->minflt, pid);
	CHECK_EQ(st->threads, 1);
	CHECK_EQ(sm->total_vm, pid);
	CHECK((uintptr_t)st % 8 == 0 && (uintptr_t)sm % 8 == 0);
	CHECK(taskdiag_task__has(task, TASK_DIAG_VMA));
	CHECK(!taskdiag_task__has(task, TASK_DIAG_VMA_STAT));
	CHECK(!taskdiag_task__has(task, 77));
	CHECK(!taskdiag_task__exited(task));
	return 0;
}

static int valid_single_task(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret = -1;

	sb_init(&sb, 1);
	sb_task(&sb, 42, 40, 5);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	if (taskdiag__next(td, &task) != 1 || !task)
		goto out;
	if (taskdiag_task__pid(task) != 42 || taskdiag_task__tgid(task) != 40)
		goto out;
	if (check_groups(task, 42) ||
	    check_task_vmas(task, 42ULL << 20, 0, 5))
		goto out;
	if (taskdiag__next(td, &task) != 0 || task)
		goto out;
	ret = taskdiag__next(td, &task) == 0 ? 0 : -1;
out:
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

static int many_tasks_small_buffer(void)
{
	struct run r;
	struct sb sb;
	int i;

	sb_init(&sb, 1);
	for (i = 1; i <= 1000; i++)
		sb_task(&sb, i, i, i % 7);
	CHECK_EQ(run_sb(&sb, 4096, &r), 0);
	CHECK_EQ(r.nr_tasks, 1000);
	for (i = 0; i < 1000; i++) {
		CHECK_EQ(r.pids[i], i + 1);
		CHECK_EQ(r.nr_vmas[i], (i + 1) % 7);
	}
	return 0;
}

static int truncated_header(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 1);
	sb_raw(&sb, "\x40\x00\x00\x00\x01\xd1\x02\x00", 8);
	CHECK_EQ(run_sb(&sb, 0, &r), -EBADMSG);
	CHECK_EQ(r.nr_tasks, 1);
	return 0;
}

/* Set nlmsg_len of the message at @off */
static void set_nlmsg_len(struct sb *sb, size_t off, __u32 len)
{
	memcpy(sb->buf + off, &len, sizeof(len));
}

static int nlmsg_len_too_big(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 0);
	sb_task(&sb, 2, 2, 0);
	set_nlmsg_len(&sb, sb.msg, sb.len - sb.msg + 4);
	CHECK_EQ(run_sb(&sb, 0, &r), -EBADMSG);
	CHECK_EQ(r.nr_tasks, 1);
	return 0;
}

static int nlmsg_len_huge(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 0);
	set_nlmsg_len(&sb, 0, 0xffffffff);
	CHECK_EQ(run_sb(&sb, 0, &r), -EBADMSG);
	CHECK_EQ(r.nr_tasks, 0);
	return 0;
}

static int nlmsg_len_too_small(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 0);
	set_nlmsg_len(&sb, 0, NLMSG_HDRLEN - 1);
	CHECK_EQ(run_sb(&sb, 0, &r), -EBADMSG);
	CHECK_EQ(r.nr_tasks, 0);
	return 0;
}

/* nlmsg_len shorter than the message: its tail parses as a header */
static int nlmsg_len_short_of_attrs(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 0);
	set_nlmsg_len(&sb, 0, NLMSG_HDRLEN + sizeof(struct task_diag_msg) + 8);
	CHECK(run_sb(&sb, 0, &r) < 0);
	return 0;
}

static int no_task_diag_msg(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_msg_end(&sb);
	set_nlmsg_len(&sb, 0, NLMSG_HDRLEN + 8);
	sb.len = NLMSG_HDRLEN + 8;
	CHECK_EQ(run_sb(&sb, 0, &r), -EBADMSG);
	return 0;
}

static int empty_task_message(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 3, 3, 0);
	sb_msg_end(&sb);
	CHECK_EQ(run_sb(&sb, 0, &r), 0);
	CHECK_EQ(r.nr_tasks, 1);
	CHECK_EQ(r.pids[0], 3);
	CHECK(!r.exited[0]);
	return 0;
}

static int nla_len_too_big(void)
{
	struct task_diag_stat st = { 0 };
	__u16 len = 200;
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_attr(&sb, TASK_DIAG_STAT, &st, sizeof(st));
	memcpy(sb.buf + sb.attr, &len, sizeof(len));
	sb_msg_end(&sb);
	CHECK_EQ(run_sb(&sb, 0, &r), -EBADMSG);
	CHECK_EQ(r.nr_tasks, 0);
	return 0;
}

static int nla_len_too_small(void)
{
	struct task_diag_stat st = { 0 };
	__u16 len = 3;
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_attr(&sb, TASK_DIAG_STAT, &st, sizeof(st));
	memcpy(sb.buf + sb.attr, &len, sizeof(len));
	sb_msg_end(&sb);
	CHECK_EQ(run_sb(&sb, 0, &r), -EBADMSG);
	return 0;
}

static int truncated_attr_header(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_raw(&sb, "\x08\x00", 2);
	sb_msg_end(&sb);
	set_nlmsg_len(&sb, 0, sb.len - 2);
	CHECK_EQ(run_sb(&sb, 0, &r), -EBADMSG);
	return 0;
}

static int group_too_short(void)
{
	struct task_diag_base b = { .pid = 1 };
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_attr(&sb, TASK_DIAG_BASE, &b, sizeof(b) - 4);
	sb_msg_end(&sb);
	CHECK_EQ(run_sb(&sb, 0, &r), -EBADMSG);
	return 0;
}

/* A newer kernel's bigger group: its known prefix is taken */
static int group_longer_is_prefix(void)
{
	struct task_diag_statm sm[2];
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret;

	memset(sm, 0xee, sizeof(sm));
	sm[0].total_vm = 99;
	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_attr(&sb, TASK_DIAG_STATM, sm, sizeof(sm) - 3);
	sb_msg_end(&sb);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	ret = taskdiag__next(td, &task);
	if (ret == 1)
		ret = taskdiag_task__statm(task, NULL)->total_vm == 99 ? 0 : -1;
	taskdiag__delete(td);
	sb_free(&sb);
	CHECK_EQ(ret, 0);
	return 0;
}

static int duplicate_group(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_base(&sb, 1, 1, "a");
	sb_base(&sb, 1, 1, "b");
	sb_msg_end(&sb);
	CHECK_EQ(run_sb(&sb, 0, &r), -EPROTO);
	return 0;
}

static int unknown_attrs_skipped(void)
{
	char junk[37] = "from a newer kernel";
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret = -1;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 5, 5, 0);
	sb_attr(&sb, 42, junk, sizeof(junk));
	sb_base(&sb, 5, 5, "x");
	sb_attr(&sb, TASK_DIAG_VMA_STAT, junk, 3);
	sb_attr(&sb, 0x7fff, NULL, 0);
	sb_msg_end(&sb);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	if (taskdiag__next(td, &task) == 1 && taskdiag_task__base(task, NULL) &&
	    !strcmp(taskdiag_task__base(task, NULL)->comm, "x") &&
	    !taskdiag_task__has(task, 42) &&
	    taskdiag__next(td, &task) == 0)
		ret = 0;
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

static int nlmsg_error_errno(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 0);
	sb_error(&sb, -EPERM);
	sb_task(&sb, 2, 2, 0);
	CHECK_EQ(run_sb(&sb, 0, &r), -EPERM);
	CHECK_EQ(r.nr_tasks, 1);
	return 0;
}

static int nlmsg_error_ack_skipped(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_error(&sb, 0);
	sb_task(&sb, 1, 1, 0);
	CHECK_EQ(run_sb(&sb, 0, &r), 0);
	CHECK_EQ(r.nr_tasks, 1);
	return 0;
}

static int nlmsg_error_bad(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_error(&sb, 5000);
	CHECK_EQ(run_sb(&sb, 0, &r), -EBADMSG);
	sb_init(&sb, 1);
	sb_msg_begin(&sb, NLMSG_ERROR, 0, 0, 0);
	sb_raw(&sb, "\xff\xff", 2);
	sb_msg_end(&sb);
	CHECK_EQ(run_sb(&sb, 0, &r), -EBADMSG);
	return 0;
}

static int nlmsg_done_ends(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 2);
	sb_done(&sb);
	sb_task(&sb, 2, 2, 0);
	CHECK_EQ(run_sb(&sb, 0, &r), 0);
	CHECK_EQ(r.nr_tasks, 1);
	return 0;
}

static int noop_skipped(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, NLMSG_NOOP, 0, 0, 0);
	sb_msg_end(&sb);
	sb_task(&sb, 1, 1, 0);
	CHECK_EQ(run_sb(&sb, 0, &r), 0);
	CHECK_EQ(r.nr_tasks, 1);
	return 0;
}

static int unknown_type_eproto(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, 0x1234, 1, 1, 0);
	sb_msg_end(&sb);
	CHECK_EQ(run_sb(&sb, 0, &r), -EPROTO);
	return 0;
}

static int wrong_seq_eproto(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 7);
	sb_task(&sb, 1, 1, 0);
	CHECK_EQ(run_sb(&sb, 0, &r), -EPROTO);
	CHECK_EQ(r.nr_tasks, 0);
	return 0;
}

static int comm_not_terminated(void)
{
	struct task_diag_base b;
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret = -1;

	memset(&b, 'A', sizeof(b));
	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 1, 1, 0);
	sb_attr(&sb, TASK_DIAG_BASE, &b, sizeof(b));
	sb_msg_end(&sb);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	if (taskdiag__next(td, &task) == 1 &&
	    strlen(taskdiag_task__base(task, NULL)->comm) == TASK_DIAG_COMM_LEN - 1)
		ret = 0;
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

/* After a malformed message the answer is dropped, a new request works */
static int error_is_sticky(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret = -1;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 0);
	sb_raw(&sb, "junk", 4);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	if (taskdiag__next(td, &task) != 1 ||
	    taskdiag__next(td, &task) != -EBADMSG || task ||
	    taskdiag__next(td, &task) != -EBADMSG ||
	    !*taskdiag__errmsg(td))
		goto out;
	sb.len -= 4;
	sb.seq = 2;
	ms.len = sb.len;
	memcpy(sb.buf + 8, &sb.seq, sizeof(sb.seq));
	if (td_request(td, TASK_DIAG_DUMP_ALL, 0, SHOW_ALL) ||
	    taskdiag__next(td, &task) != 1 || taskdiag__next(td, &task) != 0)
		goto out;
	ret = 0;
out:
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

static int next_without_request(void)
{
	struct mem_source ms;
	struct taskdiag_opts opts = { .sz = sizeof(opts), .source = &ms.src };
	struct taskdiag_task *task;
	struct taskdiag *td;
	int ret;

	mem_source_init(&ms, NULL, 0);
	td = taskdiag__new(&opts);
	CHECK(td);
	ret = taskdiag__next(td, &task);
	taskdiag__delete(td);
	CHECK_EQ(ret, -EINVAL);
	return 0;
}

static int empty_answer(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	CHECK_EQ(run_sb(&sb, 0, &r), 0);
	CHECK_EQ(r.nr_tasks, 0);
	return 0;
}

const struct td_test parse_tests[] = {
	TD_TEST(valid_single_task),
	TD_TEST(many_tasks_small_buffer),
	TD_TEST(truncated_header),
	TD_TEST(nlmsg_len_too_big),
	TD_TEST(nlmsg_len_huge),
	TD_TEST(nlmsg_len_too_small),
	TD_TEST(nlmsg_len_short_of_attrs),
	TD_TEST(no_task_diag_msg),
	TD_TEST(empty_task_message),
	TD_TEST(nla_len_too_big),
	TD_TEST(nla_len_too_small),
	TD_TEST(truncated_attr_header),
	TD_TEST(group_too_short),
	TD_TEST(group_longer_is_prefix),
	TD_TEST(duplicate_group),
	TD_TEST(unknown_attrs_skipped),
	TD_TEST(nlmsg_error_errno),
	TD_TEST(nlmsg_error_ack_skipped),
	TD_TEST(nlmsg_error_bad),
	TD_TEST(nlmsg_done_ends),
	TD_TEST(noop_skipped),
	TD_TEST(unknown_type_eproto),
	TD_TEST(wrong_seq_eproto),
	TD_TEST(comm_not_terminated),
	TD_TEST(error_is_sticky),
	TD_TEST(next_without_request),
	TD_TEST(empty_answer),
	{ }
};
