#!/bin/bash
# Build vmlinux at every commit of the series (bisectability), incrementally
# in the kernel build directory, then return the tree to the series head.
. "$(dirname "$0")/common.sh"

obj=$KBUILD-task-diag
git -C "$TREE" diff --quiet HEAD -- . ':!tools' || die "$TREE has uncommitted changes"
head=$(git -C "$TREE" rev-parse task-diag)
rc=0 n=0
for c in $(git -C "$TREE" rev-list --reverse base..task-diag); do
	n=$((n + 1))
	git -C "$TREE" checkout -q "$c"
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	if make -s -C "$TREE" O="$obj" -j"$JOBS" vmlinux >"$CACHE/bisect-$n.log" 2>&1 &&
	   ! grep -q 'warning:' "$CACHE/bisect-$n.log"; then
		echo "ok $n - builds without warnings: $subj"
	else
		echo "not ok $n - build: $subj"
		grep -E 'error|warning' "$CACHE/bisect-$n.log" | head -n 10 | sed 's/^/#   /'
		rc=1
	fi
done
git -C "$TREE" checkout -q task-diag
[ "$(git -C "$TREE" rev-parse HEAD)" = "$head" ] || die "tree not back at the series head"
exit $rc
