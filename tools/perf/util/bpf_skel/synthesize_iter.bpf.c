// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What perf synthesizes of the existing tasks, from a BPF task iterator
 * (one record per task) and a task_vma iterator (one record per mapping of
 * each process), written as binary records to the iterators' files: what
 * /proc/PID/task/TID/status and /proc/PID/maps print, for the events of
 * the /proc walk (see synthetic-bpf-iter.c).  The path of a mapped file
 * comes from bpf_d_path(), or on kernels whose verifier does not let a
 * VMA's file reach it, from a walk of its dentries and mounts.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "synthesize_iter.h"

#define PF_WQ_WORKER	0x00000020
#define PF_KTHREAD	0x00200000
#define ANON_INODE_FS_MAGIC	0x09041934
#define TMPFS_MAGIC		0x01021994
#define HUGETLBFS_MAGIC		0x958458f6

/*
 * The kernel's types, with just the fields read here; the suffix keeps
 * them apart from vmlinux.h's, CO-RE matches them without it.
 */
struct seq_file;

struct bpf_iter_meta___si {
	struct seq_file	*seq;
} __attribute__((preserve_access_index));

struct pid___si;

struct mm_struct___si {
	unsigned long	start_brk;
	unsigned long	brk;
	unsigned long	start_stack;
} __attribute__((preserve_access_index));

struct task_struct___si {
	unsigned int			flags;
	pid_t				pid;
	pid_t				tgid;
	struct task_struct___si		*real_parent;
	struct pid___si			*thread_pid;
	char				comm[SYNTH_ITER_COMM_LEN];
	void				*worker_private;
	struct fs_struct___si		*fs;
} __attribute__((preserve_access_index));

struct kthread___si {
	void	*data;
} __attribute__((preserve_access_index));

struct work_struct___si;

struct worker___si {
	struct work_struct___si	*current_work;
	void			*pool;
	char			desc[32];
} __attribute__((preserve_access_index));

struct super_block___si {
	u32		s_dev;
	unsigned long	s_magic;
} __attribute__((preserve_access_index));

struct inode___si {
	unsigned long			i_ino;
	struct super_block___si		*i_sb;
} __attribute__((preserve_access_index));

struct dentry_operations___si {
	char *(*d_dname)(void *dentry, char *buf, int len);
} __attribute__((preserve_access_index));

struct qstr___si {
	const unsigned char	*name;
} __attribute__((preserve_access_index));

struct hlist_bl_node___si {
	void	*next;
	void	**pprev;
} __attribute__((preserve_access_index));

struct dentry___si {
	struct hlist_bl_node___si		d_hash;
	struct dentry___si			*d_parent;
	struct qstr___si			d_name;
	struct inode___si			*d_inode;
	const struct dentry_operations___si	*d_op;
	struct super_block___si			*d_sb;
} __attribute__((preserve_access_index));

struct vfsmount___si {
	struct dentry___si	*mnt_root;
} __attribute__((preserve_access_index));

struct mount___si {
	struct mount___si	*mnt_parent;
	struct dentry___si	*mnt_mountpoint;
	struct vfsmount___si	mnt;
} __attribute__((preserve_access_index));

struct path___si {
	struct vfsmount___si	*mnt;
	struct dentry___si	*dentry;
} __attribute__((preserve_access_index));

struct fs_struct___si {
	struct path___si	root;
} __attribute__((preserve_access_index));

struct file___si {
	unsigned int		f_mode;
	struct path___si	f_path;
	struct inode___si	*f_inode;
} __attribute__((preserve_access_index));

/*
 * The file overlayfs maps in place of its own (fs/file_table.c): its
 * f_path is the real file's, user_path the overlay's that /proc prints
 * (file_user_path()); in a union from Linux 6.15 on, which CO-RE sees
 * through
 */
struct backing_file___si {
	struct file___si	file;
	struct path___si	user_path;
} __attribute__((preserve_access_index));

struct vm_area_struct___si;

struct vm_operations_struct___si {
	const char *(*name)(struct vm_area_struct___si *vma);
} __attribute__((preserve_access_index));

struct vm_special_mapping___si {
	const char	*name;
} __attribute__((preserve_access_index));

struct anon_vma_name___si {
	char	name[0];
} __attribute__((preserve_access_index));

struct vm_area_struct___si {
	unsigned long				vm_start;
	unsigned long				vm_end;
	struct mm_struct___si			*vm_mm;
	unsigned long				vm_flags;
	unsigned long				vm_pgoff;
	struct file___si			*vm_file;
	const struct vm_operations_struct___si	*vm_ops;
	void					*vm_private_data;
	struct anon_vma_name___si		*anon_name;
} __attribute__((preserve_access_index));

