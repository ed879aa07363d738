#!/bin/bash
# perf trace -a: system calls of tasks named through task_diag synthesis
# SPDX-License-Identifier: GPL-2.0
#
# perf trace -a with its default system call tracing names each call's
# task by comm/pid.  A process started before perf trace and calling
# mmap() and munmap() in a loop is known to it only through the events
# synthesized at its start: with task_diag serving that synthesis (perf -v
# says so), and with /proc for comparison, its calls must carry its comm.
# perf trace synthesizes the mappings only when it resolves samples; with
# --call-graph the callchains of those calls must name the C library the
# process had mapped before perf trace started.

shelldir=$(dirname "$0")
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh

skip_if_no_task_diag
skip_if_missing python3 "for the workload"
tracing=/sys/kernel/tracing
[ -d ${tracing}/events ] || tracing=/sys/kernel/debug/tracing
if [ ! -d ${tracing}/events/raw_syscalls ]; then
	echo "Skip: no system call tracepoints (a kernel without CONFIG_FTRACE_SYSCALLS)"
	exit 2
fi

# callchain_names_libc LOG COMM/PID: a callchain of one of COMM/PID's
# munmap calls in LOG names the C library
callchain_names_libc() {
	awk -v task="$2" '
		index($0, " " task " munmap(") { frames = 4; next }
		frames > 0 { frames--; if ($0 ~ /\(\/[^ ]*libc[.-]/) found = 1 }
		END { exit !found }' "$1"
}

live_test_init
err=0
# a comm of its own: python3 itself, not a wrapper, under another name
ln -s "$(python3 -c 'import sys; print(sys.executable)')" "${tmp}/td-mapper"

"${tmp}/td-mapper" -c "import mmap, time
open('${tmp}/mapping', 'w').close()
while True:
	mmap.mmap(-1, 1 << 16).close()
	time.sleep(0.01)" &
pids=$!
ready "${tmp}/mapping"
for src in task-diag no-task-diag; do
	log="${tmp}/trace-${src}.log"
	if ! PERF_CONFIG="${tmp}/${src}.config" until_seen "${log}" \
		" td-mapper/${pids} munmap(" perf trace -v -a -e munmap; then
		echo "perf trace -a (${src}) did not name td-mapper/${pids}'s munmap calls:"
		grep 'munmap(' "${log}" | tail -n 5
		err=1
	elif ! served "${log}" ${src}; then
		echo "perf trace -a (${src}): the synthesis was not served by ${src}"
		err=1
	fi
	log="${tmp}/trace-callchain-${src}.log"
	PERF_CONFIG="${tmp}/${src}.config" perf trace -a -e munmap \
		--call-graph fp --max-stack 4 -- sleep 3 > "${log}" 2>&1
	if ! callchain_names_libc "${log}" "td-mapper/${pids}"; then
		echo "perf trace -a --call-graph (${src}) did not name the C library in td-mapper/${pids}'s callchains:"
		grep -A 4 " td-mapper/${pids} munmap(" "${log}" | tail -n 10
		err=1
	fi
done
exit ${err}
