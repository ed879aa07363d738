// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The procfs backend: TASK_DIAG_VMA from /proc/PID/maps, or from smaps
 * with TASK_DIAG_SHOW_VMA_STAT.
 *
 * maps only shows r, w, x and s (VM_MAYSHARE): without smaps the flags are
 * TASK_DIAG_VMA_F_READ, _WRITE, _EXEC and _MAYSHARE only; in particular
 * TASK_DIAG_VMA_F_SHARED (VM_SHARED) is unknown, as for a read-only
 * MAP_SHARED mapping the kernel sets MAYSHARE alone.  smaps has every flag
 * in its VmFlags line, and then they are exact.  The inode generation is
 * never known (0).  pss has the precision of the kB smaps shows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "procfs.h"

static const struct {
	char	name[3];
	__u64	flag;
} td_vm_flag_names[] = {
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

#define TD_VS(field)	offsetof(struct task_diag_vma_stat, field)

/* The counters of smaps, in kB, and how far to shift them */
static const struct {
	const char	*key;
	size_t		off;
	unsigned int	shift;
} td_smaps_keys[] = {
	{ "Rss",		TD_VS(resident),	10 },
	{ "Shared_Clean",	TD_VS(shared_clean),	10 },
	{ "Shared_Dirty",	TD_VS(shared_dirty),	10 },
	{ "Private_Clean",	TD_VS(private_clean),	10 },
	{ "Private_Dirty",	TD_VS(private_dirty),	10 },
	{ "Referenced",		TD_VS(referenced),	10 },
	{ "Anonymous",		TD_VS(anonymous),	10 },
	{ "AnonHugePages",	TD_VS(anonymous_thp),	10 },
	{ "Swap",		TD_VS(swap),		10 },
	{ "Pss",		TD_VS(pss),		10 + 12 },
};

/*
 * A VMA being parsed: the lines come block by block, so its name is copied
 * (to td->procfs->vma_name, which grows: a path longer than PATH_MAX, or
 * with escaped newlines, makes a longer line)
 */
struct td_pvma {
	struct task_diag_vma		rec;
	struct task_diag_vma_stat	stat;
	const char			*name;
};

/* The state of td_procfs_vmas() between lines */
struct td_pmaps {
	struct td_pvma			v;
	bool				open;	/* v is being parsed */
	bool				stat;	/* smaps */
};

static __u64 td_perms_flags(const char *perms)
{
	__u64 flags = 0;

	if (perms[0] == 'r')
		flags |= TASK_DIAG_VMA_F_READ;
	if (perms[1] == 'w')
		flags |= TASK_DIAG_VMA_F_WRITE;
	if (perms[2] == 'x')
		flags |= TASK_DIAG_VMA_F_EXEC;
	if (perms[3] == 's')
		flags |= TASK_DIAG_VMA_F_MAYSHARE;
	return flags;
}

/* The VmFlags line of smaps: two-letter names separated by spaces */
static __u64 td_vm_flags(const char *s)
{
	__u64 flags = 0;
	size_t i, len;

	for (;;) {
		s += strspn(s, " \t");
		len = strcspn(s, " \t");
		if (!len)
			return flags;
		for (i = 0; len == 2 && i < TD_ARRAY_SIZE(td_vm_flag_names); i++)
			if (!memcmp(s, td_vm_flag_names[i].name, 2))
				flags |= td_vm_flag_names[i].flag;
		s += len;
	}
}

/* "start-end perms offset major:minor inode   name" */
static int td_maps_header(struct taskdiag *td, const char *line,
			  struct td_pvma *v)
{
	struct td_procfs *p = td->procfs;
	unsigned long long start, end, pgoff, ino;
	unsigned int major, minor;
	char perms[5];
	int n = -1;
	size_t len;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu%n", &start, &end,
		   perms, &pgoff, &major, &minor, &ino, &n) != 7 || n < 0 ||
	    strlen(perms) != 4)
		return -EBADMSG;

	memset(&v->rec, 0, sizeof(v->rec));
	memset(&v->stat, 0, sizeof(v->stat));
	v->rec.start = start;
	v->rec.end = end;
	v->rec.vm_flags = td_perms_flags(perms);
	v->rec.pgoff = pgoff;
	v->rec.major = major;
	v->rec.minor = minor;
	v->rec.inode = ino;
	line += n;
	line += strspn(line, " ");
	v->name = NULL;
	if (!*line)
		return 0;
	len = strlen(line) + 1;
	if (td_grow(td, (void **)&p->vma_name, &p->vma_name_cap, len, 1))
		return -ENOMEM;
	memcpy(p->vma_name, line, len);
	v->name = p->vma_name;
	return 0;
}

