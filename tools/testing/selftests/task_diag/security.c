// SPDX-License-Identifier: GPL-2.0
/*
 * Who sees what: a task is reported only if both the opener of the file
 * and its reader may ptrace it, and pids are those of the pid namespace of
 * the procfs the file was opened from.
 *
 * The checks that run in an unprivileged or namespaced child report the
 * first failure as the child's exit status: the number of the check (a
 * CHK_* value), logged by the parent.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "td_test.h"

#define NOBODY		65534
#define NR_NS_CHILDREN	3
#define NO_PIDNS	99	/* exit status: pid namespaces unsupported */

enum {
	CHK_OK,
	CHK_DROP,		/* setresuid() and co. */
	CHK_SPAWN,
	CHK_DUMP,		/* the dump itself failed */
	CHK_CLEAN,		/* protocol errors */
	CHK_SELF,		/* the reader is not reported once */
	CHK_OWN_CHILD,		/* its own child is not reported once */
	CHK_PID1,		/* pid 1 (root's) reported */
	CHK_ROOT_TASK,		/* the root test process reported */
	CHK_FOREIGN,		/* a task of another user reported */
	CHK_ESRCH,		/* a per-process request for root's task */
	CHK_OWN_ONE,		/* a per-process request for its own task */
	CHK_NS_PID1,		/* namespace: not pid 1 */
	CHK_NS_MOUNT,
	CHK_NS_SET,		/* namespace: not exactly its tasks */
	CHK_NS_PPID,
	CHK_NS_OUTER,		/* namespace: the outer file's view */
	CHK_FD,			/* passing the file descriptor */
};

/* Become nobody, dumpable like a process it would have started */
static int drop_privileges(void)
{
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY) ||
	    prctl(PR_SET_DUMPABLE, 1))
		return -1;
	return 0;
}

/* Run @fn in a child; its exit status (CHK_OK if all went well) */
static int run_child(int (*fn)(void *), void *arg, bool unprivileged)
{
	pid_t parent = getpid(), pid;
	int status;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		die_with_parent(parent);
		if (unprivileged && drop_privileges())
			_exit(CHK_DROP);
		_exit(fn(arg));
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);
}

/* What an unprivileged reader of an ALL dump must and must not see */
static int check_own_view(struct td_dump *d, pid_t root_pid, pid_t own_child)
{
	size_t i;

	if (d->nr_errors) {
		fprintf(stderr, "# %s\n", d->error);
		return CHK_CLEAN;
	}
	if (td_count(d, getpid()) != 1)
		return CHK_SELF;
	if (own_child && td_count(d, own_child) != 1)
		return CHK_OWN_CHILD;
	if (td_count(d, 1))
		return CHK_PID1;
	if (td_count(d, root_pid))
		return CHK_ROOT_TASK;
	for (i = 0; i < d->nr_tasks; i++) {
		if (d->tasks[i].creds.euid != NOBODY) {
			fprintf(stderr, "# pid %u of euid %u reported\n",
				d->tasks[i].pid, d->tasks[i].creds.euid);
			return CHK_FOREIGN;
		}
	}
	return CHK_OK;
}

#define VIEW_SHOW	(TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_CRED)

/* Unprivileged, on a file it opened: ALL shows its own tasks only */
static int unprivileged_all_fn(void *arg)
{
	pid_t root_pid = *(pid_t *)arg, child;
	struct td_dump d;
	int ret;

	child = spawn_child(NULL, NULL);
	if (child < 0)
		return CHK_SPAWN;
	ret = td_dump(&d, VIEW_SHOW, TASK_DIAG_DUMP_ALL, 0, TD_BUF_SMALL);
	ret = ret ? CHK_DUMP : check_own_view(&d, root_pid, child);
	td_dump_free(&d);
	kill_reap(child);
	return ret;
}

TEST(unprivileged_all_sees_own_tasks_only)
{
	pid_t self = getpid();

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	EXPECT_EQ(CHK_OK, run_child(unprivileged_all_fn, &self, true));
}

