/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The taskdiag command: what its parts share.
 */
#ifndef __TASKDIAG_CMD_H
#define __TASKDIAG_CMD_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <taskdiag/taskdiag.h>

/* Exit statuses, as pgrep's */
#define EXIT_FOUND	0	/* tasks were printed */
#define EXIT_NONE	1	/* no task matched */
#define EXIT_USAGE	2
#define EXIT_ERROR	3	/* the tasks could not be had */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* How a field's value is stored and printed */
enum cmd_kind {
	CMD_U32,
	CMD_U64,	/* a string in JSON: it may not fit in a double */
	CMD_STATE,	/* a letter of /proc/PID/stat */
	CMD_COMM,	/* escaped as ps does in text, JSON-escaped in JSON */
	CMD_CAPS,	/* a capability set, 16 hex digits */
};

/* A field of a group; the table ends with an empty entry */
struct cmd_field {
	const char	*name;
	int		group;		/* TASK_DIAG_BASE, TASK_DIAG_CRED, ... */
	enum cmd_kind	kind;
	size_t		off;
	unsigned int	shift;		/* the value is shifted right: pss */
};

/* fields.c */
extern const struct cmd_field cmd_fields[];
const struct cmd_field *field_find(const char *name);
unsigned long long field_value(const void *group, const struct cmd_field *f);
const void *task_group(const struct taskdiag_task *task, int group);
char state_letter(__u8 state);
#define CAPS_HEX_LEN	17
const char *caps_hex(const struct task_diag_caps *caps, char *buf);

/* escape.c */
size_t utf8_lead_len(unsigned char c);
size_t utf8_len(const unsigned char *s);
const char *escape_ps(const char *s, char *buf, size_t size);

struct cmd_opts {
	__u64		strategy;
	__u32		*pids;
	size_t		nr_pids;
	uid_t		*uids;		/* -u: effective user ids */
	size_t		nr_uids;
	const struct cmd_field **columns;	/* -o */
	size_t		nr_columns;
	__u64		show_flags;	/* the groups printed */
	__u64		request_flags;	/* and those -u and -o need */
	bool		base;		/* the rest of TASK_DIAG_BASE */
	bool		json;
	bool		verbose;
	bool		no_headers;
	size_t		buf_size;
	enum taskdiag_backend backend;
	const char	*dump_raw;
	const char	*proc_root;
};

/* args.c: 0, or -1 after a message (exit status 2); 1 after --help */
int parse_args(struct cmd_opts *o, int argc, char **argv);
void free_args(struct cmd_opts *o);

/* print-text.c */
void print_text_header(FILE *f, const struct cmd_opts *o, const char *backend);
void print_text(FILE *f, const struct cmd_opts *o,
		const struct taskdiag_task *task);

/* print-json.c */
void print_json(FILE *f, const struct cmd_opts *o, const char *backend,
		const struct taskdiag_task *task);

/* ps.c: taskdiag ps ARGS, an exit status */
int ps_main(int argc, char **argv);

/* raw.c */
struct raw_source;
struct raw_source *raw_source__new(const char *proc_root, const char *path);
const struct taskdiag_source *raw_source__source(struct raw_source *raw);
void raw_source__delete(struct raw_source *raw);

#endif /* __TASKDIAG_CMD_H */
