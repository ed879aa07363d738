#!/bin/bash
# perf record --buildid-mmap: build IDs are read from paths only
# SPDX-License-Identifier: GPL-2.0
#
# Synthesized mappings named "[vdso]" or "[vsyscall]" have no file to read
# a build ID from.  With build-id MMAP2 events, perf must not open such a
# name as a relative path (once per process), nor take the build ID of a
# file of that name in its working directory; files it maps by path
# keep their build IDs.  Both synthesis sources are run.

. "$(dirname "$0")"/lib/task_diag.sh

skip_if_missing strace "to see what perf opens"

tmp=$(mktemp -d /tmp/perf-buildid-names.XXXXXX)
trap 'rm -rf "${tmp}"' EXIT
task_diag_configs "${tmp}"

# an ELF file with a build ID where a relative "[vdso]" would be found
perf_bin=$(command -v perf)
mkdir "${tmp}/cwd"
cp "${perf_bin}" "${tmp}/cwd/[vdso]"
perf_bid=$(perf buildid-list -i "${perf_bin}" 2>/dev/null)
if [ -z "${perf_bid}" ]; then
	echo "perf has no build ID to look for"
	exit 2
fi

sources="no-task-diag"
[ -w /proc/task-diag ] && sources="${sources} task-diag"
err=0
for src in ${sources}; do
	data=${tmp}/${src}.data
	if ! (cd "${tmp}/cwd" &&
	      PERF_CONFIG=${tmp}/${src}.config strace -f -qq \
		-e trace=open,openat -o "${tmp}/${src}.strace" \
		perf record -a --buildid-mmap -e cpu-clock -o "${data}" -- true) \
		> "${tmp}/${src}.log" 2>&1; then
		echo "perf record (${src}) failed:"
		tail -n 20 "${tmp}/${src}.log"
		exit 1
	fi
	n=$(grep -c -E 'open(at)?\((AT_FDCWD, )?"\[' "${tmp}/${src}.strace")
	echo "${src}: ${n} opens of a bracketed name"
	[ "${n}" -eq 0 ] || { grep -m 3 '"\[' "${tmp}/${src}.strace"; err=1; }

	events=$(perf script -i "${data}" --show-mmap-events 2>/dev/null |
		 grep 'PERF_RECORD_MMAP2')
	if printf '%s\n' "${events}" | grep '\[vdso\]' | grep -q "<${perf_bid}>"; then
		echo "${src}: [vdso] got the build ID of ./[vdso]"
		err=1
	fi
	# a mapping of a file keeps its build ID
	if ! printf '%s\n' "${events}" | grep -q -E '<[0-9a-f]{40}>\]: r-xp /'; then
		echo "${src}: no MMAP2 event of a file has a build ID"
		err=1
	fi
done
exit ${err}
