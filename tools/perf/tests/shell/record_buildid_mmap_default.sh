#!/bin/bash
# perf record: build-id MMAP2 events by default when task_diag synthesizes
# SPDX-License-Identifier: GPL-2.0
#
# When perf synthesizes from /proc/task-diag, the kernel gives the build ID
# of every mapping: perf record then records build IDs in its MMAP2 events
# (the attribute's build_id bit, synthesized events with build IDs) and
# writes no build-id table, as with --buildid-mmap.  The /proc walk, and
# any choice the user made (--no-buildid-mmap, -B, --buildid-all,
# record.build-id), keep the build-id pass.  Either way perf record's
# closing line counts the samples it wrote.

. "$(dirname "$0")"/lib/task_diag.sh

skip_if_no_task_diag

tmp=$(mktemp -d /tmp/perf-buildid-default.XXXXXX)
trap 'rm -rf "${tmp}"' EXIT
task_diag_configs "${tmp}"
printf '[synthesize]\n\ttask-diag = true\n[record]\n\tbuild-id = cache\n' \
	> "${tmp}/build-id-cache.config"
err=0

# record NAME CONFIG WORKLOAD [OPTION...]: perf record -a with CONFIG and
# OPTIONs into NAME.data, its output in NAME.log; says why if it failed
record() {
	local name=$1 config=$2 workload=$3
	shift 3

	# shellcheck disable=SC2086 # WORKLOAD is a command and its arguments
	PERF_CONFIG=${tmp}/${config}.config perf record -a "$@" -e cpu-clock \
		-o "${tmp}/${name}.data" -- ${workload} > "${tmp}/${name}.log" 2>&1 &&
		return
	echo "${name}: perf record failed:"
	tail -n 20 "${tmp}/${name}.log"
	err=1
	return 1
}

# check NAME CONFIG WANT [OPTION...]: perf record -a with CONFIG and
# OPTIONs writes build-id MMAP2 events if WANT is "mmap", none if it is
# "no-mmap"
check() {
	local name=$1 config=$2 want=$3 data=${tmp}/$1.data bit mmaps
	shift 3

	record "${name}" "${config}" true "$@" || return
	bit=$(perf evlist -v -i "${data}" 2>/dev/null | grep -c 'build_id: 1')
	mmaps=$(perf script -i "${data}" --show-mmap-events 2>/dev/null |
		grep -c -E 'PERF_RECORD_MMAP2.*<[0-9a-f]{40}>\]: r-xp /')
	echo "${name}: build_id bit on ${bit} events, ${mmaps} MMAP2 of files with build IDs"
	if [ "${want}" = mmap ]; then
		[ "${bit}" -gt 0 ] && [ "${mmaps}" -gt 0 ] && return
	else
		[ "${bit}" -eq 0 ] && [ "${mmaps}" -eq 0 ] && return
	fi
	echo "${name}: expected ${want}"
	err=1
}

# check_samples NAME CONFIG [OPTION...]: the closing line of perf record
# -a with CONFIG and OPTIONs gives as many samples as its perf.data holds
check_samples() {
	local name=$1-samples config=$2 said held
	shift 2

	record "${name}" "${config}" "sleep 0.3" "$@" || return
	said=$(sed -n 's/.* (\([0-9][0-9]*\) samples) \].*/\1/p' "${tmp}/${name}.log")
	held=$(perf report -D -i "${tmp}/${name}.data" 2>/dev/null |
		grep -c 'PERF_RECORD_SAMPLE(')
	echo "${name}: the closing line says ${said:-nothing of} samples, perf.data holds ${held}"
	[ -n "${said}" ] && [ "${said}" = "${held}" ] && [ "${held}" -gt 0 ] && return
	grep 'perf record:' "${tmp}/${name}.log"
	err=1
}

check default task-diag mmap
check no-buildid-mmap task-diag no-mmap --no-buildid-mmap
check no-buildid task-diag no-mmap -B
check buildid-all task-diag no-mmap --buildid-all
check record.build-id build-id-cache no-mmap
check proc no-task-diag no-mmap
check proc-buildid-mmap no-task-diag mmap --buildid-mmap
check_samples default task-diag
check_samples no-buildid task-diag -B
check_samples proc no-task-diag
exit ${err}