/* Unprivileged: per-process requests for root's tasks are refused */
static int unprivileged_per_process_fn(void *arg)
{
	static const __u64 strategies[] = { TASK_DIAG_DUMP_ONE,
					    TASK_DIAG_DUMP_THREAD,
					    TASK_DIAG_DUMP_CHILDREN };
	pid_t root_pid = *(pid_t *)arg;
	struct td_dump d;
	int fd = td_open(), ret = CHK_OK;
	size_t i;

	if (fd < 0)
		return CHK_DUMP;
	for (i = 0; i < 3 && !ret; i++) {
		if (td_request(fd, TASK_DIAG_SHOW_BASE, strategies[i], 1, 1) !=
		    -ESRCH ||
		    td_request(fd, TASK_DIAG_SHOW_BASE, strategies[i],
			       root_pid, 1) != -ESRCH)
			ret = CHK_ESRCH;
	}
	if (!ret && (td_dump_fd(fd, &d, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_ONE, getpid(), TD_BUF_SMALL) ||
		     d.nr_tasks != 1))
		ret = CHK_OWN_ONE;
	td_dump_free(&d);
	close(fd);
	return ret;
}

TEST(unprivileged_per_process_of_root_esrch)
{
	pid_t self = getpid();

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	EXPECT_EQ(CHK_OK, run_child(unprivileged_per_process_fn, &self, true));
}

struct fd_arg {
	pid_t root_pid;
	int fd;
	bool requested;		/* the request was written by root already */
};

/* Unprivileged, on a file root opened (and maybe wrote the request to) */
static int inherited_fd_fn(void *arg)
{
	struct fd_arg *a = arg;
	struct td_dump d;
	int ret;

	if (a->requested) {
		td_dump_init(&d, VIEW_SHOW, TD_SEQ);
		ret = td_read_all(a->fd, &d, TD_BUF_SMALL);
	} else {
		ret = td_dump_fd(a->fd, &d, VIEW_SHOW, TASK_DIAG_DUMP_ALL, 0,
				 TD_BUF_SMALL);
	}
	ret = ret ? CHK_DUMP : check_own_view(&d, a->root_pid, 0);
	td_dump_free(&d);
	return ret;
}

/* Opened by root, then read by a child that dropped its privileges */
TEST(root_opened_fd_read_unprivileged)
{
	struct fd_arg a = { .root_pid = getpid() };

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	a.fd = td_open();
	ASSERT_GE(a.fd, 0);
	EXPECT_EQ(CHK_OK, run_child(inherited_fd_fn, &a, true));
	close(a.fd);
}

/* Opened and requested by root, the response read unprivileged */
TEST(root_request_read_unprivileged)
{
	struct fd_arg a = { .root_pid = getpid(), .requested = true };

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	a.fd = td_open();
	ASSERT_GE(a.fd, 0);
	ASSERT_EQ(0, td_request(a.fd, VIEW_SHOW, TASK_DIAG_DUMP_ALL, 0,
				TD_SEQ));
	EXPECT_EQ(CHK_OK, run_child(inherited_fd_fn, &a, true));
	close(a.fd);
}

static int send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = {};
	char c = 'F';
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = {};
	char c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* Unprivileged: open the file, hand it over, stay alive until told */
static int opener_fn(void *arg)
{
	int sock = *(int *)arg, fd = td_open();
	char c;

	if (fd < 0 || send_fd(sock, fd))
		return CHK_FD;
	return read(sock, &c, 1) == 1 ? CHK_OK : CHK_FD;
}

