#!/bin/bash
# Prepare the Linux 6.12 build tree in the cache:
#   pristine source as commit "base", kernel/patches/*.patch as commits on
#   branch task-diag, then our tools/ files overlaid and the perf hook
#   hook patches of tools/patches/ applied to upstream tools files
#   (uncommitted: they are not part of the kernel series).
. "$(dirname "$0")/common.sh"

git_t() { git -C "$TREE" -c user.name=taskdiag -c user.email=taskdiag@localhost "$@"; }

unpack() {
	local ver tmp
	[ -f "$LINUX_TARBALL" ] || die "$LINUX_TARBALL missing (apt-get install linux-source-6.12)"
	ver=$(stat -c '%s-%Y' "$LINUX_TARBALL")
	if [ -d "$TREE/.git" ] && stamp_ok tarball "$ver"; then
		return
	fi
	note "unpacking $LINUX_TARBALL"
	rm -rf "$TREE" "$TREE.tmp" "$KBUILD"
	rm -f "$CACHE"/stamp.*
	tmp=$TREE.tmp
	mkdir -p "$tmp"
	tar -xJf "$LINUX_TARBALL" -C "$tmp" --strip-components=1
	mv "$tmp" "$TREE"
	# Debian's tarball ignores every top-level path in .gitignore: undo
	# that so that new files of the series are seen by git.
	sed -i '/^# Debian packaging/,$d' "$TREE/.gitignore"
	git_t init -q -b task-diag
	git_t add -A -f .
	git_t commit -q -m "Linux $(make -s -C "$TREE" kernelversion) (Debian linux-source-6.12)"
	git_t tag -f base >/dev/null
	stamp_set tarball "$ver"
}

# The series is reapplied only when kernel/patches changed; a tree with
# commits or edits that were not exported is left alone.
apply_series() {
	local h
	h=$(hash_of "$TOP"/kernel/patches/*.patch)
	if stamp_ok series "$h" && [ "$(git_t rev-parse HEAD)" = "$(cat "$CACHE/series.head" 2>/dev/null)" ]; then
		return
	fi
	if [ -f "$CACHE/series.head" ] &&
	   [ "$(git_t rev-parse HEAD)" != "$(cat "$CACHE/series.head")" ]; then
		die "$TREE has commits not in kernel/patches: run 'make kernel-export' or reset it"
	fi
	if [ -n "$(git_t status --porcelain --untracked-files=no -- . ':!tools')" ]; then
		die "$TREE has uncommitted kernel edits: commit them and 'make kernel-export'"
	fi
	note "applying kernel/patches ($(ls "$TOP"/kernel/patches/*.patch 2>/dev/null | wc -l) patches)"
	git_t am --abort >/dev/null 2>&1 || true
	git_t checkout -q -f task-diag
	git_t reset -q --hard base
	if ls "$TOP"/kernel/patches/*.patch >/dev/null 2>&1; then
		git_t am -q --committer-date-is-author-date "$TOP"/kernel/patches/*.patch ||
			{ git_t am --abort; die "kernel/patches do not apply"; }
	fi
	git_t rev-parse HEAD >"$CACHE/series.head"
	stamp_set series "$h"
	rm -f "$CACHE/stamp.toolhooks"
}

# Our own tools/ files are copied by content so unchanged files keep their
# mtime and incremental builds stay incremental.
overlay_tools() {
	(cd "$TOP" && git ls-files -co --exclude-standard -- tools ':!tools/patches') |
		rsync -rc --files-from=- "$TOP/" "$TREE/"
}

# Small patches to upstream tools files (perf hooks) are reapplied only when
# they changed, so the files they touch keep their mtime otherwise.
apply_tool_hooks() {
	local h p
	h=$(hash_of "$TOP"/tools/patches/*.patch)
	stamp_ok toolhooks "$h" && return
	note "applying tools/patches"
	git_t checkout -q HEAD -- tools
	for p in "$TOP"/tools/patches/*.patch; do
		[ -e "$p" ] || continue
		git_t apply "$p" || die "tools hook $p does not apply"
	done
	stamp_set toolhooks "$h"
}

unpack
apply_series
apply_tool_hooks
overlay_tools
