#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest_parity.sh [BUILD_DIR]: in a guest with /proc/task-diag, the procfs
# backend of libtaskdiag describes the same tasks with the same groups as
# the kernel backend, and fails the same way, for every strategy, as root
# and as nobody, on /proc and on a procfs mount with hidepid=invisible.
# TAP.
#
# What is compared of each task: pid, tgid, ppid, comm, which of the cred,
# stat, statm and maps groups it has, and its number of mappings; not the
# counters, which move between the two reads, nor what follows "-" in the
# name of a workqueue worker (the work it ran last).  The taskdiag process
# itself is left out (it is a new one each time).  A task that starts or exits
# between the two reads (a kernel worker) would differ: a comparison is
# made up to 3 times and must come out equal once.
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
tmp=$(mktemp -d) || exit 1
vpid= hp=
# result STATUS DESCRIPTION: TAP, $n, $failed
. "$here/../../../testing/tap/tap.sh"
. "$here/victim.sh"

cleanup() {
	[ -n "$vpid" ] && kill "$vpid" 2>/dev/null
	if [ -n "$hp" ] && ! umount "$hp" 2>/dev/null &&
	   ! umount -l "$hp" 2>/dev/null; then
		return	# never rm -rf into a procfs
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

ok() {
	result 0 "$1"
}

guest_taskdiag "$build" "$tmp" "to run taskdiag as nobody too"

if ! start_victim "$build/td-victim" "$tmp" --threads 2 --children 2; then
	not_ok "td-victim started"
	echo "1..$n"
	exit 1
fi
ok "td-victim $vpid started (root's, 3 threads, 2 children)"

hp=$tmp/hidepid
mkdir "$hp"
if mount -t proc -o hidepid=invisible proc "$hp"; then
	ok "a procfs mount with hidepid=invisible at $hp"
else
	not_ok "mount -t proc -o hidepid=invisible"
	hp=
fi

# as USER CMD...: CMD as root or as nobody
as() {
	user=$1
	shift
	if [ "$user" = root ]; then
		"$@"
	else
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
	fi
}

# summary FILE: one line per task of the JSON output FILE, sorted
summary() {
	jq -c 'select(.base.comm != "taskdiag") |
		[.pid, .tgid, .base.ppid,
		 (.base.comm | if startswith("kworker/") then sub("-.*"; "")
			       else . end), .cred != null,
		 .stat != null, .statm != null,
		 if has("vmas") then (.vmas | length) else null end]' "$1" |
		sort
}

# run USER ROOT BACKEND ARGS...: taskdiag's status and summary in $tmp/B.*
run() {
	user=$1 root=$2 backend=$3
	shift 3
	as "$user" "$td" "$@" --cred --stat --statm --maps --json \
		--proc "$root" --backend="$backend" \
		>"$tmp/$backend.json" 2>"$tmp/$backend.err"
	echo $? >"$tmp/$backend.rc"
	summary "$tmp/$backend.json" >"$tmp/$backend.sum"
}

# same USER ROOT ARGS...: both backends give the same tasks, groups, status
same() {
	user=$1 root=$2
	shift 2
	for try in 1 2 3; do
		run "$user" "$root" kernel "$@"
		run "$user" "$root" procfs "$@"
		{
			echo "exit status: kernel $(cat "$tmp/kernel.rc"), procfs $(cat "$tmp/procfs.rc")"
			diff -u "$tmp/kernel.sum" "$tmp/procfs.sum"
		} >"$tmp/diff"
		if cmp -s "$tmp/kernel.rc" "$tmp/procfs.rc" &&
		   cmp -s "$tmp/kernel.sum" "$tmp/procfs.sum"; then
			echo "$(wc -l <"$tmp/kernel.sum") tasks, exit status $(cat "$tmp/kernel.rc")" >"$tmp/what"
			return 0
		fi
	done
	return 1
}

# check USER ROOT WANT ARGS...: same(), and WANT: "tasks" (some, exit
# status 0), or "none:S" (none but taskdiag itself, exit status S)
check() {
	user=$1 root=$2 want=$3
	shift 3
	desc="$user, $root: $*"
	if ! same "$user" "$root" "$@"; then
		not_ok "$desc: kernel = procfs" "$tmp/diff"
		return
	fi
	rc=$(cat "$tmp/kernel.rc")
	if [ "$want" = tasks ] && { [ ! -s "$tmp/kernel.sum" ] || [ "$rc" != 0 ]; }; then
		not_ok "$desc: some tasks and exit status 0 expected, not $rc" \
			"$tmp/kernel.err"
		return
	fi
	if [ "$want" != tasks ] &&
	   { [ -s "$tmp/kernel.sum" ] || [ "$rc" != "${want#none:}" ]; }; then
		not_ok "$desc: no task and exit status ${want#none:} expected, not $rc" \
			"$tmp/kernel.sum"
		return
	fi
	ok "$desc: kernel = procfs ($(cat "$tmp/what"))"
}

victim_kin
for user in root nobody; do
	check "$user" /proc tasks all
	check "$user" /proc tasks All
	check "$user" /proc tasks one --pid "$vpid"
	check "$user" /proc tasks threads --pid "$vpid"
	check "$user" /proc tasks children --pid "$vpid"
	check "$user" /proc tasks one --pid "$child"
	check "$user" /proc tasks one --pid 1
	check "$user" /proc none:1 one --pid 4194303
done

# nobody's maps of root's tasks: none; root's: the victim's
maps_groups() {
	grep -q "^\[$vpid,$vpid,[0-9]*,\"td-victim\",true,true,true,null\]$" \
		"$tmp/kernel.sum"
}
run nobody /proc kernel one --pid "$vpid"
if maps_groups; then
	ok "nobody: root's td-victim without its maps, with the rest"
else
	not_ok "nobody: root's td-victim without its maps, with the rest" \
		"$tmp/kernel.sum"
fi

if [ -n "$hp" ]; then
	check root "$hp" tasks all
	check root "$hp" tasks one --pid "$vpid"
	check nobody "$hp" none:0 all	# taskdiag itself
	check nobody "$hp" none:0 All
	check nobody "$hp" none:1 one --pid "$vpid"
	check nobody "$hp" none:1 children --pid "$vpid"
fi

echo "1..$n"
exit $failed
