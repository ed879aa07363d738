// SPDX-License-Identifier: GPL-2.0
/*
 * taskdiag's command line.
 */
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#ifndef TASKDIAG_VERSION
#define TASKDIAG_VERSION "unknown"
#endif

enum {
	OPT_MAPS = 256, OPT_SMAPS, OPT_CRED, OPT_STAT, OPT_STATM, OPT_BACKEND,
	OPT_JSON, OPT_BUF_SIZE, OPT_DUMP_RAW, OPT_PROC, OPT_BASE,
	OPT_NO_HEADERS,
};

static const struct option long_opts[] = {
	{ "pid",	required_argument,	NULL, 'p' },
	{ "user",	required_argument,	NULL, 'u' },
	{ "output",	required_argument,	NULL, 'o' },
	{ "base",	no_argument,		NULL, OPT_BASE },
	{ "maps",	no_argument,		NULL, OPT_MAPS },
	{ "smaps",	no_argument,		NULL, OPT_SMAPS },
	{ "cred",	no_argument,		NULL, OPT_CRED },
	{ "stat",	no_argument,		NULL, OPT_STAT },
	{ "statm",	no_argument,		NULL, OPT_STATM },
	{ "backend",	required_argument,	NULL, OPT_BACKEND },
	{ "json",	no_argument,		NULL, OPT_JSON },
	{ "no-headers",	no_argument,		NULL, OPT_NO_HEADERS },
	{ "buf-size",	required_argument,	NULL, OPT_BUF_SIZE },
	{ "dump-raw",	required_argument,	NULL, OPT_DUMP_RAW },
	{ "proc",	required_argument,	NULL, OPT_PROC },
	{ "verbose",	no_argument,		NULL, 'v' },
	{ "version",	no_argument,		NULL, 'V' },
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

static void print_fields(FILE *f)
{
	const struct cmd_field *fld;
	int col = 4;

	fprintf(f, "   ");
	for (fld = cmd_fields; fld->name; fld++) {
		if (fld->group == TASK_DIAG_VMA_STAT)
			continue;
		if (col + strlen(fld->name) > 76) {
			fprintf(f, "\n   ");
			col = 4;
		}
		col += fprintf(f, " %s", fld->name);
	}
	fprintf(f, "\n");
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: taskdiag all|All|threads|children|one [options]\n"
		"       taskdiag ps [--backend=B] ax|aux|-ef|-eLf|-eo LIST\n"
		"         (what procps' ps prints, byte for byte)\n"
		"  all       every process          All       every thread\n"
		"  threads   the threads of --pid   children  the children of --pid\n"
		"  one       the task --pid\n"
		"selection:\n"
		"  -p, --pid PID[,PID...]    the task(s) of threads, children, one\n"
		"  -u, --user USER[,USER...] only tasks of these effective users\n"
		"                            (names or numbers)\n"
		"groups (the base line: pid tgid ppid sid pgid comm):\n"
		"  --base    state and tracer pid too\n"
		"  --cred    user and group ids (real, effective, saved, fs) and\n"
		"            capability sets (hex)\n"
		"  --stat    faults (counts), utime stime cutime cstime (clock ticks,\n"
		"            USER_HZ), threads\n"
		"  --statm   memory usage in pages; ptes in bytes\n"
		"  --maps    memory mappings, as /proc/PID/maps\n"
		"  --smaps   and each one's flags and smaps counters, in bytes\n"
		"output:\n"
		"  -o, --output FIELD[,FIELD...]  one line per task, ps-like, with\n"
		"            these fields, in the units above:\n");
	print_fields(f);
	fprintf(f,
		"  --json            JSON lines; 64-bit values are strings\n"
		"  --no-headers      no backend line, no -o header\n"
		"  comms are printed as ps prints them: control bytes become '?'\n"
		"other options:\n"
		"  --backend=B       auto (default), kernel or procfs\n"
		"  --buf-size N      read buffer, in bytes (K and M suffixes)\n"
		"  --dump-raw FILE   save what /proc/task-diag sent to FILE\n"
		"  --proc DIR        where procfs is mounted (/proc)\n"
		"  -v, --verbose     log to stderr\n"
		"  -V, --version     print the version\n"
		"exit status: 0 tasks printed, 1 none, 2 usage error, 3 error\n");
}

