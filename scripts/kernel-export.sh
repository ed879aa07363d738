#!/bin/bash
# Rewrite kernel/patches/ from the commits base..task-diag of the build
# tree, with stable names and no churn when nothing changed.
. "$(dirname "$0")/common.sh"

[ -d "$TREE/.git" ] || die "no build tree: run 'make kernel-tree' first"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$TREE" format-patch -q --no-signature --zero-commit --no-numbered \
	--subject-prefix=PATCH -o "$tmp" base..task-diag
changed=0
for p in "$tmp"/*.patch; do
	[ -e "$p" ] || continue
	# the mbox "From <sha>" line is already zeroed; drop nothing else
	if ! cmp -s "$p" "$TOP/kernel/patches/$(basename "$p")"; then
		changed=1
	fi
done
shopt -s nullglob
olds=("$TOP"/kernel/patches/*.patch)
news=("$tmp"/*.patch)
old=${#olds[@]}
new=${#news[@]}
if [ "$changed" = 0 ] && [ "$old" = "$new" ]; then
	note "kernel/patches unchanged"
	exit 0
fi
rm -f "$TOP"/kernel/patches/*.patch
[ "$new" = 0 ] || cp "${news[@]}" "$TOP/kernel/patches/"
git -C "$TREE" rev-parse HEAD >"$CACHE/series.head"
stamp_set series "$(hash_of "$TOP"/kernel/patches/*.patch)"
note "kernel/patches: $new patches written"
