/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * libtaskdiag: a client of /proc/task-diag, with a /proc fallback.
 *
 * A session (struct taskdiag) sends one request at a time and hands the
 * tasks of the answer back one by one, each one complete: a task that the
 * kernel continued over several messages (TASK_DIAG_FLAG_CONT) is
 * reassembled first.  Every group is an aligned copy that stays valid until
 * the next taskdiag__next() or taskdiag__request() call on the session.
 *
 *	struct taskdiag_opts opts = { .sz = sizeof(opts) };
 *	struct taskdiag_request_opts req = {
 *		.sz = sizeof(req),
 *		.strategy = TASK_DIAG_DUMP_ALL,
 *		.show_flags = TASK_DIAG_SHOW_BASE,
 *	};
 *	struct taskdiag_task *task;
 *	struct taskdiag *td;
 *	int err;
 *
 *	td = taskdiag__new(&opts);
 *	if (!td)
 *		return -errno;	(taskdiag__errmsg(NULL) says why)
 *	err = taskdiag__request(td, &req);
 *	if (!err)
 *		while ((err = taskdiag__next(td, &task)) > 0)
 *			printf("%u %s\n", taskdiag_task__pid(task),
 *			       taskdiag_task__base(task, NULL)->comm);
 *	taskdiag__delete(td);
 *
 * A session is not thread-safe: use one per thread.
 *
 * The ABI: every struct the caller passes in starts with its size (sz),
 * so that it may grow; the structs the library hands out are its own
 * copies, whose size it tells (struct taskdiag_vma.sz, the size argument
 * of the group accessors): a field that a newer header appended is there
 * only if it ends within that size.
 *
 * The wire format is described in Documentation/filesystems/task_diag.rst
 * and <linux/task_diag.h>, which is installed with this header (in
 * taskdiag/linux/): no kernel headers with task_diag are needed.
 */
#ifndef __LIBTASKDIAG_TASKDIAG_H
#define __LIBTASKDIAG_TASKDIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>
#include "linux/task_diag.h"

#ifndef LIBTASKDIAG_API
#define LIBTASKDIAG_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct taskdiag;
struct taskdiag_task;

/**
 * enum taskdiag_backend - where the records come from
 * @TASKDIAG_BACKEND_AUTO: the kernel if /proc/task-diag answers a probe,
 *	procfs otherwise
 * @TASKDIAG_BACKEND_KERNEL: /proc/task-diag (or a caller's
 *	struct taskdiag_source that speaks its format)
 * @TASKDIAG_BACKEND_PROCFS: the fallback: the same records built from
 *	/proc/PID/{stat,status,statm,maps,smaps}
 */
enum taskdiag_backend {
	TASKDIAG_BACKEND_AUTO,
	TASKDIAG_BACKEND_KERNEL,
	TASKDIAG_BACKEND_PROCFS,
};

enum taskdiag_log_level {
	TASKDIAG_LOG_ERROR,
	TASKDIAG_LOG_WARN,
	TASKDIAG_LOG_INFO,
	TASKDIAG_LOG_DEBUG,
};

typedef void (*taskdiag_log_fn)(int level, const char *msg, void *arg);

/**
 * struct taskdiag_source - a caller-supplied transport instead of the file
 * @sz: sizeof(struct taskdiag_source)
 * @request: send the request message of @len bytes; 0 or -errno
 * @read: like read() of /proc/task-diag: whole messages into @buf, at most
 *	@len bytes; the number of bytes, 0 at the end or -errno (-EMSGSIZE:
 *	@len cannot hold the next message, -EINTR: try again)
 * @arg: passed to both callbacks
 *
 * Meant for tests and fuzzers that inject crafted or captured responses,
 * and for callers that capture what the kernel sent.
 */
struct taskdiag_source {
	size_t sz;
	int (*request)(void *arg, const void *req, size_t len);
	ssize_t (*read)(void *arg, void *buf, size_t len);
	void *arg;
};

