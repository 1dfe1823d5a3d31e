#!/bin/bash
# test-hostile-lifetime.sh — processes that leave or die under threadlab,
# end to end: what -- CMD moves out of its group (setsid) is stopped with
# it in --batch, --diagnose, the dashboard and on SIGTERM, and counted; the
# lab's anchor killed four times under the dashboard, and once during a
# sweep; a dashboard whose terminal goes away with no SIGHUP (its session's
# leader ignores it and stays) ends rather than reading nothing forever.
# The four launches run side by side.  Prints TAP, its plan first.
set -u

. "$(dirname "$0")/../lib/tap-lib.sh"

plan 8

have_tmux=0
tmux_socket hostile-lifetime
tmux_installed && have_tmux=1

# ---- 1: what -- CMD moves out of its group (setsid) goes with it --------------
# escapee_cmd NAME: a command whose child calls setsid, its pid in $tmp/NAME.pid.
escapee_cmd() { echo "setsid sleep 300 & echo \$! >$tmp/$1.pid; sleep 300"; }
# escapee_start NAME MODE...: starts threadlab MODE... -- escapee_cmd NAME
# (stderr in $tmp/NAME.err): in the tmux session NAME for "dash", else in
# the background, its pid in $started.
escapee_start() {
	local name=$1
	shift
	if [ "$1" = dash ]; then
		started=""
		[ $have_tmux = 1 ] || return 0
		$T new-session -d -s "$name" -x 100 -y 30 \
			"$TL -- sh -c '$(escapee_cmd "$name")' 2>$tmp/$name.err; echo EXITED \$?; sleep 30"
		return 0
	fi
	if [ "$1" = term ]; then
		shift
		"$TL" "$@" -- sh -c "$(escapee_cmd "$name")" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	else
		limited 60 "$TL" "$@" -- sh -c "$(escapee_cmd "$name")" >/dev/null 2>"$tmp/$name.err" &
	fi
	started=$!
	track $started
}
# escapee_end NAME MODE PID: waits for the run of escapee_start to end;
# ends it first with q for "dash", with SIGTERM once it printed a sample
# for "term".
escapee_end() {
	case $2 in
	dash)
		[ $have_tmux = 1 ] || return 0
		wait_pane "$1" 'command' 300
		until_true 100 test -s "$tmp/$1.pid"
		$T send-keys -t "$1" q
		wait_pane "$1" 'EXITED' 100
		$T kill-session -t "$1" 2>/dev/null
		;;
	term)
		until_true 100 test -s "$tmp/$1.pid"
		until_true 300 grep -q . "$tmp/$1.out"
		kill -TERM "$3"
		gone "$3"
		stop "$3"
		;;
	*) wait "$3" ;;
	esac
}
# escapee_check NAME DESCRIPTION: the escapee is gone and the exit message
# counted it.
escapee_check() {
	if [ "$1" = dash ] && [ $have_tmux = 0 ]; then
		skip "$2" "tmux is needed (Debian package tmux)"
		return
	fi
	local esc
	esc=$(cat "$tmp/$1.pid" 2>/dev/null)
	if [ -z "$esc" ]; then
		notok "$2" "the command never started its escapee" "$(cat "$tmp/$1.err")"
		return
	fi
	track "$esc"
	if gone "$esc" && grep -q 'stopped 1 process the command had moved out of its group' "$tmp/$1.err"; then
		ok "$2"
	else
		notok "$2" "escapee $esc: $(ps -o pid,sid,stat,args -p "$esc" | tail -n +2)" "$(cat "$tmp/$1.err")"
	fi
}
escapee_start batch --batch -c 2 -i 0.3
e_batch=$started
escapee_start diag --diagnose --seconds 1
e_diag=$started
escapee_start dash dash
escapee_start term term --batch -i 0.3
e_term=$started
escapee_end batch batch "$e_batch"
escapee_end diag diag "$e_diag"
escapee_end dash dash
escapee_end term term "$e_term"
escapee_check batch "--batch -c 2 -- CMD: the child that called setsid is stopped and counted"
escapee_check diag "--diagnose -- CMD: the same"
escapee_check dash "the dashboard on -- CMD, q: the same"
escapee_check term "--batch -- CMD ended by SIGTERM: the same"

# threadlab itself SIGKILLed (the OOM killer, kill -9): its guard kills the
# command's group, and what the command moved out of it that threadlab had
# told it of: a child that called setsid, and one whose parent ended at
# once (adopted by threadlab, the subreaper).  threadlab tells its guard
# every 2 s: killed once 16 samples at 0.3 s came after both existed (two
# scans: one may fall between a fork and its child's setsid).
"$TL" --batch --format json -i 0.3 -- sh -c "setsid sleep 300 & echo \$! >$tmp/k.a; \
	sh -c 'setsid sleep 301 & echo \$! >$tmp/k.b'; sleep 300" >"$tmp/k.out" 2>"$tmp/k.err" &
