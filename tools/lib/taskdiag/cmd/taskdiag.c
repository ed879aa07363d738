// SPDX-License-Identifier: GPL-2.0
/*
 * taskdiag: print tasks as /proc/task-diag (or, failing it, /proc) has them.
 *
 *   taskdiag all|All|threads|children|one [-p PID[,PID...]]
 *            [-u USER[,USER...]] [-o FIELD[,FIELD...]] [--base] [--maps]
 *            [--smaps] [--cred] [--stat] [--statm] [--json] [--no-headers]
 *            [--backend=auto|kernel|procfs] [--buf-size N]
 *            [--dump-raw FILE] [--proc DIR] [-v] [-V]
 *   taskdiag ps [--backend=auto|kernel|procfs] ax|aux|-ef|-eLf|-eo LIST
 *
 * Exit status, as pgrep's: 0 when tasks were printed, 1 when none was,
 * 2 for bad arguments, 3 when the tasks cannot be had.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

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

/* Whether -u selects @task: its effective user is one of those listed */
static bool selected(const struct cmd_opts *o, const struct taskdiag_task *task)
{
	const struct task_diag_creds *c;
	size_t i;

	if (!o->nr_uids)
		return true;
	c = taskdiag_task__creds(task, NULL);
	for (i = 0; c && i < o->nr_uids; i++)
		if (c->euid == o->uids[i])
			return true;
	return false;
}

/* The tasks of one request; *@found is set when one is printed */
static int dump(struct taskdiag *td, const struct cmd_opts *o, __u32 pid,
		bool *found)
{
	const char *backend = taskdiag__backend_name(taskdiag__backend(td));
	struct taskdiag_request_opts req = {
		.sz		= sizeof(req),
		.strategy	= o->strategy,
		.show_flags	= o->request_flags,
		.pid		= pid,
	};
	struct taskdiag_task *task;
	int ret;

	ret = taskdiag__request(td, &req);
	while (!ret && (ret = taskdiag__next(td, &task)) > 0) {
		if (!selected(o, task))
			continue;
		if (o->json)
			print_json(stdout, o, backend, task);
		else
			print_text(stdout, o, task);
		*found = true;
		ret = 0;
	}
	if (ret == -ESRCH) {
		fprintf(stderr, "taskdiag: pid %u: no such task\n", pid);
		return 0;
	}
	return ret;
}

/* Every request the options ask for: an exit status */
static int dump_all(struct taskdiag *td, const struct cmd_opts *o)
{
	bool found = false;
	char buf[128];
	size_t i = 0;
	int ret;

	if (!o->json)
		print_text_header(stdout, o,
				  taskdiag__backend_name(taskdiag__backend(td)));
	do {
		ret = dump(td, o, o->nr_pids ? o->pids[i] : 0, &found);
		if (ret < 0) {
			fprintf(stderr, "taskdiag: %s (%s)\n",
				taskdiag__strerror(ret, buf, sizeof(buf)),
				taskdiag__errmsg(td));
			return EXIT_ERROR;
		}
	} while (++i < o->nr_pids);
	return found ? EXIT_FOUND : EXIT_NONE;
}

int main(int argc, char **argv)
{
	struct raw_source *raw;
	struct cmd_opts o;
	struct taskdiag *td;
	int ret;

	if (argc > 1 && !strcmp(argv[1], "ps"))
		return ps_main(argc - 1, argv + 1);
	ret = parse_args(&o, argc, argv);
	if (ret) {
		free_args(&o);
		return ret > 0 ? EXIT_FOUND : EXIT_USAGE;
	}
	if (o.verbose)
		taskdiag__set_log(log_stderr, NULL);

	td = open_session(&o, &raw);
	if (!td) {
		fprintf(stderr, "taskdiag: cannot use the %s backend: %s (%s)\n",
			taskdiag__backend_name(o.backend), strerror(errno),
			taskdiag__errmsg(NULL));
		raw_source__delete(raw);
		free_args(&o);
		return EXIT_ERROR;
	}
	if (o.verbose)
		fprintf(stderr, "taskdiag: backend: %s\n",
			taskdiag__backend_name(taskdiag__backend(td)));

	ret = dump_all(td, &o);
	taskdiag__delete(td);
	raw_source__delete(raw);
	free_args(&o);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "taskdiag: cannot write the output\n");
		ret = EXIT_ERROR;
	}
	return ret;
}
