// SPDX-License-Identifier: GPL-2.0
/*
 * VMA names that do not fit the first name buffer: /proc/PID/maps prints
 * them whole (seq_file grows its buffer), task_diag must give the same
 * name, or, past what a record may carry, none with
 * TASK_DIAG_VMA_F_NAME_TOOLONG, and never a corrupted one.  Names made
 * once in a read() for every process mapping a file: each process gets
 * the name of its own file, and a file renamed or unlinked between two
 * reads its name of then.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "td_test.h"

#define NAME_MAX_RECORD	16384	/* TASK_DIAG_NAME_MAX */

/* A directory entry made of @len times @c */
static void component(char *buf, char c, size_t len)
{
	memset(buf, c, len);
	buf[len] = '\0';
}

/*
 * In @dirfd, @depth nested directories named @len times @c and a file in
 * the last one; an fd of that file, or -1.  Relative calls: the path is
 * longer than PATH_MAX.
 */
static int make_deep_file(int dirfd, int depth, char c, size_t len)
{
	char name[256];
	int fd = dup(dirfd), next, i;

	component(name, c, len);
	for (i = 0; i < depth && fd >= 0; i++) {
		if (mkdirat(fd, name, 0755) && errno != EEXIST)
			next = -1;
		else
			next = openat(fd, name, O_RDONLY | O_DIRECTORY);
		close(fd);
		fd = next;
	}
	if (fd < 0)
		return -1;
	next = openat(fd, "f", O_RDWR | O_CREAT, 0644);
	close(fd);
	if (next >= 0 && ftruncate(next, 4096)) {
		close(next);
		return -1;
	}
	return next;
}

/* In a spawn_child(): map the file of *@arg */
static int map_fd_fn(void *arg)
{
	return mmap(NULL, 4096, PROT_READ, MAP_SHARED, *(int *)arg, 0) ==
	       MAP_FAILED;
}

/* The name /proc/PID/maps gives the mapping in @pid ending in @tail */
static char *maps_name(pid_t pid, const char *tail)
{
	struct proc_maps m;
	char *name = NULL;
	size_t i, tl = strlen(tail), nl;

	if (proc_read_maps(pid, false, &m))
		return NULL;
	for (i = 0; i < m.nr && !name; i++) {
		nl = strlen(m.v[i].name);
		if (nl >= tl && !strcmp(m.v[i].name + nl - tl, tail))
			name = strdup(m.v[i].name);
	}
	proc_maps_free(&m);
	return name;
}

FIXTURE(names) {
	char dir[64];
	int dirfd;
};

FIXTURE_SETUP(names)
{
	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	snprintf(self->dir, sizeof(self->dir), "/tmp/td_names_XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, mount("tmpfs", self->dir, "tmpfs", 0, NULL));
	self->dirfd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_GE(self->dirfd, 0);
}

FIXTURE_TEARDOWN(names)
{
	if (self->dirfd >= 0)
		close(self->dirfd);
	umount2(self->dir, MNT_DETACH);
	rmdir(self->dir);
}

/* The VMA dump of the child @pid into @d: one task, no errors */
static void dump_child(struct __test_metadata *_metadata, pid_t pid,
		       struct td_dump *d)
{
	ASSERT_EQ(0, td_dump(d, TASK_DIAG_SHOW_VMA, TASK_DIAG_DUMP_ONE, pid,
			     TD_BUF_BIG)) {
		kill_reap(pid);
	}
	TD_EXPECT_CLEAN(d);
	ASSERT_EQ(1U, d->nr_tasks) {
		kill_reap(pid);
	}
}

/* Map a file @depth directories of @len times @c deep; dump it, and maps */
static void check_deep(struct __test_metadata *_metadata, int dirfd,
		       int depth, char c, size_t len, bool fits)
{
	const struct td_vma *v = NULL;
	struct td_dump d;
	struct stat st;
	char *want;
	size_t i;
	pid_t pid;
	int fd;

	fd = make_deep_file(dirfd, depth, c, len);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fstat(fd, &st));
	pid = spawn_child(map_fd_fn, &fd);
	close(fd);
	ASSERT_GT(pid, 0);

	want = maps_name(pid, "/f");
	ASSERT_NE(NULL, want) {
		kill_reap(pid);
	}
	dump_child(_metadata, pid, &d);
	for (i = 0; i < d.tasks[0].nr_vmas; i++) {
		if (d.tasks[0].vmas[i].rec.inode == st.st_ino)
			v = &d.tasks[0].vmas[i];
	}
	ASSERT_NE(NULL, v);
	if (fits) {
		ASSERT_NE(NULL, v->name);
		ASSERT_EQ(strlen(want), strlen(v->name));
		EXPECT_EQ(0, strcmp(want, v->name));
		EXPECT_EQ(0U, v->rec.vm_flags & TASK_DIAG_VMA_F_NAME_TOOLONG);
	} else {
		EXPECT_GE(strlen(want), (size_t)NAME_MAX_RECORD);
		EXPECT_EQ(NULL, v->name);
		EXPECT_NE(0U, v->rec.vm_flags & TASK_DIAG_VMA_F_NAME_TOOLONG);
	}
	td_dump_free(&d);
	free(want);
	kill_reap(pid);
}

