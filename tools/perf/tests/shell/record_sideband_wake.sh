#!/bin/bash
# perf record: the side band thread is woken to stop, not timed out
# SPDX-License-Identifier: GPL-2.0
#
# The side band thread (BPF program events) polls its ring buffers with
# a one second timeout.  When perf record stops it, the thread must be
# woken: its last poll() returns a ready descriptor (the wake pipe), it
# does not sit out the timeout (a return of 0).

tmp=$(mktemp -d /tmp/perf-sideband.XXXXXX)
trap 'rm -rf "${tmp}"' EXIT

if ! command -v strace > /dev/null; then
	echo "strace is not installed"
	exit 2
fi

log=${tmp}/strace.log
if ! strace -f -qq -e trace=poll,restart_syscall -e signal=none \
	-o "${log}" perf record -a -e cpu-clock -o "${tmp}/perf.data" -- true \
	> "${tmp}/record.log" 2>&1; then
	echo "perf record failed:"
	tail -n 20 "${tmp}/record.log"
	exit 1
fi

# the thread that polls with a 1 s timeout; perf without libbpf, or a
# kernel without BPF events, starts none
tid=$(grep -E -m 1 '^[0-9]+ +poll\(.*, 1000[ )]' "${log}" | awk '{ print $1 }')
if [ -z "${tid}" ]; then
	echo "perf record started no side band thread (no poll with its 1 s timeout)"
	exit 2
fi

# its last poll that returned (a poll interrupted by a signal is
# restarted by restart_syscall, whose return is the poll's)
last=$(grep -E "^${tid} " "${log}" | grep -E '\) += [0-9]+' | tail -n 1)
echo "last poll of the side band thread: ${last}"
ready=$(printf '%s\n' "${last}" | sed -n 's/.*) *= \([0-9]*\).*/\1/p')
if [ -z "${ready}" ] || [ "${ready}" -eq 0 ]; then
	echo "the side band thread's last poll timed out: it was not woken"
	exit 1
fi
exit 0
