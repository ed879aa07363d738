// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/task-diag request/response semantics: one request written, the
 * response read until read() returns 0, errors for bad requests and bad
 * reads, and the netlink headers of the response.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "td_test.h"

#define NR_CHILDREN	3
/* Room for one BASE-only message (76 bytes), but not for two */
#define ONE_MSG_BUF	128

FIXTURE(txn) {
	/* sleeping children: CHILDREN of the test has NR_CHILDREN messages */
	pid_t child[NR_CHILDREN];
	/* /proc/task-diag, opened by FIXTURE_SETUP */
	int fd;
};

FIXTURE_SETUP(txn)
{
	int i;

	self->fd = -1;
	TD_SKIP_IF_MISSING();
	for (i = 0; i < NR_CHILDREN; i++) {
		self->child[i] = spawn_child(NULL, NULL);
		ASSERT_GT(self->child[i], 0);
	}
	self->fd = td_open();
	ASSERT_GE(self->fd, 0) TH_LOG("open %s: %m", TD_PATH);
}

FIXTURE_TEARDOWN(txn)
{
	if (self->fd >= 0)
		close(self->fd);
	kill_reap_all(self->child, NR_CHILDREN);
}

/* @d holds exactly the NR_CHILDREN children of the fixture, once each */
static bool has_children(FIXTURE_DATA(txn) *self, struct td_dump *d)
{
	int i;

	if (d->nr_tasks != NR_CHILDREN)
		return false;
	for (i = 0; i < NR_CHILDREN; i++)
		if (td_count(d, self->child[i]) != 1)
			return false;
	return true;
}

TEST_F(txn, drained_read_returns_zero_again)
{
	struct td_dump d;
	char buf[4096];
	int i;

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_CHILDREN, getpid(), 1));
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 1);
	ASSERT_EQ(0, td_read_all(self->fd, &d, sizeof(buf)));
	TD_EXPECT_CLEAN(&d);
	EXPECT_TRUE(has_children(self, &d));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(0, read(self->fd, buf, sizeof(buf)));
	}
	td_dump_free(&d);
}

TEST_F(txn, write_mid_response_ebusy)
{
	struct td_dump d;

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_CHILDREN, getpid(), 1));
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 1);
	ASSERT_GT(td_read_once(self->fd, &d, ONE_MSG_BUF), 0);
	ASSERT_EQ(1U, d.nr_msgs);

	EXPECT_EQ(-EBUSY, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				     TASK_DIAG_DUMP_ONE, getpid(), 2));
	EXPECT_EQ(-EBUSY, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				     TASK_DIAG_DUMP_ALL, 0, 3));

	/* the response in progress goes on undisturbed */
	ASSERT_EQ(0, td_read_all(self->fd, &d, 4096));
	TD_EXPECT_CLEAN(&d);
	EXPECT_TRUE(has_children(self, &d));
	td_dump_free(&d);
}

TEST_F(txn, write_after_drain_starts_over)
{
	struct td_dump d;

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_ONE, getpid(), 1));
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 1);
	ASSERT_EQ(0, td_read_all(self->fd, &d, 4096));
	TD_EXPECT_CLEAN(&d);
	ASSERT_EQ(1U, d.nr_tasks);
	EXPECT_EQ((__u32)getpid(), d.tasks[0].pid);
	td_dump_free(&d);

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_ONE, self->child[1], 2));
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 2);
	ASSERT_EQ(0, td_read_all(self->fd, &d, 4096));
	TD_EXPECT_CLEAN(&d);
	ASSERT_EQ(1U, d.nr_tasks);
	EXPECT_EQ((__u32)self->child[1], d.tasks[0].pid);
	td_dump_free(&d);

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_CHILDREN, getpid(), 3));
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 3);
	ASSERT_EQ(0, td_read_all(self->fd, &d, 4096));
	TD_EXPECT_CLEAN(&d);
	EXPECT_TRUE(has_children(self, &d));
	td_dump_free(&d);
}

