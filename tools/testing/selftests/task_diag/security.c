// SPDX-License-Identifier: GPL-2.0
/*
 * Who sees what.  A task is reported iff both the process that reads the
 * file and the credentials it was opened with could read /proc/PID/status
 * on the procfs the file was opened from: every task without hidepid;
 * with hidepid=1 or 2 the tasks they may ptrace (PTRACE_MODE_READ_FSCREDS),
 * or all if they are in the mount's gid= group; with hidepid=4 the tasks
 * they may ptrace.  Its VMAs are there iff both could open its
 * /proc/PID/maps and it has an mm; a task whose maps are denied is still
 * reported, without them.  The opener is checked without the exemption of
 * its own thread group, which the reader keeps.  A per-process request,
 * checked at write() with the writer's and the opener's credentials, for
 * a task one of them may not see fails: ESRCH with hidepid=2 or 4, EPERM
 * with hidepid=1; without hidepid every task may be asked for.  Pids are
 * those of the pid namespace of the procfs.
 *
 * Root, nobody on a procfs of each hidepid mode (and in its gid= group),
 * root of a new user namespace, nobody reading a file root opened and root
 * reading one nobody opened each see the tasks and the maps procfs lets
 * them read, with the ids procfs shows them.  The mappings of a setuid
 * program nobody execs are never shown to nobody.
 *
 * The checks that run in a child report the first failure as the child's
 * exit status: a CHK_* value, logged by the parent with what it checks.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "td_test.h"

#define NOBODY		65534
#define OVERFLOW_ID	65534	/* kernel.overflowuid and overflowgid */
#define PID_GROUP	4242	/* procfs gid=, a group of nobody's */
#define __STR(x)	#x
#define STR(x)		__STR(x)
#define USERNS_UID	1000
#define NR_NS_CHILDREN	3
#define NO_PIDNS	99	/* exit status: pid namespaces unsupported */
#define MAX_HIDDEN	64	/* hidden tasks to try requests on */

/* Every group a view compares: the ids, command lines and VMAs too */
#define VIEW_SHOW	(TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_CRED | \
			 TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_CMDLINE | \
			 TASK_DIAG_SHOW_PSINFO)

enum {
	CHK_OK,
	CHK_DROP,
	CHK_SPAWN,
	CHK_DUMP,
	CHK_CLEAN,
	CHK_SELF,
	CHK_SELF_VMA,
	CHK_ROOT_TASK,
	CHK_ROOT_VMA,
	CHK_FOREIGN_VMA,
	CHK_PER_PROCESS,
	CHK_NS_PID1,
	CHK_NS_MOUNT,
	CHK_NS_SET,
	CHK_NS_PPID,
	CHK_NS_OUTER,
	CHK_FD,
	CHK_VIEW_MISSING,
	CHK_VIEW_EXTRA,
	CHK_VIEW_VMA,
	CHK_VIEW_NO_VMA,
	CHK_VIEW_IDS,
	CHK_VIEW_PS,
	CHK_VIEW_ONE,
	CHK_USERNS,
	CHK_MOUNT,
	CHK_SUID_SETUP,
	CHK_SUID_RAN,
	CHK_SUID_LEAK,
	CHK_SUID_DUMPS,
	NR_CHK
};

static const char *const chk_what[NR_CHK] = {
	[CHK_OK]		= "none",
	[CHK_DROP]		= "setgroups(), setresuid() and co.",
	[CHK_SPAWN]		= "starting a child",
	[CHK_DUMP]		= "a dump failed",
	[CHK_CLEAN]		= "protocol errors in a dump",
	[CHK_SELF]		= "the reader or its child not reported once",
	[CHK_SELF_VMA]		= "the reader or its child without VMAs",
	[CHK_ROOT_TASK]		= "pid 1 or root's test process: reported or not",
	[CHK_ROOT_VMA]		= "pid 1 or root's test process: VMAs or not",
	[CHK_FOREIGN_VMA]	= "VMAs of a task of another user",
	[CHK_PER_PROCESS]	= "a request for a visible task refused",
	[CHK_NS_PID1]		= "namespace: not pid 1",
	[CHK_NS_MOUNT]		= "namespace: unshare() or mount()",
	[CHK_NS_SET]		= "namespace: not exactly its tasks",
	[CHK_NS_PPID]		= "namespace: parent pids",
	[CHK_NS_OUTER]		= "namespace: the outer file's view",
	[CHK_FD]		= "passing the file descriptor",
	[CHK_VIEW_MISSING]	= "a task whose status procfs shows: not once",
	[CHK_VIEW_EXTRA]	= "a task whose status procfs hides reported",
	[CHK_VIEW_VMA]		= "VMAs of a task whose maps procfs denies",
	[CHK_VIEW_NO_VMA]	= "no VMAs of a task whose maps procfs shows",
	[CHK_VIEW_IDS]		= "ids differ from /proc/PID/status",
	[CHK_VIEW_PS]		= "cmdline or psinfo missing, or not /proc's",
	[CHK_VIEW_ONE]		= "a request for a hidden task: wrong errno",
	[CHK_USERNS]		= "setting up the user namespace",
	[CHK_MOUNT]		= "mounting procfs in a new mount namespace",
	[CHK_SUID_SETUP]	= "the setuid copy of the helper on a tmpfs",
	[CHK_SUID_RAN]		= "the helper did not run setuid root",
	[CHK_SUID_LEAK]		= "the setuid helper's mappings shown to nobody",
	[CHK_SUID_DUMPS]	= "too few dumps while the helper ran",
};

