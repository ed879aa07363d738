#!/bin/bash
# Runs inside the guest (vm/run): for each size, fork the workload and time
# every method side by side.  Prints progress as "# ..." and results as
#   T <tasks> <method> <seconds>        one timing
#   C <tasks> <method> <syscalls>       system calls of one run
#   N <tasks> <method> <events>         events synthesized
set -u
out=${BENCH_OUT:?}
perf=$out/perf
sizes=${BENCH_SIZES:-50000}
threads=${BENCH_THREADS:-5}
iter=${BENCH_ITER:-3}
cpus=$(nproc)
proc_cfg=/tmp/perf-proc.config
td_cfg=/tmp/perf-td.config
printf '[synthesize]\n\ttask-diag = false\n' >"$proc_cfg"
printf '[synthesize]\n\ttask-diag = true\n' >"$td_cfg"

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc -l; }
say() { echo "# $*"; }

# timed SIZE METHOD CMD...: run CMD $iter times, print its times
timed() {
	local size=$1 method=$2 i t0 t1
	shift 2
	for i in $(seq "$iter"); do
		t0=$(now)
		"$@" >/dev/null 2>&1 || { say "$method failed: $*"; return 1; }
		t1=$(now)
		echo "T $size $method $(elapsed "$t0" "$t1")"
	done
}

# perf record -a: start-up (exec to workload start) and whole run
perf_record() {
	local size=$1 name=$2 cfg=$3 i t0 t1 t2
	for i in $(seq "$iter"); do
		t0=$(now)
		PERF_CONFIG=$cfg "$perf" record -a -q -o /tmp/bench.data -- \
			sh -c 'date +%s.%N >/tmp/bench.start' >/dev/null 2>&1 ||
			{ say "perf record ($name) failed"; return 1; }
		t2=$(now)
		t1=$(cat /tmp/bench.start)
		echo "T $size record-start-$name $(elapsed "$t0" "$t1")"
		echo "T $size record-wall-$name $(elapsed "$t0" "$t2")"
	done
	rm -f /tmp/bench.data
}

# perf bench taskdiag: /proc with 1 and $cpus threads, and task_diag
perf_bench_taskdiag() {
	local size=$1
	"$perf" bench -f simple taskdiag -p 0 -i "$iter" -j "$cpus" 2>/dev/null |
	while IFS=, read -r name mean std events; do
		case $name in
		proc-*|taskdiag) m=synth-$name ;;
		*) continue ;;
		esac
		# simple format gives the mean and stddev of the iterations
		echo "T $size $m $(echo "$mean / 1000000" | bc -l)"
		echo "N $size $m $events"
	done
}

# upstream's perf bench internals synthesize --mt, /proc and task_diag
perf_bench_upstream() {
	local size=$1 name=$2 cfg=$3
	PERF_CONFIG=$cfg "$perf" bench internals synthesize --mt -m 1 -M "$cpus" -I "$iter" 2>/dev/null |
	awk -v s="$size" -v n="$name" '
		/Number of synthesis threads:/ { t = $NF }
		/Average synthesis took:/ { printf "T %s upstream-%s-%s %.6f\n", s, n, t, $4 / 1e6 }'
}

# syscalls of one run of CMD, counted by strace
syscalls() {
	local size=$1 method=$2
	shift 2
	strace -f -c -o /tmp/strace.out "$@" >/dev/null 2>&1
	echo "C $size $method $(awk '$NF == "total" { print $4 }' /tmp/strace.out)"
}

# rawread SIZE MODE: the reading alone, timed by rawread itself
rawread() {
	local size=$1 mode=$2 i r
	for i in $(seq "$iter"); do
		r=$("$out/bench/rawread" "$mode") || { say "rawread $mode failed"; return 1; }
		echo "T $size raw-$mode $(echo "$r" | awk '{ print $5 }')"
	done
	echo "C $size raw-$mode $(echo "$r" | awk '{ print $4 }')"
}

for size in $sizes; do
	procs=$((size / threads))
	say "forking $procs processes x $threads threads ($size tasks)"
	t0=$(now)
	"$out/bench/forker" -n "$procs" -t "$threads" >/dev/null || {
		pkill -KILL -x forker
		say "could not fork $procs x $threads: out of memory or pids? (pid_max $(cat /proc/sys/kernel/pid_max), threads-max $(cat /proc/sys/kernel/threads-max), $(grep MemAvailable /proc/meminfo))"
		exit 1
	}
	total=$(ls -d /proc/[0-9]*/task/[0-9]* | wc -l)
	say "$total tasks up in $(elapsed "$t0" "$(now)") s"
	echo "TASKS $size $total"
	echo "SHAPE $size $procs $threads"

	say "method 1 of 5: perf record -a, /proc and task_diag"
	perf_record "$size" proc "$proc_cfg"
	perf_record "$size" taskdiag "$td_cfg"
	say "method 2 of 5: perf bench taskdiag"
	perf_bench_taskdiag "$size"
	say "method 3 of 5: perf bench internals synthesize --mt (upstream)"
	perf_bench_upstream "$size" proc "$proc_cfg"
	perf_bench_upstream "$size" taskdiag "$td_cfg"
	say "method 4 of 5: raw interfaces"
	for mode in proc-stat td-base proc-maps td-maps; do
		rawread "$size" "$mode"
	done
	say "method 5 of 5: ps ax -o pid,ppid vs taskdiag all"
	timed "$size" ps ps ax -o pid,ppid
	timed "$size" taskdiag-all "$out/taskdiag" all
	# strace makes perf record crawl: count at the smallest size, if small
	if [ "$size" = "${sizes%% *}" ] && [ "$size" -le 10000 ]; then
		say "counting system calls with strace (at $size tasks)"
		syscalls "$size" ps ps ax -o pid,ppid
		syscalls "$size" taskdiag-all "$out/taskdiag" all
		syscalls "$size" record-proc env PERF_CONFIG="$proc_cfg" "$perf" record -a -q -o /tmp/s.data -- true
		syscalls "$size" record-taskdiag env PERF_CONFIG="$td_cfg" "$perf" record -a -q -o /tmp/s.data -- true
	fi

	pkill -KILL -x forker
	while [ "$(ls -d /proc/[0-9]* | wc -l)" -gt 200 ]; do sleep 1; done
done
say "done"
