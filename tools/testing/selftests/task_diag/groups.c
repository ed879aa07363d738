// SPDX-License-Identifier: GPL-2.0
/*
 * Every field of every group (BASE, CRED, VMA, VMA_STAT, STAT, STATM)
 * against what /proc says about the same task, for a set of children in
 * known states, most of them stopped so that nothing moves meanwhile.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "td_test.h"

#ifndef PR_SET_VMA
#define PR_SET_VMA		0x53564d41
#define PR_SET_VMA_ANON_NAME	0
#endif
#ifndef CAP_BPF
#define CAP_BPF			39
#endif

#define NR_THREADS	4
#define MEMFD_NAME	"td_memfd"
#define ANON_NAME	"td_anon"

/* Ids and capabilities of the creds child, each distinct */
#define CRED_UID	2001U
#define CRED_GID	1001U
#define CRED_INH	((1ULL << CAP_NET_RAW) | (1ULL << CAP_BPF))
#define CRED_NOT_EFF	((1ULL << CAP_SYS_NICE) | (1ULL << CAP_AUDIT_READ))
#define CRED_NOT_BND	((1ULL << CAP_SYS_BOOT) | (1ULL << CAP_SYSLOG))

/* What the mapper child maps, besides its heap and stack */
struct mapper_cfg {
	char file[32];		/* mapped at a page offset, kept */
	char deleted[32];	/* mapped shared, then unlinked */
	bool anon_name;		/* PR_SET_VMA_ANON_NAME works here */
};

/* The children of the fixture, by role */
enum {
	SLEEPER,	/* pause()s: state S */
	STOPPED,	/* reaped a child that faulted and ran; SIGSTOPped: T */
	THREADED,	/* NR_THREADS named threads besides the main one; T */
	MAPPER,		/* the mappings of mapper_cfg, heap, stack; T */
	CREDS,		/* distinct uids, gids and capability sets (CRED_*) */
	LEADER,		/* setsid(): leads its own session and group */
	TRACED,		/* PTRACE_SEIZE'd, PTRACE_INTERRUPT'ed by us: t */
	ZOMBIE,		/* exited, waited for with WNOWAIT: Z */
	NR_CHILDREN
};

FIXTURE(groups) {
	/* the children, indexed by role */
	pid_t child[NR_CHILDREN];
	/* the files the MAPPER maps */
	struct mapper_cfg cfg;
};

/* Where the children keep what they allocate, so that it stays */
static void *sink;

/* Fork a child that faults 1 MiB in and burns CPU, and reap it */
static int stopped_fn(void *arg)
{
	size_t len = 1 << 20;
	char *p;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		p = malloc(len);
		if (!p)
			_exit(1);
		sink = p;
		memset(p, 1, len);
		while (clock() < CLOCKS_PER_SEC / 20)
			;
		_exit(0);
	}
	if (waitpid(pid, NULL, 0) != pid)
		return -1;
	p = malloc(256 << 10);
	if (!p)
		return -1;
	sink = p;
	memset(p, 2, 256 << 10);
	return 0;
}

static int threaded_fn(void *arg)
{
	return start_threads(NR_THREADS, "td-thr-%d");
}

static int leader_fn(void *arg)
{
	return setsid() < 0;
}

static int cred_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[0].effective = data[0].permitted & ~(__u32)CRED_NOT_EFF;
	data[1].effective = data[1].permitted & ~(__u32)(CRED_NOT_EFF >> 32);
	data[0].inheritable = (__u32)CRED_INH;
	data[1].inheritable = (__u32)(CRED_INH >> 32);
	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

/* uid 2001..2004 and gid 1001..1004 (r, e, s, fs), CRED_* capabilities */
static int creds_fn(void *arg)
{
	if (prctl(PR_CAPBSET_DROP, CAP_SYS_BOOT) ||
	    prctl(PR_CAPBSET_DROP, CAP_SYSLOG) ||
	    prctl(PR_SET_KEEPCAPS, 1) ||
	    setresgid(CRED_GID, CRED_GID + 1, CRED_GID + 2))
		return -1;
	setfsgid(CRED_GID + 3);
	if (setresuid(CRED_UID, CRED_UID + 1, CRED_UID + 2) || cred_caps())
		return -1;
	setfsuid(CRED_UID + 3);
	return 0;
}

