#!/bin/bash
# Runs inside the guest (vm/run): for each size, fork the workload and time
# every method side by side.  Prints progress as "# ..." and results as
#   T <tasks> <method> <seconds>        one timing
#   C <tasks> <method> <syscalls>       system calls of one run
#   N <tasks> <method> <events>         events synthesized
#   R <tasks> <method> <tasks> <bytes>  what a raw read read
#   D <tasks> <method> <tasks> <digest> <differ> <kthreads> <alone>
#                                       digest of the events of a synthesis
#   SWEEP <tasks>                       a size timed for synthesis only
#   LIBS <tasks> <tasks up> <objects> <big> <areas> <exec areas> <areas> <exec areas>
#                                       the realistic workload: a big process, another
#   META <key> <value>                  what it ran on
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${BENCH_OUT:?}
perf=$out/perf
sizes=${BENCH_SIZES:-50000}
synth_sizes=${BENCH_SYNTH_SIZES:-}
threads=${BENCH_THREADS:-5}
big=${BENCH_BIG:-10}
libs_size=${BENCH_LIBS_SIZE:-10000}
iter=${BENCH_ITER:-5}
cpus=$(nproc)
proc_cfg=/tmp/perf-proc.config
td_cfg=/tmp/perf-td.config
printf '[synthesize]\n\ttask-diag = false\n' >"$proc_cfg"
printf '[synthesize]\n\ttask-diag = true\n' >"$td_cfg"

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc -l; }
say() { echo "# $*"; }

# turns SIZE NAME1 CMD1 NAME2 CMD2: time the two commands (words, no
# quoting) in turns, the one that goes first alternating, after a warm-up
# round that is not kept
turns() {
	local size=$1 i t0 t1 name cmd
	shift
	for i in $(seq 0 "$iter"); do
		set -- "$3" "$4" "$1" "$2"
		for name in "$1" "$3"; do
			[ "$name" = "$1" ] && cmd=$2 || cmd=$4
			t0=$(now)
			$cmd >/dev/null 2>&1 || { say "$name failed: $cmd"; return 1; }
			t1=$(now)
			[ "$i" = 0 ] || echo "T $size $name $(elapsed "$t0" "$t1")"
		done
	done
}

# perf top reads keys from its input: one that never has any, nor an end;
# a second one to wait on without forking sleep
mkfifo /tmp/bench.keys /tmp/bench.tick
exec 3<>/tmp/bench.keys 4<>/tmp/bench.tick

# run_record CFG [OPTION...]: one perf record -a OPTION... -- (a workload
# that notes when it starts); prints "start whole": seconds from exec to
# the workload's start, and to perf's exit
run_record() {
	local cfg=$1 t0 t1 t2
	shift
	t0=$(now)
	PERF_CONFIG=$cfg "$perf" record -a -q "$@" -o /tmp/bench.data -- \
		sh -c 'date +%s.%N >/tmp/bench.start' >/dev/null 2>/tmp/bench.err \
		</dev/null || return 1
	t2=$(now)
	t1=$(cat /tmp/bench.start)
	rm -f /tmp/bench.data
	echo "$(elapsed "$t0" "$t1") $(elapsed "$t0" "$t2")"
}

# run_top CFG: seconds from exec of perf top until its first screen, and
# until its first screen with samples (a non-zero irqs/sec, -d 1 later)
run_top() {
	local cfg=$1 t0 t1='' t2='' pid st
	: >/tmp/bench.top
	t0=$(now)
	PERF_CONFIG=$cfg "$perf" top --stdio -a -e cpu-clock -d 1 \
		>/tmp/bench.top 2>/tmp/bench.err <&3 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if [ -z "$t1" ] && grep -q 'PerfTop:' /tmp/bench.top; then
			t1=$(now)
		fi
		if grep -q 'PerfTop: *[1-9][0-9]* irqs' /tmp/bench.top; then
			t2=$(now)
			break
		fi
		read -r -t 0.05 -u 4 || true
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	st=$?
	[ -n "$t2" ] || { echo "perf top ended with status $st" >>/tmp/bench.err; return 1; }
	echo "$(elapsed "$t0" "$t1") $(elapsed "$t0" "$t2")"
}

