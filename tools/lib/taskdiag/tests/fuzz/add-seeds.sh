#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# add-seeds.sh CORPUS < "NAME-BUFSIZE BASE64" lines (from capture.sh):
# write each answer to CORPUS/NAME-BUFSIZE, followed by the trailer that
# replays it with a buffer of that size (see fuzz.h).
corpus=$1
mkdir -p "$corpus" || exit 1
while read -r name data; do
	case $name in real-*) ;; *) continue ;; esac
	size=${name##*-} shift=0
	while [ $((64 << shift)) -lt "$size" ] && [ $shift -lt 11 ]; do
		shift=$((shift + 1))
	done
	{
		printf '%s' "$data" | base64 -d
		printf 'TDFZ'
		printf "\\$(printf '%03o' "$shift")\\000\\000\\000"
	} >"$corpus/$name"
	echo "$corpus/$name: $(wc -c <"$corpus/$name") bytes"
done