static void *map_file(const char *path, int flags, int prot, off_t off)
{
	long pg = sysconf(_SC_PAGESIZE);
	int fd = open(path, prot & PROT_WRITE ? O_RDWR : O_RDONLY);
	void *p;

	if (fd < 0)
		return MAP_FAILED;
	p = mmap(NULL, 2 * pg, prot, flags, fd, off);
	close(fd);
	return p;
}

static int map_special(long pg)
{
	char *p;
	int fd;

	/* memfd: "/memfd:td_memfd (deleted)" */
	fd = memfd_create(MEMFD_NAME, 0);
	if (fd < 0 || ftruncate(fd, 2 * pg))
		return -1;
	p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	p[0] = 1;

	/* shared anonymous: "/dev/zero (deleted)" */
	p = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	p[0] = 1;

	/* three VMAs that cannot merge, and an inaccessible one */
	p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	memset(p, 1, 4 * pg);
	if (mprotect(p + pg, pg, PROT_READ))
		return -1;
	p = mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? -1 : 0;
}

static int mapper_fn(void *arg)
{
	struct mapper_cfg *cfg = arg;
	long pg = sysconf(_SC_PAGESIZE);
	char *p;

	p = map_file(cfg->file, MAP_PRIVATE, PROT_READ, pg);
	if (p == MAP_FAILED || p[0] != 'b')
		return -1;
	p = map_file(cfg->deleted, MAP_SHARED, PROT_READ | PROT_WRITE, 0);
	if (p == MAP_FAILED || unlink(cfg->deleted))
		return -1;
	p[0] = 1;
	if (map_special(pg))
		return -1;
	if (cfg->anon_name) {
		p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED ||
		    prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, p, 2 * pg,
			  ANON_NAME))
			return -1;
		p[0] = 1;
	}
	/* below the mmap threshold: from the [heap] */
	p = malloc(64 << 10);
	if (!p)
		return -1;
	sink = p;
	memset(p, 1, 64 << 10);
	return 0;
}

/* A file of 3 pages "a", "b", "c" in /tmp, its name in @path */
static int make_file(char *path, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *buf = malloc(pg);
	int fd, i, ret = 0;

	snprintf(path, len, "/tmp/td_groups_XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || !buf)
		return -1;
	for (i = 0; i < 3; i++) {
		memset(buf, 'a' + i, pg);
		if (write(fd, buf, pg) != pg)
			ret = -1;
	}
	close(fd);
	free(buf);
	return ret;
}

/* Does this kernel name anonymous VMAs (CONFIG_ANON_VMA_NAME)? */
static bool anon_name_works(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bool ok;

	if (p == MAP_FAILED)
		return false;
	ok = !prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, p, pg, ANON_NAME);
	munmap(p, pg);
	return ok;
}

static pid_t spawn_traced(void)
{
	pid_t pid = spawn_child(NULL, NULL);
	int status;

	if (pid < 0)
		return pid;
	if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) ||
	    ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) ||
	    waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		kill_reap(pid);
		return -1;
	}
	return pid;
}

FIXTURE_SETUP(groups)
{
	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	ASSERT_EQ(0, make_file(self->cfg.file, sizeof(self->cfg.file)));
	ASSERT_EQ(0, make_file(self->cfg.deleted, sizeof(self->cfg.deleted)));
	self->cfg.anon_name = anon_name_works();

	self->child[SLEEPER] = spawn_child(NULL, NULL);
	ASSERT_GT(self->child[SLEEPER], 0);
	self->child[STOPPED] = spawn_child(stopped_fn, NULL);
	ASSERT_GT(self->child[STOPPED], 0);
	self->child[THREADED] = spawn_child(threaded_fn, NULL);
	ASSERT_GT(self->child[THREADED], 0);
	self->child[MAPPER] = spawn_child(mapper_fn, &self->cfg);
	ASSERT_GT(self->child[MAPPER], 0);
	self->child[CREDS] = spawn_child(creds_fn, NULL);
	ASSERT_GT(self->child[CREDS], 0);
	self->child[LEADER] = spawn_child(leader_fn, NULL);
	ASSERT_GT(self->child[LEADER], 0);
	self->child[TRACED] = spawn_traced();
	ASSERT_GT(self->child[TRACED], 0);
	self->child[ZOMBIE] = spawn_zombie();
	ASSERT_GT(self->child[ZOMBIE], 0);

	ASSERT_EQ(0, stop_child(self->child[STOPPED]));
	ASSERT_EQ(0, stop_child(self->child[THREADED]));
	ASSERT_EQ(0, stop_child(self->child[MAPPER]));
}

