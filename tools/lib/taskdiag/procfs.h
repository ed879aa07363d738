/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The procfs backend: the records of task_diag built from /proc files.
 */
#ifndef __LIBTASKDIAG_PROCFS_H
#define __LIBTASKDIAG_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct taskdiag;

/* A list of pids read from a directory or a file, and a cursor in it */
struct td_ids {
	__u32		*ids;
	size_t		nr;
	size_t		cap;
	size_t		pos;
};

struct td_procfs {
	int		root_fd;	/* the procfs mount */
	struct td_ids	procs;		/* the tasks, or ALL_THREAD's processes */
	struct td_ids	threads;	/* ALL_THREAD: those of procs[pos - 1] */
	__u32		tgid;		/* ALL_THREAD: the process of @threads */
	char		*file;		/* the last file read, NUL-terminated */
	size_t		file_len;
	size_t		file_cap;
	char		*dents;		/* getdents64() buffer */
	char		*vma_name;	/* the name of the VMA being parsed */
	size_t		vma_name_cap;
	unsigned int	page_shift;
};

/* Where the files of the task being described are */
struct td_ptask {
	char		dir[48];	/* "PID" or "TGID/task/TID" */
	int		fd;		/* that directory, once open, or -1 */
	__u32		pid;
	bool		thread;		/* per-thread numbers */
};

/* Called with each line of a file, NUL-terminated, without its newline */
typedef int (*td_line_fn)(struct taskdiag *td, char *line, void *arg);

/* procfs.c */
int td_procfs_read(struct taskdiag *td, const struct td_ptask *t,
		   const char *name);
int td_procfs_lines(struct taskdiag *td, const struct td_ptask *t,
		    const char *name, td_line_fn fn, void *arg);
void td_procfs_close(struct taskdiag *td);

/* procfs_task.c */
int td_procfs_fill(struct taskdiag *td, const struct td_ptask *t);

/* procfs_maps.c */
int td_procfs_vmas(struct taskdiag *td, const struct td_ptask *t);

#endif /* __LIBTASKDIAG_PROCFS_H */
