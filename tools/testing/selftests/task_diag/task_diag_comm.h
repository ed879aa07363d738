/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The example client of the original task_diag series (task_diag_all),
 * ported to the v3 interface: message walking and printing.
 */
#ifndef __TASK_DIAG_COMM__
#define __TASK_DIAG_COMM__

#include <stdio.h>
#include <linux/task_diag.h>

#define pr_err(fmt, ...)						\
	fprintf(stderr, "%s:%d: " fmt "\n", __func__, __LINE__,	\
		##__VA_ARGS__)

#define pr_perror(fmt, ...)						\
	fprintf(stderr, fmt ": %m\n", ##__VA_ARGS__)

extern int quiet;
#define pr_info(fmt, arg...)			\
	do {					\
		if (!quiet)			\
			printf(fmt, ##arg);	\
	} while (0)

int nlmsg_receive(void *buf, int len,
		  int (*cb)(struct nlmsghdr *, void *), void *args);
int show_task(struct nlmsghdr *hdr, void *arg);

#endif /* __TASK_DIAG_COMM__ */
