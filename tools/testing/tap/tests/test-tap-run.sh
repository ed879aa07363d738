#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-tap-run.sh: tap-run fed fake suites, each broken in one way, gives
# the right counts and exit status and says why.  TAP.
here=$(cd "$(dirname "$0")" && pwd)
tap_run=$here/../tap-run
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

# expect DESC 'P passed, F failed, S skipped' RC [GREP-PATTERN...] -- NAME CMD...
# tap-run on the suites after "--" prints that summary, exits RC and
# prints a line matching every pattern.
expect() {
	desc=$1 want=$2 want_rc=$3 ok=1
	shift 3
	n=$((n + 1))
	pats=
	while [ "$1" != -- ]; do
		pats="$pats$1
"
		shift
	done
	shift
	"$tap_run" "$@" >"$tmp/out" 2>&1
	rc=$?
	grep -qx "# $want" "$tmp/out" || ok=0
	[ "$rc" = "$want_rc" ] || ok=0
	printf '%s' "$pats" >"$tmp/pats"
	while IFS= read -r p; do
		grep -qE -- "$p" "$tmp/out" || { ok=0; echo "# missing: $p"; }
	done <"$tmp/pats"
	if [ $ok = 1 ]; then
		echo "ok $n - $desc"
	else
		failed=1
		echo "not ok $n - $desc (exit status $rc, want $want_rc, '$want')"
		sed 's/^/#   /' "$tmp/out"
	fi
}

expect "a complete suite passes" "3 passed, 0 failed, 0 skipped" 0 \
	'^ok 3 - fake: c$' '^1\.\.3$' -- \
	fake 'echo 1..3; echo ok 1 - a; echo ok 2 - b; echo ok 3 - c'
expect "plan at the end is accepted" "2 passed, 0 failed, 0 skipped" 0 -- \
	fake 'echo ok 1 - a; echo ok 2 - b; echo 1..2'
expect "crash mid-stream: one failure, the signal and the last lines" \
	"2 passed, 1 failed, 0 skipped" 1 \
	'^not ok 3 - fake: planned 5 tests, ran 2; killed by SIGSEGV$' \
	'^#   \| ok 2 - b$' -- \
	fake 'echo 1..5; echo ok 1 - a; echo ok 2 - b; kill -SEGV $$'
expect "abort after a trailing-plan stream's results: no plan" \
	"1 passed, 1 failed, 0 skipped" 1 'killed by SIGABRT' -- \
	fake 'echo ok 1 - a; kill -ABRT $$'
expect "a missing plan is one failure" "2 passed, 1 failed, 0 skipped" 1 \
	'^not ok 3 - fake: no plan' -- \
	fake 'echo ok 1 - a; echo ok 2 - b'
expect "stops early: fewer tests than planned" \
	"1 passed, 1 failed, 0 skipped" 1 'planned 4 tests, ran 1' -- \
	fake 'echo 1..4; echo ok 1 - a'
expect "unnumbered not ok lines are failures, not garbled" \
	"1 passed, 2 failed, 0 skipped" 1 '^not ok 2 - fake: b$' \
	'^not ok 3 - fake: c$' -- \
	fake 'echo ok 1 - a; echo "not ok - b"; echo "not ok - c"; echo 1..3'
expect "exit non-zero after all ok is a failure" \
	"2 passed, 1 failed, 0 skipped" 1 '^not ok 3 - fake: exit status 3$' -- \
	fake 'echo 1..2; echo ok 1 - a; echo ok 2 - b; exit 3'
expect "a failing suite that exits 1 counts its failure once" \
	"1 passed, 1 failed, 0 skipped" 1 -- \
	fake 'echo 1..2; echo ok 1 - a; echo not ok 2 - b; exit 1'
expect "a plan 1..0 with a SKIP directive is one skip, with its reason" \
	"0 passed, 0 failed, 1 skipped" 0 '^ok 1 - fake # SKIP no cycles event$' \
	'^# skipped: fake: no cycles event$' -- \
	fake 'echo "1..0 # SKIP no cycles event"'
expect "1..0 without a reason is a failure" "0 passed, 1 failed, 0 skipped" 1 \
	'without a SKIP reason' -- fake 'echo 1..0'
