#!/bin/bash
# test-all-dash.sh — the machine view in a real terminal (tmux, issue 19):
# threadlab --all ranks a 4-thread OpenMP program pinned to one CPU by its
# factor, oversubscribed (other tests' programs may outrank it: the rows
# are checked sorted, not this one first); Tab and Shift-Tab sort, g groups by cgroup and back, K
# adds the kernel threads, F1
# lists the view's keys; Enter on that program's row (the cursor moved
# there) opens its attach screen and A
# comes back; q quits and leaves nothing running.  From an attach
# dashboard (-p PID) A shows the machine view and A again goes back.
# Prints TAP.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
. "$(dirname "$0")/../lib/tap-jobs.sh"
OMP="$B/tests/lib/omp-busy"
jobs_need "$OMP"
need_tmux all-dash
plan 7


start busy env OMP_NUM_THREADS=4 taskset -c 0 "$OMP"
row="^ +$busy omp-busy .* oversubscribed"

# ---- threadlab --all -----------------------------------------------------------
$T new-session -d -s all -x 120 -y 30 "exec env LC_ALL=C.UTF-8 '$TL' --all"
# The FACTOR column of the ranked rows, top to bottom (counted from the
# right: a name or a cgroup may hold spaces).
ranked() { sed -n '4,$p' "$tmp/pane" | awk '$1 ~ /^[0-9]+$/ && NF >= 12 { print $(NF - 4) }'; }
# The first screen, whole (a capture taken while the view writes a
# refresh may tear: it is taken again).
first_screen() {
	pane all >"$tmp/pane" && grep -Eq -- "$row" "$tmp/pane" && grep -q '^ machine: ' "$tmp/pane" &&
		[ "$(ranked | wc -l)" -ge 3 ] && ranked | sort -rn -c 2>/dev/null &&
		grep -q 'F1 help .*Enter attach .*q quit' "$tmp/pane"
}
if until_true 80 first_screen; then
	ok "threadlab --all: the machine's line, the pinned 4-thread program oversubscribed, the rows by factor, the key bar"
else
	notok "threadlab --all: the first screen" "$(cat "$tmp/pane")"
fi

$T send-keys -t all Tab
wait_pane all 'sort: CPU%$' 20 && s1=ok || s1=$(sed -n 2p "$tmp/pane")
$T send-keys -t all BTab
wait_pane all 'sort: factor$' 20 && s2=ok || s2=$(sed -n 2p "$tmp/pane")
$T send-keys -t all g
# Home: the list from its top (the view follows the cursor's process, which
# may sit deep in a long group, its group's line scrolled off).
wait_pane all 'grouped by cgroup' 20 && $T send-keys -t all Home &&
	wait_pane all '^ +\+ [^ ]+ \([0-9]+ processes\) ' 20 && s3=ok || s3=$(head -6 "$tmp/pane")
$T send-keys -t all g
wait_pane all 'sort: factor$' 20 && ! grep -qE ' \([0-9]+ processes\) ' "$tmp/pane" && s4=ok || s4=$(head -6 "$tmp/pane")
if [ "$s1$s2$s3$s4" = okokokok ]; then
	ok "Tab and Shift-Tab sort by the next and the previous column; g groups by cgroup and g again ungroups"
else
	notok "sorting and grouping keys" "Tab: $s1" "Shift-Tab: $s2" "g: $s3" "g again: $s4"
fi

# K: kernel threads join the ranking from the next one (ps counts them)
procs() { pane all | sed -n 's/^ machine: .*; \([0-9]*\) processes, .*/\1/p'; }
before=$(procs)
kthreads=$(ps -e -o ppid=,pid= | awk '$1 == 2 || $2 == 2' | wc -l)
$T send-keys -t all K
more_procs() { got=$(procs); [ -n "$got" ] && [ -n "$before" ] && [ "$got" -ge $((before + kthreads / 2)) ]; }
got=""
until_true 40 more_procs
$T send-keys -t all K
if [ -n "$got" ] && [ -n "$before" ] && [ "$kthreads" -gt 4 ] && [ "$got" -ge $((before + kthreads / 2)) ]; then
	echo "# $before processes, then $got ($kthreads kernel threads by ps)"
	ok "K adds the kernel threads to the ranking, K again hides them"
