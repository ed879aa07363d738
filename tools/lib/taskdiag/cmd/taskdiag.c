// SPDX-License-Identifier: GPL-2.0
/*
 * taskdiag: print tasks as /proc/task-diag (or, failing it, /proc) has them.
 *
 *   taskdiag all|All|threads|children|one [--pid N] [--base] [--maps]
 *            [--smaps] [--cred] [--stat] [--statm] [--json]
 *            [--backend=auto|kernel|procfs] [--buf-size N]
 *            [--dump-raw FILE] [--proc DIR] [-v]
 *
 * Exit status: 0, 1 when the tasks cannot be had, 2 for bad arguments.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define EXIT_USAGE	2

enum {
	OPT_MAPS = 256, OPT_SMAPS, OPT_CRED, OPT_STAT, OPT_STATM, OPT_BACKEND,
	OPT_JSON, OPT_BUF_SIZE, OPT_DUMP_RAW, OPT_PROC, OPT_BASE,
};

static const struct option long_opts[] = {
	{ "pid",	required_argument,	NULL, 'p' },
	{ "base",	no_argument,		NULL, OPT_BASE },
	{ "maps",	no_argument,		NULL, OPT_MAPS },
	{ "smaps",	no_argument,		NULL, OPT_SMAPS },
	{ "cred",	no_argument,		NULL, OPT_CRED },
	{ "stat",	no_argument,		NULL, OPT_STAT },
	{ "statm",	no_argument,		NULL, OPT_STATM },
	{ "backend",	required_argument,	NULL, OPT_BACKEND },
	{ "json",	no_argument,		NULL, OPT_JSON },
	{ "buf-size",	required_argument,	NULL, OPT_BUF_SIZE },
	{ "dump-raw",	required_argument,	NULL, OPT_DUMP_RAW },
	{ "proc",	required_argument,	NULL, OPT_PROC },
	{ "verbose",	no_argument,		NULL, 'v' },
	{ "help",	no_argument,		NULL, 'h' },
	{ }
};

static const struct {
	const char	*name;
	__u64		strategy;
} strategies[] = {
	{ "all",	TASK_DIAG_DUMP_ALL },
	{ "All",	TASK_DIAG_DUMP_ALL_THREAD },
	{ "threads",	TASK_DIAG_DUMP_THREAD },
	{ "children",	TASK_DIAG_DUMP_CHILDREN },
	{ "one",	TASK_DIAG_DUMP_ONE },
};

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: taskdiag all|All|threads|children|one [--pid N] [options]\n"
		"  all       every process        All       every thread\n"
		"  threads   threads of --pid     children  children of --pid\n"
		"  one       the task --pid\n"
		"options:\n"
		"  --base            state and tracer pid too\n"
		"  --maps            memory mappings, as /proc/PID/maps\n"
		"  --smaps           and their flags and smaps counters\n"
		"  --cred            credentials     --stat    faults, times\n"
		"  --statm           memory usage    --json    JSON lines\n"
		"  --backend=B       auto (default), kernel or procfs\n"
		"  --buf-size N      read buffer, in bytes (K and M suffixes)\n"
		"  --dump-raw FILE   save what /proc/task-diag sent to FILE\n"
		"  --proc DIR        where procfs is mounted (/proc)\n"
		"  -v, --verbose     say which backend served, log to stderr\n");
}

static int __attribute__((format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "taskdiag: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	print_usage(stderr);
	return -1;
}

/* A number: decimal digits, with a K or M suffix when @suffix */
static int parse_num(const char *s, unsigned long long max, bool suffix,
		     unsigned long long *val)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (suffix && (*end == 'K' || *end == 'k') && !end[1]) {
		v <<= 10;
		end++;
	} else if (suffix && (*end == 'M' || *end == 'm') && !end[1]) {
		v <<= 20;
		end++;
	}
	if (*end || v > max)
		return -1;
	*val = v;
	return 0;
}

static int parse_backend(const char *s, enum taskdiag_backend *backend)
{
	if (!strcmp(s, "auto"))
		*backend = TASKDIAG_BACKEND_AUTO;
	else if (!strcmp(s, "kernel"))
		*backend = TASKDIAG_BACKEND_KERNEL;
	else if (!strcmp(s, "procfs"))
		*backend = TASKDIAG_BACKEND_PROCFS;
	else
		return -1;
	return 0;
}

