// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Tests of the reassembly of tasks continued over several messages
 * (TASK_DIAG_FLAG_CONT).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "tests.h"

#define CONT	TASK_DIAG_FLAG_CONT

/* The VMAs @from..@to - 1 that sb_task(@pid) would have made */
static void vmas(struct sb *sb, __u32 pid, int from, int to)
{
	char name[32];
	int i;

	sb_attr_begin(sb, TASK_DIAG_VMA);
	for (i = from; i < to; i++) {
		snprintf(name, sizeof(name), "/vma/%d", i);
		sb_vma(sb, ((__u64)pid << 20) + i * SB_VMA_LEN,
		       i % 3 ? name : NULL, true);
	}
	sb_attr_end(sb);
}

/*
 * Task 9 in three messages, its VMAs split 2 + 2 + 1, then task 10;
 * @ends gets where each message ends.
 */
static void split_task(struct sb *sb, size_t ends[4])
{
	struct task_diag_stat st = { .threads = 3 };
	struct task_diag_statm sm = { .total_vm = 9 };

	sb_init(sb, 1);
	sb_msg_begin(sb, TASK_DIAG_CMD_GET, 9, 9, CONT);
	sb_base(sb, 9, 9, "split");
	vmas(sb, 9, 0, 2);
	sb_msg_end(sb);
	ends[0] = sb->len;
	sb_msg_begin(sb, TASK_DIAG_CMD_GET, 9, 9, CONT);
	vmas(sb, 9, 2, 4);
	sb_msg_end(sb);
	ends[1] = sb->len;
	sb_msg_begin(sb, TASK_DIAG_CMD_GET, 9, 9, 0);
	vmas(sb, 9, 4, 5);
	sb_attr(sb, TASK_DIAG_STAT, &st, sizeof(st));
	sb_attr(sb, TASK_DIAG_STATM, &sm, sizeof(sm));
	sb_msg_end(sb);
	ends[2] = sb->len;
	sb_task(sb, 10, 10, 2);
	ends[3] = sb->len;
}

static int check_split(struct taskdiag *td)
{
	struct taskdiag_task *task;

	CHECK_EQ(taskdiag__next(td, &task), 1);
	CHECK_EQ(taskdiag_task__pid(task), 9);
	CHECK(!taskdiag_task__exited(task));
	CHECK(!strcmp(taskdiag_task__base(task, NULL)->comm, "split"));
	CHECK_EQ(taskdiag_task__stat(task, NULL)->threads, 3);
	CHECK_EQ(taskdiag_task__statm(task, NULL)->total_vm, 9);
	CHECK(!taskdiag_task__creds(task, NULL));
	if (check_task_vmas(task, 9ULL << 20, 0, 5))
		return -1;
	CHECK_EQ(taskdiag__next(td, &task), 1);
	CHECK_EQ(taskdiag_task__pid(task), 10);
	if (check_task_vmas(task, 10ULL << 20, 0, 2))
		return -1;
	CHECK_EQ(taskdiag__next(td, &task), 0);
	return 0;
}

static int cont_in_one_buffer(void)
{
	struct mem_source ms;
	struct taskdiag *td;
	size_t ends[4];
	struct sb sb;
	int ret;

	split_task(&sb, ends);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	ret = check_split(td);
	CHECK(ret || ms.nr_reads == 2);
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

/* Each message in its own read, in a buffer that has to grow */
static int cont_across_reads(void)
{
	struct mem_source ms;
	struct taskdiag *td;
	size_t ends[4];
	struct sb sb;
	int ret;

	split_task(&sb, ends);
	td = mem_session(&ms, &sb, 64);
	CHECK(td);
	ms.cuts = ends;
	ms.nr_cuts = 4;
	ret = check_split(td);
	if (!ret && taskdiag__buf_size(td) <= 64)
		ret = -1;
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

/* Reads of whole messages in a buffer that holds one message at most */
static int cont_one_message_per_read(void)
{
	struct mem_source ms;
	struct taskdiag *td;
	size_t ends[4];
	struct sb sb;
	int ret;

	split_task(&sb, ends);
	td = mem_session(&ms, &sb, ends[0] + 8);
	CHECK(td);
	ret = check_split(td);
	if (!ret && ms.nr_reads < 4)
		ret = -1;
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

static int cont_many_messages(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int i, ret = -1;

	sb_init(&sb, 1);
	for (i = 0; i < 300; i++) {
		sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 7, 7, i < 299 ? CONT : 0);
		vmas(&sb, 7, i, i + 1);
		sb_msg_end(&sb);
	}
	td = mem_session(&ms, &sb, 256);
	CHECK(td);
	if (taskdiag__next(td, &task) == 1 &&
	    !check_task_vmas(task, 7ULL << 20, 0, 300) &&
	    taskdiag__next(td, &task) == 0)
		ret = 0;
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

static int run_sb(struct sb *sb, struct run *r)
{
	struct mem_source ms;
	struct taskdiag *td = mem_session(&ms, sb, 0);
	int ret;

	if (!td)
		return -1000;
	ret = run_all(td, r);
	taskdiag__delete(td);
	sb_free(sb);
	return ret;
}

static int cont_then_other_pid(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 9, 9, CONT);
	vmas(&sb, 9, 0, 2);
	sb_msg_end(&sb);
	sb_task(&sb, 10, 10, 1);
	CHECK_EQ(run_sb(&sb, &r), -EPROTO);
	CHECK_EQ(r.nr_tasks, 0);
	return 0;
}

static int cont_then_other_tgid(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 9, 9, CONT);
	vmas(&sb, 9, 0, 2);
	sb_msg_end(&sb);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 9, 8, 0);
	sb_msg_end(&sb);
	CHECK_EQ(run_sb(&sb, &r), -EPROTO);
	return 0;
}

