#!/bin/bash
# make fuzz, kernel part: the /proc/task-diag fuzzer for many iterations
# with several seeds, then the stress test for longer than make test runs
# it, all in one guest boot (KPROFILE=debug: on the debug kernel), each a
# suite of tap-run in the guest, the whole boot one suite of tap-run here.
# FUZZ_ITERS (per thread, default 200000), FUZZ_SEEDS (default "1 2 3"),
# FUZZ_STRESS_SECS (default 300).
. "$(dirname "$0")/common.sh"

sel=$OUT/selftests/task_diag
tap_run=$TOP/tools/testing/tap/tap-run
cmd=$(mktemp "$CACHE/fuzz-guest.XXXXXX")
trap 'rm -f "$cmd"' EXIT
{
	echo "cd '$sel' || exit 1"
	printf "exec '%s'" "$tap_run"
	for seed in ${FUZZ_SEEDS:-1 2 3}; do
		printf " fuzz-seed-%s './fuzz -s %s -n %s -t 4 -f 6'" \
			"$seed" "$seed" "${FUZZ_ITERS:-200000}"
	done
	printf " stress './stress -d %s'\n" "${FUZZ_STRESS_SECS:-300}"
} >"$cmd"
"$tap_run" "fuzz-guest-${KPROFILE:-task-diag}" \
	"'$TOP/vm/run' --mem '${VM_MEM:-4G}' --timeout '${VM_TIMEOUT:-7200}' -- sh '$cmd'" |
	tee "$CACHE/fuzz-guest.log"
