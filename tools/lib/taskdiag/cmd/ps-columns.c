// SPDX-License-Identifier: GPL-2.0
/*
 * The columns of ps and how procps lays out a line of them: a value wider
 * than its column is printed whole and pushes the rest of the line right,
 * until a later column's padding takes the excess back.
 */
#include <stdio.h>
#include <string.h>

#include <taskdiag/taskdiag.h>

#include "ps.h"

#define SHOW_BASE	TASK_DIAG_SHOW_BASE
#define SHOW_CRED	TASK_DIAG_SHOW_CRED
#define SHOW_STAT	TASK_DIAG_SHOW_STAT
#define SHOW_STATM	TASK_DIAG_SHOW_STATM
#define SHOW_CMDLINE	TASK_DIAG_SHOW_CMDLINE
#define SHOW_PSINFO	TASK_DIAG_SHOW_PSINFO

static int fmt_u32(char *buf, __u32 v)
{
	return sprintf(buf, "%u", v);
}

static int fmt_pid(char *buf, int maxw, const struct ps_task *t,
		   const struct ps_sys *sys)
{
	return fmt_u32(buf, t->tgid);
}

static int fmt_lwp(char *buf, int maxw, const struct ps_task *t,
		   const struct ps_sys *sys)
{
	return fmt_u32(buf, t->tid);
}

static int fmt_ppid(char *buf, int maxw, const struct ps_task *t,
		    const struct ps_sys *sys)
{
	return fmt_u32(buf, t->ppid);
}

static int fmt_nlwp(char *buf, int maxw, const struct ps_task *t,
		    const struct ps_sys *sys)
{
	return fmt_u32(buf, t->nlwp);
}

/* A user name in @maxw cells: cut to maxw - 1 bytes and '+', or the uid */
static int fmt_user(char *buf, int maxw, const struct ps_task *t,
		    const struct ps_sys *sys)
{
	int cells = ps_escape_cells(buf, ps_user_name(t->euid), PS_OUTBUF,
				    PS_OUTBUF, sys->utf8);

	if (cells <= maxw)
		return cells;
	if (maxw >= 1 && (unsigned char)buf[maxw - 1] < 127) {
		strcpy(buf + maxw - 1, "+");
		return maxw;
	}
	return fmt_u32(buf, t->euid);
}

/* The ticks since the task started, as procps rounds them */
static unsigned long long elapsed_ticks(const struct ps_task *t,
					const struct ps_sys *sys)
{
	unsigned long long d = sys->boot_tics - t->start;
	double secs = d ? (double)d / sys->hertz : 0.0;

	return (unsigned long long)(secs * sys->hertz);
}

/* The share of CPU time of its life, in units of 1/@scale */
static unsigned int cpu_share(const struct ps_task *t,
			      const struct ps_sys *sys, unsigned int scale)
{
	unsigned long long ticks = elapsed_ticks(t, sys);

	if (!ticks)
		return 0;
	return (unsigned int)((t->utime + t->stime) * scale / ticks);
}

static int fmt_c(char *buf, int maxw, const struct ps_task *t,
		 const struct ps_sys *sys)
{
	unsigned int c = cpu_share(t, sys, 100);

	return sprintf(buf, "%2u", c > 99 ? 99 : c);
}

static int fmt_pcpu(char *buf, int maxw, const struct ps_task *t,
		    const struct ps_sys *sys)
{
	unsigned int c = cpu_share(t, sys, 1000);

	if (c > 999)
		return sprintf(buf, "%u", c / 10);
	return sprintf(buf, "%u.%u", c / 10, c % 10);
}

static int fmt_pmem(char *buf, int maxw, const struct ps_task *t,
		    const struct ps_sys *sys)
{
	unsigned long long m = sys->mem_total ? t->rss * 1000 / sys->mem_total
					      : 0;

	if (m > 999)
		m = 999;
	return sprintf(buf, "%2u.%u", (unsigned int)m / 10,
		       (unsigned int)m % 10);
}

static int fmt_vsz(char *buf, int maxw, const struct ps_task *t,
		   const struct ps_sys *sys)
{
	return sprintf(buf, "%llu", t->vsz);
}

static int fmt_rss(char *buf, int maxw, const struct ps_task *t,
		   const struct ps_sys *sys)
{
	return sprintf(buf, "%llu", t->rss);
}

