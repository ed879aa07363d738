// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag records against /proc/PID/{stat,status,statm,cmdline,maps,smaps}.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "td_compare.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

void diff_add(struct td_diff *df, const char *fmt, ...)
{
	va_list ap;

	if (df->n++)
		return;
	va_start(ap, fmt);
	vsnprintf(df->why, sizeof(df->why), fmt, ap);
	va_end(ap);
}

static void diff_ull(struct td_diff *df, pid_t pid, const char *what,
		     unsigned long long diag, unsigned long long proc)
{
	if (diag != proc)
		diff_add(df, "pid %d: %s: task_diag %llu, /proc %llu", pid,
			 what, diag, proc);
}

/* comm is NUL-terminated, NUL-padded to TASK_DIAG_COMM_LEN, and @want */
static void comm_diff(const char *comm, const char *want, pid_t pid,
		      struct td_diff *df)
{
	size_t n = strnlen(comm, TASK_DIAG_COMM_LEN), i;

	if (n == TASK_DIAG_COMM_LEN) {
		diff_add(df, "pid %d: comm not NUL-terminated", pid);
		return;
	}
	for (i = n; i < TASK_DIAG_COMM_LEN; i++)
		if (comm[i])
			diff_add(df, "pid %d: comm not NUL-padded", pid);
	if (strcmp(comm, want))
		diff_add(df, "pid %d: comm \"%s\", /proc \"%s\"", pid, comm,
			 want);
}

/* BASE of @t against /proc/@pid[/task/@tid]/stat and status */
void base_diff(const struct td_task *t, pid_t pid, pid_t tid,
	       struct td_diff *df)
{
	const struct task_diag_base *b = &t->base;
	pid_t id = tid ? tid : pid;
	char tgid[32], tpid[32];
	struct proc_stat st;

	if (!(t->groups & TASK_DIAG_SHOW_BASE)) {
		diff_add(df, "pid %d: no TASK_DIAG_BASE", id);
		return;
	}
	if (proc_read_stat(pid, tid, &st) ||
	    proc_status_str(pid, tid, "Tgid", tgid, sizeof(tgid)) ||
	    proc_status_str(pid, tid, "TracerPid", tpid, sizeof(tpid))) {
		diff_add(df, "pid %d: cannot read /proc: %m", id);
		return;
	}
	diff_ull(df, id, "pid", b->pid, st.pid);
	diff_ull(df, id, "message pid", t->pid, st.pid);
	diff_ull(df, id, "tgid", b->tgid, strtoull(tgid, NULL, 10));
	diff_ull(df, id, "message tgid", t->tgid, strtoull(tgid, NULL, 10));
	diff_ull(df, id, "ppid", b->ppid, st.ppid);
	diff_ull(df, id, "tpid", b->tpid, strtoull(tpid, NULL, 10));
	diff_ull(df, id, "sid", b->sid, st.session);
	diff_ull(df, id, "pgid", b->pgid, st.pgrp);
	if (b->state != state_index(st.state))
		diff_add(df, "pid %d: state %u, /proc '%c'", id, b->state,
			 st.state);
	comm_diff(b->comm, st.comm, id, df);
}

static void ids_diff(const char *key, const __u32 *diag, pid_t pid,
		     struct td_diff *df)
{
	unsigned int ids[4];
	char what[16];
	int i;

	if (proc_status_ids(pid, key, ids)) {
		diff_add(df, "pid %d: no %s: in status", pid, key);
		return;
	}
	for (i = 0; i < 4; i++) {
		snprintf(what, sizeof(what), "%s[%d]", key, i);
		diff_ull(df, pid, what, diag[i], ids[i]);
	}
}

static void caps_diff(const char *key, const struct task_diag_caps *caps,
		      pid_t pid, struct td_diff *df)
{
	unsigned long long val, diag = (unsigned long long)caps->cap[1] << 32 | caps->cap[0];

	if (proc_status_ull(pid, key, 16, &val)) {
		diff_add(df, "pid %d: no %s: in status", pid, key);
		return;
	}
	if (diag != val)
		diff_add(df, "pid %d: %s: task_diag %08x%08x, /proc %016llx",
			 pid, key, caps->cap[1], caps->cap[0], val);
}

