#!/bin/bash
# perf: /proc/kallsyms is read on a thread while it is parsed, symbol for symbol
# SPDX-License-Identifier: GPL-2.0
#
# perf parses /proc/kallsyms into a table while a thread of its own reads
# it: the reads must come from another thread than the one that opened the
# file, and the table must hold what the file says: perf kallsyms finds
# each kernel function that /proc/kallsyms names once at an address of its
# own, at that address.

tmp=$(mktemp -d /tmp/perf-kallsyms-table.XXXXXX)
trap 'rm -rf "${tmp}"' EXIT

if ! command -v strace > /dev/null; then
	echo "strace is not installed"
	exit 2
fi
cat /proc/kallsyms > "${tmp}/kallsyms"
if [ "$(awk '$3 == "_stext" { print $1; exit }' "${tmp}/kallsyms")" = \
     0000000000000000 ]; then
	echo "/proc/kallsyms shows no addresses to this user (kptr_restrict)"
	exit 2
fi

# the reads of /proc/kallsyms: not by the thread that opened it
if ! strace -f -qq -e trace=openat,read -o "${tmp}/strace" \
	perf kallsyms _stext > "${tmp}/kallsyms.log" 2>&1; then
	echo "perf kallsyms failed:"
	tail -n 20 "${tmp}/kallsyms.log"
	exit 1
fi
# "TID FD" of the open of /proc/kallsyms, then the threads that read that
# fd until it was closed
opener=$(awk '/openat\(.*"\/proc\/kallsyms"/ && $NF ~ /^[0-9]+$/ {
		print $1, $NF; exit }' "${tmp}/strace")
if [ -z "${opener}" ]; then
	echo "perf kallsyms did not open /proc/kallsyms"
	exit 1
fi
# shellcheck disable=SC2086
set -- ${opener}
readers=$(awk -v fd="$2" '
	/openat\(.*"\/proc\/kallsyms"/ { open = 1; next }
	open && $2 ~ "^close\\(" fd "\\)" { exit }
	open && $2 ~ "^read\\(" fd "," { print $1 }' "${tmp}/strace" | sort -u)
echo "/proc/kallsyms opened by thread $1 as fd $2, read by: $(echo "${readers}" | tr '\n' ' ')"
if [ -z "${readers}" ] || echo "${readers}" | grep -qx "$1"; then
	echo "/proc/kallsyms was not read on a thread of its own"
	exit 1
fi

# the kernel's functions (between _stext and _etext, the text of the
# kernel map) with a name and an address of their own: NAME ADDRESS, the
# address in hex without its leading zeros, as perf prints it (addresses of
# the same number of digits compare as strings)
awk '$3 == "_stext" && !b { b = $1 } $3 == "_etext" && !e { e = $1 }
     ($2 ~ /^[tTwW]$/) && NF == 3 { n[$3]++; a[$1]++; s[$3] = $1 }
     END { for (f in s) if (n[f] == 1 && a[s[f]] == 1 &&
			   s[f] >= b && s[f] < e) {
		addr = s[f]; sub(/^0+/, "", addr); print f, addr } }' \
	"${tmp}/kallsyms" | sort > "${tmp}/expected"
total=$(wc -l < "${tmp}/expected")
if [ "${total}" -lt 1000 ]; then
	echo "only ${total} kernel functions of their own in /proc/kallsyms"
	exit 1
fi

# perf kallsyms prints "NAME: [kernel] DSO 0xSTART-0xEND (...)" for each
split -l 4000 "${tmp}/expected" "${tmp}/names."
for part in "${tmp}"/names.*; do
	# shellcheck disable=SC2046
	perf kallsyms $(awk '{ print $1 }' "${part}") 2> /dev/null
done | awk '$2 == "[kernel]" { sub(/:$/, "", $1); split($4, r, "-");
			       sub(/^0x/, "", r[1]); print $1, r[1] }' |
	sort > "${tmp}/found"
missing=$(comm -23 "${tmp}/expected" "${tmp}/found" | wc -l)
echo "${total} kernel functions in /proc/kallsyms, ${missing} not found by perf at their address"
if [ "${missing}" -ne 0 ]; then
	comm -23 "${tmp}/expected" "${tmp}/found" | head -n 5
	exit 1
fi
exit 0
