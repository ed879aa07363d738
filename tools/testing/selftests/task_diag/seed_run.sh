#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The checks of the original task_diag selftest (run.sh and _run.sh), with
# its example client task_diag_all: in a new pid namespace with a /proc of
# its own, 1,000 forked processes are seen by "all", "All" and
# "children --pid 1", pid 1 by "one", and the 1,234 threads of a process by
# "threads --pid".  TAP output; exit 0 if all passed, 4 if skipped.
#
# The binaries (task_diag_all, fork) are looked for in $TD_BIN_DIR, by
# default the directory of this script.

NR_TESTS=5
KSFT_SKIP=4
NR_FORKS=1000
NR_THREADS=1234
FORK_LINE='pid.*tgid.*ppid.*comm fork$'

here=$(cd "$(dirname "$0")" && pwd)
bin=${TD_BIN_DIR:-$here}

n=0
failed=0

check() { # check NAME EXPECTED ACTUAL
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1 # expected $2, got $3"
		failed=1
	fi
}

# count ARGS...: the fork tasks "task_diag_all ARGS" lists, or "error N"
count() {
	local out rc

	out=$("$bin/task_diag_all" "$@" | grep -c "$FORK_LINE"
	      exit "${PIPESTATUS[0]}")
	rc=$?
	[ "$rc" = 0 ] && echo "$out" || echo "error $rc"
}

# Runs as pid 1 of the new namespace: the orphaned forks become its children
inner() {
	local pids pid nprocesses nthreads nchildren one ntaskthreads

	cd "$bin" || exit 1
	pids=$(./fork $NR_FORKS)
	nprocesses=$(count all --maps)
	nthreads=$(count All --smaps --cred)
	nchildren=$(count children --pid 1)
	one=$(./task_diag_all one --pid 1 --cred | grep -c '^pid *1 tgid *1 ')
	# shellcheck disable=SC2086 # one pid a word
	kill -9 $pids 2>/dev/null

	# --maps and --smaps of 1,234 threads sharing 2,500 VMAs would print
	# millions of lines: only their credentials here
	pid=$(./fork 1 $NR_THREADS)
	ntaskthreads=$(count threads --cred --pid "$pid")
	kill -9 "$pid" 2>/dev/null

	check "all --maps: $NR_FORKS processes" $NR_FORKS "$nprocesses"
	check "All --smaps --cred: $NR_FORKS threads" $NR_FORKS "$nthreads"
	check "children --pid 1: $NR_FORKS children" $NR_FORKS "$nchildren"
	check "one --pid 1 --cred: pid 1" 1 "$one"
	check "threads --pid: $NR_THREADS threads" $NR_THREADS "$ntaskthreads"
	exit $failed
}

if [ "$1" = --inner ]; then
	inner
fi

echo "TAP version 13"
echo "1..$NR_TESTS"

reason=
[ -e /proc/task-diag ] || reason="/proc/task-diag missing"
[ "$(id -u)" = 0 ] || reason="needs root"
for b in task_diag_all fork; do
	[ -x "$bin/$b" ] || reason="$bin/$b not built"
done
command -v unshare >/dev/null || reason="no unshare(1)"
if [ -n "$reason" ]; then
	for i in $(seq 1 $NR_TESTS); do
		echo "ok $i seed # SKIP $reason"
	done
	exit $KSFT_SKIP
fi

out=$(TD_BIN_DIR=$bin unshare -p -f -m --mount-proc "$here/$(basename "$0")" \
      --inner)
rc=$?
[ -n "$out" ] && printf '%s\n' "$out"
n=$(printf '%s\n' "$out" | grep -cE '^(not )?ok ')
for i in $(seq $((n + 1)) $NR_TESTS); do
	echo "not ok $i seed # not run: the namespace exited with $rc"
done
[ "$rc" = 0 ] && [ "$n" = $NR_TESTS ] && exit 0
exit 1
