// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The procfs backend: TASK_DIAG_BASE, CRED, STAT, STATM, CMDLINE and PSINFO
 * of a task from /proc/PID/stat, status, statm and cmdline (or those of
 * /proc/PID/task/TID).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "procfs.h"

/* The fields of status that give the memory usage, in kB */
enum {
	TD_VM_PEAK, TD_VM_SIZE, TD_VM_LCK, TD_VM_PIN, TD_VM_HWM, TD_VM_RSS,
	TD_VM_ANON, TD_VM_FILE, TD_VM_SHMEM, TD_VM_DATA, TD_VM_STK, TD_VM_EXE,
	TD_VM_LIB, TD_VM_PTE, TD_VM_SWAP, TD_VM_NR
};

struct td_pstatus {
	__u32			tgid;
	__u32			pid;
	__u32			tracer;
	__u32			uid[4];		/* real, effective, saved, fs */
	__u32			gid[4];
	unsigned long long	cap[4];		/* inh, prm, eff, bnd */
	unsigned long long	vm[TD_VM_NR];
	bool			has_mm;		/* VmSize: not a kthread or zombie */
};

struct td_pstat {
	char			comm[TASK_DIAG_COMM_LEN];
	char			state;
	unsigned int		ppid;
	unsigned int		pgrp;
	unsigned int		session;
	unsigned long long	minflt, cminflt, majflt, cmajflt;
	unsigned long long	utime, stime;
	long long		cutime, cstime;
	long			threads;
	struct task_diag_psinfo	ps;
};

enum td_kind { TD_U32, TD_IDS, TD_CAP, TD_KB };

#define TD_PS(field)	offsetof(struct td_pstatus, field)

static const struct td_status_key {
	const char	*key;
	enum td_kind	kind;
	size_t		off;
} td_status_keys[] = {
	{ "Tgid",	TD_U32,	TD_PS(tgid) },
	{ "Pid",	TD_U32,	TD_PS(pid) },
	{ "TracerPid",	TD_U32,	TD_PS(tracer) },
	{ "Uid",	TD_IDS,	TD_PS(uid) },
	{ "Gid",	TD_IDS,	TD_PS(gid) },
	{ "CapInh",	TD_CAP,	TD_PS(cap[0]) },
	{ "CapPrm",	TD_CAP,	TD_PS(cap[1]) },
	{ "CapEff",	TD_CAP,	TD_PS(cap[2]) },
	{ "CapBnd",	TD_CAP,	TD_PS(cap[3]) },
	{ "VmPeak",	TD_KB,	TD_PS(vm[TD_VM_PEAK]) },
	{ "VmSize",	TD_KB,	TD_PS(vm[TD_VM_SIZE]) },
	{ "VmLck",	TD_KB,	TD_PS(vm[TD_VM_LCK]) },
	{ "VmPin",	TD_KB,	TD_PS(vm[TD_VM_PIN]) },
	{ "VmHWM",	TD_KB,	TD_PS(vm[TD_VM_HWM]) },
	{ "VmRSS",	TD_KB,	TD_PS(vm[TD_VM_RSS]) },
	{ "RssAnon",	TD_KB,	TD_PS(vm[TD_VM_ANON]) },
	{ "RssFile",	TD_KB,	TD_PS(vm[TD_VM_FILE]) },
	{ "RssShmem",	TD_KB,	TD_PS(vm[TD_VM_SHMEM]) },
	{ "VmData",	TD_KB,	TD_PS(vm[TD_VM_DATA]) },
	{ "VmStk",	TD_KB,	TD_PS(vm[TD_VM_STK]) },
	{ "VmExe",	TD_KB,	TD_PS(vm[TD_VM_EXE]) },
	{ "VmLib",	TD_KB,	TD_PS(vm[TD_VM_LIB]) },
	{ "VmPTE",	TD_KB,	TD_PS(vm[TD_VM_PTE]) },
	{ "VmSwap",	TD_KB,	TD_PS(vm[TD_VM_SWAP]) },
};

