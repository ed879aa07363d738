/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * task_diag: information about many tasks in one request/response
 * transaction on /proc/task-diag, in netlink message format.
 *
 * See Documentation/filesystems/task_diag.rst.  The layout below is the one
 * of the v3 series; it is extended only by appending.
 */
#ifndef _UAPI_LINUX_TASK_DIAG_H
#define _UAPI_LINUX_TASK_DIAG_H

#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/capability.h>

#define TASK_DIAG_CMD_GET 0xd101U

/* The message that describes the task is continued in the next message. */
#define TASK_DIAG_FLAG_CONT	0x00000001

struct task_diag_msg {
	__u32 pid;
	__u32 tgid;
	__u32 flags;
};

enum {
	TASK_DIAG_BASE	= 0,
	TASK_DIAG_CRED,
	TASK_DIAG_VMA,
	TASK_DIAG_VMA_STAT,
	TASK_DIAG_STAT,
	TASK_DIAG_STATM,
	TASK_DIAG_VMA_EXEC,	/* a filter of TASK_DIAG_VMA, no attribute */
	TASK_DIAG_VMA_LEADERS,	/* a filter of TASK_DIAG_VMA, no attribute */
	TASK_DIAG_VMA_BUILD_ID,	/* a part of TASK_DIAG_VMA records */
	TASK_DIAG_CMDLINE,
	TASK_DIAG_PSINFO,

	__TASK_DIAG_ATTR_MAX
#define TASK_DIAG_ATTR_MAX (__TASK_DIAG_ATTR_MAX - 1)
};

#define TASK_DIAG_SHOW_BASE	(1ULL << TASK_DIAG_BASE)
#define TASK_DIAG_SHOW_CRED	(1ULL << TASK_DIAG_CRED)
#define TASK_DIAG_SHOW_VMA	(1ULL << TASK_DIAG_VMA)
#define TASK_DIAG_SHOW_VMA_STAT	(1ULL << TASK_DIAG_VMA_STAT)
#define TASK_DIAG_SHOW_STAT	(1ULL << TASK_DIAG_STAT)
#define TASK_DIAG_SHOW_STATM	(1ULL << TASK_DIAG_STATM)
#define TASK_DIAG_SHOW_VMA_EXEC	(1ULL << TASK_DIAG_VMA_EXEC)
#define TASK_DIAG_SHOW_VMA_LEADERS (1ULL << TASK_DIAG_VMA_LEADERS)
#define TASK_DIAG_SHOW_VMA_BUILD_ID (1ULL << TASK_DIAG_VMA_BUILD_ID)
#define TASK_DIAG_SHOW_CMDLINE	(1ULL << TASK_DIAG_CMDLINE)
#define TASK_DIAG_SHOW_PSINFO	(1ULL << TASK_DIAG_PSINFO)

/* Values of task_diag_base.state, in the order of /proc/PID/stat's states */
enum {
	TASK_DIAG_RUNNING,
	TASK_DIAG_INTERRUPTIBLE,
	TASK_DIAG_UNINTERRUPTIBLE,
	TASK_DIAG_STOPPED,
	TASK_DIAG_TRACE_STOP,
	TASK_DIAG_DEAD,
	TASK_DIAG_ZOMBIE,
	TASK_DIAG_PARKED,
	TASK_DIAG_IDLE,
};

#define TASK_DIAG_COMM_LEN 16

struct task_diag_base {
	__u32	tgid;
	__u32	pid;
	__u32	ppid;
	__u32	tpid;
	__u32	sid;
	__u32	pgid;
	__u8	state;
	char	comm[TASK_DIAG_COMM_LEN];
};

/* A capability set: cap[0] holds capabilities 0..31, cap[1] 32..63 */
struct task_diag_caps {
	__u32 cap[_LINUX_CAPABILITY_U32S_3];
};

struct task_diag_creds {
	struct task_diag_caps cap_inheritable;
	struct task_diag_caps cap_permitted;
	struct task_diag_caps cap_effective;
	struct task_diag_caps cap_bset;

	__u32 uid;
	__u32 euid;
	__u32 suid;
	__u32 fsuid;
	__u32 gid;
	__u32 egid;
	__u32 sgid;
	__u32 fsgid;
};

