// SPDX-License-Identifier: GPL-2.0
/*
 * taskdiag --json: one JSON object per task and per line.  64-bit values
 * are decimal strings and addresses and flags hex strings: a JSON parser
 * may keep numbers in doubles, exact only to 2^53.  Strings are escaped,
 * and bytes that are not UTF-8 are written as \u00XX.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

#define U(x)	((unsigned long long)(x))

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

/* "name":value for the field @fld of @group (NULL: not sent, null) */
static void json_field(FILE *f, const struct cmd_field *fld, const void *group)
{
	const char *p = (const char *)group + fld->off;
	char state[2] = { 0 }, hex[CAPS_HEX_LEN];

	fprintf(f, "\"%s\":", fld->name);
	if (!group) {
		fprintf(f, "null");
		return;
	}
	switch (fld->kind) {
	case CMD_U32:
		fprintf(f, "%llu", field_value(group, fld));
		break;
	case CMD_STATE:
		state[0] = state_letter(*(const __u8 *)p);
		json_string(f, state);
		break;
	case CMD_COMM:
		json_string(f, p);
		break;
	case CMD_CAPS:
		fprintf(f, "\"0x%s\"", caps_hex((const void *)p, hex));
		break;
	case CMD_U64:
	default:
		fprintf(f, "\"%llu\"", field_value(group, fld));
		break;
	}
}

/* ,"name":{"field":value,...} with every field of @group */
static void json_group(FILE *f, const char *name, const void *p, int group)
{
	const struct cmd_field *fld;
	const char *sep = "";

	fprintf(f, ",\"%s\":{", name);
	for (fld = cmd_fields; fld->name; fld++) {
		if (fld->group != group)
			continue;
		fputs(sep, f);
		json_field(f, fld, p);
		sep = ",";
	}
	fputc('}', f);
}

static void json_ids(FILE *f, const char *name, const __u32 *ids)
{
	fprintf(f, "\"%s\":{\"real\":%u,\"effective\":%u,\"saved\":%u,\"fs\":%u}",
		name, ids[0], ids[1], ids[2], ids[3]);
}

static void json_caps(FILE *f, const char *name,
		      const struct task_diag_caps *c)
{
	char hex[CAPS_HEX_LEN];

	fprintf(f, ",\"%s\":\"0x%s\"", name, caps_hex(c, hex));
}

static void json_creds(FILE *f, const struct task_diag_creds *c)
{
	const __u32 uids[] = { c->uid, c->euid, c->suid, c->fsuid };
	const __u32 gids[] = { c->gid, c->egid, c->sgid, c->fsgid };

	fprintf(f, ",\"cred\":{");
	json_ids(f, "uid", uids);
	fputc(',', f);
	json_ids(f, "gid", gids);
	json_caps(f, "cap_inheritable", &c->cap_inheritable);
	json_caps(f, "cap_permitted", &c->cap_permitted);
	json_caps(f, "cap_effective", &c->cap_effective);
	json_caps(f, "cap_bset", &c->cap_bset);
	fputc('}', f);
}

static void json_vma(FILE *f, const struct taskdiag_vma *v)
{
	const struct taskdiag_vma *r = v;

	fprintf(f, "{\"start\":\"0x%llx\",\"end\":\"0x%llx\"", U(r->start),
		U(r->end));
	fprintf(f, ",\"flags\":\"0x%llx\",\"pgoff\":\"%llu\"", U(r->vm_flags),
		U(r->pgoff));
	fprintf(f, ",\"major\":%u,\"minor\":%u,\"inode\":\"%llu\"", r->major,
		r->minor, U(r->inode));
	fprintf(f, ",\"generation\":%u", r->generation);
	if (v->name) {
		fprintf(f, ",\"name\":");
		json_string(f, v->name);
	}
	if (v->stat)
		json_group(f, "stat", v->stat, TASK_DIAG_VMA_STAT);
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

static void json_groups(FILE *f, const struct cmd_opts *o,
			const struct taskdiag_task *task)
{
	const struct task_diag_creds *cr = taskdiag_task__creds(task, NULL);
	const void *p;

	fprintf(f, ",\"exited\":%s",
		taskdiag_task__exited(task) ? "true" : "false");
	p = taskdiag_task__base(task, NULL);
	if (p)
		json_group(f, "base", p, TASK_DIAG_BASE);
	if (cr && o->show_flags & TASK_DIAG_SHOW_CRED)
		json_creds(f, cr);
	p = taskdiag_task__stat(task, NULL);
	if (p)
		json_group(f, "stat", p, TASK_DIAG_STAT);
	p = taskdiag_task__statm(task, NULL);
	if (p)
		json_group(f, "statm", p, TASK_DIAG_STATM);
	if (taskdiag_task__has(task, TASK_DIAG_VMA))
		json_vmas(f, task);
}

/**
 * print_json() - a task as a line of JSON
 * @f: the output
 * @o: the options: with -o, the fields listed, each null if its group
 *	was not sent; without, every group sent
 * @backend: the name of the backend that serves
 * @task: the task
 */
void print_json(FILE *f, const struct cmd_opts *o, const char *backend,
		const struct taskdiag_task *task)
{
	const struct cmd_field *fld;
	size_t i;

	fprintf(f, "{\"backend\":\"%s\"", backend);
	if (!o->nr_columns) {
		fprintf(f, ",\"pid\":%u,\"tgid\":%u", taskdiag_task__pid(task),
			taskdiag_task__tgid(task));
		json_groups(f, o, task);
	}
	for (i = 0; i < o->nr_columns; i++) {
		fld = o->columns[i];
		fputc(',', f);
		json_field(f, fld, task_group(task, fld->group));
	}
	fprintf(f, "}\n");
}