/* CRED of @t against the Uid:, Gid: and Cap*: lines of /proc/@pid/status */
void creds_diff(const struct td_task *t, pid_t pid, struct td_diff *df)
{
	const struct task_diag_creds *c = &t->creds;
	__u32 uids[4] = { c->uid, c->euid, c->suid, c->fsuid };
	__u32 gids[4] = { c->gid, c->egid, c->sgid, c->fsgid };

	if (!(t->groups & TASK_DIAG_SHOW_CRED)) {
		diff_add(df, "pid %d: no TASK_DIAG_CRED", pid);
		return;
	}
	ids_diff("Uid", uids, pid, df);
	ids_diff("Gid", gids, pid, df);
	caps_diff("CapInh", &c->cap_inheritable, pid, df);
	caps_diff("CapPrm", &c->cap_permitted, pid, df);
	caps_diff("CapEff", &c->cap_effective, pid, df);
	caps_diff("CapBnd", &c->cap_bset, pid, df);
}

/* STAT of @t against fields 10-17 and 20 of /proc/@pid[/task/@tid]/stat */
void stat_diff(const struct td_task *t, pid_t pid, pid_t tid,
	       struct td_diff *df)
{
	const struct task_diag_stat *s = &t->stat;
	pid_t id = tid ? tid : pid;
	struct proc_stat st;

	if (!(t->groups & TASK_DIAG_SHOW_STAT)) {
		diff_add(df, "pid %d: no TASK_DIAG_STAT", id);
		return;
	}
	if (proc_read_stat(pid, tid, &st)) {
		diff_add(df, "pid %d: cannot read stat: %m", id);
		return;
	}
	diff_ull(df, id, "minflt", s->minflt, st.minflt);
	diff_ull(df, id, "cminflt", s->cminflt, st.cminflt);
	diff_ull(df, id, "majflt", s->majflt, st.majflt);
	diff_ull(df, id, "cmajflt", s->cmajflt, st.cmajflt);
	diff_ull(df, id, "utime", s->utime, st.utime);
	diff_ull(df, id, "stime", s->stime, st.stime);
	diff_ull(df, id, "cutime", s->cutime, st.cutime);
	diff_ull(df, id, "cstime", s->cstime, st.cstime);
	diff_ull(df, id, "threads", s->threads, st.threads);
}

static void diff_ll(struct td_diff *df, pid_t pid, const char *what,
		    long long diag, long long proc)
{
	if (diag != proc)
		diff_add(df, "pid %d: %s: task_diag %lld, /proc %lld", pid,
			 what, diag, proc);
}

/*
 * PSINFO of @t against /proc/@pid[/task/@tid]/stat.  processor is left
 * out: a running task moves between the two reads.
 */
void psinfo_diff(const struct td_task *t, pid_t pid, pid_t tid,
		 struct td_diff *df)
{
	const struct task_diag_psinfo *ps = &t->psinfo;
	pid_t id = tid ? tid : pid;
	struct proc_stat st;

	if (!(t->groups & TASK_DIAG_SHOW_PSINFO)) {
		diff_add(df, "pid %d: no TASK_DIAG_PSINFO", id);
		return;
	}
	if (proc_read_stat(pid, tid, &st)) {
		diff_add(df, "pid %d: cannot read stat: %m", id);
		return;
	}
	diff_ull(df, id, "start_time", ps->start_time, st.starttime);
	diff_ull(df, id, "flags", ps->flags, st.flags);
	diff_ull(df, id, "tty_nr", ps->tty_nr, (unsigned int)st.tty_nr);
	diff_ll(df, id, "tpgid", ps->tpgid, st.tpgid);
	diff_ll(df, id, "priority", ps->priority, st.priority);
	diff_ll(df, id, "nice", ps->nice, st.nice);
	diff_ull(df, id, "rt_priority", ps->rt_priority, st.rt_priority);
	diff_ull(df, id, "policy", ps->policy, st.policy);
	if (strnlen(ps->name, sizeof(ps->name)) == sizeof(ps->name))
		diff_add(df, "pid %d: name not NUL-terminated", id);
	else if (strcmp(ps->name, st.comm))
		diff_add(df, "pid %d: name \"%s\", /proc \"%s\"", id,
			 ps->name, st.comm);
}

