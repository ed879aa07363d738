// SPDX-License-Identifier: GPL-2.0
/*
 * Synthesize the FORK, NAMESPACES, COMM and MMAP2 events of existing tasks
 * from two BPF iterators (Linux 5.12) instead of the /proc walk: a task
 * iterator writes one record per task, a task_vma iterator one per mapping
 * of each process, with its path from bpf_d_path() (or, where the verifier
 * refuses that, the names of its components).  Both answers are read
 * whole before the first event is sent, so that a failure leaves the whole
 * synthesis to the /proc walk; then the events are those of the /proc walk
 * in synthetic-events.c, in its order: FORK, NAMESPACES and COMM of each
 * thread, process after process, and the MMAP2 events of a process after
 * the COMM of its thread group leader.  The names are those /proc prints:
 * a workqueue worker's comm with its last work, [heap], [stack], the
 * special mappings' and the named anonymous ones'; the gate area that the
 * maps files list after the VMAs is sent as the PROCMAP_QUERY source sends
 * it.  The build IDs are read from the files, as for the /proc walk.
 *
 * The iterators see the pids of the initial pid namespace: perf in another
 * one synthesizes from /proc.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/string.h>

#include "debug.h"
#include "event.h"
#include "machine.h"
#include "synthetic-bpf-iter.h"
#include "synthetic-events.h"
#include "synthetic-procmap-query.h"
#include "synthetic-source.h"
#include "tool.h"

#include "bpf_skel/synthesize_iter.h"
#include "bpf_skel/synthesize_iter.skel.h"

/* The inode of the initial pid namespace (PROC_PID_INIT_INO) */
#define BI_PID_INIT_INO		0xEFFFFFFCU

/* What an iterator wrote */
struct bi_buf {
	char	*data;
	size_t	len, alloc;
};

struct bi_synth {
	const struct perf_tool	*tool;
	perf_event__handler_t	process;
	struct machine		*machine;
	bool			needs_mmap;
	bool			mmap_data;
	unsigned int		page_shift;
	struct bi_buf		tasks;
	struct bi_buf		vmas;
	size_t			vma_off;	/* the next VMA record */
	struct perf_synth_events ev;
	unsigned long		nr_threads;
	unsigned long		nr_from_proc;	/* processes whose maps are /proc's */
};

/* libbpf's messages, which a fallback to /proc makes no error, as debug */
static int bi__libbpf_print(enum libbpf_print_level level __maybe_unused,
			    const char *fmt, va_list args)
{
	return veprintf(1, verbose, fmt, args);
}

/* Whether perf sees the pids of the initial pid namespace, as BPF does */
static bool bi__init_pid_ns(void)
{
	struct stat st;

	return !stat("/proc/self/ns/pid", &st) && st.st_ino == BI_PID_INIT_INO;
}

/*
 * FMODE_BACKING of the running kernel: the f_mode bit of the files of
 * overlayfs mappings, whose paths /proc/PID/maps prints as the overlay's
 * since Linux 6.8: 1 << 25 until "fsnotify: opt-in for permission events
 * at file open time" moved it to 1 << 24 in 6.14, and in 6.12.105, which
 * took that commit (ChangeLog-6.12.105, as Debian's linux 6.12.105-1
 * lists it); 0 before 6.8.  In @maybe, where the move is not known (6.13),
 * both bits: those mappings' names come from /proc.
 */
static unsigned int bi__fmode_backing(unsigned int *maybe)
{
	unsigned int major = 0, minor = 0, sub = 0;
	struct utsname u;

	*maybe = 0;
	if (uname(&u) || sscanf(u.release, "%u.%u.%u", &major, &minor, &sub) < 2) {
		*maybe = 1U << 24 | 1U << 25;
		return 0;
	}
	if (major < 6 || (major == 6 && minor < 8))
		return 0;
	if (major == 6 && minor < 12)
		return 1U << 25;
	if (major == 6 && minor == 12)
		return sub < 105 ? 1U << 25 : 1U << 24;
	if (major == 6 && minor == 13) {
		*maybe = 1U << 24 | 1U << 25;
		return 0;
	}
	return 1U << 24;
}

