// SPDX-License-Identifier: GPL-2.0
/*
 * taskdiag ps: what procps' ps prints for the forms that list every task,
 *
 *   taskdiag ps [--backend=auto|kernel|procfs] ax|aux|-ef|-eLf|-eo LIST
 *
 * byte for byte, from task_diag: one transaction of every process (-L:
 * one of every thread, and one of every process for the CPU time of the
 * whole process, which ps shows on a leader's line).
 */
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "ps.h"

#define PS_GROUPS	(TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_PSINFO)

struct ps_opts {
	const struct ps_column	*cols[32];
	size_t			nr_cols;
	bool			threads;	/* -L */
	enum taskdiag_backend	backend;
};

/* The tasks read, in the order ps prints them */
struct ps_list {
	struct ps_task	*tasks;
	size_t		nr;
	size_t		cap;
};

/* A process' CPU time, for the line of its leader under -L */
struct ps_cpu {
	__u32			tgid;
	unsigned long long	utime, stime;
};

static const char *const ps_forms[] = {
	"pid,tname,stat,bsdtime,args",				/* ax */
	"user,pid,pcpu,pmem,vsz,rss,tname,stat,start_time,bsdtime,args",
	"uid_hack,pid,ppid,c,stime,tname,time,cmd",		/* -f */
	"uid_hack,pid,ppid,lwp,c,nlwp,stime,tname,time,cmd",	/* -Lf */
};

static int ps_usage(void)
{
	fprintf(stderr,
		"usage: taskdiag ps [--backend=auto|kernel|procfs] ax|aux|-ef|-eLf|-eo LIST\n"
		"  LIST: pid,ppid,lwp,nlwp,user,c,pcpu,pmem,vsz,rss,tname,stat,\n"
		"        stime,start_time,time,bsdtime,comm,args,cmd\n");
	return EXIT_USAGE;
}

static int ps_set_columns(struct ps_opts *o, const char *list)
{
	char *copy = strdup(list), *name, *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	o->nr_cols = 0;
	for (name = strtok_r(copy, ",", &save); name && !ret;
	     name = strtok_r(NULL, ",", &save)) {
		if (o->nr_cols == ARRAY_SIZE(o->cols))
			ret = -E2BIG;
		else if (!(o->cols[o->nr_cols++] = ps_column_find(name)))
			ret = -EINVAL;
		if (ret)
			fprintf(stderr, "taskdiag ps: -o %s: %s\n", name,
				ret == -EINVAL ? "unknown column" :
						 "too many columns");
	}
	free(copy);
	return ret ? ret : o->nr_cols ? 0 : -EINVAL;
}

/* The options ps was given, as the forms use them */
struct ps_flags {
	bool		every;		/* -e, -A */
	bool		full;		/* -f */
	bool		bsd_a, bsd_x, bsd_u;
	const char	*list;		/* -o */
};