/* A number after blanks, followed by a blank or the end */
static int td_parse_ull(const char *s, int base, unsigned long long *v)
{
	char *end;

	s += strspn(s, " \t");
	if (!isxdigit((unsigned char)*s))
		return -EBADMSG;
	errno = 0;
	*v = strtoull(s, &end, base);
	if (errno || (*end && *end != ' ' && *end != '\t'))
		return -EBADMSG;
	return 0;
}

static int td_parse_u32(const char *s, __u32 *v)
{
	unsigned long long ull;
	int err = td_parse_ull(s, 10, &ull);

	if (!err && ull > 0xffffffffULL)
		err = -EBADMSG;
	if (!err)
		*v = ull;
	return err;
}

static int td_status_value(struct td_pstatus *ps,
			   const struct td_status_key *k, const char *val)
{
	void *p = (char *)ps + k->off;
	__u32 *ids = p;

	switch (k->kind) {
	case TD_U32:
		return td_parse_u32(val, (__u32 *)p);
	case TD_IDS:
		return sscanf(val, "%u %u %u %u", &ids[0], &ids[1], &ids[2],
			      &ids[3]) == 4 ? 0 : -EBADMSG;
	case TD_CAP:
		return td_parse_ull(val, 16, (unsigned long long *)p);
	case TD_KB:
		if (k->off == TD_PS(vm[TD_VM_SIZE]))
			ps->has_mm = true;
		return td_parse_ull(val, 10, (unsigned long long *)p);
	default:
		return -EBADMSG;
	}
}

static int td_status_line(struct td_pstatus *ps, const char *line)
{
	const char *colon = strchr(line, ':');
	size_t i, len;

	if (!colon)
		return 0;
	len = colon - line;
	for (i = 0; i < TD_ARRAY_SIZE(td_status_keys); i++) {
		if (strlen(td_status_keys[i].key) == len &&
		    !memcmp(td_status_keys[i].key, line, len))
			return td_status_value(ps, &td_status_keys[i],
					       colon + 1);
	}
	return 0;
}

/* Split the file in lines, in place, and parse each */
static int td_parse_status(char *s, struct td_pstatus *ps)
{
	char *eol;
	int err;

	memset(ps, 0, sizeof(*ps));
	for (; *s; s = eol) {
		eol = strchrnul(s, '\n');
		if (*eol)
			*eol++ = '\0';
		err = td_status_line(ps, s);
		if (err)
			return err;
	}
	return ps->pid ? 0 : -EBADMSG;
}

/* The fields after the comm, from the state (field 3) to policy (41) */
enum {
	TD_ST_STATE, TD_ST_PPID, TD_ST_PGRP, TD_ST_SESSION, TD_ST_TTY,
	TD_ST_TPGID, TD_ST_FLAGS, TD_ST_MINFLT, TD_ST_CMINFLT, TD_ST_MAJFLT,
	TD_ST_CMAJFLT, TD_ST_UTIME, TD_ST_STIME, TD_ST_CUTIME, TD_ST_CSTIME,
	TD_ST_PRIO, TD_ST_NICE, TD_ST_THREADS, TD_ST_START = TD_ST_THREADS + 2,
	TD_ST_PROCESSOR = TD_ST_START + 17, TD_ST_RT_PRIO, TD_ST_POLICY,
	TD_ST_NR
};

/*
 * The first @need fields at least, the others up to TD_ST_NR if there;
 * signed fields (-1) come back as their two's complement.
 */
static int td_stat_fields(const char *s, unsigned long long *v, int need)
{
	char *end;
	int i;

	memset(v, 0, TD_ST_NR * sizeof(*v));
	s += strspn(s, " ");
	if (!*s)
		return -EBADMSG;
	v[TD_ST_STATE] = *s++;
	for (i = TD_ST_PPID; i < TD_ST_NR; i++) {
		errno = 0;
		v[i] = strtoull(s, &end, 10);
		if (end == s && i >= need && !s[strspn(s, " \n")])
			break;
		if (end == s || errno)
			return -EBADMSG;
		s = end;
	}
	return 0;
}

