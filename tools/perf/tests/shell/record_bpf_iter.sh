#!/bin/bash
# perf record -a: same report with BPF iterator and /proc synthesis
# SPDX-License-Identifier: GPL-2.0
#
# A two-thread workload started before perf record -a is known to perf only
# through the synthesized COMM and MMAP2 events.  Record it once with them
# synthesized from the BPF task and task_vma iterators (synthesize.bpf-iter)
# and once from /proc, task_diag off both times: perf script and perf report
# must name the same comm, threads, DSO and symbol both times.  Skips, with
# the reason perf gives, where the iterators cannot be loaded.

shelldir=$(dirname "$0")
# shellcheck source=lib/perf_has_symbol.sh
. "${shelldir}"/lib/perf_has_symbol.sh

sym="test_loop"
skip_test_missing_symbol ${sym}

tmp=$(mktemp -d /tmp/perf-bpf-iter.XXXXXX)
err=0

cleanup() {
	[ -n "${wpid}" ] && kill "${wpid}" 2>/dev/null && wait "${wpid}"
	rm -rf "${tmp}"
	trap - EXIT TERM INT
}
trap 'cleanup; exit 1' TERM INT
trap cleanup EXIT

printf '[synthesize]\n\ttask-diag = false\n\tbpf-iter = true\n' > "${tmp}/bpf-iter.config"
printf '[synthesize]\n\ttask-diag = false\n\tbpf-iter = false\n' > "${tmp}/proc.config"

perf test -w thloop 600 &
wpid=$!
# until both threads run test_loop
for _ in $(seq 50); do
	[ "$(ls /proc/${wpid}/task 2>/dev/null | wc -l)" -ge 2 ] && break
	sleep 0.1
done

# record SOURCE: perf.data of 1 s of user samples of the whole system
record() {
	PERF_CONFIG="${tmp}/$1.config" perf record -v -a -e cpu-clock:u \
		-o "${tmp}/$1.data" -- sleep 1 > "${tmp}/$1.log" 2>&1
}

# samples SOURCE: the workload's samples as comm, tid, dso and symbol
samples() {
	perf script -i "${tmp}/$1.data" --pid "${wpid}" -F comm,tid,ip,sym,dso \
		2>/dev/null | awk '{ $3 = ""; print }' | sort -u
}

# report SOURCE: perf report of the workload's samples, without percentages
report() {
	perf report -i "${tmp}/$1.data" --pid "${wpid}" --stdio -q \
		--sort comm,dso,sym 2>/dev/null |
		sed 's/^ *[0-9.]*% *//; s/  */ /g' | sort -u
}

for src in bpf-iter proc; do
	if ! record ${src}; then
		echo "perf record -a (${src}) failed:"
		tail -n 20 "${tmp}/${src}.log"
		exit 1
	fi
done
if ! grep -q 'synthesized [0-9]* threads from BPF iterators' "${tmp}/bpf-iter.log"; then
	why=$(grep -m1 '^synthesize.bpf-iter: ' "${tmp}/bpf-iter.log")
	if [ -n "${why}" ]; then
		echo "Skip: ${why}"
		exit 2
	fi
	echo "the BPF iterators did not serve the synthesis, and perf said not why"
	exit 1
fi
if ! grep -q 'synthesizing threads from /proc' "${tmp}/proc.log"; then
	echo "the /proc walk did not serve the synthesis with bpf-iter = false"
	err=1
fi

bpf=$(samples bpf-iter)
proc=$(samples proc)
echo "BPF iterators:"; echo "${bpf}"
echo "/proc:"; echo "${proc}"
if [ -z "${bpf}" ] || [ "${bpf}" != "${proc}" ]; then
	echo "perf script differs"
	err=1
fi
if ! echo "${bpf}" | grep -q "^perf ${wpid} .*${sym}"; then
	echo "no sample of the main thread in ${sym}"
	err=1
fi
if [ "$(echo "${bpf}" | grep -c "${sym}")" -lt 2 ]; then
	echo "samples of fewer than 2 threads in ${sym}"
	err=1
fi
if echo "${bpf}" | grep -q -e 'unknown' -e '^:'; then
	echo "unresolved comm, DSO or symbol"
	err=1
fi

bpf=$(report bpf-iter)
proc=$(report proc)
if [ -z "${bpf}" ] || [ "${bpf}" != "${proc}" ]; then
	echo "perf report differs:"
	echo "${bpf}"
	echo "---"
	echo "${proc}"
	err=1
fi
exit ${err}
