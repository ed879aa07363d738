#!/bin/sh
# perf's whole test suite (perf test -S, every suite and shell test), once
# synthesizing from task_diag and once from /proc (synthesize.task-diag in
# PERF_CONFIG), compared test case by test case; TAP, one line per case:
# ok when both runs gave the same result, not ok with both results when
# they differ.  Usage: perf-suite-compare.sh [PERF-TEST-ARGS...] (a subset
# of perf test's numbers or names; all by default).
cache=${TASKDIAG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/taskdiag}
perf=$cache/out/perf
tmp=$(mktemp -d /tmp/perf-suite.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# perf test finds its shell tests in ./tests/shell; they run "perf"
cd "$cache/linux/tools/perf" || exit 1
PATH=$(dirname "$(readlink -f "$perf")"):$PATH
export PATH

# results SOURCE [ARGS...]: "NUMBER: DESCRIPTION : RESULT" lines of
# perf test -S ARGS with synthesize.task-diag = SOURCE (true or false),
# sorted by number, in $tmp/SOURCE.results
results() {
	src=$1
	shift
	printf '[synthesize]\n\ttask-diag = %s\n' "$src" >"$tmp/$src.config"
	start=$(date +%s)
	PERF_CONFIG=$tmp/$src.config "$perf" test -S "$@" 2>&1 |
		sed 's/\x1b\[[0-9;]*[A-Za-z]//g' | tr '\r' '\n' |
		grep -E '^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED!|Skip)' |
		sed 's/^ *//; s/ *: \(Ok\|FAILED!\|Skip\)/ : \1/' |
		sort -u -t: -k1,1V >"$tmp/$src.results"
	echo "# task-diag = $src: $(wc -l <"$tmp/$src.results") results in $(($(date +%s) - start)) s"
}

# status LINE: Ok, FAILED! or Skip
status() {
	case $1 in
	*" : Ok"*) echo Ok ;;
	*" : Skip"*) echo Skip ;;
	*) echo FAILED! ;;
	esac
}

results true "$@"
results false "$@"

n=0
same_failed=""
# every test case either run reported, in perf test's order
cut -d: -f1 "$tmp/true.results" "$tmp/false.results" | sort -u -V >"$tmp/ids"
while IFS= read -r id; do
	a=$(grep -m 1 "^$id: " "$tmp/true.results")
	b=$(grep -m 1 "^$id: " "$tmp/false.results")
	n=$((n + 1))
	sa=$(status "$a")
	sb=$(status "$b")
	[ -n "$a" ] || sa=missing
	[ -n "$b" ] || sb=missing
	desc=${a:-$b}
	desc=${desc%% : *}
	if [ "$sa" = "$sb" ]; then
		echo "ok $n - perf test $desc: $sa with task_diag and with /proc"
		[ "$sa" = FAILED! ] && same_failed="$same_failed $id"
	else
		echo "not ok $n - perf test $desc: $sa with task_diag, $sb with /proc"
		echo "#   task_diag: ${a:-no result}"
		echo "#   /proc:     ${b:-no result}"
	fi
done <"$tmp/ids"
[ -z "$same_failed" ] ||
	echo "# failed with both sources (not task_diag's doing):$same_failed"
echo "1..$n"