struct bpf_iter__task___si {
	struct bpf_iter_meta___si	*meta;
	struct task_struct___si		*task;
} __attribute__((preserve_access_index));

struct bpf_iter__task_vma___si {
	struct bpf_iter_meta___si	*meta;
	struct task_struct___si		*task;
	struct vm_area_struct___si	*vma;
} __attribute__((preserve_access_index));

/* Path components the walk of a path follows, mounts crossed included */
#define PATH_STEPS	48
/* The longest name of a path component */
#define NAME_LEN	256

/*
 * A mapping's record and the room for its name, that a walk of its path
 * writes in at offsets below SYNTH_ITER_NAME_MAX, NAME_LEN at a time
 */
struct synth_iter_vma_buf {
	struct synth_iter_vma	vma;
	char			name[SYNTH_ITER_NAME_MAX + NAME_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct synth_iter_vma_buf);
} vma_buf SEC(".maps");

/* Set before loading: only the executable mappings (no record -d) */
bool exec_only;
/*
 * Set before loading: FMODE_BACKING, the f_mode of the files overlayfs
 * maps, whose paths /proc prints from the file of the overlay instead
 * (Linux 6.8); 0 before, or where its value is not known
 */
unsigned int fmode_backing;
/*
 * Set before loading: the f_mode bits one of which FMODE_BACKING is where
 * its value is not known, whose mappings' names are read from /proc
 */
unsigned int fmode_maybe_backing;

/*
 * What /proc shows after the comm of a workqueue worker of a pool: '+'
 * and the work it runs, or '-' and the last one it ran (wq_worker_comm())
 */
static void worker_desc(struct task_struct___si *task, struct synth_iter_task *r)
{
	struct kthread___si *kthread;
	struct worker___si *worker;

	if (!bpf_core_field_exists(task->worker_private))
		return;
	kthread = task->worker_private;
	worker = BPF_CORE_READ(kthread, data);
	if (!worker || !BPF_CORE_READ(worker, pool) ||
	    bpf_probe_read_kernel_str(r->desc, sizeof(r->desc), worker->desc) <= 1)
		return;
	r->flags |= SYNTH_ITER_WQ_WORKER;
	if (BPF_CORE_READ(worker, current_work))
		r->flags |= SYNTH_ITER_WQ_RUNNING;
}

SEC("iter/task")
int synth_task(struct bpf_iter__task___si *ctx)
{
	struct task_struct___si *task = ctx->task;
	struct synth_iter_task r = {};

	if (!task)
		return 0;
	r.tid = task->pid;
	r.tgid = task->tgid;
	/* /proc's PPid: 0 once the task is unhashed */
	if (task->thread_pid)
		r.ppid = task->real_parent->tgid;
	bpf_probe_read_kernel_str(r.comm, sizeof(r.comm), task->comm);
	if (task->flags & PF_WQ_WORKER)
		worker_desc(task, &r);
	bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}

/* The name of an anonymous mapping, as get_vma_name() gives it */
static int anon_name(struct vm_area_struct___si *vma, struct synth_iter_vma_buf *b)
{
	const struct vm_operations_struct___si *ops = vma->vm_ops;
	struct mm_struct___si *mm = vma->vm_mm;
	struct anon_vma_name___si *an;

	b->vma.name_kind = SYNTH_ITER_NAME_PLAIN;
	/* special mappings: [vdso], [vvar], [uprobes]... */
	if (ops && ops->name) {
		struct vm_special_mapping___si *sm = vma->vm_private_data;
		const char *name = BPF_CORE_READ(sm, name);

		if (name)
			return bpf_probe_read_kernel_str(b->name, SYNTH_ITER_NAME_MAX, name);
	}
	if (mm && vma->vm_start < mm->brk && vma->vm_end > mm->start_brk) {
		__builtin_memcpy(b->name, "[heap]", sizeof("[heap]"));
		return sizeof("[heap]");
	}
	if (mm && vma->vm_start <= mm->start_stack && vma->vm_end >= mm->start_stack) {
		__builtin_memcpy(b->name, "[stack]", sizeof("[stack]"));
		return sizeof("[stack]");
	}
	if (bpf_core_field_exists(vma->anon_name)) {
		an = vma->anon_name;
		if (an) {
			b->vma.name_kind = SYNTH_ITER_NAME_ANON;
			return bpf_probe_read_kernel_str(b->name, SYNTH_ITER_NAME_MAX, an->name);
		}
	}
	b->vma.name_kind = SYNTH_ITER_NAME_NONE;
	return 0;
}