FIXTURE_TEARDOWN(groups)
{
	pid_t *pids = &self->child[SLEEPER];

	kill_reap_all(pids, NR_CHILDREN);
	if (self->cfg.file[0])
		unlink(self->cfg.file);
	if (self->cfg.deleted[0])
		unlink(self->cfg.deleted);
}

/* Dump one task with ONE; @d then holds exactly that task */
#define dump_one(m, d, show, pid)	td_dump_one(m, d, show, pid, TD_BUF_BIG)

TEST_F(groups, base_matches_proc_stat)
{
	struct td_diff df = {};
	struct td_dump d;
	int i;

	for (i = 0; i < NR_CHILDREN; i++) {
		dump_one(_metadata, &d, TASK_DIAG_SHOW_BASE, self->child[i]);
		base_diff(&d.tasks[0], self->child[i], 0, &df);
		td_dump_free(&d);
	}
	EXPECT_NO_DIFF(&df);
}

TEST_F(groups, base_in_children_and_all)
{
	static const __u64 strategies[] = { TASK_DIAG_DUMP_CHILDREN,
					    TASK_DIAG_DUMP_ALL };
	struct td_diff df = {};
	struct td_task *t;
	struct td_dump d;
	int s, i;

	for (s = 0; s < 2; s++) {
		ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE, strategies[s],
				     getpid(), TD_BUF_SMALL));
		TD_EXPECT_CLEAN(&d);
		if (strategies[s] == TASK_DIAG_DUMP_CHILDREN)
			EXPECT_EQ((size_t)NR_CHILDREN, d.nr_tasks);
		for (i = 0; i < NR_CHILDREN; i++) {
			t = td_find(&d, self->child[i]);
			ASSERT_NE(NULL, t) TH_LOG("pid %d missing",
						  self->child[i]);
			base_diff(t, self->child[i], 0, &df);
		}
		td_dump_free(&d);
	}
	EXPECT_NO_DIFF(&df);
}

TEST_F(groups, base_states)
{
	static const struct {
		size_t child;
		int state;
	} want[] = {
		{ SLEEPER, TASK_DIAG_INTERRUPTIBLE },
		{ STOPPED, TASK_DIAG_STOPPED },
		{ TRACED, TASK_DIAG_TRACE_STOP },
		{ ZOMBIE, TASK_DIAG_ZOMBIE },
	};
	struct td_diff df = {};
	struct td_dump d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		dump_one(_metadata, &d, TASK_DIAG_SHOW_BASE,
			 self->child[want[i].child]);
		EXPECT_EQ(want[i].state, d.tasks[0].base.state)
			TH_LOG("pid %d", self->child[want[i].child]);
		td_dump_free(&d);
	}
	/* the reader itself is running */
	dump_one(_metadata, &d, TASK_DIAG_SHOW_BASE, getpid());
	EXPECT_EQ(TASK_DIAG_RUNNING, d.tasks[0].base.state);
	base_diff(&d.tasks[0], getpid(), 0, &df);
	EXPECT_NO_DIFF(&df);
	td_dump_free(&d);
}

TEST_F(groups, base_ids)
{
	struct td_dump d;
	struct td_task *t;
	pid_t pid;
	int i;

	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_CHILDREN,
			     getpid(), TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	for (i = 0; i < NR_CHILDREN; i++) {
		pid = self->child[i];
		t = td_find(&d, pid);
		ASSERT_NE(NULL, t);
		EXPECT_EQ((__u32)pid, t->base.pid);
		EXPECT_EQ((__u32)pid, t->base.tgid);
		EXPECT_EQ((__u32)getpid(), t->base.ppid);
		EXPECT_EQ(pid == self->child[TRACED] ? (__u32)getpid() : 0,
			  t->base.tpid) TH_LOG("pid %d", pid);
		EXPECT_EQ(pid == self->child[LEADER] ? (__u32)pid : (__u32)getsid(0),
			  t->base.sid) TH_LOG("pid %d", pid);
		EXPECT_EQ(pid == self->child[LEADER] ? (__u32)pid : (__u32)getpgrp(),
			  t->base.pgid) TH_LOG("pid %d", pid);
	}
	td_dump_free(&d);
}

