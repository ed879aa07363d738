#!/bin/bash
# make test: host-side suites, then the guest suites in one QEMU boot, all
# through tap-run (tools/testing/tap), which checks every suite's plan and
# exit status and prints "N passed, N failed, N skipped", every skip with
# its reason and every failure at the end.
# run-tests.sh guest: the guest suites only (make test-debug, with
# KPROFILE=debug: the same tests on the debug kernel).
. "$(dirname "$0")/common.sh"

export TEST_KPROFILE=${KPROFILE:-task-diag}	# seen in the guest too
tap_run=$TOP/tools/testing/tap/tap-run
log=$CACHE/test-logs
mkdir -p "$log"
guest="'$TOP/vm/run' --mem '${VM_MEM:-6G}' --timeout '${VM_TIMEOUT:-2400}' \
-- '$TOP/tests/guest/run-all'"
suites=()
if [ "${1:-}" != guest ]; then
	suites+=(runner "'$TOP/tools/testing/tap/tests/test-tap-run.sh'"
		 bench-report "'$TOP/bench/tests/report.sh'"
		 checkpatch "'$TOP/scripts/checkpatch.sh'"
		 perf-builds "'$TOP/scripts/check-perf-builds.sh'"
		 libtaskdiag "'$TOP/scripts/build-lib.sh' test")
fi
suites+=("guest-$TEST_KPROFILE" "$guest")
note "tests: ${suites[*]}; log in $log/make-test.log"
"$tap_run" "${suites[@]}" | tee "$log/make-test.log"