/* stat, with the fields of PSINFO if @psinfo */
static int td_parse_stat(const char *s, struct td_pstat *st, bool psinfo)
{
	const char *open = strchr(s, '('), *close = strrchr(s, ')');
	int need = psinfo ? TD_ST_NR : TD_ST_THREADS + 1;
	unsigned long long v[TD_ST_NR];
	size_t len;

	if (!open || !close || close < open ||
	    td_stat_fields(close + 1, v, need))
		return -EBADMSG;
	memset(st, 0, sizeof(*st));
	len = close - open - 1;
	if (len > TASK_DIAG_NAME_LEN - 1)
		len = TASK_DIAG_NAME_LEN - 1;
	memcpy(st->ps.name, open + 1, len);
	if (len > TASK_DIAG_COMM_LEN - 1)
		len = TASK_DIAG_COMM_LEN - 1;
	memcpy(st->comm, open + 1, len);

	st->state = v[TD_ST_STATE];
	st->ppid = v[TD_ST_PPID];
	st->pgrp = v[TD_ST_PGRP];
	st->session = v[TD_ST_SESSION];
	st->minflt = v[TD_ST_MINFLT];
	st->cminflt = v[TD_ST_CMINFLT];
	st->majflt = v[TD_ST_MAJFLT];
	st->cmajflt = v[TD_ST_CMAJFLT];
	st->utime = v[TD_ST_UTIME];
	st->stime = v[TD_ST_STIME];
	st->cutime = v[TD_ST_CUTIME];
	st->cstime = v[TD_ST_CSTIME];
	st->threads = v[TD_ST_THREADS];
	st->ps.start_time = v[TD_ST_START];
	st->ps.flags = v[TD_ST_FLAGS];
	st->ps.tty_nr = v[TD_ST_TTY];
	st->ps.tpgid = v[TD_ST_TPGID];
	st->ps.priority = v[TD_ST_PRIO];
	st->ps.nice = v[TD_ST_NICE];
	st->ps.rt_priority = v[TD_ST_RT_PRIO];
	st->ps.policy = v[TD_ST_POLICY];
	st->ps.processor = v[TD_ST_PROCESSOR];
	return 0;
}

/* Read @name of @t; an empty file means that the task is gone */
static int td_read_task_file(struct taskdiag *td, const struct td_ptask *t,
			     const char *name)
{
	int err = td_procfs_read(td, t, name);

	if (!err && !td->procfs->file_len)
		err = -ESRCH;
	return err;
}

static int td_read_status(struct taskdiag *td, const struct td_ptask *t,
			  struct td_pstatus *ps)
{
	int err = td_read_task_file(td, t, "status");

	if (!err && td_parse_status(td->procfs->file, ps))
		err = td_err(td, -EBADMSG, "%s/status: cannot parse it",
			     t->dir);
	return err;
}

static int td_read_stat(struct taskdiag *td, const struct td_ptask *t,
			struct td_pstat *st)
{
	int err = td_read_task_file(td, t, "stat");

	if (!err && td_parse_stat(td->procfs->file, st,
				  td->show_flags & TASK_DIAG_SHOW_PSINFO))
		err = td_err(td, -EBADMSG, "%s/stat: cannot parse it", t->dir);
	return err;
}

/* The state letters of /proc/PID/stat, in the order of TASK_DIAG_RUNNING.. */
static __u8 td_state_index(char c)
{
	static const char letters[] = "RSDTtXZPI";
	const char *p = c ? strchr(letters, c) : NULL;

	return p ? p - letters : TASK_DIAG_RUNNING;
}

