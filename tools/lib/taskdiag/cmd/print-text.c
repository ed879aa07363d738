// SPDX-License-Identifier: GPL-2.0
/*
 * taskdiag's text output: one line per task as the seed's example client
 * printed it, then indented lines for the other groups, and the VMAs as
 * lines of /proc/PID/maps (not indented, so that they can be diffed).
 */
#include <stdio.h>

#include "cmd.h"

static const char state_letters[] = "RSDTtXZPI";

static char state_letter(__u8 state)
{
	return state < sizeof(state_letters) - 1 ? state_letters[state] : '?';
}

/* " name value" for each field */
static void print_fields(FILE *f, const void *group,
			 const struct cmd_field *fields)
{
	for (; fields->name; fields++)
		fprintf(f, " %s %llu", fields->name, field_value(group, fields));
}

static void print_caps(FILE *f, const char *name,
		       const struct task_diag_caps *caps)
{
	fprintf(f, " %s %08x%08x", name, caps->cap[1], caps->cap[0]);
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

static void print_stat(FILE *f, const struct task_diag_stat *s)
{
	fprintf(f, "  stat");
	print_fields(f, s, stat_fields);
	fprintf(f, " threads %u\n", s->threads);
}

static void print_statm(FILE *f, const struct task_diag_statm *s)
{
	fprintf(f, "  statm");
	print_fields(f, s, statm_fields);
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
			(unsigned long long)v->vma.vm_flags);
		print_fields(f, v->stat, vma_stat_fields);
		fprintf(f, "\n");
	}
}

static void print_base(FILE *f, const struct cmd_opts *o,
		       const struct taskdiag_task *task)
{
	const struct task_diag_base *b = taskdiag_task__base(task);

	if (!b) {
		fprintf(f, "pid %5u tgid %5u\n", taskdiag_task__pid(task),
			taskdiag_task__tgid(task));
		return;
	}
	fprintf(f, "pid %5u tgid %5u ppid %5u sid %5u pgid %5u comm %s\n",
		b->pid, b->tgid, b->ppid, b->sid, b->pgid, b->comm);
	if (o->base)
		fprintf(f, "  state %c tpid %u\n", state_letter(b->state),
			b->tpid);
}

void print_text(FILE *f, const struct cmd_opts *o,
		const struct taskdiag_task *task)
{
	print_base(f, o, task);
	if (taskdiag_task__exited(task))
		fprintf(f, "  exited\n");
	if (taskdiag_task__creds(task))
		print_creds(f, taskdiag_task__creds(task));
	if (taskdiag_task__stat(task))
		print_stat(f, taskdiag_task__stat(task));
	if (taskdiag_task__statm(task))
		print_statm(f, taskdiag_task__statm(task));
	print_vmas(f, task);
}
