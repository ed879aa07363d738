#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/report on a log made up here, whose answers are known: medians and
# min-max of the samples, the ratio of the medians with the min-max of the
# ratios paired by turn, every sample in the CSV, the cost per task with its
# spread and how flat it is, the ratio a free synthesis would give, and no
# report from a log without results.
. "$(dirname "$0")/../../tools/testing/tap/tap.sh"
report=$(dirname "$0")/../report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1,000 and 10,000 tasks; the peer's i-th sample pairs with task_diag's i-th
cat >"$tmp/log" <<'EOF'
TASKS 1000 1000
TASKS 10000 10000
SHAPE 10000 2000 5
T 10000 synth-proc-1 4.0
T 10000 synth-taskdiag 0.2
T 10000 synth-proc-1 6.0
T 10000 synth-taskdiag 0.5
T 10000 synth-proc-1 5.0
T 10000 synth-taskdiag 0.25
T 1000 synth-taskdiag 0.009
T 1000 synth-taskdiag 0.012
T 1000 synth-taskdiag 0.010
T 10000 top-proc 8.0
T 1000 top-taskdiag 0.8
T 10000 top-proc 10.0
T 1000 top-taskdiag 1.0
T 10000 top-proc 9.0
T 1000 top-taskdiag 0.9
C 1000 record-proc 10124
C 1000 record-taskdiag 4135
META commit 0123456789ab
EOF
"$report" "$tmp/log" "$tmp/out" >/dev/null 2>&1
result $? "the report is made"
md=$tmp/out.md

row=$(grep '^| synthesis (perf bench taskdiag), /proc 1 thread |' "$md")
# medians 5.0 / 0.25 = 20x; paired 4.0/0.2 = 20, 6.0/0.5 = 12, 5.0/0.25 = 20
[[ $row == *"| 5.000 s (4.000-6.000) | 0.250 s (0.200-0.500) | **20.0x** (12.0-20.0) |"* ]]
result $? "a ratio is the medians' with the min-max of the ratios paired by turn"

grep -q '^10000,synth-proc-1,5.000000,4.000000,6.000000,1.000000,3,4.000000 6.000000 5.000000$' \
	"$tmp/out.csv"
result $? "the CSV keeps every sample in its order, the median, min, max and stdev"

grep -q '^| 1000 | .* | 10.0 us (9.0-12.0) |$' "$md" &&
	grep -q '^| 10000 | .* | 25.0 us (20.0-50.0) |$' "$md"
result $? "the cost per task has its median and min-max"

# 10 and 25 us: 2.5x, +-43% of their midpoint 17.5 us
grep -q '^Cost per task of the synthesis, 1000 to 10000 tasks: 10.0 us at 1000, 25.0 us at 10000; the largest median is 2.5x the smallest, within +-43% of their midpoint (17.5 us).$' "$md"
result $? "how flat the cost per task is, is said"

# perf top: 9.0 s at 10,000 tasks over 0.9 s at 1,000; perf record not timed
grep -q "^- perf top's first screen with task_diag took 0.900 s (0.800-1.000) at 1000 tasks and with /proc 9.000 s (8.000-10.000) at 10000: were task_diag's synthesis and its events free, the ratio at 10000 tasks would be at most 10.0x.$" "$md" &&
	! grep -q '^- perf record -a -- true with task_diag' "$md"
result $? "the fixed part bounds the ratio, said for what was timed at both sizes"

grep -q '^| perf record -a -- true (1000 tasks) | 10124 | 4135 |$' "$md"
result $? "the system calls of both are given"

grep -q '^| perf record -a -- true: whole run | n/a | n/a | n/a |' "$md"
result $? "a row not measured says n/a"

printf 'nothing here\n' >"$tmp/empty"
! "$report" "$tmp/empty" "$tmp/none" >/dev/null 2>&1 && [ ! -e "$tmp/none.md" ]
result $? "a log without results makes no report and fails"

echo "1..$n"
exit "$failed"
