#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest_compare.sh [BUILD_DIR]: in a guest with /proc/task-diag, the kernel
# and the procfs backends of libtaskdiag describe the same tasks the same
# way, and the VMAs the kernel sends are the lines of /proc/PID/maps.  TAP.
#
# The tasks: td-victim (3 threads, 2 children, a memfd, a deleted file
# mapped private and shared read-only, /dev/zero shared, [vdso], ...).
# Fields that legitimately differ are left out of the comparisons: times
# (they run between the two reads), pss below the kB that smaps shows,
# and for file mappings pss and the shared/private split, which depend on
# who else maps the pages (the two taskdiag processes map libc too).
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
cmd=$build/taskdiag
victim=$build/td-victim
tmp=$(mktemp -d) || exit 1
vpid=
n=0 failed=0
. "$here/victim.sh"

cleanup() {
	[ -n "$vpid" ] && kill "$vpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	failed=1
	echo "not ok $n - $1"
	[ -n "$2" ] && [ -f "$2" ] && head -n 40 "$2" | sed 's/^/# /'
}

check() {
	desc=$1
	shift
	if "$@" >"$tmp/log" 2>&1; then
		ok "$desc"
	else
		not_ok "$desc" "$tmp/log"
	fi
}

if [ ! -e /proc/task-diag ]; then
	echo "1..0 # SKIP no /proc/task-diag: not the task_diag kernel"
	exit 0
fi
if [ ! -x "$cmd" ] || [ ! -x "$victim" ]; then
	echo "not ok 1 - $cmd and $victim built (make test-progs)"
	echo "1..1"
	exit 1
fi

# The lines of the task PID in the text output FILE
section() {
	awk -v p="$2" '/^pid / { on = ($2 == p) } on' "$1"
}

# Leave out what may differ: times, pss under 1 kB
normalize() {
	awk '
	/^  stat / {
		for (i = 2; i < NF; i += 2)
			if ($i ~ /^(utime|stime|cutime|cstime)$/)
				$(i + 1) = "-"
	}
	/^[0-9a-f]+-[0-9a-f]+ / { file = $5 != "0" }
	/^  smaps / {
		for (i = 2; i < NF; i += 2) {
			if ($i == "pss")
				$(i + 1) = file ? "-" : "kB:" int($(i + 1) / 1024)
			if (file && $i ~ /^(shared|private)_(clean|dirty)$/)
				$(i + 1) = "-"
		}
	}
	{ print }'
}

FULL="--base --cred --stat --statm --smaps --no-headers"

# same_records NAME STRATEGY PID: both backends, field by field
same_records() {
	"$cmd" "$2" --pid "$3" $FULL --backend=kernel >"$tmp/k.raw" &&
	"$cmd" "$2" --pid "$3" $FULL --backend=procfs >"$tmp/p.raw" || return 1
	normalize <"$tmp/k.raw" >"$tmp/k"
	normalize <"$tmp/p.raw" >"$tmp/p"
	[ -s "$tmp/k" ] && diff -u "$tmp/p" "$tmp/k"
}

if ! start_victim "$victim" "$tmp" --threads 2 --children 2; then
	not_ok "td-victim started"
	echo "1..$n"
	exit 1
fi
ok "td-victim $vpid started"
victim_kin

check "kernel = procfs: one $vpid (the process)" same_records one one "$vpid"
check "kernel = procfs: one $thread (a thread)" same_records one one "$thread"
check "kernel = procfs: threads $vpid" same_records threads threads "$vpid"
check "kernel = procfs: children $vpid" same_records children children "$vpid"
check "kernel = procfs: one $child (a child)" same_records one one "$child"

counts() {
	"$cmd" threads --pid "$vpid" --backend=kernel >"$tmp/t" &&
	"$cmd" children --pid "$vpid" --backend=kernel >"$tmp/c" &&
	[ "$(grep -c '^pid' "$tmp/t")" = 3 ] && [ "$(grep -c '^pid' "$tmp/c")" = 2 ]
}
check "kernel: 3 threads and 2 children" counts

