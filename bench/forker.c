// SPDX-License-Identifier: GPL-2.0
/*
 * forker: start N processes of T threads each that sleep until killed,
 * each with a realistic spread of mappings (the shared libraries it links,
 * a heap, anonymous and file mappings), then report readiness.
 *
 * usage: forker [-n PROCS] [-t THREADS] [-r READY_FILE] [-l LIB...] [-b BIG]
 *
 * The realistic shape: -l names shared objects that every process maps
 * (dlopen()ed before the forks: distinct objects, each with its text, its
 * read-only and its writable data); -b makes the first BIG processes map
 * BIG_VMAS more areas each, alternately a page of the first object's file,
 * executable, and an anonymous writable page, that cannot merge.
 *
 * Exits once every process is up and prints the pid of the first.  Each
 * process leads a process group of its own: the exit of thousands of
 * processes of one group costs O(n^2) in will_become_orphaned_pgrp().
 * "pkill -KILL -x forker" ends them all.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREAD_STACK	(64 * 1024)
#define BIG_VMAS	4000
#define MAX_LIBS	256

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* A few mappings of each kind a real process has */
static int map_some(void)
{
	static const char *files[] = { "/etc/passwd", "/bin/sh" };
	volatile double x = 2.0;
	char *heap, *anon;
	size_t i;

	heap = malloc(256 * 1024);		/* above the mmap threshold? no: brk */
	if (!heap)
		return -1;
	memset(heap, 1, 4096);
	anon = mmap(NULL, 64 * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED)
		return -1;
	anon[0] = (char)sqrt(x);		/* keeps libm mapped */
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int fd = open(files[i], O_RDONLY);

		if (fd < 0)
			continue;
		if (mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED)
			return -1;
		close(fd);
	}
	return 0;
}

/* BIG_VMAS areas that stay apart: an executable page of @path, then an
 * anonymous one, and so on */
static int map_many(const char *path)
{
	int i, fd = open(path, O_RDONLY);
	char *p;

	if (fd < 0)
		return -1;
	for (i = 0; i < BIG_VMAS; i++) {
		if (i % 2)
			p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		else
			p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			return -1;
		if (i % 2)
			p[0] = 1;
	}
	close(fd);
	return 0;
}

static void child(int threads, int ready_fd, const char *big)
{
	pthread_attr_t attr;
	pthread_t tid;
	int i;
	int null = open("/dev/null", O_RDWR);

	/* not the caller's stdout: "$(forker ...)" must see EOF */
	if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
		_exit(5);
	close(null);
	if (map_some() || (big && map_many(big)))
		_exit(2);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	for (i = 1; i < threads; i++) {
		if (pthread_create(&tid, &attr, sleeper, NULL)) {
			fprintf(stderr, "forker: pthread_create: %s\n", strerror(errno));
			_exit(3);
		}
	}
	if (write(ready_fd, "r", 1) != 1)
		_exit(4);
	close(ready_fd);
	sleeper(NULL);
}

int main(int argc, char **argv)
{
	int procs = 1000, threads = 5, opt, p[2], i, nr_libs = 0, big = 0;
	const char *ready = NULL, *libs[MAX_LIBS];
	pid_t first = 0;
	char c;

	while ((opt = getopt(argc, argv, "n:t:r:l:b:")) != -1) {
		switch (opt) {
		case 'n': procs = atoi(optarg); break;
		case 't': threads = atoi(optarg); break;
		case 'r': ready = optarg; break;
		case 'b': big = atoi(optarg); break;
		case 'l':
			if (nr_libs == MAX_LIBS)
				return 2;
			libs[nr_libs++] = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-n PROCS] [-t THREADS] [-r READY_FILE] [-l LIB...] [-b BIG]\n",
				argv[0]);
			return 2;
		}
	}
	if (big && !nr_libs) {
		fprintf(stderr, "forker: -b maps pages of the first -l object\n");
		return 2;
	}
	for (i = 0; i < nr_libs; i++) {
		if (!dlopen(libs[i], RTLD_NOW | RTLD_LOCAL)) {
			fprintf(stderr, "forker: %s\n", dlerror());
			return 1;
		}
	}
	if (procs < 1 || threads < 1) {
		fprintf(stderr, "forker: need at least one process and thread\n");
		return 2;
	}
	if (pipe(p))
		return 1;
	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "forker: fork %d of %d: %s (raise pid_max/threads-max or memory)\n",
				i + 1, procs, strerror(errno));
			return 1;
		}
		if (pid == 0) {
			close(p[0]);
			setpgid(0, 0);
			child(threads, p[1], i < big ? libs[0] : NULL);
		}
		if (!first)
			first = pid;
	}
	close(p[1]);
	for (i = 0; i < procs; i++) {
		if (read(p[0], &c, 1) != 1) {
			fprintf(stderr, "forker: only %d of %d processes came up\n", i, procs);
			return 1;
		}
	}
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (f) {
			fprintf(f, "%d\n", first);
			fclose(f);
		}
	}
	printf("%d\n", first);
	return 0;
}
