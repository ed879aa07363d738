#!/bin/bash
# perf record -a unprivileged: task_diag and /proc synthesize the same
# SPDX-License-Identifier: GPL-2.0
#
# An unprivileged perf record -a (perf_event_paranoid=-1, or CAP_PERFMON
# with the default paranoia) sees every task /proc lists and the maps of
# the tasks it may ptrace.  Synthesized from /proc/task-diag, its COMM,
# FORK and MMAP2 events of the tasks alive throughout must be those of
# the /proc walk: nothing dropped, no maps of root's tasks.

shelldir=$(dirname "$0")
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh

skip_if_no_task_diag
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null; then
	echo "Skip: needs root and setpriv to run perf as nobody"
	exit 2
fi

paranoid=/proc/sys/kernel/perf_event_paranoid
old_paranoid=$(cat ${paranoid})
tmp=$(mktemp -d /tmp/perf-task-diag.XXXXXX)
chmod 1777 "${tmp}"
err=0
wpids=""

cleanup() {
	for p in ${wpids}; do kill "${p}" 2>/dev/null; done
	wait 2>/dev/null
	echo "${old_paranoid}" > ${paranoid}
	rm -rf "${tmp}"
	trap - EXIT TERM INT
}
trap 'cleanup; exit 1' TERM INT
trap cleanup EXIT

task_diag_configs "${tmp}"
# perf where nobody may run it (not under root's home)
cp "$(command -v perf)" "${tmp}/perf" && chmod 755 "${tmp}/perf"

nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)

# a process of root's and a two-thread one of nobody's
perf test -w thloop 600 &
root_pid=$!
"${nobody[@]}" "${tmp}/perf" test -w thloop 600 &
nobody_pid=$!
wpids="${root_pid} ${nobody_pid}"
for _ in $(seq 50); do
	[ "$(ls /proc/${nobody_pid}/task 2>/dev/null | wc -l)" -ge 2 ] &&
		[ "$(ls /proc/${root_pid}/task 2>/dev/null | wc -l)" -ge 2 ] && break
	sleep 0.1
done

# record MODE SOURCE: perf record -a -- true as nobody (MODE nobody: with
# perf_event_paranoid=-1; perfmon: with CAP_PERFMON and paranoia 2)
record() {
	local mode=$1 src=$2 caps=()

	if [ "${mode}" = perfmon ]; then
		echo 2 > ${paranoid}
		caps=(--inh-caps=+perfmon --ambient-caps=+perfmon)
	else
		echo -1 > ${paranoid}
	fi
	HOME="${tmp}" PERF_CONFIG="${tmp}/${src}.config" "${nobody[@]}" "${caps[@]}" \
		"${tmp}/perf" record -v -N -a -e cpu-clock -o "${tmp}/${mode}-${src}.data" \
		-- true > "${tmp}/${mode}-${src}.log" 2>&1
}

# tasks FILE: the COMM, FORK and MMAP2 records of perf.data FILE, one per
# line, of the tids in ${tmp}/tids; not the COMM of kworkers, whose name
# procfs shows with the work they do at the time
tasks() {
	perf report -f -D -i "$1" 2>/dev/null |
		grep -oE 'PERF_RECORD_(COMM|FORK|MMAP2).*' |
		awk -v tids="${tmp}/tids" '
			BEGIN { while ((getline t < tids) > 0) alive[t] = 1 }
			{ tid = "" }
			/^PERF_RECORD_COMM: kworker\// { next }
			/^PERF_RECORD_COMM/ && match($0, /:[0-9]+\/[0-9]+$/) {
				split(substr($0, RSTART + 1), b, "/"); tid = b[2]
			}
			/^PERF_RECORD_FORK\(/ { split(substr($0, 18), b, "[:)]"); tid = b[2] }
			/^PERF_RECORD_MMAP2 / { split($2, b, "[/:]"); tid = b[2] }
			tid in alive' | sort
}

# tids: every thread of every process
tids() {
	local t

	for t in /proc/[0-9]*/task/[0-9]*; do
		echo "${t##*/}"
	done | sort
}

tids > "${tmp}/before"
for mode in nobody perfmon; do
	for src in task-diag no-task-diag; do
		if ! record ${mode} ${src}; then
			echo "perf record -a as ${mode} (${src}) failed:"
			tail -n 20 "${tmp}/${mode}-${src}.log"
			exit 1
		fi
	done
done
tids > "${tmp}/after"
comm -12 "${tmp}/before" "${tmp}/after" > "${tmp}/tids"

for mode in nobody perfmon; do
	if ! grep -q 'synthesized [0-9]* threads from /proc/task-diag' \
			"${tmp}/${mode}-task-diag.log"; then
		echo "${mode}: task_diag did not serve the synthesis:"
		tail -n 10 "${tmp}/${mode}-task-diag.log"
		err=1
	fi
	tasks "${tmp}/${mode}-task-diag.data" > "${tmp}/${mode}-task-diag.tasks"
	tasks "${tmp}/${mode}-no-task-diag.data" > "${tmp}/${mode}-no-task-diag.tasks"
	if ! cmp -s "${tmp}/${mode}-task-diag.tasks" "${tmp}/${mode}-no-task-diag.tasks"; then
		echo "${mode}: task_diag (<) and /proc (>) synthesized other events:"
		diff "${tmp}/${mode}-task-diag.tasks" "${tmp}/${mode}-no-task-diag.tasks" | head -n 20
		err=1
	fi
	nr_fork=$(grep -c '^PERF_RECORD_FORK' "${tmp}/${mode}-task-diag.tasks")
	nr_tids=$(wc -l < "${tmp}/tids")
	echo "${mode}: ${nr_fork} FORK for ${nr_tids} threads alive throughout," \
		"$(grep -c '^PERF_RECORD_COMM' "${tmp}/${mode}-task-diag.tasks") COMM," \
		"$(grep -c '^PERF_RECORD_MMAP2' "${tmp}/${mode}-task-diag.tasks") MMAP2"
	if [ "${nr_fork}" != "${nr_tids}" ]; then
		echo "${mode}: not one FORK event per thread"
		err=1
	fi
	if ! grep -q "^PERF_RECORD_MMAP2 ${nobody_pid}/" "${tmp}/${mode}-task-diag.tasks"; then
		echo "${mode}: no MMAP2 of nobody's own process ${nobody_pid}"
		err=1
	fi
	if grep -q "^PERF_RECORD_MMAP2 ${root_pid}/" "${tmp}/${mode}-task-diag.tasks"; then
		echo "${mode}: MMAP2 of root's process ${root_pid}"
		err=1
	fi
done
exit ${err}