static int fmt_tty(char *buf, int maxw, const struct ps_task *t,
		   const struct ps_sys *sys)
{
	return sprintf(buf, "%s", ps_tty_name(t->tty_nr));
}

/* The state, then: niced, locked pages, session leader, threads, foreground */
static int fmt_stat(char *buf, int maxw, const struct ps_task *t,
		    const struct ps_sys *sys)
{
	int n = 0;

	buf[n++] = t->state;
	if (t->nice < 0)
		buf[n++] = '<';
	if (t->nice > 0)
		buf[n++] = 'N';
	if (t->locked)
		buf[n++] = 'L';
	if (t->sid == t->tgid)
		buf[n++] = 's';
	if (t->nlwp > 1)
		buf[n++] = 'l';
	if ((__s32)t->pgrp == t->tpgid)
		buf[n++] = '+';
	buf[n] = '\0';
	return n;
}

/* The start: the time of day today, the day this year, else the year */
static int fmt_start(char *buf, int maxw, const struct ps_task *t,
		     const struct ps_sys *sys)
{
	time_t start = sys->btime + t->start / sys->hertz;
	struct tm now, then;

	localtime_r(&sys->now, &now);
	localtime_r(&start, &then);
	if (now.tm_year != then.tm_year)
		return strftime(buf, PS_OUTBUF, "%Y", &then);
	if (now.tm_yday != then.tm_yday)
		return strftime(buf, PS_OUTBUF, "%b%d", &then);
	return strftime(buf, PS_OUTBUF, "%H:%M", &then);
}

/* [DD-]HH:MM:SS of CPU time */
static int fmt_time(char *buf, int maxw, const struct ps_task *t,
		    const struct ps_sys *sys)
{
	unsigned long s = (unsigned long)((double)(t->utime + t->stime) /
					  sys->hertz);
	int n = 0;

	if (s / 86400)
		n = sprintf(buf, "%lu-", s / 86400);
	return n + sprintf(buf + n, "%02lu:%02lu:%02lu", s / 3600 % 24,
			   s / 60 % 60, s % 60);
}

/* MMM:SS of CPU time, as BSD's */
static int fmt_bsdtime(char *buf, int maxw, const struct ps_task *t,
		       const struct ps_sys *sys)
{
	unsigned int s = (t->utime + t->stime) / sys->hertz;

	return sprintf(buf, "%3u:%02u", s / 60, s % 60);
}

static int fmt_comm(char *buf, int maxw, const struct ps_task *t,
		    const struct ps_sys *sys)
{
	return ps_escape_cells(buf, t->cmd, PS_OUTBUF, maxw, sys->utf8);
}

static int fmt_args(char *buf, int maxw, const struct ps_task *t,
		    const struct ps_sys *sys)
{
	return ps_escape_cells(buf, t->args, PS_OUTBUF, maxw, sys->utf8);
}

#define BASE_PS		(SHOW_BASE | SHOW_PSINFO)

