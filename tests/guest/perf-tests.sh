#!/bin/sh
# perf's own test suites that synthesize events, perf test task-diag and
# the shell tests of task_diag synthesis (record, top, trace); TAP,
# one line per test case, skips with perf's reason.
cache=${TASKDIAG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/taskdiag}
perf=$cache/out/perf
n=0
# perf test finds its shell tests in ./tests/shell; they run "perf"
cd "$cache/linux/tools/perf" || exit 1
PATH=$(dirname "$(readlink -f "$perf")"):$PATH
export PATH

# suite_number DESC: the number perf test gives the suite named DESC
suite_number() {
	"$perf" test list 2>&1 | sed -n "s#^ *\([0-9]*\): $1\$#\1#p" | head -n 1
}

# skip_reason RESULT-LINE OUTPUT: perf's "Skip (reason)", else the last
# diagnostic the test printed before it (perf test -S -vv)
skip_reason() {
	case $1 in
	*"Skip ("*) r=${1#*Skip (}; echo "${r%)*}" ;;
	*) printf '%s\n' "$2" | grep -v -e '^ *[0-9.]*: ' -e '^-* *\(start\|end\)' \
		-e '^$' | tail -n 1 ;;
	esac
}

# run_suite DESC [LABEL]: one TAP line per test case of the suite DESC;
# LABEL tells runs of the same suite apart
run_suite() {
	desc=$1
	label=${2:+ ($2)}
	num=$(suite_number "$desc")
	if [ -z "$num" ]; then
		n=$((n + 1))
		echo "not ok $n - perf test: no suite named '$desc'"
		return
	fi
	out=$("$perf" test -S -vv "$num" 2>&1 | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' | tr '\r' '\n')
	results=$(printf '%s\n' "$out" | grep -E "^ *$num(\.[0-9]+)?: .*: (Ok|FAILED!|Skip)" | sort -u)
	[ -n "$results" ] || results="$num: $desc : FAILED! (no result)"
	# a here-document, not a pipe: the loop counts in this shell
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in
		*": Ok"*) echo "ok $n - perf test $line$label" ;;
		*": Skip"*) echo "ok $n - perf test ${line%%: Skip*}$label # SKIP $(skip_reason "$line" "$out")" ;;
		*) echo "not ok $n - perf test $line$label"
		   printf '%s\n' "$out" | tail -n 30 | sed 's/^/#   /' ;;
		esac
	done <<-EOF
	$results
	EOF
}

for desc in "task-diag" "Lookup mmap thread" "Synthesize thread map" \
	    "Thread map" "Share thread maps" "Remove thread map" \
	    "Use a dummy software event to keep tracking" \
	    "perf record -a: same report with task_diag and /proc synthesis" \
	    "perf record -a: same report with BPF iterator and /proc synthesis" \
	    "perf record -a and perf top: no per-task /proc access with task_diag" \
	    "perf record -a unprivileged: task_diag and /proc synthesize the same" \
	    "perf top and perf trace -a: tasks named through task_diag synthesis" \
	    "perf top and perf trace -a: tasks synthesized from task_diag as the events name them" \
	    "perf record: the build-id pass finds every DSO with samples" \
	    "perf record: the kernel map spans the running kernel's start and end" \
	    "perf record: the side band thread is woken to stop, not timed out" \
	    "perf top --stdio: each screen is written when it is drawn" \
	    "perf record and perf top: /proc/kallsyms is read once" \
	    "perf: /proc/kallsyms is read on a thread while it is parsed, symbol for symbol" \
	    "perf record --buildid-mmap: build IDs are read from paths only" \
	    "perf record: build-id MMAP2 events by default when task_diag synthesizes" \
	    "perf trace -a: system calls of tasks named through task_diag synthesis" \
	    "perf trace: struct arguments printed through vmlinux BTF" \
	    "perf trace: kernel maps only when kernel addresses are resolved" \
	    "perf trace enum augmentation tests" \
	    "perf: libdebuginfod is loaded only when a debuginfod server is asked" \
	    "perf: the heap grows 64 MiB at a time" \
	    "perf bench taskdiag: every source sends the events /proc sends" \
	    "perf bench taskdiag -m: only the methods named are run" \
	    "vdso: one DSO when threads map it at once"; do
	run_suite "$desc"
done

# perf test task-diag sets what it tests, whatever the user's perf config
# says: synthesize.task-diag = false (and no read-ahead) there must change
# none of its results
PERF_CONFIG=$(mktemp)
printf '[synthesize]\n\ttask-diag = false\n\ttask-diag-read-ahead = false\n' >"$PERF_CONFIG"
export PERF_CONFIG
run_suite "task-diag" "perf config: synthesize.task-diag = false, no read-ahead"
rm -f "$PERF_CONFIG"
unset PERF_CONFIG
echo "1..$n"