/* 40 x 250 bytes: longer than the two pages of the first buffer */
TEST_F(names, longer_than_two_pages)
{
	check_deep(_metadata, self->dirfd, 40, 'd', 250, true);
}

/* 9 x 255 newlines: d_path() fits two pages, the escaped name does not */
TEST_F(names, escapes_overflow_the_buffer)
{
	check_deep(_metadata, self->dirfd, 9, '\n', 255, true);
}

/* 80 x 250 bytes: more than a record may carry; no name, flagged */
TEST_F(names, too_long_for_a_record)
{
	check_deep(_metadata, self->dirfd, 80, 'e', 250, false);
}

/* Two files, one in a deep directory, one with newlines in its name */
struct two_files {
	int deep, nl;
};

/*
 * In a spawn_child(): areas of one file, of the other between them, and
 * of the first again, each area a mapping of its own (no two merge)
 */
static int map_alternating_fn(void *arg)
{
	struct two_files *f = arg;
	const int order[] = { 0, 0, 1, 0, 1, 1, 0 };
	char *base;
	size_t i;

	base = mmap(NULL, 16 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (base == MAP_FAILED)
		return 1;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		/* the page offset keeps neighbours of one file apart */
		if (mmap(base + 2 * i * 4096, 4096, PROT_READ,
			 MAP_SHARED | MAP_FIXED, order[i] ? f->nl : f->deep,
			 (i % 2) * 4096) == MAP_FAILED)
			return 1;
	}
	return 0;
}

/*
 * The name of a file is made once for its areas that follow each other:
 * areas of two files, alternating, must each have the name maps gives
 * (one is built where d_path() writes, the other escaped at the start of
 * the buffer)
 */
TEST_F(names, areas_of_two_files_alternating)
{
	struct two_files f;
	struct proc_maps m;
	struct stat sd, sn;
	struct td_dump d;
	size_t i, j, seen = 0;
	pid_t pid;

	f.deep = make_deep_file(self->dirfd, 20, 'd', 250);
	ASSERT_GE(f.deep, 0);
	f.nl = openat(self->dirfd, "new\nline", O_RDWR | O_CREAT, 0644);
	ASSERT_GE(f.nl, 0);
	ASSERT_EQ(0, ftruncate(f.deep, 2 * 4096));
	ASSERT_EQ(0, ftruncate(f.nl, 2 * 4096));
	ASSERT_EQ(0, fstat(f.deep, &sd));
	ASSERT_EQ(0, fstat(f.nl, &sn));
	pid = spawn_child(map_alternating_fn, &f);
	close(f.deep);
	close(f.nl);
	ASSERT_GT(pid, 0);

	ASSERT_EQ(0, proc_read_maps(pid, false, &m)) {
		kill_reap(pid);
	}
	dump_child(_metadata, pid, &d);
	for (i = 0; i < d.tasks[0].nr_vmas; i++) {
		const struct td_vma *v = &d.tasks[0].vmas[i];

		if (v->rec.inode != sd.st_ino && v->rec.inode != sn.st_ino)
			continue;
		for (j = 0; j < m.nr && m.v[j].start != v->rec.start; j++)
			;
		ASSERT_LT(j, m.nr);
		ASSERT_NE(NULL, v->name);
		EXPECT_STREQ(m.v[j].name, v->name);
		seen++;
	}
	EXPECT_EQ(7U, seen);
	td_dump_free(&d);
	proc_maps_free(&m);
	kill_reap(pid);
}

/* The name task_diag gave the area of the file @st in @t, or NULL */
static const char *vma_name_of(const struct td_task *t, const struct stat *st)
{
	size_t i;

	for (i = 0; t && i < t->nr_vmas; i++)
		if (t->vmas[i].rec.inode == st->st_ino)
			return t->vmas[i].name;
	return NULL;
}

