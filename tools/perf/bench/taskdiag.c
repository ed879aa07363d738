// SPDX-License-Identifier: GPL-2.0
/*
 * perf bench taskdiag: fork processes with threads, then time the synthesis
 * of the events of every task of the system, as at the start of
 * 'perf record -a', from /proc with one and with several threads and from
 * /proc/task-diag, side by side.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/time64.h>
#include <subcmd/parse-options.h>

#include "bench.h"
#include "../util/debug.h"
#include "../util/session.h"
#include "../util/stat.h"
#include "../util/synthetic-events.h"
#include "../util/synthetic-taskdiag.h"
#include "../util/target.h"
#include "../util/util.h"

static unsigned int nr_procs = 1000;
static unsigned int nr_threads = 5;
static unsigned int iterations = 5;
static unsigned int proc_threads;
static unsigned long buf_size;
static bool data_mmap;

static const struct option options[] = {
	OPT_UINTEGER('p', "processes", &nr_procs,
		     "Number of processes to fork (0: only the tasks already there)"),
	OPT_UINTEGER('t', "threads", &nr_threads, "Number of threads of each process"),
	OPT_UINTEGER('i', "iterations", &iterations, "Number of runs of each method"),
	OPT_UINTEGER('j', "proc-threads", &proc_threads,
		     "Threads of the multi-threaded /proc synthesis (default: online CPUs)"),
	OPT_ULONG('b', "buf-size", &buf_size, "Read buffer of /proc/task-diag, in bytes"),
	OPT_BOOLEAN('d', "data", &data_mmap, "Synthesize data mmaps too"),
	OPT_END()
};

static const char *const bench_usage[] = {
	"perf bench taskdiag [<options>]",
	NULL
};

/* One way to synthesize, and what it measured */
struct synth_method {
	const char	*name;
	const char	*key;		/* the name in the simple format */
	unsigned int	nr_threads;	/* of the /proc walk; 0: task_diag */
	struct stats	time;		/* usec */
	struct stats	events;
};

static atomic_t event_count;

static int count_event(const struct perf_tool *tool __maybe_unused,
		       union perf_event *event __maybe_unused,
		       struct perf_sample *sample __maybe_unused,
		       struct machine *machine __maybe_unused)
{
	atomic_inc(&event_count);
	return 0;
}

static void *sleep_forever(void *arg __maybe_unused)
{
	for (;;)
		pause();
	return NULL;
}

/* A process of the bench: its threads, then a byte on @ready, then sleep */
static void __noreturn child_main(int ready)
{
	pthread_attr_t attr;
	pthread_t tid;
	unsigned int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 1; i < nr_threads; i++)
		if (pthread_create(&tid, &attr, sleep_forever, NULL))
			_exit(1);
	if (write(ready, "", 1) != 1)
		_exit(1);
	sleep_forever(NULL);
	_exit(0);
}

static void kill_children(pid_t *pids, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < nr; i++)
		waitpid(pids[i], NULL, 0);
}

/* Fork the processes and wait until all their threads run */
static int fork_children(pid_t *pids)
{
	unsigned int i, up = 0;
	int p[2];
	char c;

	if (pipe(p))
		return -errno;
	for (i = 0; i < nr_procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			pr_err("fork %u of %u: %s\n", i + 1, nr_procs, strerror(errno));
			break;
		}
		if (!pids[i]) {
			close(p[0]);
			child_main(p[1]);
		}
	}
	close(p[1]);
	while (up < i && read(p[0], &c, 1) == 1)
		up++;
	close(p[0]);
	if (i < nr_procs || up < nr_procs) {
		kill_children(pids, i);
		return -EAGAIN;
	}
	return 0;
}

