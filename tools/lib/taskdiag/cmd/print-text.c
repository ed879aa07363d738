// SPDX-License-Identifier: GPL-2.0
/*
 * taskdiag's text output: one line per task as the seed's example client
 * printed it, then indented lines for the other groups, and the VMAs as
 * lines of /proc/PID/maps (not indented, so that they can be diffed).
 * With -o, one ps-like line per task with the fields asked for.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

#define COMM_BUF	(TASK_DIAG_COMM_LEN * 4)

/* " name value" for each number of @group */
static void print_fields(FILE *f, const void *p, int group)
{
	const struct cmd_field *fld;

	for (fld = cmd_fields; fld->name; fld++)
		if (fld->group == group &&
		    (fld->kind == CMD_U32 || fld->kind == CMD_U64))
			fprintf(f, " %s %llu", fld->name, field_value(p, fld));
}

static void print_caps(FILE *f, const char *name,
		       const struct task_diag_caps *caps)
{
	char hex[CAPS_HEX_LEN];

	fprintf(f, " %s %s", name, caps_hex(caps, hex));
}

static void print_creds(FILE *f, const struct task_diag_creds *c)
{
	fprintf(f, "  cred uid %u %u %u %u gid %u %u %u %u\n", c->uid,
		c->euid, c->suid, c->fsuid, c->gid, c->egid, c->sgid, c->fsgid);
	fprintf(f, "  caps");
	print_caps(f, "inh", &c->cap_inheritable);
	print_caps(f, "prm", &c->cap_permitted);
	print_caps(f, "eff", &c->cap_effective);
	print_caps(f, "bnd", &c->cap_bset);
	fprintf(f, "\n");
}

static void print_vmas(FILE *f, const struct taskdiag_task *task)
{
	const struct taskdiag_vma *v;
	char line[8192];
	size_t i;

	taskdiag_task__for_each_vma(task, i, v) {
		taskdiag_vma__format(v, line, sizeof(line));
		fprintf(f, "%s\n", line);
		if (!v->stat)
			continue;
		fprintf(f, "  smaps flags %#llx",
			(unsigned long long)v->vm_flags);
		print_fields(f, v->stat, TASK_DIAG_VMA_STAT);
		fprintf(f, "\n");
	}
}

static void print_base(FILE *f, const struct cmd_opts *o,
		       const struct taskdiag_task *task)
{
	const struct task_diag_base *b = taskdiag_task__base(task, NULL);
	char comm[COMM_BUF];

	if (!b) {
		fprintf(f, "pid %5u tgid %5u\n", taskdiag_task__pid(task),
			taskdiag_task__tgid(task));
		return;
	}
	fprintf(f, "pid %5u tgid %5u ppid %5u sid %5u pgid %5u comm %s\n",
		b->pid, b->tgid, b->ppid, b->sid, b->pgid,
		escape_ps(b->comm, comm, sizeof(comm)));
	if (o->base)
		fprintf(f, "  state %c tpid %u\n", state_letter(b->state),
			b->tpid);
}

/* The width of a column: its header's, or more for its values */
static int column_width(const struct cmd_field *fld)
{
	int min[] = {
		[CMD_U32] = 7, [CMD_U64] = 10, [CMD_STATE] = 1,
		[CMD_COMM] = TASK_DIAG_COMM_LEN - 1, [CMD_CAPS] = 16,
	};
	int len = strlen(fld->name);

	return len > min[fld->kind] ? len : min[fld->kind];
}

/* @text in the column of @fld: numbers to the right, the comm to the left */
static void print_cell(FILE *f, const struct cmd_field *fld, const char *text,
		       bool first, bool last)
{
	int w = column_width(fld);

	if (!first)
		fputc(' ', f);
	if (fld->kind == CMD_COMM)
		fprintf(f, "%-*s", last ? 0 : w, text);
	else
		fprintf(f, "%*s", w, text);
}

/* The value of @fld in @group (NULL: not sent, "-") as text */
static const char *format_value(const struct cmd_field *fld,
				const void *group, char *buf, size_t size)
{
	const char *p = (const char *)group + fld->off;

	if (!group)
		return "-";
	switch (fld->kind) {
	case CMD_STATE:
		snprintf(buf, size, "%c", state_letter(*(const __u8 *)p));
		return buf;
	case CMD_COMM:
		return escape_ps(p, buf, size);
	case CMD_CAPS:
		return size >= CAPS_HEX_LEN ? caps_hex((const void *)p, buf) :
					      "?";
	case CMD_U32:
	case CMD_U64:
	default:
		snprintf(buf, size, "%llu", field_value(group, fld));
		return buf;
	}
}

static void print_columns(FILE *f, const struct cmd_opts *o,
			  const struct taskdiag_task *task)
{
	const struct cmd_field *fld;
	char buf[COMM_BUF];
	size_t i;

	for (i = 0; i < o->nr_columns; i++) {
		fld = o->columns[i];
		print_cell(f, fld, format_value(fld, task_group(task, fld->group),
						buf, sizeof(buf)),
			   !i, i + 1 == o->nr_columns);
	}
	fputc('\n', f);
}

/**
 * print_text_header() - what comes before the tasks, unless --no-headers
 * @f: the output
 * @o: the options
 * @backend: the name of the backend that serves
 */
void print_text_header(FILE *f, const struct cmd_opts *o, const char *backend)
{
	const struct cmd_field *fld;
	char name[64];
	size_t i, j;

	if (o->no_headers)
		return;
	fprintf(f, "# backend: %s\n", backend);
	for (i = 0; i < o->nr_columns; i++) {
		fld = o->columns[i];
		for (j = 0; fld->name[j] && j < sizeof(name) - 1; j++)
			name[j] = toupper((unsigned char)fld->name[j]);
		name[j] = '\0';
		print_cell(f, fld, name, !i, i + 1 == o->nr_columns);
	}
	if (o->nr_columns)
		fputc('\n', f);
}

void print_text(FILE *f, const struct cmd_opts *o,
		const struct taskdiag_task *task)
{
	const struct task_diag_statm *sm = taskdiag_task__statm(task, NULL);
	const struct task_diag_stat *st = taskdiag_task__stat(task, NULL);
	const struct task_diag_creds *cr = taskdiag_task__creds(task, NULL);

	if (o->nr_columns) {
		print_columns(f, o, task);
		return;
	}
	print_base(f, o, task);
	if (taskdiag_task__exited(task))
		fprintf(f, "  exited\n");
	if (cr && o->show_flags & TASK_DIAG_SHOW_CRED)
		print_creds(f, cr);
	if (st) {
		fprintf(f, "  stat");
		print_fields(f, st, TASK_DIAG_STAT);
		fprintf(f, "\n");
	}
	if (sm) {
		fprintf(f, "  statm");
		print_fields(f, sm, TASK_DIAG_STATM);
		fprintf(f, "\n");
	}
	print_vmas(f, task);
}