static int parse_option(struct cmd_opts *o, int c, const char *arg)
{
	unsigned long long v;

	switch (c) {
	case 'p':
		if (parse_num(arg, 0xffffffffULL, false, &v) || !v)
			return usage_error("bad pid: %s", arg);
		o->pid = v;
		o->has_pid = true;
		break;
	case OPT_BASE:
		o->base = true;
		break;
	case OPT_MAPS:
		o->show_flags |= TASK_DIAG_SHOW_VMA;
		break;
	case OPT_SMAPS:
		o->show_flags |= TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_VMA_STAT;
		break;
	case OPT_CRED:
		o->show_flags |= TASK_DIAG_SHOW_CRED;
		break;
	case OPT_STAT:
		o->show_flags |= TASK_DIAG_SHOW_STAT;
		break;
	case OPT_STATM:
		o->show_flags |= TASK_DIAG_SHOW_STATM;
		break;
	case OPT_BACKEND:
		if (parse_backend(arg, &o->backend))
			return usage_error("bad backend: %s", arg);
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_BUF_SIZE:
		if (parse_num(arg, 1ULL << 30, true, &v) || !v)
			return usage_error("bad buffer size: %s", arg);
		o->buf_size = v;
		break;
	case OPT_DUMP_RAW:
		o->dump_raw = arg;
		break;
	case OPT_PROC:
		o->proc_root = arg;
		break;
	case 'v':
		o->verbose = true;
		break;
	case 'h':
		print_usage(stdout);
		exit(0);
	default:
		print_usage(stderr);
		return -1;
	}
	return 0;
}

static int parse_strategy(struct cmd_opts *o, const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(strategies); i++) {
		if (!strcmp(s, strategies[i].name)) {
			o->strategy = strategies[i].strategy;
			return 0;
		}
	}
	return usage_error("unknown strategy: %s", s);
}

static int parse_args(struct cmd_opts *o, int argc, char **argv)
{
	bool per_process;
	int c;

	memset(o, 0, sizeof(*o));
	o->show_flags = TASK_DIAG_SHOW_BASE;
	while ((c = getopt_long(argc, argv, "p:vh", long_opts, NULL)) != -1)
		if (parse_option(o, c, optarg))
			return -1;
	if (optind != argc - 1)
		return usage_error("%s", optind < argc ? "one strategy expected" :
						       "no strategy given");
	if (parse_strategy(o, argv[optind]))
		return -1;

	per_process = o->strategy != TASK_DIAG_DUMP_ALL &&
		      o->strategy != TASK_DIAG_DUMP_ALL_THREAD;
	if (per_process && !o->has_pid)
		return usage_error("'%s' needs --pid", argv[optind]);
	if (!per_process && o->has_pid)
		return usage_error("'%s' takes no --pid", argv[optind]);
	if (o->dump_raw && o->backend == TASKDIAG_BACKEND_PROCFS)
		return usage_error("%s", "--dump-raw needs the kernel backend");
	return 0;
}

static void log_stderr(int level, const char *msg, void *arg)
{
	static const char * const names[] = { "error", "warn", "info", "debug" };

	fprintf(stderr, "taskdiag: %s: %s\n",
		level >= 0 && level < 4 ? names[level] : "log", msg);
}

static struct taskdiag *open_session(const struct cmd_opts *o,
				     struct raw_source **raw)
{
	struct taskdiag_opts opts = {
		.sz		= sizeof(opts),
		.backend	= o->backend,
		.buf_size	= o->buf_size,
		.proc_root	= o->proc_root,
	};

	*raw = NULL;
	if (o->dump_raw) {
		*raw = raw_source__new(o->proc_root, o->dump_raw);
		if (!*raw) {
			fprintf(stderr, "taskdiag: --dump-raw %s: %s\n",
				o->dump_raw, strerror(errno));
			return NULL;
		}
		opts.source = raw_source__source(*raw);
		opts.backend = TASKDIAG_BACKEND_KERNEL;
	}
	return taskdiag__new(&opts);
}

static int dump(struct taskdiag *td, const struct cmd_opts *o)
{
	struct taskdiag_task *task;
	char buf[128];
	int ret;

	ret = taskdiag__request(td, o->strategy, o->pid, o->show_flags);
	if (ret == -ESRCH) {
		fprintf(stderr, "taskdiag: pid %u: no such task\n", o->pid);
		return 1;
	}
	if (ret)
		goto out;
	while ((ret = taskdiag__next(td, &task)) > 0) {
		if (o->json)
			print_json(stdout, o, task);
		else
			print_text(stdout, o, task);
	}
out:
	if (ret < 0) {
		fprintf(stderr, "taskdiag: %s (%s)\n",
			taskdiag__strerror(ret, buf, sizeof(buf)),
			taskdiag__errmsg(td));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct raw_source *raw;
	struct cmd_opts o;
	struct taskdiag *td;
	int ret;

	if (parse_args(&o, argc, argv))
		return EXIT_USAGE;
	if (o.verbose)
		taskdiag__set_log(log_stderr, NULL);

	td = open_session(&o, &raw);
	if (!td) {
		fprintf(stderr, "taskdiag: cannot use the %s backend: %s\n",
			taskdiag__backend_name(o.backend), strerror(errno));
		raw_source__delete(raw);
		return 1;
	}
	if (o.verbose)
		fprintf(stderr, "taskdiag: backend: %s\n",
			taskdiag__backend_name(taskdiag__backend(td)));

	ret = dump(td, &o);
	taskdiag__delete(td);
	raw_source__delete(raw);
	if (fflush(stdout) || ferror(stdout))
		ret = 1;
	return ret;
}