TEST_F(txn, reopen_starts_over)
{
	struct td_dump d;
	char buf[64];

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_CHILDREN, getpid(), 1));
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 1);
	ASSERT_GT(td_read_once(self->fd, &d, ONE_MSG_BUF), 0);
	td_dump_free(&d);
	close(self->fd);

	self->fd = td_open();
	ASSERT_GE(self->fd, 0);
	/* the new file has no request: nothing of the old one is left */
	EXPECT_EQ(-1, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, td_dump_fd(self->fd, &d, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_CHILDREN, getpid(), 4096));
	TD_EXPECT_CLEAN(&d);
	EXPECT_TRUE(has_children(self, &d));
	td_dump_free(&d);
}

TEST_F(txn, fds_are_independent)
{
	pid_t pid[3] = { getpid(), self->child[1], getpid() };
	__u64 strategy[3] = { TASK_DIAG_DUMP_CHILDREN, TASK_DIAG_DUMP_ONE,
			      TASK_DIAG_DUMP_ONE };
	struct td_dump d[3];
	int fd[3], i, left;

	for (i = 0; i < 3; i++) {
		fd[i] = i ? td_open() : self->fd;
		ASSERT_GE(fd[i], 0);
	}
	/* each request is written while the previous file is mid-response */
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, td_request(fd[i], TASK_DIAG_SHOW_BASE, strategy[i],
					pid[i], 10 + i));
		td_dump_init(&d[i], TASK_DIAG_SHOW_BASE, 10 + i);
		ASSERT_GE(td_read_once(fd[i], &d[i], ONE_MSG_BUF), 0);
	}
	do {
		for (left = 0, i = 0; i < 3; i++) {
			if (d[i].finished)
				continue;
			ASSERT_GE(td_read_once(fd[i], &d[i], ONE_MSG_BUF), 0);
			left++;
		}
	} while (left);

	for (i = 0; i < 3; i++) {
		TD_EXPECT_CLEAN(&d[i]);
	}
	EXPECT_TRUE(has_children(self, &d[0]));
	ASSERT_EQ(1U, d[1].nr_tasks);
	EXPECT_EQ((__u32)self->child[1], d[1].tasks[0].pid);
	ASSERT_EQ(1U, d[2].nr_tasks);
	EXPECT_EQ((__u32)getpid(), d[2].tasks[0].pid);
	for (i = 0; i < 3; i++) {
		td_dump_free(&d[i]);
		if (i)
			close(fd[i]);
	}
}

TEST_F(txn, read_before_write_einval)
{
	char buf[4096];

	EXPECT_EQ(-1, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(txn, zero_length_read_einval)
{
	struct td_dump d;
	char buf[16];

	EXPECT_EQ(-1, read(self->fd, buf, 0));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_CHILDREN, getpid(), 1));
	EXPECT_EQ(-1, read(self->fd, buf, 0));
	EXPECT_EQ(EINVAL, errno);

	/* and the response is all there */
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 1);
	ASSERT_EQ(0, td_read_all(self->fd, &d, 4096));
	TD_EXPECT_CLEAN(&d);
	EXPECT_TRUE(has_children(self, &d));
	td_dump_free(&d);
}

TEST_F(txn, small_buffer_emsgsize)
{
	/* a message with a BASE attribute takes at least 73 bytes */
	static const size_t sizes[] = { 1, NLMSG_HDRLEN, 40, 64 };
	struct td_dump d;
	char buf[64];
	size_t i;

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_ONE, getpid(), 1));
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		EXPECT_EQ(-1, read(self->fd, buf, sizes[i]));
		EXPECT_EQ(EMSGSIZE, errno) TH_LOG("read of %zu bytes", sizes[i]);
	}
	/* the transaction is still there for a big enough buffer */
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 1);
	ASSERT_EQ(0, td_read_all(self->fd, &d, 4096));
	TD_EXPECT_CLEAN(&d);
	ASSERT_EQ(1U, d.nr_tasks);
	EXPECT_EQ((__u32)getpid(), d.tasks[0].pid);
	EXPECT_NE(0U, d.tasks[0].groups & TASK_DIAG_SHOW_BASE);
	td_dump_free(&d);
}

/* write() @len bytes of a request whose nlmsg_len is @nlmsg_len */
static ssize_t write_raw(int fd, size_t len, __u32 nlmsg_len, __u64 show,
			 __u64 strategy, __u32 pid)
{
	char *buf = calloc(1, len + 1);
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	ssize_t ret;
	int err;

	if (!buf)
		return -1;
	td_req_fill(buf, len, show, strategy, pid, 1);
	if (len >= sizeof(*nlh))
		nlh->nlmsg_len = nlmsg_len;
	ret = write(fd, buf, len);
	err = errno;
	free(buf);
	errno = err;
	return ret;
}

