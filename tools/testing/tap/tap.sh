# SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
# Sourced by shell scripts that print TAP themselves:
#   result STATUS DESCRIPTION   "ok N - DESCRIPTION" when STATUS is 0,
#                               else "not ok N - ..." and failed=1
# $n counts the results (print "1..$n" at the end).
n=0 failed=0

result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
	fi
}
