// SPDX-License-Identifier: GPL-2.0
/*
 * td-victim: a process with known tasks and mappings for the tests to
 * describe: threads, children, a memfd, a deleted file mapped private and
 * shared read-only, shared anonymous memory from /dev/zero, touched
 * anonymous memory.  Its pid goes to --ready FILE (or stdout) once all is
 * in place; it lives until killed, and its children die with it.
 *
 *   td-victim [--threads N] [--children N] [--ready FILE]
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef __noreturn
#define __noreturn	__attribute__((noreturn))
#endif

#define MAP_LEN		(4 * 4096)

static void __noreturn die(const char *what)
{
	perror(what);
	exit(1);
}

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return NULL;
}

static void map_memfd(void)
{
	int fd = memfd_create("td-victim", 0);

	if (fd < 0 || ftruncate(fd, MAP_LEN))
		die("memfd");
	if (mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) ==
	    MAP_FAILED)
		die("mmap memfd");
	close(fd);
}

/* A file mapped private and shared read-only, then unlinked */
static void map_deleted_file(void)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[4096];
	char *p;
	int fd;

	snprintf(path, sizeof(path), "%s/td-victim.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, MAP_LEN))
		die("deleted file");
	p = mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		die("mmap private file");
	p[0] = 1;
	close(fd);
	fd = open(path, O_RDONLY);
	if (fd < 0 ||
	    mmap(NULL, MAP_LEN, PROT_READ, MAP_SHARED, fd, 4096) == MAP_FAILED)
		die("mmap shared file");
	close(fd);
	unlink(path);
}

static void map_dev_zero(void)
{
	int fd = open("/dev/zero", O_RDWR);
	char *p;

	if (fd < 0)
		die("/dev/zero");
	p = mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap /dev/zero");
	p[0] = 1;
	close(fd);
}

static void map_anon(void)
{
	char *p = mmap(NULL, 8 * MAP_LEN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap anon");
	memset(p, 1, 8 * MAP_LEN);
}

static void start_children(int n)
{
	pid_t ppid = getpid();
	int i;

	for (i = 0; i < n; i++) {
		switch (fork()) {
		case -1:
			die("fork");
		case 0:
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != ppid)
				_exit(0);
			for (;;)
				pause();
		}
	}
}

static void say_ready(const char *file)
{
	char tmp[4096];
	FILE *f;

	if (!file) {
		printf("%d\n", getpid());
		fflush(stdout);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f) ||
	    rename(tmp, file))
		die("ready file");
}

int main(int argc, char **argv)
{
	int threads = 2, children = 1, i;
	const char *file = NULL;
	pthread_t th;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--threads"))
			threads = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--children"))
			children = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--ready"))
			file = argv[i + 1];
	}
	signal(SIGCHLD, SIG_IGN);
	map_memfd();
	map_deleted_file();
	map_dev_zero();
	map_anon();
	start_children(children);
	for (i = 0; i < threads; i++)
		if (pthread_create(&th, NULL, sleeper, NULL))
			die("pthread_create");
	say_ready(file);
	for (;;)
		pause();
}