/**
 * struct taskdiag_opts - options of taskdiag__new(); zero means default
 * @sz: sizeof(struct taskdiag_opts), for compatibility
 * @backend: which backend to use, TASKDIAG_BACKEND_AUTO by default
 * @buf_size: read buffer size in bytes, 128 KiB by default; it grows when
 *	a message does not fit
 * @proc_root: where procfs is mounted, "/proc" by default
 * @source: read responses from here instead of /proc/task-diag; implies
 *	the kernel backend
 * @read_ahead: with the kernel backend, a thread of the session reads the
 *	next buffers of an answer, up to 8 ahead, while the caller handles the
 *	tasks of the ones before; the first reads of an answer are short, so
 *	that a short answer too comes in several (the source's read is then
 *	called from that thread, one call at a time); tasks come in the same
 *	order
 */
struct taskdiag_opts {
	size_t sz;
	enum taskdiag_backend backend;
	size_t buf_size;
	const char *proc_root;
	const struct taskdiag_source *source;
	bool read_ahead;
	__u8 __reserved[7];	/* zero: a field added here changes sz */
};

/**
 * struct taskdiag_request_opts - what taskdiag__request() asks for
 * @sz: sizeof(struct taskdiag_request_opts), for compatibility
 * @strategy: TASK_DIAG_DUMP_*
 * @show_flags: TASK_DIAG_SHOW_*: the groups to report
 * @pid: the task of per-process strategies, ignored by the others
 */
struct taskdiag_request_opts {
	size_t sz;
	__u64 strategy;
	__u64 show_flags;
	__u32 pid;
	__u32 __reserved;	/* zero: a field added here changes sz */
};

/**
 * struct taskdiag_vma - one memory mapping of a task, the library's copy
 * @sz: the size of this struct as the library has it: a field that a
 *	newer header appends is there only if TASKDIAG_VMA_HAS() says so
 * @start: its first address
 * @end: the address after its last byte
 * @vm_flags: TASK_DIAG_VMA_F_*
 * @pgoff: the offset in the mapped file, in bytes
 * @inode: the inode of the mapped file, 0 for none
 * @major: the major number of the file's device
 * @minor: its minor number
 * @generation: the inode's generation
 * @build_id_len: the size of @build_id, 0 when it is NULL
 * @name: its name as /proc/PID/maps prints it, NUL-terminated, or NULL
 * @stat: its smaps counters with TASK_DIAG_SHOW_VMA_STAT, or NULL
 * @stat_size: the size of *@stat, as the library has the struct
 * @build_id: with TASK_DIAG_SHOW_VMA_BUILD_ID, the build ID of the mapped
 *	file; NULL when it has none
 */
struct taskdiag_vma {
	size_t sz;
	__u64 start;
	__u64 end;
	__u64 vm_flags;
	__u64 pgoff;
	__u64 inode;
	__u32 major;
	__u32 minor;
	__u32 generation;
	__u32 build_id_len;
	const char *name;
	const struct task_diag_vma_stat *stat;
	size_t stat_size;
	const __u8 *build_id;
};

#define TASKDIAG_VMA_HAS(vma, field)					\
	(offsetof(struct taskdiag_vma, field) + sizeof((vma)->field) <=	\
	 (vma)->sz)

/**
 * taskdiag__new() - open a session
 * @opts: options, or NULL for the defaults
 *
 * Return: the session, or NULL with errno set (ENOENT: the kernel backend
 * was asked for and /proc/task-diag does not exist; EINVAL: bad options;
 * ENOMEM); then taskdiag__errmsg(NULL) says why, in the calling thread.
 */
LIBTASKDIAG_API struct taskdiag *taskdiag__new(const struct taskdiag_opts *opts);

/**
 * taskdiag__delete() - close a session and free everything it holds
 * @td: the session, or NULL
 */
LIBTASKDIAG_API void taskdiag__delete(struct taskdiag *td);

/**
 * taskdiag__backend() - the backend that serves the session
 * @td: the session
 *
 * Return: TASKDIAG_BACKEND_KERNEL or TASKDIAG_BACKEND_PROCFS, never AUTO.
 */