TEST_F(groups, base_threads)
{
	struct td_diff df = {};
	struct td_dump d;
	struct td_task *t;
	size_t i;
	int named = 0, n;

	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_BASE, TASK_DIAG_DUMP_THREAD,
			     self->child[THREADED], TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	ASSERT_EQ((size_t)NR_THREADS + 1, d.nr_tasks);
	EXPECT_EQ(1U, td_count(&d, self->child[THREADED]));
	for (i = 0; i < d.nr_tasks; i++) {
		t = &d.tasks[i];
		EXPECT_EQ((__u32)self->child[THREADED], t->tgid);
		EXPECT_EQ(1U, td_count(&d, t->pid));
		base_diff(t, self->child[THREADED], t->pid, &df);
		if (sscanf(t->base.comm, "td-thr-%d", &n) == 1 && n >= 0 &&
		    n < NR_THREADS)
			named++;
	}
	EXPECT_NO_DIFF(&df);
	EXPECT_EQ(NR_THREADS, named);
	td_dump_free(&d);
}

TEST_F(groups, cred_matches_proc_status)
{
	pid_t pids[] = { self->child[CREDS], self->child[SLEEPER], self->child[LEADER], getpid() };
	struct td_diff df = {};
	struct td_dump d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pids); i++) {
		dump_one(_metadata, &d, TASK_DIAG_SHOW_CRED, pids[i]);
		creds_diff(&d.tasks[0], pids[i], &df);
		td_dump_free(&d);
	}
	EXPECT_NO_DIFF(&df);
}

TEST_F(groups, cred_values)
{
	const struct task_diag_creds *c;
	struct td_dump d;
	__u64 inh;

	dump_one(_metadata, &d, TASK_DIAG_SHOW_CRED, self->child[CREDS]);
	c = &d.tasks[0].creds;
	EXPECT_EQ(CRED_UID, c->uid);
	EXPECT_EQ(CRED_UID + 1, c->euid);
	EXPECT_EQ(CRED_UID + 2, c->suid);
	EXPECT_EQ(CRED_UID + 3, c->fsuid);
	EXPECT_EQ(CRED_GID, c->gid);
	EXPECT_EQ(CRED_GID + 1, c->egid);
	EXPECT_EQ(CRED_GID + 2, c->sgid);
	EXPECT_EQ(CRED_GID + 3, c->fsgid);
	/* one capability in each half of the set */
	inh = (__u64)c->cap_inheritable.cap[1] << 32 | c->cap_inheritable.cap[0];
	EXPECT_EQ(CRED_INH, inh);
	EXPECT_EQ(0U, c->cap_effective.cap[0] & (__u32)CRED_NOT_EFF);
	EXPECT_EQ(0U, c->cap_effective.cap[1] & (__u32)(CRED_NOT_EFF >> 32));
	EXPECT_EQ(0U, c->cap_bset.cap[0] & (__u32)CRED_NOT_BND);
	EXPECT_EQ(0U, c->cap_bset.cap[1] & (__u32)(CRED_NOT_BND >> 32));
	EXPECT_NE(0U, c->cap_permitted.cap[1]);
	td_dump_free(&d);
}

TEST_F(groups, vma_matches_proc_maps)
{
	pid_t pids[] = { self->child[MAPPER], self->child[THREADED], self->child[STOPPED],
			 self->child[SLEEPER] };
	struct td_diff df = {};
	struct td_dump d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pids); i++) {
		dump_one(_metadata, &d, TASK_DIAG_SHOW_VMA, pids[i]);
		vmas_vs_proc(&d.tasks[0], pids[i], &df);
		td_dump_free(&d);
	}
	EXPECT_NO_DIFF(&df);
}