/* One argument: UNIX options (-eLf, -eo LIST) or BSD ones (aux) */
static int ps_parse_arg(struct ps_opts *o, struct ps_flags *fl,
			const char *arg, const char *next, bool *used_next)
{
	bool unix_style = arg[0] == '-';
	const char *p;

	for (p = arg + unix_style; *p; p++) {
		if (unix_style && (*p == 'e' || *p == 'A')) {
			fl->every = true;
		} else if (unix_style && *p == 'f') {
			fl->full = true;
		} else if (unix_style && *p == 'L') {
			o->threads = true;
		} else if (unix_style && *p == 'o') {
			fl->list = p[1] ? p + 1 : next;
			*used_next = !p[1];
			return fl->list ? 0 : -EINVAL;
		} else if (!unix_style && *p == 'a') {
			fl->bsd_a = true;
		} else if (!unix_style && *p == 'x') {
			fl->bsd_x = true;
		} else if (!unix_style && *p == 'u') {
			fl->bsd_u = true;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

static int ps_parse(struct ps_opts *o, int argc, char **argv)
{
	struct ps_flags fl = { 0 };
	bool bsd = false, next;
	int i, ret;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--backend=", 10)) {
			if (!strcmp(argv[i] + 10, "kernel"))
				o->backend = TASKDIAG_BACKEND_KERNEL;
			else if (!strcmp(argv[i] + 10, "procfs"))
				o->backend = TASKDIAG_BACKEND_PROCFS;
			else if (strcmp(argv[i] + 10, "auto"))
				return -EINVAL;
			continue;
		}
		next = false;
		bsd |= argv[i][0] != '-';
		ret = ps_parse_arg(o, &fl, argv[i],
				   i + 1 < argc ? argv[i + 1] : NULL, &next);
		if (ret)
			return ret;
		i += next;
	}
	/* only the forms that list every task */
	if (!fl.every && !(fl.bsd_a && fl.bsd_x))
		return -EINVAL;
	if (fl.list)
		return ps_set_columns(o, fl.list);
	if (bsd && !o->threads)
		return ps_set_columns(o, ps_forms[fl.bsd_u]);
	if (fl.full && !bsd)
		return ps_set_columns(o, ps_forms[2 + o->threads]);
	return -EINVAL;
}

/* The command line as ps shows it; [name] when there is none */
static char *ps_args(const char *cmdline, size_t len, const char *cmd,
		     char state)
{
	size_t i, n = len < PS_OUTBUF ? len : PS_OUTBUF - 1;
	char *s;

	if (!n) {
		s = malloc(strlen(cmd) + 16);
		if (s)
			sprintf(s, "[%s]%s", cmd, state == 'Z' ? " <defunct>" : "");
		return s;
	}
	s = malloc(n + 1);
	if (!s)
		return NULL;
	memcpy(s, cmdline, n);
	s[n] = '\0';
	for (i = n; i && !s[i - 1]; i--)
		;
	while (i--)
		if (s[i] == '\n' || !s[i])
			s[i] = ' ';
	if (s[n - 1] == ' ')
		s[n - 1] = '\0';
	return s;
}

/* A task's line from what task_diag said of it */
static int ps_task_fill(struct ps_task *t, const struct taskdiag_task *task,
			const struct ps_sys *sys)
{
	const struct task_diag_psinfo *ps = taskdiag_task__psinfo(task, NULL);
	const struct task_diag_base *b = taskdiag_task__base(task, NULL);
	const struct task_diag_creds *c = taskdiag_task__creds(task, NULL);
	const struct task_diag_stat *st = taskdiag_task__stat(task, NULL);
	const struct task_diag_statm *m = taskdiag_task__statm(task, NULL);
	unsigned long long page_kb = sys->page_kb;
	const char *cmdline;
	size_t len;

	memset(t, 0, sizeof(*t));
	if (!b || !ps)
		return -EPROTO;
	t->tgid = taskdiag_task__tgid(task);
	t->tid = taskdiag_task__pid(task);
	t->ppid = b->ppid;
	t->pgrp = b->pgid;
	t->sid = b->sid;
	t->state = state_letter(b->state);
	t->euid = c ? c->euid : 0;
	t->utime = st ? st->utime : 0;
	t->stime = st ? st->stime : 0;
	t->nlwp = st && st->threads ? st->threads : 1;
	t->vsz = m ? m->total_vm * page_kb : 0;
	t->rss = m ? m->total_rss * page_kb : 0;
	t->locked = m ? m->locked_vm * page_kb : 0;
	t->tty_nr = ps->tty_nr;
	t->tpgid = ps->tpgid;
	t->nice = ps->nice;
	t->start = ps->start_time;

	t->cmd = strndup(ps->name, sizeof(ps->name) - 1);
	if (!t->cmd)
		return -ENOMEM;
	ps_escape_lib(t->cmd, sys->utf8);
	cmdline = taskdiag_task__cmdline(task, &len);
	t->args = ps_args(cmdline, cmdline ? len : 0, t->cmd, t->state);
	if (!t->args)
		return -ENOMEM;
	ps_escape_lib(t->args, sys->utf8);
	if (!t->args[0])
		strcpy(t->args, "?");
	return 0;
}

static struct ps_task *ps_list_add(struct ps_list *l)
{
	size_t cap = l->cap ? 2 * l->cap : 1024;
	struct ps_task *n;

	if (l->nr == l->cap) {
		n = realloc(l->tasks, cap * sizeof(*n));
		if (!n)
			return NULL;
		l->tasks = n;
		l->cap = cap;
	}
	return &l->tasks[l->nr++];
}

static void ps_list_free(struct ps_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->tasks[i].cmd);
		free(l->tasks[i].args);
	}
	free(l->tasks);
}

/* What the columns need, and ps' own groups */
static __u64 ps_groups(const struct ps_opts *o)
{
	__u64 show = PS_GROUPS;
	size_t i;

	for (i = 0; i < o->nr_cols; i++)
		show |= o->cols[i]->groups;
	return show;
}

static int ps_request(struct taskdiag *td, __u64 strategy, __u64 show)
{
	struct taskdiag_request_opts req = {
		.sz		= sizeof(req),
		.strategy	= strategy,
		.show_flags	= show,
	};

	return taskdiag__request(td, &req);
}

/* -L: the CPU time of each process, in tgid order */
static int ps_read_cpu(struct taskdiag *td, struct ps_cpu **cpu, size_t *nr)
{
	const struct task_diag_stat *st;
	struct taskdiag_task *task;
	size_t cap = 0;
	void *n;
	int ret;

	*cpu = NULL;
	*nr = 0;
	ret = ps_request(td, TASK_DIAG_DUMP_ALL, TASK_DIAG_SHOW_STAT);
	while (!ret && (ret = taskdiag__next(td, &task)) > 0) {
		ret = 0;
		st = taskdiag_task__stat(task, NULL);
		if (!st)
			continue;
		if (*nr == cap) {
			cap = cap ? 2 * cap : 1024;
			n = realloc(*cpu, cap * sizeof(**cpu));
			if (!n)
				return -ENOMEM;
			*cpu = n;
		}
		(*cpu)[*nr].tgid = taskdiag_task__tgid(task);
		(*cpu)[*nr].utime = st->utime;
		(*cpu)[(*nr)++].stime = st->stime;
	}
	return ret;
}

