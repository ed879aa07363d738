#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the task_diag shell tests share

# skip_if_no_task_diag: skip (exit 2) without /proc/task-diag or without
# task_diag in this perf
skip_if_no_task_diag() {
	if [ ! -w /proc/task-diag ]; then
		echo "Skip: no /proc/task-diag"
		exit 2
	fi
	if ! perf version --build-options | grep -q 'taskdiag: \[ on'; then
		echo "Skip: perf built without task_diag"
		exit 2
	fi
}

# skip_if_missing COMMAND [WHAT FOR]: skip (exit 2) without COMMAND
skip_if_missing() {
	if ! command -v "$1" > /dev/null; then
		echo "Skip: no $1${2:+ $2}"
		exit 2
	fi
}

# task_diag_configs DIR: DIR/task-diag.config and DIR/no-task-diag.config,
# for PERF_CONFIG=, with task_diag synthesis on and off, readable by all
task_diag_configs() {
	printf '[synthesize]\n\ttask-diag = false\n' > "$1/no-task-diag.config"
	printf '[synthesize]\n\ttask-diag = true\n' > "$1/task-diag.config"
	chmod 644 "$1/no-task-diag.config" "$1/task-diag.config"
}
