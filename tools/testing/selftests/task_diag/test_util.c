// SPDX-License-Identifier: GPL-2.0
/*
 * Test-local helpers: /proc parsers, to compare task_diag's answers with,
 * and the children the tests describe.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define THREAD_STACK	(64 * 1024)

/* The whole file, NUL-terminated, or NULL with errno set */
char *read_file(const char *path, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap), *p;
	int fd = open(path, O_RDONLY), err;
	ssize_t r;

	if (fd < 0 || !buf)
		goto fail;
	for (;;) {
		if (cap - n < 4097) {
			p = realloc(buf, cap * 2);
			if (!p)
				goto fail;
			buf = p;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0)
			goto fail;
		if (!r)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	err = errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	errno = err;
	return NULL;
}

/* Write @s to the file @path (a sysctl, a cgroup or id map file): 0 or -1 */
int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
	close(fd);
	return ret;
}

char *proc_task_path(char *buf, size_t len, pid_t pid, pid_t tid,
		     const char *file)
{
	if (tid)
		snprintf(buf, len, "/proc/%d/task/%d/%s", pid, tid, file);
	else
		snprintf(buf, len, "/proc/%d/%s", pid, file);
	return buf;
}

/* /proc/PID/stat, or /proc/PID/task/TID/stat if @tid; 0 or -errno */
int proc_read_stat(pid_t pid, pid_t tid, struct proc_stat *st)
{
	char path[64], *buf, *open, *close;
	size_t n;
	int ret;

	buf = read_file(proc_task_path(path, sizeof(path), pid, tid, "stat"),
			NULL);
	if (!buf)
		return -errno;
	memset(st, 0, sizeof(*st));
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	ret = -EINVAL;
	if (!open || !close || close < open)
		goto out;
	st->pid = atoi(buf);
	n = close - open - 1;
	if (n >= sizeof(st->comm))
		n = sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, n);
	if (sscanf(close + 2,
		   "%c %d %d %d %d %d %u %llu %llu %llu %llu %llu %llu %llu %llu %ld %ld %ld %*d %llu %llu %llu %*u %llu",
		   &st->state, &st->ppid, &st->pgrp, &st->session, &st->tty_nr,
		   &st->tpgid, &st->flags,
		   &st->minflt, &st->cminflt, &st->majflt, &st->cmajflt,
		   &st->utime, &st->stime, &st->cutime, &st->cstime,
		   &st->priority, &st->nice, &st->threads, &st->starttime,
		   &st->vsize, &st->rss, &st->startcode) != 22)
		goto out;
	/* fields 27-38, then processor, rt_priority and policy */
	if (sscanf(close + 2,
		   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*u %*u %*d %*u %*u %*u %*u %*u %*u %*u %*u %*u %*u %*u %*u %*u %*d %d %u %u",
		   &st->processor, &st->rt_priority, &st->policy) == 3)
		ret = 0;
out:
	free(buf);
	return ret;
}

/* The value of "@key:" in /proc/PID[/task/TID]/status; 0 or -errno */
int proc_status_str(pid_t pid, pid_t tid, const char *key, char *val,
		    size_t len)
{
	size_t klen = strlen(key), n;
	char path[64], *buf, *p, *end;
	int ret = -ENOENT;

	buf = read_file(proc_task_path(path, sizeof(path), pid, tid, "status"),
			NULL);
	if (!buf)
		return -errno;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, klen) || p[klen] != ':')
			continue;
		p += klen + 1;
		p += strspn(p, " \t");
		end = strchrnul(p, '\n');
		n = end - p < (long)len - 1 ? (size_t)(end - p) : len - 1;
		memcpy(val, p, n);
		val[n] = '\0';
		ret = 0;
		break;
	}
	free(buf);
	return ret;
}

/* A number in /proc/PID/status ("VmRSS:   12 kB", "CapEff: 0000...") */
int proc_status_ull(pid_t pid, const char *key, int base,
		    unsigned long long *val)
{
	char str[256], *end;
	int ret = proc_status_str(pid, 0, key, str, sizeof(str));

	if (ret)
		return ret;
	errno = 0;
	*val = strtoull(str, &end, base);
	return errno || end == str ? -EINVAL : 0;
}

/* "Uid:" or "Gid:": real, effective, saved and filesystem ids */
int proc_status_ids(pid_t pid, const char *key, unsigned int ids[4])
{
	char str[256];
	int ret = proc_status_str(pid, 0, key, str, sizeof(str));

	if (ret)
		return ret;
	return sscanf(str, "%u %u %u %u", &ids[0], &ids[1], &ids[2],
		      &ids[3]) == 4 ? 0 : -EINVAL;
}

/* size resident shared text lib data dt, in pages */
int proc_read_statm(pid_t pid, unsigned long long v[7])
{
	char path[64], *buf;
	int n;

	buf = read_file(proc_task_path(path, sizeof(path), pid, 0, "statm"),
			NULL);
	if (!buf)
		return -errno;
	n = sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6]);
	free(buf);
	return n == 7 ? 0 : -EINVAL;
}

