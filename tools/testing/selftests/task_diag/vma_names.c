// SPDX-License-Identifier: GPL-2.0
/*
 * VMA names that do not fit the first name buffer: /proc/PID/maps prints
 * them whole (seq_file grows its buffer), task_diag must give the same
 * name, or, past what a record may carry, none with
 * TASK_DIAG_VMA_F_NAME_TOOLONG, and never a corrupted one.
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

TEST_HARNESS_MAIN
