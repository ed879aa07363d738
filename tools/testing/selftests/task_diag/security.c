// SPDX-License-Identifier: GPL-2.0
/*
 * Who sees what: a task is reported only if both the opener of the file
 * and its reader may ptrace it, and pids are those of the pid namespace of
 * the procfs the file was opened from.  Root, an unprivileged user, root of
 * a new user namespace and an unprivileged user of a procfs mounted with
 * hidepid=2 each see exactly the tasks whose /proc/PID/exe procfs lets them
 * resolve (or, with hidepid=2, list), with the ids procfs shows them.
 *
 * The checks that run in an unprivileged or namespaced child report the
 * first failure as the child's exit status: the number of the check (a
 * CHK_* value), logged by the parent.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
	CHK_VIEW_MISSING,	/* procfs shows a task the dump lacks */
	CHK_VIEW_EXTRA,		/* the dump shows a task procfs hides */
	CHK_VIEW_IDS,		/* ids differ from /proc/PID/status */
	CHK_VIEW_ONE,		/* a per-process request for a hidden task */
	CHK_USERNS,		/* setting up the user namespace */
	CHK_HIDEPID,		/* mounting procfs with hidepid=2 */
};

/* Become @id (uid and gid), dumpable like a process it would have started */
static int become(uid_t id)
{
	if (setgroups(0, NULL) || setresgid(id, id, id) ||
	    setresuid(id, id, id) || prctl(PR_SET_DUMPABLE, 1))
		return -1;
	return 0;
}