/* A maps line: "start-end perms pgoff major:minor inode   name" */
static int maps_parse_header(const char *line, struct proc_vma *v)
{
	int pos = 0;

	memset(v, 0, sizeof(*v));
	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu%n", &v->start,
		   &v->end, v->perms, &v->pgoff, &v->major, &v->minor,
		   &v->inode, &pos) != 7)
		return -1;
	line += pos;
	line += strspn(line, " ");
	v->name = strdup(line);
	return v->name ? 0 : -1;
}

/* A smaps counter line ("Rss:   12 kB") or the VmFlags: line */
static void smaps_parse_field(const char *line, struct proc_vma *v)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "Rss", offsetof(struct proc_vma, rss) },
		{ "Pss", offsetof(struct proc_vma, pss) },
		{ "Shared_Clean", offsetof(struct proc_vma, shared_clean) },
		{ "Shared_Dirty", offsetof(struct proc_vma, shared_dirty) },
		{ "Private_Clean", offsetof(struct proc_vma, private_clean) },
		{ "Private_Dirty", offsetof(struct proc_vma, private_dirty) },
		{ "Referenced", offsetof(struct proc_vma, referenced) },
		{ "Anonymous", offsetof(struct proc_vma, anonymous) },
		{ "AnonHugePages", offsetof(struct proc_vma, anon_huge) },
		{ "Swap", offsetof(struct proc_vma, swap) },
	};
	unsigned long long val;
	char key[64];
	size_t i;

	if (!strncmp(line, "VmFlags:", 8)) {
		snprintf(v->vmflags, sizeof(v->vmflags), "%s", line + 8);
		return;
	}
	if (sscanf(line, "%63[^:]: %llu", key, &val) != 2)
		return;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (strcmp(key, keys[i].key))
			continue;
		*(unsigned long long *)((char *)v + keys[i].off) = val;
		v->has_smaps = true;
	}
}

static int maps_add(struct proc_maps *m, const struct proc_vma *v)
{
	struct proc_vma *p;

	if (m->nr == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		p = realloc(m->v, m->cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		m->v = p;
	}
	m->v[m->nr++] = *v;
	return 0;
}

/* /proc/PID/maps, or /proc/PID/smaps with the counters; 0 or -errno */
int proc_read_maps(pid_t pid, bool smaps, struct proc_maps *m)
{
	char path[64], *buf, *line, *next;
	struct proc_vma v;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	buf = read_file(proc_task_path(path, sizeof(path), pid, 0,
				       smaps ? "smaps" : "maps"), NULL);
	if (!buf)
		return -errno;
	for (line = buf; *line && !ret; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		if (!maps_parse_header(line, &v))
			ret = maps_add(m, &v);
		else if (smaps && m->nr)
			smaps_parse_field(line, &m->v[m->nr - 1]);
		else
			ret = -EINVAL;
	}
	free(buf);
	if (ret)
		proc_maps_free(m);
	return ret;
}

void proc_maps_free(struct proc_maps *m)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		free(m->v[i].name);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/* The thread ids in /proc/@pid/task, sorted, in *@tids: count or -errno */
int proc_tids(pid_t pid, pid_t **tids)
{
	size_t n = 0, cap = 16;
	struct dirent *de;
	char path[64];
	pid_t *p;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	*tids = malloc(cap * sizeof(**tids));
	if (!dir || !*tids) {
		if (dir)
			closedir(dir);
		free(*tids);
		return -ESRCH;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (n == cap) {
			p = realloc(*tids, 2 * cap * sizeof(*p));
			if (!p)
				break;
			*tids = p;
			cap *= 2;
		}
		(*tids)[n++] = atoi(de->d_name);
	}
	closedir(dir);
	qsort(*tids, n, sizeof(**tids), pid_cmp);
	return n;
}

/* The TASK_DIAG_* state of a /proc/PID/stat state letter, or -1 */
int state_index(char letter)
{
	static const char letters[] = "RSDTtXZPI";
	const char *p = letter ? strchr(letters, letter) : NULL;

	return p ? p - letters : -1;
}

/* In a child: die when the test process does, even if it already did */
void die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
}

/*
 * Fork a child that runs @fn(@arg) (if any), reports to the parent and then
 * sleeps until it is killed.  Returns its pid once it is ready, or -errno.
 */
pid_t spawn_child(child_fn fn, void *arg)
{
	pid_t parent = getpid(), pid;
	int p[2], ret;
	char c;

	if (pipe(p))
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(p[0]);
		close(p[1]);
		return ret;
	}
	if (!pid) {
		close(p[0]);
		die_with_parent(parent);
		c = fn && fn(arg) ? 'E' : 'R';
		if (write(p[1], &c, 1) != 1 || c != 'R')
			_exit(1);
		close(p[1]);
		for (;;)
			pause();
	}
	close(p[1]);
	ret = read(p[0], &c, 1);
	close(p[0]);
	if (ret != 1 || c != 'R') {
		kill_reap(pid);
		return -ECHILD;
	}
	return pid;
}