TEST_F(groups, vma_names)
{
	char deleted[64];
	const char *names[] = {
		"[heap]", "[stack]", self->cfg.file, deleted,
		"/memfd:" MEMFD_NAME " (deleted)", "/dev/zero (deleted)",
	};
	const struct td_vma *v;
	struct td_dump d;
	size_t i;

	snprintf(deleted, sizeof(deleted), "%s (deleted)", self->cfg.deleted);
	dump_one(_metadata, &d, TASK_DIAG_SHOW_VMA, self->child[MAPPER]);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		EXPECT_NE(NULL, td_vma_named(&d.tasks[0], names[i]))
			TH_LOG("no VMA named \"%s\"", names[i]);
	}
	/* the file is mapped from its second page on, private, read-only */
	v = td_vma_named(&d.tasks[0], self->cfg.file);
	ASSERT_NE(NULL, v);
	EXPECT_EQ((__u64)sysconf(_SC_PAGESIZE), v->rec.pgoff);
	EXPECT_NE(0U, v->rec.inode);
	EXPECT_EQ(TASK_DIAG_VMA_F_READ, v->rec.vm_flags &
		  (TASK_DIAG_VMA_F_READ | TASK_DIAG_VMA_F_WRITE |
		   TASK_DIAG_VMA_F_EXEC | TASK_DIAG_VMA_F_MAYSHARE));
	v = td_vma_named(&d.tasks[0], "/dev/zero (deleted)");
	ASSERT_NE(NULL, v);
	EXPECT_NE(0U, v->rec.vm_flags & TASK_DIAG_VMA_F_MAYSHARE);
	td_dump_free(&d);
}

TEST_F(groups, vma_anon_name)
{
	struct td_diff df = {};
	struct td_dump d;

	if (!self->cfg.anon_name)
		SKIP(return, "PR_SET_VMA_ANON_NAME unsupported (CONFIG_ANON_VMA_NAME=n)");
	dump_one(_metadata, &d, TASK_DIAG_SHOW_VMA, self->child[MAPPER]);
	EXPECT_NE(NULL, td_vma_named(&d.tasks[0], "[anon:" ANON_NAME "]"));
	vmas_vs_proc(&d.tasks[0], self->child[MAPPER], &df);
	EXPECT_NO_DIFF(&df);
	td_dump_free(&d);
}

TEST_F(groups, vma_flags_match_smaps)
{
	pid_t pids[] = { self->child[MAPPER], self->child[THREADED] };
	struct td_diff df = {};
	struct proc_maps m;
	struct td_dump d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pids); i++) {
		dump_one(_metadata, &d, TASK_DIAG_SHOW_VMA, pids[i]);
		ASSERT_EQ(0, proc_read_maps(pids[i], true, &m));
		vmas_diff(&d.tasks[0], &m, &df);
		vmflags_diff(&d.tasks[0], &m, &df);
		proc_maps_free(&m);
		td_dump_free(&d);
	}
	EXPECT_NO_DIFF(&df);
}

static bool same_vma_stats(const struct td_task *a, const struct td_task *b)
{
	size_t i;

	if (a->nr_vmas != b->nr_vmas)
		return false;
	for (i = 0; i < a->nr_vmas; i++)
		if (memcmp(&a->vmas[i].stat, &b->vmas[i].stat,
			   sizeof(a->vmas[i].stat)))
			return false;
	return true;
}

/*
 * smaps counters of @pid.  Other processes mapping or unmapping the pages
 * it shares (libc) change its pss meanwhile: compare smaps with a dump
 * taken just before it, retrying while a dump taken just after differs.
 */
static void vma_stat_check(struct __test_metadata *_metadata, pid_t pid)
{
	__u64 show = TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_VMA_STAT;
	struct td_dump d1, d2;
	struct td_diff df;
	struct proc_maps m;
	int try;

	for (try = 0; try < 5; try++) {
		memset(&df, 0, sizeof(df));
		dump_one(_metadata, &d1, show, pid);
		ASSERT_EQ(0, proc_read_maps(pid, true, &m));
		dump_one(_metadata, &d2, show, pid);
		vmas_diff(&d1.tasks[0], &m, &df);
		vma_stats_diff(&d1.tasks[0], &m, &df);
		if (!same_vma_stats(&d1.tasks[0], &d2.tasks[0]))
			diff_add(&df, "pid %d: counters keep changing", pid);
		proc_maps_free(&m);
		td_dump_free(&d1);
		td_dump_free(&d2);
		if (!df.n)
			break;
	}
	EXPECT_NO_DIFF(&df);
}

TEST_F(groups, vma_stat_matches_smaps)
{
	vma_stat_check(_metadata, self->child[MAPPER]);
	vma_stat_check(_metadata, self->child[STOPPED]);
	vma_stat_check(_metadata, self->child[THREADED]);
}

