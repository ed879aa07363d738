# SPDX-License-Identifier: GPL-2.0
#
# tap.awk: the TAP consumer behind tap-run.  Reads the output of several
# suites, each framed by "MARK begin NAME" and "MARK end STATUS" lines
# (MARK is passed as -v mark=...), the whole ended by "MARK done".  Writes
# one TAP stream: every result renumbered as "ok N - NAME: description",
# everything else as "#" comments, then "1..N" and a summary.
#
# A suite fails once (one "not ok" line, with its last lines) when it
# exits non-zero without having reported a failure, has no plan, ran
# another number of tests than its plan, numbers its tests out of
# sequence, prints a second plan or results after its closing plan, bails
# out, or never reports its exit status.  "not ok" with or without a
# number is a failure; "ok ... # SKIP reason" and "1..0 # SKIP reason"
# are skips.  Exits 0 when nothing failed and the stream is complete.

BEGIN {
	n = 0
	passed = 0
	failed = 0
	skipped = 0
	insuite = 0
	alldone = 0
	if (keep < 1)
		keep = 20
	nskips = 0
	nfails = 0
}

function emit(s) {
	print s
	fflush()
}

function problem(p) {
	problems = problems (problems == "" ? "" : "; ") p
}

function begin_suite(name) {
	if (insuite)
		end_suite("", "the suite after it began before it ended")
	insuite = 1
	suite = name
	count = 0
	plan = -1
	plan_closed = 0
	plan_skip = ""
	s_pass = 0
	s_fail = 0
	s_skip = 0
	problems = ""
	nlines = 0
	emit("# suite " suite)
}

# remember the last lines of a suite, to show them when it fails
function remember(line) {
	last[nlines % keep] = line
	nlines++
}

function show_last(   i, first) {
	first = nlines > keep ? nlines - keep : 0
	if (first < nlines)
		emit("#   last lines of " suite ":")
	for (i = first; i < nlines; i++)
		emit("#   | " last[i % keep])
}

# directive(TEXT): "skip" or "xfail" when TEXT carries that directive;
# sets dtext to TEXT before it and dreason to the text after it
function directive(text,   l, kind) {
	l = tolower(text)
	dtext = text
	dreason = ""
	if (match(l, /#[ \t]*skip[a-z]*[: \t]*/))
		kind = "skip"
	else if (match(l, /#[ \t]*xfail[: \t]*/))
		kind = "xfail"
	else
		return ""
	dtext = substr(text, 1, RSTART - 1)
	dreason = substr(text, RSTART + RLENGTH)
	sub(/[ \t]+$/, "", dtext)
	sub(/[ \t]+$/, "", dreason)
	return kind
}

# "NAME: description", or NAME alone for a test without one
function label(desc) {
	return desc == "" ? suite : suite ": " desc
}

function record_skip(what, reason) {
	skipped++
	s_skip++
	skips[++nskips] = what ": " (reason == "" ? "(no reason given)" : reason)
}

function result(line,   ok, rest, num, desc, d) {
	ok = line !~ /^not ok/
	rest = line
	sub(/^(not )?ok/, "", rest)
	num = ""
	if (match(rest, /^[ \t]+[0-9]+/)) {
		num = substr(rest, RSTART, RLENGTH) + 0
		rest = substr(rest, RSTART + RLENGTH)
	}
	sub(/^[ \t]*-?[ \t]*/, "", rest)
	if (plan_closed)
		problem("a result after the closing plan")
	count++
	if (num != "" && num != count)
		problem("test number " num " out of sequence (test " count ")")
	d = directive(rest)
	desc = dtext
	n++
	if (!ok) {
		failed++
		s_fail++
		fails[++nfails] = label(desc)
		emit("not ok " n " - " label(rest))
	} else if (d == "skip") {
		record_skip(label(desc), dreason)
		emit("ok " n " - " label(desc) " # SKIP " dreason)
	} else {
		passed++
		s_pass++
		emit("ok " n " - " label(rest))
	}
}

function plan_line(line,   p) {
	if (plan >= 0) {
		problem("a second plan (" line ")")
		return
	}
	p = line
	sub(/^1\.\./, "", p)
	plan = p + 0
	if (count > 0)
		plan_closed = 1
	if (plan == 0 && directive(line) == "skip")
		plan_skip = dreason == "" ? "(no reason given)" : dreason
	else if (plan == 0)
		problem("plan 1..0 without a SKIP reason")
	emit("# " suite ": " line)
}

function signal_text(rc,   s) {
	s = rc - 128
	if (s == 6)
		return "killed by SIGABRT"
	if (s == 9)
		return "killed by SIGKILL"
	if (s == 11)
		return "killed by SIGSEGV"
	if (s == 15)
		return "killed by SIGTERM"
	return "killed by signal " s
}

# A suite ended with status RC ("" when it never said), or was cut by WHY
function end_suite(rc, why,   all_skipped) {
	if (why != "")
		problem(why)
	if (plan < 0)
		problem("no plan: the stream stopped early or never planned")
	else if (plan != count)
		problem("planned " plan " tests, ran " count)
	all_skipped = s_pass == 0 && s_fail == 0 &&
		      (s_skip > 0 || plan_skip != "")
	if (rc == "")
		problem("no exit status: the runner was cut off")
	else if (rc == 124)
		problem("timed out")
	else if (rc > 128 && rc < 160)
		problem(signal_text(rc))
	else if (rc == 4 && all_skipped)
		;	# kselftest's "skipped"
	else if (rc != 0 && (s_fail == 0 || problems != ""))
		problem("exit status " rc)
	if (problems == "" && plan == 0 && plan_skip != "") {
		n++
		record_skip(suite, plan_skip)
		emit("ok " n " - " suite " # SKIP " plan_skip)
	}
	if (problems != "") {
		n++
		failed++
		s_fail++
		fails[++nfails] = suite ": " problems
		emit("not ok " n " - " suite ": " problems)
		show_last()
	}
	emit("# suite " suite ": exit status " (rc == "" ? "unknown" : rc) \
	     "; " s_pass " passed, " s_fail " failed, " s_skip " skipped")
	insuite = 0
}

index($0, mark " ") == 1 {
	rest = substr($0, length(mark) + 2)
	if (rest ~ /^begin /) {
		begin_suite(substr(rest, 7))
	} else if (rest ~ /^end /) {
		if (insuite)
			end_suite(substr(rest, 5) + 0, "")
	} else if (rest == "done") {
		alldone = 1
	}
	next
}

!insuite {
	if ($0 != "")
		emit($0 ~ /^#/ ? $0 : "# " $0)
	next
}

{
	sub(/\r$/, "")
	if ($0 != "")
		remember($0)
}

/^(not )?ok([ \t]|$)/ {
	result($0)
	next
}

/^1\.\.[0-9]+([ \t]|$)/ {
	plan_line($0)
	next
}

/^Bail out!/ {
	problem($0)
	emit("# " $0)
	next
}

/^TAP version/ || /^$/ {
	next
}

/^#/ {
	emit($0)
	next
}

{
	emit("# " $0)
}

END {
	if (insuite)
		end_suite("", "")
	if (!alldone) {
		n++
		failed++
		fails[++nfails] = "tap-run: the suites did not all run"
		emit("not ok " n " - tap-run: the suites did not all run")
	}
	emit("1.." n)
	emit("# " passed " passed, " failed " failed, " skipped " skipped")
	for (i = 1; i <= nskips; i++)
		emit("# skipped: " skips[i])
	for (i = 1; i <= nfails; i++)
		emit("# failed: " fails[i])
	exit failed > 0
}