/* Fork a child that runs @loop (which never returns) until it is killed */
pid_t spawn_loop(void (*loop)(void))
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		die_with_parent(parent);
		loop();
		_exit(0);
	}
	return pid;
}

static void spawn_many_child(pid_t parent, int p[2], int nthreads)
{
	char c = 'R';

	close(p[0]);
	die_with_parent(parent);
	if (nthreads > 1 && start_threads(nthreads - 1, NULL))
		c = 'E';
	if (write(p[1], &c, 1) != 1)
		_exit(1);
	close(p[1]);
	for (;;)
		pause();
}

/* Wait for @n children to write one 'R' each to @fd */
static int wait_ready(int fd, int n)
{
	char buf[512];
	int got = 0, err = 0;
	ssize_t r, i;

	while (got < n) {
		r = read(fd, buf, n - got < (int)sizeof(buf) ? n - got :
			 (int)sizeof(buf));
		if (r <= 0)
			return err ? err : -EPIPE;
		for (i = 0; i < r; i++)
			if (buf[i] != 'R')
				err = -EAGAIN;
		got += r;
	}
	return err;
}

/*
 * Fork @n sleeping children of @nthreads threads each (the main one
 * included), their pids in @pids (0 where none was made).  Returns once
 * all of them are ready: 0, or -errno (then the caller reaps them).
 */
int spawn_many(pid_t *pids, int n, int nthreads)
{
	pid_t parent = getpid();
	int p[2], i, err = 0;

	memset(pids, 0, n * sizeof(*pids));
	if (pipe(p))
		return -errno;
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			err = -errno;
			pids[i] = 0;
			break;
		}
		if (!pids[i])
			spawn_many_child(parent, p, nthreads);
	}
	close(p[1]);
	if (!err)
		err = wait_ready(p[0], n);
	close(p[0]);
	return err;
}

static int threads_started;

static void *thread_sleep(void *name)
{
	if (name)
		prctl(PR_SET_NAME, name);
	__atomic_add_fetch(&threads_started, 1, __ATOMIC_SEQ_CST);
	for (;;)
		pause();
	return NULL;
}

/*
 * Start @n more threads that sleep forever, named after @name_fmt (with
 * their number) if not NULL, on small stacks; return once all run.
 */
int start_threads(int n, const char *name_fmt)
{
	int target = __atomic_load_n(&threads_started, __ATOMIC_SEQ_CST) + n;
	pthread_attr_t attr;
	pthread_t th;
	char *name;
	int i, err;

	if (pthread_attr_init(&attr) ||
	    pthread_attr_setstacksize(&attr, THREAD_STACK))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		name = NULL;
		if (name_fmt && asprintf(&name, name_fmt, i) < 0)
			return -ENOMEM;
		err = pthread_create(&th, &attr, thread_sleep, name);
		if (err)
			return -err;
	}
	pthread_attr_destroy(&attr);
	while (__atomic_load_n(&threads_started, __ATOMIC_SEQ_CST) < target)
		usleep(1000);
	return 0;
}

/*
 * Map @n pages as @n VMAs that cannot merge (alternately read-write and
 * read-only), the writable ones faulted in: at @addr exactly, or anywhere
 * when @addr is NULL.
 */
int map_many_vmas_at(void *addr, int n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p;
	int i;

	p = mmap(addr, n * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS |
		 (addr ? MAP_FIXED_NOREPLACE : 0), -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	if (addr && p != addr)
		return -EEXIST;		/* kernels before 4.17 took it as a hint */
	for (i = 0; i < n; i += 2)
		p[i * pg] = 1;
	for (i = 1; i < n; i += 2)
		if (mprotect(p + i * pg, pg, PROT_READ))
			return -errno;
	return 0;
}

int map_many_vmas(int n)
{
	return map_many_vmas_at(NULL, n);
}

/* Stop a child (all its threads) with SIGSTOP: 0 once it is stopped */
/* A child that exited, waited for with WNOWAIT: a zombie until reaped */
pid_t spawn_zombie(void)
{
	siginfo_t si;
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	if (pid < 0 || waitid(P_PID, pid, &si, WEXITED | WNOWAIT))
		return -1;
	return pid;
}

int stop_child(pid_t pid)
{
	int status;

	if (kill(pid, SIGSTOP))
		return -errno;
	if (waitpid(pid, &status, WUNTRACED) != pid)
		return -errno;
	return WIFSTOPPED(status) ? 0 : -ECHILD;
}

void kill_reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

void kill_reap_all(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
		pids[i] = 0;
	}
}

double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
