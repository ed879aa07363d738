#!/bin/bash
# make check-configs: the series builds, without warnings, at every patch
# (CHECK_COMMITS=head: at its head only) with each configuration a user
# or a distribution may have, as TAP:
#   i386                  the test config for 32-bit x86 (ARCH=i386)
#   no-PROC_PAGE_MONITOR  the test config with that option off, and so
#   no-USER_NS, no-PID_NS for the others
#   debian                Debian's own 6.12 amd64 config (linux-config-6.12)
#                         with TASK_DIAG: the directories the series touches
# The test config itself is make check-bisect's.  Build directories are
# kept in the cache, so a second run is incremental.
. "$(dirname "$0")/common.sh"

VARIANTS=${CHECK_VARIANTS:-"i386 no-PROC_PAGE_MONITOR no-USER_NS no-PID_NS debian"}
DEBIAN_CONFIG=$(ls /usr/src/linux-config-6.12/config.amd64_none_amd64.xz 2>/dev/null)
TOUCHED="fs/proc/"

git -C "$TREE" diff --quiet HEAD -- . ':!tools' || die "$TREE has uncommitted changes"
[ -n "$DEBIAN_CONFIG" ] || die "no Debian amd64 config (apt-get install linux-config-6.12)"
head=$(git -C "$TREE" rev-parse task-diag)
trap 'git -C "$TREE" checkout -q task-diag' EXIT

# the ARCH= of VARIANT
arch_of() {
	if [ "$1" = i386 ]; then echo i386; else echo x86_64; fi
}

# configure VARIANT in its build directory at the commit checked out
configure() {
	local v=$1 obj=$KBUILD-check-$1 arch
	arch=$(arch_of "$v")
	mkdir -p "$obj"
	if [ "$v" = debian ]; then
		xz -dc "$DEBIAN_CONFIG" >"$obj/.config"
		"$TREE/scripts/config" --file "$obj/.config" -e PROC_FS -e TASK_DIAG \
			-d MODULE_SIG -d DEBUG_INFO_BTF -d DEBUG_INFO \
			-e DEBUG_INFO_NONE --set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS ""
	else
		make -s -C "$TREE" O="$obj" ARCH=$arch tinyconfig >/dev/null
		KCONFIG_CONFIG="$obj/.config" "$TREE/scripts/kconfig/merge_config.sh" \
			-m -O "$obj" "$obj/.config" "$TOP/kernel/configs/task-diag.config" >/dev/null
		# no debug info nor BTF (perf's BPF tests need them, not these builds)
		"$TREE/scripts/config" --file "$obj/.config" -d DEBUG_INFO_BTF \
			-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -e DEBUG_INFO_NONE
		[ "$v" = i386 ] && "$TREE/scripts/config" --file "$obj/.config" -d 64BIT
		case $v in no-*) "$TREE/scripts/config" --file "$obj/.config" -d "${v#no-}" ;; esac
	fi
	make -s -C "$TREE" O="$obj" ARCH=$arch olddefconfig >/dev/null 2>&1
}

# build VARIANT; the log in $CACHE/check-VARIANT.log
build() {
	local v=$1 obj=$KBUILD-check-$1 arch log=$CACHE/check-$1.log
	arch=$(arch_of "$v")
	case $v in
	debian)
		make -s -C "$TREE" O="$obj" -j"$JOBS" prepare >"$log" 2>&1 &&
		make -s -C "$TREE" O="$obj" -j"$JOBS" $TOUCHED >>"$log" 2>&1 ;;
	*)
		make -s -C "$TREE" O="$obj" ARCH=$arch -j"$JOBS" vmlinux >"$log" 2>&1 ;;
	esac && ! grep -q 'warning:' "$log"
}

# what the configuration says of an option the variant is about
expect() {
	local v=$1 obj=$KBUILD-check-$1
	case $v in
	no-*) ! grep -q "^CONFIG_${v#no-}=y" "$obj/.config" ;;
	i386) ! grep -q '^CONFIG_64BIT=y' "$obj/.config" ;;
	*) true ;;
	esac && { ! grep -q '^config TASK_DIAG$' "$TREE/fs/proc/Kconfig" ||
		  grep -q '^CONFIG_TASK_DIAG=y' "$obj/.config"; }
}

if [ "${CHECK_COMMITS:-all}" = head ]; then
	commits=$head
else
	commits=$(git -C "$TREE" rev-list --reverse base..task-diag)
fi
rc=0 n=0
for c in $commits; do
	git -C "$TREE" checkout -q "$c"
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	for v in $VARIANTS; do
		n=$((n + 1))
		configure "$v"
		if ! expect "$v"; then
			echo "not ok $n - $v: the configuration is not what it says: $subj"
			rc=1
		elif build "$v"; then
			echo "ok $n - $v builds without warnings: $subj"
		else
			echo "not ok $n - $v: $subj"
			grep -E 'error|warning' "$CACHE/check-$v.log" | head -n 10 | sed 's/^/#   /'
			rc=1
		fi
	done
done
echo "1..$n"
git -C "$TREE" checkout -q task-diag
[ "$(git -C "$TREE" rev-parse HEAD)" = "$head" ] || die "tree not back at the series head"
exit $rc
