// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A builder of task_diag answers for the tests.  It lays messages out as
 * the kernel does (NLMSG_ALIGN'ed headers, NLA_ALIGN'ed attributes, VMA
 * records with their stat then their name) unless told otherwise.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"

void sb_init(struct sb *sb, __u32 seq)
{
	memset(sb, 0, sizeof(*sb));
	sb->seq = seq;
}

void sb_free(struct sb *sb)
{
	free(sb->buf);
	memset(sb, 0, sizeof(*sb));
}

void sb_raw(struct sb *sb, const void *data, size_t len)
{
	if (sb->len + len > sb->cap) {
		sb->cap = (sb->len + len) * 2 + 256;
		sb->buf = realloc(sb->buf, sb->cap);
		if (!sb->buf)
			abort();
	}
	if (data)
		memcpy(sb->buf + sb->len, data, len);
	else
		memset(sb->buf + sb->len, 0, len);
	sb->len += len;
}

/* Zeroes up to the next multiple of 4 */
void sb_pad(struct sb *sb)
{
	sb_raw(sb, NULL, NLMSG_ALIGN(sb->len) - sb->len);
}

size_t sb_msg_begin(struct sb *sb, __u16 type, __u32 pid, __u32 tgid,
		    __u32 flags)
{
	struct nlmsghdr nlh = {
		.nlmsg_type	= type,
		.nlmsg_flags	= NLM_F_MULTI,
		.nlmsg_seq	= sb->seq,
	};
	struct task_diag_msg msg = { .pid = pid, .tgid = tgid, .flags = flags };

	sb->msg = sb->len;
	sb_raw(sb, &nlh, sizeof(nlh));
	if (type == TASK_DIAG_CMD_GET) {
		sb_raw(sb, &msg, sizeof(msg));
		sb_pad(sb);
	}
	return sb->msg;
}

void sb_msg_end(struct sb *sb)
{
	__u32 len = sb->len - sb->msg;

	memcpy(sb->buf + sb->msg, &len, sizeof(len));
	sb_pad(sb);
}

void sb_attr(struct sb *sb, __u16 type, const void *data, size_t len)
{
	sb_attr_begin(sb, type);
	sb_raw(sb, data, len);
	sb_attr_end(sb);
}

void sb_attr_begin(struct sb *sb, __u16 type)
{
	struct nlattr nla = { .nla_type = type };

	sb->attr = sb->len;
	sb_raw(sb, &nla, sizeof(nla));
}

void sb_attr_end(struct sb *sb)
{
	__u16 len = sb->len - sb->attr;

	memcpy(sb->buf + sb->attr, &len, sizeof(len));
	sb_pad(sb);
}

struct task_diag_vma_stat sb_vma_stat(__u64 start)
{
	__u64 v = SB_STAT(start);
	struct task_diag_vma_stat s = {
		.resident = v, .shared_clean = v + 1, .shared_dirty = v + 2,
		.private_clean = v + 3, .private_dirty = v + 4,
		.referenced = v + 5, .anonymous = v + 6, .anonymous_thp = v + 7,
		.swap = v + 8, .pss = v + 9,
	};
	return s;
}

/* A record and what follows its fixed fields, as given */
void sb_vma_rec(struct sb *sb, const struct task_diag_vma *rec,
		const void *tail, size_t tail_len)
{
	sb_raw(sb, rec, sizeof(*rec));
	sb_raw(sb, tail, tail_len);
}

/* A well-formed record at @start, SB_VMA_LEN long, laid out as the kernel */
void sb_vma(struct sb *sb, __u64 start, const char *name, bool stat)
{
	struct task_diag_vma_stat st = sb_vma_stat(start);
	size_t name_len = name ? strlen(name) + 1 : 0;
	struct task_diag_vma rec = {
		.start = start, .end = start + SB_VMA_LEN,
		.vm_flags = TASK_DIAG_VMA_F_READ | TASK_DIAG_VMA_F_MAYREAD,
		.pgoff = start >> 4, .major = 8, .minor = 1, .inode = start >> 12,
		.generation = 7,
	};
	size_t off = sizeof(rec);

	if (stat) {
		rec.stat_off = off;
		rec.stat_len = sizeof(st);
		off += sizeof(st);
	}
	if (name) {
		rec.name_off = off;
		rec.name_len = name_len;
		off += NLA_ALIGN(name_len);
	}
	rec.vma_len = off;
	sb_raw(sb, &rec, sizeof(rec));
	if (stat)
		sb_raw(sb, &st, sizeof(st));
	if (name) {
		sb_raw(sb, name, name_len);
		sb_raw(sb, NULL, NLA_ALIGN(name_len) - name_len);
	}
}

void sb_base(struct sb *sb, __u32 pid, __u32 tgid, const char *comm)
{
	struct task_diag_base b = {
		.tgid = tgid, .pid = pid, .ppid = 1, .tpid = 0, .sid = tgid,
		.pgid = tgid, .state = TASK_DIAG_INTERRUPTIBLE,
	};

	snprintf(b.comm, sizeof(b.comm), "%s", comm);
	sb_attr(sb, TASK_DIAG_BASE, &b, sizeof(b));
}

/*
 * A whole task in one message: every group, values derived from @pid, and
 * @nr_vmas VMAs at pid << 20 (names "/vma/N", stats).
 */
void sb_task(struct sb *sb, __u32 pid, __u32 tgid, int nr_vmas)
{
	struct task_diag_creds c = { .uid = pid, .euid = pid + 1, .gid = 3 };
	struct task_diag_stat st = { .minflt = pid, .threads = 1 };
	struct task_diag_statm sm = { .total_vm = pid, .stack_vm = 2 };
	char name[32];
	int i;

	c.cap_effective.cap[0] = 0xffffffff;
	c.cap_effective.cap[1] = 0x1ff;
	sb_msg_begin(sb, TASK_DIAG_CMD_GET, pid, tgid, 0);
	sb_base(sb, pid, tgid, "task");
	sb_attr(sb, TASK_DIAG_CRED, &c, sizeof(c));
	if (nr_vmas) {
		sb_attr_begin(sb, TASK_DIAG_VMA);
		for (i = 0; i < nr_vmas; i++) {
			snprintf(name, sizeof(name), "/vma/%d", i);
			sb_vma(sb, ((__u64)pid << 20) + i * SB_VMA_LEN,
			       i % 3 ? name : NULL, true);
		}
		sb_attr_end(sb);
	}
	sb_attr(sb, TASK_DIAG_STAT, &st, sizeof(st));
	sb_attr(sb, TASK_DIAG_STATM, &sm, sizeof(sm));
	sb_msg_end(sb);
}

void sb_error(struct sb *sb, int err)
{
	struct nlmsghdr orig = { 0 };

	sb_msg_begin(sb, NLMSG_ERROR, 0, 0, 0);
	sb_raw(sb, &err, sizeof(err));
	sb_raw(sb, &orig, sizeof(orig));
	sb_msg_end(sb);
}

void sb_done(struct sb *sb)
{
	int zero = 0;

	sb_msg_begin(sb, NLMSG_DONE, 0, 0, 0);
	sb_raw(sb, &zero, sizeof(zero));
	sb_msg_end(sb);
}
