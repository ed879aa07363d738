#!/bin/bash
# perf trace: kernel maps only when kernel addresses are resolved
# SPDX-License-Identifier: GPL-2.0
#
# Making the kernel maps reads /proc/kallsyms, which the kernel formats
# anew at each read, and parses it.  perf trace tracing system calls
# alone, without callchains, resolves no kernel address: it must not open
# it (nor with the vfs_getname probe, if there is one), and still print
# the calls.  With kernel callchains, and with an event whose print format
# names a kernel function (%ps), it must open it and name kernel
# functions.

shelldir=$(dirname "$0")
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh
# shellcheck source=lib/kallsyms.sh
. "${shelldir}"/lib/kallsyms.sh

skip_if_missing strace "to count the opens of /proc/kallsyms"
if [ "$(id -u)" != 0 ]; then
	echo "Skip: perf trace -a and the timer events need root"
	exit 2
fi
skip_if_kallsyms_hidden

tmp=$(mktemp -d /tmp/perf-test-trace-kmaps.XXXXXX)
trap 'rm -rf "${tmp}"' EXIT

# traced NAME OPENS PATTERN WHAT PERF-TRACE-ARGS...: perf trace with
# PERF-TRACE-ARGS under strace opens /proc/kallsyms not at all (OPENS
# none) or at least once (some), and its output has a line matching
# PATTERN (WHAT)
traced() {
	local name=$1 want=$2 pattern=$3 what=$4 n
	shift 4
	if ! strace -f -qq -e trace=open,openat -o "${tmp}/${name}.strace" \
		perf trace -o "${tmp}/${name}.out" "$@" > "${tmp}/${name}.err" 2>&1; then
		echo "perf trace $* failed:"
		tail -n 20 "${tmp}/${name}.err"
		return 1
	fi
	n=$(kallsyms_opens "${tmp}/${name}.strace")
	echo "perf trace $*: /proc/kallsyms opened ${n} times"
	if { [ "${want}" = none ] && [ "${n}" -ne 0 ]; } ||
	   { [ "${want}" = some ] && [ "${n}" -lt 1 ]; }; then
		echo "expected ${want}"
		return 1
	fi
	if ! grep -m 2 -E -e "${pattern}" "${tmp}/${name}.out"; then
		echo "no ${what} in its output:"
		tail -n 20 "${tmp}/${name}.out"
		return 1
	fi
	return 0
}

err=0
traced syscalls none '^ *[0-9.]+ .*true/[0-9]+ exit_group\(' \
	"exit_group() of the workload" -a -- true || err=1
traced callchain some '^ +[A-Za-z_][A-Za-z0-9_.]*(\+0x[0-9a-f]+)? \(\[kernel\.kallsyms\]\)$' \
	"kernel function in a callchain" \
	--call-graph fp --kernel-syscall-graph -e openat -- cat /dev/null || err=1
traced timer some 'function=[A-Za-z_][A-Za-z0-9_.]*' \
	"function named by timer:hrtimer_start" \
	-a --libtraceevent_print -e timer:hrtimer_start -- sleep 0.2 || err=1
exit ${err}
