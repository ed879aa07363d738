#!/bin/bash
# perf record -a and perf top: no per-task /proc access with task_diag
# SPDX-License-Identifier: GPL-2.0
#
# With 1,000 more processes than perf found at start, a whole
# `perf record -a -- true`, with and without build-id MMAP2 events
# (--buildid-mmap, the kernel reads the build IDs), and the start-up of
# `perf top` must access (open, stat, readlink...) the /proc/PID/ files of
# at most a few tasks when the threads are synthesized from
# /proc/task-diag, and no system call of a whole `perf record -a -- true`
# may be made once per task (an open, stat or read of each task's
# executable or [vdso], a write of each event): nothing perf does may grow
# with the number of tasks.  The /proc walk, which opens
# files of every task, shows that both counts see such accesses.

nr_procs=1000
limit=50	# /proc/PID/ paths: perf's own and its workload's, a few more
syscall_limit=$((nr_procs / 4))	# more calls of one system call in perf record

shelldir=$(dirname "$0")
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh

skip_if_no_task_diag
skip_if_missing strace

tmp=$(mktemp -d /tmp/perf-task-diag.XXXXXX)
err=0

cleanup() {
	[ -n "${wpid}" ] && kill -TERM -- "-${wpid}" 2>/dev/null
	rm -rf "${tmp}"
	trap - EXIT TERM INT
}
trap 'cleanup; exit 1' TERM INT
trap cleanup EXIT

task_diag_configs "${tmp}"

# proc_paths TRACE: the distinct /proc/PID/ paths accessed, PID not perf's
proc_paths() {
	grep -o '"/proc/[0-9][0-9]*/[^"]*"' "$1" | sort -u | wc -l
}

# syscall_counts TRACE: "COUNT NAME" of each system call in TRACE, most
# frequent first (an interrupted call counts once, not again when resumed)
syscall_counts() {
	awk '$2 ~ /^[a-z_0-9]+\(/ { sub(/\(.*/, "", $2); print $2 }' "$1" |
		sort | uniq -c | sort -rn
}

# traced SOURCE NAME FILTER CMD...: CMD under strace -e FILTER, the count
# of proc_paths
traced() {
	local src=$1 name=$2 filter=$3

	shift 3
	PERF_CONFIG="${tmp}/${src}.config" strace -f -qq -o "${tmp}/${name}.trace" \
		-e "${filter}" "$@" > "${tmp}/${name}.log" 2>&1
	proc_paths "${tmp}/${name}.trace"
}
file_calls=trace=open,openat,openat2,stat,lstat,newfstatat,statx,access,faccessat,faccessat2,readlink,readlinkat

# The system calls of perf record before the workload is started
traced task-diag baseline trace=all perf record -a -e cpu-clock \
	-o "${tmp}/baseline.data" -- true > /dev/null
syscall_counts "${tmp}/baseline.trace" > "${tmp}/baseline.counts"

# nr_procs sleeping processes in a process group of their own
setsid perl -e '$SIG{TERM} = sub { kill "TERM", -$$; exit 0 };
	for (1..$ARGV[0]) { if (!fork) { sleep 1000; exit 0 } }
	open(F, ">", $ARGV[1]); close(F); sleep 1000' \
	"${nr_procs}" "${tmp}/ready" &
wpid=$!
for _ in $(seq 600); do
	[ -e "${tmp}/ready" ] && break
	sleep 0.1
done
if [ ! -e "${tmp}/ready" ]; then
	echo "the ${nr_procs} processes were not started"
	exit 1
fi

declare -A record_paths top_paths
for src in task-diag no-task-diag; do
	n=$(traced ${src} record-${src} trace=all perf record -v -a \
		-e cpu-clock -o "${tmp}/${src}.data" -- true)
	echo "perf record -a -- true (${src}): ${n} /proc/PID/ paths"
	record_paths[${src}]=${n}
	n=$(traced ${src} top-${src} "${file_calls}" \
		timeout -s INT 30 perf top --stdio -d 1 -e cpu-clock)
	echo "perf top (${src}), 30 s: ${n} /proc/PID/ paths"
	top_paths[${src}]=${n}
done
n=$(traced task-diag record-buildid trace=all perf record -v -a --buildid-mmap \
	-e cpu-clock -o "${tmp}/buildid.data" -- true)
echo "perf record -a --buildid-mmap -- true (task-diag): ${n} /proc/PID/ paths"
record_paths[buildid]=${n}
for name in record-task-diag record-buildid; do
	if ! grep -q 'synthesized [0-9]* threads from /proc/task-diag' "${tmp}/${name}.log"; then
		echo "task_diag did not serve the synthesis of ${name}:"
		tail -n 20 "${tmp}/${name}.log"
		err=1
	fi
done
if ! grep -q 'PerfTop:' "${tmp}/top-task-diag.log"; then
	echo "perf top (task-diag) showed no screen in 30 s:"
	tail -n 20 "${tmp}/top-task-diag.log"
	err=1
fi
if [ "${record_paths[no-task-diag]}" -lt "${nr_procs}" ]; then
	echo "the /proc walk accessed only ${record_paths[no-task-diag]} paths: the count misses accesses"
	err=1
fi
if [ "${record_paths[task-diag]}" -gt "${limit}" ] ||
   [ "${record_paths[buildid]}" -gt "${limit}" ] ||
   [ "${top_paths[task-diag]}" -gt "${limit}" ]; then
	echo "task_diag: more than ${limit} /proc/PID/ paths, the first of them:"
	grep -ho '"/proc/[0-9][0-9]*/[^"]*"' "${tmp}/record-task-diag.trace" \
		"${tmp}/record-buildid.trace" "${tmp}/top-task-diag.trace" |
		sort | uniq -c | sort -rn | head -n 20
	err=1
fi

# growth TRACE: "COUNT NAME" of each system call of TRACE, COUNT how many
# more times than perf record made it before the workload, most first
growth() {
	syscall_counts "$1" > "${tmp}/counts"
	awk 'NR == FNR { base[$2] = $1; next } { print $1 - base[$2], $2 }' \
		"${tmp}/baseline.counts" "${tmp}/counts" | sort -rn
}

# The system call of each source's perf record that grew most
read -r most_proc name_proc <<< "$(growth "${tmp}/record-no-task-diag.trace" | head -n 1)"
echo "perf record -a -- true with ${nr_procs} more processes, the system call" \
	"made most more often: ${name_proc} +${most_proc} (/proc)"
if [ "${most_proc:-0}" -lt "${nr_procs}" ]; then
	echo "no system call of the /proc walk grew by one per task: the count misses calls"
	err=1
fi
for name in record-task-diag record-buildid; do
	read -r most_td name_td <<< "$(growth "${tmp}/${name}.trace" | head -n 1)"
	echo "${name}: the system call made most more often: ${name_td} +${most_td}"
	if [ "${most_td:-0}" -gt "${syscall_limit}" ]; then
		echo "${name}: system calls made more than ${syscall_limit} more times:"
		growth "${tmp}/${name}.trace" | head -n 10
		err=1
	fi
done
exit ${err}
