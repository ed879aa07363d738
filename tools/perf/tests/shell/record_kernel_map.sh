#!/bin/bash
# perf record: the kernel map spans the running kernel's start and end
# SPDX-License-Identifier: GPL-2.0
#
# perf finds the start of the running kernel (the first function or alias
# _text, else _stext) and its end (the first _edata, else _etext) in one
# read of /proc/kallsyms.  The kernel MMAP event that perf record
# synthesizes, as MMAP or (with build IDs in MMAP2 events, by default with
# task_diag) as MMAP2, must start there, with that offset and
# that symbol in its name, and end there.

tmp=$(mktemp -d /tmp/perf-kernel-map.XXXXXX)
trap 'rm -rf "${tmp}"' EXIT

# first NAME TYPES: the address of the first symbol NAME of one of TYPES
first() {
	awk -v n="$1" -v t="$2" '$3 == n && index(t, $2) { print $1; exit }' \
		/proc/kallsyms
}

start_name=_text
start=$(first _text tTwWA)
if [ -z "${start}" ]; then
	start_name=_stext
	start=$(first _stext tTwWA)
fi
end=$(first _edata tTwWAbBdDrRgGsSvV)
[ -n "${end}" ] || end=$(first _etext tTwWAbBdDrRgGsSvV)
if [ -z "${start}" ] || [ -z "${end}" ]; then
	echo "no _text/_stext or _edata/_etext in /proc/kallsyms"
	exit 1
fi
if [ $((16#${start})) -eq 0 ]; then
	echo "/proc/kallsyms shows no addresses to this user (kptr_restrict)"
	exit 2
fi

# an MMAP event, or an MMAP2 one with a build ID
re='\[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ 0x([0-9a-f]+)( <[0-9a-f]+>)?\]: [-a-z]+ \[kernel\.kallsyms\](.*)$'
err=0
# build IDs in MMAP2 events (the default with task_diag), and not
for opt in --buildid-mmap --no-buildid-mmap; do
	if ! perf record -a "${opt}" -e cpu-clock -o "${tmp}/perf.data" -- true \
		> "${tmp}/record.log" 2>&1; then
		echo "perf record ${opt} failed:"
		tail -n 20 "${tmp}/record.log"
		exit 1
	fi
	line=$(perf script --show-mmap-events -i "${tmp}/perf.data" 2>/dev/null |
		grep -m 1 -E 'PERF_RECORD_MMAP2? -1/0: .*\[kernel\.kallsyms\]')
	if [[ ! ${line} =~ ${re} ]]; then
		echo "${opt}: no kernel MMAP event in perf script's output: '${line}'"
		exit 1
	fi
	m_start=${BASH_REMATCH[1]} m_len=${BASH_REMATCH[2]}
	m_pgoff=${BASH_REMATCH[3]} m_name=${BASH_REMATCH[5]}

	echo "kallsyms: ${start_name} ${start}, end ${end}; ${opt}: ${line##*: }"
	[ $((16#${m_start})) -eq $((16#${start})) ] ||
		{ echo "the map starts at ${m_start}, not at ${start_name} ${start}"; err=1; }
	[ $((16#${m_pgoff})) -eq $((16#${start})) ] ||
		{ echo "its offset is ${m_pgoff}, not ${start}"; err=1; }
	[ "${m_name}" = "${start_name}" ] ||
		{ echo "it is named after '${m_name}', not ${start_name}"; err=1; }
	[ $((16#${m_start} + 16#${m_len})) -eq $((16#${end})) ] ||
		{ echo "it ends at ${m_start} + ${m_len}, not at ${end}"; err=1; }
done
exit ${err}
