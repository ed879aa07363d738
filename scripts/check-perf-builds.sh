#!/bin/bash
# The perf builds users and distributions make, as TAP:
#  - the perf `make` builds (build-perf.sh: WERROR=1, no kernel headers)
#    has every feature of a distribution's perf, taskdiag among them,
#    does not link libLLVM (NO_LIBLLVM=1, as Arch builds perf), and links
#    the system's libpython, with no RPATH or RUNPATH;
#  - tools/include/uapi/linux/task_diag.h, the copy perf and libtaskdiag
#    build with, is the series' include/uapi/linux/task_diag.h;
#  - perf builds with NO_TASKDIAG=1 (WERROR=1) and then has no taskdiag:
#    perf test task-diag skips, saying why.
. "$(dirname "$0")/common.sh"

FEATURES="libtraceevent dwarf libdw-dwarf-unwind libelf libpython libperl
bpf bpf_skeletons libslang libunwind zstd libnuma libcapstone libpfm4 lzma
zlib libcrypto debuginfod taskdiag"

# result STATUS DESCRIPTION, $n
. "$TOP/tools/testing/tap/tap.sh"

# feature PERF NAME: what perf version --build-options says of NAME
feature() {
	"$1" version --build-options 2>/dev/null |
		sed -n "s/^ *$2: \[ *\([a-zA-Z]*\) *\].*/\1/p"
}

perf=$OUT/perf
for f in $FEATURES; do
	v=$(feature "$perf" "$f")
	[ "$v" = on ]
	result $? "perf built with $f (build-options: ${v:-not listed})"
done

! ldd "$perf" | grep -q 'libLLVM'
result $? "perf does not link libLLVM ($(ldd "$perf" | grep -c libLLVM) libLLVM in ldd)"

libpython=$(ldd "$perf" | awk '/libpython/ { print $3 }')
case $libpython in
/usr/lib/*|/lib/*) ! readelf -d "$perf" | grep -q 'R.*PATH' ;;
*) false ;;
esac
result $? "perf links the system's libpython (${libpython:-none}), no RPATH or RUNPATH"

cmp -s "$TOP/tools/include/uapi/linux/task_diag.h" \
	"$TREE/include/uapi/linux/task_diag.h"
result $? "tools/include/uapi/linux/task_diag.h is the series' UAPI header"

grep -q '"include/uapi/linux/task_diag.h"' "$TREE/tools/perf/check-headers.sh" &&
	! (cd "$TREE/tools/perf" && ./check-headers.sh 2>&1) | grep -q 'task_diag\.h'
result $? "perf's check-headers.sh checks task_diag.h and finds no difference"

if nt=$("$TOP/scripts/build-perf.sh" no-taskdiag 2>&1 | tail -n 1) && [ -x "$nt" ]; then
	result 0 "perf builds with NO_TASKDIAG=1 and WERROR=1"
	v=$(feature "$nt" taskdiag)
	[ "$v" = OFF ]
	result $? "NO_TASKDIAG=1: build-options say taskdiag ${v:-not listed}"
	num=$("$nt" test list 2>&1 | sed -n 's/^ *\([0-9]*\): task-diag$/\1/p')
	out=$("$nt" test -S "${num:-none}" 2>&1)
	printf '%s\n' "$out" | grep -q 'Skip (perf built with NO_TASKDIAG=1)'
	rc=$?
	result $rc "NO_TASKDIAG=1: perf test task-diag skips, saying why"
	[ $rc = 0 ] || printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
else
	result 1 "perf builds with NO_TASKDIAG=1 and WERROR=1"
	tail -n 30 "$CACHE/perf-build-no-taskdiag.log" | sed 's/^/#   /'
fi
echo "1..$n"