static void td_smaps_field(const char *line, struct td_pvma *v)
{
	const char *colon = strchr(line, ':');
	unsigned long long kb;
	size_t i, len;

	if (!colon)
		return;
	len = colon - line;
	if (len == 7 && !memcmp(line, "VmFlags", 7)) {
		v->rec.vm_flags = td_vm_flags(colon + 1);
		return;
	}
	for (i = 0; i < TD_ARRAY_SIZE(td_smaps_keys); i++) {
		if (strlen(td_smaps_keys[i].key) != len ||
		    memcmp(line, td_smaps_keys[i].key, len))
			continue;
		if (sscanf(colon + 1, "%llu", &kb) == 1)
			*(__u64 *)((char *)&v->stat + td_smaps_keys[i].off) =
				(__u64)kb << td_smaps_keys[i].shift;
		return;
	}
}

/* Lay the record out as the kernel does, and add it to the task */
static int td_pvma_add(struct taskdiag *td, struct td_pvma *v, bool stat)
{
	size_t rec_len = sizeof(v->rec);
	size_t stat_len = stat ? sizeof(v->stat) : 0;
	size_t name_len = v->name ? strlen(v->name) + 1 : 0;

	if ((td->show_flags & TASK_DIAG_SHOW_VMA_EXEC) &&
	    !(v->rec.vm_flags & TASK_DIAG_VMA_F_EXEC))
		return 0;			/* only executable mappings */
	if (name_len > 0xffff - rec_len - stat_len - 3)
		return td_err(td, -EBADMSG, "VMA %llx: name too long",
			      (unsigned long long)v->rec.start);
	v->rec.vma_len = rec_len + stat_len + ((name_len + 3) & ~(size_t)3);
	v->rec.stat_off = stat ? rec_len : 0;
	v->rec.stat_len = stat_len;
	v->rec.name_off = v->name ? rec_len + stat_len : 0;
	v->rec.name_len = name_len;
	return td_vma_add(td, &v->rec, v->name, name_len,
			  stat ? &v->stat : NULL, NULL);
}

static bool td_maps_is_header(const char *line)
{
	return (*line >= '0' && *line <= '9') || (*line >= 'a' && *line <= 'f');
}

/* A line of maps or smaps: a VMA's header, or one of its smaps fields */
static int td_maps_line(struct taskdiag *td, char *line, void *arg)
{
	struct td_pmaps *m = arg;
	int err;

	if (!td_maps_is_header(line)) {
		if (m->open && m->stat)
			td_smaps_field(line, &m->v);
		return 0;
	}
	if (m->open) {
		err = td_pvma_add(td, &m->v, m->stat);
		if (err)
			return err;
	}
	err = td_maps_header(td, line, &m->v);
	m->open = !err;
	return err;
}

/**
 * td_procfs_vmas() - the TASK_DIAG_VMA group of a task from maps or smaps
 * @td: the session
 * @t: the task
 *
 * Return: 0, or -errno (-ENOENT, -ESRCH: the task is gone).
 */
int td_procfs_vmas(struct taskdiag *td, const struct td_ptask *t)
{
	struct td_pmaps m = { .stat = td->show_flags & TASK_DIAG_SHOW_VMA_STAT };
	const char *name = m.stat ? "smaps" : "maps";
	int err;

	err = td_procfs_lines(td, t, name, td_maps_line, &m);
	if (!err && m.open)
		err = td_pvma_add(td, &m.v, m.stat);
	if (err == -EBADMSG)
		return td_err(td, err, "%s/%s: cannot parse it", t->dir, name);
	if (!err)
		td->task.present |= TD_BIT(TASK_DIAG_VMA);
	return err;
}
