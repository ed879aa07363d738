#!/bin/bash
# perf top and perf trace -a: tasks named through task_diag synthesis
# SPDX-License-Identifier: GPL-2.0
#
# Workloads started before perf are known to perf top and perf trace only
# through the events synthesized at their start.  With task_diag serving
# that synthesis (perf -v says so), and with /proc for comparison:
#  - perf top's first screens name a two-thread workload by its comm and
#    DSO (its COMM and MMAP2 events);
#  - perf trace --pf=min, system wide (-a), names a process that maps and
#    touches memory in a loop by comm/pid and the shared object its faults
#    come from (its COMM and MMAP2 events); for the process only (-p: the
#    thread map synthesis), where no comm is shown, by that shared object.
# Both use software events only, so they need neither hardware counters
# nor syscall tracepoints.

shelldir=$(dirname "$0")
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh

skip_if_no_task_diag
skip_if_missing python3 "for the page-faulting workload"

live_test_init
err=0

# comms of their own: a link's name is the comm of what it runs
ln -s "$(command -v perf)" "${tmp}/td-thloop"
# python3 itself, not a wrapper that would look td-faulter up
ln -s "$(python3 -c 'import sys; print(sys.executable)')" "${tmp}/td-faulter"

# each workload alone: perf top drops the samples it cannot keep up with
"${tmp}/td-thloop" test -w thloop 600 &
pids=$!
SECONDS=0
until [ "$(ls /proc/${pids}/task 2>/dev/null | wc -l)" -ge 2 ]; do
	[ ${SECONDS} -lt 60 ] || { echo "thloop did not start its threads"; exit 1; }
	sleep 0.1
done
for src in task-diag no-task-diag; do
	# its comm and DSO (-v: the DSO's path; the symbol, with its
	# address, does not fit the screen)
	top_names ${src} "${tmp}/top-${src}.log" "%  *td-thloop  *[^ ]*perf " \
		"td-thloop in the perf DSO" --sort comm,dso,sym || err=1
done
kill ${pids} && wait ${pids} 2>/dev/null

"${tmp}/td-faulter" -c "import mmap
open('${tmp}/faulting', 'w').close()
while True:
	m = mmap.mmap(-1, 1 << 20)
	m.write(bytes(1 << 20))
	m.close()" &
pids=$!
ready "${tmp}/faulting"
for target in "-a" "-p ${pids}"; do
	who="td-faulter/${pids} "
	[ "${target}" = -a ] || who=""
	for src in task-diag no-task-diag; do
		log="${tmp}/trace-${src}.log"
		pattern=" ${who}minfault \[/[^]@]*\.so[^]@]*@"
		# shellcheck disable=SC2086 # the target is two words or one
		PERF_CONFIG="${tmp}/${src}.config" until_seen "${log}" \
			"${pattern}" perf trace -v ${target} --no-syscalls --pf=min
		named "trace ${target}" ${src} "${log}" "${pattern}" \
			"${who}and its library" minfault || err=1
	done
done
exit ${err}
