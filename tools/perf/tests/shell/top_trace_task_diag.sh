#!/bin/bash
# perf top and perf trace -a: tasks named through task_diag synthesis
# SPDX-License-Identifier: GPL-2.0
#
# Workloads started before perf are known to perf top and perf trace only
# through the events synthesized at their start.  With task_diag serving
# that synthesis, and with /proc for comparison:
#  - perf top's first screens name a two-thread workload by its comm and
#    DSO (its COMM and MMAP2 events);
#  - perf trace -a --pf=min names a process that maps and touches memory in
#    a loop, page-faulting all the time, by comm/pid and the shared object
#    its faults come from (its COMM and MMAP2 events).
# Both use software events only, so they need neither hardware counters
# nor syscall tracepoints.

shelldir=$(dirname "$0")
# shellcheck source=lib/perf_has_symbol.sh
. "${shelldir}"/lib/perf_has_symbol.sh
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh

sym="test_loop"
skip_test_missing_symbol ${sym}

skip_if_no_task_diag
if ! command -v python3 > /dev/null; then
	echo "Skip: no python3 for the page-faulting workload"
	exit 2
fi

tmp=$(mktemp -d /tmp/perf-task-diag.XXXXXX)
err=0

cleanup() {
	[ -n "${pids}" ] && kill ${pids} 2>/dev/null && wait ${pids} 2>/dev/null
	exec 3>&-
	rm -rf "${tmp}"
	trap - EXIT TERM INT
}
trap 'cleanup; exit 1' TERM INT
trap cleanup EXIT

task_diag_configs "${tmp}"

# comms of their own: a link's name is the comm of what it runs
ln -s "$(command -v perf)" "${tmp}/td-thloop"
# python3 itself, not a wrapper that would look td-faulter up
ln -s "$(python3 -c 'import sys; print(sys.executable)')" "${tmp}/td-faulter"

# perf top reads keys from its input: one that never has any, nor an end
mkfifo "${tmp}/keys"
exec 3<> "${tmp}/keys"

# until_seen LOG PATTERN CMD...: run CMD with its output in LOG until a
# line of LOG matches PATTERN (at most 60 s), then stop it (SIGTERM: a
# background command of a script ignores SIGINT)
until_seen() {
	local log=$1 pattern=$2 pid
	shift 2
	"$@" > "${log}" 2>&1 <&3 &
	pid=$!
	SECONDS=0
	while [ ${SECONDS} -lt 60 ]; do
		grep -q -e "${pattern}" "${log}" && break
		kill -0 ${pid} 2>/dev/null || break
		sleep 0.2
	done
	kill ${pid} 2>/dev/null
	wait ${pid}
	grep -q -e "${pattern}" "${log}"
}

# served LOG SOURCE: the synthesis was served by SOURCE, as perf -v says
served() {
	case $2 in
	task-diag) grep -q 'synthesized [0-9]* threads from /proc/task-diag' "$1" ;;
	*) grep -q 'synthesizing threads from /proc' "$1" ;;
	esac
}

# each workload alone: perf top drops the samples it cannot keep up with
"${tmp}/td-thloop" test -w thloop 600 &
pids=$!
for _ in $(seq 50); do
	[ "$(ls /proc/${pids}/task 2>/dev/null | wc -l)" -ge 2 ] && break
	sleep 0.1
done
for src in task-diag no-task-diag; do
	log="${tmp}/top-${src}.log"
	# its comm and DSO (-v: the DSO's path; the symbol, with its
	# address, does not fit the screen)
	if ! PERF_CONFIG="${tmp}/${src}.config" until_seen "${log}" \
		"%  *td-thloop  *[^ ]*perf " \
		perf top -v --stdio -e cpu-clock:u -d 1 --sort comm,dso,sym; then
		echo "perf top (${src}) did not name td-thloop in the perf DSO:"
		grep -A 5 PerfTop "${log}" | tail -n 6
		err=1
	elif ! served "${log}" ${src}; then
		echo "perf top (${src}): the synthesis was not served by ${src}"
		err=1
	fi
done
kill ${pids} && wait ${pids}

"${tmp}/td-faulter" -c 'import mmap
while True:
	m = mmap.mmap(-1, 1 << 20)
	m.write(bytes(1 << 20))
	m.close()' &
pids=$!
for src in task-diag no-task-diag; do
	log="${tmp}/trace-${src}.log"
	if ! PERF_CONFIG="${tmp}/${src}.config" until_seen "${log}" \
		" td-faulter/${pids} minfault \[/[^]@]*\.so[^]@]*@" \
		perf trace -v -a --no-syscalls --pf=min; then
		echo "perf trace -a (${src}) did not name td-faulter/${pids} and its library:"
		grep minfault "${log}" | tail -n 5
		err=1
	elif ! served "${log}" ${src}; then
		echo "perf trace -a (${src}): the synthesis was not served by ${src}"
		err=1
	fi
done
exit ${err}