LIBTASKDIAG_API enum taskdiag_backend taskdiag__backend(const struct taskdiag *td);

/**
 * taskdiag__backend_name() - the name of a backend
 * @backend: a backend
 *
 * Return: "auto", "kernel", "procfs" or "unknown".
 */
LIBTASKDIAG_API const char *taskdiag__backend_name(enum taskdiag_backend backend);

/**
 * taskdiag__buf_size() - the current size of the read buffer
 * @td: the session
 *
 * Return: bytes; more than asked for if a message needed a larger buffer.
 */
LIBTASKDIAG_API size_t taskdiag__buf_size(const struct taskdiag *td);

/**
 * taskdiag__request() - ask for the tasks of a dump strategy
 * @td: the session
 * @opts: the strategy, its pid and the groups
 *
 * The answer to a previous request is dropped, read or not.
 *
 * Return: 0, or -errno (-EINVAL: bad strategy or flags, -ESRCH: no such
 * task); taskdiag__errmsg() tells more.
 */
LIBTASKDIAG_API int taskdiag__request(struct taskdiag *td,
				      const struct taskdiag_request_opts *opts);

/**
 * taskdiag__next() - the next task of the answer
 * @td: the session
 * @task: set to the task, valid until the next call on @td; NULL at the end
 *
 * Return: 1 with a task, 0 at the end of the answer, or -errno: -EBADMSG
 * for a malformed response, -EPROTO for one that breaks the protocol (a
 * continued task interrupted by another one, a wrong sequence number), the
 * error of an NLMSG_ERROR message, or the error of the transport.  After
 * -EBADMSG, -EPROTO or -ENOMEM the answer is dropped and later calls return
 * the same error; after a transport error (like -EINTR) the next call goes
 * on where this one stopped.
 */
LIBTASKDIAG_API int taskdiag__next(struct taskdiag *td, struct taskdiag_task **task);

/**
 * taskdiag__errmsg() - what went wrong last, in words
 * @td: the session, or NULL for the last taskdiag__new() that failed in
 *	the calling thread
 *
 * Return: a message about the last error of @td, "" if there was none.
 */
LIBTASKDIAG_API const char *taskdiag__errmsg(const struct taskdiag *td);

/**
 * taskdiag__strerror() - describe an error returned by the library
 * @err: a negative or positive errno value
 * @buf: where to write the description
 * @size: the size of @buf
 *
 * Return: @buf.
 */
LIBTASKDIAG_API const char *taskdiag__strerror(int err, char *buf, size_t size);

/**
 * taskdiag__set_log() - install a logging callback for all sessions
 * @fn: called with a TASKDIAG_LOG_* level and a message, or NULL (default)
 *	to log nothing
 * @arg: passed to @fn
 *
 * Not thread-safe: call it before the sessions are used.
 */
LIBTASKDIAG_API void taskdiag__set_log(taskdiag_log_fn fn, void *arg);

/**
 * taskdiag_task__pid() - the pid of a task (its thread id)
 * @task: the task
 *
 * Return: the pid, in the pid namespace of the procfs mount.
 */
LIBTASKDIAG_API __u32 taskdiag_task__pid(const struct taskdiag_task *task);

/**
 * taskdiag_task__tgid() - the thread group id (process id) of a task
 * @task: the task
 *
 * Return: the tgid.
 */
LIBTASKDIAG_API __u32 taskdiag_task__tgid(const struct taskdiag_task *task);

/**
 * taskdiag_task__has() - whether a group was received for a task
 * @task: the task
 * @group: TASK_DIAG_BASE, TASK_DIAG_CRED, TASK_DIAG_VMA, ...
 *
 * Kernel threads and zombies have no TASK_DIAG_VMA and TASK_DIAG_STATM.
 *
 * Return: true if it was.
 */
LIBTASKDIAG_API bool taskdiag_task__has(const struct taskdiag_task *task, int group);

/**
 * taskdiag_task__exited() - whether a task exited while it was described
 * @task: the task
 *
 * True when a continued description was closed by a message without
 * attributes: the groups that were still to come are missing.
 *
 * Return: true if it exited.
 */
