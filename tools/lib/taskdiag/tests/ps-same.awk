# SPDX-License-Identifier: GPL-2.0
#
# awk -f ps-same.awk PS... TASKDIAG: whether taskdiag ps printed what ps
# printed in the snapshots PS... taken around it (each output without its
# own line).  Exit status 0 when TASKDIAG has as many lines as each
# snapshot and each of its lines is the same line of one snapshot, or,
# on a line that changed between the snapshots without changing its
# length (a CPU share or time that moved), has the same bytes wherever
# all the snapshots agree.  A workqueue worker's name ends with the work
# it ran last ("[kworker/0:1-events]"), which the readers themselves
# cause: when its line matches no other way, it is compared without that
# end.  Prints "LINES SAME WORKERS": how many lines, how many equal to the
# first snapshot's, how many workers compared without the end.

# @l with "[kworker/ID-WORK]" (or "+WORK", running) as "[kworker/ID]"
function worker(l,	s) {
	if (!match(l, /\[kworker\/[^]+-]*[-+][^]]*\]/))
		return l
	s = substr(l, RSTART, RLENGTH)
	sub(/[-+][^]]*\]$/, "]", s)
	return substr(l, 1, RSTART - 1) s substr(l, RSTART + RLENGTH)
}

# @t against the line @n of the snapshots, each through worker() if @w:
# 1 (the same as the first), 2 (as another), 3 (same where all agree), 0
function match_line(t, n, w,	s, i, c, first) {
	if (w)
		t = worker(t)
	for (s = 1; s < f; s++) {
		v[s] = w ? worker(snap[s, n]) : snap[s, n]
		if (t == v[s])
			return s == 1 ? 1 : 2
	}
	for (s = 1; s < f; s++)
		if (length(v[s]) != length(t))
			return 0
	for (i = 1; i <= length(t); i++) {
		c = substr(v[1], i, 1)
		for (s = 2; s < f && substr(v[s], i, 1) == c; s++)
			;
		if (s == f && c != substr(t, i, 1))
			return 0
	}
	return 3
}

FNR == 1 { f++ }
f < ARGC - 1 { snap[f, FNR] = $0; lines[f] = FNR; next }
{
	n = FNR
	r = match_line($0, n, 0)
	if (!r && worker($0) != $0 && match_line($0, n, 1)) {
		r = 4
		workers++
	}
	same += r == 1
	bad += r == 0
}
END {
	for (s = 1; s < f; s++)
		if (lines[s] != n)
			bad++
	print n + 0, same + 0, workers + 0
	exit bad != 0
}
