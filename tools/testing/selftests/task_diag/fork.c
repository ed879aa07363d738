// SPDX-License-Identifier: GPL-2.0
/*
 * fork N [T]: fork N processes of T threads each (1 by default, the main
 * one included) that sleep until killed; once all of them are running,
 * print their pids, one a line, and exit (they are then reparented).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREAD_STACK	(64 * 1024)

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static void child(int ready, int nthreads)
{
	pthread_attr_t attr;
	pthread_t th;
	char c = 'R';
	int i, fd;

	/* do not hold the output of the parent, a $(...) would wait for it */
	fd = open("/dev/null", O_RDWR);
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(1);
	close(fd);

	if (pthread_attr_init(&attr) ||
	    pthread_attr_setstacksize(&attr, THREAD_STACK))
		c = 'E';
	for (i = 1; i < nthreads && c == 'R'; i++)
		if (pthread_create(&th, &attr, sleeper, NULL))
			c = 'E';
	if (write(ready, &c, 1) != 1)
		_exit(1);
	close(ready);
	sleeper(NULL);
}

int main(int argc, char **argv)
{
	int i, n, nthreads = 1, p[2], err = 0;
	pid_t *pids;
	char c;

	if (argc < 2) {
		fprintf(stderr, "Usage: %s NR_PROCESSES [NR_THREADS]\n", argv[0]);
		return 1;
	}
	n = atoi(argv[1]);
	if (argc > 2)
		nthreads = atoi(argv[2]);
	pids = calloc(n > 0 ? n : 1, sizeof(*pids));
	if (!pids || pipe(p))
		return 1;

	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			printf("Unable to fork: %m\n");
			return 1;
		}
		if (pids[i] == 0) {
			close(p[0]);
			child(p[1], nthreads);
		}
	}
	close(p[1]);

	for (i = 0; i < n; i++) {
		if (read(p[0], &c, 1) != 1 || c != 'R') {
			fprintf(stderr, "%s: a child failed to start\n", argv[0]);
			err = 1;
			break;
		}
	}
	for (i = 0; i < n; i++)
		printf("%d\n", pids[i]);

	return err;
}
