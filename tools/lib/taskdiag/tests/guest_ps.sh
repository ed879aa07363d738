#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest_ps.sh [BUILD_DIR]: in a guest with /proc/task-diag, `taskdiag ps`
# prints what procps' ps prints, byte for byte, for ps ax, aux, -ef, -eLf
# and -eo pid,ppid,user,stat,time,comm,args, from the kernel backend and
# from the procfs one, in a UTF-8 locale and in C, as root and as nobody.
# TAP.
#
# Among the tasks: command lines with newlines, tabs, empty arguments,
# invalid UTF-8 and 200 KB of arguments (cut at ps' 128 KiB line); niced
# processes, one with locked memory, threads, a zombie, a session on a pty
# in the foreground, a user with a name longer than ps' column, and a pid
# wider than the column (which shifts the rest of the line).  Each ps
# leaves its own line out of the comparison.  A task that runs between the
# reads (a kernel worker, whose name says its last work; the CPU share of
# the test itself) may change: taskdiag's line must then be the line of
# one of four ps run around it, or the same where those agree, a worker's
# maybe but for the work it ran last, which the readers themselves cause
# (ps-same.awk); a comparison is made up to 5 times and must come out so
# once.
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
tmp=$(mktemp -d) || exit 1
pids= pid_max=
# result STATUS DESCRIPTION: TAP, $n, $failed
. "$here/../../../testing/tap/tap.sh"
. "$here/victim.sh"

LONG_USER=averyveryverylongusername
LONG_UID=4242

cleanup() {
	# shellcheck disable=SC2086
	[ -n "$pids" ] && kill $pids 2>/dev/null
	[ -n "$pid_max" ] && echo "$pid_max" >/proc/sys/kernel/pid_max
	rm -rf "$tmp"
}
trap cleanup EXIT

guest_taskdiag "$build" "$tmp" "to start niced tasks and add a user"

# spawn CMD...: in the background, its pid kept for the cleanup; its
# output not the TAP pipe, which a child it leaves behind (the sleep of
# sh -c) would hold open after the tests
spawn() {
	"$@" >/dev/null 2>&1 &
	pids="$pids $!"
}

# The tasks ps has to show, alive until the cleanup however slow the
# kernel (the debug one takes over 1000 s for these tests)
forever=1000000
bad=$(printf 'bad\377utf\tq')
nl=$(printf 'new\nline')
long=$(head -c 100000 /dev/zero | tr '\0' a)
spawn sh -c "sleep $forever; :" td-args 'two words' '' "$nl" "$bad" ''
spawn sh -c "sleep $forever; :" td-long "$long" "$long"
spawn nice -n 5 sleep $forever
spawn nice -n -5 sleep $forever
spawn perl -e "syscall(151, 3); sleep $forever"	# mlockall(): 'L'
spawn sh -c "(exit 0) & exec sleep $forever"	# its child stays a zombie
spawn script -qfc "sleep $forever" /dev/null	# a pty session, foreground
spawn "$build/td-victim" --threads 3 --ready "$tmp/ready"
if grep -q "^$LONG_USER:" /etc/passwd ||
   echo "$LONG_USER:x:$LONG_UID:$LONG_UID::/:/bin/sh" >>/etc/passwd; then
	spawn setpriv --reuid=$LONG_UID --regid=$LONG_UID --clear-groups \
		sleep $forever
fi
# a pid of 4 digits or more, for when pid_max has 3 (below)
while /bin/true & p=$! && wait $p && [ $p -lt 1000 ]; do
	:
done
spawn sleep $forever
wide=$!
pid_max=$(cat /proc/sys/kernel/pid_max)
wait_ready "$tmp/ready"
sleep 1		# every command executed, every child exited
result 0 "tasks to show started:$pids"

# run_ps OUT FIELD CMD...: CMD's output in OUT.cut but its own line, whose
# pid is field FIELD (CMD exec()s env, and setpriv for nobody, so that its
# pid is $!); its exit status in OUT.rc
run_ps() {
	out=$1 field=$2
	shift 2
	"$@" >"$out" 2>&1 &
	p=$!
	wait $p
	echo $? >"$out.rc"
	awk -v f="$field" -v p=$p '$f != p' "$out" >"$out.cut"
}