static const struct ps_column ps_columns[] = {
	{ "pid",	"PID",	   0, PS_RIGHT,	SHOW_BASE,	fmt_pid },
	{ "ppid",	"PPID",	   0, PS_RIGHT,	SHOW_BASE,	fmt_ppid },
	{ "lwp",	"LWP",	   0, PS_RIGHT,	SHOW_BASE,	fmt_lwp },
	{ "nlwp",	"NLWP",	   4, PS_RIGHT,	SHOW_STAT,	fmt_nlwp },
	{ "user",	"USER",	   8, PS_USER,	SHOW_CRED,	fmt_user },
	{ "uid_hack",	"UID",	   8, PS_USER,	SHOW_CRED,	fmt_user },
	{ "c",		"C",	   2, PS_RIGHT,	SHOW_STAT | BASE_PS, fmt_c },
	{ "pcpu",	"%CPU",	   4, PS_RIGHT,	SHOW_STAT | BASE_PS, fmt_pcpu },
	{ "%cpu",	"%CPU",	   4, PS_RIGHT,	SHOW_STAT | BASE_PS, fmt_pcpu },
	{ "pmem",	"%MEM",	   4, PS_RIGHT,	SHOW_STATM,	fmt_pmem },
	{ "%mem",	"%MEM",	   4, PS_RIGHT,	SHOW_STATM,	fmt_pmem },
	{ "vsz",	"VSZ",	   6, PS_RIGHT,	SHOW_STATM,	fmt_vsz },
	{ "rss",	"RSS",	   5, PS_RIGHT,	SHOW_STATM,	fmt_rss },
	{ "tname",	"TTY",	   8, PS_LEFT,	SHOW_PSINFO,	fmt_tty },
	{ "stat",	"STAT",	   4, PS_LEFT,	SHOW_STAT | SHOW_STATM | BASE_PS,
		fmt_stat },
	{ "stime",	"STIME",   5, PS_RIGHT,	SHOW_PSINFO,	fmt_start },
	{ "start_time",	"START",   5, PS_RIGHT,	SHOW_PSINFO,	fmt_start },
	{ "time",	"TIME",	   8, PS_RIGHT,	SHOW_STAT,	fmt_time },
	{ "bsdtime",	"TIME",	   6, PS_RIGHT,	SHOW_STAT,	fmt_bsdtime },
	{ "comm",	"COMMAND", 15, PS_UNLIMITED, BASE_PS,	fmt_comm },
	{ "args",	"COMMAND", 27, PS_UNLIMITED, BASE_PS | SHOW_CMDLINE,
		fmt_args },
	{ "cmd",	"CMD",	  27, PS_UNLIMITED, BASE_PS | SHOW_CMDLINE,
		fmt_args },
	{ NULL },
};

/**
 * ps_column_find() - a column by the name -o gives it
 * @name: the name
 *
 * Return: the column, or NULL.
 */
const struct ps_column *ps_column_find(const char *name)
{
	const struct ps_column *c;

	for (c = ps_columns; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* Pid columns are as wide as kernel.pid_max's digits, or their header */
int ps_column_width(const struct ps_column *c, const struct ps_sys *sys)
{
	int hlen = strlen(c->header);

	if (c->width)
		return c->width;
	return sys->pid_len > hlen ? sys->pid_len : hlen;
}

/* Where a line stands: where the next column should start and does */
struct ps_line {
	int	correct;	/* with its separator */
	int	actual;
	int	dospace;	/* a column was printed: separate the next */
};

/* The cells the last column may take, and the blanks before it */
static int ps_last_width(const struct ps_line *l, int *tmpspace)
{
	*tmpspace = l->correct - l->actual;
	if (*tmpspace < 1) {
		*tmpspace = l->dospace;
		return PS_OUTBUF - l->actual - *tmpspace;
	}
	return PS_OUTBUF - (l->correct > l->actual ? l->correct : l->actual);
}

/**
 * ps_print_row() - print a line: the header if @t is NULL, else a task
 * @f: where
 * @cols: the columns
 * @n: how many
 * @t: the task, or NULL
 * @sys: what the formatters need
 */
void ps_print_row(FILE *f, const struct ps_column *const *cols, size_t n,
		  const struct ps_task *t, const struct ps_sys *sys)
{
	static char buf[PS_OUTBUF];
	struct ps_line l = { 0 };
	int maxw, width, amount, leftpad, space, tmpspace = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		width = ps_column_width(cols[i], sys);
		maxw = i + 1 < n ? width : ps_last_width(&l, &tmpspace);
		if (maxw < 0)
			maxw = 0;
		if (maxw > PS_OUTBUF - 1)
			maxw = PS_OUTBUF - 1;
		if (!t)
			amount = sprintf(buf, "%s", cols[i]->header);
		else
			amount = cols[i]->format(buf, maxw, t, sys);
		leftpad = cols[i]->just == PS_RIGHT && width > amount ?
			  width - amount : 0;
		if (cols[i]->just == PS_UNLIMITED &&
		    PS_OUTBUF - l.actual - tmpspace < 1)
			buf[1] = '\0';
		space = l.correct - l.actual + leftpad;
		if (space < 1)
			space = l.dospace;
		if (space > PS_MAX_SPACE)
			space = PS_MAX_SPACE;
		fprintf(f, "%*s%s", space, "", buf);
		l.actual += space + amount;
		l.correct += width + 1;
		l.dospace = 1;
	}
	fputc('\n', f);
}
