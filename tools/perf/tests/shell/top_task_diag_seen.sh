#!/bin/bash
# perf top and perf trace -a: tasks synthesized from task_diag as the events name them
# SPDX-License-Identifier: GPL-2.0
#
# With task_diag, perf top and perf trace system wide synthesize no task at
# their start: each is asked of task_diag when an event first names it.  A
# shell that existed before them and forks busy subshells after they
# started (children that do not exec: their maps are their parent's, which
# a FORK clones) must be named as with the /proc walk: by perf top with its
# comm and DSO, by perf trace with its comm and pid in the wait4() calls
# of the shell; and each must have synthesized fewer tasks than there are
# (perf -v says how many when it exits).

shelldir=$(dirname "$0")
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh

skip_if_no_task_diag
skip_if_missing dash "for the forking workload"

live_test_init
err=0

# a comm of its own: a link's name is the comm of what it runs
ln -s "$(command -v dash)" "${tmp}/td-forker"
# shellcheck disable=SC2016 # the workload's own variables
"${tmp}/td-forker" -c ': > "$1"/rounds
: > "$1"/forking
while :; do
	sleep 0.3
	(i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done)
	echo >> "$1"/rounds
done' td-forker "${tmp}" &
pids=$!
ready "${tmp}/forking"
# the tasks perf top would synthesize at its start
ntasks=$(cat /proc/[0-9]*/task/[0-9]*/stat 2>/dev/null | wc -l)

for src in task-diag no-task-diag; do
	top_names ${src} "${tmp}/top-${src}.log" "%  *td-forker  *[^ ]*dash " \
		"td-forker's children in dash" --sort comm,dso || err=1
done

for src in task-diag no-task-diag; do
	log="${tmp}/trace-${src}.log"
	# to its end: perf trace says what it synthesized when it exits.
	# It ends once the workload ended two rounds (at most 60 s): one
	# wait4() at least was wholly traced, however slow the machine.
	PERF_CONFIG="${tmp}/${src}.config" perf trace -v -a -e wait4 -- \
		dash -c 'n=$(wc -l < "$1"/rounds) s=0
		while [ "$(wc -l < "$1"/rounds)" -lt $((n + 2)) ] && [ $s -lt 300 ]; do
			sleep 0.2; s=$((s + 1))
		done' td-forker "${tmp}" > "${log}" 2>&1 < /dev/null
	named "trace -a" ${src} "${log}" " td-forker/${pids} wait4(" \
		"td-forker/${pids}" wait4 || err=1
done

for cmd in top trace; do
	log="${tmp}/${cmd}-task-diag.log"
	seen=$(sed -n 's/^synthesized \([0-9]*\) tasks seen from .*/\1/p' "${log}")
	if [ -z "${seen}" ] || [ "${seen}" -lt 1 ] || [ "${seen}" -ge "${ntasks}" ]; then
		echo "perf ${cmd} synthesized '${seen}' tasks as seen, of ${ntasks}:"
		grep -e task-diag -e synthesiz "${log}"
		err=1
	fi
done
exit ${err}