static int td_fill_base(struct taskdiag *td, const struct td_pstat *st,
			const struct td_pstatus *ps)
{
	struct task_diag_base b;

	memset(&b, 0, sizeof(b));
	b.tgid = ps->tgid;
	b.pid = ps->pid;
	b.ppid = st->ppid;
	b.tpid = ps->tracer;
	b.sid = st->session;
	b.pgid = st->pgrp;
	b.state = td_state_index(st->state);
	memcpy(b.comm, st->comm, sizeof(b.comm));
	return td_task_set_group(td, TASK_DIAG_BASE, &b, sizeof(b));
}

static void td_caps(struct task_diag_caps *caps, unsigned long long v)
{
	caps->cap[0] = v & 0xffffffffULL;
	caps->cap[1] = v >> 32;
}

static int td_fill_creds(struct taskdiag *td, const struct td_pstatus *ps)
{
	struct task_diag_creds c;

	memset(&c, 0, sizeof(c));
	td_caps(&c.cap_inheritable, ps->cap[0]);
	td_caps(&c.cap_permitted, ps->cap[1]);
	td_caps(&c.cap_effective, ps->cap[2]);
	td_caps(&c.cap_bset, ps->cap[3]);
	c.uid = ps->uid[0];
	c.euid = ps->uid[1];
	c.suid = ps->uid[2];
	c.fsuid = ps->uid[3];
	c.gid = ps->gid[0];
	c.egid = ps->gid[1];
	c.sgid = ps->gid[2];
	c.fsgid = ps->gid[3];
	return td_task_set_group(td, TASK_DIAG_CRED, &c, sizeof(c));
}

static int td_fill_stat(struct taskdiag *td, const struct td_pstat *st)
{
	struct task_diag_stat s;

	memset(&s, 0, sizeof(s));
	s.minflt = st->minflt;
	s.cminflt = st->cminflt;
	s.majflt = st->majflt;
	s.cmajflt = st->cmajflt;
	s.utime = st->utime;
	s.stime = st->stime;
	s.cutime = st->cutime;
	s.cstime = st->cstime;
	s.threads = st->threads;
	return td_task_set_group(td, TASK_DIAG_STAT, &s, sizeof(s));
}

/* size, resident and text of /proc/PID/statm, in pages */
static int td_read_statm(struct taskdiag *td, const struct td_ptask *t,
			 struct task_diag_statm *s)
{
	unsigned long long size, resident, shared, text;
	int err = td_read_task_file(td, t, "statm");

	if (err)
		return err;
	if (sscanf(td->procfs->file, "%llu %llu %llu %llu", &size, &resident,
		   &shared, &text) != 4)
		return td_err(td, -EBADMSG, "%s/statm: cannot parse it", t->dir);
	s->total_vm = size;
	s->total_rss = resident;
	s->text = text;
	return 0;
}

/* TASK_DIAG_STATM: statm, and status for what statm does not have */
static int td_fill_statm(struct taskdiag *td, const struct td_ptask *t,
			 const struct td_pstatus *ps)
{
	unsigned int shift = td->procfs->page_shift - 10;
	const unsigned long long *vm = ps->vm;
	struct task_diag_statm s;
	int err;

	memset(&s, 0, sizeof(s));
	err = td_read_statm(td, t, &s);
	if (err)
		return err;
	s.anon = vm[TD_VM_ANON] >> shift;
	s.file = vm[TD_VM_FILE] >> shift;
	s.shmem = vm[TD_VM_SHMEM] >> shift;
	s.hiwater_vm = vm[TD_VM_PEAK] >> shift;
	s.hiwater_rss = vm[TD_VM_HWM] >> shift;
	s.lib = vm[TD_VM_LIB] >> shift;
	s.swap = vm[TD_VM_SWAP] >> shift;
	s.ptes = vm[TD_VM_PTE] << 10;
	s.locked_vm = vm[TD_VM_LCK] >> shift;
	s.pinned_vm = vm[TD_VM_PIN] >> shift;
	s.data_vm = vm[TD_VM_DATA] >> shift;
	s.stack_vm = vm[TD_VM_STK] >> shift;
	return td_task_set_group(td, TASK_DIAG_STATM, &s, sizeof(s));
}

