/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-local helpers for /proc/task-diag: write a request, read the whole
 * response with a chosen read() size, check every message and attribute
 * against the protocol while walking them, reassemble continued
 * (TASK_DIAG_FLAG_CONT) descriptions and keep one record per task.
 */
#ifndef __TASK_DIAG_UTIL_H
#define __TASK_DIAG_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/netlink.h>
#include <linux/task_diag.h>

#define TD_PATH		"/proc/task-diag"

/* The shortest request the kernel accepts (i386 v3 callers send it) */
#define TD_REQ_MIN	(NLMSG_HDRLEN + TASK_DIAG_PID_SIZE_VER0)
/* The request length v3 clients send: the payload padded like an attribute */
#define TD_REQ_LEN	(NLMSG_HDRLEN + \
			 NLA_ALIGN(NLA_HDRLEN + sizeof(struct task_diag_pid)))

#define TD_SHOW_ALL	(TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_CRED | \
			 TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_VMA_STAT | \
			 TASK_DIAG_SHOW_STAT | TASK_DIAG_SHOW_STATM | \
			 TASK_DIAG_SHOW_CMDLINE | TASK_DIAG_SHOW_PSINFO)

#define TD_SEQ		0x7d5eedU	/* nlmsg_seq of td_dump()'s requests */
#define TD_BUF_SMALL	4096		/* read() sizes the tests use */
#define TD_BUF_BIG	(1024 * 1024)

/* One record of a TASK_DIAG_VMA attribute, copied out of the reply */
struct td_vma {
	struct task_diag_vma rec;
	char *name;			/* NULL when the record has no name */
	bool has_stat;
	struct task_diag_vma_stat stat;
	unsigned int build_id_len;	/* 0: none */
	__u8 build_id[TASK_DIAG_BUILD_ID_MAX];
};

/* Everything the response said about one task, continuations merged */
struct td_task {
	__u32 pid;
	__u32 tgid;
	unsigned int nmsgs;		/* messages about it: > 1 if continued */
	unsigned int ncont;		/* of which flagged TASK_DIAG_FLAG_CONT */
	bool closed_empty;		/* ended by an empty continuation */
	__u64 groups;			/* TASK_DIAG_SHOW_* of the groups seen */
	struct task_diag_base base;
	struct task_diag_creds creds;
	struct task_diag_stat stat;
	struct task_diag_statm statm;
	struct task_diag_psinfo psinfo;
	char *cmdline;			/* the TASK_DIAG_CMDLINE parts, joined */
	size_t cmdline_len;
	unsigned int cmdline_parts;
	struct td_vma *vmas;
	size_t nr_vmas;
	size_t cap_vmas;
	unsigned int nr_vma_disorder;	/* VMAs starting below the previous end */
};

struct td_key {
	__u32 pid;
	__u32 idx;
};

/* A response being read: the tasks in the order they were reported */
struct td_dump {
	__u64 show_flags;		/* of the request, to check the reply */
	__u32 seq;
	struct td_task *tasks;
	size_t nr_tasks;
	size_t cap_tasks;
	struct td_key *index;		/* tasks sorted by pid, see td_find() */
	size_t nr_index;
	unsigned int nr_reads;		/* read() calls that returned data */
	unsigned int nr_msgs;
	size_t nr_bytes;
	size_t max_read;		/* largest read() result */
	bool finished;			/* a read() returned 0 */
	bool done;			/* the NLMSG_DONE that ends it was read */
	long pending;			/* task whose description goes on, or -1 */
	unsigned int pending_group;	/* last attribute of its last message */
	unsigned int nr_errors;		/* protocol violations found */
	char error[512];		/* the first one */
};

/*
 * Whether @t came with a TASK_DIAG_VMA attribute, maybe an empty one: a
 * task reported without it (maps denied, or no mm) has nr_vmas 0 too.
 */
static inline bool td_has_vma(const struct td_task *t)
{
	return t->groups & TASK_DIAG_SHOW_VMA;
}

bool td_available(void);
int td_open(void);
size_t td_req_fill(void *buf, size_t len, __u64 show_flags, __u64 strategy,
		   __u32 pid, __u32 seq);
ssize_t td_write_req(int fd, __u64 show_flags, __u64 strategy, __u32 pid,
		     __u32 seq);
int td_request(int fd, __u64 show_flags, __u64 strategy, __u32 pid,
	       __u32 seq);

void td_dump_init(struct td_dump *d, __u64 show_flags, __u32 seq);
void td_dump_free(struct td_dump *d);
void td_dump_feed(struct td_dump *d, const void *buf, size_t len);
ssize_t td_read_once(int fd, struct td_dump *d, size_t bufsize);
int td_read_all(int fd, struct td_dump *d, size_t bufsize);
int td_dump_fd(int fd, struct td_dump *d, __u64 show_flags, __u64 strategy,
	       __u32 pid, size_t bufsize);
int td_dump(struct td_dump *d, __u64 show_flags, __u64 strategy, __u32 pid,
	    size_t bufsize);

struct td_task *td_find(struct td_dump *d, __u32 pid);
unsigned int td_count(struct td_dump *d, __u32 pid);
size_t td_nr_dups(struct td_dump *d, __u32 *first_dup);

#endif /* __TASK_DIAG_UTIL_H */