/* CMDLINE of @t against the bytes of /proc/@pid[/task/@tid]/cmdline */
void cmdline_diff(const struct td_task *t, pid_t pid, pid_t tid,
		  struct td_diff *df)
{
	pid_t id = tid ? tid : pid;
	char path[64], *want;
	size_t len;

	if (!(t->groups & TASK_DIAG_SHOW_CMDLINE)) {
		diff_add(df, "pid %d: no TASK_DIAG_CMDLINE", id);
		return;
	}
	want = read_file(proc_task_path(path, sizeof(path), pid, tid,
					"cmdline"), &len);
	if (!want) {
		diff_add(df, "pid %d: cannot read cmdline: %m", id);
		return;
	}
	if (len != t->cmdline_len)
		diff_add(df, "pid %d: cmdline: task_diag %zu bytes, /proc %zu",
			 id, t->cmdline_len, len);
	else if (len && memcmp(want, t->cmdline, len))
		diff_add(df, "pid %d: cmdline: the bytes differ", id);
	free(want);
}

/* A "Vm...:  N kB" line of status against a number of pages */
static void status_kb_diff(pid_t pid, const char *key, unsigned long long pages,
			   struct td_diff *df)
{
	unsigned long long kb, page_kb = sysconf(_SC_PAGESIZE) / 1024;

	if (proc_status_ull(pid, key, 10, &kb))
		diff_add(df, "pid %d: no %s: in status", pid, key);
	else
		diff_ull(df, pid, key, pages * page_kb, kb);
}

/* STATM of @t against /proc/@pid/statm and the Vm*:, Rss*: of status */
void statm_diff(const struct td_task *t, pid_t pid, struct td_diff *df)
{
	const struct task_diag_statm *s = &t->statm;
	unsigned long long v[7], pte_kb;

	if (!(t->groups & TASK_DIAG_SHOW_STATM)) {
		diff_add(df, "pid %d: no TASK_DIAG_STATM", pid);
		return;
	}
	if (proc_read_statm(pid, v)) {
		diff_add(df, "pid %d: cannot read statm: %m", pid);
		return;
	}
	diff_ull(df, pid, "statm size", s->total_vm, v[0]);
	diff_ull(df, pid, "statm resident", s->total_rss, v[1]);
	diff_ull(df, pid, "statm shared", s->file + s->shmem, v[2]);
	/* text is VmExe (below); statm's text is the whole code segment */
	if (s->text > v[3])
		diff_add(df, "pid %d: text %llu above statm text %llu", pid,
			 (unsigned long long)s->text, v[3]);
	diff_ull(df, pid, "statm data", s->data_vm + s->stack_vm, v[5]);
	diff_ull(df, pid, "total_rss = anon + file + shmem",
		 s->anon + s->file + s->shmem, s->total_rss);
	diff_ull(df, pid, "pmds", s->pmds, 0);

	status_kb_diff(pid, "VmPeak", s->hiwater_vm, df);
	status_kb_diff(pid, "VmSize", s->total_vm, df);
	status_kb_diff(pid, "VmLck", s->locked_vm, df);
	status_kb_diff(pid, "VmPin", s->pinned_vm, df);
	status_kb_diff(pid, "VmHWM", s->hiwater_rss, df);
	status_kb_diff(pid, "VmRSS", s->total_rss, df);
	status_kb_diff(pid, "RssAnon", s->anon, df);
	status_kb_diff(pid, "RssFile", s->file, df);
	status_kb_diff(pid, "RssShmem", s->shmem, df);
	status_kb_diff(pid, "VmData", s->data_vm, df);
	status_kb_diff(pid, "VmStk", s->stack_vm, df);
	status_kb_diff(pid, "VmExe", s->text, df);
	status_kb_diff(pid, "VmLib", s->lib, df);
	status_kb_diff(pid, "VmSwap", s->swap, df);
	if (proc_status_ull(pid, "VmPTE", 10, &pte_kb))
		diff_add(df, "pid %d: no VmPTE: in status", pid);
	else
		diff_ull(df, pid, "VmPTE (kB)", s->ptes >> 10, pte_kb);
}