names() {
	"$cmd" one --pid "$vpid" --maps --backend=kernel >"$tmp/names" &&
	grep -q ' /memfd:td-victim (deleted)$' "$tmp/names" &&
	grep -q ' /dev/zero (deleted)$' "$tmp/names" &&
	grep -q 'td-victim\.[A-Za-z0-9]* (deleted)$' "$tmp/names" &&
	grep -q ' \[vdso\]$' "$tmp/names" && grep -q ' \[stack\]$' "$tmp/names"
}
check "kernel: memfd, /dev/zero, deleted file, [vdso], [stack] names" names

# A read-only MAP_SHARED mapping of a file opened read-only: MAYSHARE only
shared_ro() {
	"$cmd" one --pid "$vpid" --smaps --backend=kernel |
		grep -A1 'r--s 00001000 .*td-victim\..* (deleted)$' >"$tmp/ro" &&
	flags=$(awk '/smaps flags/ { print $3 }' "$tmp/ro") &&
	[ $((flags & 0x80)) != 0 ] && [ $((flags & 0x8)) = 0 ]
}
check "kernel: read-only MAP_SHARED file: MAYSHARE without SHARED" shared_ro

maps_of_one() {
	cat "/proc/$vpid/maps" >"$tmp/m"
	"$cmd" one --pid "$vpid" --maps --backend=kernel --no-headers |
		tail -n +2 >"$tmp/k"
	diff -u "$tmp/m" "$tmp/k"
}
check "kernel: one --maps = /proc/PID/maps" maps_of_one

# The same answer whatever the buffer: continued tasks reassembled
buffers() {
	"$cmd" All $FULL --backend=kernel >"$tmp/big" || return 1
	for size in 4096 1024 300; do
		"$cmd" All $FULL --backend=kernel --buf-size $size >"$tmp/small" ||
			return 1
		section "$tmp/big" "$vpid" | normalize >"$tmp/a"
		section "$tmp/small" "$vpid" | normalize >"$tmp/b"
		[ -s "$tmp/a" ] && diff -u "$tmp/a" "$tmp/b" || return 1
	done
}
check "kernel: same records with 128K, 4K, 1K and 300-byte buffers" buffers

json() {
	"$cmd" All --json $FULL --backend=kernel >"$tmp/json" &&
	jq -e . "$tmp/json" >/dev/null
}
check "kernel: --json output parses" json

# Every task whose maps did not change meanwhile: its VMAs are its maps
all_maps() {
	for d in /proc/[0-9]*; do
		cat "$d/maps" >"$tmp/before.${d#/proc/}" 2>/dev/null
	done
	"$cmd" all --maps --backend=kernel >"$tmp/all" || return 1
	same=0 changed=0 bad=0
	for p in $(awk '/^pid / { print $2 }' "$tmp/all"); do
		cat "/proc/$p/maps" >"$tmp/after" 2>/dev/null || continue
		if ! cmp -s "$tmp/before.$p" "$tmp/after"; then
			changed=$((changed + 1))
			continue
		fi
		cp "$tmp/after" "$tmp/want"
		section "$tmp/all" "$p" | tail -n +2 >"$tmp/got"
		if cmp -s "$tmp/want" "$tmp/got"; then
			same=$((same + 1))
		else
			bad=$((bad + 1))
			echo "pid $p:"
			diff -u "$tmp/want" "$tmp/got" | head -n 10
		fi
	done
	echo "all --maps: $same tasks match, $changed changed, $bad differ"
	[ "$bad" = 0 ] && [ "$same" -gt 1 ]
}
if all_maps >"$tmp/log" 2>&1; then
	ok "kernel: all --maps = /proc/PID/maps ($(tail -n 1 "$tmp/log"))"
else
	not_ok "kernel: all --maps = /proc/PID/maps" "$tmp/log"
fi

# The unit tests of the kernel backend, on the real thing
unit() {
	"$build/asan/test-static" kernel >"$tmp/unit" 2>&1
	cat "$tmp/unit"
	! grep -q '^not ok' "$tmp/unit" && ! grep -q 'SKIP' "$tmp/unit"
}
check "unit tests of the kernel backend (test-static kernel)" unit

auto() {
	"$cmd" one --pid "$vpid" -v 2>&1 >/dev/null | grep -q 'backend: kernel'
}
check "auto backend picks the kernel" auto

missing() {
	"$cmd" one --pid 4194303 --backend=kernel 2>"$tmp/err"
	[ $? = 1 ] && grep -q 'no such task' "$tmp/err"
}
check "kernel: a missing pid exits 1, no such task" missing

echo "1..$n"
exit $failed
