#!/bin/bash
# test-scale.sh — the threads table of a target with more threads than rows:
# it says "N more", and PgDn, PgUp, End and Home move through every row.
# The real dashboard in a private tmux server, attached to
# bench/threads-target.  Prints TAP; kills all it started on every path.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
TARGET="$B/bench/threads-target"
tpid=

need_tmux scale "$TARGET"
plan 6
NTHREADS=300
exec 3< <(exec "$TARGET" "$NTHREADS")
read -r tpid <&3 || { notok "bench/threads-target $NTHREADS did not start"; exit 1; }
track "$tpid"

# more: the count of the "N more" line, or "none".
more() { pane s | sed -n 's/.*\.\.\. \([0-9][0-9]*\) more rows.*/\1/p' | head -n1 | grep . || echo none; }
# rows: the TIDs shown, in screen order.
rows() { pane s | awk -v p="$tpid" '$1 == p && $2 ~ /^[0-9]+$/ { print $2 }'; }
more_is() { [ "$(more)" "$1" "$2" ]; }

# Sorted by TID so that the order stands still between samples.
$T new-session -d -s s -x 100 -y 30 "exec env LC_ALL=C.UTF-8 '$TL' -p $tpid -i 0.5"
if ! until_true 150 more_is -gt 0; then
	notok "the threads table never said 'N more'" "$(pane s)"
	exit 1
fi
m0=$(more)
r0=$(rows | wc -l)
first0=$(rows | head -n1)
# 300 threads, the main thread and one process row: shown + more = 302
if [ $((m0 + r0)) -eq $((NTHREADS + 2)) ]; then
	ok "a $NTHREADS-thread target: $r0 rows shown, '... $m0 more rows' says the rest"
else
	notok "N more: shown $r0 + more $m0 is not $NTHREADS + 2" "$(pane s)"
fi

$T send-keys -t s NPage
if until_true 100 more_is -lt "$m0"; then
	m1=$(more)
	first1=$(rows | head -n1)
	[ "$first1" != "$first0" ] && ok "PgDn: the next page ($((m0 - m1)) rows on, first TID $first0 -> $first1)" ||
		notok "PgDn: rows did not move" "$(pane s)"
else
	notok "PgDn: the 'more' count did not fall" "$(pane s)"
fi

$T send-keys -t s End
if until_true 100 more_is = none; then
	last=$(rows | tail -n1)
	[ -n "$last" ] && ok "End: the last page, no 'more' line (last TID $last)" || notok "End: no rows" "$(pane s)"
else
	notok "End: a 'more' line is still there" "$(pane s)"
fi

$T send-keys -t s PPage
if until_true 100 more_is != none; then
	ok "PgUp from the end: rows follow again ('$(more) more')"
else
	notok "PgUp: still on the last page" "$(pane s)"
fi

$T send-keys -t s Home
if until_true 100 more_is -ge "$m0"; then
	ok "Home: back to the first page ('$(more) more')"
else
	notok "Home: not on the first page" "more $(more), was $m0" "$(pane s)"
fi

# every thread is reachable: page down to the end, collecting TIDs.  After
# each PgDn the next page is waited for (its first row differs, then two
# captures 0.2 s apart agree and hold a whole page), not a fixed time: a
# slow or half-drawn redraw would otherwise skip rows unseen.
declare -A seen
stuck=
first_is_not() { [ "$(rows | head -n1)" != "$1" ] && settled; }
settled() {
	local a b
	a=$(rows)
	sleep 0.2
	b=$(rows)
	# a whole page: as many rows as the first one had (the last page has
	# one more, no "more" line), never a redraw caught half-way that stood
	# still for a moment on a loaded box
	[ -n "$a" ] && [ "$a" = "$b" ] && [ "$(printf '%s\n' "$a" | wc -l)" -ge "$r0" ]
}
# walk: Home, then PgDn to the end, every TID shown into seen.
walk() {
	$T send-keys -t s Home
	until_true 100 more_is -ge "$m0" || { stuck="Home: not on the first page within 10 s"; return; }
	settled
	for _ in $(seq 40); do
		for t in $(rows); do seen[$t]=1; done
		[ "$(more)" = none ] && break
		top=$(rows | head -n1)
		$T send-keys -t s NPage
		# a page that does not come is said, never skipped over by the next PgDn
		until_true 100 first_is_not "$top" || { stuck="PgDn from first TID $top: no new page within 10 s"; return; }
	done
	for t in $(rows); do seen[$t]=1; done
}
# Up to three walks, their TIDs together: in CI the sanitizer build's
# screen on a loaded box was seen to pass over a page unseen now and then
# (273 of 301 once; never reproduced alone); a thread no walk shows is a
# failure, and so is a walk that gets stuck.
nseen() { # (an empty array is "unbound" under set -u)
	set +u
	echo "${#seen[@]}"
	set -u
}
walks=0
while [ $walks -lt 3 ] && [ -z "$stuck" ] && [ "$(nseen)" -lt $((NTHREADS + 1)) ]; do
	walk
	walks=$((walks + 1))
	echo "# walk $walks: $(nseen) of $((NTHREADS + 1)) threads seen so far"
done
got=$(nseen)
# every sleeping thread sorts the same way each sample: all are seen
[ -z "$stuck" ] && [ "$got" -eq $((NTHREADS + 1)) ] && ok "PgDn to the end shows all $got threads ($walks walk(s))" ||
	notok "PgDn reached $got of $((NTHREADS + 1)) threads" ${stuck:+"$stuck"} "$(pane s)"