/* A task_diag VMA as /proc/PID/maps would print it */
static void td_vma_line(const struct td_vma *v, char *buf, size_t len)
{
	__u64 f = v->rec.vm_flags;

	snprintf(buf, len, "%llx-%llx %c%c%c%c %08llx %02x:%02x %llu %s",
		 (unsigned long long)v->rec.start, (unsigned long long)v->rec.end,
		 f & TASK_DIAG_VMA_F_READ ? 'r' : '-',
		 f & TASK_DIAG_VMA_F_WRITE ? 'w' : '-',
		 f & TASK_DIAG_VMA_F_EXEC ? 'x' : '-',
		 f & TASK_DIAG_VMA_F_MAYSHARE ? 's' : 'p',
		 (unsigned long long)v->rec.pgoff, v->rec.major, v->rec.minor,
		 (unsigned long long)v->rec.inode, v->name ? v->name : "");
}

static void proc_vma_line(const struct proc_vma *v, char *buf, size_t len)
{
	snprintf(buf, len, "%llx-%llx %s %08llx %02x:%02x %llu %s", v->start,
		 v->end, v->perms, v->pgoff, v->major, v->minor, v->inode,
		 v->name);
}

/* The VMA list of @t, line by line, against /proc/PID/maps in @m */
void vmas_diff(const struct td_task *t, const struct proc_maps *m,
	       struct td_diff *df)
{
	size_t n = m->nr, i;
	char a[4200], b[4200];

	if (!(t->groups & TASK_DIAG_SHOW_VMA))
		diff_add(df, "pid %u: no TASK_DIAG_VMA", t->pid);
	if (t->nr_vma_disorder)
		diff_add(df, "pid %u: %u VMAs repeated or out of order",
			 t->pid, t->nr_vma_disorder);
	if (n != t->nr_vmas)
		diff_add(df, "pid %u: %zu VMAs, /proc/PID/maps has %zu lines",
			 t->pid, t->nr_vmas, n);
	for (i = 0; i < n && i < t->nr_vmas; i++) {
		td_vma_line(&t->vmas[i], a, sizeof(a));
		proc_vma_line(&m->v[i], b, sizeof(b));
		if (strcmp(a, b))
			diff_add(df, "pid %u: VMA %zu: task_diag \"%s\", maps \"%s\"",
				 t->pid, i, a, b);
	}
}

/* Read /proc/@pid/maps and compare the VMA list of @t with it */
void vmas_vs_proc(const struct td_task *t, pid_t pid, struct td_diff *df)
{
	struct proc_maps m;

	if (proc_read_maps(pid, false, &m)) {
		diff_add(df, "pid %d: cannot read maps: %m", pid);
		return;
	}
	vmas_diff(t, &m, df);
	proc_maps_free(&m);
}

static const struct {
	const char *mnemonic;		/* in smaps' VmFlags: */
	__u64 flag;
} vmflags[] = {
	{ "rd", TASK_DIAG_VMA_F_READ },
	{ "wr", TASK_DIAG_VMA_F_WRITE },
	{ "ex", TASK_DIAG_VMA_F_EXEC },
	{ "sh", TASK_DIAG_VMA_F_SHARED },
	{ "mr", TASK_DIAG_VMA_F_MAYREAD },
	{ "mw", TASK_DIAG_VMA_F_MAYWRITE },
	{ "me", TASK_DIAG_VMA_F_MAYEXEC },
	{ "ms", TASK_DIAG_VMA_F_MAYSHARE },
	{ "gd", TASK_DIAG_VMA_F_GROWSDOWN },
	{ "pf", TASK_DIAG_VMA_F_PFNMAP },
	{ "lo", TASK_DIAG_VMA_F_LOCKED },
	{ "io", TASK_DIAG_VMA_F_IO },
	{ "sr", TASK_DIAG_VMA_F_SEQ_READ },
	{ "rr", TASK_DIAG_VMA_F_RAND_READ },
	{ "dc", TASK_DIAG_VMA_F_DONTCOPY },
	{ "de", TASK_DIAG_VMA_F_DONTEXPAND },
	{ "ac", TASK_DIAG_VMA_F_ACCOUNT },
	{ "nr", TASK_DIAG_VMA_F_NORESERVE },
	{ "ht", TASK_DIAG_VMA_F_HUGETLB },
	{ "ar", TASK_DIAG_VMA_F_ARCH_1 },
	{ "dd", TASK_DIAG_VMA_F_DONTDUMP },
	{ "sd", TASK_DIAG_VMA_F_SOFTDIRTY },
	{ "mm", TASK_DIAG_VMA_F_MIXEDMAP },
	{ "hg", TASK_DIAG_VMA_F_HUGEPAGE },
	{ "nh", TASK_DIAG_VMA_F_NOHUGEPAGE },
	{ "mg", TASK_DIAG_VMA_F_MERGEABLE },
	{ "wf", TASK_DIAG_VMA_F_WIPEONFORK },
	{ "lf", TASK_DIAG_VMA_F_LOCKONFAULT },
};

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

