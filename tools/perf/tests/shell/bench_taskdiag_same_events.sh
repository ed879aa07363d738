#!/bin/bash
# perf bench taskdiag: every source sends the events /proc sends
# SPDX-License-Identifier: GPL-2.0
#
# perf bench taskdiag runs each source of the synthesis once, untimed, and
# fails unless each sends every task the events the /proc walk on one
# thread sends (make bench relies on it at 50,000 tasks).  Run it on a few
# forked processes: it must exit 0, have measured task_diag, print a
# digest line for every source it timed, none with a task that differs
# and none with more tasks seen by one source only than it allows, and
# have counted the same events for task_diag as for /proc.

shelldir=$(dirname "$0")
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh

skip_if_no_task_diag

tmp=$(mktemp -d /tmp/perf-test-bench-taskdiag.XXXXXX)
trap 'rm -rf "${tmp}"' EXIT

procs=40
threads=3
if ! perf bench -f simple taskdiag -p ${procs} -t ${threads} -i 2 \
		> "${tmp}/out" 2> "${tmp}/err"; then
	echo "perf bench taskdiag failed:"
	cat "${tmp}/err" "${tmp}/out"
	exit 1
fi

err=0
# digest,<source>,<tasks>,<digest>,<tasks that differ>,<kernel threads>,<alone>
if ! awk -F, -v min=$((procs * threads)) '
	$1 == "digest" {
		n++
		if ($2 == "taskdiag") td = 1
		if ($3 < min) { print $2 ": " $3 " tasks, fewer than forked"; bad = 1 }
		if ($5 != 0) { print $2 ": " $5 " tasks sent other events"; bad = 1 }
		if ($7 * 1000 > $3) { print $2 ": " $7 " tasks seen by one only"; bad = 1 }
	}
	END {
		if (!td) { print "no digest line for task_diag"; bad = 1 }
		if (n < 3) { print n " digest lines, not one a source"; bad = 1 }
		exit bad
	}' "${tmp}/out"; then
	err=1
fi

# time,<source>,<usec>,<events>: task_diag's run sent what /proc's sent,
# but for the tasks that came or went in between (kernel workers)
events() {
	awk -F, -v src="$1" '$1 == "time" && $2 == src { print $4; exit }' "${tmp}/out"
}
proc=$(events proc-1)
td=$(events taskdiag)
if [ -z "${proc}" ] || [ -z "${td}" ]; then
	echo "no timed run of /proc or task_diag"
	err=1
elif [ $((td - proc)) -gt 20 ] || [ $((proc - td)) -gt 20 ] ||
     [ "${td}" -lt $((procs * threads * 2)) ]; then
	echo "task_diag sent ${td} events, /proc ${proc}"
	err=1
fi
if [ ${err} -ne 0 ]; then
	cat "${tmp}/out"
fi
exit ${err}