TEST_F(groups, vma_stat_only_when_asked)
{
	struct td_dump d;
	size_t i, resident = 0, anon = 0;

	/* the parser checks that records have a stat iff it was asked */
	dump_one(_metadata, &d, TASK_DIAG_SHOW_VMA, self->child[MAPPER]);
	EXPECT_LT(5U, d.tasks[0].nr_vmas);
	td_dump_free(&d);

	dump_one(_metadata, &d, TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_VMA_STAT,
		 self->child[MAPPER]);
	for (i = 0; i < d.tasks[0].nr_vmas; i++) {
		resident += d.tasks[0].vmas[i].stat.resident;
		anon += d.tasks[0].vmas[i].stat.anonymous;
	}
	EXPECT_LT(0U, resident);
	EXPECT_LT(0U, anon);
	td_dump_free(&d);
}

/* TASK_DIAG_SHOW_VMA_EXEC: exactly the executable lines of maps */
TEST_F(groups, vma_exec_only)
{
	struct proc_maps m = {};
	struct td_dump d;
	size_t i, n = 0;

	ASSERT_EQ(0, proc_read_maps(self->child[MAPPER], false, &m));
	dump_one(_metadata, &d, TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_VMA_EXEC,
		 self->child[MAPPER]);
	for (i = 0; i < m.nr; i++) {
		if (m.v[i].perms[2] != 'x')
			continue;
		ASSERT_LT(n, d.tasks[0].nr_vmas);
		EXPECT_EQ(m.v[i].start, d.tasks[0].vmas[n].rec.start);
		EXPECT_TRUE(d.tasks[0].vmas[n].rec.vm_flags & TASK_DIAG_VMA_F_EXEC);
		n++;
	}
	EXPECT_LT(2U, n);
	EXPECT_EQ(n, d.tasks[0].nr_vmas);
	td_dump_free(&d);
	proc_maps_free(&m);
}

/*
 * TASK_DIAG_SHOW_VMA_LEADERS: the mappings once per process, in the
 * message of its leader, the same as a dump of the leader alone
 */
TEST_F(groups, vma_leaders_only)
{
	static const __u64 show = TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA |
				  TASK_DIAG_SHOW_VMA_EXEC;
	static const __u64 strategies[] = { TASK_DIAG_DUMP_ALL_THREAD,
					    TASK_DIAG_DUMP_THREAD };
	pid_t pid = self->child[THREADED];
	struct td_task *leader;
	struct td_dump one, d;
	size_t s, i, threads;

	dump_one(_metadata, &one, show, pid);
	ASSERT_LT(2U, one.tasks[0].nr_vmas);
	for (s = 0; s < ARRAY_SIZE(strategies); s++) {
		ASSERT_EQ(0, td_dump(&d, show | TASK_DIAG_SHOW_VMA_LEADERS,
				     strategies[s], pid, TD_BUF_SMALL));
		TD_EXPECT_CLEAN(&d);
		leader = NULL;
		threads = 0;
		for (i = 0; i < d.nr_tasks; i++) {
			if (d.tasks[i].tgid != (__u32)pid)
				continue;
			if (d.tasks[i].pid == (__u32)pid) {
				leader = &d.tasks[i];
				continue;
			}
			threads++;
			EXPECT_FALSE(td_has_vma(&d.tasks[i]))
				TH_LOG("thread %u has VMAs", d.tasks[i].pid);
		}
		EXPECT_EQ((size_t)NR_THREADS, threads);
		ASSERT_NE(NULL, leader);
		ASSERT_TRUE(td_has_vma(leader));
		ASSERT_EQ(one.tasks[0].nr_vmas, leader->nr_vmas);
		for (i = 0; i < leader->nr_vmas; i++) {
			EXPECT_EQ(one.tasks[0].vmas[i].rec.start,
				  leader->vmas[i].rec.start);
			EXPECT_STREQ(one.tasks[0].vmas[i].name ?: "",
				     leader->vmas[i].name ?: "");
		}
		td_dump_free(&d);
	}
	td_dump_free(&one);
}

