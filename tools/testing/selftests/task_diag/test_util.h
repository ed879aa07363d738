/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-local helpers: what /proc/PID/{stat,status,statm,maps,smaps} say
 * about a task, and children to be described (spawned, stopped, reaped).
 */
#ifndef __TASK_DIAG_TEST_UTIL_H
#define __TASK_DIAG_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The fields of /proc/PID/stat (or /proc/PID/task/TID/stat) we compare */
struct proc_stat {
	int pid;
	char comm[64];		/* as long as the kernel's names: 63 + NUL */
	char state;
	int ppid;
	int pgrp;
	int session;
	int tty_nr, tpgid;					/* field 7, 8 */
	unsigned int flags;					/* field 9 */
	unsigned long long minflt, cminflt, majflt, cmajflt;
	unsigned long long utime, stime, cutime, cstime;	/* field 14-17 */
	long priority, nice;					/* field 18, 19 */
	long threads;						/* field 20 */
	unsigned long long starttime;				/* field 22 */
	unsigned long long vsize, rss;				/* field 23, 24 */
	unsigned long long startcode;				/* field 26 */
	int processor;						/* field 39 */
	unsigned int rt_priority, policy;			/* field 40, 41 */
};

/* One line of /proc/PID/maps, and its smaps counters when read from there */
struct proc_vma {
	unsigned long long start, end, pgoff, inode;
	unsigned int major, minor;
	char perms[5];
	char *name;			/* "" when the line has none */
	bool has_smaps;
	unsigned long long rss, pss, shared_clean, shared_dirty;	/* kB */
	unsigned long long private_clean, private_dirty, referenced;
	unsigned long long anonymous, anon_huge, swap;
	char vmflags[256];		/* the VmFlags: line */
};

struct proc_maps {
	struct proc_vma *v;
	size_t nr;
	size_t cap;
};

char *read_file(const char *path, size_t *len);
int write_str(const char *path, const char *s);
char *proc_task_path(char *buf, size_t len, pid_t pid, pid_t tid,
		     const char *file);
int proc_read_stat(pid_t pid, pid_t tid, struct proc_stat *st);
int proc_status_str(pid_t pid, pid_t tid, const char *key, char *val,
		    size_t len);
int proc_status_ull(pid_t pid, const char *key, int base,
		    unsigned long long *val);
int proc_status_ids(pid_t pid, const char *key, unsigned int ids[4]);
int proc_read_statm(pid_t pid, unsigned long long v[7]);
int proc_read_maps(pid_t pid, bool smaps, struct proc_maps *m);
void proc_maps_free(struct proc_maps *m);
int proc_tids(pid_t pid, pid_t **tids);
int state_index(char letter);

/* Children: each sets PR_SET_PDEATHSIG so that none survives the test */
typedef int (*child_fn)(void *arg);
pid_t spawn_child(child_fn fn, void *arg);
pid_t spawn_loop(void (*loop)(void));
int spawn_many(pid_t *pids, int n, int nthreads);
int start_threads(int n, const char *name_fmt);
int map_many_vmas(int n);
int map_many_vmas_at(void *addr, int n);
pid_t spawn_zombie(void);
int stop_child(pid_t pid);
void kill_reap(pid_t pid);
void kill_reap_all(pid_t *pids, int n);
void die_with_parent(pid_t parent);
double now_sec(void);

#endif /* __TASK_DIAG_TEST_UTIL_H */
