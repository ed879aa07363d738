#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# capture.sh [BUILD_DIR]: in a guest with /proc/task-diag, capture real
# answers with "taskdiag --dump-raw" and print them as "NAME BASE64" lines,
# for the host to turn into fuzzer seeds (see tests/fuzz/README):
#   vm/run -- tests/fuzz/capture.sh | tests/fuzz/add-seeds.sh CORPUS
here=$(cd "$(dirname "$0")" && pwd)
cmd=${1:-$here/../../build}/taskdiag
victim=${1:-$here/../../build}/td-victim
tmp=$(mktemp -d) || exit 1
"$victim" --threads 2 --children 2 --ready "$tmp/ready" &
vpid=$!
while [ ! -s "$tmp/ready" ]; do sleep 0.05; done

# capture NAME BUF_SIZE TASKDIAG-ARGS...
capture() {
	name=$1 size=$2
	shift 2
	"$cmd" "$@" --backend=kernel --buf-size "$size" \
		--dump-raw "$tmp/raw" >/dev/null || return
	echo "$name-$size $(base64 -w0 "$tmp/raw")"
}

capture real-one-full 1024 one --pid "$vpid" --base --cred --stat --statm --smaps
capture real-one-maps 256 one --pid "$vpid" --maps
capture real-threads 4096 threads --pid "$vpid" --cred --stat --statm --maps
capture real-children 512 children --pid "$vpid" --cred --stat
capture real-all-base 131072 all
capture real-all-thread 2048 All --stat --statm
capture real-init 300 one --pid 1 --smaps --cred
kill "$vpid"
rm -rf "$tmp"