/* After a refused request the file still serves a good one */
static void expect_usable(struct __test_metadata *_metadata, int fd)
{
	struct td_dump d;

	EXPECT_EQ(0, td_dump_fd(fd, &d, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_ONE, getpid(), 4096));
	TD_EXPECT_CLEAN(&d);
	EXPECT_EQ(1U, d.nr_tasks);
	td_dump_free(&d);
}

/* The answer to the ONE request of the test just written: itself */
static void expect_self(struct __test_metadata *_metadata, int fd)
{
	struct td_dump d;

	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 1);
	EXPECT_EQ(0, td_read_all(fd, &d, 4096));
	TD_EXPECT_CLEAN(&d);
	ASSERT_EQ(1U, d.nr_tasks);
	EXPECT_EQ((__u32)getpid(), d.tasks[0].pid);
	td_dump_free(&d);
}

TEST_F(txn, short_write_einval)
{
	static const size_t lens[] = { 1, NLMSG_HDRLEN - 1, NLMSG_HDRLEN,
				       TD_REQ_MIN - 1 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		EXPECT_EQ(-1, write_raw(self->fd, lens[i], lens[i],
					TASK_DIAG_SHOW_BASE,
					TASK_DIAG_DUMP_ONE, getpid()));
		EXPECT_EQ(EINVAL, errno) TH_LOG("write of %zu bytes", lens[i]);
	}
	expect_usable(_metadata, self->fd);
}

TEST_F(txn, nlmsg_len_mismatch_einval)
{
	static const __u32 lens[] = { 0, TD_REQ_LEN - 4, TD_REQ_LEN + 4,
				      TD_REQ_MIN, 0xffffffff };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		EXPECT_EQ(-1, write_raw(self->fd, TD_REQ_LEN, lens[i],
					TASK_DIAG_SHOW_BASE,
					TASK_DIAG_DUMP_ONE, getpid()));
		EXPECT_EQ(EINVAL, errno) TH_LOG("nlmsg_len %u", lens[i]);
	}
	expect_usable(_metadata, self->fd);
}

TEST_F(txn, oversized_write_einval)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t lens[] = { page + 1, page + 4, 2 * page };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		EXPECT_EQ(-1, write_raw(self->fd, lens[i], lens[i],
					TASK_DIAG_SHOW_BASE,
					TASK_DIAG_DUMP_ONE, getpid()));
		EXPECT_EQ(EINVAL, errno) TH_LOG("write of %zu bytes", lens[i]);
	}
	expect_usable(_metadata, self->fd);
}

TEST_F(txn, padded_requests_accepted)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t lens[] = { TD_REQ_MIN, TD_REQ_LEN, 128, page };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		EXPECT_EQ((ssize_t)lens[i],
			  write_raw(self->fd, lens[i], lens[i],
				    TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ONE,
				    getpid()))
			TH_LOG("write of %zu bytes: %m", lens[i]);
		expect_self(_metadata, self->fd);
	}
}

/* write() @len bytes of a good request with byte @off set to @val */
static ssize_t write_with_byte(int fd, size_t len, size_t off,
			       unsigned char val)
{
	unsigned char *buf = calloc(1, len);
	ssize_t ret;
	int err;

	if (!buf)
		return -1;
	td_req_fill(buf, len, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ONE,
		    getpid(), 1);
	buf[off] = val;
	ret = write(fd, buf, len);
	err = errno;
	free(buf);
	errno = err;
	return ret;
}

/* The request an i386 program sends: 20 bytes of payload, no tail padding */
TEST_F(txn, i386_request_size_accepted)
{
	EXPECT_EQ(36, TD_REQ_MIN);
	EXPECT_EQ((ssize_t)TD_REQ_MIN,
		  write_raw(self->fd, TD_REQ_MIN, TD_REQ_MIN,
			    TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ONE, getpid()))
		TH_LOG("write of %zu bytes: %m", (size_t)TD_REQ_MIN);
	expect_self(_metadata, self->fd);
}

