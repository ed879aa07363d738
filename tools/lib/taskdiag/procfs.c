// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The procfs backend, the fallback when /proc/task-diag is missing: the
 * same tasks in the same order as the kernel's dump strategies, from the
 * directories of /proc, /proc/PID/task and /proc/PID/task/TID/children.
 * Tasks that vanish while they are read are skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "procfs.h"

#define TD_DENTS_SIZE	(32 * 1024)

/* A record of getdents64(2), struct linux_dirent64 */
struct td_dirent64 {
	__u64		d_ino;
	__s64		d_off;
	unsigned short	d_reclen;
	unsigned char	d_type;
	char		d_name[];
};

/* glibc wraps getdents64(2) since 2.30; others get it by its number */
static ssize_t td_getdents64(int fd, void *buf, size_t size)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 30)
	return getdents64(fd, buf, size);
#else
	return syscall(SYS_getdents64, fd, buf, size);
#endif
}
#define TD_FILE_CHUNK	4096
/* td_procfs_lines(): blocks of this size, lines up to TD_LINE_MAX bytes */
#define TD_LINES_BLOCK	(64 * 1024)
#define TD_LINE_MAX	(1024 * 1024)

/* The groups the procfs backend gives ... */
#define TD_SHOW_ALL	(TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_CRED | \
			 TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_VMA_STAT | \
			 TASK_DIAG_SHOW_STAT | TASK_DIAG_SHOW_STATM | \
			 TASK_DIAG_SHOW_VMA_EXEC | TASK_DIAG_SHOW_VMA_LEADERS | \
			 TASK_DIAG_SHOW_CMDLINE | TASK_DIAG_SHOW_PSINFO)
/* ... and those it knows, to refuse what it cannot give (build IDs) */
#define TD_SHOW_KNOWN	(TD_SHOW_ALL | TASK_DIAG_SHOW_VMA_BUILD_ID)
#define TD_SHOW_VMA_MODS (TASK_DIAG_SHOW_VMA_STAT | TASK_DIAG_SHOW_VMA_EXEC | \
			  TASK_DIAG_SHOW_VMA_LEADERS | TASK_DIAG_SHOW_VMA_BUILD_ID)

/* A pid: decimal digits, no sign or leading zero, not 0, fits in 32 bits */
static bool td_parse_id(const char *s, size_t len, __u32 *id)
{
	unsigned long long v = 0;
	size_t i;

	if (!len || len > 10 || s[0] == '0')
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v > 0xffffffffULL)
		return false;
	*id = v;
	return true;
}

static int td_ids_add(struct taskdiag *td, struct td_ids *ids, __u32 id)
{
	int err;

	err = td_grow(td, (void **)&ids->ids, &ids->cap, ids->nr + 1,
		      sizeof(*ids->ids));
	if (!err)
		ids->ids[ids->nr++] = id;
	return err;
}

static void td_ids_clear(struct td_ids *ids)
{
	ids->nr = 0;
	ids->pos = 0;
}

static int td_ids_getdents(struct taskdiag *td, int fd, struct td_ids *ids)
{
	struct td_procfs *p = td->procfs;
	struct td_dirent64 *d;
	ssize_t n, off;
	__u32 id;
	int err;

	for (;;) {
		n = td_getdents64(fd, p->dents, TD_DENTS_SIZE);
		if (n <= 0)
			return n < 0 ? -errno : 0;
		for (off = 0; off < n; off += d->d_reclen) {
			d = (struct td_dirent64 *)(p->dents + off);
			if (!td_parse_id(d->d_name, strlen(d->d_name), &id))
				continue;
			err = td_ids_add(td, ids, id);
			if (err)
				return err;
		}
	}
}

