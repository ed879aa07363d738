// SPDX-License-Identifier: GPL-2.0
#include <linux/task_diag.h>

int main(void)
{
	struct task_diag_pid req = {
		.show_flags	= TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_VMA,
		.dump_strategy	= TASK_DIAG_DUMP_ALL_THREAD,
	};

	return req.pid + (TASK_DIAG_FLAG_CONT != 1);
}
