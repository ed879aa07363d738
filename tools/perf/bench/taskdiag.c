// SPDX-License-Identifier: GPL-2.0
/*
 * perf bench taskdiag: fork processes with threads, then time the synthesis
 * of the events of every task of the system, as at the start of
 * 'perf record -a', from /proc with one and with several threads, the same
 * with the maps from PROCMAP_QUERY, from /proc/task-diag, and from the BPF
 * task and task_vma iterators, side by side; task_diag and the BPF
 * iterators only where they work, saying why not otherwise.
 *
 * A first, untimed run of each method checks that all of them send the same
 * events: the events of each task, in their order, and the same tasks.  The
 * timed runs then take turns: round r starts with method r mod N.  -m runs
 * only the methods it names; one alone has none to be checked against.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#include "../util/synthetic-bpf-iter.h"
#include "../util/synthetic-events.h"
#include "../util/synthetic-procmap-query.h"
#include "../util/synthetic-taskdiag.h"
#include "../util/target.h"
#include "../util/util.h"

static unsigned int nr_procs = 1000;
static unsigned int nr_threads = 5;
static unsigned int iterations = 5;
static unsigned int proc_threads;
static unsigned long buf_size;
static bool data_mmap;
static const char *method_keys;

static const struct option options[] = {
	OPT_UINTEGER('p', "processes", &nr_procs,
		     "Number of processes to fork (0: only the tasks already there)"),
	OPT_UINTEGER('t', "threads", &nr_threads, "Number of threads of each process"),
	OPT_UINTEGER('i', "iterations", &iterations, "Number of runs of each method"),
	OPT_UINTEGER('j', "proc-threads", &proc_threads,
		     "Threads of the multi-threaded /proc synthesis (default: online CPUs)"),
	OPT_ULONG('b', "buf-size", &buf_size, "Read buffer of /proc/task-diag, in bytes"),
	OPT_BOOLEAN('d', "data", &data_mmap, "Synthesize data mmaps too"),
	OPT_STRING('m', "methods", &method_keys, "key,...",
		   "Run only these methods, by their keys in -f simple"),
	OPT_END()
};

static const char *const bench_usage[] = {
	"perf bench taskdiag [<options>]",
	NULL
};

/* The events one task was sent, folded in their order */
struct task_digest {
	pid_t	tid;
	u32	nr_events;
	u64	hash;
	bool	kthread;	/* a child of kthreadd */
};

/* One event as it arrived, during a digest run */
struct event_digest {
	pid_t	tid;
	u32	seq;		/* order of arrival */
	u64	hash;
	bool	kthread;
};

/* One way to synthesize, and what it measured */
struct synth_method {
	const char		*name;
	const char		*key;		/* the name in the simple format */
	unsigned int		nr_threads;	/* of the /proc walk; 0: task_diag */
	bool			query;		/* maps from PROCMAP_QUERY */
	bool			bpf_iter;	/* from the BPF iterators */
	struct stats		time;		/* usec */
	struct stats		events;
	struct task_digest	*tasks;		/* sorted by tid */
	size_t			nr_tasks;
	u64			digest;		/* of all the tasks */
};

static atomic_t event_count;

/* The events of the digest run in progress: the /proc walk's threads add */
static struct {
	pthread_mutex_t		lock;
	struct event_digest	*ev;
	size_t			nr, alloc;
	bool			on, nomem;
} recorded = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* FNV-1a, 64 bits: its offset basis starts a hash, its prime steps it */
#define FNV64_OFFSET	0xcbf29ce484222325ULL
#define FNV64_PRIME	0x100000001b3ULL

static u64 hash_bytes(const void *p, size_t len, u64 h)
{
	const unsigned char *c = p;

	while (len--)
		h = (h ^ *c++) * FNV64_PRIME;
	return h;
}

static pid_t event_tid(const union perf_event *ev, pid_t *pid)
{
	switch (ev->header.type) {
	case PERF_RECORD_FORK:
		*pid = ev->fork.pid;
		return ev->fork.tid;
	case PERF_RECORD_COMM:
		*pid = ev->comm.pid;
		return ev->comm.tid;
	case PERF_RECORD_MMAP2:
		*pid = ev->mmap2.pid;
		return ev->mmap2.tid;
	default:
		*pid = -1;
		return -1;
	}
}

