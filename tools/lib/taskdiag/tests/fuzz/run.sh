#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# run.sh FUZZER CORPUS OUTDIR [LIBFUZZER-OPTION...]: run the fuzzer on the
# seed corpus (new inputs go to OUTDIR/corpus, crashes to OUTDIR/) and
# report as TAP with the number of executions.
fuzzer=$1 corpus=$2 out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
name=${fuzzer##*/}
dict=
[ -f "$here/$name.dict" ] && dict=-dict=$here/$name.dict

if [ ! -x "$fuzzer" ]; then
	echo "not ok 1 - $name: $fuzzer not built (make fuzz-build)"
	echo "1..1"
	exit 1
fi
mkdir -p "$out/corpus"
log=$out/fuzz.log
# shellcheck disable=SC2086
"$fuzzer" $dict -print_final_stats=1 -timeout=10 \
	-max_len=65536 -rss_limit_mb=2048 -artifact_prefix="$out/" "$@" \
	"$out/corpus" "$corpus" >"$log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
secs=$(sed -n 's/^stat::total_duration: *//p' "$log" 2>/dev/null)
done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1)
echo "# $name: ${execs:-?} execs${secs:+ in $secs s}; ${done_line:-no DONE line}"
echo "# seeds: $(ls "$corpus" | wc -l), corpus now $(ls "$out/corpus" | wc -l) new inputs; log $log"
if [ "$rc" = 0 ] && [ -n "$execs" ]; then
	echo "ok 1 - $name: ${execs} execs without a finding"
else
	echo "not ok 1 - $name exited with status $rc"
	grep -E 'ERROR|SUMMARY|artifact|==[0-9]+==' "$log" | head -n 20 | sed 's/^/# /'
fi
echo "1..1"
[ "$rc" = 0 ]
