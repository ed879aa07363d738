// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz /proc/task-diag: several threads open, write, read and close
 * several shared file descriptors in random order, with valid, mutated and
 * random requests (lengths, header fields, flags, strategies, pids), bad
 * buffers and random read sizes, while children fork, map and exit.
 *
 * Every call must succeed or fail with an errno of the interface, and
 * every read must return whole, well-formed netlink messages.  The
 * sequence of each thread is reproducible from the seed; the kernel's own
 * checkers (KASAN, lockdep, kmemleak on a debug kernel, and the console
 * scan of the guest harness) judge the rest.
 *
 * usage: fuzz [-s SEED] [-n ITERATIONS] [-t THREADS] [-f FDS]
 * TD_FUZZ_ITERS in the environment overrides the default of -n.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "task_diag_util.h"
#include "test_util.h"

#define MAX_FDS		16
#define MAX_THREADS	16
#define NR_TARGETS	4
#define BIG_READ	(1 << 20)

struct fuzz_stats {
	unsigned long calls, writes_ok, reads_ok, bytes, msgs, forks;
	unsigned long by_errno[256];
	unsigned long bad;		/* calls that broke the contract */
	char first_bad[256];
};

static struct {
	unsigned long long seed;
	unsigned long iters;
	int nr_threads;
	int nr_fds;
	int fds[MAX_FDS];		/* shared by all threads; -1: closed */
	pid_t targets[NR_TARGETS];	/* children to ask about */
	void *hole;			/* an unmapped page */
} cfg = { .seed = 1, .iters = 20000, .nr_threads = 4, .nr_fds = 6 };

struct fuzzer {
	unsigned long long rng;
	int id;
	char *buf;			/* BIG_READ bytes */
	struct fuzz_stats st;
};

static unsigned long long rnd(struct fuzzer *f)
{
	/* xorshift64* */
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * 2685821657736338717ULL;
}

static unsigned int below(struct fuzzer *f, unsigned int n)
{
	return rnd(f) % n;
}

/* errnos the interface may return to a confused caller */
static bool errno_expected(int err)
{
	switch (err) {
	case EINVAL: case EBUSY: case ESRCH: case EMSGSIZE: case E2BIG:
	case EFAULT: case EBADF:
		return true;
	default:
		return false;
	}
}

static void bad(struct fuzzer *f, const char *fmt, ...)
{
	va_list ap;

	if (!f->st.bad++) {
		va_start(ap, fmt);
		vsnprintf(f->st.first_bad, sizeof(f->st.first_bad), fmt, ap);
		va_end(ap);
	}
}

/* Account a syscall's result; true when it returned a count */
static bool result(struct fuzzer *f, const char *call, ssize_t ret)
{
	int err = errno;

	f->st.calls++;
	if (ret >= 0)
		return true;
	f->st.by_errno[err & 0xff]++;
	if (!errno_expected(err))
		bad(f, "thread %d: %s: unexpected errno %d (%s)", f->id, call,
		    err, strerror(err));
	return false;
}