# run_trace CFG: seconds of a whole perf trace -a (system calls, its
# default) of a workload that does nothing
run_trace() {
	local cfg=$1 t0
	t0=$(now)
	PERF_CONFIG=$cfg timeout 600 "$perf" trace -a -o /dev/null \
		-- true >/dev/null 2>/tmp/bench.err </dev/null || return 1
	elapsed "$t0" "$(now)"
}

# e2e_one CMD CFG: one run of the command CMD of e2e() with CFG
e2e_one() {
	case $1 in
	record) run_record "$2" ;;
	record-B) run_record "$2" -B ;;
	record-buildid) run_record "$2" --buildid-mmap ;;
	record-pass) run_record "$2" --no-buildid-mmap ;;
	record-mt) run_record "$2" --num-thread-synthesize="$cpus" ;;
	top) run_top "$2" ;;
	trace) run_trace "$2" ;;
	esac
}

# e2e SIZE: the whole perf commands users run, /proc and task_diag
# interleaved, the one that goes first alternating, after a warm-up
# round that is not kept.  A run that fails is said, with what perf
# said, and run again once (counted in META e2e_retries); a second
# failure ends the bench.
e2e() {
	local size=$1 i cmd src cfg order r retries=0
	for i in $(seq 0 "$iter"); do
		for cmd in record record-B record-buildid record-pass record-mt \
			   top trace; do
			order="proc taskdiag"
			[ $((i % 2)) = 1 ] && order="taskdiag proc"
			for src in $order; do
				cfg=$proc_cfg
				[ "$src" = taskdiag ] && cfg=$td_cfg
				r=$(e2e_one "$cmd" "$cfg") || {
					say "$cmd ($src) failed, run again: $(tail -n 5 /tmp/bench.err | tr '\n' '|')"
					retries=$((retries + 1))
					r=$(e2e_one "$cmd" "$cfg")
				} || {
					say "$cmd ($src) failed again: $(tail -n 5 /tmp/bench.err | tr '\n' '|')"
					return 1
				}
				[ "$i" = 0 ] && continue
				case $cmd in
				record*)
					echo "T $size $cmd-start-$src ${r% *}"
					echo "T $size $cmd-wall-$src ${r#* }" ;;
				top)
					echo "T $size top-$src ${r% *}"
					echo "T $size top-samples-$src ${r#* }" ;;
				*)	echo "T $size $cmd-$src $r" ;;
				esac
			done
		done
	done
	echo "META e2e_retries_$size $retries"
}

# perf bench taskdiag SIZE PREFIX [OPTION...]: the /proc walk with 1 and
# $cpus threads, the same with PROCMAP_QUERY, the BPF iterators (where
# they load) and task_diag, as methods
# PREFIX-<method>; it checks first that all send the same events (fails
# if not), then times them in turns
perf_bench_taskdiag() {
	local size=$1 prefix=$2 kind key a b c d e
	shift 2
	"$perf" bench -f simple taskdiag -p 0 -i "$iter" -j "$cpus" "$@" \
		>/tmp/bench.synth 2>/tmp/bench.synth.err || {
		say "perf bench taskdiag $* failed:"
		sed 's/^/# /' /tmp/bench.synth.err
		return 1
	}
	while IFS=, read -r kind key a b c d e; do
		case $kind in
		time)	echo "T $size $prefix-$key $(echo "$a / 1000000" | bc -l)"
			echo "N $size $prefix-$key $b" ;;
		digest)	echo "D $size $prefix-$key $a $b $c $d $e" ;;
		esac
	done </tmp/bench.synth
}

