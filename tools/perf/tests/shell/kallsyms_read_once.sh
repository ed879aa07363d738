#!/bin/bash
# perf record and perf top: /proc/kallsyms is read once
# SPDX-License-Identifier: GPL-2.0
#
# perf parses /proc/kallsyms several times as it starts (the kernel's
# start and end, x86's entry trampolines, BPF images, perf top's kernel
# symbols); the kernel formats it anew at each read.  perf must open it
# once per command, and still resolve kernel symbols from it.

shelldir=$(dirname "$0")
# shellcheck source=lib/perf_top_strace.sh
. "${shelldir}"/lib/perf_top_strace.sh
# shellcheck source=lib/kallsyms.sh
. "${shelldir}"/lib/kallsyms.sh

if ! command -v strace > /dev/null; then
	echo "strace is not installed"
	exit 2
fi
skip_if_kallsyms_hidden

top_strace_init

err=0
if ! strace -f -qq -e trace=open,openat -o "${tmp}/record.strace" \
	perf record -a -e cpu-clock -o "${tmp}/perf.data" -- true \
	> "${tmp}/record.log" 2>&1; then
	echo "perf record failed:"
	tail -n 20 "${tmp}/record.log"
	exit 1
fi
n=$(kallsyms_opens "${tmp}/record.strace")
echo "perf record -a opened /proc/kallsyms ${n} times"
[ "${n}" -eq 1 ] || err=1

# perf top until a screen lists a kernel symbol (at most 60 s)
ksym='\[k\] [A-Za-z_][A-Za-z0-9_.]*$'
if ! top_strace_until open,openat "${ksym}" 1; then
	echo "perf top named no kernel symbol in 60 s:"
	tail -n 20 "${tmp}/top.out" "${tmp}/top.err"
	exit 1
fi
grep -m 3 -e "${ksym}" "${tmp}/top.out"
# the kernel symbols perf top names come from its table of /proc/kallsyms
# (names kept in the text that was read): each is a symbol there
for name in $(grep -o -e "${ksym}" "${tmp}/top.out" | awk '{ print $2 }' |
	      sort -u); do
	if ! awk -v n="${name}" '$3 == n { f = 1; exit } END { exit !f }' \
		/proc/kallsyms; then
		echo "perf top named ${name}, which /proc/kallsyms does not list"
		err=1
	fi
done
n=$(kallsyms_opens "${tmp}/top.strace")
echo "perf top opened /proc/kallsyms ${n} times"
[ "${n}" -eq 1 ] || err=1
exit ${err}
