// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * VMAs: the records of a TASK_DIAG_VMA attribute, checked and copied into
 * the task, and their /proc/PID/maps form.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* A record must hold at least the fields up to stat_len */
#define TD_VMA_MIN	TASK_DIAG_VMA_SIZE_VER0
/* ... and all of them with TASK_DIAG_SHOW_VMA_BUILD_ID */
#define TD_VMA_MIN_ID	sizeof(struct task_diag_vma)
/* Where the fields that came with build IDs begin */
#define TD_VMA_ID_FIELDS offsetof(struct task_diag_vma, build_id_len)

/* /proc/PID/maps pads what precedes the name to this width */
#define TD_MAPS_PAD	(25 + 6 * 8 - 1)

/**
 * td_vma_add() - append a VMA to the current task
 * @td: the session
 * @rec: the record
 * @name: its name, NUL-terminated within @name_len bytes, or NULL
 * @name_len: the size of @name
 * @stat: its counters, or NULL
 * @build_id: its build ID, rec->build_id_len bytes, or NULL
 *
 * Return: 0 or -ENOMEM.
 */
int td_vma_add(struct taskdiag *td, const struct task_diag_vma *rec,
	       const char *name, size_t name_len,
	       const struct task_diag_vma_stat *stat, const __u8 *build_id)
{
	struct taskdiag_task *task = &td->task;
	size_t n = name ? strnlen(name, name_len) : 0;
	struct td_vma *v;
	int err;

	err = td_grow(td, (void **)&task->vmas, &task->cap_vmas,
		      task->nr_vmas + 1, sizeof(*v));
	if (!err && name)
		err = td_grow(td, (void **)&task->names, &task->names_cap,
			      task->names_len + n + 1, 1);
	if (err)
		return err;

	v = &task->vmas[task->nr_vmas++];
	memset(v, 0, sizeof(*v));
	v->pub.sz = sizeof(v->pub);
	v->pub.start = rec->start;
	v->pub.end = rec->end;
	v->pub.vm_flags = rec->vm_flags;
	v->pub.pgoff = rec->pgoff;
	v->pub.inode = rec->inode;
	v->pub.major = rec->major;
	v->pub.minor = rec->minor;
	v->pub.generation = rec->generation;
	if (stat) {
		v->stat = *stat;
		v->has_stat = true;
	}
	if (build_id) {
		memcpy(v->build_id, build_id, rec->build_id_len);
		v->pub.build_id_len = rec->build_id_len;
	}
	v->name_pos = TD_NO_NAME;
	if (name) {
		v->name_pos = task->names_len;
		memcpy(task->names + task->names_len, name, n);
		task->names[task->names_len + n] = '\0';
		task->names_len += n + 1;
	}
	return 0;
}

/* Whether [@off, @off + @len) lies in [@lo, @hi) */
static bool td_in_record(size_t off, size_t len, size_t lo, size_t hi)
{
	return off >= lo && off <= hi && len <= hi - off;
}

static bool td_overlap(size_t a, size_t alen, size_t b, size_t blen)
{
	return a < b + blen && b < a + alen;
}

/* The build ID of @rec lies in it, after its fixed fields, apart from the rest */
static int td_vma_check_id(struct taskdiag *td, const struct task_diag_vma *rec,
			   size_t hdr)
{
	unsigned long long start = rec->start;

	if (!rec->build_id_len)
		return 0;
	if (rec->build_id_len > TASK_DIAG_BUILD_ID_MAX ||
	    !td_in_record(rec->build_id_off, rec->build_id_len, hdr, rec->vma_len))
		return td_err(td, -EBADMSG,
			      "VMA %llx: build ID at %u+%u outside its %u bytes",
			      start, rec->build_id_off, rec->build_id_len,
			      rec->vma_len);
	if ((rec->name_len && td_overlap(rec->build_id_off, rec->build_id_len,
					 rec->name_off, rec->name_len)) ||
	    (rec->stat_len && td_overlap(rec->build_id_off, rec->build_id_len,
					 rec->stat_off, rec->stat_len)))
		return td_err(td, -EBADMSG, "VMA %llx: build ID overlaps", start);
	return 0;
}

/*
 * The name, the stat and the build ID of @rec lie in it, after its fixed
 * fields: TD_VMA_MIN bytes, TD_VMA_MIN_ID with a build ID
 */
