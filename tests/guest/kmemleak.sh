#!/bin/sh
# kmemleak.sh start|check: on a kernel with kmemleak (the debug profile),
# forget what boot left behind, then after the tests report every object
# they leaked; TAP.  Elsewhere nothing to check: one skipped test.
f=/sys/kernel/debug/kmemleak
if [ ! -w "$f" ]; then
	[ "$1" = check ] && echo "ok - kmemleak # SKIP not in this kernel"
	exit 0
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
		echo "ok - kmemleak: no leak after the tests"
	else
		echo "not ok - kmemleak: $n unreferenced objects"
		head -n 60 "$f" | sed 's/^/#   /'
	fi
	;;
esac
