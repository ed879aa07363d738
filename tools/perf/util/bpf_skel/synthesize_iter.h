/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The records the task and task_vma iterators of synthesize_iter.bpf.c
 * write for perf's synthesis of existing tasks (synthetic-bpf-iter.c).
 */
#ifndef __PERF_BPF_SKEL_SYNTHESIZE_ITER_H
#define __PERF_BPF_SKEL_SYNTHESIZE_ITER_H

#define SYNTH_ITER_COMM_LEN	16
/* enough of a workqueue worker's description for a comm */
#define SYNTH_ITER_DESC_LEN	16
#define SYNTH_ITER_NAME_MAX	4096

/* synth_iter_task.flags */
#define SYNTH_ITER_WQ_WORKER	0x1U	/* desc is its last work */
#define SYNTH_ITER_WQ_RUNNING	0x2U	/* and it runs it now */

/* One per task, in the order of its tid */
struct synth_iter_task {
	__u32	tid;
	__u32	tgid;
	__u32	ppid;		/* as /proc/PID/status shows it */
	__u32	flags;
	char	comm[SYNTH_ITER_COMM_LEN];
	char	desc[SYNTH_ITER_DESC_LEN];
};

/* How the name of a mapping is printed in /proc/PID/maps */
enum synth_iter_name {
	SYNTH_ITER_NAME_NONE,		/* no name */
	SYNTH_ITER_NAME_PATH,		/* a file's path, its newlines to escape */
	SYNTH_ITER_NAME_PLAIN,		/* as it is: [heap], [vdso]... */
	SYNTH_ITER_NAME_ANON,		/* [anon:%s] */
	SYNTH_ITER_NAME_ANON_SHMEM,	/* [anon_shmem:%s] */
	SYNTH_ITER_NAME_ANON_INODE,	/* anon_inode:%s */
	SYNTH_ITER_NAME_PARTS,		/* a path as its names, the file's first */
	SYNTH_ITER_NAME_PARTS_DELETED,	/* the same, " (deleted)" after it */
	SYNTH_ITER_NAME_FROM_PROC,	/* a name not made: the maps from /proc */
};

/* The vm_flags bits of the kernel that perf uses */
#define SYNTH_ITER_VM_READ	0x00000001U
#define SYNTH_ITER_VM_WRITE	0x00000002U
#define SYNTH_ITER_VM_EXEC	0x00000004U
#define SYNTH_ITER_VM_MAYSHARE	0x00000080U

/*
 * One per mapping of each process, all those of a process in a row, the
 * processes in the order of their tgid; followed by name_len bytes of the
 * name, its NUL included
 */
struct synth_iter_vma {
	__u64	start;
	__u64	end;
	__u64	pgoff;		/* in pages */
	__u64	ino;
	__u32	tgid;
	__u32	dev;		/* the kernel's dev_t: major << 20 | minor */
	__u32	vm_flags;
	__u16	name_kind;	/* enum synth_iter_name */
	__u16	name_len;
};

#endif /* __PERF_BPF_SKEL_SYNTHESIZE_ITER_H */