static int td_vma_check(struct taskdiag *td, const struct task_diag_vma *rec,
			const char *p, bool with_id)
{
	size_t hdr = with_id ? TD_VMA_MIN_ID : TD_VMA_MIN;
	unsigned long long start = rec->start;
	int err;

	err = td_vma_check_id(td, rec, hdr);
	if (err)
		return err;

	if (rec->name_len &&
	    !td_in_record(rec->name_off, rec->name_len, hdr, rec->vma_len))
		return td_err(td, -EBADMSG,
			      "VMA %llx: name at %u+%u outside its %u bytes",
			      start, rec->name_off, rec->name_len, rec->vma_len);
	if (rec->name_len && p[rec->name_off + rec->name_len - 1] != '\0')
		return td_err(td, -EBADMSG,
			      "VMA %llx: name not NUL-terminated", start);
	if (!rec->stat_len)
		return 0;

	if (rec->stat_len < sizeof(struct task_diag_vma_stat))
		return td_err(td, -EBADMSG, "VMA %llx: stat_len %u < %zu",
			      start, rec->stat_len,
			      sizeof(struct task_diag_vma_stat));
	if (!td_in_record(rec->stat_off, rec->stat_len, hdr, rec->vma_len))
		return td_err(td, -EBADMSG,
			      "VMA %llx: stat at %u+%u outside its %u bytes",
			      start, rec->stat_off, rec->stat_len, rec->vma_len);
	if (rec->name_len && td_overlap(rec->name_off, rec->name_len,
					rec->stat_off, rec->stat_len))
		return td_err(td, -EBADMSG, "VMA %llx: name and stat overlap",
			      start);
	return 0;
}

/* One record at @p, with @left bytes of the attribute left */
static int td_vma_record(struct taskdiag *td, const char *p, size_t left,
			 size_t *vma_len)
{
	bool with_id = td->show_flags & TASK_DIAG_SHOW_VMA_BUILD_ID;
	struct task_diag_vma_stat stat;
	struct task_diag_vma rec;
	int err;

	if (left < TD_VMA_MIN)
		return td_err(td, -EBADMSG, "pid %u: truncated VMA record: %zu bytes",
			      td->task.pid, left);

	memset(&rec, 0, sizeof(rec));
	memcpy(&rec, p, left < sizeof(rec) ? left : sizeof(rec));
	if (rec.vma_len < (with_id ? TD_VMA_MIN_ID : TD_VMA_MIN) ||
	    rec.vma_len > left)
		return td_err(td, -EBADMSG,
			      "pid %u: VMA record with vma_len %u, %zu bytes left",
			      td->task.pid, rec.vma_len, left);
	if (rec.vma_len < sizeof(rec))
		memset((char *)&rec + rec.vma_len, 0, sizeof(rec) - rec.vma_len);
	/* not asked for: what follows stat_len may be an older kernel's name */
	if (!with_id)
		memset((char *)&rec + TD_VMA_ID_FIELDS, 0,
		       sizeof(rec) - TD_VMA_ID_FIELDS);

	err = td_vma_check(td, &rec, p, with_id);
	if (err)
		return err;

	if (rec.stat_len)
		memcpy(&stat, p + rec.stat_off, sizeof(stat));
	*vma_len = rec.vma_len;
	return td_vma_add(td, &rec, rec.name_len ? p + rec.name_off : NULL,
			  rec.name_len, rec.stat_len ? &stat : NULL,
			  rec.build_id_len ? (const __u8 *)p + rec.build_id_off : NULL);
}

/**
 * td_vma_parse_attr() - append the records of a TASK_DIAG_VMA attribute
 * @td: the session
 * @data: the attribute payload
 * @len: its length
 *
 * Return: 0, -EBADMSG for a malformed record, -ENOMEM.
 */
int td_vma_parse_attr(struct taskdiag *td, const char *data, size_t len)
{
	size_t off = 0, vma_len = 0;
	int err;

	td->task.present |= TD_BIT(TASK_DIAG_VMA);
	while (off < len) {
		err = td_vma_record(td, data + off, len - off, &vma_len);
		if (err)
			return err;
		off += vma_len;
	}
	return 0;
}

int taskdiag_vma__format(const struct taskdiag_vma *vma, char *buf,
			 size_t size)
{
	const struct taskdiag_vma *r = vma;
	char head[128];
	int len, pad;

	len = snprintf(head, sizeof(head), "%08llx-%08llx %c%c%c%c %08llx %02x:%02x %llu ",
		       (unsigned long long)r->start, (unsigned long long)r->end,
		       r->vm_flags & TASK_DIAG_VMA_F_READ ? 'r' : '-',
		       r->vm_flags & TASK_DIAG_VMA_F_WRITE ? 'w' : '-',
		       r->vm_flags & TASK_DIAG_VMA_F_EXEC ? 'x' : '-',
		       r->vm_flags & TASK_DIAG_VMA_F_MAYSHARE ? 's' : 'p',
		       (unsigned long long)r->pgoff, r->major, r->minor,
		       (unsigned long long)r->inode);
	if (!vma->name)
		return snprintf(buf, size, "%s", head);

	pad = len < TD_MAPS_PAD ? TD_MAPS_PAD - len : 0;
	return snprintf(buf, size, "%s%*s %s", head, pad, "", vma->name);
}
