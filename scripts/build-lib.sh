#!/bin/bash
# Build libtaskdiag, the taskdiag command and their test programs from
# tools/lib/taskdiag against the series' UAPI headers.
# usage: build-lib.sh [MAKE-TARGET...]   (default: all test-progs)
. "$(dirname "$0")/common.sh"

obj=$KBUILD-task-diag
make -s -C "$TREE" O="$obj" headers >/dev/null
make -s -C "$TOP/tools/lib/taskdiag" O="$CACHE/libtaskdiag" \
	KHDR_INCLUDES="-isystem $obj/usr/include" "${@:-all}"