static const char *chk_str(int status)
{
	if (status >= 0 && status < NR_CHK)
		return chk_what[status];
	if (status >= 128)
		return "killed by a signal";
	return status < 0 ? "fork() or waitpid()" : "?";
}

/* A child's exit status is CHK_OK; else say which check failed */
#define EXPECT_CHK_OK(expr)						\
	do {								\
		int __st = (expr);					\
									\
		EXPECT_EQ(CHK_OK, __st)					\
			TH_LOG("check %d: %s", __st, chk_str(__st));	\
	} while (0)

/*
 * Become @id (uid and gid), with the supplementary group @group unless it
 * is 0, dumpable like a process it would have started.
 */
static int become_in(uid_t id, gid_t group)
{
	if (setgroups(group ? 1 : 0, &group) || setresgid(id, id, id) ||
	    setresuid(id, id, id) || prctl(PR_SET_DUMPABLE, 1))
		return -1;
	return 0;
}

static int become(uid_t id)
{
	return become_in(id, 0);
}

static int drop_privileges(void)
{
	return become(NOBODY);
}

/* Fork a child running @fn (as nobody if @unprivileged): its pid or -errno */
static pid_t fork_child(int (*fn)(void *), void *arg, bool unprivileged)
{
	pid_t parent = getpid(), pid;

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
	return pid;
}

/* The exit status of child @pid (CHK_OK if all went well), or -errno */
static int wait_child(pid_t pid)
{
	int status;

	if (pid < 0)
		return pid;
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);
}

/* Run @fn in a child; its exit status */
static int run_child(int (*fn)(void *), void *arg, bool unprivileged)
{
	return wait_child(fork_child(fn, arg, unprivileged));
}

/* In a mount namespace of its own, procfs on /proc mounted with @opts */
static int remount_proc(const char *opts)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", "/proc", "proc", 0, opts)) {
		fprintf(stderr, "# procfs with %s: %s\n", opts, strerror(errno));
		return CHK_MOUNT;
	}
	return CHK_OK;
}

#define MAX_VIEW	4096

/*
 * What procfs lets the caller see: the pids it lists, whose status it may
 * open and whose maps it may read a line of (PTRACE_MODE_READ_FSCREDS, and
 * an mm: the maps of a kernel thread or a zombie open, empty).
 */
struct proc_view {
	pid_t pid[MAX_VIEW];
	bool status[MAX_VIEW];
	bool maps[MAX_VIEW];
	int nr;
};

/* The views before and after a dump; each child has its own */
static struct proc_view view_a, view_b;

/* open("/proc/@pid/@file") succeeds and, if @line, a read gives a byte */
static bool proc_readable(pid_t pid, const char *file, bool line)
{
	char path[64], c;
	bool ok;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	ok = !line || read(fd, &c, 1) == 1;
	close(fd);
	return ok;
}

/*
 * Whether procfs still lists @pid: stat() agrees with readdir(), while
 * access() fails for a task hidepid=1 lists but hides.
 */
static bool proc_listed(pid_t pid)
{
	char path[32];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", pid);
	return !stat(path, &st);
}

static void procfs_view(struct proc_view *v)
{
	DIR *dir = opendir("/proc");
	struct dirent *de;
	pid_t pid;

	v->nr = 0;
	while (dir && (de = readdir(dir)) && v->nr < MAX_VIEW) {
		pid = atoi(de->d_name);
		if (pid <= 0)
			continue;
		v->pid[v->nr] = pid;
		v->status[v->nr] = proc_readable(pid, "status", false);
		v->maps[v->nr] = proc_readable(pid, "maps", true);
		if (proc_listed(pid))		/* not gone meanwhile */
			v->nr++;
	}
	if (dir)
		closedir(dir);
}

/* Of @pid in @v, @maps or status: 1 readable, 0 not, -1 pid not listed */
static int view_of(const struct proc_view *v, pid_t pid, bool maps)
{
	int i;

	for (i = 0; i < v->nr; i++)
		if (v->pid[i] == pid)
			return maps ? v->maps[i] : v->status[i];
	return -1;
}

/* -1: @pid not reported in @d, 0: reported without VMAs, 1: with them */
static int vma_state(struct td_dump *d, pid_t pid)
{
	struct td_task *t = td_find(d, pid);

	return t ? td_has_vma(t) : -1;
}