/* A read() result: whole messages, each well formed */
static void check_messages(struct fuzzer *f, const char *buf, ssize_t n)
{
	const struct nlmsghdr *nlh;
	ssize_t off = 0;

	while (off < n) {
		nlh = (const struct nlmsghdr *)(buf + off);
		if (n - off < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN ||
		    nlh->nlmsg_len > n - off) {
			bad(f, "thread %d: read %zd bytes: bad message at %zd",
			    f->id, n, off);
			return;
		}
		if (nlh->nlmsg_type != TASK_DIAG_CMD_GET &&
		    nlh->nlmsg_type != NLMSG_DONE) {
			bad(f, "thread %d: message type %u", f->id,
			    nlh->nlmsg_type);
			return;
		}
		f->st.msgs++;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
}

static __u32 random_pid(struct fuzzer *f)
{
	switch (below(f, 8)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return getpid();
	case 3: return gettid();
	case 4: return 2;			/* kthreadd */
	case 5: return (__u32)rnd(f);
	default: return cfg.targets[below(f, NR_TARGETS)];
	}
}

static __u64 random_show(struct fuzzer *f)
{
	switch (below(f, 12)) {
	case 0: return rnd(f);
	case 1: return 1ULL << below(f, 64);
	default: return rnd(f) & TD_SHOW_ALL;
	}
}

static __u64 random_strategy(struct fuzzer *f)
{
	return below(f, 8) ? below(f, 6) : rnd(f);
}

/* A request: mostly valid, then maybe mutated */
static size_t random_request(struct fuzzer *f, char *req, size_t size)
{
	size_t len = TD_REQ_LEN, i;

	switch (below(f, 16)) {
	case 0: len = below(f, TD_REQ_LEN + 8); break;
	case 1: len = below(f, 2 * 4096); break;
	case 2: case 3: len = TD_REQ_MIN; break;
	}
	if (len > size)
		len = size;
	td_req_fill(req, len, random_show(f), random_strategy(f),
		    random_pid(f), (__u32)rnd(f));
	if (len >= NLMSG_HDRLEN && !below(f, 16))
		((struct nlmsghdr *)req)->nlmsg_len = below(f, 3) ? (__u32)rnd(f) :
						      len + 1 - below(f, 3);
	if (len >= NLMSG_HDRLEN && !below(f, 16))
		((struct nlmsghdr *)req)->nlmsg_type = (__u16)rnd(f);
	for (i = below(f, 8) ? 0 : below(f, 4) + 1; i && len; i--)
		req[below(f, len)] ^= 1 << below(f, 8);
	return len;
}

/* A buffer for a call: mostly good, sometimes NULL or unmapped */
static void *random_buf(struct fuzzer *f, void *good)
{
	switch (below(f, 32)) {
	case 0: return NULL;
	case 1: return cfg.hole;
	default: return good;
	}
}

static size_t random_read_size(struct fuzzer *f)
{
	static const size_t sizes[] = { 0, 1, 15, NLMSG_HDRLEN, 100, 512,
					4096, 65536, BIG_READ };

	return below(f, 4) ? sizes[below(f, ARRAY_SIZE(sizes))] :
			     below(f, BIG_READ) + 1;
}

static int *random_slot(struct fuzzer *f)
{
	return &cfg.fds[below(f, cfg.nr_fds)];
}

/* Open a file into @slot, closing the one it held */
static int open_slot(struct fuzzer *f, int *slot)
{
	static const int modes[] = { O_RDWR, O_RDWR, O_RDWR, O_RDONLY, O_WRONLY };
	int fd = open(TD_PATH, modes[below(f, ARRAY_SIZE(modes))] | O_CLOEXEC);
	int old;

	if (!result(f, "open", fd))
		return -1;
	old = __atomic_exchange_n(slot, fd, __ATOMIC_SEQ_CST);
	if (old >= 0)
		close(old);
	return fd;
}

static void op_open(struct fuzzer *f)
{
	open_slot(f, random_slot(f));
}

/* The file of a random slot, mostly opened if the slot was empty */
static int random_fd(struct fuzzer *f)
{
	int *slot = random_slot(f);
	int fd = __atomic_load_n(slot, __ATOMIC_SEQ_CST);

	if (fd < 0 && below(f, 8))
		fd = open_slot(f, slot);
	return fd;
}

static void op_close(struct fuzzer *f)
{
	int fd = __atomic_exchange_n(random_slot(f), -1, __ATOMIC_SEQ_CST);

	if (fd >= 0)
		result(f, "close", close(fd));
}

static void op_write(struct fuzzer *f)
{
	char req[2 * 4096];
	size_t len = random_request(f, req, sizeof(req));
	ssize_t n = write(random_fd(f), random_buf(f, req), len);

	if (result(f, "write", n)) {
		f->st.writes_ok++;
		if ((size_t)n != len)
			bad(f, "thread %d: write of %zu returned %zd", f->id,
			    len, n);
	}
}

static void op_read(struct fuzzer *f, int times)
{
	int fd = random_fd(f);
	ssize_t n;

	while (times--) {
		n = read(fd, random_buf(f, f->buf), random_read_size(f));
		if (!result(f, "read", n) || !n)
			return;
		f->st.reads_ok++;
		f->st.bytes += n;
		check_messages(f, f->buf, n);
	}
}

/* A child that uses the shared descriptors for a while, then exits */
static void op_fork(struct fuzzer *f)
{
	pid_t pid = fork();
	int i;

	if (pid < 0)
		return;
	if (!pid) {
		for (i = 0; i < 4; i++) {
			op_write(f);
			op_read(f, 2);
		}
		_exit(f->st.bad ? 1 : 0);
	}
	f->st.forks++;
	if (waitpid(pid, &i, 0) == pid && !(WIFEXITED(i) && !WEXITSTATUS(i)))
		bad(f, "thread %d: forked user of the fds failed (%#x)", f->id, i);
}

static void *fuzz_thread(void *arg)
{
	struct fuzzer *f = arg;
	unsigned long i;

	for (i = 0; i < cfg.iters; i++) {
		switch (below(f, 20)) {
		case 0: op_open(f); break;
		case 1: if (!below(f, 4)) op_close(f); break;
		case 2: op_read(f, 1000); break;	/* drain */
		case 3: op_read(f, 1000); break;	/* drain */
		case 4: if (!below(f, 16)) op_fork(f); break;
		case 5: case 6: case 7: case 8: case 9: case 10:
			op_write(f); break;
		default: op_read(f, 1 + below(f, 3)); break;
		}
	}
	return NULL;
}

/* Targets: a threaded process, one with many mappings, one that churns */
static void churn_loop(void)
{
	for (;;) {
		pid_t pid = fork();

		if (!pid)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		munmap(mmap(NULL, 4096 * (1 + rand() % 16), PROT_READ,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), 4096);
	}
}

static int start_targets(void)
{
	cfg.targets[0] = spawn_child(NULL, NULL);
	cfg.targets[1] = spawn_loop(churn_loop);
	cfg.targets[2] = spawn_loop(churn_loop);
	cfg.targets[3] = getpid();
	cfg.hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (cfg.hole == MAP_FAILED || munmap(cfg.hole, 4096))
		return -1;
	return cfg.targets[0] < 0 || cfg.targets[1] < 0 || cfg.targets[2] < 0;
}

static void merge(struct fuzz_stats *to, const struct fuzz_stats *from)
{
	int i;

	to->calls += from->calls;
	to->writes_ok += from->writes_ok;
	to->reads_ok += from->reads_ok;
	to->bytes += from->bytes;
	to->msgs += from->msgs;
	to->forks += from->forks;
	for (i = 0; i < 256; i++)
		to->by_errno[i] += from->by_errno[i];
	if (from->bad && !to->bad)
		memcpy(to->first_bad, from->first_bad, sizeof(to->first_bad));
	to->bad += from->bad;
}

static void report(const struct fuzz_stats *st, double secs)
{
	static const int errs[] = { EINVAL, E2BIG, EBUSY, ESRCH, EMSGSIZE, EFAULT,
				    EBADF };
	size_t i;

	ksft_print_msg("seed %llu: %d threads x %lu iterations on %d fds in %.1f s\n",
		       cfg.seed, cfg.nr_threads, cfg.iters, cfg.nr_fds, secs);
	ksft_print_msg("%lu calls: %lu writes accepted, %lu reads with data (%lu bytes, %lu messages), %lu forked users\n",
		       st->calls, st->writes_ok, st->reads_ok, st->bytes,
		       st->msgs, st->forks);
	for (i = 0; i < ARRAY_SIZE(errs); i++)
		ksft_print_msg("  %-8s %lu\n", strerrorname_np(errs[i]),
			       st->by_errno[errs[i]]);
}

int main(int argc, char **argv)
{
	struct fuzzer f[MAX_THREADS] = {};
	pthread_t th[MAX_THREADS];
	struct fuzz_stats total = {};
	const char *env = getenv("TD_FUZZ_ITERS");
	double t0;
	int opt, i;

	if (env)
		cfg.iters = strtoul(env, NULL, 0);
	while ((opt = getopt(argc, argv, "s:n:t:f:")) != -1) {
		switch (opt) {
		case 's': cfg.seed = strtoull(optarg, NULL, 0); break;
		case 'n': cfg.iters = strtoul(optarg, NULL, 0); break;
		case 't': cfg.nr_threads = atoi(optarg); break;
		case 'f': cfg.nr_fds = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-s SEED] [-n ITERATIONS] [-t THREADS] [-f FDS]\n",
				argv[0]);
			return KSFT_FAIL;
		}
	}
	if (cfg.nr_threads < 1 || cfg.nr_threads > MAX_THREADS ||
	    cfg.nr_fds < 1 || cfg.nr_fds > MAX_FDS)
		ksft_exit_fail_msg("1..%d threads and 1..%d fds\n", MAX_THREADS, MAX_FDS);

	ksft_print_header();
	ksft_set_plan(1);
	if (!td_available())
		ksft_exit_skip("%s missing (CONFIG_TASK_DIAG=n?)\n", TD_PATH);
	if (start_targets())
		ksft_exit_fail_msg("could not start the target tasks\n");
	for (i = 0; i < MAX_FDS; i++)
		cfg.fds[i] = -1;

	t0 = now_sec();
	for (i = 0; i < cfg.nr_threads; i++) {
		f[i].id = i;
		f[i].rng = cfg.seed * 0x9e3779b97f4a7c15ULL + i + 1;
		f[i].buf = malloc(BIG_READ);
		if (!f[i].buf || pthread_create(&th[i], NULL, fuzz_thread, &f[i]))
			ksft_exit_fail_msg("thread %d: %s\n", i, strerror(errno));
	}
	for (i = 0; i < cfg.nr_threads; i++) {
		pthread_join(th[i], NULL);
		merge(&total, &f[i].st);
		free(f[i].buf);
	}
	for (i = 0; i < MAX_FDS; i++)
		if (cfg.fds[i] >= 0)
			close(cfg.fds[i]);
	kill_reap_all(cfg.targets, NR_TARGETS - 1);

	report(&total, now_sec() - t0);
	if (total.bad)
		ksft_print_msg("%lu broken calls, first: %s\n", total.bad,
			       total.first_bad);
	ksft_test_result(!total.bad && total.writes_ok && total.reads_ok,
			 "fuzz: every call returned data or an interface errno\n");
	ksft_finished();
}
