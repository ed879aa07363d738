#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the tests of perf's reads of /proc/kallsyms share

# skip_if_kallsyms_hidden: skip (exit 2) if /proc/kallsyms shows this user
# no addresses (kptr_restrict)
skip_if_kallsyms_hidden() {
	if [ "$(awk '$3 == "_stext" { print $1; exit }' /proc/kallsyms)" = \
	     0000000000000000 ]; then
		echo "Skip: /proc/kallsyms shows no addresses to this user (kptr_restrict)"
		exit 2
	fi
}

# kallsyms_opens STRACE-LOG: how many times STRACE-LOG shows /proc/kallsyms
# opened
kallsyms_opens() {
	grep -c 'open[a-z0-9]*(.*"/proc/kallsyms"' "$1"
}