/* Note an event of a digest run; perf bench's own process changes: not it */
static void record_event(const union perf_event *event)
{
	struct event_digest *e;
	pid_t pid, tid = event_tid(event, &pid);

	if (pid == getpid())
		return;
	pthread_mutex_lock(&recorded.lock);
	if (recorded.nr == recorded.alloc) {
		size_t n = recorded.alloc ? 2 * recorded.alloc : 65536;

		e = realloc(recorded.ev, n * sizeof(*e));
		if (!e) {
			recorded.nomem = true;
			goto out;
		}
		recorded.ev = e;
		recorded.alloc = n;
	}
	e = &recorded.ev[recorded.nr];
	e->tid = tid;
	e->seq = recorded.nr++;
	e->kthread = event->header.type == PERF_RECORD_FORK &&
		     (event->fork.ppid == 2 || event->fork.pid == 2);
	e->hash = hash_bytes(event, event->header.size, FNV64_OFFSET);
out:
	pthread_mutex_unlock(&recorded.lock);
}

static int count_event(const struct perf_tool *tool __maybe_unused,
		       union perf_event *event,
		       struct perf_sample *sample __maybe_unused,
		       struct machine *machine __maybe_unused)
{
	atomic_inc(&event_count);
	if (recorded.on)
		record_event(event);
	return 0;
}

