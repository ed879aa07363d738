#!/bin/sh
# kmemleak.sh start|check: on the debug kernel, forget what boot left
# behind, then after the tests report every object they leaked; TAP.
f=/sys/kernel/debug/kmemleak
[ "$1" = start ] && [ ! -w "$f" ] && exit 0	# check says so
if [ ! -w "$f" ]; then
	echo "not ok 1 - kmemleak: $f is not there (CONFIG_DEBUG_KMEMLEAK?)"
	echo "1..1"
	exit 1
fi
# objects younger than 5 s are not reported: scan twice, 6 s apart
scan() {
	echo scan >"$f"
	sleep 6
	echo scan >"$f"
}
case $1 in
start)
	scan
	echo clear >"$f"
	;;
check)
	scan
	n=$(grep -c '^unreferenced object' "$f")
	if [ "$n" = 0 ]; then
		echo "ok 1 - kmemleak: no leak after the tests"
	else
		echo "not ok 1 - kmemleak: $n unreferenced objects"
		head -n 60 "$f" | sed 's/^/#   /'
	fi
	echo "1..1"
	[ "$n" = 0 ]
	;;
esac
