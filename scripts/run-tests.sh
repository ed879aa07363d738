#!/bin/bash
# make test: host-side tests, then the guest tests in one QEMU boot.
# Counts TAP "ok"/"not ok" lines of every suite; prints "N passed, N failed".
# run-tests.sh guest: the guest tests only (make test-debug, with
# KPROFILE=debug: the same tests on the debug kernel).
. "$(dirname "$0")/common.sh"

passed=0 failed=0 skipped=0
log=$CACHE/test-logs
mkdir -p "$log"

# run_suite NAME CMD...: stream the suite's output, count its TAP results;
# a suite that fails without a "not ok" line counts as one failure.
run_suite() {
	local name=$1 out rc p f s
	shift
	out=$log/$name.log
	note "suite $name: $*"
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	p=$(grep -Ec '^ok [0-9]*' "$out" || true)
	s=$(grep -Ec '^ok [0-9]*.*# (SKIP|skip)' "$out" || true)
	f=$(grep -Ec '^not ok [0-9]*' "$out" || true)
	p=$((p - s))
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "not ok - suite $name exited with status $rc"
		f=1
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	note "suite $name: $p passed, $f failed, $s skipped"
}

if [ "${1:-}" != guest ]; then
	run_suite checkpatch "$TOP/scripts/checkpatch.sh"
	run_suite libtaskdiag "$TOP/scripts/build-lib.sh" test
fi
run_suite "guest-${KPROFILE:-task-diag}" "$TOP/vm/run" --mem "${VM_MEM:-6G}" \
	--timeout "${VM_TIMEOUT:-2400}" -- "$TOP/tests/guest/run-all"

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
