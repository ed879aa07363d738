// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Tests of the procfs backend: on a child with known threads and mappings,
 * checked against /proc directly, and on a fake /proc tree whose every
 * value is known.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "internal.h"
#include "procfs.h"
#include "tests.h"

#define CHILD_COMM	"td-child"
#define CHILD_THREADS	3

static pthread_barrier_t started;

static void *sleeper(void *arg)
{
	pthread_barrier_wait(&started);
	for (;;)
		pause();
	return NULL;
}

/* In the child: 2 more threads, a memfd and a deleted file mapped */
static void child_setup(void)
{
	char path[] = "/tmp/td-test.XXXXXX";
	pthread_t th;
	char *p;
	int fd, i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, CHILD_COMM);
	fd = memfd_create("td-memfd", 0);
	if (fd < 0 || ftruncate(fd, 8192))
		_exit(1);
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		_exit(1);
	p[0] = 1;
	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, 4096) ||
	    mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED)
		_exit(1);
	unlink(path);
	pthread_barrier_init(&started, NULL, CHILD_THREADS);
	for (i = 1; i < CHILD_THREADS; i++)
		if (pthread_create(&th, NULL, sleeper, NULL))
			_exit(1);
	pthread_barrier_wait(&started);
	usleep(20000);
}

static pid_t start_child(void)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		close(p[0]);
		child_setup();
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &c, 1) != 1) {
		close(p[0]);
		return -1;
	}
	close(p[0]);
	return pid;
}