LIBTASKDIAG_API bool taskdiag_task__exited(const struct taskdiag_task *task);

/**
 * taskdiag_task__base() - the TASK_DIAG_BASE group of a task
 * @task: the task
 * @size: set to the size of the copy (as this library has the struct),
 *	if not NULL
 *
 * Return: an aligned copy with a NUL-terminated comm, or NULL if absent.
 */
LIBTASKDIAG_API const struct task_diag_base *
taskdiag_task__base(const struct taskdiag_task *task, size_t *size);

/**
 * taskdiag_task__creds() - the TASK_DIAG_CRED group of a task
 * @task: the task
 * @size: set to the size of the copy (as this library has the struct),
 *	if not NULL
 *
 * Return: an aligned copy, or NULL if absent.
 */
LIBTASKDIAG_API const struct task_diag_creds *
taskdiag_task__creds(const struct taskdiag_task *task, size_t *size);

/**
 * taskdiag_task__stat() - the TASK_DIAG_STAT group of a task
 * @task: the task
 * @size: set to the size of the copy (as this library has the struct),
 *	if not NULL
 *
 * Return: an aligned copy, or NULL if absent.
 */
LIBTASKDIAG_API const struct task_diag_stat *
taskdiag_task__stat(const struct taskdiag_task *task, size_t *size);

/**
 * taskdiag_task__statm() - the TASK_DIAG_STATM group of a task
 * @task: the task
 * @size: set to the size of the copy (as this library has the struct),
 *	if not NULL
 *
 * Return: an aligned copy, or NULL if absent.
 */
LIBTASKDIAG_API const struct task_diag_statm *
taskdiag_task__statm(const struct taskdiag_task *task, size_t *size);

/**
 * taskdiag_task__psinfo() - the TASK_DIAG_PSINFO group of a task
 * @task: the task
 * @size: set to the size of the copy (as this library has the struct),
 *	if not NULL
 *
 * Since 1.1.
 *
 * Return: an aligned copy, or NULL if absent.
 */
LIBTASKDIAG_API const struct task_diag_psinfo *
taskdiag_task__psinfo(const struct taskdiag_task *task, size_t *size);

/**
 * taskdiag_task__cmdline() - the TASK_DIAG_CMDLINE group of a task
 * @task: the task
 * @len: set to its length in bytes, if not NULL
 *
 * The bytes /proc/PID/cmdline reads, all parts joined: the arguments, each
 * ended by a NUL; empty for kernel threads and zombies.  A NUL follows
 * the last byte, not counted in @len.  Since 1.1.
 *
 * Return: the command line, or NULL if absent.
 */
LIBTASKDIAG_API const char *
taskdiag_task__cmdline(const struct taskdiag_task *task, size_t *len);

/**
 * taskdiag_task__nr_vmas() - the number of memory mappings of a task
 * @task: the task
 *
 * Return: the number of VMAs received, of all messages of the task.
 */
LIBTASKDIAG_API size_t taskdiag_task__nr_vmas(const struct taskdiag_task *task);

/**
 * taskdiag_task__vma() - one memory mapping of a task
 * @task: the task
 * @idx: its index, from 0, in increasing address order as sent
 *
 * Return: the VMA, or NULL if @idx is out of range.
 */
LIBTASKDIAG_API const struct taskdiag_vma *
taskdiag_task__vma(const struct taskdiag_task *task, size_t idx);

/**
 * taskdiag_vma__format() - format a VMA as a line of /proc/PID/maps
 * @vma: the VMA
 * @buf: where to write the line, without its newline
 * @size: the size of @buf
 *
 * Return: the length of the whole line, like snprintf().
 */
LIBTASKDIAG_API int taskdiag_vma__format(const struct taskdiag_vma *vma, char *buf, size_t size);

#define taskdiag_task__for_each_vma(task, idx, vma)			\
	for ((idx) = 0; ((vma) = taskdiag_task__vma((task), (idx))); (idx)++)

#ifdef __cplusplus
}
#endif

#endif /* __LIBTASKDIAG_TASKDIAG_H */
