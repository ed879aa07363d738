#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_guest.sh [-d BINDIR] [TEST...]: run the task_diag selftests in turn,
# as root, with their TAP output unchanged, then the checks of the original
# selftest (seed_run.sh).  BINDIR holds the built programs (by default the
# directory of this script).  Exits 1 if any test program failed, else 0.

here=$(cd "$(dirname "$0")" && pwd)
bin=$here
ALL_TESTS="transaction groups strategies churn security resume_scaling fuzz stress seed_run.sh"

if [ "$1" = -d ]; then
	bin=$(cd "$2" && pwd) || exit 1
	shift 2
fi
tests=${*:-$ALL_TESTS}

if [ "$(id -u)" != 0 ]; then
	echo "run_guest.sh: the task_diag selftests run as root" >&2
	exit 1
fi

passed=''
failed=''
skipped=''
for t in $tests; do
	prog=$bin/$t
	[ -x "$prog" ] || prog=$here/$t
	if [ ! -x "$prog" ]; then
		echo "# run_guest.sh: $t: not built"
		failed="$failed $t"
		continue
	fi
	echo "# run_guest.sh: $t"
	(cd "$bin" && TD_BIN_DIR=$bin "$prog")
	case $? in
	0) passed="$passed $t" ;;
	4) skipped="$skipped $t" ;;
	*) failed="$failed $t" ;;
	esac
done

echo "# run_guest.sh: passed:${passed:- none} skipped:${skipped:- none} failed:${failed:- none}"
[ -z "$failed" ]
