#!/bin/bash
# perf record: the build-id pass finds every DSO with samples
# SPDX-License-Identifier: GPL-2.0
#
# perf record's build-id pass builds only the processes that have samples
# and those they were forked from.  A perl process that was started before
# perf record, and sleeps through it, forks a child that runs, without
# exec, in perl: only the parent's MMAP2 events, synthesized at the start,
# name perl's executable, and the parent, which only forks and waits, has
# no sample of its own (one every 10 ms of CPU time).  perf record must
# write the build ID of every DSO that perf buildid-list -H finds samples
# in by processing every event, perl's among them.

shelldir=$(dirname "$0")
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh

skip_if_missing perl "for the forking workload"

tmp=$(mktemp -d /tmp/perf-buildid-hits.XXXXXX)
wpid=""
cleanup() {
	[ -n "${wpid}" ] && kill "${wpid}" 2>/dev/null
	rm -rf "${tmp}"
	trap - EXIT TERM INT
}
trap 'cleanup; exit 1' TERM INT
trap cleanup EXIT
err=0
perl=$(readlink -f "$(command -v perl)")

# on SIGUSR1, fork a child that computes for 1 to 2 s; wait for it
perl -e '$SIG{USR1} = sub { $go = 1 };
	open(F, ">", $ARGV[0]); close(F);
	sleep 1000 until $go;
	if (!fork) {
		my ($end, $x) = (time + 2, 0);
		while (time < $end) { $x += sqrt($_) for 1 .. 10000 }
		exit 0;
	}
	wait' "${tmp}/ready" &
wpid=$!
for _ in $(seq 300); do
	[ -e "${tmp}/ready" ] && break
	sleep 0.1
done

# --no-buildid-mmap: with task_diag the build IDs are in the MMAP2 events
# by default, and there is no build-id pass
if ! perf record -a --no-buildid-mmap -e cpu-clock -c 10000000 -o "${tmp}/perf.data" -- \
	sh -c "kill -USR1 ${wpid}; sleep 3" > "${tmp}/record.log" 2>&1; then
	echo "perf record failed:"
	tail -n 20 "${tmp}/record.log"
	exit 1
fi
wait "${wpid}"
wpid=""

# DSOs with samples and a build ID: as perf record wrote them, and as
# processing every event finds them (a DSO perf record did not write
# shows there with no build ID)
perf buildid-list -i "${tmp}/perf.data" | sort > "${tmp}/written"
perf buildid-list -H -i "${tmp}/perf.data" | grep -v '^ ' | sort > "${tmp}/hits"
hits_without_id=$(perf buildid-list -H -i "${tmp}/perf.data" | grep '^ *0* /' |
	grep -v -e '(deleted)' -e '//anon' -e '/memfd:')

if ! perf report -i "${tmp}/perf.data" --stdio --sort dso 2>/dev/null |
	grep -q -F " ${perl##*/}"; then
	echo "no sample in ${perl}: the workload did not run as meant"
	err=1
elif ! grep -q -F " ${perl}" "${tmp}/written"; then
	echo "perf record wrote no build ID for ${perl}, where the forked child ran"
	err=1
fi
missing=$(comm -13 "${tmp}/written" "${tmp}/hits")
if [ -n "${missing}" ] || [ -n "${hits_without_id}" ]; then
	echo "DSOs with samples whose build IDs perf record did not write:"
	echo "${missing}"
	echo "${hits_without_id}"
	err=1
fi
exit ${err}
