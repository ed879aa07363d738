#!/bin/bash
# Build bzImage from the prepared tree.  The test kernels (task-diag, debug)
# are tinyconfig + task-diag.config [+ <profile>.config]; the bench kernel is
# x86_64 defconfig + bench.config.  usage: KPROFILE=<profile> build-kernel.sh
. "$(dirname "$0")/common.sh"

profile=${KPROFILE:-task-diag}
base=tinyconfig
frags=("$TOP/kernel/configs/task-diag.config")
case $profile in
task-diag) ;;
bench) base=defconfig frags=("$TOP/kernel/configs/bench.config") ;;
*) frags+=("$TOP/kernel/configs/$profile.config") ;;
esac
obj=$KBUILD-$profile
mkdir -p "$obj"

# the options of the fragments that .config lacks (none when up to date)
missing_opts() {
	grep -h '^CONFIG_.*=' "${frags[@]}" | while read -r l; do
		grep -qx "$l" "$obj/.config" 2>/dev/null || echo "$l"
	done
}

h=$(hash_of "${frags[@]}")
if ! stamp_ok "config-$profile" "$h" || [ -n "$(missing_opts)" ]; then
	note "configuring kernel ($profile)"
	make -s -C "$TREE" O="$obj" "$base" >/dev/null
	KCONFIG_CONFIG="$obj/.config" "$TREE/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
	make -s -C "$TREE" O="$obj" olddefconfig >/dev/null
	missing=$(missing_opts)
	[ -z "$missing" ] || die "kconfig dropped: $missing"
	stamp_set "config-$profile" "$h"
fi
note "building bzImage ($profile)"
make -s -C "$TREE" O="$obj" -j"$JOBS" bzImage
cp -f "$obj/arch/x86/boot/bzImage" "$OUT/bzImage-$profile.new"
mv -f "$OUT/bzImage-$profile.new" "$OUT/bzImage-$profile"
echo "$OUT/bzImage-$profile"
