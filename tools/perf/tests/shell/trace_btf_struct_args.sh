#!/bin/bash
# perf trace: struct arguments printed through vmlinux BTF
# SPDX-License-Identifier: GPL-2.0
#
# With its BPF skeleton, perf trace copies the struct a system call reads
# from user space and prints it through vmlinux BTF, which it parses on a
# thread while the skeleton loads, looking the struct up by name in an
# index of its types.  Each of three clock_nanosleep() calls must print
# its own timespec, the second and third through the btf_dump made for
# the first, and perf trace -v must say vmlinux BTF was loaded.  System
# wide (-a): a per-task BPF output event takes no augmented payload from
# the children of the workload, the sleep processes of the test.  On one
# CPU: a task that moves between the enter and the exit of its call has
# them read from two CPUs' buffers, maybe the exit first.

shelldir=$(dirname "$0")
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh

tracing=/sys/kernel/tracing
[ -d ${tracing}/events ] || tracing=/sys/kernel/debug/tracing
if [ ! -d ${tracing}/events/syscalls/sys_enter_clock_nanosleep ]; then
	echo "Skip: no clock_nanosleep tracepoint (a kernel without CONFIG_FTRACE_SYSCALLS)"
	exit 2
fi
if [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "Skip: no vmlinux BTF (a kernel without CONFIG_DEBUG_INFO_BTF)"
	exit 2
fi
skip_if_built_without bpf_skeletons
skip_if_missing taskset "to keep the workload on one CPU"
if [ "$(id -u)" != 0 ]; then
	echo "Skip: not root (the skeleton's BPF programs need CAP_BPF and CAP_PERFMON)"
	exit 2
fi

log=$(mktemp /tmp/perf-trace-btf.XXXXXX)
trap 'rm -f "${log}"' EXIT
err=0
perf trace -v -a -e clock_nanosleep -- taskset -c 0 \
	sh -c 'sleep 0.011; sleep 0.023; sleep 0.037' > "${log}" 2>&1
for ns in 11000000 23000000 37000000; do
	if ! grep -q "clock_nanosleep(.*rqtp: { \.tv_sec: 0, \.tv_nsec: ${ns} }" "${log}"; then
		echo "no clock_nanosleep() printed its rqtp as { .tv_sec: 0, .tv_nsec: ${ns} }:"
		grep 'clock_nanosleep(' "${log}" | head -n 5
		err=1
	fi
done
if ! grep -q '^vmlinux BTF loaded' "${log}"; then
	echo "perf trace -v did not say vmlinux BTF was loaded:"
	grep -i btf "${log}" | head -n 5
	err=1
fi
exit ${err}
