#!/bin/bash
# test-sweep-dash.sh — the dashboard's sweep key in tmux: s measures each
# thread count in turn (1x1 .. 1x4) into the scaling chart, ends, and gives
# the user's own setting back.  A sweep waits for each point's steady
# state, which other load on the machine delays: a CPU-share test
# (SERIAL_TESTS in Makefile.am).  The rest of the dashboard end to end is
# test-lab-dash.sh.  Prints TAP; a private tmux server (-L) is killed on exit
# with every process the test started.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
tl_pid=

need_tmux sweep
plan 2
$T new-session -d -s keep -x 80 -y 24 "sleep 600"
$T new-session -d -s lab -x 120 -y 40 "exec env LC_ALL=C.UTF-8 '$TL' -i 0.5 --threads 2"
tl_pid=$(pane_pid lab)
track "$tl_pid"
wait_pane lab '^threadlab lab .*threads 2 \|' 150
$T send-keys -t lab 's'
# A row the fit left out (a contended or throttled point) carries a '*'.
if wait_pane lab 'sweep done' 450 && grep -qE '  1x3\*? ' "$tmp/pane" && grep -qE '  1x4\*? ' "$tmp/pane"; then
	ok "s: the sweep fills the chart (1x1 .. 1x4) and ends"
else
	notok "s: the sweep fills the chart" "$(cat "$tmp/pane")"
fi
if wait_pane lab '^threadlab lab .*threads 2 \|' 100; then
	ok "s: the user's 2 threads are back after the sweep"
else
	notok "s: the user's threads are back" "$(head -n1 "$tmp/pane")"
fi
$T send-keys -t lab q
reap "$tl_pid" 20
