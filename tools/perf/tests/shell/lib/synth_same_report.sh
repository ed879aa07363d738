#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the tests that record one workload with two sources of perf's
# synthesis share (record_task_diag.sh, record_bpf_iter.sh): a two-thread
# workload started before perf record -a is known to perf only through the
# synthesized COMM and MMAP2 events, so perf script and perf report must
# name the same comm, threads, DSO and symbol with either source.

sym="test_loop"

# same_report_init: ${tmp}, a new directory for SOURCE.config files, and
# ${wpid}, the workload with both its threads in ${sym}; both gone on exit
same_report_init() {
	tmp=$(mktemp -d /tmp/perf-same-report.XXXXXX)
	wpid=""
	trap 'same_report_cleanup; exit 1' TERM INT
	trap same_report_cleanup EXIT
	perf test -w thloop 600 &
	wpid=$!
	# until both threads run test_loop
	for _ in $(seq 50); do
		[ "$(ls /proc/${wpid}/task 2>/dev/null | wc -l)" -ge 2 ] && break
		sleep 0.1
	done
}

same_report_cleanup() {
	[ -n "${wpid}" ] && kill "${wpid}" 2>/dev/null && wait "${wpid}"
	rm -rf "${tmp}"
	trap - EXIT TERM INT
}

# same_report_record SOURCE...: for each SOURCE, ${tmp}/SOURCE.data of 1 s
# of user samples of the whole system with PERF_CONFIG=${tmp}/SOURCE.config
# and perf's -v output in ${tmp}/SOURCE.log; exit 1 if perf record fails
same_report_record() {
	local src

	for src in "$@"; do
		PERF_CONFIG="${tmp}/${src}.config" perf record -v -a -e cpu-clock:u \
			-o "${tmp}/${src}.data" -- sleep 1 > "${tmp}/${src}.log" 2>&1 && continue
		echo "perf record -a (${src}) failed:"
		tail -n 20 "${tmp}/${src}.log"
		exit 1
	done
}

# same_report_samples SOURCE: the workload's samples as comm, tid, dso, symbol
same_report_samples() {
	perf script -i "${tmp}/$1.data" --pid "${wpid}" -F comm,tid,ip,sym,dso \
		2>/dev/null | awk '{ $3 = ""; print }' | sort -u
}

# same_report_report SOURCE: perf report of the workload, no percentages
same_report_report() {
	perf report -i "${tmp}/$1.data" --pid "${wpid}" --stdio -q \
		--sort comm,dso,sym 2>/dev/null |
		sed 's/^ *[0-9.]*% *//; s/  */ /g' | sort -u
}

# same_report_compare A B: 0 when perf script and perf report of A's and
# B's recordings are the same and A's has both threads in ${sym}, all of
# it resolved; else 1, saying what differs
same_report_compare() {
	local a b err=0

	a=$(same_report_samples "$1")
	b=$(same_report_samples "$2")
	echo "$1:"; echo "${a}"
	echo "$2:"; echo "${b}"
	if [ -z "${a}" ] || [ "${a}" != "${b}" ]; then
		echo "perf script differs"
		err=1
	fi
	if ! echo "${a}" | grep -q "^perf ${wpid} .*${sym}"; then
		echo "no sample of the main thread in ${sym}"
		err=1
	fi
	if [ "$(echo "${a}" | grep -c "${sym}")" -lt 2 ]; then
		echo "samples of fewer than 2 threads in ${sym}"
		err=1
	fi
	if echo "${a}" | grep -q -e 'unknown' -e '^:'; then
		echo "unresolved comm, DSO or symbol"
		err=1
	fi
	a=$(same_report_report "$1")
	b=$(same_report_report "$2")
	if [ -z "${a}" ] || [ "${a}" != "${b}" ]; then
		echo "perf report differs:"
		echo "${a}"
		echo "---"
		echo "${b}"
		err=1
	fi
	return ${err}
}
