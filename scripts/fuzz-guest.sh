#!/bin/bash
# make fuzz, kernel part: the /proc/task-diag fuzzer for many iterations
# with several seeds, then the stress test for longer than make test runs
# it, all in one guest boot (KPROFILE=debug: on the debug kernel).
# FUZZ_ITERS (per thread, default 200000), FUZZ_SEEDS (default "1 2 3"),
# FUZZ_STRESS_SECS (default 300).
. "$(dirname "$0")/common.sh"

sel=$OUT/selftests/task_diag
cmd=$(mktemp "$CACHE/fuzz-guest.XXXXXX")
trap 'rm -f "$cmd"' EXIT
{
	echo "cd '$sel' || exit 1"
	echo "rc=0"
	for seed in ${FUZZ_SEEDS:-1 2 3}; do
		echo "./fuzz -s $seed -n ${FUZZ_ITERS:-200000} -t 4 -f 6 || rc=1"
	done
	echo "./stress -d ${FUZZ_STRESS_SECS:-300} || rc=1"
	echo "exit \$rc"
} >"$cmd"
exec "$TOP/vm/run" --mem "${VM_MEM:-4G}" --timeout "${VM_TIMEOUT:-7200}" -- sh "$cmd"