static void stop_child(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static struct taskdiag *procfs_session(const char *root)
{
	struct taskdiag_opts opts = {
		.sz = sizeof(opts),
		.backend = TASKDIAG_BACKEND_PROCFS,
		.proc_root = root,
	};

	return taskdiag__new(&opts);
}

/* The whole of a file, NUL-terminated, or NULL */
static char *slurp(int pid, const char *file)
{
	static char buf[1 << 20];
	char path[256];
	ssize_t n, len = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* The VMAs, formatted, are the lines of /proc/PID/maps */
static int check_maps(const struct taskdiag_task *task, pid_t pid)
{
	const struct taskdiag_vma *v;
	char *maps = slurp(pid, "maps"), *line;
	char buf[8192];
	size_t i;

	CHECK(maps);
	line = maps;
	taskdiag_task__for_each_vma(task, i, v) {
		char *eol = strchr(line, '\n');

		CHECK(eol);
		*eol = '\0';
		taskdiag_vma__format(v, buf, sizeof(buf));
		if (strcmp(buf, line)) {
			printf("# vma %zu:\n# got  %s\n# maps %s\n", i, buf, line);
			return -1;
		}
		line = eol + 1;
	}
	CHECK(!*line);
	return 0;
}

static const struct taskdiag_vma *find_vma(const struct taskdiag_task *task,
					   const char *prefix)
{
	const struct taskdiag_vma *v;
	size_t i;

	taskdiag_task__for_each_vma(task, i, v)
		if (v->name && !strncmp(v->name, prefix, strlen(prefix)))
			return v;
	return NULL;
}

static int check_child(const struct taskdiag_task *task, pid_t pid)
{
	const struct task_diag_creds *c = taskdiag_task__creds(task, NULL);
	const struct task_diag_base *b = taskdiag_task__base(task, NULL);
	const struct task_diag_statm *sm = taskdiag_task__statm(task, NULL);
	const struct task_diag_stat *st = taskdiag_task__stat(task, NULL);
	const struct taskdiag_vma *v;
	unsigned long long size;

	CHECK(b && c && st && sm);
	CHECK_EQ(b->pid, pid);
	CHECK_EQ(b->tgid, pid);
	CHECK_EQ(b->ppid, getpid());
	CHECK(!strcmp(b->comm, CHILD_COMM));
	CHECK_EQ(c->uid, getuid());
	CHECK_EQ(c->egid, getegid());
	CHECK_EQ(st->threads, CHILD_THREADS);
	CHECK(slurp(pid, "statm"));
	CHECK(sscanf(slurp(pid, "statm"), "%llu", &size) == 1);
	CHECK_EQ(sm->total_vm, size);
	if (check_maps(task, pid))
		return -1;
	v = find_vma(task, "/memfd:td-memfd");
	CHECK(v && !strcmp(v->name, "/memfd:td-memfd (deleted)"));
	CHECK(v->stat && v->stat->resident == 4096);
	CHECK(v->vm_flags & TASK_DIAG_VMA_F_SHARED);
	CHECK(v->vm_flags & TASK_DIAG_VMA_F_MAYSHARE);
	v = find_vma(task, "/tmp/td-test.");
	CHECK(v && strstr(v->name, " (deleted)"));
	return 0;
}

/* Describe the child; -EAGAIN if its maps changed meanwhile */
static int describe_child(struct taskdiag *td, pid_t pid)
{
	struct taskdiag_task *task;
	static char before[1 << 20];
	int ret;

	CHECK(slurp(pid, "maps"));
	snprintf(before, sizeof(before), "%s", slurp(pid, "maps"));
	CHECK(!td_request(td, TASK_DIAG_DUMP_ONE, pid, SHOW_ALL));
	CHECK_EQ(taskdiag__next(td, &task), 1);
	ret = check_child(task, pid);
	if (!slurp(pid, "maps") || strcmp(before, slurp(pid, "maps")))
		return -EAGAIN;
	CHECK_EQ(taskdiag__next(td, &task), 0);
	return ret;
}

static int one_child(void)
{
	struct taskdiag *td;
	int i, ret = -1;
	pid_t pid;

	pid = start_child();
	CHECK(pid > 0);
	td = procfs_session(NULL);
	for (i = 0; td && i < 5; i++) {
		ret = describe_child(td, pid);
		if (ret != -EAGAIN)
			break;
		printf("# the maps of the child changed, again\n");
	}
	taskdiag__delete(td);
	stop_child(pid);
	return ret;
}

/* The pids of one request, in order */
static int dump(__u64 strategy, pid_t pid, __u64 show, struct run *r)
{
	struct taskdiag *td = procfs_session(NULL);
	int ret;

	if (!td)
		return -1000;
	ret = td_request(td, strategy, pid, show);
	if (!ret)
		ret = run_all(td, r);
	taskdiag__delete(td);
	return ret;
}

static int find_pid(const struct run *r, __u32 pid)
{
	int i;

	for (i = 0; i < r->nr_tasks && i < RUN_MAX; i++)
		if (r->pids[i] == pid)
			return i;
	return -1;
}

static int check_threads(pid_t pid)
{
	struct run r;
	int i;

	CHECK_EQ(dump(TASK_DIAG_DUMP_THREAD, pid, TASK_DIAG_SHOW_STAT, &r), 0);
	CHECK_EQ(r.nr_tasks, CHILD_THREADS);
	CHECK_EQ(r.pids[0], pid);
	for (i = 1; i < CHILD_THREADS; i++)
		CHECK(r.pids[i] > (__u32)pid);
	CHECK_EQ(dump(TASK_DIAG_DUMP_ALL_THREAD, 0, TASK_DIAG_SHOW_BASE, &r),
		 0);
	i = find_pid(&r, pid);
	CHECK(i >= 0 && i + CHILD_THREADS <= r.nr_tasks);
	CHECK(r.pids[i + 1] > (__u32)pid && r.pids[i + 2] > (__u32)pid);
	return 0;
}

static int strategies(void)
{
	pid_t pid = start_child();
	struct run r;
	int ret = -1, i;

	CHECK(pid > 0);
	if (dump(TASK_DIAG_DUMP_CHILDREN, getpid(), TASK_DIAG_SHOW_BASE, &r) ||
	    find_pid(&r, pid) < 0)
		goto out;
	if (dump(TASK_DIAG_DUMP_ALL, 0, TASK_DIAG_SHOW_BASE, &r) ||
	    find_pid(&r, pid) < 0 || find_pid(&r, getpid()) < 0 ||
	    find_pid(&r, pid + 1) >= 0)
		goto out;
	for (i = 1; i < r.nr_tasks && i < RUN_MAX; i++)
		if (r.pids[i] <= r.pids[i - 1])
			goto out;
	ret = check_threads(pid);
out:
	stop_child(pid);
	return ret;
}

static int vanished_task_skipped(void)
{
	struct taskdiag_task *task;
	struct taskdiag *td;
	pid_t pid;
	int ret;

	pid = start_child();
	CHECK(pid > 0);
	td = procfs_session(NULL);
	CHECK(td);
	ret = td_request(td, TASK_DIAG_DUMP_ONE, pid, SHOW_ALL);
	stop_child(pid);
	if (!ret)
		ret = taskdiag__next(td, &task);
	taskdiag__delete(td);
	CHECK_EQ(ret, 0);
	return 0;
}

static int request_errors(void)
{
	struct taskdiag *td = procfs_session(NULL);
	int e[6];

	CHECK(td);
	e[0] = td_request(td, TASK_DIAG_DUMP_ONE, 0x7ffffff0, 0);
	e[1] = td_request(td, TASK_DIAG_DUMP_ONE, 0, 0);
	e[2] = td_request(td, TASK_DIAG_DUMP_ALL, 0,
				 TASK_DIAG_SHOW_VMA_STAT);
	e[3] = td_request(td, 17, 0, 0);
	e[4] = td_request(td, TASK_DIAG_DUMP_ALL, 0, 1ULL << 40);
	e[5] = td_request(td, TASK_DIAG_DUMP_CHILDREN, 0x7ffffff0, 0);
	taskdiag__delete(td);
	CHECK_EQ(e[0], -ESRCH);
	CHECK_EQ(e[1], -ESRCH);
	CHECK_EQ(e[2], -EINVAL);
	CHECK_EQ(e[3], -EINVAL);
	CHECK_EQ(e[4], -EINVAL);
	CHECK_EQ(e[5], -ESRCH);
	return 0;
}

/* A fake /proc where every value is known */
#define FAKE_PAD	"                               "
#define FAKE_VMA1	"00400000-00401000 r-xp 00001000 08:01 1234" FAKE_PAD \
			"/bin/with space (deleted)\n"
#define FAKE_VMA2	"7fff0000-7fff1000 rw-s 00000000 00:00 0 " "\n"
static const char fake_stat[] =
	"42 (a) (b c d e f g h i) t 1 40 41 0 -1 4194560 100 200 3 4 50 60 70 80"
	" 20 0 3 0 1234 8192 1\n";
static const char fake_status[] =
	"Name:\ta\nUmask:\t0022\nState:\tt (tracing stop)\nTgid:\t42\nPid:\t42\n"
	"PPid:\t1\nTracerPid:\t7\nUid:\t1\t2\t3\t4\nGid:\t5\t6\t7\t8\n"
	"VmPeak:\t   12 kB\nVmSize:\t    8 kB\nVmLck:\t    4 kB\nVmPin:\t    0 kB\n"
	"VmHWM:\t    8 kB\nVmRSS:\t    4 kB\nRssAnon:\t    4 kB\nRssFile:\t    0 kB\n"
	"RssShmem:\t    0 kB\nVmData:\t    4 kB\nVmStk:\t  132 kB\nVmExe:\t    4 kB\n"
	"VmLib:\t    0 kB\nVmPTE:\t   44 kB\nVmSwap:\t    0 kB\nThreads:\t3\n"
	"CapInh:\t0000000000000001\nCapPrm:\t000001ffffffffff\n"
	"CapEff:\t0000000100000002\nCapBnd:\t000001ffffffffff\n";
static const char fake_maps[] =
	FAKE_VMA1
	FAKE_VMA2;
static const char fake_smaps[] =
	FAKE_VMA1
	"Size:                  4 kB\nRss:                   4 kB\nPss:                   3 kB\n"
	"Pss_Dirty:             1 kB\nShared_Clean:          1 kB\nPrivate_Dirty:         2 kB\n"
	"Referenced:            4 kB\nAnonymous:             8 kB\nSwap:                  0 kB\n"
	"VmFlags: rd ex mr mw me dw sd zz\n"
	FAKE_VMA2
	"Rss:                   0 kB\nVmFlags: rd wr sh mr mw me ms\n";
static const char kthread_status[] =
	"Name:\tkthreadd\nTgid:\t2\nPid:\t2\nTracerPid:\t0\nUid:\t0\t0\t0\t0\n"
	"Gid:\t0\t0\t0\t0\nCapInh:\t0\nCapPrm:\t0\nCapEff:\t0\nCapBnd:\t0\n";
static const char kthread_stat[] =
	"2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 1 0 0 20 0 1 0 9 0 0\n";

static int put(const char *root, const char *path, const char *text)
{
	char file[512], *slash;
	int fd, len = strlen(text);

	snprintf(file, sizeof(file), "%s/%s", root, path);
	for (slash = strchr(file + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(file, 0755);
		*slash = '/';
	}
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, len) != len)
		return -1;
	return close(fd);
}

static int make_fake_proc(char *root)
{
	return put(root, "42/stat", fake_stat) ||
	       put(root, "42/status", fake_status) ||
	       put(root, "42/statm", "2 1 0 1 0 1 0\n") ||
	       put(root, "42/maps", fake_maps) ||
	       put(root, "42/smaps", fake_smaps) ||
	       put(root, "42/task/42/children", "2 77 42\n") ||
	       put(root, "2/stat", kthread_stat) ||
	       put(root, "2/status", kthread_status) ||
	       put(root, "self/stat", "1 (x) R\n");
}

static int check_fake_base(const struct taskdiag_task *task)
{
	const struct task_diag_creds *c = taskdiag_task__creds(task, NULL);
	const struct task_diag_base *b = taskdiag_task__base(task, NULL);
	const struct task_diag_statm *sm = taskdiag_task__statm(task, NULL);
	const struct task_diag_stat *st = taskdiag_task__stat(task, NULL);

	CHECK(b && c && st && sm);
	CHECK(!strcmp(b->comm, "a) (b c d e f g"));
	CHECK_EQ(b->state, TASK_DIAG_TRACE_STOP);
	CHECK_EQ(b->ppid, 1);
	CHECK_EQ(b->pgid, 40);
	CHECK_EQ(b->sid, 41);
	CHECK_EQ(b->tpid, 7);
	CHECK(c->uid == 1 && c->euid == 2 && c->suid == 3 && c->fsuid == 4);
	CHECK(c->gid == 5 && c->egid == 6 && c->sgid == 7 && c->fsgid == 8);
	CHECK(c->cap_inheritable.cap[0] == 1 && !c->cap_inheritable.cap[1]);
	CHECK(c->cap_effective.cap[0] == 2 && c->cap_effective.cap[1] == 1);
	CHECK(c->cap_bset.cap[0] == 0xffffffff && c->cap_bset.cap[1] == 0x1ff);
	CHECK(st->minflt == 100 && st->cminflt == 200 && st->majflt == 3);
	CHECK(st->cmajflt == 4 && st->utime == 50 && st->stime == 60);
	CHECK(st->cutime == 70 && st->cstime == 80 && st->threads == 3);
	CHECK(sm->total_vm == 2 && sm->total_rss == 1 && sm->text == 1);
	CHECK(sm->hiwater_vm == 3 && sm->hiwater_rss == 2 && sm->anon == 1);
	CHECK(sm->locked_vm == 1 && sm->data_vm == 1 && sm->stack_vm == 33);
	CHECK_EQ(sm->ptes, 44 * 1024);
	return 0;
}

static int check_fake_vmas(const struct taskdiag_task *task, bool smaps)
{
	const struct taskdiag_vma *v0 = taskdiag_task__vma(task, 0);
	const struct taskdiag_vma *v1 = taskdiag_task__vma(task, 1);

	CHECK_EQ(taskdiag_task__nr_vmas(task), 2);
	CHECK(!strcmp(v0->name, "/bin/with space (deleted)"));
	CHECK(!v1->name);
	CHECK(v0->start == 0x400000 && v0->end == 0x401000);
	CHECK(v0->pgoff == 0x1000 && v0->inode == 1234);
	CHECK(v0->major == 8 && v0->minor == 1);
	if (!smaps) {
		CHECK_EQ(v0->vm_flags,
			 TASK_DIAG_VMA_F_READ | TASK_DIAG_VMA_F_EXEC);
		CHECK_EQ(v1->vm_flags, TASK_DIAG_VMA_F_READ |
			 TASK_DIAG_VMA_F_WRITE | TASK_DIAG_VMA_F_MAYSHARE);
		CHECK(!v0->stat);
		return 0;
	}
	CHECK_EQ(v0->vm_flags, TASK_DIAG_VMA_F_READ | TASK_DIAG_VMA_F_EXEC |
		 TASK_DIAG_VMA_F_MAYREAD | TASK_DIAG_VMA_F_MAYWRITE |
		 TASK_DIAG_VMA_F_MAYEXEC | TASK_DIAG_VMA_F_SOFTDIRTY);
	CHECK(v1->vm_flags & TASK_DIAG_VMA_F_SHARED);
	CHECK(v0->stat && v1->stat);
	CHECK(v0->stat->resident == 4096 && v0->stat->pss == 3ULL << 22);
	CHECK(v0->stat->shared_clean == 1024 && v0->stat->anonymous == 8192);
	CHECK(v0->stat->private_dirty == 2048 && !v1->stat->resident);
	return 0;
}

static int fake_dump(const char *root, __u64 strategy, __u32 pid,
		     __u64 show, bool smaps)
{
	struct taskdiag *td = procfs_session(root);
	struct taskdiag_task *task;
	int ret = -1;

	CHECK(td);
	if (td_request(td, strategy, pid, show))
		goto out;
	if (taskdiag__next(td, &task) != 1 || taskdiag_task__pid(task) != 2 ||
	    taskdiag_task__has(task, TASK_DIAG_VMA) ||
	    taskdiag_task__has(task, TASK_DIAG_STATM))
		goto out;
	if (taskdiag__next(td, &task) != 1 || taskdiag_task__pid(task) != 42 ||
	    check_fake_base(task) || check_fake_vmas(task, smaps))
		goto out;
	ret = taskdiag__next(td, &task);
out:
	if (ret)
		printf("# %s\n", taskdiag__errmsg(td));
	taskdiag__delete(td);
	return ret;
}

static int fake_proc_tree(void)
{
	char root[] = "/tmp/td-fakeproc.XXXXXX";
	__u64 show = TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_CRED |
		     TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_STAT |
		     TASK_DIAG_SHOW_STATM;
	char cmd[64];
	int ret;

	CHECK(mkdtemp(root));
	ret = make_fake_proc(root);
	if (!ret)
		ret = fake_dump(root, TASK_DIAG_DUMP_ALL, 0, show, false);
	if (!ret)
		ret = fake_dump(root, TASK_DIAG_DUMP_ALL, 0,
				show | TASK_DIAG_SHOW_VMA_STAT, true);
	if (!ret)
		ret = fake_dump(root, TASK_DIAG_DUMP_CHILDREN, 42, show, false);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		ret = -1;
	return ret;
}

/* A task whose files cannot be parsed is skipped, the others are not */
static int fake_proc_malformed(void)
{
	char root[] = "/tmp/td-fakeproc.XXXXXX";
	struct taskdiag_task *task;
	struct taskdiag *td = NULL;
	char cmd[64], *line = NULL;
	int ret = -1;

	CHECK(mkdtemp(root));
	line = malloc(2 << 20);
	if (!line)
		goto out;
	memset(line, 'x', (2 << 20) - 2);
	line[(2 << 20) - 2] = '\n';
	line[(2 << 20) - 1] = '\0';
	if (put(root, "5/status", "Pid:\t5\nTgid:\t5\n") ||
	    put(root, "5/stat", "5 no parens S 1 2 3\n") ||
	    put(root, "6/status", fake_status) ||
	    put(root, "6/stat", fake_stat) ||
	    put(root, "6/maps", "00400000-00401000 r-xp zz 08:01 1\n") ||
	    put(root, "7/status", fake_status) ||
	    put(root, "7/stat", fake_stat) ||
	    put(root, "7/maps", line) ||
	    put(root, "42/status", fake_status) ||
	    put(root, "42/stat", fake_stat) ||
	    put(root, "42/maps", fake_maps))
		goto out;
	td = procfs_session(root);
	if (!td || td_request(td, TASK_DIAG_DUMP_ALL, 0,
			      TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA))
		goto out;
	/* 5: no parentheses in stat; 6: a bad offset; 7: a 2 MiB line */
	if (taskdiag__next(td, &task) != 1 || taskdiag_task__pid(task) != 42 ||
	    taskdiag_task__nr_vmas(task) != 2)
		goto out;
	ret = taskdiag__next(td, &task);
out:
	taskdiag__delete(td);
	free(line);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		ret = -1;
	return ret;
}

/* A mapping's name longer than PATH_MAX (it happens) is a name like another */
static int fake_proc_long_name(void)
{
	char root[] = "/tmp/td-fakeproc.XXXXXX", cmd[64], *maps = NULL;
	const struct taskdiag_vma *v;
	struct taskdiag_task *task;
	struct taskdiag *td = NULL;
	size_t len = 9000;
	int ret = -1;

	CHECK(mkdtemp(root));
	maps = malloc(len + 128);
	if (!maps)
		goto out;
	len = sprintf(maps, "00400000-00401000 r-xp 00000000 08:01 7 /");
	memset(maps + len, 'n', 9000);
	strcpy(maps + len + 9000, "\n" FAKE_VMA2);
	if (put(root, "42/status", fake_status) ||
	    put(root, "42/stat", fake_stat) || put(root, "42/maps", maps))
		goto out;
	td = procfs_session(root);
	if (!td || td_request(td, TASK_DIAG_DUMP_ONE, 42, TASK_DIAG_SHOW_VMA) ||
	    taskdiag__next(td, &task) != 1 || taskdiag_task__nr_vmas(task) != 2)
		goto out;
	v = taskdiag_task__vma(task, 0);
	if (!v->name || strlen(v->name) != 9001 || v->name[9000] != 'n' ||
	    taskdiag_task__vma(task, 1)->name)
		goto out;
	ret = taskdiag__next(td, &task);
out:
	taskdiag__delete(td);
	free(maps);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		ret = -1;
	return ret;
}

/* Write @len bytes of @bytes (NULs included) to @root/@path */
static int put_bytes(const char *root, const char *path, const char *bytes,
		     size_t len)
{
	char file[512];
	int fd;

	snprintf(file, sizeof(file), "%s/%s", root, path);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, bytes, len) != (ssize_t)len)
		return -1;
	return close(fd);
}

