# SPDX-License-Identifier: GPL-2.0
#
# awk -f ps-same.awk BEFORE AFTER TASKDIAG: whether taskdiag ps printed
# what ps printed just before and just after it (each output without its
# own line).  Exit status 0 when TASKDIAG has as many lines and each is
# the same line of BEFORE or of AFTER, or, on a line that ps itself
# changed between the two without changing its length (a CPU share or
# time that moved), the same bytes wherever BEFORE and AFTER agree.
# Prints "LINES SAME": how many lines, how many equal to BEFORE's.
FILENAME == ARGV[1] { a[FNR] = $0; na = FNR; next }
FILENAME == ARGV[2] { b[FNR] = $0; nb = FNR; next }
{
	n = FNR
	if ($0 == a[n]) {
		same++
		next
	}
	if ($0 == b[n])
		next
	if (length($0) != length(a[n]) || length(a[n]) != length(b[n])) {
		bad++
		next
	}
	for (i = 1; i <= length($0); i++) {
		c = substr(a[n], i, 1)
		if (c == substr(b[n], i, 1) && c != substr($0, i, 1)) {
			bad++
			next
		}
	}
}
END {
	print n + 0, same + 0
	exit bad || n != na || n != nb
}
