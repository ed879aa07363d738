#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# check-exports.sh HEADER MAP [LIB.so]: the version script exports exactly
# the functions the public header declares with LIBTASKDIAG_API, it hides
# everything else, and the shared library exports exactly those. TAP.
hdr=$1 map=$2 so=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# result STATUS DESCRIPTION, $n, $failed
. "$(dirname "$0")/../../../testing/tap/tap.sh"

# Declarations: from LIBTASKDIAG_API to ';', outside preprocessor lines;
# the function name is the last identifier before the first '('.
grep -v '^[[:space:]]*#' "$hdr" | tr '\n' ' ' |
	grep -oE 'LIBTASKDIAG_API[^;]*;' |
	sed -E 's/\(.*//; s/.*[^A-Za-z0-9_]([A-Za-z0-9_]+)[[:space:]]*$/\1/' |
	sort >"$tmp/header"

# The names between "global:" and "local:"
awk '/global:/ { g = 1; next } /local:/ { g = 0 }
     g { gsub(/[ \t;]/, ""); if ($0 != "") print }' "$map" | sort >"$tmp/map"

diff -u "$tmp/header" "$tmp/map" >"$tmp/diff1"
result $? "$(wc -l <"$tmp/header") functions of the header = those of the version script"
sed 's/^/# /' "$tmp/diff1"

tail -n 3 "$map" | tr -d ' \t\n' | grep -q '^local:\*;};$'
result $? "the version script ends with local: *;"

if [ -n "$so" ]; then
	nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' |
		sed 's/@.*//' | sort >"$tmp/so"
	diff -u "$tmp/map" "$tmp/so" >"$tmp/diff2"
	result $? "$(basename "$so") exports exactly the version script's functions"
	sed 's/^/# /' "$tmp/diff2"
	objdump -p "$so" | grep -q "SONAME[[:space:]]*libtaskdiag.so.0$"
	result $? "$(basename "$so") has the soname libtaskdiag.so.0"
fi
echo "1..$n"
exit $failed
