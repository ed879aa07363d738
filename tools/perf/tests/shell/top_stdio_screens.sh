#!/bin/bash
# perf top --stdio: each screen is written when it is drawn
# SPDX-License-Identifier: GPL-2.0
#
# With stdout a file, stdio buffers fully: perf top must still write each
# screen as a whole when it draws it, so that every write to stdout
# starts a screen (the clear-screen sequence and the PerfTop: header).

tmp=$(mktemp -d /tmp/perf-top-screens.XXXXXX)
pid=""
# stop PID: stop perf top, the child of strace PID, then strace
stop() {
	pkill -TERM -P "$1"
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

cleanup() {
	[ -n "${pid}" ] && stop "${pid}"
	exec 3>&-
	rm -rf "${tmp}"
	trap - EXIT TERM INT
}
trap 'cleanup; exit 1' TERM INT
trap cleanup EXIT

if ! command -v strace > /dev/null; then
	echo "strace is not installed"
	exit 2
fi

# perf top reads keys from its input: one that never has any, nor an end
mkfifo "${tmp}/keys"
exec 3<> "${tmp}/keys"

# a screen of 20 lines of 80 columns fits in one stdio buffer
log=${tmp}/strace.log
LINES=20 COLUMNS=80 strace -f -qq -e trace=write -e signal=none -s 32 \
	-o "${log}" perf top --stdio -a -e cpu-clock -d 1 \
	> "${tmp}/top.out" 2> "${tmp}/top.err" <&3 &
pid=$!
# three screens, at most 60 s
SECONDS=0
while [ ${SECONDS} -lt 60 ] && kill -0 ${pid} 2>/dev/null; do
	[ "$(grep -c 'PerfTop:' "${tmp}/top.out")" -ge 3 ] && break
	sleep 0.2
done
stop ${pid}
pid=""

screens=$(grep -c 'PerfTop:' "${tmp}/top.out")
if [ "${screens}" -lt 3 ]; then
	echo "perf top wrote ${screens} screens in 60 s:"
	tail -n 20 "${tmp}/top.err"
	exit 1
fi
writes=$(grep -E '^[0-9]+ +write\(1, ' "${log}" | head -n 3)
echo "${writes}"
n=$(printf '%s\n' "${writes}" | grep -c -F 'write(1, "\33[H\33[2J\n   PerfTop:')
if [ "${n}" -ne 3 ]; then
	echo "${n} of the first 3 writes to stdout start a screen"
	exit 1
fi
exit 0
