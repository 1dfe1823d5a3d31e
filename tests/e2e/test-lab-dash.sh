#!/bin/bash
# test-lab-dash.sh — the dashboard driving the lab, in tmux: keys in,
# screen and /proc and cgroup files checked; attached to a process, a
# launched command, signals that restore the terminal (its sweep key:
# test-sweep-dash.sh).  Prints TAP.  A private tmux server (-L) is used and
# killed on exit with every process the test started.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
HOSTILE="$B/tests/lib/hostile-name"
hostile_pid=
lab_pids=
tl_pid=

need_tmux lab
plan 21
# A session that outlives the others keeps the server up between them.
$T new-session -d -s keep -x 80 -y 24 "sleep 600"

children() { pgrep -P "$1" 2>/dev/null | tr '\n' ' '; }
# Thread names of the lab's helper processes (children of the anchor).
lab_names() {
	local a g
	for a in $(children "$tl_pid"); do
		for g in $(children "$a"); do cat /proc/"$g"/task/*/comm 2>/dev/null; done
	done
}
has_thread() { lab_names | grep -qx "$1"; }

# ---- no terminal ------------------------------------------------------------
"$TL" </dev/null >"$tmp/notty.out" 2>"$tmp/notty.err"
st=$?
if [ "$st" = 4 ] && grep -q -- '--batch' "$tmp/notty.err"; then
	ok "no terminal: exit 4 pointing to --batch ($(head -n1 "$tmp/notty.err"))"
else
	notok "no terminal: exit 4 pointing to --batch" "status $st" "$(cat "$tmp/notty.err")"
fi
$T new-session -d -s dumb -x 80 -y 24 \
	"TERM=dumb '$TL' 2>'$tmp/dumb.err'; echo \$? >'$tmp/dumb.rc'"
until_true 50 test -s "$tmp/dumb.rc"
if [ "$(cat "$tmp/dumb.rc" 2>/dev/null)" = 4 ] && grep -q -- '--batch' "$tmp/dumb.err"; then
	ok "TERM=dumb: exit 4 pointing to --batch"
else
	notok "TERM=dumb: exit 4 pointing to --batch" "rc $(cat "$tmp/dumb.rc" 2>/dev/null)" \
		"$(cat "$tmp/dumb.err" 2>/dev/null)"
fi

# ---- the lab ------------------------------------------------------------------
$T new-session -d -s lab -x 120 -y 40 "exec env LC_ALL=C.UTF-8 '$TL' -i 0.5"
tl_pid=$(pane_pid lab)
track "$tl_pid"
if wait_pane lab 'GFLOP/s [0-9.]+ .*ceiling [0-9]+\.[0-9]' 150; then
	ok "lab: the screen shows GFLOP/s and the ceiling"
else
	notok "lab: the screen shows GFLOP/s and the ceiling" "$(cat "$tmp/pane")"
fi
lab_pids="$(children "$tl_pid")"
for a in $lab_pids; do lab_pids="$lab_pids $(children "$a")"; done
track $lab_pids

# The key redraws at once (a benchmark's figure, not asserted here: a
# loaded box may take longer); the bound only catches a key that is lost.
t0=$(date +%s%N)
$T send-keys -t lab '+'
if wait_pane lab '^threadlab lab .*threads 2\*? ' 50; then
	ok "+: the header shows 2 threads ($((($(date +%s%N) - t0) / 1000000)) ms after the key)"
else
	notok "+: the header shows 2 threads within 5 s" "$(head -n1 "$tmp/pane")"
fi
if until_true 50 has_thread gemm0.w1 && wait_pane lab '^threadlab lab .*threads 2 \|' 50; then
	ok "+: the workload runs gemm0.w1 (in /proc) and the header says 2, applied"
else
	notok "+: the workload runs gemm0.w1 and the header says 2" "names: $(lab_names | tr '\n' ' ')" \
		"$(head -n1 "$tmp/pane")"
fi

# ---- quota -----------------------------------------------------------------
# The quota cgroup is the one that holds the lab's anchor when that is not
# threadlab's own: found from the anchor's PID, not by a name.
cg_dir() { lab_cgroup "$tl_pid"; }
quota_is() { # quota_is half|none
	local d f q
	d=$(cg_dir)
	[ -n "$d" ] || { [ "$1" = none ]; return; }
	if [ -f "$d/cpu.cfs_quota_us" ]; then
		q=$(cat "$d/cpu.cfs_quota_us")
		p=$(cat "$d/cpu.cfs_period_us")
		if [ "$1" = half ]; then [ "$((q * 2))" = "$p" ]; else [ "$q" = -1 ]; fi
		return
	fi
	for f in "$d/cpu.max" "$d"/*/cpu.max; do
		[ -f "$f" ] || continue
		read -r q p <"$f"
		if [ "$1" = half ]; then [ "$q" != max ] && [ "$((q * 2))" = "$p" ] && return 0
		else [ "$q" = max ] || return 1; fi
	done
	[ "$1" = none ]
}
$T send-keys -t lab '}'
if until_true 100 quota_is half; then
	cg_track "$(cg_dir)"
	if wait_pane lab '^threadlab lab .*quota 0\.5 \|' 100; then
		ok "}: a 0.5-CPU quota in $(cg_dir) and the header says so"
	else
		notok "}: header shows the quota" "$(head -n1 "$tmp/pane")"
	fi
	$T send-keys -t lab '{'
	if until_true 100 quota_is none && wait_pane lab '^threadlab lab .*quota none \|' 100; then
		ok "{: the quota is lifted in the cgroup files and on screen"
	else
		notok "{: the quota is lifted" "$(cat "$(cg_dir)"/cpu.cfs_quota_us 2>/dev/null)"
	fi
