#!/bin/bash
# scripts/checkpatch.pl --strict over every patch of the series.
#
# Two checks are ignored, each for a reason of the interface itself:
#  EXPORTED_WORLD_WRITABLE  /proc/task-diag is a transaction file any user
#                           writes requests to (mode 0666); what a reader
#                           gets is filtered per task by ptrace access.
#  MACRO_ARG_REUSE          the v3 UAPI iterator task_diag_for_each_vma()
#                           names its loop variable in each for() clause,
#                           as every for_each macro does.
. "$(dirname "$0")/common.sh"

# spdxcheck.py needs Debian's python3 with python3-ply and python3-git
export PATH=/usr/bin:$PATH
rc=0 n=0
for p in "$TOP"/kernel/patches/*.patch; do
	n=$((n + 1))
	if out=$(cd "$TREE" && scripts/checkpatch.pl --strict --terse -q \
		--ignore EXPORTED_WORLD_WRITABLE,MACRO_ARG_REUSE "$p" 2>&1); then
		echo "ok $n - checkpatch $(basename "$p")"
	else
		echo "not ok $n - checkpatch $(basename "$p")"
		printf '%s\n' "$out" | sed 's/^/#   /'
		rc=1
	fi
done
echo "1..$n"
exit $rc