static int drop_privileges(void)
{
	return become(NOBODY);
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

#define MAX_VIEW	4096
#define USERNS_UID	1000

/* What procfs lets the caller see: the pids it lists, and which it may read */
struct proc_view {
	pid_t pid[MAX_VIEW];
	bool readable[MAX_VIEW];
	int nr;
};

/*
 * Resolving /proc/PID/exe takes PTRACE_MODE_READ_FSCREDS: EACCES when the
 * caller may not, ENOENT for a task without an executable (kernel thread,
 * zombie) it may.
 */
static void procfs_view(struct proc_view *v)
{
	char path[64], target[256];
	struct dirent *de;
	DIR *dir = opendir("/proc");
	pid_t pid;

	v->nr = 0;
	while (dir && (de = readdir(dir)) && v->nr < MAX_VIEW) {
		pid = atoi(de->d_name);
		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/exe", pid);
		v->pid[v->nr] = pid;
		v->readable[v->nr] = readlink(path, target, sizeof(target)) >= 0 ||
				     errno != EACCES;
		snprintf(path, sizeof(path), "/proc/%d", pid);
		if (!access(path, F_OK))	/* not gone meanwhile */
			v->nr++;
	}
	if (dir)
		closedir(dir);
}

/* 1: listed and readable, 0: listed, hidden, -1: not listed */
static int view_of(const struct proc_view *v, pid_t pid)
{
	int i;

	for (i = 0; i < v->nr; i++)
		if (v->pid[i] == pid)
			return v->readable[i];
	return -1;
}

/*
 * @d, dumped between the views @a and @b, holds every task readable in both
 * and none hidden in both; with @listed (hidepid=2) none listed in neither.
 */
static int check_procfs_view(struct td_dump *d, const struct proc_view *a,
			     const struct proc_view *b, bool listed)
{
	int i, va, vb;
	size_t j;

	for (i = 0; i < a->nr; i++) {
		if (a->readable[i] && view_of(b, a->pid[i]) == 1 &&
		    td_count(d, a->pid[i]) != 1) {
			fprintf(stderr, "# pid %d readable in procfs, reported %u times\n",
				a->pid[i], td_count(d, a->pid[i]));
			return CHK_VIEW_MISSING;
		}
	}
	for (j = 0; j < d->nr_tasks; j++) {
		va = view_of(a, d->tasks[j].pid);
		vb = view_of(b, d->tasks[j].pid);
		if ((va == 0 && vb == 0) || (listed && va == -1 && vb == -1)) {
			fprintf(stderr, "# pid %u reported, procfs hides it\n",
				d->tasks[j].pid);
			return CHK_VIEW_EXTRA;
		}
	}
	return CHK_OK;
}

/* The reported ids of each task are those of its /proc/PID/status */
static int check_ids(struct td_dump *d)
{
	unsigned int uid[4], gid[4];
	struct td_task *t;
	size_t i;

	for (i = 0; i < d->nr_tasks; i++) {
		t = &d->tasks[i];
		if (proc_status_ids(t->pid, "Uid", uid) ||
		    proc_status_ids(t->pid, "Gid", gid))
			continue;		/* gone */
		if (t->creds.uid != uid[0] || t->creds.euid != uid[1] ||
		    t->creds.suid != uid[2] || t->creds.fsuid != uid[3] ||
		    t->creds.gid != gid[0] || t->creds.egid != gid[1] ||
		    t->creds.sgid != gid[2] || t->creds.fsgid != gid[3]) {
			fprintf(stderr, "# pid %u: uid %u gid %u, procfs says %u %u\n",
				t->pid, t->creds.uid, t->creds.gid, uid[0], gid[0]);
			return CHK_VIEW_IDS;
		}
	}
	return CHK_OK;
}

/* Per-process requests for the tasks procfs hides fail with ESRCH */
static int check_hidden_esrch(const struct proc_view *v)
{
	int fd = td_open(), i, n = 0, ret = CHK_OK;

	if (fd < 0)
		return CHK_DUMP;
	for (i = 0; i < v->nr && n < 64 && !ret; i++) {
		if (v->readable[i])
			continue;
		n++;
		if (td_request(fd, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ONE,
			       v->pid[i], 1) != -ESRCH) {
			fprintf(stderr, "# hidden pid %d: not ESRCH\n", v->pid[i]);
			ret = CHK_VIEW_ONE;
		}
	}
	close(fd);
	return ret;
}

/* Dump ALL with creds and maps; it must show what procfs shows */
static int procfs_view_fn(void *arg)
{
	static struct proc_view a, b;
	bool listed = arg != NULL;
	struct td_dump d;
	pid_t child;
	int ret;

	child = spawn_child(NULL, NULL);
	if (child < 0)
		return CHK_SPAWN;
	procfs_view(&a);
	ret = td_dump(&d, VIEW_SHOW | TASK_DIAG_SHOW_VMA, TASK_DIAG_DUMP_ALL,
		      0, TD_BUF_SMALL);
	procfs_view(&b);
	if (ret)
		ret = CHK_DUMP;
	else if (d.nr_errors)
		ret = CHK_CLEAN;
	else if (td_count(&d, getpid()) != 1 || td_count(&d, child) != 1)
		ret = CHK_SELF;
	if (!ret)
		ret = check_procfs_view(&d, &a, &b, listed);
	if (!ret)
		ret = check_ids(&d);
	if (!ret)
		ret = check_hidden_esrch(&a);
	td_dump_free(&d);
	kill_reap(child);
	return ret;
}

TEST(procfs_view_root)
{
	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	EXPECT_EQ(CHK_OK, run_child(procfs_view_fn, NULL, false));
}

TEST(procfs_view_unprivileged)
{
	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	EXPECT_EQ(CHK_OK, run_child(procfs_view_fn, NULL, true));
}

/*
 * As USERNS_UID, with a sibling of that uid left outside, become root of a
 * new user namespace.  Its own tasks show with their ids mapped (euid 0);
 * the sibling does not, as a task of another user namespace may not be
 * ptraced without CAP_SYS_PTRACE there; nor do root's tasks.
 */
static int userns_fn(void *arg)
{
	pid_t root_pid = *(pid_t *)arg, sibling;
	struct td_dump d;
	char map[64];
	int ret, fd;

	if (become(USERNS_UID))
		return CHK_DROP;
	sibling = spawn_child(NULL, NULL);
	if (sibling < 0)
		return CHK_SPAWN;
	snprintf(map, sizeof(map), "0 %d 1", USERNS_UID);
	if (unshare(CLONE_NEWUSER) ||
	    write_str("/proc/self/uid_map", map) ||
	    write_str("/proc/self/setgroups", "deny") ||
	    write_str("/proc/self/gid_map", map) || geteuid() != 0) {
		fprintf(stderr, "# user namespace: %s\n", strerror(errno));
		kill_reap(sibling);
		return CHK_USERNS;
	}
	ret = procfs_view_fn(NULL);
	td_dump_init(&d, VIEW_SHOW, TD_SEQ);
	if (!ret && (td_dump(&d, VIEW_SHOW, TASK_DIAG_DUMP_ONE, getpid(),
			     TD_BUF_SMALL) || d.nr_tasks != 1 ||
		     d.tasks[0].creds.euid != 0 || d.tasks[0].creds.egid != 0))
		ret = CHK_VIEW_IDS;
	td_dump_free(&d);
	fd = td_open();
	if (!ret && (td_request(fd, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ONE,
				sibling, 1) != -ESRCH ||
		     td_request(fd, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_ONE,
				root_pid, 1) != -ESRCH))
		ret = CHK_VIEW_ONE;
	close(fd);
	kill_reap(sibling);
	return ret;
}

TEST(user_namespace_view)
{
	pid_t self = getpid();

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	EXPECT_EQ(CHK_OK, run_child(userns_fn, &self, false));
}

/* In a mount namespace, procfs on /proc with @opts; then maybe nobody */
static int remount_proc(const char *opts, bool unprivileged)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", "/proc", "proc", 0, opts))
		return CHK_HIDEPID;
	return unprivileged && drop_privileges() ? CHK_DROP : CHK_OK;
}

static int hidepid_fn(void *arg)
{
	int ret = remount_proc("hidepid=2", true);

	return ret ? ret : procfs_view_fn(arg);
}

TEST(hidepid2_view_unprivileged)
{
	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	EXPECT_EQ(CHK_OK, run_child(hidepid_fn, (void *)1, false));
}

/* subset=pid shows the pid directories only: no /proc/task-diag */
static int subset_pid_fn(void *arg)
{
	int ret = remount_proc("subset=pid", false);

	if (ret)
		return ret;
	return open(TD_PATH, O_RDWR) < 0 && errno == ENOENT ? CHK_OK : CHK_VIEW_EXTRA;
}

TEST(subset_pid_has_no_task_diag)
{
	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	EXPECT_EQ(CHK_OK, run_child(subset_pid_fn, NULL, false));
}

TEST_HARNESS_MAIN