# overhead SIZE PREFIX MODE [OPTION...]: perf's task_diag synthesis alone
# (perf bench taskdiag -m taskdiag OPTION...) and rawread MODE, the raw
# dump of the same request, in turns after a warm-up round, the one that
# goes first alternating: perf's overhead over the dump it reads.  Prints
# T of both, PREFIX-synth and PREFIX-raw, and R and C of the raw read.
overhead() {
	local size=$1 prefix=$2 mode=$3 i k r us
	shift 3
	for i in $(seq 0 "$iter"); do
		for k in 0 1; do
			if [ $(((i + k) % 2)) = 0 ]; then
				r=$("$perf" bench -f simple taskdiag -p 0 -i 1 -m taskdiag "$@" \
					2>/tmp/bench.synth.err) || {
					say "perf bench taskdiag -m taskdiag $* failed:"
					sed 's/^/# /' /tmp/bench.synth.err
					return 1
				}
				us=$(echo "$r" | awk -F, '$1 == "time" { print $3; exit }')
				[ -n "$us" ] || { say "no time from perf bench -m taskdiag"; return 1; }
				[ "$i" = 0 ] || echo "T $size $prefix-synth $(echo "$us / 1000000" | bc -l)"
			else
				raw_once "$size" "$prefix-raw" "$mode" "$i" || return 1
			fi
		done
	done
}

# ps_cut OUT CMD...: CMD's output in OUT but its own line (ps ax: the pid
# is the first field)
ps_cut() {
	local out=$1 p
	shift
	"$@" >"$out.all" 2>/dev/null &
	p=$!
	wait $p || return 1
	awk -v p=$p '$1 != p' "$out.all" >"$out"
}

# ps_same SIZE: taskdiag ps ax prints what ps ax prints, but their own
# lines: each line as one of four ps ax run around it, or the same where
# those agree, a kernel worker's but maybe for its last work (ps-same.awk:
# a worker's name, the CPU share of a running task move); up to 3 tries.
# META ps_same_SIZE: lines, lines equal to ps' before, tries
ps_same() {
	local size=$1 try same
	for try in 1 2 3; do
		ps_cut /tmp/ps1 ps ax && ps_cut /tmp/ps2 ps ax &&
			ps_cut /tmp/td "$out/taskdiag" ps ax &&
			ps_cut /tmp/ps3 ps ax && ps_cut /tmp/ps4 ps ax ||
			{ say "ps ax failed"; return 1; }
		if same=$(awk -f "$here/../tools/lib/taskdiag/tests/ps-same.awk" \
			  /tmp/ps2 /tmp/ps1 /tmp/ps3 /tmp/ps4 /tmp/td); then
			set -- $same
			echo "META ps_same_$size $1 lines, $2 as the ps just before, $3 workers but for their last work, try $try"
			return 0
		fi
		say "taskdiag ps ax differs from ps ax (try $try): $(diff /tmp/ps2 /tmp/td | head -n 4 | cut -c 1-160 | tr '\n' '|')"
	done
	return 1
}

# upstream's perf bench internals synthesize --mt, /proc and task_diag in
# turns, one synthesis per run and per thread count
perf_bench_upstream() {
	local size=$1 i name cfg
	for i in $(seq 0 "$iter"); do
		for name in proc taskdiag; do
			cfg=$proc_cfg
			[ "$name" = taskdiag ] && cfg=$td_cfg
			PERF_CONFIG=$cfg "$perf" bench internals synthesize --mt \
				-m 1 -M "$cpus" -I 1 2>/dev/null >/tmp/bench.up ||
				{ say "perf bench internals synthesize ($name) failed"; return 1; }
			[ "$i" = 0 ] && continue
			awk -v s="$size" -v n="$name" '
				/Number of synthesis threads:/ { t = $NF }
				/Average synthesis took:/ { printf "T %s upstream-%s-%s %.6f\n", s, n, t, $4 / 1e6 }' \
				/tmp/bench.up
		done
	done
}

# syscalls of one run of CMD, counted by strace
syscalls() {
	local size=$1 method=$2
	shift 2
	strace -f -c -o /tmp/strace.out "$@" >/dev/null 2>&1
	echo "C $size $method $(awk '$NF == "total" { print $4 }' /tmp/strace.out)"
}

# raw_once SIZE NAME MODE ROUND: one rawread MODE; past the warm-up
# round (0), its T, R and C printed as NAME
raw_once() {
	local size=$1 name=$2 mode=$3 round=$4 r tasks bytes calls secs
	r=$("$out/bench/rawread" "$mode") || { say "rawread $mode failed"; return 1; }
	[ "$round" = 0 ] && return 0
	read -r _ tasks bytes calls secs <<<"$r"
	echo "T $size $name $secs"
	echo "R $size $name $tasks $bytes"
	echo "C $size $name $calls"
}