# compare USER LOCALE BACKEND FIELD ARGS...: taskdiag ps prints what ps
# prints, but their own lines: the same lines as ps, or on a line that
# changed between the two ps before and the two ps after it (a kernel
# worker's name, the CPU share of a running task), as ps-same.awk allows
compare() {
	user=$1 loc=$2 backend=$3 field=$4
	shift 4
	as=
	[ "$user" = root ] ||
		as="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	for try in 1 2 3 4 5; do
		for s in ps1 ps2 td ps3 ps4; do
			if [ $s = td ]; then
				# shellcheck disable=SC2086
				run_ps "$tmp/td" "$field" env LC_ALL="$loc" $as \
					"$td" ps --backend="$backend" "$@"
			else
				# shellcheck disable=SC2086
				run_ps "$tmp/$s" "$field" env LC_ALL="$loc" $as \
					ps "$@"
			fi
		done
		[ "$(cat "$tmp/td.rc")" = 0 ] || continue
		if cmp -s "$tmp/ps2.cut" "$tmp/td.cut" ||
		   cmp -s "$tmp/ps3.cut" "$tmp/td.cut"; then
			result 0 "ps $* ($user, $loc, $backend): $(wc -l <"$tmp/td.cut") lines, the same (try $try)"
			return
		fi
		if awk -f "$here/ps-same.awk" "$tmp/ps2.cut" "$tmp/ps1.cut" \
			"$tmp/ps3.cut" "$tmp/ps4.cut" "$tmp/td.cut" \
			>"$tmp/same"; then
			read -r lines same workers <"$tmp/same"
			result 0 "ps $* ($user, $loc, $backend): $lines lines, $same the same, the others as a ps around it ($workers workers but for their last work) (try $try)"
			return
		fi
	done
	{
		echo "exit status $(cat "$tmp/td.rc")"
		diff "$tmp/ps2.cut" "$tmp/td.cut" | cut -c 1-300
	} >"$tmp/diff"
	not_ok "ps $* ($user, $loc, $backend): the same lines" "$tmp/diff"
}

# every form, with pid columns of 7 (kernel.pid_max 4194304) and of 3
# (999: pids of 4 digits are wider than their column)
for max in 4194304 999; do
	echo $max >/proc/sys/kernel/pid_max
	for backend in kernel procfs; do
		for loc in C.UTF-8 C; do
			compare root $loc $backend 1 ax
			compare root $loc $backend 2 aux
			compare root $loc $backend 2 -ef
			compare root $loc $backend 2 -eLf
			compare root $loc $backend 1 \
				-eo pid,ppid,user,stat,time,comm,args
		done
		compare nobody C.UTF-8 $backend 2 aux
		compare nobody C.UTF-8 $backend 2 -eLf
	done
done

# The wide pid, the long user, the long command line were there
LC_ALL=C "$td" ps aux >"$tmp/aux"
grep -q "^root     $wide " "$tmp/aux"
result $? "a pid wider than its column ($wide) was compared"
grep -q "^averyve+ " "$tmp/aux"
result $? "a user name longer than the column was compared"
awk 'length($0) == 131072 && /td-long/' "$tmp/aux" | grep -q .
result $? "a command line cut at 131072 columns was compared"
awk '$8 ~ /L/ && $11 == "perl"' "$tmp/aux" | grep -q .
result $? "a process with locked memory (L) was compared"
awk '$7 ~ /^pts\// && $8 ~ /[+]/' "$tmp/aux" | grep -q .
result $? "a foreground process on a pty was compared"

# Usage errors: exit status 2
"$td" ps -p 1 >/dev/null 2>&1
[ $? = 2 ]
result $? "taskdiag ps -p 1 (a form that lists not every task): exit 2"
"$td" ps -eo pid,nosuchcolumn >/dev/null 2>&1
[ $? = 2 ]
result $? "taskdiag ps -eo with an unknown column: exit 2"

echo "1..$n"
exit "$failed"