static int check_clean(struct td_dump *d)
{
	if (!d->nr_errors)
		return CHK_OK;
	fprintf(stderr, "# %s\n", d->error);
	return CHK_CLEAN;
}

/* The reader and its child (unless 0): reported once, with their VMAs */
static int check_own(struct td_dump *d, pid_t child)
{
	pid_t own[] = { getpid(), child };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(own) && own[i]; i++) {
		if (td_count(d, own[i]) != 1)
			return CHK_SELF;
		if (vma_state(d, own[i]) != 1)
			return CHK_SELF_VMA;
	}
	return CHK_OK;
}

/*
 * pid 1 and the root test process @root_pid: reported once if @seen
 * (with VMAs iff @vmas), else not at all.
 */
static int check_root_tasks(struct td_dump *d, pid_t root_pid, bool seen,
			    bool vmas)
{
	pid_t root[] = { 1, root_pid };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(root); i++) {
		if (td_count(d, root[i]) != (seen ? 1U : 0U)) {
			fprintf(stderr, "# pid %d reported %u times\n",
				root[i], td_count(d, root[i]));
			return CHK_ROOT_TASK;
		}
		if (seen && vma_state(d, root[i]) != vmas) {
			fprintf(stderr, "# pid %d reported with%s VMAs\n",
				root[i], vmas ? "out" : "");
			return CHK_ROOT_VMA;
		}
	}
	return CHK_OK;
}

