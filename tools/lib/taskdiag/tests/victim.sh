# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests of td-victim:
#   wait_ready FILE                    wait until FILE is not empty: 0 when
#                                      it is, 1 after 10 s
#   start_victim VICTIM DIR [ARG...]   start VICTIM ARGs, wait until it is
#                                      ready (DIR/ready); sets vpid; 0 when
#                                      it is, 1 after 10 s
#   victim_kin                         sets child (its first child) and
#                                      thread (a thread other than vpid)
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
