#!/bin/bash
# Build vmlinux at every commit of the series (bisectability), incrementally
# in the kernel build directory, then return the tree to the series head.
. "$(dirname "$0")/common.sh"

obj=$KBUILD-task-diag
git -C "$TREE" diff --quiet HEAD -- . ':!tools' || die "$TREE has uncommitted changes"
head=$(git -C "$TREE" rev-parse task-diag)
rc=0 n=0
trap 'git -C "$TREE" checkout -q task-diag' EXIT
for c in $(git -C "$TREE" rev-list --reverse base..task-diag); do
	n=$((n + 1))
	git -C "$TREE" checkout -q "$c"
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	# keep every option of the fragment that exists at this commit
	grep -h '^CONFIG_.*=y' "$TOP/kernel/configs/task-diag.config" |
		sed 's/^CONFIG_\(.*\)=y$/-e \1/' |
		xargs "$TREE/scripts/config" --file "$obj/.config"
	make -s -C "$TREE" O="$obj" olddefconfig >/dev/null
	if grep -q '^config TASK_DIAG$' "$TREE/fs/proc/Kconfig" &&
	   ! grep -q '^CONFIG_TASK_DIAG=y' "$obj/.config"; then
		echo "not ok $n - CONFIG_TASK_DIAG not enabled: $subj"
		rc=1
		continue
	fi
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
