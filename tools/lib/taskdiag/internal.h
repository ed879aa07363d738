/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * libtaskdiag internals: the session, the reassembled task and the helpers
 * shared by the backends.
 */
#ifndef __LIBTASKDIAG_INTERNAL_H
#define __LIBTASKDIAG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <taskdiag/taskdiag.h>

#define TD_BUF_DEFAULT		(128 * 1024)
#define TD_BUF_MIN		64
#define TD_BUF_MAX		(64 * 1024 * 1024)
#define TD_EINTR_MAX		16	/* EINTRs in a row before giving up */
#define TD_ERRMSG_LEN		256
#define TD_RA_DEPTH		8	/* buffers read ahead, at most */
#define TD_RAMP_FIRST		(32 * 1024)	/* first read, with read-ahead */
#define TD_RAMP_SHARE		8	/* later reads: 1/8 of what was read */
#define TD_NO_NAME		((size_t)-1)

#define TD_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define TD_BIT(nr)		(1ULL << (nr))
#define td_offsetofend(type, member) \
	(offsetof(type, member) + sizeof(((type *)0)->member))

#ifndef __printf
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#endif

/* One VMA of a task: the public part and the storage it points into */
struct td_vma {
	struct taskdiag_vma		pub;	/* pointers set by td_task_finish() */
	bool				has_stat;
	struct task_diag_vma_stat	stat;
	__u8				build_id[TASK_DIAG_BUILD_ID_MAX];
	size_t				name_pos; /* in task->names, or TD_NO_NAME */
};

/* One task, reused from task to task: no allocation in the steady state */
struct taskdiag_task {
	__u32			pid;
	__u32			tgid;
	__u64			present;	/* TD_BIT(TASK_DIAG_*) received */
	bool			exited;
	struct task_diag_base	base;
	struct task_diag_creds	creds;
	struct task_diag_stat	stat;
	struct task_diag_statm	statm;
	struct task_diag_psinfo	psinfo;
	char			*cmdline;	/* its parts joined, NUL-ended */
	size_t			cmdline_len;
	size_t			cmdline_cap;
	struct td_vma		*vmas;
	size_t			nr_vmas;
	size_t			cap_vmas;
	char			*names;		/* the VMA names, back to back */
	size_t			names_len;
	size_t			names_cap;
};

enum td_state {
	TD_IDLE,		/* no request yet */
	TD_ACTIVE,		/* an answer is being read */
	TD_END,			/* the answer was read to its end */
	TD_FAILED,		/* the answer was dropped after td->error */
};

struct taskdiag;

struct td_backend_ops {
	enum taskdiag_backend backend;
	int (*request)(struct taskdiag *td);
	int (*next)(struct taskdiag *td);	/* 1: td->task is ready */
};

struct td_read_ahead;

/* The netlink answer being read: the kernel's or a source's */
struct td_stream {
	const struct taskdiag_source	*src;
	char				*buf;
	size_t				size;	/* allocated */
	size_t				len;	/* bytes of the last read */
	size_t				off;	/* where the next message starts */
	size_t				count;	/* asked of the last read */
	size_t				answered; /* bytes of this answer read */
	bool				whole;	/* no short reads (td_read_count()) */
	bool				cont;	/* td->task goes on */
	bool				eof;	/* read returned 0 or NLMSG_DONE */
	bool				read_ahead; /* taskdiag_opts.read_ahead */
	struct td_read_ahead		*ra;	/* its thread, once started */
};

struct td_procfs;

struct taskdiag {
	const struct td_backend_ops	*ops;
	void				*(*realloc_fn)(void *ptr, size_t size);
	char				*proc_root;
	__u64				strategy;	/* the current request */
	__u64				show_flags;
	__u32				pid;
	__u32				seq;
	enum td_state			state;
	int				error;		/* TD_FAILED: returned again */
	struct td_stream		stream;
	struct taskdiag_source		kernel_src;	/* /proc/task-diag */
	int				kernel_fd;
	struct td_procfs		*procfs;
	struct taskdiag_task		task;
	char				errmsg[TD_ERRMSG_LEN];
};

/* Drop the answer: later taskdiag__next() calls return @err again */
static inline int td_fail(struct taskdiag *td, int err)
{
	td->state = TD_FAILED;
	td->error = err;
	return err;
}

/* log.c */
void td_log(int level, const char *fmt, ...) __printf(2, 3);
int td_err(struct taskdiag *td, int err, const char *fmt, ...) __printf(3, 4);
const char *td_strerror(int err);

/* util.c */
void *td_realloc(struct taskdiag *td, void *ptr, size_t size);
bool td_is_zero(const void *p, size_t len);
int td_opts_copy(void *dst, size_t size, const void *src, size_t src_sz);
extern void *(*td_realloc_hook)(void *ptr, size_t size);

/*
 * The allocator of the sessions created after it is set, realloc() by
 * default (NULL): a test hook to inject ENOMEM, exported in the version
 * node LIBTASKDIAG_PRIVATE, in no public header.  Memory is freed with
 * free().
 */
LIBTASKDIAG_API void taskdiag__test_set_realloc(void *(*fn)(void *ptr,
							      size_t size));
int td_grow(struct taskdiag *td, void **ptr, size_t *cap, size_t need,
	    size_t elem);
char *td_strdup(struct taskdiag *td, const char *s);

/* task.c */
void td_task_reset(struct taskdiag_task *task, __u32 pid, __u32 tgid);
void td_task_finish(struct taskdiag_task *task);
void td_task_free(struct taskdiag_task *task);
int td_task_set_group(struct taskdiag *td, int group, const void *data,
		      size_t len);
int td_task_add_cmdline(struct taskdiag *td, const void *data, size_t len);

/* vma.c */
int td_vma_add(struct taskdiag *td, const struct task_diag_vma *rec,
	       const char *name, size_t name_len,
	       const struct task_diag_vma_stat *stat, const __u8 *build_id);
int td_vma_parse_attr(struct taskdiag *td, const char *data, size_t len);

/* request.c */
size_t td_request_build(struct taskdiag *td, void *buf, size_t size);

/* stream.c */
int td_stream_init(struct taskdiag *td, const struct taskdiag_source *src,
		   size_t size);
void td_stream_reset(struct taskdiag *td);
int td_stream_next(struct taskdiag *td);
bool td_answer_ends(const char *buf, size_t len, __u32 seq);
size_t td_read_count(size_t answered, size_t size, bool ramp);
void td_stream_free(struct taskdiag *td);

/* readahead.c */
void td_ra_start(struct taskdiag *td);
bool td_ra_take(struct taskdiag *td, ssize_t *ret);
void td_ra_drop(struct taskdiag *td);
void td_ra_free(struct taskdiag *td);

/* reassemble.c */
int td_reasm_msg(struct taskdiag *td, const void *payload, size_t len);
int td_reasm_end(struct taskdiag *td);

/* kernel.c */
extern const struct td_backend_ops td_kernel_ops;
int td_kernel_open(struct taskdiag *td);
void td_kernel_close(struct taskdiag *td);
int td_kernel_probe(struct taskdiag *td);

/* session.c */
const char *td_new_error(void);

/* procfs.c */
extern const struct td_backend_ops td_procfs_ops;
int td_procfs_open(struct taskdiag *td);

#endif /* __LIBTASKDIAG_INTERNAL_H */