TEST_F(groups, stat_matches_proc_stat)
{
	static const __u64 strategies[] = { TASK_DIAG_DUMP_ONE,
					    TASK_DIAG_DUMP_CHILDREN,
					    TASK_DIAG_DUMP_ALL };
	pid_t pids[] = { self->child[STOPPED], self->child[THREADED], self->child[MAPPER] };
	struct td_diff df = {};
	struct td_task *t;
	struct td_dump d;
	size_t s, i;

	for (s = 0; s < 3; s++) {
		for (i = 0; i < ARRAY_SIZE(pids); i++) {
			ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_STAT,
					     strategies[s],
					     strategies[s] == TASK_DIAG_DUMP_ONE ?
					     pids[i] : getpid(), TD_BUF_SMALL));
			TD_EXPECT_CLEAN(&d);
			t = td_find(&d, pids[i]);
			ASSERT_NE(NULL, t);
			stat_diff(t, pids[i], 0, &df);
			td_dump_free(&d);
		}
	}
	EXPECT_NO_DIFF(&df);
}

TEST_F(groups, stat_per_thread)
{
	static const __u64 strategies[] = { TASK_DIAG_DUMP_THREAD,
					    TASK_DIAG_DUMP_ALL_THREAD };
	struct td_diff df = {};
	struct td_dump d;
	size_t s, i, n;

	for (s = 0; s < 2; s++) {
		ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_STAT, strategies[s],
				     self->child[THREADED], TD_BUF_SMALL));
		TD_EXPECT_CLEAN(&d);
		for (n = 0, i = 0; i < d.nr_tasks; i++) {
			if (d.tasks[i].tgid != (__u32)self->child[THREADED])
				continue;
			stat_diff(&d.tasks[i], self->child[THREADED], d.tasks[i].pid,
				  &df);
			n++;
		}
		EXPECT_EQ((size_t)NR_THREADS + 1, n);
		td_dump_free(&d);
	}
	EXPECT_NO_DIFF(&df);
}

/* The numbers compared are not all zero */
TEST_F(groups, stat_values)
{
	struct td_dump d;

	dump_one(_metadata, &d, TASK_DIAG_SHOW_STAT, self->child[STOPPED]);
	EXPECT_LT(0U, d.tasks[0].stat.cminflt);
	EXPECT_LT(0U, d.tasks[0].stat.minflt);
	EXPECT_EQ(1U, d.tasks[0].stat.threads);
	td_dump_free(&d);

	dump_one(_metadata, &d, TASK_DIAG_SHOW_STAT, self->child[THREADED]);
	EXPECT_EQ(NR_THREADS + 1U, d.tasks[0].stat.threads);
	td_dump_free(&d);
}

TEST_F(groups, statm_matches_proc)
{
	pid_t pids[] = { self->child[MAPPER], self->child[STOPPED], self->child[THREADED] };
	struct td_diff df = {};
	struct td_dump d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pids); i++) {
		dump_one(_metadata, &d, TASK_DIAG_SHOW_STATM, pids[i]);
		statm_diff(&d.tasks[0], pids[i], &df);
		EXPECT_LT(0U, d.tasks[0].statm.anon);
		EXPECT_LT(0U, d.tasks[0].statm.file);
		EXPECT_LT(0U, d.tasks[0].statm.text);
		td_dump_free(&d);
	}
	EXPECT_NO_DIFF(&df);
}

/* Claim a code segment 1 MiB larger than anything mapped executable */
static int grow_code_segment(void *arg)
{
	unsigned long long exe, lib;
	struct proc_stat st;

	if (proc_read_stat(getpid(), 0, &st) || !st.startcode ||
	    proc_status_ull(getpid(), "VmExe", 10, &exe) ||
	    proc_status_ull(getpid(), "VmLib", 10, &lib))
		return -1;
	return prctl(PR_SET_MM, PR_SET_MM_END_CODE,
		     st.startcode + ((exe + lib) << 10) + (1UL << 20), 0, 0);
}

/*
 * A code segment larger than exec_vm (PR_SET_MM here; mprotect or munmap
 * of text do the same): text and lib are VmExe and VmLib of status, never
 * an underflow.
 */
TEST(statm_text_clamped_to_exec_vm)
{
	unsigned long long v[7], exe, lib;
	struct td_dump d;
	pid_t pid;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();	/* PR_SET_MM needs CAP_SYS_RESOURCE */
	pid = spawn_child(grow_code_segment, NULL);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, proc_read_statm(pid, v));
	ASSERT_EQ(0, proc_status_ull(pid, "VmExe", 10, &exe));
	ASSERT_EQ(0, proc_status_ull(pid, "VmLib", 10, &lib));
	/* statm's text is the whole segment, beyond exec_vm */
	EXPECT_LT((exe + lib) / 4, v[3]);

	dump_one(_metadata, &d, TASK_DIAG_SHOW_STATM, pid);
	EXPECT_EQ(exe, d.tasks[0].statm.text * 4);
	EXPECT_EQ(lib, d.tasks[0].statm.lib * 4);
	EXPECT_GE((exe + lib) / 4, d.tasks[0].statm.lib);
	td_dump_free(&d);
	kill_reap(pid);
}

