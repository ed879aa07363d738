// SPDX-License-Identifier: GPL-2.0
/*
 * Walk and print task_diag messages (the example client of the original
 * series, ported to the v3 interface and libnl-3, bounds-checked).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <sys/types.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <linux/task_diag.h>
#include "task_diag_comm.h"

int quiet;

#define PSS_SHIFT 12

int nlmsg_receive(void *buf, int len,
		  int (*cb)(struct nlmsghdr *, void *), void *args)
{
	struct nlmsghdr *hdr;

	for (hdr = (struct nlmsghdr *)buf; NLMSG_OK(hdr, len);
	     hdr = NLMSG_NEXT(hdr, len)) {
		if (hdr->nlmsg_type == NLMSG_DONE) {
			int *err = (int *)NLMSG_DATA(hdr);

			if (hdr->nlmsg_len >= NLMSG_LENGTH(sizeof(*err)) &&
			    *err < 0) {
				pr_err("ERROR %d reported by netlink (%s)",
				       *err, strerror(-*err));
				return *err;
			}
			return 0;
		}

		if (hdr->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *err = (struct nlmsgerr *)NLMSG_DATA(hdr);

			if (hdr->nlmsg_len < NLMSG_LENGTH(sizeof(*err))) {
				pr_err("ERROR truncated");
				return -1;
			}
			return err->error ? -1 : 0;
		}
		if (cb && cb(hdr, args))
			return -1;
	}
	if (len) {
		pr_err("%d bytes of a truncated message", len);
		return -1;
	}

	return 1;
}

static void show_base(struct nlattr *na)
{
	struct task_diag_base base;

	if (nla_len(na) < (int)sizeof(base)) {
		pr_err("short TASK_DIAG_BASE");
		return;
	}
	memcpy(&base, nla_data(na), sizeof(base));
	base.comm[sizeof(base.comm) - 1] = '\0';
	pr_info("pid %5d tgid %5d ppid %5d sid %5d pgid %5d comm %s\n",
		base.pid, base.tgid, base.ppid, base.sid, base.pgid, base.comm);
}

static void show_creds(struct nlattr *na)
{
	struct task_diag_creds creds;

	if (nla_len(na) < (int)sizeof(creds)) {
		pr_err("short TASK_DIAG_CRED");
		return;
	}
	memcpy(&creds, nla_data(na), sizeof(creds));
	pr_info("uid: %d %d %d %d\n", creds.uid, creds.euid, creds.suid,
		creds.fsuid);
	pr_info("gid: %d %d %d %d\n", creds.gid, creds.egid, creds.sgid,
		creds.fsgid);
	pr_info("CapInh: %08x%08x\n", creds.cap_inheritable.cap[1],
		creds.cap_inheritable.cap[0]);
	pr_info("CapPrm: %08x%08x\n", creds.cap_permitted.cap[1],
		creds.cap_permitted.cap[0]);
	pr_info("CapEff: %08x%08x\n", creds.cap_effective.cap[1],
		creds.cap_effective.cap[0]);
	pr_info("CapBnd: %08x%08x\n", creds.cap_bset.cap[1],
		creds.cap_bset.cap[0]);
}

static void show_vma_stat(struct task_diag_vma *vma,
			  struct task_diag_vma_stat *stat)
{
	pr_info("Size:           %8llu kB\n"
		"Rss:            %8llu kB\n"
		"Pss:            %8llu kB\n"
		"Shared_Clean:   %8llu kB\n"
		"Shared_Dirty:   %8llu kB\n"
		"Private_Clean:  %8llu kB\n"
		"Private_Dirty:  %8llu kB\n"
		"Referenced:     %8llu kB\n"
		"Anonymous:      %8llu kB\n"
		"AnonHugePages:  %8llu kB\n"
		"Swap:           %8llu kB\n",
		(unsigned long long)(vma->end - vma->start) >> 10,
		(unsigned long long)stat->resident >> 10,
		(unsigned long long)stat->pss >> (10 + PSS_SHIFT),
		(unsigned long long)stat->shared_clean >> 10,
		(unsigned long long)stat->shared_dirty >> 10,
		(unsigned long long)stat->private_clean >> 10,
		(unsigned long long)stat->private_dirty >> 10,
		(unsigned long long)stat->referenced >> 10,
		(unsigned long long)stat->anonymous >> 10,
		(unsigned long long)stat->anonymous_thp >> 10,
		(unsigned long long)stat->swap >> 10);
}

/* One record: copied out, as it is only 4-byte aligned in the message */
static int show_vma(char *rec, int left)
{
	struct task_diag_vma_stat stat;
	struct task_diag_vma vma;
	const char *name = "";

	if (left < (int)sizeof(vma))
		return -1;
	memcpy(&vma, rec, sizeof(vma));
	if (vma.vma_len < sizeof(vma) || vma.vma_len > left)
		return -1;
	if (vma.name_len && vma.name_off + vma.name_len <= vma.vma_len &&
	    rec[vma.name_off + vma.name_len - 1] == '\0')
		name = rec + vma.name_off;
	pr_info("%016llx-%016llx %016llx %s\n",
		(unsigned long long)vma.start, (unsigned long long)vma.end,
		(unsigned long long)vma.vm_flags, name);

	memset(&stat, 0, sizeof(stat));
	if (vma.stat_len >= sizeof(stat) &&
	    vma.stat_off + sizeof(stat) <= vma.vma_len)
		memcpy(&stat, rec + vma.stat_off, sizeof(stat));
	show_vma_stat(&vma, &stat);
	return vma.vma_len;
}

static void show_vmas(struct nlattr *na)
{
	char *rec = nla_data(na);
	int left = nla_len(na), len;

	while (left > 0) {
		len = show_vma(rec, left);
		if (len < 0) {
			pr_err("malformed TASK_DIAG_VMA record");
			return;
		}
		rec += len;
		left -= len;
	}
}

int show_task(struct nlmsghdr *hdr, void *arg)
{
	struct task_diag_msg *diag_msg;
	int *last_pid = arg;
	struct nlattr *na;
	int len;

	if (hdr->nlmsg_len < NLMSG_LENGTH(NLMSG_ALIGN(sizeof(*diag_msg)))) {
		pr_err("short message");
		return -1;
	}
	diag_msg = NLMSG_DATA(hdr);

	if ((int)diag_msg->pid != *last_pid)
		pr_info("Start getting information about %d\n", diag_msg->pid);
	else
		pr_info("Continue getting information about %d\n",
			diag_msg->pid);
	/* only a continued description goes on in the next message */
	*last_pid = diag_msg->flags & TASK_DIAG_FLAG_CONT ? diag_msg->pid : 0;

	na = (struct nlattr *)((char *)diag_msg +
			       NLMSG_ALIGN(sizeof(*diag_msg)));
	len = NLMSG_PAYLOAD(hdr, NLMSG_ALIGN(sizeof(*diag_msg)));
	for (; nla_ok(na, len); na = nla_next(na, &len)) {
		switch (nla_type(na)) {
		case TASK_DIAG_BASE:
			show_base(na);
			break;
		case TASK_DIAG_CRED:
			show_creds(na);
			break;
		case TASK_DIAG_VMA:
			show_vmas(na);
			break;
		default:
			pr_info("Unknown nla_type %d\n", nla_type(na));
		}
	}
	if (len > 0) {
		pr_err("%d bytes of a truncated attribute", len);
		return -1;
	}

	return 0;
}
