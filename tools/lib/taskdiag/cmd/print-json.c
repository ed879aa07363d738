// SPDX-License-Identifier: GPL-2.0
/*
 * taskdiag --json: one JSON object per task and per line.  Addresses and
 * flags are hex strings (they do not fit in a double); strings are escaped,
 * and bytes that are not UTF-8 are written as \u00XX.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

#define U(x)	((unsigned long long)(x))

/* The length of the valid UTF-8 sequence at @s, or 0 */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static void json_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', f);
	while (*s) {
		if (*s == '"' || *s == '\\') {
			fprintf(f, "\\%c", *s++);
			continue;
		}
		n = utf8_len(s);
		if (*s < 0x20 || *s == 0x7f || !n) {
			fprintf(f, "\\u%04x", *s++);
			continue;
		}
		fwrite(s, 1, n, f);
		s += n;
	}
	fputc('"', f);
}

/* ,"name":{"field":value,...} */
static void json_fields(FILE *f, const char *name, const void *group,
			const struct cmd_field *fields)
{
	const char *sep = "";

	fprintf(f, ",\"%s\":{", name);
	for (; fields->name; fields++, sep = ",")
		fprintf(f, "%s\"%s\":%llu", sep, fields->name,
			field_value(group, fields));
}

static void json_base(FILE *f, const struct task_diag_base *b)
{
	static const char letters[] = "RSDTtXZPI";
	char state[2] = { b->state < 9 ? letters[b->state] : '?', 0 };

	fprintf(f, ",\"base\":{\"tgid\":%u,\"pid\":%u,\"ppid\":%u", b->tgid,
		b->pid, b->ppid);
	fprintf(f, ",\"tpid\":%u,\"sid\":%u,\"pgid\":%u,\"state\":\"%s\"",
		b->tpid, b->sid, b->pgid, state);
	fprintf(f, ",\"comm\":");
	json_string(f, b->comm);
	fputc('}', f);
}

static void json_caps(FILE *f, const char *name,
		      const struct task_diag_caps *c)
{
	fprintf(f, ",\"%s\":\"0x%08x%08x\"", name, c->cap[1], c->cap[0]);
}

static void json_creds(FILE *f, const struct task_diag_creds *c)
{
	fprintf(f, ",\"cred\":{\"uid\":[%u,%u,%u,%u],\"gid\":[%u,%u,%u,%u]",
		c->uid, c->euid, c->suid, c->fsuid, c->gid, c->egid, c->sgid,
		c->fsgid);
	json_caps(f, "cap_inheritable", &c->cap_inheritable);
	json_caps(f, "cap_permitted", &c->cap_permitted);
	json_caps(f, "cap_effective", &c->cap_effective);
	json_caps(f, "cap_bset", &c->cap_bset);
	fputc('}', f);
}

static void json_vma(FILE *f, const struct taskdiag_vma *v)
{
	const struct task_diag_vma *r = &v->vma;

	fprintf(f, "{\"start\":\"0x%llx\",\"end\":\"0x%llx\"", U(r->start),
		U(r->end));
	fprintf(f, ",\"flags\":\"0x%llx\",\"pgoff\":%llu", U(r->vm_flags),
		U(r->pgoff));
	fprintf(f, ",\"major\":%u,\"minor\":%u,\"inode\":%llu", r->major,
		r->minor, U(r->inode));
	fprintf(f, ",\"generation\":%u", r->generation);
	if (v->name) {
		fprintf(f, ",\"name\":");
		json_string(f, v->name);
	}
	if (v->stat) {
		json_fields(f, "stat", v->stat, vma_stat_fields);
		fputc('}', f);
	}
	fputc('}', f);
}

static void json_vmas(FILE *f, const struct taskdiag_task *task)
{
	const struct taskdiag_vma *v;
	size_t i;

	fprintf(f, ",\"vmas\":[");
	taskdiag_task__for_each_vma(task, i, v) {
		if (i)
			fputc(',', f);
		json_vma(f, v);
	}
	fputc(']', f);
}

void print_json(FILE *f, const struct cmd_opts *o,
		const struct taskdiag_task *task)
{
	const struct task_diag_statm *sm = taskdiag_task__statm(task);
	const struct task_diag_stat *st = taskdiag_task__stat(task);

	fprintf(f, "{\"pid\":%u,\"tgid\":%u,\"exited\":%s",
		taskdiag_task__pid(task), taskdiag_task__tgid(task),
		taskdiag_task__exited(task) ? "true" : "false");
	if (taskdiag_task__base(task))
		json_base(f, taskdiag_task__base(task));
	if (taskdiag_task__creds(task))
		json_creds(f, taskdiag_task__creds(task));
	if (st) {
		json_fields(f, "stat", st, stat_fields);
		fprintf(f, ",\"threads\":%u}", st->threads);
	}
	if (sm) {
		json_fields(f, "statm", sm, statm_fields);
		fputc('}', f);
	}
	if (taskdiag_task__has(task, TASK_DIAG_VMA))
		json_vmas(f, task);
	fprintf(f, "}\n");
}