static const struct ps_cpu *ps_cpu_find(const struct ps_cpu *cpu, size_t nr,
					__u32 tgid)
{
	size_t lo = 0, hi = nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cpu[mid].tgid == tgid)
			return &cpu[mid];
		if (cpu[mid].tgid < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Every task the form lists, as ps reads them all before printing */
static int ps_read(struct taskdiag *td, const struct ps_opts *o,
		   struct ps_list *l, const struct ps_sys *sys)
{
	struct ps_cpu *cpu = NULL;
	const struct ps_cpu *pc;
	struct taskdiag_task *task;
	struct ps_task *t;
	size_t nr_cpu = 0;
	int ret = 0;

	if (o->threads)
		ret = ps_read_cpu(td, &cpu, &nr_cpu);
	if (!ret)
		ret = ps_request(td, o->threads ? TASK_DIAG_DUMP_ALL_THREAD :
						  TASK_DIAG_DUMP_ALL,
				 ps_groups(o));
	while (!ret && (ret = taskdiag__next(td, &task)) > 0) {
		ret = 0;
		if (taskdiag_task__exited(task))
			continue;	/* gone while described, as from /proc */
		t = ps_list_add(l);
		ret = t ? ps_task_fill(t, task, sys) : -ENOMEM;
		if (t && ret) {
			free(t->cmd);
			l->nr--;
		}
		if (ret)
			break;
		/* the leader's line is the process': its CPU time too */
		pc = t->tid == t->tgid ? ps_cpu_find(cpu, nr_cpu, t->tgid) :
					 NULL;
		if (pc) {
			t->utime = pc->utime;
			t->stime = pc->stime;
		}
	}
	free(cpu);
	return ret;
}

static struct taskdiag *ps_open(enum taskdiag_backend backend)
{
	struct taskdiag_opts opts = {
		.sz		= sizeof(opts),
		.backend	= backend,
	};

	return taskdiag__new(&opts);
}

/*
 * Read with @o's backend; a kernel whose task_diag lacks the groups ps
 * needs (EINVAL) is replaced by /proc when the backend was not chosen.
 */
static int ps_collect(const struct ps_opts *o, struct ps_list *l,
		      const struct ps_sys *sys)
{
	enum taskdiag_backend backend = o->backend;
	struct taskdiag *td;
	char buf[128];
	int ret;

	errno = 0;
	for (;;) {
		td = ps_open(backend);
		if (!td) {
			ret = errno ? -errno : -EIO;
			fprintf(stderr, "taskdiag ps: %s\n",
				taskdiag__errmsg(NULL));
			return ret;
		}
		ret = ps_read(td, o, l, sys);
		if (ret == -EINVAL && backend == TASKDIAG_BACKEND_AUTO &&
		    taskdiag__backend(td) == TASKDIAG_BACKEND_KERNEL) {
			fprintf(stderr, "taskdiag ps: /proc/task-diag has no ps groups, reading /proc\n");
			taskdiag__delete(td);
			ps_list_free(l);
			memset(l, 0, sizeof(*l));
			backend = TASKDIAG_BACKEND_PROCFS;
			continue;
		}
		if (ret < 0)
			fprintf(stderr, "taskdiag ps: %s (%s)\n",
				taskdiag__strerror(ret, buf, sizeof(buf)),
				taskdiag__errmsg(td));
		taskdiag__delete(td);
		return ret < 0 ? ret : 0;
	}
}

/**
 * ps_main() - taskdiag ps
 * @argc: the arguments after "taskdiag"
 * @argv: "ps" and ps' arguments
 *
 * Return: the exit status: 0, 2 for bad arguments, 3 when the tasks
 * cannot be had.
 */
int ps_main(int argc, char **argv)
{
	static char obuf[1 << 20];
	struct ps_list l = { 0 };
	struct ps_opts o;
	struct ps_sys sys;
	size_t i;
	int ret;

	setlocale(LC_ALL, "");
	setenv("TZ", ":/etc/localtime", 0);
	tzset();
	if (ps_parse(&o, argc, argv))
		return ps_usage();
	if (ps_sys_read(&sys)) {
		fprintf(stderr, "taskdiag ps: cannot read /proc: %s\n",
			strerror(errno));
		return EXIT_ERROR;
	}
	ret = ps_collect(&o, &l, &sys);
	if (ret) {
		ps_list_free(&l);
		return EXIT_ERROR;
	}
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	ps_print_row(stdout, o.cols, o.nr_cols, NULL, &sys);
	for (i = 0; i < l.nr; i++)
		ps_print_row(stdout, o.cols, o.nr_cols, &l.tasks[i], &sys);
	ps_list_free(&l);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "taskdiag ps: cannot write the output\n");
		return EXIT_ERROR;
	}
	return EXIT_FOUND;
}
