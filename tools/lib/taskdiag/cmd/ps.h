/* SPDX-License-Identifier: GPL-2.0 */
/*
 * taskdiag ps: procps' ps for the forms that list every task (ps ax, aux,
 * -ef, -eLf, -eo LIST), its output byte for byte, from one task_diag
 * transaction (two for -L) instead of four /proc files per task.
 */
#ifndef __TASKDIAG_PS_H
#define __TASKDIAG_PS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include <linux/types.h>

/* The longest line, as procps': what its output buffer holds */
#define PS_OUTBUF	(2 * 64 * 1024)
/* The most blanks procps puts before a column */
#define PS_MAX_SPACE	144

/* A task as ps shows it, collected before anything is printed */
struct ps_task {
	__u32		tgid;
	__u32		tid;
	__u32		ppid;
	__u32		pgrp;
	__u32		sid;
	__s32		tpgid;
	__u32		tty_nr;
	__u32		euid;
	__u32		nlwp;
	int		nice;
	char		state;
	unsigned long long utime;	/* clock ticks */
	unsigned long long stime;
	unsigned long long start;	/* clock ticks after boot */
	unsigned long long vsz;		/* kB */
	unsigned long long rss;
	unsigned long long locked;
	char		*cmd;		/* the name, escaped as procps does */
	char		*args;		/* the command line, ditto */
};

/* What ps reads once: the system, the clock, the settings */
struct ps_sys {
	int		pid_len;	/* characters of kernel.pid_max */
	long		hertz;
	unsigned long long page_kb;	/* the size of a page */
	time_t		now;
	unsigned long long boot_tics;	/* uptime in ticks, before the walk */
	unsigned long long btime;	/* boot time, seconds since the epoch */
	unsigned long long mem_total;	/* kB */
	bool		utf8;		/* the locale's */
};

/* How a column is aligned; the last one takes the rest of the line */
enum ps_just { PS_RIGHT, PS_LEFT, PS_USER, PS_UNLIMITED };

/*
 * A column: its formatter writes the value of @t into @buf (PS_OUTBUF
 * bytes), at most @maxw cells wide when it can cut it, and returns the
 * cells it takes.
 */
struct ps_column {
	const char	*name;		/* as -o names it */
	const char	*header;
	int		width;		/* 0: the width of a pid */
	enum ps_just	just;
	__u64		groups;		/* TASK_DIAG_SHOW_* it needs */
	int		(*format)(char *buf, int maxw, const struct ps_task *t,
				  const struct ps_sys *sys);
};

/* ps-columns.c */
const struct ps_column *ps_column_find(const char *name);
int ps_column_width(const struct ps_column *c, const struct ps_sys *sys);
void ps_print_row(FILE *f, const struct ps_column *const *cols, size_t n,
		  const struct ps_task *t, const struct ps_sys *sys);

/* ps-escape.c */
void ps_escape_lib(char *s, bool utf8);
int ps_escape_cells(char *dst, const char *src, int bufsize, int maxcells,
		    bool utf8);

/* ps-sys.c */
int ps_sys_read(struct ps_sys *sys);
const char *ps_tty_name(__u32 tty_nr);
const char *ps_user_name(__u32 uid);

#endif /* __TASKDIAG_PS_H */