/* No VMAs of a task of another user than nobody's */
static int check_foreign_vmas(struct td_dump *d)
{
	size_t i;

	for (i = 0; i < d->nr_tasks; i++) {
		if (d->tasks[i].creds.euid != NOBODY &&
		    td_has_vma(&d->tasks[i])) {
			fprintf(stderr, "# pid %u of euid %u with VMAs\n",
				d->tasks[i].pid, d->tasks[i].creds.euid);
			return CHK_FOREIGN_VMA;
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

/*
 * Each reported task has its command line and PSINFO, as its stat and
 * cmdline are readable wherever it is listed; the command line is the
 * one /proc/PID/cmdline reads.
 */
static int check_ps_groups(struct td_dump *d)
{
	__u64 both = TASK_DIAG_SHOW_CMDLINE | TASK_DIAG_SHOW_PSINFO;
	struct td_diff df = {};
	struct td_task *t;
	size_t i;

	for (i = 0; i < d->nr_tasks && !df.n; i++) {
		t = &d->tasks[i];
		if (t->closed_empty)
			continue;		/* exited while described */
		if ((t->groups & both) != both) {
			fprintf(stderr, "# pid %u: groups %#llx\n", t->pid,
				(unsigned long long)t->groups);
			return CHK_VIEW_PS;
		}
		if (kill(t->pid, 0) && errno == ESRCH)
			continue;		/* gone */
		cmdline_diff(t, t->pid, 0, &df);
		if (df.n && kill(t->pid, 0) && errno == ESRCH)
			df.n = 0;		/* gone meanwhile */
	}
	if (df.n)
		fprintf(stderr, "# %s\n", df.why);
	return df.n ? CHK_VIEW_PS : CHK_OK;
}

/*
 * An ALL dump of VIEW_SHOW by nobody on a procfs without hidepid, between
 * the views @a and @b, the file opened by nobody or root: every task
 * listed in both once (pid 1 and root's @root_pid without VMAs), the
 * reader and its @child with their VMAs, no other user's with theirs.
 */
static int check_all_view(struct td_dump *d, const struct proc_view *a,
			  const struct proc_view *b, pid_t root_pid,
			  pid_t child)
{
	int i, ret = check_clean(d);

	for (i = 0; i < a->nr && !ret; i++) {
		if (view_of(b, a->pid[i], false) >= 0 &&
		    td_count(d, a->pid[i]) != 1) {
			fprintf(stderr, "# pid %d listed, reported %u times\n",
				a->pid[i], td_count(d, a->pid[i]));
			ret = CHK_VIEW_MISSING;
		}
	}
	if (!ret)
		ret = check_own(d, child);
	if (!ret)
		ret = check_root_tasks(d, root_pid, true, false);
	if (!ret)
		ret = check_foreign_vmas(d);
	if (!ret)
		ret = check_ids(d);
	if (!ret)
		ret = check_ps_groups(d);
	return ret;
}

static const __u64 per_process[] = {
	TASK_DIAG_DUMP_ONE, TASK_DIAG_DUMP_THREAD, TASK_DIAG_DUMP_CHILDREN,
};

/* A per-process request of BASE on @fd, its answer read: 0 or -errno */
static int request_pid(int fd, __u64 strategy, pid_t pid)
{
	struct td_dump d;
	int ret;

	ret = td_dump_fd(fd, &d, TASK_DIAG_SHOW_BASE, strategy, pid,
			 TD_BUF_SMALL);
	if (!ret && d.nr_errors)
		ret = -EPROTO;
	td_dump_free(&d);
	return ret;
}

/*
 * Each per-process request for @pid (ONE only unless @all) gets @want: 0,
 * or the -errno for a task the caller may not see.  ESRCH is right too
 * for a task procfs no longer lists: it is gone.
 */
static int expect_requests(pid_t pid, int want, bool all)
{
	size_t i, n = all ? ARRAY_SIZE(per_process) : 1;
	int fd = td_open(), ret = CHK_OK, got;

	if (fd < 0)
		return CHK_DUMP;
	for (i = 0; i < n && !ret; i++) {
		got = request_pid(fd, per_process[i], pid);
		if (got == want || (got == -ESRCH && !proc_listed(pid)))
			continue;
		fprintf(stderr, "# pid %d, strategy %llu: %d, want %d\n", pid,
			(unsigned long long)per_process[i], got, want);
		ret = want ? CHK_VIEW_ONE : CHK_PER_PROCESS;
	}
	close(fd);
	return ret;
}

/*
 * Nobody on a procfs without hidepid, on a file it opened: ALL shows
 * every task, the VMAs of its own only.
 */
static int unprivileged_all_fn(void *arg)
{
	pid_t root_pid = *(pid_t *)arg, child;
	struct td_dump d;
	int ret;

	child = spawn_child(NULL, NULL);
	if (child < 0)
		return CHK_SPAWN;
	procfs_view(&view_a);
	ret = td_dump(&d, VIEW_SHOW, TASK_DIAG_DUMP_ALL, 0, TD_BUF_SMALL);
	procfs_view(&view_b);
	if (ret)
		ret = CHK_DUMP;
	else
		ret = check_all_view(&d, &view_a, &view_b, root_pid, child);
	td_dump_free(&d);
	kill_reap(child);
	return ret;
}

TEST(unprivileged_all_sees_procfs_tasks)
{
	pid_t self = getpid();

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_EQ(CHK_OK, remount_proc("hidepid=0"));
	EXPECT_CHK_OK(run_child(unprivileged_all_fn, &self, true));
}

/* ONE of @pid: that task alone, its euid and egid @id, its VMAs iff @vmas */
static int check_one(pid_t pid, unsigned int id, bool vmas)
{
	struct td_dump d;
	struct td_task *t;
	int ret;

	ret = td_dump(&d, VIEW_SHOW, TASK_DIAG_DUMP_ONE, pid, TD_BUF_SMALL);
	t = d.nr_tasks == 1 ? &d.tasks[0] : NULL;
	if (ret || !t || t->pid != (__u32)pid) {
		fprintf(stderr, "# ONE of %d: %d, %zu tasks\n", pid, ret,
			d.nr_tasks);
		ret = CHK_PER_PROCESS;
	} else if (check_clean(&d)) {
		ret = CHK_CLEAN;
	} else if (t->creds.euid != id || t->creds.egid != id) {
		fprintf(stderr, "# pid %d: euid %u egid %u, want %u\n", pid,
			t->creds.euid, t->creds.egid, id);
		ret = CHK_VIEW_IDS;
	} else if (td_has_vma(t) != vmas) {
		ret = vmas ? CHK_VIEW_NO_VMA : CHK_VIEW_VMA;
	}
	td_dump_free(&d);
	return ret;
}

/*
 * Nobody, without hidepid: every per-process request for root's tasks is
 * accepted; their VMAs are not shown, its own are.
 */
static int unprivileged_per_process_fn(void *arg)
{
	pid_t root_pid = *(pid_t *)arg;
	int ret;

	ret = expect_requests(1, 0, true);
	if (!ret)
		ret = expect_requests(root_pid, 0, true);
	if (!ret)
		ret = check_one(1, 0, false);
	if (!ret)
		ret = check_one(root_pid, 0, false);
	if (!ret)
		ret = check_one(getpid(), NOBODY, true);
	return ret;
}

TEST(unprivileged_per_process_of_root)
{
	pid_t self = getpid();

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_EQ(CHK_OK, remount_proc("hidepid=0"));
	EXPECT_CHK_OK(run_child(unprivileged_per_process_fn, &self, true));
}

struct fd_arg {
	pid_t root_pid;
	int fd;
	bool requested;		/* the request was written by root already */
};

/*
 * Nobody, on a file root opened (and maybe wrote the request to): what it
 * sees on a file of its own, root may see everything.
 */
static int inherited_fd_fn(void *arg)
{
	struct fd_arg *a = arg;
	struct td_dump d;
	int ret;

	procfs_view(&view_a);
	if (a->requested) {
		td_dump_init(&d, VIEW_SHOW, TD_SEQ);
		ret = td_read_all(a->fd, &d, TD_BUF_SMALL);
	} else {
		ret = td_dump_fd(a->fd, &d, VIEW_SHOW, TASK_DIAG_DUMP_ALL, 0,
				 TD_BUF_SMALL);
	}
	procfs_view(&view_b);
	if (ret)
		ret = CHK_DUMP;
	else
		ret = check_all_view(&d, &view_a, &view_b, a->root_pid, 0);
	td_dump_free(&d);
	return ret;
}

/* Opened by root, then read by a child that dropped its privileges */
TEST(root_opened_fd_read_unprivileged)
{
	struct fd_arg a = { .root_pid = getpid() };

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_EQ(CHK_OK, remount_proc("hidepid=0"));
	a.fd = td_open();
	ASSERT_GE(a.fd, 0);
	EXPECT_CHK_OK(run_child(inherited_fd_fn, &a, true));
	close(a.fd);
}

/* Opened and requested by root, the response read unprivileged */
TEST(root_request_read_unprivileged)
{
	struct fd_arg a = { .root_pid = getpid(), .requested = true };

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_EQ(CHK_OK, remount_proc("hidepid=0"));
	a.fd = td_open();
	ASSERT_GE(a.fd, 0);
	ASSERT_EQ(0, td_request(a.fd, VIEW_SHOW, TASK_DIAG_DUMP_ALL, 0,
				TD_SEQ));
	EXPECT_CHK_OK(run_child(inherited_fd_fn, &a, true));
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

/*
 * Opened by nobody, read by root, without hidepid: every task, but the
 * VMAs of nobody's only.  Not those of root's reader itself either, as
 * the opener is not exempt for the reader's own thread group.
 */
TEST(unprivileged_opened_fd_read_by_root)
{
	struct td_dump d;
	int sv[2], fd;
	pid_t opener;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_EQ(CHK_OK, remount_proc("hidepid=0"));
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
	td_expect_no_dups(_metadata, &d);
	EXPECT_EQ(1, vma_state(&d, opener));
	EXPECT_EQ(0, vma_state(&d, getpid()));
	EXPECT_EQ(0, vma_state(&d, 1));
	td_dump_free(&d);

	/* per-process requests: the opener may see root's task, not its maps */
	EXPECT_EQ(0, td_dump_fd(fd, &d, VIEW_SHOW, TASK_DIAG_DUMP_ONE,
				getpid(), TD_BUF_SMALL));
	EXPECT_EQ(1U, d.nr_tasks);
	EXPECT_EQ(0, vma_state(&d, getpid()));
	td_dump_free(&d);
	EXPECT_EQ(0, td_dump_fd(fd, &d, VIEW_SHOW, TASK_DIAG_DUMP_ONE, opener,
				TD_BUF_SMALL));
	EXPECT_EQ(1U, d.nr_tasks);
	EXPECT_EQ(1, vma_state(&d, opener));
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

	if (check_clean(d))
		return CHK_CLEAN;
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
	EXPECT_CHK_OK(ret);
}

/* What a view of ALL must show, besides what procfs shows */
struct view_arg {
	pid_t root_pid;		/* the test process, root's */
	int hidden_err;		/* what a request for a hidden task gets */
	bool listed;		/* procfs lists only the tasks it shows */
	bool sees_root;		/* pid 1 and root_pid shown... */
	bool root_vmas;		/* ...with their VMAs */
};

/*
 * A task of @d, dumped between the views @a and @b: not one whose status
 * is hidden in both (with @listed, not listed in both); its VMAs iff its
 * maps are readable in both, none if they are in neither.
 */
static int check_reported(struct td_task *t, const struct proc_view *a,
			  const struct proc_view *b, bool listed)
{
	int sa = view_of(a, t->pid, false), sb = view_of(b, t->pid, false);
	int ma = view_of(a, t->pid, true), mb = view_of(b, t->pid, true);

	if ((sa == 0 && sb == 0) || (listed && sa == -1 && sb == -1)) {
		fprintf(stderr, "# pid %u reported, procfs hides it\n", t->pid);
		return CHK_VIEW_EXTRA;
	}
	if (ma == 1 && mb == 1 && !td_has_vma(t)) {
		fprintf(stderr, "# pid %u: maps readable, no VMAs\n", t->pid);
		return CHK_VIEW_NO_VMA;
	}
	if (ma == 0 && mb == 0 && td_has_vma(t)) {
		fprintf(stderr, "# pid %u: maps denied, %zu VMAs\n", t->pid,
			t->nr_vmas);
		return CHK_VIEW_VMA;
	}
	return CHK_OK;
}

/* @d, dumped between @a and @b, holds every task whose status both show */
static int check_procfs_view(struct td_dump *d, const struct proc_view *a,
			     const struct proc_view *b, bool listed)
{
	int i, ret = CHK_OK;
	size_t j;

	for (i = 0; i < a->nr; i++) {
		if (a->status[i] && view_of(b, a->pid[i], false) == 1 &&
		    td_count(d, a->pid[i]) != 1) {
			fprintf(stderr, "# pid %d readable in procfs, reported %u times\n",
				a->pid[i], td_count(d, a->pid[i]));
			return CHK_VIEW_MISSING;
		}
	}
	for (j = 0; j < d->nr_tasks && !ret; j++)
		ret = check_reported(&d->tasks[j], a, b, listed);
	return ret;
}

/*
 * Per-process requests: accepted for the reader and, if it sees them, pid
 * 1 and root_pid, refused with the errno of the mode for those hidden and
 * for the tasks whose status procfs hides.
 */
static int check_requests(const struct proc_view *v,
			  const struct view_arg *va)
{
	int want = va->sees_root ? 0 : va->hidden_err;
	int i, n = 0, ret;

	ret = expect_requests(getpid(), 0, true);
	if (!ret)
		ret = expect_requests(1, want, true);
	if (!ret)
		ret = expect_requests(va->root_pid, want, true);
	for (i = 0; i < v->nr && n < MAX_HIDDEN && !ret; i++) {
		if (v->status[i])
			continue;
		n++;
		ret = expect_requests(v->pid[i], va->hidden_err, false);
	}
	return ret;
}

static int check_view(struct td_dump *d, const struct view_arg *va,
		      pid_t child)
{
	int ret = check_clean(d);

	if (!ret)
		ret = check_own(d, child);
	if (!ret)
		ret = check_root_tasks(d, va->root_pid, va->sees_root,
				       va->root_vmas);
	if (!ret)
		ret = check_procfs_view(d, &view_a, &view_b, va->listed);
	if (!ret)
		ret = check_ids(d);
	if (!ret)
		ret = check_ps_groups(d);
	return ret;
}

/* Dump ALL with creds and maps; it must show what procfs shows */
static int procfs_view_fn(void *arg)
{
	const struct view_arg *va = arg;
	struct td_dump d;
	pid_t child;
	int ret;

	child = spawn_child(NULL, NULL);
	if (child < 0)
		return CHK_SPAWN;
	procfs_view(&view_a);
	ret = td_dump(&d, VIEW_SHOW, TASK_DIAG_DUMP_ALL, 0, TD_BUF_SMALL);
	procfs_view(&view_b);
	ret = ret ? CHK_DUMP : check_view(&d, va, child);
	td_dump_free(&d);
	if (!ret)
		ret = check_requests(&view_a, va);
	kill_reap(child);
	return ret;
}

TEST(procfs_view_root)
{
	struct view_arg va = {
		.root_pid = getpid(),
		.sees_root = true,
		.root_vmas = true,
	};

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	EXPECT_CHK_OK(run_child(procfs_view_fn, &va, false));
}

/* Nobody, in group @group unless 0, on a procfs mounted with @opts */
FIXTURE(hidepid) {
	int unused;
};

FIXTURE_VARIANT(hidepid) {
	const char *opts;
	gid_t group;
	struct view_arg view;	/* but its root_pid */
};

/* Nothing hidden: every per-process request accepted */
FIXTURE_VARIANT_ADD(hidepid, off) {
	.opts = "hidepid=0",
	.view = { .sees_root = true },
};

FIXTURE_VARIANT_ADD(hidepid, noaccess) {
	.opts = "hidepid=1",
	.view = { .hidden_err = -EPERM },
};

FIXTURE_VARIANT_ADD(hidepid, invisible) {
	.opts = "hidepid=2",
	.view = { .hidden_err = -ESRCH, .listed = true },
};

FIXTURE_VARIANT_ADD(hidepid, ptraceable) {
	.opts = "hidepid=4",
	.view = { .hidden_err = -ESRCH, .listed = true },
};

/* In the gid= group: every task, but still the VMAs of its own only */
FIXTURE_VARIANT_ADD(hidepid, noaccess_gid) {
	.opts = "hidepid=1,gid=" STR(PID_GROUP),
	.group = PID_GROUP,
	.view = { .hidden_err = -EPERM, .sees_root = true },
};

FIXTURE_VARIANT_ADD(hidepid, invisible_gid) {
	.opts = "hidepid=2,gid=" STR(PID_GROUP),
	.group = PID_GROUP,
	.view = { .hidden_err = -ESRCH, .listed = true, .sees_root = true },
};

/* hidepid=4 ignores gid= */
FIXTURE_VARIANT_ADD(hidepid, ptraceable_gid) {
	.opts = "hidepid=4,gid=" STR(PID_GROUP),
	.group = PID_GROUP,
	.view = { .hidden_err = -ESRCH, .listed = true },
};

FIXTURE_SETUP(hidepid)
{
	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
}

FIXTURE_TEARDOWN(hidepid)
{
}

static int hidepid_fn(void *arg)
{
	FIXTURE_VARIANT(hidepid) *m = arg;
	int ret = remount_proc(m->opts);

	if (ret)
		return ret;
	if (become_in(NOBODY, m->group))
		return CHK_DROP;
	return procfs_view_fn(&m->view);
}

TEST_F(hidepid, view_unprivileged)
{
	FIXTURE_VARIANT(hidepid) m = *variant;

	m.view.root_pid = getpid();
	EXPECT_CHK_OK(run_child(hidepid_fn, &m, false));
}

/* Become root of a user namespace that maps USERNS_UID (and its gid) */
static int enter_userns(void)
{
	char map[64];

	snprintf(map, sizeof(map), "0 %d 1", USERNS_UID);
	if (unshare(CLONE_NEWUSER) ||
	    write_str("/proc/self/uid_map", map) ||
	    write_str("/proc/self/setgroups", "deny") ||
	    write_str("/proc/self/gid_map", map) || geteuid() != 0) {
		fprintf(stderr, "# user namespace: %s\n", strerror(errno));
		return CHK_USERNS;
	}
	return CHK_OK;
}

/*
 * As USERNS_UID, with a sibling of that uid left outside, become root of a
 * new user namespace, on a procfs without hidepid.  Every task shows, its
 * ids mapped: the reader's and the sibling's euid 0, root's unmapped 0 as
 * the overflow id.  Only the VMAs of the tasks of the new namespace show:
 * a task of another user namespace may not be ptraced without
 * CAP_SYS_PTRACE there.
 */
static int userns_fn(void *arg)
{
	struct view_arg va = {
		.root_pid = *(pid_t *)arg,
		.sees_root = true,
	};
	pid_t sibling;
	int ret;

	ret = remount_proc("hidepid=0");
	if (ret)
		return ret;
	if (become(USERNS_UID))
		return CHK_DROP;
	sibling = spawn_child(NULL, NULL);
	if (sibling < 0)
		return CHK_SPAWN;
	ret = enter_userns();
	if (!ret)
		ret = procfs_view_fn(&va);
	if (!ret)
		ret = check_one(getpid(), 0, true);
	if (!ret)
		ret = check_one(sibling, 0, false);
	if (!ret)
		ret = check_one(va.root_pid, OVERFLOW_ID, false);
	kill_reap(sibling);
	return ret;
}

TEST(user_namespace_view)
{
	pid_t self = getpid();

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	EXPECT_CHK_OK(run_child(userns_fn, &self, false));
}

/* subset=pid shows the pid directories only: no /proc/task-diag */
static int subset_pid_fn(void *arg)
{
	int ret = remount_proc("subset=pid");

	if (ret)
		return ret;
	return open(TD_PATH, O_RDWR) < 0 && errno == ENOENT ? CHK_OK : CHK_VIEW_EXTRA;
}

TEST(subset_pid_has_no_task_diag)
{
	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	EXPECT_CHK_OK(run_child(subset_pid_fn, NULL, false));
}

#define SUID_HELPER	"td_suid_helper"
#define SUID_SECONDS	3
#define SUID_MIN_DUMPS	20
#define SUID_SHOW	(TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA)

struct suid_arg {
	char src[PATH_MAX];	/* the helper, built next to this program */
	char dir[32];		/* the tmpfs it is copied to */
	char path[PATH_MAX];	/* the copy, setuid root */
	double deadline;	/* when the runner and the reader stop */
	pid_t runner;
};

/* SUID_HELPER in $TD_BIN_DIR, else in the directory of this program */
static int find_helper(char *buf, size_t len)
{
	const char *dir = getenv("TD_BIN_DIR");
	char exe[PATH_MAX];
	ssize_t n;

	if (!dir) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n < 0)
			return -1;
		exe[n] = '\0';
		dir = dirname(exe);
	}
	if ((size_t)snprintf(buf, len, "%s/%s", dir, SUID_HELPER) >= len)
		return -1;
	return access(buf, X_OK);
}

/* Copy @src to @dst, a new program of root's, setuid */
static int copy_setuid(const char *src, const char *dst)
{
	size_t len, off;
	char *buf = read_file(src, &len);
	int fd, ret = -1;
	ssize_t n = 0;

	if (!buf)
		return -1;
	fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	if (fd < 0)
		goto out;
	for (off = 0; off < len; off += n) {
		n = write(fd, buf + off, len - off);
		if (n <= 0)
			break;
	}
	if (off == len && !fchown(fd, 0, 0) && !fchmod(fd, 04755))
		ret = 0;
	if (close(fd))
		ret = -1;
out:
	free(buf);
	return ret;
}

/*
 * Nobody: exec the setuid helper in a child, again and again until the
 * deadline.  Each run must have had euid 0 and exited 0.
 */
static int suid_runner_fn(void *arg)
{
	const struct suid_arg *a = arg;
	char *const argv[] = { SUID_HELPER, NULL };
	char *const envp[] = { NULL };
	unsigned int nr_runs = 0;
	int status;
	pid_t pid;

	while (now_sec() < a->deadline) {
		pid = fork();
		if (pid < 0)
			return CHK_SPAWN;
		if (!pid) {
			execve(a->path, argv, envp);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid)
			return CHK_SPAWN;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "# %s: wait status %#x\n", a->path,
				status);
			return CHK_SUID_RAN;
		}
		nr_runs++;
	}
	return nr_runs ? CHK_OK : CHK_SUID_RAN;
}

