#!/bin/bash
# perf record -a: same report with BPF iterator and /proc synthesis
# SPDX-License-Identifier: GPL-2.0
#
# A two-thread workload started before perf record -a is known to perf only
# through the synthesized COMM and MMAP2 events.  Record it once with them
# synthesized from the BPF task and task_vma iterators (synthesize.bpf-iter)
# and once from /proc, task_diag off both times: perf script and perf report
# must name the same comm, threads, DSO and symbol both times.  Skips, with
# the reason perf gives, where the iterators cannot be loaded.

shelldir=$(dirname "$0")
# shellcheck source=lib/perf_has_symbol.sh
. "${shelldir}"/lib/perf_has_symbol.sh
# shellcheck source=lib/synth_same_report.sh
. "${shelldir}"/lib/synth_same_report.sh

skip_test_missing_symbol ${sym}

same_report_init
printf '[synthesize]\n\ttask-diag = false\n\tbpf-iter = true\n' > "${tmp}/bpf-iter.config"
printf '[synthesize]\n\ttask-diag = false\n\tbpf-iter = false\n' > "${tmp}/proc.config"
same_report_record bpf-iter proc
if ! grep -q 'synthesized [0-9]* threads from BPF iterators' "${tmp}/bpf-iter.log"; then
	why=$(grep -m1 '^synthesize.bpf-iter: ' "${tmp}/bpf-iter.log")
	if [ -n "${why}" ]; then
		echo "Skip: ${why}"
		exit 2
	fi
	echo "the BPF iterators did not serve the synthesis, and perf said not why"
	exit 1
fi
err=0
if ! grep -q 'synthesizing threads from /proc' "${tmp}/proc.log"; then
	echo "the /proc walk did not serve the synthesis with bpf-iter = false"
	err=1
fi
same_report_compare bpf-iter proc || err=1
exit ${err}
