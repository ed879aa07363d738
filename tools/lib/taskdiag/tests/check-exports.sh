#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# check-exports.sh HEADER MAP [LIB.so SONAME]: the public nodes of the
# version script (LIBTASKDIAG_1.0, then one per minor version) export
# exactly the functions the public header declares with LIBTASKDIAG_API,
# the first one hides everything else, its LIBTASKDIAG_PRIVATE
# node only test hooks (taskdiag__test_*) that no public header declares,
# and the shared library exports exactly those, under SONAME. TAP.
hdr=$1 map=$2 so=$3 soname=$4
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

# The names of the node NAME: between its "global:" and its "local:" or "}"
node() {
	awk -v node="$1" '$1 == node && $2 == "{" { in_node = 1; next }
	     in_node && /global:/ { g = 1; next }
	     in_node && (/local:/ || /}/) { g = 0; in_node = 0 }
	     g { gsub(/[ \t;]/, ""); if ($0 != "") print }' "$map" | sort
}
nodes=$(awk '$2 == "{" && $1 != "LIBTASKDIAG_PRIVATE" { print $1 }' "$map")
public=$(echo "$nodes" | head -n 1)
for p in $nodes; do node "$p"; done | sort >"$tmp/map"
node LIBTASKDIAG_PRIVATE >"$tmp/private"

diff -u "$tmp/header" "$tmp/map" >"$tmp/diff1"
result $? "$(wc -l <"$tmp/header") functions of the header = those of the version script"
sed 's/^/# /' "$tmp/diff1"

awk -v node="$public" '$1 == node { on = 1; next } on && /}/ { exit } on' \
	"$map" | tr -d ' \t\n' | grep -q 'local:\*;$'
result $? "the public node $public hides the rest (local: *;)"

! grep -qv '^taskdiag__test_' "$tmp/private" &&
	! grep -qxFf "$tmp/private" "$tmp/header"
result $? "LIBTASKDIAG_PRIVATE: only test hooks, none in the public header"

if [ -n "$so" ]; then
	nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' |
		sed 's/@.*//' | sort >"$tmp/so"
	sort "$tmp/map" "$tmp/private" | diff -u - "$tmp/so" >"$tmp/diff2"
	result $? "$(basename "$so") exports exactly the version script's functions"
	sed 's/^/# /' "$tmp/diff2"
	objdump -p "$so" | grep -q "SONAME[[:space:]]*$soname$"
	result $? "$(basename "$so") has the soname $soname"
fi
echo "1..$n"
exit $failed