else
	pane lab >"$tmp/pane"
	why=$(tail -n1 "$tmp/pane" | sed 's/  *$//')
	if quota_capable; then
		notok "}: no quota cgroup, though root has a writable cpu controller" "${why:-unknown}" "$(cat "$tmp/pane")"
		notok "{: quota lifted (no quota cgroup)"
	else
		skip "}: quota applied in the cgroup files" "$quota_why: ${why:-unknown}"
		skip "{: quota lifted" "$quota_why"
	fi
	$T send-keys -t lab 'u'
fi

# ---- resize ----------------------------------------------------------------
$T resize-window -t lab -x 50 -y 12
wait_pane lab 'too small' 100 && r1=0 || r1=1
$T resize-window -t lab -x 120 -y 40
if [ $r1 = 0 ] && wait_pane lab 'GFLOP/s' 100 && alive "$tl_pid"; then
	ok "resize to 50x12 shows the notice, back to 120x40 redraws, no crash"
else
	notok "resize 50x12 and back" "$(cat "$tmp/pane")"
fi

# ---- quit ------------------------------------------------------------------
cgdir=$(cg_dir)
tl_gone() { ! alive "$tl_pid"; }
none_left() { for p in $lab_pids; do alive "$p" && return 1; done; return 0; }
$T send-keys -t lab 'q'
if until_true 50 tl_gone; then
	ok "q: threadlab exits"
else
	notok "q: threadlab exits"
fi
if until_true 100 none_left && { [ -z "$cgdir" ] || until_true 100 test ! -d "$cgdir"; }; then
	ok "q: no threadlab-anchor / threadlab-gemm process and no cgroup left (${cgdir:-no cgroup made})"
else
	left=
	for p in $lab_pids; do alive "$p" && left="$left $p($(cat /proc/"$p"/comm 2>/dev/null))"; done
	notok "q: nothing left behind" "processes:$left" "cgroup: $(ls -d "$cgdir" 2>/dev/null)"
fi