/* Bytes beyond what the kernel knows: zero is fine, anything else E2BIG */
TEST_F(txn, unknown_tail_e2big)
{
	static const size_t offs[] = { NLMSG_HDRLEN + 28, NLMSG_HDRLEN + 32,
				       NLMSG_HDRLEN + 63 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		EXPECT_EQ(-1, write_with_byte(self->fd, 80, offs[i], 1));
		EXPECT_EQ(E2BIG, errno) TH_LOG("non-zero byte at %zu", offs[i]);
	}
	EXPECT_EQ(80, write_with_byte(self->fd, 80, 79, 0));
	expect_self(_metadata, self->fd);
}

/*
 * What the v3 example client sends: no type, and whatever its stack held
 * in the padding of the payload up to the 28 bytes of an attribute
 */
TEST_F(txn, v3_request_padding_ignored)
{
	unsigned char buf[TD_REQ_LEN];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct td_dump d;

	td_req_fill(buf, sizeof(buf), TASK_DIAG_SHOW_BASE,
		    TASK_DIAG_DUMP_CHILDREN, getpid(), 1);
	nlh->nlmsg_type = 0;
	memset(buf + NLMSG_HDRLEN + 20, 0xa5, 8);
	ASSERT_EQ((ssize_t)sizeof(buf), write(self->fd, buf, sizeof(buf)))
		TH_LOG("write: %m");
	td_dump_init(&d, TASK_DIAG_SHOW_BASE, 1);
	ASSERT_EQ(0, td_read_all(self->fd, &d, 4096));
	TD_EXPECT_CLEAN(&d);
	EXPECT_TRUE(has_children(self, &d));
	td_dump_free(&d);
}

TEST_F(txn, nlmsg_type_checked)
{
	static const __u16 bad[] = { NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE,
				     0x10, TASK_DIAG_CMD_GET + 1, 0xffff };
	unsigned char buf[TD_REQ_LEN];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		td_req_fill(buf, sizeof(buf), TASK_DIAG_SHOW_BASE,
			    TASK_DIAG_DUMP_ONE, getpid(), 1);
		nlh->nlmsg_type = bad[i];
		EXPECT_EQ(-1, write(self->fd, buf, sizeof(buf)));
		EXPECT_EQ(EINVAL, errno) TH_LOG("nlmsg_type %#x", bad[i]);
	}
	expect_usable(_metadata, self->fd);
}

/* NLMSG_DONE ends the answer; when it does not fit, a read of its own */
TEST_F(txn, done_alone_when_no_room)
{
	char buf[4096];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	ssize_t all, len;

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_ONE, getpid(), 7));
	all = read(self->fd, buf, sizeof(buf));
	ASSERT_LT((ssize_t)NLMSG_LENGTH(sizeof(int)), all);
	nlh = (struct nlmsghdr *)(buf + all - NLMSG_LENGTH(sizeof(int)));
	EXPECT_EQ(NLMSG_DONE, nlh->nlmsg_type);
	EXPECT_EQ(0, read(self->fd, buf, sizeof(buf)));

	ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_ONE, getpid(), 7));
	len = read(self->fd, buf, all - NLMSG_LENGTH(sizeof(int)));
	EXPECT_EQ(all - (ssize_t)NLMSG_LENGTH(sizeof(int)), len);
	nlh = (struct nlmsghdr *)buf;
	EXPECT_EQ(TASK_DIAG_CMD_GET, nlh->nlmsg_type);
	len = read(self->fd, buf, sizeof(buf));
	ASSERT_EQ((ssize_t)NLMSG_LENGTH(sizeof(int)), len);
	EXPECT_EQ(NLMSG_DONE, nlh->nlmsg_type);
	EXPECT_EQ(7U, nlh->nlmsg_seq);
	EXPECT_NE(0, nlh->nlmsg_flags & NLM_F_MULTI);
	EXPECT_EQ(0, *(int *)NLMSG_DATA(nlh));
	EXPECT_EQ(0, read(self->fd, buf, sizeof(buf)));
}