/* Opened unprivileged, read by root: nothing root's shows either */
TEST(unprivileged_opened_fd_read_by_root)
{
	struct td_dump d;
	int sv[2], fd;
	pid_t opener;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	opener = fork();
	ASSERT_GE(opener, 0);
	if (!opener) {
		close(sv[0]);
		_exit(drop_privileges() ? CHK_DROP : opener_fn(&sv[1]));
	}
	close(sv[1]);
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0) {
		kill_reap(opener);
	}

	ASSERT_EQ(0, td_dump_fd(fd, &d, VIEW_SHOW, TASK_DIAG_DUMP_ALL, 0,
				TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	EXPECT_EQ(1U, td_count(&d, opener));
	EXPECT_EQ(0U, td_count(&d, getpid()));
	EXPECT_EQ(0U, td_count(&d, 1));
	td_dump_free(&d);
	EXPECT_EQ(-ESRCH, td_request(fd, TASK_DIAG_SHOW_BASE,
				     TASK_DIAG_DUMP_ONE, getpid(), 1));
	EXPECT_EQ(0, td_dump_fd(fd, &d, TASK_DIAG_SHOW_BASE,
				TASK_DIAG_DUMP_ONE, opener, TD_BUF_SMALL));
	EXPECT_EQ(1U, d.nr_tasks);
	td_dump_free(&d);

	close(fd);
	EXPECT_EQ(1, write(sv[0], "x", 1));
	kill_reap(opener);
	close(sv[0]);
}

struct ns_arg {
	int outer_fd;		/* opened from the procfs of the test's pid ns */
	int pipe_rd;		/* the namespace init's pid outside, from its parent */
};

/* Exactly the namespace's tasks, with their pids in it */
static int check_ns_view(struct td_dump *d, const pid_t *kids)
{
	struct td_task *t;
	int i;

	if (d->nr_errors) {
		fprintf(stderr, "# %s\n", d->error);
		return CHK_CLEAN;
	}
	if (d->nr_tasks != NR_NS_CHILDREN + 1 || td_count(d, 1) != 1)
		return CHK_NS_SET;
	for (i = 0; i < NR_NS_CHILDREN; i++)
		if (td_count(d, kids[i]) != 1)
			return CHK_NS_SET;
	t = td_find(d, 1);
	if (t->base.ppid != 0)
		return CHK_NS_PPID;
	for (i = 0; i < NR_NS_CHILDREN; i++)
		if (td_find(d, kids[i])->base.ppid != 1)
			return CHK_NS_PPID;
	return CHK_OK;
}

/* The outer file shows the namespace's init with its outer pid */
static int check_outer_view(int fd, pid_t outer_pid)
{
	struct td_dump d;
	struct td_task *t;
	int ret = CHK_OK;

	if (td_dump_fd(fd, &d, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ALL, 0,
		       TD_BUF_SMALL))
		return CHK_NS_OUTER;
	t = td_find(&d, outer_pid);
	if (!t || strcmp(t->base.comm, "td_nsinit") ||
	    d.nr_tasks <= NR_NS_CHILDREN + 1)
		ret = CHK_NS_OUTER;
	td_dump_free(&d);
	return ret;
}

/* pid 1 of a new pid namespace, with a procfs of its own on /proc */
static int ns_init_fn(struct ns_arg *a)
{
	pid_t kids[NR_NS_CHILDREN], outer_pid;
	struct td_dump d;
	int i, ret;

	if (getpid() != 1)
		return CHK_NS_PID1;
	if (read(a->pipe_rd, &outer_pid, sizeof(outer_pid)) !=
	    sizeof(outer_pid) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", "/proc", "proc", 0, NULL))
		return CHK_NS_MOUNT;
	prctl(PR_SET_NAME, "td_nsinit");
	for (i = 0; i < NR_NS_CHILDREN; i++) {
		kids[i] = spawn_child(NULL, NULL);
		if (kids[i] < 0)
			return CHK_SPAWN;
	}
	ret = td_dump(&d, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ALL, 0,
		      TD_BUF_SMALL);
	ret = ret ? CHK_DUMP : check_ns_view(&d, kids);
	td_dump_free(&d);
	if (!ret)
		ret = check_outer_view(a->outer_fd, outer_pid);
	kill_reap_all(kids, NR_NS_CHILDREN);
	return ret;
}

/* unshare() the namespaces and fork their init; its exit status */
static int ns_parent_fn(void *arg)
{
	struct ns_arg *a = arg;
	int p[2], status;
	pid_t pid;

	if (unshare(CLONE_NEWPID | CLONE_NEWNS))
		return errno == EINVAL ? NO_PIDNS : CHK_NS_MOUNT;
	if (pipe(p))
		return CHK_SPAWN;
	pid = fork();
	if (pid < 0)
		return CHK_SPAWN;
	if (!pid) {
		close(p[1]);
		a->pipe_rd = p[0];
		_exit(ns_init_fn(a));
	}
	close(p[0]);
	if (write(p[1], &pid, sizeof(pid)) != sizeof(pid) ||
	    waitpid(pid, &status, 0) != pid)
		return CHK_SPAWN;
	return WIFEXITED(status) ? WEXITSTATUS(status) : CHK_SPAWN;
}

TEST(pid_namespace_of_procfs)
{
	struct ns_arg a;
	int ret;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	a.outer_fd = td_open();
	ASSERT_GE(a.outer_fd, 0);
	ret = run_child(ns_parent_fn, &a, false);
	close(a.outer_fd);
	if (ret == NO_PIDNS)
		SKIP(return, "pid namespaces unsupported (CONFIG_PID_NS=n)");
	EXPECT_EQ(CHK_OK, ret);
}

TEST_HARNESS_MAIN
