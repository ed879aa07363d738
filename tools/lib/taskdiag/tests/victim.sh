# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests of td-victim:
#   wait_ready FILE                    wait until FILE is not empty: 0 when
#                                      it is, 1 after 10 s
#   start_victim VICTIM DIR [ARG...]   start VICTIM ARGs, wait until it is
#                                      ready (DIR/ready); sets vpid; 0 when
#                                      it is, 1 after 10 s
#   victim_kin                         sets child (its first child) and
#                                      thread (a thread other than vpid)
# and by the guest tests that run taskdiag as root and as nobody:
#   not_ok DESCRIPTION [FILE]          a failure (tap.sh's result), and
#                                      the start of FILE
#   guest_taskdiag BUILD TMP WHY       skip (exit 0) without /proc/task-diag,
#                                      fail (exit 1) unless root, needed for
#                                      WHY; else copy BUILD/taskdiag into
#                                      TMP for nobody to run: sets td
not_ok() {
	result 1 "$1"
	[ -n "${2:-}" ] && [ -f "$2" ] &&
		head -n 30 "$2" | cut -c 1-300 | sed 's/^/# /'
}

guest_taskdiag() {
	if [ ! -e /proc/task-diag ]; then
		echo "1..0 # SKIP no /proc/task-diag: not the task_diag kernel"
		exit 0
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "not ok 1 - run as root ($3)"
		echo "1..1"
		exit 1
	fi
	# nobody may not run what is under root's home: a copy of its own
	chmod 755 "$2" &&
		cp "$1/taskdiag" "$2/taskdiag" && chmod 755 "$2/taskdiag" ||
		exit 1
	td=$2/taskdiag
}

wait_ready() {
	_i=0
	while [ ! -s "$1" ] && [ $_i -lt 200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	[ -s "$1" ]
}

start_victim() {
	_victim=$1 _dir=$2
	shift 2
	"$_victim" "$@" --ready "$_dir/ready" &
	vpid=$!
	wait_ready "$_dir/ready" &&
		[ "$(cat "$_dir/ready" 2>/dev/null)" = "$vpid" ]
}

victim_kin() {
	_children=$(cat "/proc/$vpid/task/$vpid/children")
	child=${_children%% *}
	for _t in /proc/"$vpid"/task/*; do
		thread=${_t##*/}
		[ "$thread" != "$vpid" ] && break
	done
}