expect "a skipped test's reason is listed" "1 passed, 0 failed, 1 skipped" 0 \
	'^# skipped: fake: b: needs root$' -- \
	fake 'echo 1..2; echo ok 1 - a; echo "ok 2 - b # SKIP needs root"'
expect "kselftest's exit 4 when all skipped is a skip" \
	"0 passed, 0 failed, 1 skipped" 0 -- \
	fake 'echo 1..1; echo "ok 1 t # SKIP no pid ns"; exit 4'
expect "exit 4 with a passed test is a failure" \
	"1 passed, 1 failed, 0 skipped" 1 'exit status 4' -- \
	fake 'echo 1..1; echo ok 1 t; exit 4'
expect "numbers out of sequence are a failure" \
	"2 passed, 1 failed, 0 skipped" 1 'test number 3 out of sequence' -- \
	fake 'echo 1..2; echo ok 1 - a; echo ok 3 - b'
expect "two plans (two streams in one suite) are a failure" \
	"2 passed, 1 failed, 0 skipped" 1 'a second plan' -- \
	fake 'echo 1..1; echo ok 1 - a; echo 1..1; echo ok 1 - b'
expect "Bail out! is a failure" "1 passed, 1 failed, 0 skipped" 1 \
	'Bail out! no memory' -- \
	fake 'echo 1..2; echo ok 1 - a; echo "Bail out! no memory"; exit 0'
expect "a '#' inside a description is kept" "1 passed, 0 failed, 0 skipped" 0 \
	'^ok 1 - fake: event #3 of 5$' -- \
	fake 'echo "ok 1 - event #3 of 5"; echo 1..1'
expect "several suites, one numbering; a bad one does not hide the next" \
	"3 passed, 1 failed, 0 skipped" 1 '^ok 4 - two: c$' -- \
	one 'echo 1..2; echo ok 1 - a; echo ok 2 - b; exit 9' \
	two 'echo 1..1; echo ok 1 - c'
expect "a missing command is a failure" "0 passed, 1 failed, 0 skipped" 1 \
	'exit status 127' -- fake "$tmp/no-such-suite"
expect "nested: a crash inside an inner tap-run fails the outer" \
	"1 passed, 1 failed, 0 skipped" 1 \
	'^not ok 2 - outer: inner: planned 2 tests, ran 1; killed by SIGSEGV$' -- \
	outer "'$tap_run' inner 'echo 1..2; echo ok 1 - a; kill -SEGV \$\$'"
expect "nested: an inner stream cut short (guest lost) is a failure" \
	"1 passed, 1 failed, 0 skipped" 1 'no plan' -- \
	outer "'$tap_run' inner 'echo 1..3; echo ok 1 - a; echo ok 2 - b; echo ok 3 - c' | head -n 3"
expect "nested: inner skips keep their reasons" \
	"1 passed, 0 failed, 1 skipped" 0 \
	'^# skipped: outer: inner: b: no hardware$' -- \
	outer "'$tap_run' inner 'echo 1..2; echo ok 1 - a; echo \"ok 2 - b # SKIP no hardware\"'"

# A result shows while its suite runs: the fake suite waits (5 s at most)
# for the reader to have seen its first result before it prints the next
n=$((n + 1))
mkfifo "$tmp/fifo"
"$tap_run" fake "echo 1..2; echo ok 1 - a; i=0
	while [ ! -e '$tmp/seen' ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i + 1)); done
	[ -e '$tmp/seen' ] && echo ok 2 - b || echo not ok 2 - b" >"$tmp/fifo" &
while IFS= read -r line; do
	case $line in "ok 1 - fake: a") touch "$tmp/seen" ;; esac
	printf '%s\n' "$line"
done <"$tmp/fifo" >"$tmp/out"
wait $!
if grep -qx "# 2 passed, 0 failed, 0 skipped" "$tmp/out"; then
	echo "ok $n - results show while the suite runs"
else
	failed=1
	echo "not ok $n - results show while the suite runs"
	sed 's/^/#   /' "$tmp/out"
fi

if "$tap_run" only-a-name >"$tmp/out" 2>&1; then rc=0; else rc=$?; fi
n=$((n + 1))
if [ "$rc" = 2 ] && grep -q usage "$tmp/out"; then
	echo "ok $n - usage error: exit 2"
else
	failed=1
	echo "not ok $n - usage error: exit 2 (got $rc)"
fi

echo "1..$n"
exit $failed
