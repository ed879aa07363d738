#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# check-abi.sh LIB.so SRCDIR MAJOR: the ABI of the shared library (the
# types of its public header and of the UAPI header it ships, as abidw of
# Debian's abigail-tools reads them from its DWARF) against the baselines
# in SRCDIR/abi: the one of its own soname (libtaskdiag.so.MAJOR.abi) must
# be there and abidiff must find no change from it but added functions
# (a field appended to a struct that carries its size is compatible, and
# is recorded with make abi-baseline in the commit that appends it; a
# change that is not bumps LIBTASKDIAG_MAJOR and records the baseline of
# the new soname). TAP.
#
# A new baseline, after a change of MAJOR: make abi-baseline
so=$1 srcdir=$2 major=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../../testing/tap/tap.sh"

abidw --headers-dir "$srcdir/include/taskdiag" \
	--headers-dir "$srcdir/../../include/uapi/linux" --no-corpus-path \
	--no-show-locs --no-comp-dir-path "$so" >"$tmp/cur.abi" ||
	{ echo "not ok 1 - abidw $so"; echo "1..1"; exit 1; }

# abidiff's exit status: bit 0 error, 1 usage, 2 change, 3 incompatible
# change; added functions and the library's private structs
# (abi/libtaskdiag.suppr) are no change
abidiff_to() {
	abidiff --suppressions "$srcdir/abi/libtaskdiag.suppr" --no-added-syms \
		"$1" "$tmp/cur.abi" >"$tmp/diff" 2>&1
	rc=$?
	sed 's/^/# /' "$tmp/diff" | head -n 40
	return $rc
}

base=$srcdir/abi/libtaskdiag.so.$major.abi
if [ ! -f "$base" ]; then
	result 1 "a baseline for libtaskdiag.so.$major (make abi-baseline)"
else
	abidiff_to "$base"
	rc=$?
	[ "$rc" = 0 ]
	result $? "libtaskdiag.so.$major: no change from its baseline but additions (abidiff status $rc)"
fi

echo "1..$n"
exit $failed
