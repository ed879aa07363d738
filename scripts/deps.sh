#!/bin/bash
# Install the Debian packages the build, the tests and the guest need
# (clang with libFuzzer, jq, strace, the libraries of a distribution's
# perf...); idempotent.
. "$(dirname "$0")/common.sh"

PKGS="linux-source-6.12 qemu-system-x86 busybox-static flex bison bc
libssl-dev cpio libelf-dev libdw-dev libtraceevent-dev libnl-3-dev
libnl-genl-3-dev pkg-config rsync xz-utils gcc make git clang
libclang-rt-14-dev procps strace gnuplot-nox python3 python3-ply python3-git perl
jq gcc-multilib linux-config-6.12
python3-dev python3-setuptools libperl-dev libslang2-dev libunwind-dev
libzstd-dev liblzma-dev zlib1g-dev libnuma-dev libcapstone-dev libcap-dev
libpfm4-dev libbabeltrace-dev systemtap-sdt-dev libdebuginfod-dev
libiberty-dev llvm dwarves abigail-tools"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
note "installing:$missing"
[ "$(id -u)" = 0 ] || die "need root to apt-get install:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
