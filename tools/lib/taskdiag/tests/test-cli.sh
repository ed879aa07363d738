#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-cli.sh TASKDIAG TD-VICTIM [BACKEND]: the taskdiag command, on the
# host with the procfs backend (the default) and in the guest with the
# kernel's: arguments, exit statuses (0 found, 1 none, 2 usage, 3 error),
# and its output against /proc for a td-victim process. TAP.
cmd=$1 victim=$2 backend=${3:-procfs}
tmp=$(mktemp -d) || exit 1
vpid= cpid=
cleanup() {
	[ -n "$vpid" ] && kill "$vpid" 2>/dev/null
	[ -n "$cpid" ] && kill "$cpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
n=0 failed=0
. "$(dirname "$0")/victim.sh"

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
check "unknown field: exit 2" expect_exit 2 "$cmd" all -o pid,nosuch
check "-o with a group option: exit 2" expect_exit 2 "$cmd" all -o pid --maps
check "unknown user: exit 2" expect_exit 2 "$cmd" all -u no-such-user.td
check "empty list item: exit 2" expect_exit 2 "$cmd" one --pid 1,,2
check "--help: exit 0" "$cmd" --help
help_units() {
	"$cmd" --help >"$tmp/help" && grep -q 'clock ticks' "$tmp/help" &&
	grep -q 'in pages' "$tmp/help" && grep -q 'in bytes' "$tmp/help" &&
	grep -q 'total_rss' "$tmp/help" && grep -q '^exit status' "$tmp/help"
}
check "--help gives units, fields and exit statuses" help_units
version() {
	"$cmd" --version >"$tmp/version" &&
	grep -Eqx 'taskdiag [0-9]+\.[0-9]+\.[0-9]+' "$tmp/version"
}
check "--version: taskdiag X.Y.Z, exit 0" version
check "unreadable --proc: exit 3" \
	expect_exit 3 "$cmd" all --proc /nonexistent --backend="$backend"
check "missing pid: says no such task" \
	sh -c "'$cmd' one --pid 4294967295 --backend=$backend 2>&1 >/dev/null |
		grep -q 'pid 4294967295: no such task'"
check "missing pid: exit status 1" \
	expect_exit 1 "$cmd" one --pid 4294967295 --backend="$backend"
if [ ! -e /proc/task-diag ]; then
	check "--backend=kernel without /proc/task-diag: exit 3" \
		expect_exit 3 "$cmd" all --backend=kernel
fi

check "td-victim started" start_victim "$victim" "$tmp" --threads 2 --children 1

maps_same() {
	cat "/proc/$vpid/maps" >"$tmp/maps"
	td one --pid "$vpid" --maps --no-headers | tail -n +2 >"$tmp/td-maps"
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

backend_shown() {
	td one --pid "$vpid" >"$tmp/one" &&
	[ "$(head -n 1 "$tmp/one")" = "# backend: $backend" ] &&
	td one --pid "$vpid" --no-headers >"$tmp/one" &&
	head -n 1 "$tmp/one" | grep -q '^pid' &&
	td one --pid "$vpid" --json | jq -e ".backend == \"$backend\""
}
check "the backend: first text line, JSON field, none with --no-headers" \
	backend_shown

victim_kin
several_pids() {
	td one --pid "$vpid,$child" -p "$thread" --no-headers >"$tmp/several" &&
	[ "$(awk '{ print $2 }' "$tmp/several" | tr '\n' ' ')" = \
	  "$vpid $child $thread " ]
}
check "one --pid A,B -p C: the three tasks, in that order" several_pids
some_missing() {
	td one --pid "4294967295,$vpid" --no-headers >"$tmp/some" 2>"$tmp/err"
	[ $? = 0 ] && grep -q 'pid 4294967295: no such task' "$tmp/err" &&
	[ "$(awk '{ print $2 }' "$tmp/some")" = "$vpid" ]
}
check "a missing pid among others: said, the others printed, exit 0" \
	some_missing

user_filter() {
	me=$(id -un) uid=$(id -u)
	td All -u "$me" --no-headers >"$tmp/mine" &&
	[ "$(grep -Ec "^pid +[0-9]+ tgid +$vpid " "$tmp/mine")" = 3 ] &&
	td All -u "nobody,$uid" --no-headers >"$tmp/mine2" &&
	[ "$(grep -Ec "^pid +[0-9]+ tgid +$vpid " "$tmp/mine2")" = 3 ] &&
	! grep -v "^pid" "$tmp/mine2"
}
check "-u NAME and -u nobody,UID: the victim's 3 threads" user_filter
check "-u of a user without the task: exit 1" \
	sh -c "'$cmd' one --pid $vpid -u 4294967294 --backend=$backend >/dev/null; [ \$? = 1 ]"
no_cred_shown() {
	td one --pid "$vpid" -u "$(id -u)" >"$tmp/nocred" &&
	! grep -q '^  cred' "$tmp/nocred" && grep -Eq "^pid +$vpid " "$tmp/nocred"
}
check "-u without --cred prints no cred line" no_cred_shown

columns() {
	td one --pid "$vpid" -o pid,ppid,state,threads,uid,total_vm,comm \
		>"$tmp/cols" &&
	sed -n 2p "$tmp/cols" | grep -Eq '^ +PID +PPID STATE +THREADS +UID +TOTAL_VM COMM$' &&
	set -- $(sed -n 3p "$tmp/cols") &&
	[ "$1 $2 $3 $4 $5 $6 $7" = \
	  "$vpid $$ S 3 $(id -u) $(cut -d' ' -f1 "/proc/$vpid/statm") td-victim" ]
}
check "-o: header and values = /proc (pid ppid state threads uid total_vm comm)" \
	columns
columns_json() {
	td one --pid "$vpid" -o pid,comm,minflt --json | jq -e \
		".pid == $vpid and .comm == \"td-victim\" and (.minflt | type) == \"string\" and (keys | length) == 4"
}
check "-o --json: the fields listed (and the backend)" columns_json

json_fields() {
	td one --pid "$vpid" --json --cred --stat --statm >"$tmp/j" &&
	jq -e ".cred.uid.real == $(id -u) and .cred.gid.effective == $(id -g) and (.stat.minflt | type) == \"string\" and .statm.total_vm == \"$(cut -d' ' -f1 "/proc/$vpid/statm")\" and .stat.threads == 3" "$tmp/j"
}
check "--json: named ids, 64-bit values as strings" json_fields

# pss in bytes: [stack] is private, its Pss in smaps is pss / 1024
pss_bytes() {
	want=$(awk '/\[stack\]$/ { on = 1 } on && /^Pss:/ { print $2; exit }' \
		"/proc/$vpid/smaps") &&
	td one --pid "$vpid" --smaps --json >"$tmp/pss" &&
	got=$(jq -r '.vmas[] | select(.name == "[stack]") | .stat.pss' "$tmp/pss") &&
	echo "smaps Pss $want kB, taskdiag pss $got" &&
	[ -n "$want" ] && [ "$want" -gt 0 ] && [ $((got / 1024)) = "$want" ] &&
	jq -e '[.vmas[] | .stat | (.pss | tonumber) <= (.resident | tonumber)] | all' "$tmp/pss"
}
check "--smaps: pss in bytes, never above resident" pss_bytes

# A comm with control bytes prints no fake line: ps's '?'
# (its sleep must not hold the TAP output open after the tests)
# and a surrogate (ED A0 80), which UTF-8 does not have
sh -c 'printf "x\nfake\tline\355\240\200" >/proc/$$/comm; echo $$ >"$1"; sleep 60; exit 0' \
	sh "$tmp/cready" >/dev/null 2>&1 &
cpid=$!
wait_ready "$tmp/cready"
comm_escaped() {
	td one --pid "$cpid" --no-headers >"$tmp/comm" &&
	[ "$(wc -l <"$tmp/comm")" = 1 ] &&
	grep -q ' comm x?fake?line???$' "$tmp/comm" &&
	td one --pid "$cpid" -o comm --no-headers | grep -qx 'x?fake?line???' &&
	td one --pid "$cpid" --json >"$tmp/comm.json" &&
	jq -e '.base.comm == "x\nfake\tline\u00ed\u00a0\u0080"' "$tmp/comm.json" &&
	python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$tmp/comm.json"
}
check "a comm with control bytes and a surrogate: '?' in text, escaped in strict JSON" \
	comm_escaped

echo "1..$n"
exit $failed