else
	notok "K shows kernel threads" "before '${before}', after '${got}', kernel threads $kthreads" "$(pane all)"
fi

$T send-keys -t all F1
if wait_pane all 'keys of the machine view' 20 && grep -q '^  g  *machine view: group by cgroup' "$tmp/pane" &&
	grep -q '^  Enter ' "$tmp/pane"; then
	ok "F1 in the machine view lists its own keys (from the key table)"
else
	notok "F1 in the machine view" "$(cat "$tmp/pane")"
fi
$T send-keys -t all x # any key closes the help

# The cursor to the program's row, then Enter.  The cursor follows its
# process when the ranking moves, so a row counted on one capture may be
# another process's by the time the keys land (a CI run opened a
# threadlab, then a process that had ended).  The cursor is walked down
# from the top instead until its row (drawn in reverse video) is the
# program's, and Enter is pressed there: it opens the program whatever
# the ranking does meanwhile.  A program above the cursor (the ranking
# moved during the walk) is looked for again from the top.
cursor_pid() {
	$T capture-pane -e -p -t all 2>/dev/null | sed -n '4,$p' | grep -a $'^\e\[7m' | head -n1 |
		sed $'s/\e\\[[0-9;]*m//g' | awk '{ print $1 }'
}
cursor_moved() { [ "$(cursor_pid)" != "$1" ]; }
cursor_to_busy() {
	local c
	for _ in $(seq 40); do
		c=$(cursor_pid)
		[ "$c" = "$busy" ] && return 0
		$T send-keys -t all Down
		until_true 10 cursor_moved "$c"
	done
	return 1
}
opened=""
for _ in 1 2 3; do
	$T send-keys -t all Home
	wait_pane all "$row" 50 || continue
	cursor_to_busy || continue
	$T send-keys -t all Enter
	wait_pane all "attach [0-9]+ " 200 || break
	if tap_file_has "$tmp/pane" "attach $busy omp-busy"; then
		opened=1
		break
	fi
	echo "# the cursor's row was another process's: $(grep -o 'attach [0-9]* [^ ]*' "$tmp/pane" | head -n1)"
	$T send-keys -t all A
	wait_pane all "$row" 50 || break
done
if [ -n "$opened" ]; then
	$T send-keys -t all A
	if wait_pane all "$row" 50 && grep -q '^ machine: ' "$tmp/pane"; then
		ok "Enter opens the attach screen of the process under the cursor; A goes back to the machine view"
	else
		notok "A back to the machine view" "$(cat "$tmp/pane")"
	fi
else
	# its last lines first (the message line, the key bar): the run's
	# summary shows a failure's first lines only
	notok "Enter opens the attach screen" "$(grep -v '^ *$' "$tmp/pane" | tail -n 3)" \
		"$(head -n 6 "$tmp/pane")"
fi

tl=$(pane_proc all threadlab)
$T send-keys -t all q
if until_true 50 no_session all && { [ -z "$tl" ] || until_true 30 ended "$tl"; }; then
	ok "q quits threadlab --all: nothing left running"
else
	notok "q quits threadlab --all" "$(pane all)" "threadlab pid ${tl:-unknown}"
fi

# ---- A from an attach dashboard ----------------------------------------------------
$T new-session -d -s att -x 120 -y 30 "exec env LC_ALL=C.UTF-8 '$TL' -p $busy"
if wait_pane att "attach $busy omp-busy" 50; then
	$T send-keys -t att A
	if wait_pane att "$row" 50 && grep -q '^ machine: ' "$tmp/pane"; then
		$T send-keys -t att A
		if wait_pane att "attach $busy omp-busy" 30; then
			ok "A in an attach dashboard shows the machine view; A again goes back"
		else
			notok "A again goes back" "$(cat "$tmp/pane")"
		fi
	else
		notok "A shows the machine view" "$(cat "$tmp/pane")"
	fi
else
	notok "the attach dashboard starts" "$(cat "$tmp/pane")"
fi
$T send-keys -t att q
stop "$busy"