/* Not one mapping of the helper in @d */
static int suid_check_dump(struct td_dump *d)
{
	const struct td_task *t;
	const char *name;
	size_t i, j;

	if (check_clean(d))
		return CHK_CLEAN;
	for (i = 0; i < d->nr_tasks; i++) {
		t = &d->tasks[i];
		for (j = 0; j < t->nr_vmas; j++) {
			name = t->vmas[j].name;
			if (!name || !strstr(name, SUID_HELPER))
				continue;
			fprintf(stderr, "# pid %u: %s shown to nobody\n",
				t->pid, name);
			return CHK_SUID_LEAK;
		}
	}
	return CHK_OK;
}

/*
 * Dump SUID_SHOW with @strategy for @pid and check it; ESRCH is fine for a
 * per-process request (the task is gone).  In *@child, if not NULL, a
 * child of the runner the dump shows, if any.
 */
static int suid_dump(const struct suid_arg *a, __u64 strategy, pid_t pid,
		     pid_t *child)
{
	struct td_dump d;
	size_t i;
	int ret;

	ret = td_dump(&d, SUID_SHOW, strategy, pid, TD_BUF_SMALL);
	if (ret == -ESRCH && strategy != TASK_DIAG_DUMP_ALL) {
		ret = CHK_OK;
	} else if (ret) {
		fprintf(stderr, "# dump %llu of %d: %s\n",
			(unsigned long long)strategy, pid, strerror(-ret));
		ret = CHK_DUMP;
	} else {
		ret = suid_check_dump(&d);
	}
	for (i = 0; child && i < d.nr_tasks; i++)
		if (d.tasks[i].base.ppid == (__u32)a->runner)
			*child = d.tasks[i].pid;
	td_dump_free(&d);
	return ret;
}

