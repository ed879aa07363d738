/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The taskdiag command: what its parts share.
 */
#ifndef __TASKDIAG_CMD_H
#define __TASKDIAG_CMD_H

#include <stdbool.h>
#include <stdio.h>
#include <taskdiag/taskdiag.h>

struct cmd_opts {
	__u64		strategy;
	__u32		pid;
	bool		has_pid;
	__u64		show_flags;
	bool		base;		/* the rest of TASK_DIAG_BASE */
	bool		json;
	bool		verbose;
	size_t		buf_size;
	enum taskdiag_backend backend;
	const char	*dump_raw;
	const char	*proc_root;
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* A __u64 field of a group; tables end with an empty entry */
struct cmd_field {
	const char	*name;
	size_t		off;
};

/* fields.c */
extern const struct cmd_field stat_fields[];
extern const struct cmd_field statm_fields[];
extern const struct cmd_field vma_stat_fields[];
unsigned long long field_value(const void *group, const struct cmd_field *f);

/* print-text.c */
void print_text(FILE *f, const struct cmd_opts *o,
		const struct taskdiag_task *task);

/* print-json.c */
void print_json(FILE *f, const struct cmd_opts *o,
		const struct taskdiag_task *task);

/* raw.c */
struct raw_source;
struct raw_source *raw_source__new(const char *proc_root, const char *path);
const struct taskdiag_source *raw_source__source(struct raw_source *raw);
void raw_source__delete(struct raw_source *raw);

#endif /* __TASKDIAG_CMD_H */