static int synth_once(struct synth_method *m)
{
	struct target target = { .cpu_list = "0" };
	struct perf_session *session;
	struct timeval start, end, diff;
	pid_t resume_tgid = 0;
	int err;

	session = perf_session__new(NULL, NULL);
	if (IS_ERR(session))
		return PTR_ERR(session);

	atomic_set(&event_count, 0);
	gettimeofday(&start, NULL);
	if (m->nr_threads)
		err = __machine__synthesize_threads(&session->machines.host, NULL,
						    &target, NULL, count_event,
						    true, data_mmap, m->nr_threads);
	else
		err = perf_event__synthesize_threads_taskdiag(NULL, count_event,
							      &session->machines.host,
							      true, data_mmap, NULL,
							      &resume_tgid);
	gettimeofday(&end, NULL);
	perf_session__delete(session);
	if (err)
		return err;

	timersub(&end, &start, &diff);
	update_stats(&m->time, diff.tv_sec * USEC_PER_SEC + diff.tv_usec);
	update_stats(&m->events, atomic_read(&event_count));
	return 0;
}

static int synth_method__run(struct synth_method *m)
{
	bool saved = perf_synthesize_taskdiag;
	unsigned int i;
	int err = 0;

	init_stats(&m->time);
	init_stats(&m->events);
	perf_synthesize_taskdiag = !m->nr_threads;
	if (m->nr_threads > 1)
		perf_set_multithreaded();
	for (i = 0; i < iterations && !err; i++)
		err = synth_once(m);
	perf_set_singlethreaded();
	perf_synthesize_taskdiag = saved;
	if (err)
		pr_err("%s: synthesis failed: %s\n", m->name, strerror(-err));
	return err;
}

static void synth_method__print(struct synth_method *m)
{
	double t = avg_stats(&m->time), ev = avg_stats(&m->events);

	if (bench_format == BENCH_FORMAT_SIMPLE) {
		printf("%s,%.3f,%.3f,%.0f\n", m->key, t, stddev_stats(&m->time), ev);
		return;
	}
	printf("  %-22s %14.3f usec (+- %9.3f usec) %9.0f events %8.3f usec/event\n",
	       m->name, t, stddev_stats(&m->time), ev, ev ? t / ev : 0);
}

static void print_ratio(struct synth_method *slow, struct synth_method *fast)
{
	double f = avg_stats(&fast->time);

	if (bench_format == BENCH_FORMAT_SIMPLE)
		return;
	printf("  %s vs %s: %.2fx faster\n", fast->name, slow->name,
	       f ? avg_stats(&slow->time) / f : 0);
}

static int run_methods(void)
{
	struct synth_method methods[] = {
		{ .name = "/proc, 1 thread", .key = "proc-1", .nr_threads = 1 },
		{ .name = "/proc, N threads", .key = "proc-N", .nr_threads = proc_threads },
		{ .name = "task_diag", .key = "taskdiag", .nr_threads = 0 },
	};
	struct synth_method *td = &methods[2];
	char name[32], key[32];
	unsigned int i;
	int err;

	snprintf(name, sizeof(name), "/proc, %u threads", proc_threads);
	snprintf(key, sizeof(key), "proc-%u", proc_threads);
	methods[1].name = name;
	methods[1].key = key;
	for (i = 0; i < ARRAY_SIZE(methods); i++) {
		if (i == 1 && proc_threads < 2)
			continue;
		err = synth_method__run(&methods[i]);
		if (err)
			return err;
		synth_method__print(&methods[i]);
	}
	print_ratio(&methods[0], td);
	if (proc_threads > 1)
		print_ratio(&methods[1], td);
	return 0;
}

int bench_taskdiag(int argc, const char **argv)
{
	pid_t *pids = NULL;
	int err;

	argc = parse_options(argc, argv, options, bench_usage, 0);
	if (argc || !nr_threads || !iterations) {
		usage_with_options(bench_usage, options);
		exit(EXIT_FAILURE);
	}
	if (!proc_threads)
		proc_threads = sysconf(_SC_NPROCESSORS_ONLN);
	if (buf_size)
		perf_synthesize_taskdiag_buf = buf_size;

	if (nr_procs) {
		pids = calloc(nr_procs, sizeof(*pids));
		if (!pids)
			return -ENOMEM;
		err = fork_children(pids);
		if (err) {
			pr_err("could not start %u processes of %u threads\n",
			       nr_procs, nr_threads);
			free(pids);
			return err;
		}
	}
	if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("# %u processes x %u threads forked, %u iterations each\n",
		       nr_procs, nr_threads, iterations);

	err = run_methods();

	if (nr_procs)
		kill_children(pids, nr_procs);
	free(pids);
	return err;
}