/*
 * PSINFO from the fields of a whole stat line, signed ones too; CMDLINE
 * byte for byte; a short stat line (an old kernel) is malformed only
 * when PSINFO is asked
 */
static int fake_proc_ps_groups(void)
{
	static const char stat[] =
		"42 (a b) S 1 40 41 34817 -1 4194560 1 2 3 4 5 6 7 8 -11 -5 1 0"
		" 123456 8192 1 18446744073709551615 1 2 3 4 5 6 7 8 9 0 0 0"
		" 17 1 7 2 0 0 0 0 0 0 0 0 0 0\n";
	static const char cmdline[] = "sh\0-c\0x y\0\0\n\0";
	char root[] = "/tmp/td-fakeproc.XXXXXX", cmd[64];
	const struct task_diag_psinfo *ps;
	struct taskdiag_task *task;
	struct taskdiag *td = NULL;
	const char *cl;
	size_t size;
	int ret = -1;

	CHECK(mkdtemp(root));
	if (put(root, "42/status", fake_status) || put(root, "42/stat", stat) ||
	    put_bytes(root, "42/cmdline", cmdline, sizeof(cmdline) - 1) ||
	    put(root, "2/status", kthread_status) ||
	    put(root, "2/stat", kthread_stat) || put(root, "2/cmdline", ""))
		goto out;
	td = procfs_session(root);
	if (!td || td_request(td, TASK_DIAG_DUMP_ONE, 42,
			      TASK_DIAG_SHOW_PSINFO | TASK_DIAG_SHOW_CMDLINE) ||
	    taskdiag__next(td, &task) != 1)
		goto out;
	ps = taskdiag_task__psinfo(task, &size);
	cl = taskdiag_task__cmdline(task, &size);
	if (!ps || ps->start_time != 123456 || ps->flags != 4194560 ||
	    ps->tty_nr != 34817 || ps->tpgid != -1 || ps->priority != -11 ||
	    ps->nice != -5 || ps->processor != 1 || ps->rt_priority != 7 ||
	    ps->policy != 2 || strcmp(ps->name, "a b") || !cl ||
	    size != sizeof(cmdline) - 1 ||
	    memcmp(cl, cmdline, size) || cl[size])
		goto out;
	if (taskdiag__next(td, &task))
		goto out;

	/* kthreadd: a stat line too short for PSINFO, an empty cmdline */
	if (td_request(td, TASK_DIAG_DUMP_ONE, 2, TASK_DIAG_SHOW_CMDLINE) ||
	    taskdiag__next(td, &task) != 1 ||
	    !taskdiag_task__cmdline(task, &size) || size ||
	    taskdiag__next(td, &task))
		goto out;
	if (td_request(td, TASK_DIAG_DUMP_ONE, 2, TASK_DIAG_SHOW_PSINFO) ||
	    taskdiag__next(td, &task) != 0)
		goto out;
	ret = 0;
out:
	taskdiag__delete(td);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		ret = -1;
	return ret;
}

