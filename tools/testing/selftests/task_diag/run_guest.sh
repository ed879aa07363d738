#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_guest.sh [-d BINDIR] [TEST...]: run the task_diag selftests in turn,
# as root, with their TAP output unchanged, then the checks of the original
# selftest (seed_run.sh).  BINDIR holds the built programs (by default the
# directory of this script).  Exits 1 if any test program failed, 4 if all
# were skipped, else 0.  run_guest.sh -l: the names of the tests.

here=$(cd "$(dirname "$0")" && pwd)
bin=$here
ALL_TESTS="transaction groups strategies churn security resume_scaling fuzz stress compat32 robustness exactly_once vma_names build_id ps_groups seed_run.sh"

if [ "$1" = -l ]; then
	echo "$ALL_TESTS"
	exit 0
fi
if [ "$1" = -d ]; then
	bin=$(cd "$2" && pwd) || exit 1
	shift 2
fi
tests=${*:-$ALL_TESTS}

if [ "$(id -u)" != 0 ]; then
	echo "run_guest.sh: the task_diag selftests run as root" >&2
	exit 1
fi

rc=4
for t in $tests; do
	prog=$bin/$t
	[ -x "$prog" ] || prog=$here/$t
	if [ ! -x "$prog" ]; then
		echo "# run_guest.sh: $t: not built"
		rc=1
		continue
	fi
	echo "# run_guest.sh: $t"
	(cd "$bin" && TD_BIN_DIR=$bin "$prog")
	case $? in
	0) [ $rc = 4 ] && rc=0 ;;
	4) ;;
	*) rc=1 ;;
	esac
done
exit $rc
