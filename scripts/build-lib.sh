#!/bin/bash
# Build libtaskdiag, the taskdiag command and their test programs from
# tools/lib/taskdiag against the series' UAPI headers.
# usage: build-lib.sh [MAKE-TARGET...]   (default: all test-progs)
. "$(dirname "$0")/common.sh"

obj=$KBUILD-task-diag
# the dependency files name the sources by path: start afresh when they moved
if ! stamp_ok lib-src "$TOP"; then
	rm -rf "$CACHE/libtaskdiag"
	stamp_set lib-src "$TOP"
fi
make -s -C "$TREE" O="$obj" headers >/dev/null
make -s -C "$TOP/tools/lib/taskdiag" O="$CACHE/libtaskdiag" \
	KHDR_INCLUDES="-isystem $obj/usr/include" "${@:-all}"
