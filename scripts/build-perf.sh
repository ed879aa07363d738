#!/bin/bash
# build-perf.sh [no-taskdiag]: build perf from the prepared tree into the
# cache as distributions build it: every feature Debian has the libraries
# for (libtraceevent, libdw, libelf, python, perl, libbpf with BPF
# skeletons, slang, libunwind, zstd, numa, capstone, libpfm4...) and
# WERROR=1, with no kernel headers but tools/include's.  Not libLLVM: the
# llvm package (llvm-strip, for the BPF skeletons) would make perf link it,
# and loading it costs every perf command about 0.5 s in the guest; Arch's
# linux-tools builds perf with NO_LIBLLVM=1 too, and perf disassembles with
# capstone and finds source lines with libdw instead.  Python is Debian's
# (/usr/bin/python3 and python3-config), as in a distribution's build, not
# whatever python3 comes first in PATH: a pyenv python would have perf
# link its libpython through a RUNPATH.  With no-taskdiag: the same build
# with NO_TASKDIAG=1, in a directory of its own.
. "$(dirname "$0")/common.sh"

variant=${1:-}
case $variant in
"") dir=$PERFBUILD; flags=(NO_LIBLLVM=1 PYTHON=/usr/bin/python3) ;;
no-taskdiag) dir=$PERFBUILD-no-taskdiag
	flags=(NO_LIBLLVM=1 PYTHON=/usr/bin/python3 NO_TASKDIAG=1) ;;
*) die "usage: build-perf.sh [no-taskdiag]" ;;
esac
log=$CACHE/perf-build${variant:+-$variant}.log
# perf's build does not rebuild everything when its flags change: start
# afresh when they did (as from the minimal perf of earlier versions)
stamp="WERROR=1 NO_SHELLCHECK=1 ${flags[*]} ${PERF_MAKE_FLAGS:-}"
if [ "$(cat "$dir/.build-flags" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$dir"
fi
mkdir -p "$dir"
note "building perf${variant:+ ($variant)}"
# NO_SHELLCHECK: shellcheck is not a build step of ours (the shell tests run in make test)
# shellcheck disable=SC2086
make -s -C "$TREE/tools/perf" O="$dir" -j"$JOBS" WERROR=1 NO_SHELLCHECK=1 \
	"${flags[@]}" ${PERF_MAKE_FLAGS:-} >"$log" 2>&1 ||
	{ tail -n 40 "$log" >&2; die "perf build failed (log: $log)"; }
echo "$stamp" >"$dir/.build-flags"
[ -n "$variant" ] && { echo "$dir/perf"; exit 0; }
ln -sf "$dir/perf" "$OUT/perf"
echo "$OUT/perf"