k_tl=$!
track $k_tl
until_true 300 test -s "$tmp/k.a" && until_true 300 test -s "$tmp/k.b"
k_seen=$(wc -l <"$tmp/k.out")
until_true 300 test "$(wc -l <"$tmp/k.out")" -ge $((k_seen + 16))
k_a=$(cat "$tmp/k.a" 2>/dev/null) k_b=$(cat "$tmp/k.b" 2>/dev/null)
track ${k_a:+"$k_a"} ${k_b:+"$k_b"}
kill -KILL $k_tl
if [ -n "$k_a" ] && [ -n "$k_b" ] && gone "$k_a" "$k_b"; then
	ok "threadlab SIGKILLed: its guard kills what -- CMD moved out of its group (setsid, and adopted)"
else
	notok "setsid'd processes after SIGKILL" "$(ps -o pid,ppid,sid,stat,args -p "${k_a:-0},${k_b:-0}" 2>&1)" "$(cat "$tmp/k.err")"
fi

# ---- 2: repeated deaths, an anchor killed in a sweep ---------------------------
# anchor_of PID: the live anchor of threadlab PID's lab (pgrep, not ps: a
# ps of every process took 0.3 s on a loaded box).
anchor_of() {
	local a
	for a in $(pgrep -P "$1" -x tl-anchor); do
		alive "$a" && echo "$a" && return 0
	done
	return 1
}
if [ $have_tmux = 1 ]; then
	$T new-session -d -s deaths -x 200 -y 30 "$TL --size 256 -i 0.2; echo EXITED \$?; sleep 30"
	wait_pane deaths 'GFLOP/s' 300
	tlp=$(pane_proc deaths threadlab)
	for k in 1 2 3 4; do
		a=$(until_out 100 anchor_of "$tlp")
		[ -n "$a" ] && kill -9 "$a"
		wait_pane deaths "restart $k|no more restarts" 300
	done
	if wait_pane deaths 'killed by signal 9: not restarted, it was restarted 3 times within 60 s: no more restarts; last view kept' 100; then
		ok "the dashboard, a fourth anchor death in a minute: the last signal and 'no more restarts' stay on the message line"
	else
		notok "dashboard after the fourth anchor death" "$(cat "$tmp/pane")"
	fi
	$T kill-session -t deaths 2>/dev/null
else
	skip "the dashboard after repeated anchor deaths" "tmux is needed (Debian package tmux)"
fi
(exec "$TL" --sweep --threads 1,2,3 --size 256 --seconds 1 >"$tmp/sw.out" 2>"$tmp/sw.err") &
sw=$!
track $sw
# Once the first row is out (rows are flushed as they come), the second
# setting runs: its anchor is killed mid-sweep.
until_true 600 grep -qE '^ +1 +1 ' "$tmp/sw.out"
a=$(until_out 50 anchor_of $sw)
[ -n "$a" ] && kill -9 "$a"
reap $sw 60
st=$reaped
rows=$(grep -cE '^ +1 +[123] ' "$tmp/sw.out")
if [ -n "$a" ] && [ "$st" = 0 ] && [ "$rows" = 3 ] &&
	grep -q "anchor (process $a) was killed by signal 9: restarted the workload" "$tmp/sw.err" &&
	! grep -q 'did not apply' "$tmp/sw.err"; then
	ok "an anchor killed during a sweep: said as such, the setting measured again, 3 rows"
else
	notok "anchor killed in a sweep" "anchor '$a', status $st, $rows rows" "$(cat "$tmp/sw.err")"
fi

# ---- 3: the terminal gone without a SIGHUP -------------------------------------
# The pane's shell leads the session, ignores SIGHUP and waits: the kernel
# signals only a session's leader when its terminal hangs up, so the
# dashboard (in the foreground, attached to a sleeping process) gets none.
# A hung-up terminal reads as end of file: it must end, not spin on it.
if [ $have_tmux = 1 ]; then
	"${tap_orphan_kill[@]}" sleep 300 &
	quiet=$!
	track $quiet
	$T new-session -d -s gone -x 100 -y 30 \
		"sh -c 'trap \"\" HUP; $TL -p $quiet -i 0.5; echo \$? >$tmp/gone.st; sleep 30'"
	wait_pane gone 'threadlab attach' 300
	tlp=$(pane_proc gone threadlab)
	sh_pid=$(pane_pid gone)
	[ -n "$sh_pid" ] && track "$sh_pid"
	$T kill-session -t gone 2>/dev/null
	if [ -n "$tlp" ] && until_true 50 ended "$tlp" && until_true 50 test -s "$tmp/gone.st"; then
		ok "the terminal gone with no SIGHUP: the dashboard ends (status $(cat "$tmp/gone.st"))"
	else
		notok "the terminal gone with no SIGHUP" "threadlab '$tlp' still runs: $(ps -o pid,stat,pcpu,args -p "${tlp:-0}" 2>&1 | tail -n 1)" "$(cat "$tmp/pane" 2>/dev/null)"
		[ -n "$tlp" ] && kill -9 "$tlp" 2>/dev/null
	fi
else
	skip "the terminal gone with no SIGHUP" "tmux is needed (Debian package tmux)"
fi
