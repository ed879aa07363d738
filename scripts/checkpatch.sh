#!/bin/bash
# scripts/checkpatch.pl --strict over every patch of the series.
. "$(dirname "$0")/common.sh"

rc=0
for p in "$TOP"/kernel/patches/*.patch; do
	if out=$("$TREE/scripts/checkpatch.pl" --strict --no-tree --terse -q "$p" 2>&1); then
		echo "ok - checkpatch $(basename "$p")"
	else
		echo "not ok - checkpatch $(basename "$p")"
		printf '%s\n' "$out" | sed 's/^/#   /'
		rc=1
	fi
done
exit $rc
