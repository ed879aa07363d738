#!/bin/bash
# perf record -a and perf top: no per-task /proc access with task_diag
# SPDX-License-Identifier: GPL-2.0
#
# With 1,000 more processes than perf found at start, a whole
# `perf record -a -- true` and the start-up of `perf top` must access (open,
# stat, readlink...) the /proc/PID/ files of at most a few tasks when the
# threads are synthesized from /proc/task-diag: nothing perf does may grow
# with the number of tasks.  The /proc walk, which opens files of every
# task, shows that the count sees such accesses.

nr_procs=1000
limit=50	# /proc/PID/ paths: perf's own and its workload's, a few more

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

# proc_paths TRACE: the distinct /proc/PID/ paths accessed, PID not perf's
proc_paths() {
	grep -o '"/proc/[0-9][0-9]*/[^"]*"' "$1" | sort -u | wc -l
}

# traced SOURCE NAME CMD...: CMD under strace, the count of proc_paths
traced() {
	local src=$1 name=$2

	shift 2
	PERF_CONFIG="${tmp}/${src}.config" strace -f -qq -o "${tmp}/${name}.trace" \
		-e trace=open,openat,openat2,stat,lstat,newfstatat,statx,access,faccessat,faccessat2,readlink,readlinkat \
		"$@" > "${tmp}/${name}.log" 2>&1
	proc_paths "${tmp}/${name}.trace"
}

for src in task-diag no-task-diag; do
	n=$(traced ${src} record-${src} perf record -v -a -e cpu-clock \
		-o "${tmp}/${src}.data" -- true)
	echo "perf record -a -- true (${src}): ${n} /proc/PID/ paths"
	eval "record_${src//-/_}=${n}"
	n=$(traced ${src} top-${src} timeout -s INT 30 perf top --stdio -d 1 \
		-e cpu-clock)
	echo "perf top (${src}), 30 s: ${n} /proc/PID/ paths"
	eval "top_${src//-/_}=${n}"
done
if ! grep -q 'synthesized [0-9]* threads from /proc/task-diag' "${tmp}/record-task-diag.log"; then
	echo "task_diag did not serve perf record's synthesis:"
	tail -n 20 "${tmp}/record-task-diag.log"
	err=1
fi
if ! grep -q 'PerfTop:' "${tmp}/top-task-diag.log"; then
	echo "perf top (task-diag) showed no screen in 30 s:"
	tail -n 20 "${tmp}/top-task-diag.log"
	err=1
fi
if [ "${record_no_task_diag}" -lt "${nr_procs}" ]; then
	echo "the /proc walk accessed only ${record_no_task_diag} paths: the count misses accesses"
	err=1
fi
if [ "${record_task_diag}" -gt "${limit}" ] || [ "${top_task_diag}" -gt "${limit}" ]; then
	echo "task_diag: more than ${limit} /proc/PID/ paths, the first of them:"
	grep -ho '"/proc/[0-9][0-9]*/[^"]*"' "${tmp}/record-task-diag.trace" \
		"${tmp}/top-task-diag.trace" | sort | uniq -c | sort -rn | head -n 20
	err=1
fi
exit ${err}