#define TASK_DIAG_VMA_F_READ		(1ULL <<  0)
#define TASK_DIAG_VMA_F_WRITE		(1ULL <<  1)
#define TASK_DIAG_VMA_F_EXEC		(1ULL <<  2)
#define TASK_DIAG_VMA_F_SHARED		(1ULL <<  3)
#define TASK_DIAG_VMA_F_MAYREAD		(1ULL <<  4)
#define TASK_DIAG_VMA_F_MAYWRITE	(1ULL <<  5)
#define TASK_DIAG_VMA_F_MAYEXEC		(1ULL <<  6)
#define TASK_DIAG_VMA_F_MAYSHARE	(1ULL <<  7)
#define TASK_DIAG_VMA_F_GROWSDOWN	(1ULL <<  8)
#define TASK_DIAG_VMA_F_PFNMAP		(1ULL <<  9)
#define TASK_DIAG_VMA_F_DENYWRITE	(1ULL << 10)	/* never set since 5.15 */
#define TASK_DIAG_VMA_F_MPX		(1ULL << 11)	/* never set since 5.6 */
#define TASK_DIAG_VMA_F_LOCKED		(1ULL << 12)
#define TASK_DIAG_VMA_F_IO		(1ULL << 13)
#define TASK_DIAG_VMA_F_SEQ_READ	(1ULL << 14)
#define TASK_DIAG_VMA_F_RAND_READ	(1ULL << 15)
#define TASK_DIAG_VMA_F_DONTCOPY	(1ULL << 16)
#define TASK_DIAG_VMA_F_DONTEXPAND	(1ULL << 17)
#define TASK_DIAG_VMA_F_ACCOUNT		(1ULL << 18)
#define TASK_DIAG_VMA_F_NORESERVE	(1ULL << 19)
#define TASK_DIAG_VMA_F_HUGETLB		(1ULL << 20)
#define TASK_DIAG_VMA_F_ARCH_1		(1ULL << 21)
#define TASK_DIAG_VMA_F_DONTDUMP	(1ULL << 22)
#define TASK_DIAG_VMA_F_SOFTDIRTY	(1ULL << 23)
#define TASK_DIAG_VMA_F_MIXEDMAP	(1ULL << 24)
#define TASK_DIAG_VMA_F_HUGEPAGE	(1ULL << 25)
#define TASK_DIAG_VMA_F_NOHUGEPAGE	(1ULL << 26)
#define TASK_DIAG_VMA_F_MERGEABLE	(1ULL << 27)
#define TASK_DIAG_VMA_F_WIPEONFORK	(1ULL << 28)
#define TASK_DIAG_VMA_F_LOCKONFAULT	(1ULL << 29)
/* the name is longer than a record may carry: name_len is 0 */
#define TASK_DIAG_VMA_F_NAME_TOOLONG	(1ULL << 30)

/* Sizes in bytes; pss is shifted left by 12 bits, as in fs/proc/task_mmu.c */
struct task_diag_vma_stat {
	__u64 resident;
	__u64 shared_clean;
	__u64 shared_dirty;
	__u64 private_clean;
	__u64 private_dirty;
	__u64 referenced;
	__u64 anonymous;
	__u64 anonymous_thp;
	__u64 swap;
	__u64 pss;
} __attribute__((__aligned__(NLA_ALIGNTO)));

/* The largest build ID a record carries (SHA-1) */
#define TASK_DIAG_BUILD_ID_MAX	20

/*
 * One record of the TASK_DIAG_VMA attribute, which holds a series of them.
 * task_diag_vma must be NLA_ALIGN'ed; name, stat and build ID are found at
 * name_off, stat_off and build_id_off from the start of the record, inside
 * its vma_len bytes.  The fixed fields of records of kernels before
 * build_id_off are TASK_DIAG_VMA_SIZE_VER0 bytes long.
 */
struct task_diag_vma {
	__u64 start, end;
	__u64 vm_flags;
	__u64 pgoff;
	__u32 major;
	__u32 minor;
	__u64 inode;
	__u32 generation;
	__u16 vma_len;
	__u16 name_off;
	__u16 name_len;
	__u16 stat_off;
	__u16 stat_len;
	__u16 build_id_len;	/* was tail padding: 0 from older kernels */
	__u16 build_id_off;
	__u16 __reserved1;	/* zero */
	__u32 __reserved2;	/* zero */
} __attribute__((__aligned__(NLA_ALIGNTO)));

