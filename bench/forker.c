// SPDX-License-Identifier: GPL-2.0
/*
 * forker: start N processes of T threads each that sleep until killed,
 * each with a realistic spread of mappings (the shared libraries it links,
 * a heap, anonymous and file mappings), then report readiness.
 *
 * usage: forker [-n PROCS] [-t THREADS] [-r READY_FILE]
 *
 * Exits once every process is up and prints the pid of the first.  Each
 * process leads a process group of its own: the exit of thousands of
 * processes of one group costs O(n^2) in will_become_orphaned_pgrp().
 * "pkill -KILL -x forker" ends them all.
 */
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

static void child(int threads, int ready_fd)
{
	pthread_attr_t attr;
	pthread_t tid;
	int i;
	int null = open("/dev/null", O_RDWR);

	/* not the caller's stdout: "$(forker ...)" must see EOF */
	if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
		_exit(5);
	close(null);
	if (map_some())
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
	int procs = 1000, threads = 5, opt, p[2], i;
	const char *ready = NULL;
	pid_t first = 0;
	char c;

	while ((opt = getopt(argc, argv, "n:t:r:")) != -1) {
		switch (opt) {
		case 'n': procs = atoi(optarg); break;
		case 't': threads = atoi(optarg); break;
		case 'r': ready = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-n PROCS] [-t THREADS] [-r READY_FILE]\n", argv[0]);
			return 2;
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
			child(threads, p[1]);
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