# rawread SIZE PREFIX MODE...: the reading alone, timed by rawread itself,
# as method PREFIX-MODE, after a warm-up round; round i starts with mode
# i mod (number of modes).  With each time, its counts of tasks and bytes
# (R) and system calls (C).
rawread() {
	local size=$1 prefix=$2 i k mode
	shift 2
	local modes=("$@")
	for i in $(seq 0 "$iter"); do
		for k in "${!modes[@]}"; do
			mode=${modes[(i + k) % ${#modes[@]}]}
			raw_once "$size" "$prefix-$mode" "$mode" "$i" || return 1
		done
	done
}

# maps_of PID: how many areas PID has, and how many of them executable
maps_of() {
	echo "$(wc -l <"/proc/$1/maps") $(grep -c '^[^ ]* ..x' "/proc/$1/maps")"
}

# files_to_tmpfs: copy every file of the root filesystem that the perf
# commands of the bench open (perf, its libraries, locale data...) up
# into the guest's tmpfs overlay.  The guest's root is the host's over 9p,
# where every open is a round trip to QEMU: on a machine of its own perf
# finds them in the page cache, and so it does here.  Same files for
# /proc and task_diag; the root is read-only, so nothing else changes.
# perf record's opens stand for perf trace's and top's, the same binary
# and libraries: under strace, perf trace's patching of the syscall
# tracepoints' branches as tasks run through them made the 6.12 guest
# oops on a stale int3 under TCG.
files_to_tmpfs() {
	local cfg f n=0
	: >/tmp/bench.opens
	for cfg in "$proc_cfg" "$td_cfg"; do
		PERF_CONFIG=$cfg strace -f -qq -e trace=open,openat,execve \
			-e status=successful -o /tmp/bench.opens1 \
			"$perf" record -a -q -o /tmp/bench.data -- true \
			>/dev/null 2>&1 </dev/null
		cat /tmp/bench.opens1 >>/tmp/bench.opens
	done
	for f in $(grep -o '"/[^"]*"' /tmp/bench.opens | tr -d '"' | sort -u |
		   grep -v -e '^/proc/' -e '^/sys/' -e '^/dev/' -e '^/tmp/'); do
		f=$(readlink -f "$f")
		[ -f "$f" ] || continue
		touch -c "$f" && n=$((n + 1))
	done
	rm -f /tmp/bench.opens /tmp/bench.opens1 /tmp/bench.data
	say "$n files perf opens copied from 9p to tmpfs"
}
files_to_tmpfs

# what the numbers were measured on
echo "META guest_kernel $(uname -r) ($(uname -v))"
echo "META accelerator ${VM_ACCEL_USED:-unknown}"
echo "META guest_cpus $cpus"
echo "META guest_memtotal $(awk '/^MemTotal/ { print $2, $3 }' /proc/meminfo)"
for f in /sys/devices/system/cpu/vulnerabilities/*; do
	[ -r "$f" ] && echo "META vulnerability_${f##*/} $(cat "$f")"
done
echo "META perf $("$perf" version)"

# workload_start SIZE [FORKER-OPTION...]: SIZE tasks, $threads per process;
# prints how many tasks the guest then has
workload_start() {
	local size=$1 procs=$(($1 / threads)) t0
	shift
	say "forking $procs processes x $threads threads ($size tasks) $*"
	t0=$(now)
	"$out/bench/forker" -n "$procs" -t "$threads" "$@" >/dev/null || {
		pkill -KILL -x forker
		say "could not fork $procs x $threads: out of memory or pids? (pid_max $(cat /proc/sys/kernel/pid_max), threads-max $(cat /proc/sys/kernel/threads-max), $(grep MemAvailable /proc/meminfo))"
		return 1
	}
	# a glob of bash's own: at 100,000 tasks the paths are more than an
	# exec'd command's arguments may be
	set -- /proc/[0-9]*/task/[0-9]*
	total=$#
	[ "$total" -ge "$size" ] || { say "only $total tasks up of $size"; return 1; }
	say "$total tasks up in $(elapsed "$t0" "$(now)") s; $(grep MemAvailable /proc/meminfo)"
}

workload_stop() {
	pkill -KILL -x forker
	while set -- /proc/[0-9]*; [ $# -gt 200 ]; do sleep 1; done
}

for size in $sizes; do
	procs=$((size / threads))
	workload_start "$size" || exit 1
	echo "TASKS $size $total"
	echo "SHAPE $size $procs $threads"

	say "method 1 of 6: perf record -a, perf top, perf trace -a; /proc and task_diag"
	e2e "$size" || exit 1
	say "method 2 of 6: perf bench taskdiag, without and with data mappings"
	perf_bench_taskdiag "$size" synth || exit 1
	perf_bench_taskdiag "$size" synthd --data || exit 1
	say "method 3 of 6: perf bench internals synthesize --mt (upstream)"
	perf_bench_upstream "$size" || exit 1
	say "method 4 of 6: raw interfaces"
	rawread "$size" raw proc-stat td-stat proc-maps query-maps td-maps \
		query-exec td-exec || exit 1
	say "method 5 of 6: perf's task_diag synthesis and the raw dump of its request, in turns"
	overhead "$size" ovh td-perf || exit 1
	overhead "$size" ovhd td-perf-data --data || exit 1
	say "method 6 of 6: ps ax -o pid,ppid vs taskdiag all; ps ax vs taskdiag ps ax"
	turns "$size" ps "ps ax -o pid,ppid" taskdiag-all "$out/taskdiag all" ||
		exit 1
	ps_same "$size" || exit 1
	turns "$size" ps-ax "ps ax" taskdiag-ps-ax "$out/taskdiag ps ax" ||
		exit 1
	# strace makes perf record crawl: count at the smallest size, if small
	if [ "$size" = "${sizes%% *}" ] && [ "$size" -le 10000 ]; then
		say "counting system calls with strace (at $size tasks)"
		syscalls "$size" ps ps ax -o pid,ppid
		syscalls "$size" taskdiag-all "$out/taskdiag" all
		syscalls "$size" record-proc env PERF_CONFIG="$proc_cfg" "$perf" record -a -q -o /tmp/s.data -- true
		syscalls "$size" record-taskdiag env PERF_CONFIG="$td_cfg" "$perf" record -a -q -o /tmp/s.data -- true
	fi

	workload_stop
done

# The sweep past the full sizes: the synthesis sources and the raw stat
# readers only, whose cost per task is the question there
for size in $synth_sizes; do
	workload_start "$size" || exit 1
	echo "TASKS $size $total"
	echo "SHAPE $size $((size / threads)) $threads"
	echo "SWEEP $size"
	say "sweep at $size tasks: perf bench taskdiag; raw stat readers"
	perf_bench_taskdiag "$size" synth || exit 1
	rawread "$size" raw proc-stat td-stat || exit 1
	workload_stop
done

# The realistic workload: every process maps the bench's shared objects,
# $big of them thousands of areas more
size=$libs_size
set -- "$out"/bench/libs/*.so
libs=$#
workload_start "$size" $(printf -- '-l %s ' "$@") -b "$big" || exit 1
pids=$(pgrep -x forker)
echo "LIBS $size $total $libs $big $(maps_of "${pids%%$'\n'*}") $(maps_of "${pids##*$'\n'}")"
say "method 7: perf bench taskdiag on the realistic workload, without and with data mappings"
perf_bench_taskdiag "$size" libs || exit 1
perf_bench_taskdiag "$size" libsd --data || exit 1
say "method 8: raw interfaces on the realistic workload"
rawread "$size" libs-raw proc-maps query-maps td-maps query-exec td-exec ||
	exit 1
say "method 9: perf's task_diag synthesis and the raw dump of its request, in turns, on the realistic workload"
overhead "$size" libs-ovh td-perf || exit 1
overhead "$size" libsd-ovh td-perf-data --data || exit 1
workload_stop
say "done"