#define TASK_DIAG_VMA_SIZE_VER0	64

static inline char *task_diag_vma_name(struct task_diag_vma *vma)
{
	if (!vma->name_len)
		return 0;

	return ((char *)vma) + vma->name_off;
}

static inline
struct task_diag_vma_stat *task_diag_vma_stat(struct task_diag_vma *vma)
{
	if (!vma->stat_len)
		return 0;

	return (struct task_diag_vma_stat *)(((char *)vma) + vma->stat_off);
}

/* Only for a record of a request with TASK_DIAG_SHOW_VMA_BUILD_ID */
static inline __u8 *task_diag_vma_build_id(struct task_diag_vma *vma)
{
	if (!vma->build_id_len)
		return 0;

	return ((__u8 *)vma) + vma->build_id_off;
}

#define task_diag_for_each_vma(vma, attr)				\
	for (vma = (void *)nla_data(attr);				\
	     (char *)vma < (char *)nla_data(attr) + nla_len(attr);	\
	     vma = (void *)((char *)vma + vma->vma_len))

/* Times in clock ticks (USER_HZ), as in /proc/PID/stat */
struct task_diag_stat {
	__u64 minflt;
	__u64 cminflt;
	__u64 majflt;
	__u64 cmajflt;
	__u64 utime;
	__u64 stime;
	__u64 cutime;
	__u64 cstime;

	__u32 threads;
	__u32 __reserved;	/* zero; the same layout on 32-bit and 64-bit */
};

/* Sizes in pages, but ptes (page-table bytes, pmds included) and pmds (0) */
struct task_diag_statm {
	__u64 anon;
	__u64 file;
	__u64 shmem;
	__u64 total_vm;
	__u64 total_rss;
	__u64 hiwater_vm;
	__u64 hiwater_rss;
	__u64 text;		/* VmExe: the code segment mapped executable */
	__u64 lib;		/* VmLib: the rest of what is executable */
	__u64 swap;
	__u64 ptes;
	__u64 pmds;
	__u64 locked_vm;
	__u64 pinned_vm;
	__u64 data_vm;
	__u64 stack_vm;
};

/* The longest name of a task, NUL included: kernel threads' are long */
#define TASK_DIAG_NAME_LEN	64

/* The rest of what /proc/PID/stat has for ps; times in clock ticks (USER_HZ) */
struct task_diag_psinfo {
	__u64 start_time;	/* after boot, in the reader's time namespace */
	__u32 flags;		/* PF_* */
	__u32 tty_nr;		/* the controlling terminal, 0 for none */
	__s32 tpgid;		/* its foreground process group, -1 for none */
	__s32 priority;
	__s32 nice;
	__u32 rt_priority;
	__u32 policy;
	__u32 processor;	/* the CPU it last ran on */
	/* the name in /proc/PID/stat, comm or longer (kworker/u8:2-events) */
	char name[TASK_DIAG_NAME_LEN];
};

/* system wide strategies (the pid field is ignored) */
#define TASK_DIAG_DUMP_ALL		0
#define TASK_DIAG_DUMP_ALL_THREAD	2
/* per-process strategies */
#define TASK_DIAG_DUMP_ONE		1
#define TASK_DIAG_DUMP_CHILDREN		3
#define TASK_DIAG_DUMP_THREAD		4

/* The request: the payload of the one netlink message written to the file */
struct task_diag_pid {
	__u64	show_flags;
	__u64	dump_strategy;

	__u32	pid;
	__u32	__reserved;	/* ignored: v3 callers left it uninitialised */
};

/* The first size of struct task_diag_pid, without tail padding (i386) */
#define TASK_DIAG_PID_SIZE_VER0	20

enum {
	TASK_DIAG_CMD_ATTR_UNSPEC = 0,
	TASK_DIAG_CMD_ATTR_GET,
	__TASK_DIAG_CMD_ATTR_MAX,
};

#define TASK_DIAG_CMD_ATTR_MAX (__TASK_DIAG_CMD_ATTR_MAX - 1)

#endif /* _UAPI_LINUX_TASK_DIAG_H */