TEST_F(txn, unknown_strategy_einval)
{
	static const __u64 bad[] = { 5, 6, 0x100, 1ULL << 32,
				     (1ULL << 32) | TASK_DIAG_DUMP_ONE,
				     ~0ULL };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, td_request(self->fd, TASK_DIAG_SHOW_BASE,
					      bad[i], getpid(), 1))
			TH_LOG("dump_strategy %#llx", (unsigned long long)bad[i]);
	}
	expect_usable(_metadata, self->fd);
}

TEST_F(txn, unknown_show_flags_einval)
{
	static const __u64 bad[] = {
		1ULL << 40,
		TASK_DIAG_SHOW_BASE | (1ULL << 40),
		1ULL << (TASK_DIAG_ATTR_MAX + 1),
		1ULL << 63,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, td_request(self->fd, bad[i],
					      TASK_DIAG_DUMP_ONE, getpid(), 1))
			TH_LOG("show_flags %#llx", (unsigned long long)bad[i]);
	}
	expect_usable(_metadata, self->fd);
}

TEST_F(txn, vma_stat_without_vma_einval)
{
	struct td_dump d;

	EXPECT_EQ(-EINVAL, td_request(self->fd, TASK_DIAG_SHOW_VMA_STAT,
				      TASK_DIAG_DUMP_ONE, getpid(), 1));
	EXPECT_EQ(-EINVAL, td_request(self->fd, TASK_DIAG_SHOW_VMA_STAT |
				      TASK_DIAG_SHOW_BASE,
				      TASK_DIAG_DUMP_ONE, getpid(), 1));
	/* with TASK_DIAG_SHOW_VMA it is fine */
	EXPECT_EQ(0, td_dump_fd(self->fd, &d, TASK_DIAG_SHOW_VMA |
				TASK_DIAG_SHOW_VMA_STAT, TASK_DIAG_DUMP_ONE,
				self->child[0], TD_BUF_BIG));
	TD_EXPECT_CLEAN(&d);
	EXPECT_EQ(1U, d.nr_tasks);
	td_dump_free(&d);
}

TEST_F(txn, vma_exec_without_vma_einval)
{
	EXPECT_EQ(-EINVAL, td_request(self->fd, TASK_DIAG_SHOW_VMA_EXEC |
				      TASK_DIAG_SHOW_BASE,
				      TASK_DIAG_DUMP_ONE, getpid(), 1));
	expect_usable(_metadata, self->fd);
}

TEST_F(txn, vma_leaders_and_build_id_without_vma_einval)
{
	EXPECT_EQ(-EINVAL, td_request(self->fd, TASK_DIAG_SHOW_VMA_LEADERS |
				      TASK_DIAG_SHOW_BASE,
				      TASK_DIAG_DUMP_ALL_THREAD, 0, 1));
	EXPECT_EQ(-EINVAL, td_request(self->fd, TASK_DIAG_SHOW_VMA_BUILD_ID |
				      TASK_DIAG_SHOW_BASE,
				      TASK_DIAG_DUMP_ONE, getpid(), 1));
	expect_usable(_metadata, self->fd);
}

TEST_F(txn, per_process_pid0_esrch)
{
	static const __u64 strategies[] = { TASK_DIAG_DUMP_ONE,
					    TASK_DIAG_DUMP_THREAD,
					    TASK_DIAG_DUMP_CHILDREN };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(strategies); i++) {
		EXPECT_EQ(-ESRCH, td_request(self->fd, TASK_DIAG_SHOW_BASE,
					     strategies[i], 0, 1))
			TH_LOG("dump_strategy %llu",
			       (unsigned long long)strategies[i]);
	}
	expect_usable(_metadata, self->fd);
}

TEST_F(txn, per_process_missing_pid_esrch)
{
	static const __u64 strategies[] = { TASK_DIAG_DUMP_ONE,
					    TASK_DIAG_DUMP_THREAD,
					    TASK_DIAG_DUMP_CHILDREN };
	pid_t gone = spawn_child(NULL, NULL);
	size_t i;

	ASSERT_GT(gone, 0);
	kill_reap(gone);
	for (i = 0; i < ARRAY_SIZE(strategies); i++) {
		EXPECT_EQ(-ESRCH, td_request(self->fd, TASK_DIAG_SHOW_BASE,
					     strategies[i], gone, 1))
			TH_LOG("dump_strategy %llu of reaped pid %d",
			       (unsigned long long)strategies[i], gone);
		EXPECT_EQ(-ESRCH, td_request(self->fd, TASK_DIAG_SHOW_BASE,
					     strategies[i], 0x7fffffff, 1));
	}
	expect_usable(_metadata, self->fd);
}