/* A file @name in @dirfd of one page, its fd, and its stat in @st */
static int make_page_file(int dirfd, const char *name, struct stat *st)
{
	int fd = openat(dirfd, name, O_RDWR | O_CREAT, 0644);

	if (fd < 0 || ftruncate(fd, 4096) || fstat(fd, st)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

#define NR_MAPPERS	6

/*
 * The name of a file is made once in a read() for all the processes that
 * map it: four processes map one file, two others a file of the same name
 * in another directory, and each gets the name of its own file, as
 * /proc/PID/maps gives it.
 */
TEST_F(names, one_file_many_processes)
{
	struct stat st[2];
	pid_t pids[NR_MAPPERS];
	struct td_dump d;
	int fd[2], i, n;
	char *want;

	ASSERT_EQ(0, mkdirat(self->dirfd, "a", 0755));
	ASSERT_EQ(0, mkdirat(self->dirfd, "b", 0755));
	fd[0] = make_page_file(self->dirfd, "a/lib.so", &st[0]);
	fd[1] = make_page_file(self->dirfd, "b/lib.so", &st[1]);
	ASSERT_GE(fd[0], 0);
	ASSERT_GE(fd[1], 0);
	for (n = 0; n < NR_MAPPERS; n++) {
		pids[n] = spawn_child(map_fd_fn, &fd[n % 3 == 2]);
		if (pids[n] <= 0)
			break;
	}
	close(fd[0]);
	close(fd[1]);
	ASSERT_EQ(NR_MAPPERS, n) {
		kill_reap_all(pids, n);
	}

	ASSERT_EQ(0, td_dump(&d, TASK_DIAG_SHOW_VMA, TASK_DIAG_DUMP_CHILDREN,
			     getpid(), TD_BUF_BIG)) {
		kill_reap_all(pids, n);
	}
	TD_EXPECT_CLEAN(&d);
	EXPECT_EQ(1U, d.nr_reads);		/* all in one read() */
	for (i = 0; i < n; i++) {
		const char *got = vma_name_of(td_find(&d, pids[i]), &st[i % 3 == 2]);

		want = maps_name(pids[i], "/lib.so");
		ASSERT_NE(NULL, want);
		ASSERT_NE(NULL, got);
		EXPECT_STREQ(want, got);
		free(want);
	}
	td_dump_free(&d);
	kill_reap_all(pids, n);
}

/* The lowest address of a test process: its first area */
#define LOW_ADDR	((void *)0x10000000UL)

struct low_map {
	int fd;
	int nr_more;		/* areas mapped above it */
};

/* In a spawn_child(): the file of @arg first of all, then more areas */
static int map_low_fn(void *arg)
{
	struct low_map *m = arg;

	if (mmap(LOW_ADDR, 4096, PROT_READ, MAP_SHARED | MAP_FIXED_NOREPLACE,
		 m->fd, 0) != LOW_ADDR)
		return 1;
	return m->nr_more && map_many_vmas(m->nr_more);
}

/*
 * Names are kept for one read() only: a file renamed or unlinked between
 * two reads of one answer has, in the process described in the second
 * read, the name /proc/PID/maps gives after it, and in the one of the
 * first read the name it gave before.  The first process maps the file
 * first, then more areas than a small read holds: the first read ends
 * within it.
 */
static void check_between_reads(struct __test_metadata *_metadata, int dirfd,
				bool unlink_it)
{
	char *before, *after = NULL;
	const char *got[2];
	pid_t pids[2] = { -1, -1 };
	struct low_map m = { .nr_more = 400 };
	struct td_dump d;
	struct stat st;
	int tdfd;

	m.fd = make_page_file(dirfd, "old", &st);
	ASSERT_GE(m.fd, 0);
	pids[0] = spawn_child(map_low_fn, &m);
	m.nr_more = 0;
	pids[1] = spawn_child(map_low_fn, &m);
	close(m.fd);
	ASSERT_GT(pids[0], 0);
	ASSERT_GT(pids[1], 0) {
		kill_reap(pids[0]);
	}
	before = maps_name(pids[0], "/old");
	ASSERT_NE(NULL, before) {
		kill_reap_all(pids, 2);
	}

	tdfd = td_open();
	ASSERT_GE(tdfd, 0);
	ASSERT_EQ(0, td_request(tdfd, TASK_DIAG_SHOW_VMA, TASK_DIAG_DUMP_CHILDREN,
				getpid(), TD_SEQ));
	td_dump_init(&d, TASK_DIAG_SHOW_VMA, TD_SEQ);
	ASSERT_GT(td_read_once(tdfd, &d, TD_BUF_SMALL), 0);
	/* the first read described the area of the first process only */
	ASSERT_NE(NULL, vma_name_of(td_find(&d, pids[0]), &st));
	ASSERT_EQ(NULL, td_find(&d, pids[1]));

	if (unlink_it) {
		ASSERT_EQ(0, unlinkat(dirfd, "old", 0));
		after = maps_name(pids[1], "/old (deleted)");
	} else {
		ASSERT_EQ(0, renameat(dirfd, "old", dirfd, "new"));
		after = maps_name(pids[1], "/new");
	}
	ASSERT_NE(NULL, after);
	ASSERT_EQ(0, td_read_all(tdfd, &d, TD_BUF_SMALL));
	TD_EXPECT_CLEAN(&d);
	got[0] = vma_name_of(td_find(&d, pids[0]), &st);
	got[1] = vma_name_of(td_find(&d, pids[1]), &st);
	ASSERT_NE(NULL, got[0]);
	ASSERT_NE(NULL, got[1]);
	EXPECT_STREQ(before, got[0]);
	EXPECT_STREQ(after, got[1]);

	close(tdfd);
	td_dump_free(&d);
	free(before);
	free(after);
	kill_reap_all(pids, 2);
}

TEST_F(names, renamed_between_reads)
{
	check_between_reads(_metadata, self->dirfd, false);
}

TEST_F(names, unlinked_between_reads)
{
	check_between_reads(_metadata, self->dirfd, true);
}

TEST_HARNESS_MAIN