/* TASK_DIAG_CMDLINE: cmdline, empty for kernel threads and zombies */
static int td_fill_cmdline(struct taskdiag *td, const struct td_ptask *t)
{
	int err = td_procfs_read(td, t, "cmdline");

	if (err)
		return err;
	return td_task_add_cmdline(td, td->procfs->file, td->procfs->file_len);
}

/*
 * TASK_DIAG_VMA where maps may be read; the task without it where not,
 * as from the kernel, which checks what procfs checks to open maps
 */
static int td_fill_vmas(struct taskdiag *td, const struct td_ptask *t)
{
	int err = td_procfs_vmas(td, t);

	if (err != -EACCES && err != -EPERM)
		return err;
	td->task.nr_vmas = 0;
	td->task.names_len = 0;
	return 0;
}

static int td_fill_groups(struct taskdiag *td, const struct td_ptask *t,
			  const struct td_pstat *st,
			  const struct td_pstatus *ps)
{
	__u64 show = td->show_flags;
	int err = 0;

	/* the threads of a process share its mappings */
	if ((show & TASK_DIAG_SHOW_VMA_LEADERS) && t->pid != ps->tgid)
		show &= ~TASK_DIAG_SHOW_VMA;
	if (show & TASK_DIAG_SHOW_BASE)
		err = td_fill_base(td, st, ps);
	if (!err && (show & TASK_DIAG_SHOW_CRED))
		err = td_fill_creds(td, ps);
	if (!err && (show & TASK_DIAG_SHOW_VMA) && ps->has_mm)
		err = td_fill_vmas(td, t);
	if (!err && (show & TASK_DIAG_SHOW_STAT))
		err = td_fill_stat(td, st);
	if (!err && (show & TASK_DIAG_SHOW_STATM) && ps->has_mm)
		err = td_fill_statm(td, t, ps);
	if (!err && (show & TASK_DIAG_SHOW_CMDLINE))
		err = td_fill_cmdline(td, t);
	if (!err && (show & TASK_DIAG_SHOW_PSINFO))
		err = td_task_set_group(td, TASK_DIAG_PSINFO, &st->ps,
					sizeof(st->ps));
	return err;
}

static int td_fill_task(struct taskdiag *td, const struct td_ptask *t)
{
	struct td_pstatus ps;
	struct td_pstat st;
	int err;

	err = td_read_status(td, t, &ps);
	if (err)
		return err;
	td_task_reset(&td->task, t->pid, ps.tgid);

	memset(&st, 0, sizeof(st));
	if (td->show_flags & (TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_STAT |
			      TASK_DIAG_SHOW_PSINFO)) {
		err = td_read_stat(td, t, &st);
		if (err)
			return err;
	}
	return td_fill_groups(td, t, &st, &ps);
}

/**
 * td_procfs_fill() - describe a task in td->task from its /proc files
 * @td: the session
 * @task: the task
 *
 * Its files are opened in its directory, opened once: if the task exits
 * and its pid is reused meanwhile, they are not the new task's (-ESRCH).
 * Kernel threads and zombies (no VmSize in status) get no TASK_DIAG_VMA
 * and TASK_DIAG_STATM, and a task whose maps may not be read no
 * TASK_DIAG_VMA, as from the kernel.
 *
 * Return: 0, or -errno (-ENOENT, -ESRCH: the task is gone; -EBADMSG: a
 * file cannot be parsed).
 */
int td_procfs_fill(struct taskdiag *td, const struct td_ptask *task)
{
	struct td_ptask t = *task;
	int err;

	t.fd = openat(td->procfs->root_fd, t.dir,
		      O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (t.fd < 0)
		return -errno;
	err = td_fill_task(td, &t);
	close(t.fd);
	return err;
}