/* ALL and ALL_THREAD ignore the pid, whatever it is */
TEST_F(txn, system_wide_ignore_pid)
{
	static const __u64 strategies[] = { TASK_DIAG_DUMP_ALL,
					    TASK_DIAG_DUMP_ALL_THREAD };
	static const __u32 pids[] = { 0, 1, 0x7fffffff };
	struct td_dump d;
	size_t i, j;

	for (i = 0; i < 2; i++) {
		for (j = 0; j < ARRAY_SIZE(pids); j++) {
			EXPECT_EQ(0, td_dump_fd(self->fd, &d,
						TASK_DIAG_SHOW_BASE,
						strategies[i], pids[j], 4096))
				TH_LOG("strategy %zu pid %u", i, pids[j]);
			TD_EXPECT_CLEAN(&d);
			EXPECT_EQ(1U, td_count(&d, getpid()));
			EXPECT_EQ(1U, td_count(&d, self->child[2]));
			td_dump_free(&d);
		}
	}
}

/*
 * Every message: TASK_DIAG_CMD_GET, NLM_F_MULTI, the request's seq; the
 * last one of the answer NLMSG_DONE (*@done), nothing after it
 */
static int check_headers(const char *buf, ssize_t len, __u32 seq,
			 unsigned int *nr, bool *done)
{
	const struct nlmsghdr *nlh;
	ssize_t off = 0;

	while (off < len) {
		nlh = (const struct nlmsghdr *)(buf + off);
		if (len - off < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN ||
		    nlh->nlmsg_len > len - off || *done)
			return -1;
		if (nlh->nlmsg_type == NLMSG_DONE)
			*done = true;
		else if (nlh->nlmsg_type != TASK_DIAG_CMD_GET)
			return -1;
		if (!(nlh->nlmsg_flags & NLM_F_MULTI) || nlh->nlmsg_seq != seq)
			return -1;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
		(*nr)++;
	}
	return 0;
}

TEST_F(txn, message_headers)
{
	static const __u32 seqs[] = { 0, 0xdeadbeef, 0xffffffff };
	char *buf = malloc(4096);
	unsigned int nr;
	ssize_t len;
	bool done;
	size_t i;

	ASSERT_NE(NULL, buf);
	for (i = 0; i < ARRAY_SIZE(seqs); i++) {
		ASSERT_EQ(0, td_request(self->fd, TASK_DIAG_SHOW_BASE,
					TASK_DIAG_DUMP_ALL, 0, seqs[i]));
		nr = 0;
		done = false;
		while ((len = read(self->fd, buf, 4096)) > 0) {
			EXPECT_EQ(0, check_headers(buf, len, seqs[i], &nr,
						   &done))
				TH_LOG("seq %#x, message %u", seqs[i], nr);
		}
		EXPECT_EQ(0, len);
		EXPECT_TRUE(done);
		/* the 3 children and the test at least */
		EXPECT_GE(nr, NR_CHILDREN + 1U);
	}
	free(buf);
}

/* Each read() returns whole messages, whatever its size */
TEST_F(txn, whole_messages_per_read)
{
	static const size_t sizes[] = { 512, 1000, 4096, TD_BUF_BIG };
	__u64 show = TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA;
	struct td_dump d;
	size_t i;
	int c;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		ASSERT_EQ(0, td_dump_fd(self->fd, &d, show,
					TASK_DIAG_DUMP_CHILDREN, getpid(),
					sizes[i]));
		if (d.nr_errors)
			TH_LOG("reads of %zu bytes", sizes[i]);
		TD_EXPECT_CLEAN(&d);
		EXPECT_LE(d.max_read, sizes[i]);
		ASSERT_TRUE(has_children(self, &d));
		for (c = 0; c < NR_CHILDREN; c++) {
			EXPECT_LT(0U, td_find(&d, self->child[c])->nr_vmas);
		}
		td_dump_free(&d);
	}
}

TEST_HARNESS_MAIN
