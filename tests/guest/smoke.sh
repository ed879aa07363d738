#!/bin/sh
# Guest smoke test (TAP): our kernel booted, /proc works, perf runs.
perf=${TASKDIAG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/taskdiag}/out/perf
n=0
check() {
	n=$((n + 1))
	desc=$1
	shift
	if out=$("$@" 2>&1); then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
	fi
}
check "kernel is 6.12" sh -c 'uname -r | grep -q "^6\.12\."'
check "/proc/self/status names this shell" sh -c 'grep -q "^Pid:[[:space:]]*$$\$" /proc/$$/status'
check "/proc/task-diag exists" test -e /proc/task-diag
check "perf runs" "$perf" version
echo "1..$n"
