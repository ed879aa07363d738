#!/bin/bash
# Build the task_diag kselftests against the series' installed UAPI headers.
. "$(dirname "$0")/common.sh"

obj=$KBUILD-task-diag
dst=$OUT/selftests/task_diag
mkdir -p "$obj" "$dst"
note "installing kernel headers"
make -s -C "$TREE" O="$obj" headers >/dev/null
note "building selftests/task_diag"
make -s -C "$TREE/tools/testing/selftests/task_diag" OUTPUT="$dst" \
	KHDR_INCLUDES="-isystem $obj/usr/include" -j"$JOBS" >"$CACHE/selftests-build.log" 2>&1 ||
	{ tail -n 40 "$CACHE/selftests-build.log" >&2; die "selftests build failed"; }
cp -f "$TREE"/tools/testing/selftests/task_diag/*.sh "$dst/"
echo "$dst"