static int td_id_cmp(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* Processes in increasing pid order, as /proc lists them anyway */
static void td_ids_sort(struct td_ids *ids)
{
	size_t i;

	for (i = 1; i < ids->nr; i++)
		if (ids->ids[i - 1] > ids->ids[i])
			break;
	if (i < ids->nr)
		qsort(ids->ids, ids->nr, sizeof(*ids->ids), td_id_cmp);
}

/* The numeric entries of @dir, in readdir order */
static int td_ids_list(struct taskdiag *td, const char *dir,
		       struct td_ids *ids)
{
	int fd, err;

	td_ids_clear(ids);
	fd = openat(td->procfs->root_fd, dir,
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = td_ids_getdents(td, fd, ids);
	close(fd);
	return err;
}

/* The pids of a text file like /proc/PID/task/TID/children */
static int td_ids_parse(struct taskdiag *td, const char *s,
			struct td_ids *ids)
{
	size_t len;
	__u32 id;
	int err;

	td_ids_clear(ids);
	for (;;) {
		s += strspn(s, "\n ");
		len = strcspn(s, "\n ");
		if (!len)
			return 0;
		if (!td_parse_id(s, len, &id))
			return td_err(td, -EBADMSG, "bad pid in a children file");
		err = td_ids_add(td, ids, id);
		if (err)
			return err;
		s += len;
	}
}

/* Open @name of @t: in its directory once that is open, by path before */
static int td_procfs_open_file(struct taskdiag *td, const struct td_ptask *t,
			       const char *name)
{
	char path[96];
	int fd;

	if (t->fd >= 0) {
		fd = openat(t->fd, name, O_RDONLY | O_CLOEXEC);
	} else {
		snprintf(path, sizeof(path), "%s/%s", t->dir, name);
		fd = openat(td->procfs->root_fd, path, O_RDONLY | O_CLOEXEC);
	}
	return fd < 0 ? -errno : fd;
}

/* read(), again after EINTR */
static ssize_t td_read_once(int fd, char *buf, size_t len)
{
	ssize_t n;

	do {
		n = read(fd, buf, len);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/* Hand the complete lines of p->file to @fn; keep the rest at its start */
static int td_lines_feed(struct taskdiag *td, td_line_fn fn, void *arg,
			 bool eof)
{
	struct td_procfs *p = td->procfs;
	char *s = p->file, *end = p->file + p->file_len, *eol;
	int err = 0;

	while (!err && s < end) {
		eol = memchr(s, '\n', end - s);
		if (!eol && !eof)
			break;
		if (!eol)
			eol = end;
		*eol = '\0';
		err = fn(td, s, arg);
		s = eol + 1;
	}
	if (s > end)
		s = end;
	p->file_len = end - s;
	memmove(p->file, s, p->file_len);
	return err;
}

/**
 * td_procfs_lines() - read a file of a task line by line
 * @td: the session
 * @t: the task
 * @name: the file, relative to the task's directory
 * @fn: called for each line
 * @arg: passed to @fn
 *
 * The file is read in blocks: what it holds at once is a block and the
 * longest line, not the file (smaps of a process with many mappings).
 *
 * Return: 0, the first error of @fn, or -errno (-ENOENT, -ESRCH: the task
 * is gone; -EBADMSG: a line longer than TD_LINE_MAX).
 */
int td_procfs_lines(struct taskdiag *td, const struct td_ptask *t,
		    const char *name, td_line_fn fn, void *arg)
{
	struct td_procfs *p = td->procfs;
	ssize_t n;
	int fd, err;

	fd = td_procfs_open_file(td, t, name);
	if (fd < 0)
		return fd;
	p->file_len = 0;
	do {
		err = td_grow(td, (void **)&p->file, &p->file_cap,
			      p->file_len + TD_LINES_BLOCK + 1, 1);
		if (err)
			break;
		n = td_read_once(fd, p->file + p->file_len, TD_LINES_BLOCK);
		if (n < 0) {
			err = n;
			break;
		}
		p->file_len += n;
		err = td_lines_feed(td, fn, arg, !n);
		if (!err && p->file_len >= TD_LINE_MAX)
			err = td_err(td, -EBADMSG, "%s/%s: a line too long",
				     t->dir, name);
	} while (!err && n > 0);
	close(fd);
	return err;
}

/**
 * td_procfs_read() - read a file of a task into td->procfs->file
 * @td: the session
 * @t: the task
 * @name: the file, relative to the task's directory
 *
 * Return: 0, or -errno (-ENOENT, -ESRCH: the task is gone).
 */
int td_procfs_read(struct taskdiag *td, const struct td_ptask *t,
		   const char *name)
{
	struct td_procfs *p = td->procfs;
	ssize_t n;
	int fd, err = 0;

	fd = td_procfs_open_file(td, t, name);
	if (fd < 0)
		return fd;

	p->file_len = 0;
	for (;;) {
		err = td_grow(td, (void **)&p->file, &p->file_cap,
			      p->file_len + TD_FILE_CHUNK, 1);
		if (err)
			break;
		n = td_read_once(fd, p->file + p->file_len,
				 p->file_cap - p->file_len - 1);
		if (n <= 0) {
			err = n;
			break;
		}
		p->file_len += n;
	}
	close(fd);
	if (p->file)
		p->file[p->file_len] = '\0';
	return err;
}

static bool td_strategy_per_process(__u64 strategy)
{
	return strategy != TASK_DIAG_DUMP_ALL &&
	       strategy != TASK_DIAG_DUMP_ALL_THREAD;
}

/* What the kernel checks in write(), with the same errors */
static int td_procfs_check(struct taskdiag *td)
{
	char dir[16];

	if (td->strategy > TASK_DIAG_DUMP_THREAD)
		return td_err(td, -EINVAL, "unknown dump strategy %llu",
			      (unsigned long long)td->strategy);
	if (td->show_flags & ~TD_SHOW_KNOWN)
		return td_err(td, -EINVAL, "unknown show flags %#llx",
			      (unsigned long long)(td->show_flags & ~TD_SHOW_KNOWN));
	if ((td->show_flags & TD_SHOW_VMA_MODS) &&
	    !(td->show_flags & TASK_DIAG_SHOW_VMA))
		return td_err(td, -EINVAL,
			      "TASK_DIAG_SHOW_VMA_STAT, _EXEC, _LEADERS and _BUILD_ID need TASK_DIAG_SHOW_VMA");
	if (td->show_flags & TASK_DIAG_SHOW_VMA_BUILD_ID)
		return td_err(td, -EOPNOTSUPP,
			      "the procfs backend has no build IDs");
	if (!td_strategy_per_process(td->strategy))
		return 0;

	snprintf(dir, sizeof(dir), "%u", td->pid);
	if (!td->pid || faccessat(td->procfs->root_fd, dir, F_OK, 0))
		return td_err(td, -ESRCH, "pid %u: no such task", td->pid);
	return 0;
}

/* Make the list of tasks (ALL_THREAD: of processes) the request selects */
static int td_procfs_request(struct taskdiag *td)
{
	struct td_procfs *p = td->procfs;
	struct td_ptask t;
	char dir[32];
	int err;

	err = td_procfs_check(td);
	if (err)
		return err;
	td_ids_clear(&p->procs);
	td_ids_clear(&p->threads);

	switch (td->strategy) {
	case TASK_DIAG_DUMP_ONE:
		return td_ids_add(td, &p->procs, td->pid);
	case TASK_DIAG_DUMP_ALL:
	case TASK_DIAG_DUMP_ALL_THREAD:
		err = td_ids_list(td, ".", &p->procs);
		td_ids_sort(&p->procs);
		break;
	case TASK_DIAG_DUMP_THREAD:
		snprintf(dir, sizeof(dir), "%u/task", td->pid);
		err = td_ids_list(td, dir, &p->procs);
		break;
	case TASK_DIAG_DUMP_CHILDREN:
		t.fd = -1;
		snprintf(t.dir, sizeof(t.dir), "%u/task/%u", td->pid, td->pid);
		err = td_procfs_read(td, &t, "children");
		if (!err)
			err = td_ids_parse(td, p->file, &p->procs);
		else if (err == -ENOENT && !faccessat(p->root_fd, t.dir, F_OK, 0))
			return td_err(td, -EOPNOTSUPP,
				      "no %s/children: CONFIG_PROC_CHILDREN=n",
				      t.dir);
		break;
	default:
		return td_err(td, -EINVAL, "unknown strategy %llu",
			      (unsigned long long)td->strategy);
	}
	if (err == -ENOENT || err == -ESRCH)
		return td_err(td, -ESRCH, "pid %u: no such task", td->pid);
	if (err)
		return td_err(td, err, "listing the tasks: %s",
			      td_strerror(-err));
	return 0;
}

static void td_ptask_set(struct td_ptask *t, __u32 tgid, __u32 pid,
			 bool thread)
{
	t->pid = pid;
	t->thread = thread;
	t->fd = -1;
	if (thread)
		snprintf(t->dir, sizeof(t->dir), "%u/task/%u", tgid, pid);
	else
		snprintf(t->dir, sizeof(t->dir), "%u", pid);
}

/* ALL_THREAD: the next thread, listing the threads of the next process */
static int td_procfs_next_thread(struct taskdiag *td, struct td_ptask *t)
{
	struct td_procfs *p = td->procfs;
	char dir[32];
	int err;

	while (p->threads.pos == p->threads.nr) {
		if (p->procs.pos == p->procs.nr)
			return 0;
		p->tgid = p->procs.ids[p->procs.pos++];
		snprintf(dir, sizeof(dir), "%u/task", p->tgid);
		err = td_ids_list(td, dir, &p->threads);
		if (err == -ENOENT || err == -ESRCH)
			td_ids_clear(&p->threads);	/* it has exited */
		else if (err)
			return td_err(td, err, "listing %s: %s", dir,
				      td_strerror(-err));
	}
	td_ptask_set(t, p->tgid, p->threads.ids[p->threads.pos++], true);
	return 1;
}

static int td_procfs_next_task(struct taskdiag *td, struct td_ptask *t)
{
	struct td_procfs *p = td->procfs;
	__u32 id;

	if (td->strategy == TASK_DIAG_DUMP_ALL_THREAD)
		return td_procfs_next_thread(td, t);
	if (p->procs.pos == p->procs.nr)
		return 0;

	id = p->procs.ids[p->procs.pos++];
	td_ptask_set(t, td->pid, id, td->strategy == TASK_DIAG_DUMP_THREAD);
	return 1;
}

/*
 * A task that is gone, that we may not see, or whose files cannot be
 * parsed is skipped
 */
static bool td_procfs_vanished(int err)
{
	return err == -ENOENT || err == -ESRCH || err == -EACCES ||
	       err == -EPERM || err == -EBADMSG;
}

static int td_procfs_next(struct taskdiag *td)
{
	struct td_ptask t;
	int ret;

	for (;;) {
		ret = td_procfs_next_task(td, &t);
		if (ret <= 0)
			return ret ? td_fail(td, ret) : 0;
		ret = td_procfs_fill(td, &t);
		if (!ret) {
			td_task_finish(&td->task);
			return 1;
		}
		if (!td_procfs_vanished(ret))
			return td_fail(td, ret);
		td_log(TASKDIAG_LOG_DEBUG, "%s: skipped: %s", t.dir,
		       td_strerror(-ret));
	}
}

const struct td_backend_ops td_procfs_ops = {
	.backend	= TASKDIAG_BACKEND_PROCFS,
	.request	= td_procfs_request,
	.next		= td_procfs_next,
};

/**
 * td_procfs_open() - make @td use the procfs backend
 * @td: the session
 *
 * Return: 0 or -errno.
 */
int td_procfs_open(struct taskdiag *td)
{
	struct td_procfs *p;
	long page = sysconf(_SC_PAGESIZE);

	p = td_realloc(td, NULL, sizeof(*p));
	if (!p)
		return td_err(td, -ENOMEM, "out of memory");
	memset(p, 0, sizeof(*p));
	p->root_fd = -1;
	td->procfs = p;
	for (p->page_shift = 12; page > 0 && (1L << p->page_shift) < page;)
		p->page_shift++;

	p->dents = td_realloc(td, NULL, TD_DENTS_SIZE);
	if (!p->dents)
		return td_err(td, -ENOMEM, "out of memory");
	p->root_fd = open(td->proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (p->root_fd < 0)
		return td_err(td, -errno, "%s: %s", td->proc_root,
			      td_strerror(errno));
	td->ops = &td_procfs_ops;
	return 0;
}

void td_procfs_close(struct taskdiag *td)
{
	struct td_procfs *p = td->procfs;

	if (!p)
		return;
	if (p->root_fd >= 0)
		close(p->root_fd);
	free(p->procs.ids);
	free(p->threads.ids);
	free(p->file);
	free(p->dents);
	free(p->vma_name);
	free(p);
	td->procfs = NULL;
}