# ---- 80x24, two streams, a helper killed --------------------------------------
# The narrowest screen: every row fits by shorter labels (no "…" cut), the
# per-stream GFLOP/s and the useful-vs-busy CPU line show, and a helper the
# lab restarts after SIGKILL is reported on the message line.
$T new-session -d -s two -x 80 -y 24 "exec env LC_ALL=C.UTF-8 '$TL' -i 0.5 --streams 2"
two_pid=$(pane_pid two)
lab_pids="$lab_pids $two_pid"
track $two_pid
if wait_pane two '\| s0 [0-9]+ s1 [0-9]+ *$' 150 &&
	grep -Eq '^work [0-9.]+ of [0-9.]+ CPUs busy \([0-9.]+ spin/overhead\) \|' "$tmp/pane"; then
	ok "--streams 2 at 80x24: per-stream GFLOP/s (s0 … s1 …) next to useful vs busy CPU"
else
	notok "--streams 2 at 80x24: per-stream GFLOP/s and useful CPU" "$(cat "$tmp/pane")"
fi
two_anchor=$(pgrep -P "$two_pid" | head -n1)
two_lab=$two_anchor
for a in $two_lab; do two_lab="$two_lab $(children "$a")"; done
lab_pids="$lab_pids $two_lab"
track $two_lab
# A whole frame: a capture can fall inside a redraw (the bottom rows not
# drawn yet), so the key bar, the last row, must be in it.
wait_pane two '^F1 help .* q quit *$' 50
sed 's/ *$//' "$tmp/pane" >"$tmp/two"
if ! grep -q '…' "$tmp/two" &&
	head -n1 "$tmp/two" | grep -Eq '^threadlab lab \| sgemm n=768 \| thr 1 \| str 2 \| wrk 0 \| quota none \| every 0\.5s$' &&
	sed -n 2p "$tmp/two" | grep -q 'binds)$' && sed -n 3p "$tmp/two" | grep -Eq 's/s \| throttled .*%\)? \| PSI ' &&
	grep -Eq '^F1 help .* q quit$' "$tmp/two"; then
	ok "80x24: header, budget, pressure and key bar fit whole (short labels, no cut word)"
else
	notok "80x24: rows fit whole" "$(cat "$tmp/two")"
fi
helper=$(children "$two_anchor" | awk '{ print $1 }')
if [ -n "$helper" ] && kill -9 "$helper" 2>/dev/null &&
	wait_pane two 'stream [0-9]: helper killed by signal 9, restarted' 60; then
	ok "a helper killed with SIGKILL: the message line says so and that it was restarted"
else
	notok "helper killed: message line" "helper ${helper:-none}" "$(tail -n1 "$tmp/pane")"
fi
for a in $two_anchor; do two_lab="$two_lab $(children "$a")"; done # the restarted helper
lab_pids="$lab_pids $two_lab"
track $two_lab
$T send-keys -t two 'q'
two_gone() { for p in $two_pid $two_lab; do alive "$p" && return 1; done; return 0; }
if until_true 50 two_gone; then
	ok "q after the restart: threadlab, anchor and helpers gone"
else
	notok "q after the restart: nothing left" "$(ps -o pid,comm -p "$two_pid $two_lab" 2>/dev/null)"
fi

