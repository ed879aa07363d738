#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# run-tests.sh NAME CMD [NAME CMD]...: run each TAP suite, number its
# results into one TAP stream ("ok N - NAME: test"), end with "1..N" and
# "N passed, N failed, N skipped".  A suite that fails without a "not ok"
# line counts as one failure.
n=0 passed=0 failed=0 skipped=0
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT

run_suite() {
	name=$1 cmd=$2 bad=0
	echo "# suite $name: $cmd"
	sh -c "$cmd" >"$out" 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1))
			status=${line%% [0-9]*}
			desc=$(printf '%s\n' "$line" | sed -E 's/^(not )?ok [0-9]* *-? *//')
			echo "$status $n - $name: $desc"
			case $status:$desc in
			"not ok":*) failed=$((failed + 1)) bad=1 ;;
			*"# SKIP"*|*"# skip"*) skipped=$((skipped + 1)) ;;
			*) passed=$((passed + 1)) ;;
			esac ;;
		1..*) ;;
		"#"*) echo "$line" ;;
		*) echo "# $line" ;;
		esac
	done <"$out"
	if [ "$rc" != 0 ] && [ "$bad" = 0 ]; then
		n=$((n + 1)) failed=$((failed + 1))
		echo "not ok $n - $name: exited with status $rc"
	fi
}

while [ $# -ge 2 ]; do
	run_suite "$1" "$2"
	shift 2
done
echo "1..$n"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