/* vm_flags of each VMA of @t against the VmFlags: of smaps in @m */
void vmflags_diff(const struct td_task *t, const struct proc_maps *m,
		  struct td_diff *df)
{
	size_t n = m->nr, i, j;
	__u64 known = 0, f;
	bool set;

	for (j = 0; j < ARRAY_SIZE(vmflags); j++)
		known |= vmflags[j].flag;
	for (i = 0; i < n && i < t->nr_vmas; i++) {
		f = t->vmas[i].rec.vm_flags;
		if (f & ~known)
			diff_add(df, "VMA %llx: unexpected vm_flags %#llx",
				 (unsigned long long)t->vmas[i].rec.start, (unsigned long long)(f & ~known));
		for (j = 0; j < ARRAY_SIZE(vmflags); j++) {
			set = f & vmflags[j].flag;
			if (set != has_word(m->v[i].vmflags, vmflags[j].mnemonic))
				diff_add(df, "VMA %llx: %s %s in task_diag, VmFlags:%s",
					 (unsigned long long)t->vmas[i].rec.start,
					 vmflags[j].mnemonic,
					 set ? "set" : "clear",
					 m->v[i].vmflags);
		}
	}
}

static void kb_diff(struct td_diff *df, unsigned long long start, const char *what,
		    unsigned long long bytes, unsigned long long kb)
{
	if (bytes != kb * 1024)
		diff_add(df, "VMA %llx: %s: task_diag %llu bytes, smaps %llu kB",
			 start, what, bytes, kb);
}

/* The smaps counters of each VMA of @t against smaps in @m */
void vma_stats_diff(const struct td_task *t, const struct proc_maps *m,
		    struct td_diff *df)
{
	size_t n = m->nr, i;
	const struct task_diag_vma_stat *s;
	const struct proc_vma *p;
	unsigned long long start;

	for (i = 0; i < n && i < t->nr_vmas; i++) {
		s = &t->vmas[i].stat;
		p = &m->v[i];
		start = t->vmas[i].rec.start;
		if (!t->vmas[i].has_stat || !p->has_smaps) {
			diff_add(df, "VMA %llx: no counters", start);
			continue;
		}
		kb_diff(df, start, "resident", s->resident, p->rss);
		kb_diff(df, start, "shared_clean", s->shared_clean,
			p->shared_clean);
		kb_diff(df, start, "shared_dirty", s->shared_dirty,
			p->shared_dirty);
		kb_diff(df, start, "private_clean", s->private_clean,
			p->private_clean);
		kb_diff(df, start, "private_dirty", s->private_dirty,
			p->private_dirty);
		kb_diff(df, start, "referenced", s->referenced, p->referenced);
		kb_diff(df, start, "anonymous", s->anonymous, p->anonymous);
		kb_diff(df, start, "anonymous_thp", s->anonymous_thp,
			p->anon_huge);
		kb_diff(df, start, "swap", s->swap, p->swap);
		if (s->pss >> 22 != p->pss)
			diff_add(df, "VMA %llx: pss %llu >> 22 != smaps Pss %llu kB",
				 start, (unsigned long long)s->pss, p->pss);
	}
}

/* The VMA of @t with that name, or NULL */
const struct td_vma *td_vma_named(const struct td_task *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nr_vmas; i++)
		if (t->vmas[i].name && !strcmp(t->vmas[i].name, name))
			return &t->vmas[i];
	return NULL;
}