static int event_digest_cmp(const void *a, const void *b)
{
	const struct event_digest *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static u64 task_digest__hash(const struct task_digest *t)
{
	u64 h = hash_bytes(&t->tid, sizeof(t->tid), FNV64_OFFSET);

	h = hash_bytes(&t->nr_events, sizeof(t->nr_events), h);
	return hash_bytes(&t->hash, sizeof(t->hash), h);
}

/* Fold the recorded events into @m's tasks, each task's in their order */
static int synth_method__fold(struct synth_method *m)
{
	struct task_digest *t = NULL;
	size_t i;

	if (recorded.nomem)
		return -ENOMEM;
	qsort(recorded.ev, recorded.nr, sizeof(*recorded.ev), event_digest_cmp);
	m->tasks = calloc(recorded.nr ?: 1, sizeof(*m->tasks));
	if (!m->tasks)
		return -ENOMEM;
	m->nr_tasks = 0;
	m->digest = 0;
	for (i = 0; i < recorded.nr; i++) {
		const struct event_digest *e = &recorded.ev[i];

		if (!t || t->tid != e->tid) {
			if (t)
				m->digest += task_digest__hash(t);
			t = &m->tasks[m->nr_tasks++];
			t->tid = e->tid;
			t->hash = FNV64_OFFSET;
		}
		t->hash = hash_bytes(&e->hash, sizeof(e->hash), t->hash);
		t->nr_events++;
		t->kthread |= e->kthread;
	}
	if (t)
		m->digest += task_digest__hash(t);
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

/* One synthesis by @m; timed, or recorded for its digest */
static int synth_once(struct synth_method *m, bool digest)
{
	struct target target = { .cpu_list = "0" };
	bool saved = perf_synthesize_taskdiag, saved_bpf = perf_synthesize_bpf_iter;
	struct perf_session *session;
	struct timeval start, end, diff;
	pid_t resume_tgid = 0;
	int err;

	session = perf_session__new(NULL, NULL);
	if (IS_ERR(session))
		return PTR_ERR(session);

	perf_synthesize_taskdiag = !m->nr_threads && !m->bpf_iter;
	perf_synthesize_bpf_iter = m->bpf_iter;
	perf_synthesize_procmap_query = m->query;
	if (m->nr_threads > 1)
		perf_set_multithreaded();
	atomic_set(&event_count, 0);
	recorded.nr = 0;
	recorded.on = digest;
	gettimeofday(&start, NULL);
	if (m->bpf_iter)
		err = perf_event__synthesize_threads_bpf_iter(NULL, count_event,
							      &session->machines.host,
							      true, data_mmap);
	else if (m->nr_threads)
		err = __machine__synthesize_threads(&session->machines.host, NULL,
						    &target, NULL, count_event,
						    true, data_mmap, m->nr_threads);
	else
		err = perf_event__synthesize_threads_taskdiag(NULL, count_event,
							      &session->machines.host,
							      true, data_mmap, NULL,
							      &resume_tgid);
	gettimeofday(&end, NULL);
	recorded.on = false;
	perf_set_singlethreaded();
	perf_synthesize_procmap_query = false;
	perf_synthesize_taskdiag = saved;
	perf_synthesize_bpf_iter = saved_bpf;
	perf_session__delete(session);
	if (err)
		goto out_err;
	if (digest) {
		err = synth_method__fold(m);
		if (err)
			goto out_err;
		return 0;
	}

	timersub(&end, &start, &diff);
	update_stats(&m->time, diff.tv_sec * USEC_PER_SEC + diff.tv_usec);
	update_stats(&m->events, atomic_read(&event_count));
	if (bench_format == BENCH_FORMAT_SIMPLE)
		printf("time,%s,%lu,%d\n", m->key, diff.tv_sec * USEC_PER_SEC + diff.tv_usec,
		       atomic_read(&event_count));
	return 0;
out_err:
	pr_err("%s: synthesis failed: %s\n", m->name, strerror(-err));
	return err;
}

/* What comparing a method with the reference found */
struct digest_diff {
	size_t	differ;		/* tasks sent other events */
	size_t	kthreads;	/* kernel threads sent other events, or seen by one */
	size_t	alone;		/* other tasks one of the two did not see */
};

static void digest_diff__alone(struct digest_diff *d,
			       const struct task_digest *t)
{
	if (t->kthread)
		d->kthreads++;
	else
		d->alone++;
}

/*
 * Compare the tasks of @m with those of @ref.  A kernel thread's name
 * changes with the work it ran last (kworker/0:1-events, then
 * kworker/0:1-mm_percpu_wq), between any two runs, and kernel workers
 * start and exit on their own: a kernel thread that was sent other events
 * or that one of the two did not see is counted apart, not as a
 * difference.
 */
static void synth_method__compare(const struct synth_method *m,
				  const struct synth_method *ref,
				  struct digest_diff *d)
{
	size_t i = 0, j = 0;

	memset(d, 0, sizeof(*d));
	while (i < m->nr_tasks || j < ref->nr_tasks) {
		const struct task_digest *a = i < m->nr_tasks ? &m->tasks[i] : NULL;
		const struct task_digest *b = j < ref->nr_tasks ? &ref->tasks[j] : NULL;

		if (a && b && a->tid == b->tid) {
			if (a->hash == b->hash && a->nr_events == b->nr_events) {
				/* the same */
			} else if (a->kthread && b->kthread) {
				d->kthreads++;
			} else {
				pr_err("%s: task %d: %u events, %s: %u, not the same\n",
				       m->name, a->tid, a->nr_events, ref->name,
				       b->nr_events);
				d->differ++;
			}
			i++;
			j++;
		} else if (a && (!b || a->tid < b->tid)) {
			pr_debug("%s: task %d only here\n", m->name, a->tid);
			digest_diff__alone(d, a);
			i++;
		} else {
			pr_debug("%s: task %d only in %s\n", m->name, b->tid, ref->name);
			digest_diff__alone(d, b);
			j++;
		}
	}
}

static void digest_diff__print(const struct synth_method *m,
			       const struct synth_method *ref,
			       const struct digest_diff *d)
{
	if (bench_format == BENCH_FORMAT_SIMPLE) {
		printf("digest,%s,%zu,%016llx,%zu,%zu,%zu\n", m->key, m->nr_tasks,
		       (unsigned long long)m->digest, d->differ, d->kthreads, d->alone);
		return;
	}
	printf("  %-22s %zu tasks, events digest %016llx; against %s: %zu tasks differ, %zu kernel threads renamed, started or ended, %zu other tasks seen by one only\n",
	       m->name, m->nr_tasks, (unsigned long long)m->digest, ref->name,
	       d->differ, d->kthreads, d->alone);
}

/*
 * Run each method once for its digest and compare each with the first.
 * Fails if a task that both saw, not a kernel thread, was sent other
 * events, or if more than one task in a thousand, not a kernel thread, was
 * seen by one only.
 */
static int check_same_events(struct synth_method *methods, size_t nr)
{
	struct digest_diff d;
	size_t i;
	int err;

	for (i = 0; i < nr; i++) {
		err = synth_once(&methods[i], true);
		if (err)
			return err;
	}
	for (i = 0; i < nr; i++) {
		synth_method__compare(&methods[i], &methods[0], &d);
		digest_diff__print(&methods[i], &methods[0], &d);
		if (d.differ || d.alone * 1000 > methods[0].nr_tasks) {
			pr_err("%s does not send the events %s sends\n",
			       methods[i].name, methods[0].name);
			return -EILSEQ;
		}
	}
	return 0;
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

/* The timed runs: round r runs the methods from method r mod @nr on */
static int time_methods(struct synth_method *methods, size_t nr)
{
	unsigned int r;
	size_t i;
	int err;

	for (i = 0; i < nr; i++) {
		init_stats(&methods[i].time);
		init_stats(&methods[i].events);
	}
	for (r = 0; r < iterations; r++) {
		for (i = 0; i < nr; i++) {
			err = synth_once(&methods[(r + i) % nr], false);
			if (err)
				return err;
		}
	}
	return 0;
}

/* Say why @name is not measured */
static void not_measured(const char *name, const char *why)
{
	if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("# %s not measured: %s\n", name, why);
	else
		pr_debug("%s not measured: %s\n", name, why);
}

/* The method of @methods whose key is the @len bytes at @key, or NULL */
static struct synth_method *find_method(struct synth_method *methods, size_t nr,
					const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (strlen(methods[i].key) == len && !strncmp(methods[i].key, key, len))
			return &methods[i];
	return NULL;
}

/*
 * Keep, in their order, the methods of @methods that -m names.  Return how
 * many, or -EINVAL for a key that names none of them, or for none at all.
 */
static int select_methods(struct synth_method *methods, size_t nr)
{
	const char *key = method_keys;
	size_t i, len, kept = 0;
	struct synth_method *m;
	unsigned int keep = 0;

	for (; *key; key += len + !!key[len]) {
		len = strcspn(key, ",");
		m = find_method(methods, nr, key, len);
		if (!m) {
			pr_err("no method '%.*s' here: see perf bench taskdiag -f simple\n",
			       (int)len, key);
			return -EINVAL;
		}
		keep |= 1U << (m - methods);
	}
	for (i = 0; i < nr; i++)
		if (keep & (1U << i))
			methods[kept++] = methods[i];
	if (!kept) {
		pr_err("-m names no method\n");
		return -EINVAL;
	}
	return kept;
}

static int run_methods(void)
{
	struct synth_method methods[6] = {
		{ .name = "/proc, 1 thread", .key = "proc-1", .nr_threads = 1 },
	};
	char name[2][48], key[2][32], why[128];
	struct synth_method *ref = NULL;
	size_t i, nr = 1;
	int err;

	if (!access("/proc/task-diag", R_OK | W_OK)) {
		methods[nr++] = (struct synth_method){
			.name = "task_diag", .key = "taskdiag", .nr_threads = 0 };
	} else {
		not_measured("task_diag", "no /proc/task-diag");
	}
	methods[nr++] = (struct synth_method){
		.name = "PROCMAP_QUERY, 1 thread", .key = "query-1", .nr_threads = 1,
		.query = true };
	if (perf_bpf_iter__usable(why, sizeof(why))) {
		methods[nr++] = (struct synth_method){
			.name = "BPF iterators", .key = "bpf-iter", .bpf_iter = true };
	} else {
		not_measured("BPF iterators", why);
	}
	for (i = 0; i < 2 && proc_threads >= 2; i++) {
		snprintf(name[i], sizeof(name[i]), "%s, %u threads",
			 i ? "PROCMAP_QUERY" : "/proc", proc_threads);
		snprintf(key[i], sizeof(key[i]), "%s-%u", i ? "query" : "proc", proc_threads);
		methods[nr++] = (struct synth_method){
			.name = name[i], .key = key[i], .nr_threads = proc_threads,
			.query = i };
	}
	if (method_keys) {
		err = select_methods(methods, nr);
		if (err < 0)
			return err;
		nr = err;
	}
	/* the ratios are against task_diag, else the BPF iterators */
	for (i = 0; i < nr; i++)
		if (!methods[i].nr_threads && (!ref || ref->bpf_iter))
			ref = &methods[i];

	err = nr > 1 ? check_same_events(methods, nr) : 0;
	if (!err)
		err = time_methods(methods, nr);
	for (i = 0; i < nr; i++) {
		if (!err)
			synth_method__print(&methods[i]);
		free(methods[i].tasks);
	}
	free(recorded.ev);
	recorded.ev = NULL;
	recorded.alloc = 0;
	if (err || !ref)
		return err;
	for (i = 0; i < nr; i++)
		if (&methods[i] != ref)
			print_ratio(&methods[i], ref);
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
