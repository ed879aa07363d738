/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Build task_diag answers byte by byte, valid or not, for the tests and
 * the fuzzer's seeds.
 */
#ifndef __LIBTASKDIAG_BUILDER_H
#define __LIBTASKDIAG_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/netlink.h>
#include <linux/task_diag.h>

struct sb {
	char	*buf;
	size_t	len;
	size_t	cap;
	size_t	msg;		/* offset of the open message */
	size_t	attr;		/* offset of the open attribute */
	__u32	seq;
};

void sb_init(struct sb *sb, __u32 seq);
void sb_free(struct sb *sb);
void sb_raw(struct sb *sb, const void *data, size_t len);
void sb_pad(struct sb *sb);
size_t sb_msg_begin(struct sb *sb, __u16 type, __u32 pid, __u32 tgid,
		    __u32 flags);
void sb_msg_end(struct sb *sb);
void sb_attr(struct sb *sb, __u16 type, const void *data, size_t len);
void sb_attr_begin(struct sb *sb, __u16 type);
void sb_attr_end(struct sb *sb);
void sb_vma(struct sb *sb, __u64 start, const char *name, bool stat);
void sb_vma_rec(struct sb *sb, const struct task_diag_vma *rec,
		const void *tail, size_t tail_len);
void sb_base(struct sb *sb, __u32 pid, __u32 tgid, const char *comm);
void sb_task(struct sb *sb, __u32 pid, __u32 tgid, int nr_vmas);
void sb_error(struct sb *sb, int err);
void sb_done(struct sb *sb);

/* The values sb_task() and sb_vma() put in */
#define SB_VMA_LEN	0x1000
#define SB_STAT(start)	((start) >> 12)
struct task_diag_vma_stat sb_vma_stat(__u64 start);

#endif /* __LIBTASKDIAG_BUILDER_H */