/* Page out SWAP_PAGES anonymous pages from CPU 0, below a per-CPU batch */
#define SWAP_PAGES	16

static int page_out_some(void *arg)
{
	size_t len = SWAP_PAGES * sysconf(_SC_PAGESIZE);
	cpu_set_t cpus;
	char *p;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		return -1;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	memset(p, 1, len);
	return madvise(p, len, MADV_PAGEOUT);
}

/*
 * Swap entries are counted per CPU and folded into the total in batches:
 * STATM's swap is the exact sum, VmSwap of status, not the total so far.
 */
TEST(statm_swap_exact)
{
	unsigned long long swap_kb;
	struct td_dump d;
	pid_t pid;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();	/* swapon */
	ASSERT_EQ(0, system("mkswap /dev/ram0 >/dev/null && swapon /dev/ram0"))
		TH_LOG("swap on /dev/ram0 (CONFIG_BLK_DEV_RAM, CONFIG_SWAP)");
	pid = spawn_child(page_out_some, NULL);
	EXPECT_LT(0, pid);
	if (pid > 0) {
		EXPECT_EQ(0, proc_status_ull(pid, "VmSwap", 10, &swap_kb));
		EXPECT_EQ(SWAP_PAGES * sysconf(_SC_PAGESIZE) / 1024, swap_kb);
		dump_one(_metadata, &d, TASK_DIAG_SHOW_STATM, pid);
		EXPECT_EQ(swap_kb, d.tasks[0].statm.swap * 4);
		td_dump_free(&d);
		kill_reap(pid);
	}
	EXPECT_EQ(0, system("swapoff /dev/ram0"));
}

/* Only the groups asked for are sent (the children all have an mm) */
TEST_F(groups, only_requested_groups)
{
	static const __u64 shows[] = {
		0,
		TASK_DIAG_SHOW_CRED | TASK_DIAG_SHOW_STAT,
		TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_STATM,
		TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_STATM,
		TASK_DIAG_SHOW_STAT,
		TD_SHOW_ALL,
	};
	struct td_task *t;
	struct td_dump d;
	size_t s;
	int i;

	for (s = 0; s < ARRAY_SIZE(shows); s++) {
		ASSERT_EQ(0, td_dump(&d, shows[s], TASK_DIAG_DUMP_CHILDREN,
				     getpid(), TD_BUF_BIG));
		TD_EXPECT_CLEAN(&d);
		EXPECT_EQ((size_t)NR_CHILDREN, d.nr_tasks);
		for (i = 0; i < NR_CHILDREN; i++) {
			if (i == ZOMBIE)
				continue;
			t = td_find(&d, self->child[i]);
			ASSERT_NE(NULL, t);
			EXPECT_EQ(shows[s] & ~TASK_DIAG_SHOW_VMA_STAT,
				  t->groups)
				TH_LOG("show_flags %#llx, pid %u",
				       (unsigned long long)shows[s], t->pid);
		}
		td_dump_free(&d);
	}
}

/* Everything at once: the same values as group by group */
TEST_F(groups, all_groups_together)
{
	struct td_diff df = {};
	struct td_dump d;
	struct td_task *t;

	dump_one(_metadata, &d, TD_SHOW_ALL, self->child[MAPPER]);
	t = &d.tasks[0];
	EXPECT_EQ(TD_SHOW_ALL & ~TASK_DIAG_SHOW_VMA_STAT, t->groups);
	base_diff(t, self->child[MAPPER], 0, &df);
	creds_diff(t, self->child[MAPPER], &df);
	vmas_vs_proc(t, self->child[MAPPER], &df);
	stat_diff(t, self->child[MAPPER], 0, &df);
	statm_diff(t, self->child[MAPPER], &df);
	EXPECT_NO_DIFF(&df);
	td_dump_free(&d);
}

TEST_HARNESS_MAIN