# ---- attach to hostile thread names ---------------------------------------------
if [ -x "$HOSTILE" ]; then
	"$HOSTILE" >"$tmp/hostile.out" &
	hostile_pid=$!
	track "$hostile_pid"
	until_true 30 grep -qs ready "$tmp/hostile.out"
	# The pane starts threadlab a moment late so that pipe-pane records
	# every byte it writes: capture-pane alone cannot fail (ncurses would
	# show a raw ESC as "^[" itself, and capture-pane never shows one).
	$T new-session -d -s att -x 100 -y 30 "sleep 0.5; exec env LC_ALL=C.UTF-8 '$TL' -i 0.5 -p $hostile_pid"
	$T pipe-pane -t att "cat >>'$tmp/att.raw'"
	if wait_pane att 'RED' 50; then
		pane att >"$tmp/att"
		# the names' own sequences never reach the terminal raw: the SGR, the
		# raw and encoded C1 CSI, the OSC title, the invalid bytes, BEL
		raw=$(python3 - "$tmp/att.raw" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
bad = [s for s in (b"\x1b[31mRED", b"\x9b2J", b"\xc2\x9b", b"\x1b]0;pw", b"\xff\xfe", b"\x07")
       if s in b]
print("%d bytes; raw: %r" % (len(b), bad) if bad or len(b) < 100 else "")
PY
)
		title=$($T display-message -p -t att '#{pane_title}')
		if [ -z "$raw" ] && grep -q $'\xef\xbf\xbd\[31mRED' "$tmp/att" &&
			grep -q $'\xef\xbf\xbd2J' "$tmp/att" && ! grep -q 'pw' <<<"$title"; then
			ok "attach: hostile names reach the pty only as replacement characters (raw stream via pipe-pane)"
		else
			notok "attach: hostile names made safe" "$raw" "title: $title" "$(cat "$tmp/att")"
		fi
		if ! grep -q 'GFLOP/s' "$tmp/att" && ! grep -q 'Scaling' "$tmp/att"; then
			ok "attach: no workload panels"
		else
			notok "attach: no workload panels"
		fi
	else
		notok "attach: the hostile process's threads appear" "$(cat "$tmp/pane")"
		notok "attach: no workload panels"
	fi
	kill -9 "$hostile_pid" 2>/dev/null
	reap "$hostile_pid" 30
	hostile_pid=
	if wait_pane att 'exited: last view kept' 100 && grep -q 'RED' "$tmp/pane"; then
		ok "attach: the target's exit is reported and the last view kept"
	else
		notok "attach: target exit reported" "$(cat "$tmp/pane")"
	fi
	$T send-keys -t att 'q'
else
	notok "attach: $HOSTILE not built"
	notok "attach: no workload panels"
	notok "attach: target exit"
fi

# ---- launch a command -------------------------------------------------------
$T new-session -d -s cmd -x 100 -y 30 "exec env LC_ALL=C.UTF-8 '$TL' -i 0.25 -- sh -c 'sleep 1; exit 3'"
if wait_pane cmd 'exited with status 3' 60; then
	ok "-- CMD: the command's exit status is shown"
else
	notok "-- CMD: exit status shown" "$(cat "$tmp/pane")"
fi
$T send-keys -t cmd 'q'

# ---- signals restore the terminal --------------------------------------------
# The pane's shell prints threadlab's status and whether the tty is back in
# canonical mode; the line only shows if the alternate screen was left too.
sig_check() { # sig_check NAME HOW EXPECTED-STATUS
	local sess="sig$1" sh_pid p pids
	$T new-session -d -s "$sess" -x 100 -y 30 \
		"'$TL' -i 0.5; echo EXIT=\$?; stty -a | tr ' ;' '\n\n' | grep -x -- '-\{0,1\}icanon'; sleep 30"
	sh_pid=$(pane_pid "$sess")
	if ! wait_pane "$sess" 'GFLOP/s' 100; then
		notok "$1: the dashboard starts" "$(cat "$tmp/pane")"
		return
	fi
	p=$(children "$sh_pid")
	pids="$(children "$p")"
	for a in $pids; do pids="$pids $(children "$a")"; done
	lab_pids="$lab_pids $pids"
	track $pids
	case "$2" in
	C-c) $T send-keys -t "$sess" C-c ;;
	*) kill -s "$2" "$p" ;;
	esac
	none() { for q in $pids; do alive "$q" && return 1; done; return 0; }
	if wait_pane "$sess" '^-?icanon$' 50 && grep -qx "EXIT=$3" "$tmp/pane" &&
		grep -qx 'icanon' "$tmp/pane" && until_true 100 none &&
		[ "$($T display-message -p -t "$sess" '#{alternate_on}')" = 0 ]; then
		ok "$1: terminal restored (canonical mode, normal screen), exit $3, workload gone"
	else
		notok "$1: terminal restored and workload gone" "$(cat "$tmp/pane")"
	fi
}
sig_check SIGTERM TERM 0
sig_check SIGINT C-c 0
sig_check SIGSEGV SEGV 139