static int __attribute__((format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "taskdiag: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(taskdiag --help tells how to use it)\n");
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
		if (v > max >> 10)
			return -1;
		v <<= 10;
		end++;
	} else if (suffix && (*end == 'M' || *end == 'm') && !end[1]) {
		if (v > max >> 20)
			return -1;
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

/* Room for one more of *@nr items of @size bytes at @arr, or NULL */
static void *grow(void *arr, size_t nr, size_t size)
{
	void *n = realloc(arr, (nr + 1) * size);

	if (!n)
		usage_error("%s", strerror(ENOMEM));
	return n;
}

static int add_pid(struct cmd_opts *o, const char *s)
{
	unsigned long long v;
	__u32 *pids;

	if (parse_num(s, 0xffffffffULL, false, &v) || !v)
		return usage_error("bad pid: %s", s);
	pids = grow(o->pids, o->nr_pids, sizeof(*pids));
	if (!pids)
		return -1;
	pids[o->nr_pids++] = v;
	o->pids = pids;
	return 0;
}

static int add_user(struct cmd_opts *o, const char *s)
{
	unsigned long long v;
	struct passwd *pw;
	uid_t uid, *uids;

	pw = getpwnam(s);
	if (pw)
		uid = pw->pw_uid;
	else if (!parse_num(s, 0xfffffffeULL, false, &v))
		uid = v;
	else
		return usage_error("unknown user: %s", s);
	uids = grow(o->uids, o->nr_uids, sizeof(*uids));
	if (!uids)
		return -1;
	uids[o->nr_uids++] = uid;
	o->uids = uids;
	return 0;
}

static int add_column(struct cmd_opts *o, const char *s)
{
	const struct cmd_field *f = field_find(s), **columns;

	if (!f)
		return usage_error("unknown field: %s", s);
	columns = grow(o->columns, o->nr_columns, sizeof(*columns));
	if (!columns)
		return -1;
	columns[o->nr_columns++] = f;
	o->columns = columns;
	o->request_flags |= 1ULL << f->group;
	return 0;
}

/* Call @add for each item of the comma-separated list @list */
static int parse_list(struct cmd_opts *o, const char *list,
		      int (*add)(struct cmd_opts *o, const char *s))
{
	const char *p = list, *comma;
	char item[256];
	size_t len;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (!len || len >= sizeof(item))
			return usage_error("bad list: %s", list);
		memcpy(item, p, len);
		item[len] = '\0';
		if (add(o, item))
			return -1;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* The options that change the groups or the output */
static int parse_output_option(struct cmd_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'o':
		return parse_list(o, arg, add_column);
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
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_NO_HEADERS:
		o->no_headers = true;
		break;
	default:
		return 1;
	}
	return 0;
}

static int parse_option(struct cmd_opts *o, int c, const char *arg)
{
	unsigned long long v;
	int ret = parse_output_option(o, c, arg);

	if (ret <= 0)
		return ret;
	switch (c) {
	case 'p':
		return parse_list(o, arg, add_pid);
	case 'u':
		o->request_flags |= TASK_DIAG_SHOW_CRED;
		return parse_list(o, arg, add_user);
	case OPT_BACKEND:
		if (parse_backend(arg, &o->backend))
			return usage_error("bad backend: %s", arg);
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
	default:
		return usage_error("%s", "bad option");
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

/* What the options say together */
static int check_args(struct cmd_opts *o, const char *strategy)
{
	bool per_process = o->strategy != TASK_DIAG_DUMP_ALL &&
			   o->strategy != TASK_DIAG_DUMP_ALL_THREAD;

	if (per_process && !o->nr_pids)
		return usage_error("'%s' needs --pid", strategy);
	if (!per_process && o->nr_pids)
		return usage_error("'%s' takes no --pid", strategy);
	if (o->dump_raw && o->backend == TASKDIAG_BACKEND_PROCFS)
		return usage_error("%s", "--dump-raw needs the kernel backend");
	if (o->nr_columns && (o->show_flags & ~TASK_DIAG_SHOW_BASE || o->base))
		return usage_error("%s", "-o lists the fields: no group options");
	o->request_flags |= o->show_flags;
	return 0;
}

/**
 * parse_args() - read taskdiag's command line
 * @o: the options, to be freed with free_args()
 * @argc: the number of arguments
 * @argv: the arguments
 *
 * Return: 0, 1 when --help or --version was answered, -1 for a usage
 * error (said on stderr).
 */
int parse_args(struct cmd_opts *o, int argc, char **argv)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->show_flags = TASK_DIAG_SHOW_BASE;
	while ((c = getopt_long(argc, argv, "p:u:o:vVh", long_opts, NULL)) != -1) {
		if (c == 'h') {
			print_usage(stdout);
			return 1;
		}
		if (c == 'V') {
			printf("taskdiag %s\n", TASKDIAG_VERSION);
			return 1;
		}
		if (c == '?')
			return usage_error("%s", "bad option");
		if (parse_option(o, c, optarg))
			return -1;
	}
	if (optind != argc - 1)
		return usage_error("%s", optind < argc ? "one strategy expected" :
						       "no strategy given");
	if (parse_strategy(o, argv[optind]))
		return -1;
	return check_args(o, argv[optind]);
}

void free_args(struct cmd_opts *o)
{
	free(o->pids);
	free(o->uids);
	free(o->columns);
}
