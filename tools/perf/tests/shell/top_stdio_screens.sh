#!/bin/bash
# perf top --stdio: each screen is written when it is drawn
# SPDX-License-Identifier: GPL-2.0
#
# With stdout a file, stdio buffers fully: perf top must still write each
# screen as a whole when it draws it, so that every write to stdout
# starts a screen (the clear-screen sequence and the PerfTop: header).

shelldir=$(dirname "$0")
# shellcheck source=lib/perf_top_strace.sh
. "${shelldir}"/lib/perf_top_strace.sh

if ! command -v strace > /dev/null; then
	echo "strace is not installed"
	exit 2
fi
top_strace_init

# three screens (of 20 lines of 80 columns: each fits in a stdio buffer)
if ! top_strace_until write 'PerfTop:' 3; then
	echo "perf top wrote $(grep -c 'PerfTop:' "${tmp}/top.out") screens in 60 s:"
	tail -n 20 "${tmp}/top.err"
	exit 1
fi
writes=$(grep -E '^[0-9]+ +write\(1, ' "${tmp}/top.strace" | head -n 3)
echo "${writes}"
n=$(printf '%s\n' "${writes}" | grep -c -F 'write(1, "\33[H\33[2J\n   PerfTop:')
if [ "${n}" -ne 3 ]; then
	echo "${n} of the first 3 writes to stdout start a screen"
	exit 1
fi
exit 0
