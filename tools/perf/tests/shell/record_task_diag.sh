#!/bin/bash
# perf record -a: same report with task_diag and /proc synthesis
# SPDX-License-Identifier: GPL-2.0
#
# A two-thread workload started before perf record -a is known to perf only
# through the synthesized COMM and MMAP2 events.  Record it once with them
# synthesized from /proc/task-diag and once from /proc: perf script and
# perf report must name the same comm, threads, DSO and symbol both times.

shelldir=$(dirname "$0")
# shellcheck source=lib/perf_has_symbol.sh
. "${shelldir}"/lib/perf_has_symbol.sh
# shellcheck source=lib/task_diag.sh
. "${shelldir}"/lib/task_diag.sh
# shellcheck source=lib/synth_same_report.sh
. "${shelldir}"/lib/synth_same_report.sh

skip_test_missing_symbol ${sym}
skip_if_no_task_diag

same_report_init
task_diag_configs "${tmp}"
same_report_record task-diag no-task-diag
err=0
if ! grep -q 'synthesized [0-9]* threads from /proc/task-diag' "${tmp}/task-diag.log"; then
	echo "task_diag did not serve the synthesis"
	err=1
fi
if ! grep -q 'synthesizing threads from /proc' "${tmp}/no-task-diag.log"; then
	echo "the /proc walk did not serve the synthesis with task-diag = false"
	err=1
fi
same_report_compare task-diag no-task-diag || err=1
exit ${err}