/*
 * smaps of many mappings is read block by block: every VMA is there, the
 * lines cut by the blocks too, and the memory held is not the file
 */
static int fake_proc_big_smaps(void)
{
	char root[] = "/tmp/td-fakeproc.XXXXXX";
	const struct taskdiag_vma *v;
	struct taskdiag_task *task;
	struct taskdiag *td = NULL;
	size_t i, n = 4000, len = 0;
	char cmd[64], *smaps;
	int ret = -1;

	CHECK(mkdtemp(root));
	smaps = malloc(n * 256);
	if (!smaps)
		goto out;
	for (i = 0; i < n; i++)
		len += sprintf(smaps + len,
			       "%08zx-%08zx r-xp 00000000 08:01 %zu /lib/l%zu.so\n"
			       "Rss: %zu kB\nPss: 1 kB\nVmFlags: rd ex\n",
			       (i + 1) << 16, ((i + 1) << 16) + 4096, i, i, i);
	if (len < 200 * 1024 || put(root, "42/status", fake_status) ||
	    put(root, "42/stat", fake_stat) || put(root, "42/smaps", smaps))
		goto out;
	td = procfs_session(root);
	if (!td || td_request(td, TASK_DIAG_DUMP_ONE, 42, TASK_DIAG_SHOW_VMA |
			      TASK_DIAG_SHOW_VMA_STAT) ||
	    taskdiag__next(td, &task) != 1 || taskdiag_task__nr_vmas(task) != n)
		goto out;
	for (i = 0; i < n; i++) {
		v = taskdiag_task__vma(task, i);
		snprintf(cmd, sizeof(cmd), "/lib/l%zu.so", i);
		if (v->start != (i + 1) << 16 || v->inode != i ||
		    strcmp(v->name, cmd) || !v->stat ||
		    v->stat->resident != i << 10 || v->stat->pss != 1 << 22)
			goto out;
	}
	if (td->procfs->file_cap > 256 * 1024) {
		printf("# a buffer of %zu bytes for %zu\n", td->procfs->file_cap,
		       len);
		goto out;
	}
	ret = taskdiag__next(td, &task);
out:
	taskdiag__delete(td);
	free(smaps);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		ret = -1;
	return ret;
}

const struct td_test procfs_tests[] = {
	TD_TEST(one_child),
	TD_TEST(strategies),
	TD_TEST(vanished_task_skipped),
	TD_TEST(request_errors),
	TD_TEST(fake_proc_tree),
	TD_TEST(fake_proc_malformed),
	TD_TEST(fake_proc_big_smaps),
	TD_TEST(fake_proc_long_name),
	TD_TEST(fake_proc_ps_groups),
	{ }
};
