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
	skip_if_built_without taskdiag
}

# skip_if_built_without FEATURE: skip (exit 2) unless perf version
# --build-options says FEATURE is on
skip_if_built_without() {
	if ! perf version --build-options | grep -q "$1: \[ on"; then
		echo "Skip: perf built without $1"
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

# until_seen LOG PATTERN CMD...: run CMD with its output in LOG and its
# input from fd 3 until a line of LOG matches PATTERN (at most 60 s), then
# stop it (SIGTERM: a background command of a script ignores SIGINT);
# ${pids}, the caller's running workloads, holds CMD while it runs
until_seen() {
	local log=$1 pattern=$2 workload=${pids} pid
	shift 2
	"$@" > "${log}" 2>&1 <&3 &
	pid=$!
	pids="${workload} ${pid}"
	SECONDS=0
	while [ ${SECONDS} -lt 60 ]; do
		grep -q -e "${pattern}" "${log}" && break
		kill -0 ${pid} 2>/dev/null || break
		sleep 0.2
	done
	kill ${pid} 2>/dev/null
	wait ${pid} 2>/dev/null
	pids=${workload}
	grep -q -e "${pattern}" "${log}"
}

# named CMD SOURCE LOG PATTERN WHAT SHOW: LOG of perf CMD -v with SOURCE's
# config (task-diag, no-task-diag) has a line matching PATTERN and says
# SOURCE served its synthesis; else says which is not so, with the last
# lines around those matching SHOW
named() {
	local cmd=$1 src=$2 log=$3 pattern=$4 what=$5 show=$6
	if ! grep -q -e "${pattern}" "${log}"; then
		echo "perf ${cmd} (${src}) did not name ${what}:"
		grep -A 5 -e "${show}" "${log}" | tail -n 6
		return 1
	fi
	if ! served "${log}" "${src}"; then
		echo "perf ${cmd} (${src}): the synthesis was not served by ${src}"
		return 1
	fi
}

# top_names SOURCE LOG PATTERN WHAT [OPTION...]: perf top -v --stdio of
# user cpu-clock samples, with SOURCE's config, until a line of its
# screens in LOG matches PATTERN; named() of what it showed
top_names() {
	local src=$1 log=$2 pattern=$3 what=$4
	shift 4
	PERF_CONFIG="${tmp}/${src}.config" until_seen "${log}" "${pattern}" \
		perf top -v --stdio -e cpu-clock:u -d 1 "$@"
	named top "${src}" "${log}" "${pattern}" "${what}" PerfTop
}

# served LOG SOURCE: the synthesis was served by SOURCE, as perf -v says
served() {
	if [ "$2" = task-diag ]; then
		grep -q -e 'synthesized [0-9]* threads from /proc/task-diag' \
			-e 'synthesizing the thread map from /proc/task-diag' \
			-e 'synthesizing the tasks from /proc/task-diag as they are seen' \
			"$1"
	else
		! grep -q 'from /proc/task-diag' "$1"
	fi
}

# ready FILE: wait until the workload created FILE, fail after 60 s
ready() {
	SECONDS=0
	until [ -e "$1" ]; do
		if [ ${SECONDS} -ge 60 ]; then
			echo "the workload did not start"
			exit 1
		fi
		sleep 0.1
	done
}

# live_test_init: for a test that runs workloads and live perf commands:
# ${tmp}, a new directory with the two configs of task_diag_configs;
# ${pids}, the workloads and perf command running, stopped on exit; fd 3,
# a FIFO that never has any data nor an end, for perf top's keys
live_test_init() {
	tmp=$(mktemp -d /tmp/perf-task-diag.XXXXXX)
	pids=""
	trap 'live_test_cleanup; exit 1' TERM INT
	trap live_test_cleanup EXIT
	task_diag_configs "${tmp}"
	mkfifo "${tmp}/keys"
	exec 3<> "${tmp}/keys"
}

live_test_cleanup() {
	[ -n "${pids}" ] && kill ${pids} 2>/dev/null && wait ${pids} 2>/dev/null
	exec 3>&-
	rm -rf "${tmp}"
	trap - EXIT TERM INT
}
