# Shared settings for the build scripts; sourced, not run.
# shellcheck shell=bash
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${TASKDIAG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/taskdiag}
LINUX_TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
TREE=$CACHE/linux
KBUILD=$CACHE/kbuild
PERFBUILD=$CACHE/perf
OUT=$CACHE/out
JOBS=${JOBS:-$(nproc)}

export TASKDIAG_CACHE=$CACHE
mkdir -p "$CACHE" "$OUT"

note() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# hash_of FILE... : one content hash over the named files (sorted, missing ok)
hash_of() {
	local f
	for f in "$@"; do
		[ -e "$f" ] || continue
		printf '%s\n' "${f#"$TOP"/}"
		cat "$f"
	done | sha256sum | cut -c1-16
}

# stamp_ok NAME HASH : true when the stamp NAME records HASH
stamp_ok() { [ "$(cat "$CACHE/stamp.$1" 2>/dev/null)" = "$2" ]; }
stamp_set() { printf '%s\n' "$2" >"$CACHE/stamp.$1"; }