/* Where a walk of a path is */
struct walk {
	struct dentry___si	*dentry;
	struct vfsmount___si	*vfsmnt;
	struct dentry___si	*root;
	void			*root_mnt;
	__u32			pos;	/* bytes of names written */
	int			done;	/* 1: at the root, -1: cannot */
};

/*
 * One step of a walk up a path as d_path() walks it: the name of a
 * dentry written and its parent next, or a mount crossed
 */
static long walk_step(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	struct dentry___si *dentry = w->dentry, *parent;
	struct vfsmount___si *vfsmnt = w->vfsmnt;
	struct synth_iter_vma_buf *b;
	struct mount___si *mnt, *up;
	__u32 zero = 0;
	long len;

	if (dentry == w->root && (void *)vfsmnt == w->root_mnt) {
		w->done = 1;
		return 1;
	}
	parent = BPF_CORE_READ(dentry, d_parent);
	if (dentry == BPF_CORE_READ(vfsmnt, mnt_root)) {
		mnt = (void *)vfsmnt - bpf_core_field_offset(struct mount___si, mnt);
		up = BPF_CORE_READ(mnt, mnt_parent);
		if (up == mnt) {
			w->done = 1;	/* the root of its namespace */
			return 1;
		}
		w->dentry = BPF_CORE_READ(mnt, mnt_mountpoint);
		w->vfsmnt = &up->mnt;
		return 0;
	}
	b = bpf_map_lookup_elem(&vma_buf, &zero);
	if (!b || dentry == parent || w->pos > SYNTH_ITER_NAME_MAX - NAME_LEN) {
		w->done = -1;
		return 1;
	}
	len = bpf_probe_read_kernel_str(&b->name[w->pos & (SYNTH_ITER_NAME_MAX - 1)],
					NAME_LEN, BPF_CORE_READ(dentry, d_name.name));
	if (len < 1) {
		w->done = -1;
		return 1;
	}
	w->pos += len;
	w->dentry = parent;
	return 0;
}

/*
 * The path @dentry in @vfsmnt as the names of its components from the
 * file up to perf's root, each with its NUL, for d_path()'s path that
 * perf makes of them: for kernels whose verifier lets no VMA's file reach
 * bpf_d_path(), and for the overlay's paths of backing files.  The
 * dentries and mounts are walked as d_path() walks them; -1 for a name it
 * cannot be sure to make alike, for which the maps are read from /proc.
 */
static long walk_path(struct dentry___si *dentry, struct vfsmount___si *vfsmnt,
		      struct synth_iter_vma_buf *b)
{
	struct task_struct___si *current = (void *)bpf_get_current_task();
	struct dentry___si *parent = BPF_CORE_READ(dentry, d_parent);
	struct walk w = {
		.dentry		= dentry,
		.vfsmnt		= vfsmnt,
		.root		= BPF_CORE_READ(current, fs, root.dentry),
		.root_mnt	= BPF_CORE_READ(current, fs, root.mnt),
	};

	/*
	 * Names a file system makes up: anon_inode's, and simple_dname()'s
	 * of the files of shmem and hugetlbfs that no mount shows (memfd,
	 * shared anonymous memory); not the others'
	 */
	if (BPF_CORE_READ(dentry, d_op, d_dname) &&
	    (dentry != parent || dentry != BPF_CORE_READ(vfsmnt, mnt_root))) {
		unsigned long magic = BPF_CORE_READ(dentry, d_sb, s_magic);

		if (magic == ANON_INODE_FS_MAGIC)
			b->vma.name_kind = SYNTH_ITER_NAME_ANON_INODE;
		else if (magic == TMPFS_MAGIC || magic == HUGETLBFS_MAGIC)
			b->vma.name_kind = SYNTH_ITER_NAME_PARTS_DELETED;
		else
			return -1;
		return bpf_probe_read_kernel_str(b->name, NAME_LEN,
						 BPF_CORE_READ(dentry, d_name.name));
	}
	b->vma.name_kind = SYNTH_ITER_NAME_PARTS;
	if (dentry != parent && !BPF_CORE_READ(dentry, d_hash.pprev))
		b->vma.name_kind = SYNTH_ITER_NAME_PARTS_DELETED;
	bpf_loop(PATH_STEPS, walk_step, &w, 0);
	return w.done == 1 ? w.pos : -1;
}

/* The name of a mapping of a file */
static __always_inline long file_name(struct vm_area_struct___si *vma,
				      struct file___si *file,
				      struct synth_iter_vma_buf *b, bool walk)
{
	struct anon_vma_name___si *an = NULL;

