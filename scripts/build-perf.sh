#!/bin/bash
# Build perf (minimal feature set) from the prepared tree into the cache.
. "$(dirname "$0")/common.sh"

obj=$KBUILD-task-diag
khdr="-isystem $obj/usr/include"
mkdir -p "$PERFBUILD"
note "installing kernel headers"
make -s -C "$TREE" O="$obj" headers >/dev/null
note "building perf"
make -s -C "$TREE/tools/perf" O="$PERFBUILD" -j"$JOBS" WERROR=0 \
	EXTRA_CFLAGS="$khdr" KHDR_INCLUDES="$khdr" \
	NO_SHELLCHECK=1 NO_LIBPYTHON=1 NO_LIBPERL=1 NO_JEVENTS=1 \
	NO_LIBTRACEEVENT=1 NO_LIBBPF=1 BUILD_BPF_SKEL=0 NO_LIBUNWIND=1 \
	NO_LIBDW_DWARF_UNWIND=1 NO_DWARF=1 NO_SLANG=1 NO_LIBNUMA=1 \
	NO_LIBCRYPTO=1 NO_LIBZSTD=1 NO_LZMA=1 NO_CAPSTONE=1 NO_LIBPFM4=1 \
	NO_LIBBABELTRACE=1 NO_LIBDEBUGINFOD=1 NO_LIBLLVM=1 NO_SDT=1 \
	NO_JVMTI=1 NO_AIO=1 NO_LIBAUDIT=1 NO_DEMANGLE=1 NO_GTK2=1 \
	${PERF_MAKE_FLAGS:-} >"$CACHE/perf-build.log" 2>&1 ||
	{ tail -n 40 "$CACHE/perf-build.log" >&2; die "perf build failed (log: $CACHE/perf-build.log)"; }
ln -sf "$PERFBUILD/perf" "$OUT/perf"
echo "$OUT/perf"
