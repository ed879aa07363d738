#!/bin/bash
# perf: the heap grows 64 MiB at a time
# SPDX-License-Identifier: GPL-2.0
#
# perf sets glibc's M_TOP_PAD to 64 MiB as it starts: perf record -a,
# which builds the table of /proc/kallsyms and the host's threads, grows
# its heap with brk(2) in steps of at least 64 MiB, and a handful of
# times, not hundreds of times in 128 KiB steps.

if ! command -v strace > /dev/null; then
	echo "strace is not installed"
	exit 2
fi
if ! ldd "$(command -v perf)" | grep -q 'libc\.so\.6'; then
	echo "perf is not linked with glibc"
	exit 2
fi

tmp=$(mktemp -d /tmp/perf-heap.XXXXXX)
trap 'rm -rf "${tmp}"' EXIT

if ! strace -qq -e trace=brk -o "${tmp}/brk.strace" \
	perf record -a -e cpu-clock -o "${tmp}/perf.data" -- true \
	> "${tmp}/record.log" 2>&1; then
	echo "perf record failed:"
	tail -n 20 "${tmp}/record.log"
	exit 1
fi

# the steps by which brk(2) moved the end of the heap up, in bytes
last=0
sed -n 's/^brk(.*) *= *\(0x[0-9a-f]*\)$/\1/p' "${tmp}/brk.strace" |
while read -r end; do
	[ "${last}" -ne 0 ] && [ $((end)) -gt "${last}" ] && echo $((end - last))
	last=$((end))
done > "${tmp}/steps"

n=$(wc -l < "${tmp}/steps")
big=$(awk '$1 >= 64 * 1048576' "${tmp}/steps" | wc -l)
echo "perf record -a grew its heap ${n} times, ${big} of them by 64 MiB or more"
if [ "${big}" -lt 1 ] || [ "${n}" -gt 8 ]; then
	echo "the heap grew by:"
	head -n 20 "${tmp}/steps"
	exit 1
fi
exit 0