/*
 * Nobody: until the deadline, dump ALL, the runner's CHILDREN and ONE of
 * a child of the runner; the helper's mappings must never show.
 */
static int suid_reader_fn(void *arg)
{
	const struct suid_arg *a = arg;
	unsigned int nr_dumps = 0;
	int ret = CHK_OK;
	pid_t child;

	while (!ret && now_sec() < a->deadline) {
		child = 0;
		ret = suid_dump(a, TASK_DIAG_DUMP_ALL, 0, &child);
		if (!ret)
			ret = suid_dump(a, TASK_DIAG_DUMP_CHILDREN, a->runner,
					&child);
		if (!ret && child)
			ret = suid_dump(a, TASK_DIAG_DUMP_ONE, child, NULL);
		nr_dumps++;
	}
	if (!ret && nr_dumps < SUID_MIN_DUMPS) {
		fprintf(stderr, "# %u dumps in %d s\n", nr_dumps, SUID_SECONDS);
		ret = CHK_SUID_DUMPS;
	}
	return ret;
}

/*
 * Root, in a mount namespace of its own: the helper setuid root on a new
 * tmpfs (not nosuid), then the runner and the reader, as nobody.
 */
static int suid_fn(void *arg)
{
	struct suid_arg *a = arg;
	pid_t reader;
	int ret;

	ret = remount_proc("hidepid=0");
	if (ret)
		return ret;
	if (mount("tmpfs", a->dir, "tmpfs", 0, "mode=0755") ||
	    copy_setuid(a->src, a->path)) {
		fprintf(stderr, "# %s: %s\n", a->path, strerror(errno));
		return CHK_SUID_SETUP;
	}
	a->deadline = now_sec() + SUID_SECONDS;
	a->runner = fork_child(suid_runner_fn, a, true);
	if (a->runner < 0)
		return CHK_SPAWN;
	reader = fork_child(suid_reader_fn, a, true);
	if (reader < 0) {
		kill_reap(a->runner);
		return CHK_SPAWN;
	}
	ret = wait_child(reader);
	return ret ? ret : wait_child(a->runner);
}

/*
 * While nobody execs a setuid root program again and again, nobody's
 * dumps never show that program's mappings: the check that lets a task's
 * maps be shown and the mm they are read from must be of the same side
 * of the exec.
 */
TEST(setuid_exec_never_leaks_maps)
{
	struct suid_arg a = { .dir = "/tmp/td-suid.XXXXXX" };

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		SKIP(return, "no_new_privs: exec cannot raise privileges");
	ASSERT_EQ(0, find_helper(a.src, sizeof(a.src)))
		TH_LOG("%s: %m", a.src);
	ASSERT_NE(NULL, mkdtemp(a.dir)) TH_LOG("%s: %m", a.dir);
	snprintf(a.path, sizeof(a.path), "%s/%s", a.dir, SUID_HELPER);
	EXPECT_CHK_OK(run_child(suid_fn, &a, false));
	EXPECT_EQ(0, rmdir(a.dir)) TH_LOG("%s: %m", a.dir);
}

TEST_HARNESS_MAIN
