#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-cli.sh TASKDIAG TD-VICTIM [BACKEND]: the taskdiag command on the
# host (procfs backend by default): arguments, exit statuses, and its
# output against /proc for a td-victim process. TAP.
cmd=$1 victim=$2 backend=${3:-procfs}
tmp=$(mktemp -d) || exit 1
vpid=
cleanup() {
	[ -n "$vpid" ] && kill "$vpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
n=0 failed=0

check() {
	desc=$1
	shift
	n=$((n + 1))
	if "$@" >"$tmp/log" 2>&1; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		failed=1
		tail -n 15 "$tmp/log" | sed 's/^/# /'
	fi
}

# expect_exit STATUS CMD...: CMD exits with STATUS and says why on stderr
expect_exit() {
	want=$1
	shift
	"$@" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	cat "$tmp/stderr"
	[ "$rc" = "$want" ] && [ -s "$tmp/stderr" ]
}

td() {
	"$cmd" --backend="$backend" "$@"
}

check "no arguments: exit 2" expect_exit 2 "$cmd"
check "unknown strategy: exit 2" expect_exit 2 "$cmd" everything
check "two strategies: exit 2" expect_exit 2 "$cmd" all one
check "one without --pid: exit 2" expect_exit 2 "$cmd" one
check "all with --pid: exit 2" expect_exit 2 "$cmd" all --pid 1
check "bad --pid: exit 2" expect_exit 2 "$cmd" one --pid 12x
check "--pid 0: exit 2" expect_exit 2 "$cmd" one --pid 0
check "bad --backend: exit 2" expect_exit 2 "$cmd" all --backend=magic
check "bad --buf-size: exit 2" expect_exit 2 "$cmd" all --buf-size 0
check "unknown option: exit 2" expect_exit 2 "$cmd" all --frobnicate
check "--help: exit 0" "$cmd" --help
check "missing pid: says no such task" \
	sh -c "'$cmd' one --pid 4294967295 --backend=$backend 2>&1 >/dev/null |
		grep -q 'pid 4294967295: no such task'"
check "missing pid: exit status 1" \
	expect_exit 1 "$cmd" one --pid 4294967295 --backend="$backend"
if [ ! -e /proc/task-diag ]; then
	check "--backend=kernel without /proc/task-diag: exit 1" \
		expect_exit 1 "$cmd" all --backend=kernel
fi

"$victim" --threads 2 --children 1 --ready "$tmp/ready" &
vpid=$!
i=0
while [ ! -s "$tmp/ready" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
check "td-victim started" test "$(cat "$tmp/ready" 2>/dev/null)" = "$vpid"

maps_same() {
	cat "/proc/$vpid/maps" >"$tmp/maps"
	td one --pid "$vpid" --maps | tail -n +2 >"$tmp/td-maps"
	diff -u "$tmp/maps" "$tmp/td-maps"
}
check "one --maps prints /proc/PID/maps" maps_same

first_line() {
	td one --pid "$vpid" >"$tmp/one" &&
	grep -Eq "^pid +$vpid tgid +$vpid ppid +$$ sid +[0-9]+ pgid +[0-9]+ comm td-victim$" "$tmp/one"
}
check "one: pid tgid ppid sid pgid comm" first_line

threads() {
	td threads --pid "$vpid" >"$tmp/threads" &&
	[ "$(grep -c '^pid' "$tmp/threads")" = 3 ] &&
	[ "$(awk '/^pid/ { print $4 }' "$tmp/threads" | sort -u)" = "$vpid" ] &&
	[ "$(awk '/^pid/ { print $2 }' "$tmp/threads" | sort)" = \
	  "$(ls "/proc/$vpid/task" | sort)" ]
}
check "threads: the 3 threads of the process" threads

children() {
	td children --pid "$vpid" >"$tmp/children" &&
	[ "$(grep -c '^pid' "$tmp/children")" = 1 ] &&
	[ "$(awk '/^pid/ { print $6 }' "$tmp/children")" = "$vpid" ]
}
check "children: the child of the process" children

all_has() {
	td all >"$tmp/all" && grep -Eq "^pid +$vpid tgid" "$tmp/all" &&
	td All >"$tmp/All" &&
	[ "$(grep -Ec "^pid +[0-9]+ tgid +$vpid " "$tmp/All")" = 3 ]
}
check "all and All list the process and its threads" all_has

smaps() {
	td one --pid "$vpid" --smaps --cred --stat --statm --base >"$tmp/smaps" &&
	[ "$(grep -c '^  smaps flags' "$tmp/smaps")" = \
	  "$(grep -c . "/proc/$vpid/maps")" ] &&
	grep -q '^  cred uid' "$tmp/smaps" && grep -q '^  stat minflt' "$tmp/smaps" &&
	grep -q '^  statm anon' "$tmp/smaps" && grep -q '^  state S tpid 0' "$tmp/smaps" &&
	grep -q 'threads 3$' "$tmp/smaps"
}
check "--smaps --cred --stat --statm --base lines" smaps

# jq is a dependency of the tests (scripts/deps.sh): its absence fails them
json() {
	td All --json --smaps --cred --stat --statm >"$tmp/json" &&
	jq -e . "$tmp/json" >/dev/null
}
check "--json: one valid JSON object per line" json

json_maps() {
	td one --pid "$vpid" --json --maps |
		jq -r '.vmas[] | select(.name) | .name' >"$tmp/names" &&
	grep -q '^/memfd:td-victim (deleted)$' "$tmp/names" &&
	grep -q '^/dev/zero (deleted)$' "$tmp/names" &&
	grep -q "td-victim\..* (deleted)$" "$tmp/names"
}
check "--json: memfd, /dev/zero and deleted file names" json_maps

echo "1..$n"
exit $failed