/* Open and load the iterators, with the task_vma one when @vma_prog */
static struct synthesize_iter_bpf *bi__open_load(bool mmap_data,
						 struct bpf_program *(*vma_prog)
							(struct synthesize_iter_bpf *),
						 int *err)
{
	struct synthesize_iter_bpf *skel = synthesize_iter_bpf__open();

	if (!skel) {
		*err = -errno;
		return NULL;
	}
	skel->bss->exec_only = !mmap_data;
	skel->bss->fmode_backing = bi__fmode_backing(&skel->bss->fmode_maybe_backing);
	bpf_program__set_autoload(skel->progs.synth_vma, false);
	bpf_program__set_autoload(skel->progs.synth_vma_walk, false);
	if (vma_prog)
		bpf_program__set_autoload(vma_prog(skel), true);
	*err = synthesize_iter_bpf__load(skel);
	if (*err) {
		synthesize_iter_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

static struct bpf_program *bi__task_vma(struct synthesize_iter_bpf *skel)
{
	return skel->progs.synth_vma;
}

static struct bpf_program *bi__task_vma_walk(struct synthesize_iter_bpf *skel)
{
	return skel->progs.synth_vma_walk;
}

/*
 * Whether the verifier should refuse bpf_d_path() a VMA's file: 6.18's
 * does, 6.12's takes it (as for its selftest bpf_iter_task_vma); a wrong
 * guess costs a second load
 */
static bool bi__d_path_refused(void)
{
	unsigned int major = 0, minor = 0;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor > 12);
}

/*
 * Open and load the iterators, the task_vma one when the maps are needed:
 * with bpf_d_path(), or where the verifier refuses it a VMA's file (later
 * kernels), walking the paths itself; NULL with why not in @why
 */
static struct synthesize_iter_bpf *bi__load(bool needs_mmap, bool mmap_data,
					    char *why, size_t size)
{
	libbpf_print_fn_t was = libbpf_set_print(bi__libbpf_print);
	struct bpf_program *(*first)(struct synthesize_iter_bpf *skel);
	struct synthesize_iter_bpf *skel = NULL;
	int err;

	if (!bi__init_pid_ns()) {
		snprintf(why, size, "perf is not in the initial pid namespace");
		goto out;
	}
	/* each load parses the kernel's BTF: try first what should load */
	first = bi__d_path_refused() ? bi__task_vma_walk : bi__task_vma;
	skel = bi__open_load(mmap_data, needs_mmap ? first : NULL, &err);
	if (!skel && needs_mmap && err != -EPERM)
		skel = bi__open_load(mmap_data, first == bi__task_vma ? bi__task_vma_walk :
					       bi__task_vma, &err);
	if (!skel)
		snprintf(why, size, "cannot load the BPF iterators: %s%s", strerror(-err),
			 err == -EPERM ? " (no CAP_BPF and CAP_PERFMON)" : "");
out:
	libbpf_set_print(was);
	return skel;
}

/**
 * perf_bpf_iter__usable - whether the BPF iterators can synthesize here
 * @why: where to say why not
 * @size: its size
 *
 * Return: true when they load: perf is in the initial pid namespace, was
 * built with BPF skeletons, and the kernel has BTF, the iterators and lets
 * perf load them; else false and why not in @why.
 */
bool perf_bpf_iter__usable(char *why, size_t size)
{
	struct synthesize_iter_bpf *skel = bi__load(true, true, why, size);
	bool usable = skel;

	synthesize_iter_bpf__destroy(skel);
	return usable;
}

/* Read all that @prog writes over every task into @buf: 0 or -errno */
static int bi__read(struct bpf_program *prog, struct bi_buf *buf)
{
	struct bpf_link *link = bpf_program__attach_iter(prog, NULL);
	int fd, err = 0;
	ssize_t n;

	if (!link)
		return -errno;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	for (;;) {
		if (buf->alloc - buf->len < 65536) {
			size_t alloc = buf->alloc ? 2 * buf->alloc : 1024 * 1024;
			char *data = realloc(buf->data, alloc);

			if (!data) {
				err = -ENOMEM;
				break;
			}
			buf->data = data;
			buf->alloc = alloc;
		}
		n = read(fd, buf->data + buf->len, buf->alloc - buf->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		buf->len += n;
	}
	close(fd);
out:
	bpf_link__destroy(link);
	return err;
}

static int bi__task_cmp(const void *a, const void *b)
{
	const struct synth_iter_task *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/*
 * Append @len bytes of @s to @out of @size bytes at *@pos, escaping the
 * bytes in @special with @escape as seq_escape_str() would; @out stays
 * NUL-terminated
 */
static void bi__append(char *out, size_t size, size_t *pos, const char *s,
		       size_t len, const char *special,
		       const char *(*escape)(char c))
{
	size_t i;

	for (i = 0; i < len && s[i]; i++) {
		const char *e = strchr(special, s[i]) ? escape(s[i]) : NULL;
		size_t n = e ? strlen(e) : 1;

		if (*pos + n >= size)
			break;
		memcpy(out + *pos, e ?: &s[i], n);
		*pos += n;
	}
	out[*pos] = '\0';
}

/* proc_task_name()'s escapes of a task's name */
static const char *bi__comm_escape(char c)
{
	return c == '\n' ? "\\n" : "\\\\";
}

/* seq_path()'s escape of a path's newlines */
static const char *bi__path_escape(char c __maybe_unused)
{
	return "\\012";
}

/*
 * The comm of @t as the /proc walk reads it from the Name line of its
 * status file: escaped, with no leading blanks, cut to a comm's length
 */
static void bi__comm(const struct synth_iter_task *t, char *comm, size_t size)
{
	char name[4 * (SYNTH_ITER_COMM_LEN + SYNTH_ITER_DESC_LEN)];
	const char *p = name;
	size_t pos = 0, n;

	bi__append(name, sizeof(name), &pos, t->comm, sizeof(t->comm), "\n\\",
		   bi__comm_escape);
	if (t->flags & SYNTH_ITER_WQ_WORKER) {
		bi__append(name, sizeof(name), &pos,
			   t->flags & SYNTH_ITER_WQ_RUNNING ? "+" : "-", 1, "",
			   bi__comm_escape);
		bi__append(name, sizeof(name), &pos, t->desc, sizeof(t->desc),
			   "\n\\", bi__comm_escape);
	}
	while (isspace(*p))
		p++;
	n = strnlen(p, size - 1);
	memcpy(comm, p, n);
	comm[n] = '\0';
}

/*
 * The path of the @len bytes of names at @names, the file's first, each
 * with its NUL, as d_path() would make it, its newlines escaped
 */
static void bi__path_of_parts(const char *names, size_t len, bool deleted,
			      char *out, size_t size)
{
	const char *end = names + len, *p;
	size_t pos = 0;

	out[0] = '\0';
	while (end > names) {
		/* the start of the last name before @end */
		for (p = end - 1; p > names && p[-1]; p--)
			;
		bi__append(out, size, &pos, "/", 1, "", bi__path_escape);
		bi__append(out, size, &pos, p, end - 1 - p, "\n", bi__path_escape);
		end = p;
	}
	if (!pos)
		bi__append(out, size, &pos, "/", 1, "", bi__path_escape);
	if (deleted)
		bi__append(out, size, &pos, " (deleted)", 10, "", bi__path_escape);
}

/* The name of mapping @v, whose name follows it, as its maps file prints it */
static void bi__vma_name(const struct synth_iter_vma *v, const char *name,
			 char *out, size_t size)
{
	size_t pos = 0;

	out[0] = '\0';
	switch (v->name_kind) {
	case SYNTH_ITER_NAME_PATH:
		bi__append(out, size, &pos, name, v->name_len, "\n", bi__path_escape);
		break;
	case SYNTH_ITER_NAME_PLAIN:
		bi__append(out, size, &pos, name, v->name_len, "", bi__path_escape);
		break;
	case SYNTH_ITER_NAME_ANON:
	case SYNTH_ITER_NAME_ANON_SHMEM:
		snprintf(out, size, "[%s:%.*s]",
			 v->name_kind == SYNTH_ITER_NAME_ANON ? "anon" : "anon_shmem",
			 (int)strnlen(name, v->name_len), name);
		break;
	case SYNTH_ITER_NAME_PARTS:
	case SYNTH_ITER_NAME_PARTS_DELETED:
		bi__path_of_parts(name, v->name_len,
				  v->name_kind == SYNTH_ITER_NAME_PARTS_DELETED, out, size);
		break;
	case SYNTH_ITER_NAME_ANON_INODE:
		snprintf(out, size, "anon_inode:%.*s", (int)strnlen(name, v->name_len), name);
		break;
	default:
		break;
	}
}

/*
 * Whether the records of process @tgid from offset @off on, until the
 * next process's, have one whose name the iterator could not make
 */
static bool bi__from_proc(const struct bi_buf *vmas, size_t off, pid_t tgid)
{
	struct synth_iter_vma v;

	for (; off + sizeof(v) <= vmas->len; off += sizeof(v) + v.name_len) {
		memcpy(&v, vmas->data + off, sizeof(v));
		if (v.tgid != (__u32)tgid)
			break;
		if (v.name_kind == SYNTH_ITER_NAME_FROM_PROC)
			return true;
	}
	return false;
}

/*
 * The MMAP2 events of process @tgid: its records are the next ones of the
 * task_vma iterator, which wrote the processes in the order of their tgid;
 * from /proc if one of them has a name the iterator could not make
 */
static int bi__mmaps(struct bi_synth *s, pid_t tgid)
{
	struct perf_record_mmap2 *ev = &s->ev.mmap_event->mmap2;
	struct synth_iter_vma v;
	__u64 last_end = 0;
	bool from_proc = false;

	while (s->vma_off + sizeof(v) <= s->vmas.len) {
		const char *rec = s->vmas.data + s->vma_off;

		memcpy(&v, rec, sizeof(v));
		if (v.tgid > (__u32)tgid)
			break;
		if (v.tgid == (__u32)tgid && !last_end && !from_proc)
			from_proc = bi__from_proc(&s->vmas, s->vma_off, tgid);
		s->vma_off += sizeof(v) + v.name_len;
		if (s->vma_off > s->vmas.len)
			return -EPROTO;
		if (v.tgid != (__u32)tgid || from_proc)
			continue;		/* a process gone from the task pass */
		ev->start = v.start;
		ev->len = v.end;		/* made a length by the entry */
		ev->pgoff = v.pgoff << s->page_shift;
		ev->maj = v.dev >> 20;
		ev->min = v.dev & 0xfffff;
		ev->ino = v.ino;
		ev->prot = (v.vm_flags & SYNTH_ITER_VM_READ ? PROT_READ : 0) |
			   (v.vm_flags & SYNTH_ITER_VM_WRITE ? PROT_WRITE : 0) |
			   (v.vm_flags & SYNTH_ITER_VM_EXEC ? PROT_EXEC : 0);
		ev->flags = v.vm_flags & SYNTH_ITER_VM_MAYSHARE ? MAP_SHARED : MAP_PRIVATE;
		bi__vma_name(&v, rec + sizeof(v), ev->filename, sizeof(ev->filename));
		last_end = v.end;
		if (perf_event__synthesize_mmap2_entry(s->tool, s->ev.mmap_event, tgid, tgid,
						       s->process, s->machine,
						       s->mmap_data, false, NULL))
			return -1;
	}
	if (from_proc) {
		s->nr_from_proc++;
		return perf_event__synthesize_mmap_events(s->tool, s->ev.mmap_event, tgid,
							  tgid, s->process, s->machine,
							  s->mmap_data);
	}
	/* the gate area of 64-bit processes, listed after their VMAs */
	if (last_end > 1ULL << 32)
		return perf_event__synthesize_gate_area(s->tool, s->ev.mmap_event, tgid,
							tgid, s->process, s->machine,
							s->mmap_data);
	return 0;
}

/*
 * The events of one thread, as __event__synthesize_thread() sends them;
 * like the task_diag source, a thread whose events could not be processed
 * does not stop the others
 */
static void bi__thread(struct bi_synth *s, const struct synth_iter_task *t)
{
	char comm[sizeof(s->ev.comm_event->comm.comm)];

	s->nr_threads++;
	bi__comm(t, comm, sizeof(comm));
	if (perf_synth_events__thread(&s->ev, s->tool, s->process, s->machine,
				      comm, t->tgid, t->tid, t->ppid))
		return;
	if (t->tid == t->tgid && s->needs_mmap)
		bi__mmaps(s, t->tgid);
}

static int bi__send(struct bi_synth *s)
{
	struct synth_iter_task *tasks = (struct synth_iter_task *)s->tasks.data;
	size_t i, nr = s->tasks.len / sizeof(*tasks);

	if (s->tasks.len % sizeof(*tasks))
		return -EPROTO;
	if (perf_synth_events__init(&s->ev, s->machine))
		return -ENOMEM;

	qsort(tasks, nr, sizeof(*tasks), bi__task_cmp);
	for (i = 0; i < nr; i++)
		bi__thread(s, &tasks[i]);
	return 0;
}

/**
 * perf_event__synthesize_threads_bpf_iter - synthesize all tasks' events
 *	from the BPF task and task_vma iterators
 * @tool: the tool the events are for
 * @process: called with every event
 * @machine: the machine, which must be the host
 * @needs_mmap: send the MMAP2 events of every process
 * @mmap_data: send those of data mappings too
 *
 * Return: 0 when the events were sent; else none was, with -EOPNOTSUPP
 * when synthesize.bpf-iter is off or cannot serve @machine, or the -errno
 * of why the iterators could not be loaded or read: the caller walks /proc.
 */
int perf_event__synthesize_threads_bpf_iter(const struct perf_tool *tool,
					    perf_event__handler_t process,
					    struct machine *machine,
					    bool needs_mmap, bool mmap_data)
{
	struct bi_synth s = {
		.tool = tool, .process = process, .machine = machine,
		.needs_mmap = needs_mmap, .mmap_data = mmap_data,
		.page_shift = __builtin_ctzl(sysconf(_SC_PAGESIZE)),
	};
	struct synthesize_iter_bpf *skel;
	char why[128];
	int err;

	if (!perf_synthesize_bpf_iter || !machine__is_host(machine) ||
	    (machine->root_dir && machine->root_dir[0]))
		return -EOPNOTSUPP;

	skel = bi__load(needs_mmap, mmap_data, why, sizeof(why));
	if (!skel) {
		pr_debug("synthesize.bpf-iter: %s, synthesizing from /proc\n", why);
		return -EOPNOTSUPP;
	}
	err = bi__read(skel->progs.synth_task, &s.tasks);
	if (!err && needs_mmap)
		err = bi__read(bpf_program__autoload(skel->progs.synth_vma) ?
			       skel->progs.synth_vma : skel->progs.synth_vma_walk,
			       &s.vmas);
	synthesize_iter_bpf__destroy(skel);
	if (!err)
		err = bi__send(&s);
	if (err)
		pr_warning("synthesize.bpf-iter: reading the BPF iterators failed (%s), synthesizing from /proc\n",
			   strerror(-err));
	else
		pr_debug("synthesized %lu threads from BPF iterators, the maps of %lu processes from /proc\n",
			 s.nr_threads, s.nr_from_proc);

	free(s.tasks.data);
	free(s.vmas.data);
	perf_synth_events__exit(&s.ev);
	return err;
}