	if (bpf_core_field_exists(vma->anon_name))
		an = vma->anon_name;
	if (an) {
		b->vma.name_kind = SYNTH_ITER_NAME_ANON_SHMEM;
		return bpf_probe_read_kernel_str(b->name, SYNTH_ITER_NAME_MAX, an->name);
	}
	if (walk)
		return walk_path(BPF_CORE_READ(file, f_path.dentry),
				 BPF_CORE_READ(file, f_path.mnt), b);
	b->vma.name_kind = SYNTH_ITER_NAME_PATH;
	return bpf_d_path((struct path *)&file->f_path, b->name, SYNTH_ITER_NAME_MAX);
}

/*
 * The overlay's path of backing file @file, which /proc prints, as
 * file_user_path() gives it; NULL where the kernel has no such type or
 * field (a field of a type the kernel lacks does not exist either)
 */
static __always_inline struct path___si *user_path(struct file___si *file)
{
	if (!bpf_core_field_exists(struct backing_file___si, user_path))
		return NULL;
	return (void *)file + bpf_core_field_offset(struct backing_file___si, user_path);
}

/*
 * The inode, its device and the name of a mapping of backing file @file
 * as /proc prints them: those of the overlay's path; -1 for a name to
 * read from /proc
 */
static __always_inline long backing_name(struct file___si *file,
					 struct synth_iter_vma_buf *b)
{
	struct path___si *path = user_path(file);
	struct dentry___si *dentry;
	struct inode___si *inode;

	if (!path)
		return -1;
	dentry = BPF_CORE_READ(path, dentry);
	inode = BPF_CORE_READ(dentry, d_inode);
	if (!inode)
		return -1;
	b->vma.ino = BPF_CORE_READ(inode, i_ino);
	b->vma.dev = BPF_CORE_READ(inode, i_sb, s_dev);
	return walk_path(dentry, BPF_CORE_READ(path, mnt), b);
}

/* The record of mapping @vma of process @task, written to @seq */
static __always_inline void write_vma(struct seq_file *seq,
				      struct task_struct___si *task,
				      struct vm_area_struct___si *vma, bool walk)
{
	struct synth_iter_vma_buf *b;
	struct file___si *file;
	__u32 zero = 0;
	long len;

	if (!task || !vma || task->pid != task->tgid)
		return;
	if (exec_only && !(vma->vm_flags & SYNTH_ITER_VM_EXEC))
		return;
	b = bpf_map_lookup_elem(&vma_buf, &zero);
	if (!b)
		return;

	b->vma.start = vma->vm_start;
	b->vma.end = vma->vm_end;
	b->vma.tgid = task->tgid;
	b->vma.vm_flags = vma->vm_flags;
	file = vma->vm_file;
	if (file) {
		struct inode___si *inode = file->f_inode;

		b->vma.pgoff = vma->vm_pgoff;
		b->vma.ino = inode->i_ino;
		b->vma.dev = inode->i_sb->s_dev;
		if (file->f_mode & fmode_maybe_backing)
			len = -1;	/* from /proc: maybe the overlay's */
		else if (file->f_mode & fmode_backing)
			len = backing_name(file, b);	/* no prctl name: not shmem */
		else
			len = file_name(vma, file, b, walk);
		if (len < 0 && (walk || (file->f_mode & (fmode_backing | fmode_maybe_backing)))) {
			b->vma.name_kind = SYNTH_ITER_NAME_FROM_PROC;
			len = 0;
		}
	} else {
		b->vma.pgoff = 0;
		b->vma.ino = 0;
		b->vma.dev = 0;
		len = anon_name(vma, b);
	}
	if (len < 0) {
		/* /proc prints no name it could not make either */
		b->vma.name_kind = SYNTH_ITER_NAME_NONE;
		len = 0;
	}
	if (len > SYNTH_ITER_NAME_MAX)
		len = SYNTH_ITER_NAME_MAX;
	b->vma.name_len = len;
	bpf_seq_write(seq, b, sizeof(b->vma) + len);
}

/* The maps of a process are those of its leader, as in /proc */
SEC("iter/task_vma")
int synth_vma(struct bpf_iter__task_vma___si *ctx)
{
	write_vma(ctx->meta->seq, ctx->task, ctx->vma, false);
	return 0;
}

/* The same, the paths made by walking them instead of bpf_d_path() */
SEC("iter/task_vma")
int synth_vma_walk(struct bpf_iter__task_vma___si *ctx)
{
	write_vma(ctx->meta->seq, ctx->task, ctx->vma, true);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