/* The documented close of a continued task that exited */
static int cont_closed_by_empty_message(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 9, 9, CONT);
	sb_base(&sb, 9, 9, "gone");
	vmas(&sb, 9, 0, 2);
	sb_msg_end(&sb);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 9, 9, 0);
	sb_msg_end(&sb);
	sb_task(&sb, 10, 10, 1);
	CHECK_EQ(run_sb(&sb, &r), 0);
	CHECK_EQ(r.nr_tasks, 2);
	CHECK_EQ(r.pids[0], 9);
	CHECK(r.exited[0]);
	CHECK_EQ(r.nr_vmas[0], 2);
	CHECK_EQ(r.pids[1], 10);
	CHECK(!r.exited[1]);
	CHECK_EQ(r.nr_vmas[1], 1);
	return 0;
}

static int cont_at_end_of_answer(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_task(&sb, 8, 8, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 9, 9, CONT);
	vmas(&sb, 9, 0, 2);
	sb_msg_end(&sb);
	CHECK_EQ(run_sb(&sb, &r), -EPROTO);
	CHECK_EQ(r.nr_tasks, 1);
	return 0;
}

static int cont_then_done(void)
{
	struct run r;
	struct sb sb;

	sb_init(&sb, 1);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 9, 9, CONT);
	vmas(&sb, 9, 0, 2);
	sb_msg_end(&sb);
	sb_done(&sb);
	CHECK_EQ(run_sb(&sb, &r), -EPROTO);
	return 0;
}

/* A big task, then a small one: nothing of the first is left over */
static int task_storage_reused(void)
{
	struct taskdiag_task *task;
	struct mem_source ms;
	struct taskdiag *td;
	struct sb sb;
	int ret = -1;

	sb_init(&sb, 1);
	sb_task(&sb, 1, 1, 200);
	sb_task(&sb, 2, 2, 2);
	sb_msg_begin(&sb, TASK_DIAG_CMD_GET, 3, 3, 0);
	sb_msg_end(&sb);
	td = mem_session(&ms, &sb, 0);
	CHECK(td);
	if (taskdiag__next(td, &task) != 1 ||
	    check_task_vmas(task, 1ULL << 20, 0, 200) ||
	    taskdiag__next(td, &task) != 1 ||
	    check_task_vmas(task, 2ULL << 20, 0, 2) ||
	    taskdiag__next(td, &task) != 1 ||
	    taskdiag_task__nr_vmas(task) || taskdiag_task__base(task, NULL) ||
	    taskdiag_task__has(task, TASK_DIAG_VMA))
		goto out;
	ret = 0;
out:
	taskdiag__delete(td);
	sb_free(&sb);
	return ret;
}

const struct td_test cont_tests[] = {
	TD_TEST(cont_in_one_buffer),
	TD_TEST(cont_across_reads),
	TD_TEST(cont_one_message_per_read),
	TD_TEST(cont_many_messages),
	TD_TEST(cont_then_other_pid),
	TD_TEST(cont_then_other_tgid),
	TD_TEST(cont_closed_by_empty_message),
	TD_TEST(cont_at_end_of_answer),
	TD_TEST(cont_then_done),
	TD_TEST(task_storage_reused),
	{ }
};
