#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf top --stdio under strace, for the tests of what it does as it runs

# top_strace_init: ${tmp}, a new directory, removed on exit after perf top
# is stopped; fd 3, a FIFO that never has data nor an end, for its keys
top_strace_init() {
	tmp=$(mktemp -d /tmp/perf-top-strace.XXXXXX)
	strace_pid=""
	trap 'top_strace_cleanup; exit 1' TERM INT
	trap top_strace_cleanup EXIT
	mkfifo "${tmp}/keys"
	exec 3<> "${tmp}/keys"
}

# top_strace_stop: stop perf top, the child of strace, then strace
top_strace_stop() {
	[ -n "${strace_pid}" ] || return 0
	pkill -TERM -P "${strace_pid}"
	kill "${strace_pid}" 2>/dev/null
	wait "${strace_pid}" 2>/dev/null
	strace_pid=""
}

top_strace_cleanup() {
	top_strace_stop
	exec 3>&-
	rm -rf "${tmp}"
	trap - EXIT TERM INT
}

# top_strace_until SYSCALLS PATTERN COUNT: run perf top --stdio -a (20
# lines of 80 columns, a screen a second) under strace -e trace=SYSCALLS
# until COUNT lines of its output match PATTERN (at most 60 s), then stop
# it; its output is in ${tmp}/top.out, strace's in ${tmp}/top.strace.
# Fails if they never did.
top_strace_until() {
	local syscalls=$1 pattern=$2 count=$3

	LINES=20 COLUMNS=80 strace -f -qq -e trace="${syscalls}" \
		-e signal=none -s 32 -o "${tmp}/top.strace" \
		perf top --stdio -a -e cpu-clock -d 1 \
		> "${tmp}/top.out" 2> "${tmp}/top.err" <&3 &
	strace_pid=$!
	SECONDS=0
	while [ ${SECONDS} -lt 60 ] && kill -0 ${strace_pid} 2>/dev/null; do
		[ "$(grep -c -e "${pattern}" "${tmp}/top.out")" -ge "${count}" ] &&
			break
		sleep 0.2
	done
	top_strace_stop
	[ "$(grep -c -e "${pattern}" "${tmp}/top.out")" -ge "${count}" ]
}
