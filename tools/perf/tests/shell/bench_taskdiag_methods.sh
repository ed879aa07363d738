#!/bin/bash
# perf bench taskdiag -m: only the methods named are run
# SPDX-License-Identifier: GPL-2.0
#
# -m takes keys of the '-f simple' output.  Two methods: both timed as
# many times as asked, no other, and each with its digest line (they are
# checked against each other).  One method: timed alone, without a digest
# run, as there is nothing to check it against.  A key that names no
# method here, or an empty list, is an error that says so.

shelldir=$(dirname "$0")
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh

skip_if_no_task_diag

tmp=$(mktemp -d /tmp/perf-test-bench-methods.XXXXXX)
trap 'rm -rf "${tmp}"' EXIT
err=0

# bench KEYS: perf bench taskdiag -m KEYS on 10 processes of 2 threads
bench() {
	perf bench -f simple taskdiag -p 10 -t 2 -i 2 -m "$1" \
		> "${tmp}/out" 2> "${tmp}/err"
}

# lines KIND: the sources of the lines of KIND, sorted, on one line
lines() {
	awk -F, -v k="$1" '$1 == k { print $2 }' "${tmp}/out" | sort | tr '\n' ' '
}

# expect KEYS TIMES DIGESTS: perf bench -m KEYS printed time lines of the
# sources TIMES and digest lines of DIGESTS (sorted, space-ended)
expect() {
	if ! bench "$1"; then
		echo "-m $1 failed:"
		cat "${tmp}/err"
		err=1
		return
	fi
	if [ "$(lines time)" != "$2" ] || [ "$(lines digest)" != "$3" ]; then
		echo "-m $1: time lines of '$(lines time)', digests of '$(lines digest)'; expected '$2' and '$3'"
		cat "${tmp}/out"
		err=1
	fi
}

expect taskdiag,proc-1 "proc-1 proc-1 taskdiag taskdiag " "proc-1 taskdiag "
expect taskdiag "taskdiag taskdiag " ""

# refuse MESSAGE KEYS: perf bench -m KEYS fails, saying MESSAGE
refuse() {
	if bench "$2"; then
		echo "-m '$2' did not fail"
		err=1
	elif ! grep -q "$1" "${tmp}/err"; then
		echo "-m '$2' failed without saying '$1':"
		cat "${tmp}/err"
		err=1
	fi
}

refuse "no method 'nosuch' here" taskdiag,nosuch
refuse "names no method" ""
exit ${err}
