#!/bin/bash
# test-hostile.sh — outside input that used to crash or stall threadlab,
# end to end: a job printing absurd numbers (--progress-rate 1e308) to the
# dashboard and to --batch, an expression whose cost has no bound refused,
# a job flooding lines an expensive expression must match (samples keep
# their pace, SIGTERM and q answer), --progress-file and --log on files
# they cannot use, recordings with absurd numbers, a huge line and a zstd
# frame that inflates past what may be held, under a memory limit.
# Prints TAP, its plan first.
set -u
TL="${THREADLAB_BUILDDIR:-.}/threadlab"
SOCK="tl-hostile-$$"
T="tmux -u -L $SOCK -f /dev/null"
tmp=$(mktemp -d)
pids=()
cleanup() {
	$T kill-server 2>/dev/null
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$tmp"
}

. "$(dirname "$0")/tap-lib.sh"

plan 30

# The 500 'a's a line the expensive expression fails on.
long_a=$(printf '%0500d' 0 | tr 0 a)
flood="while :; do echo $long_a; done"

# ---- 1: absurd numbers from a job's output -----------------------------------
limited 30 "$TL" --batch --format json -i 0.3 -c 4 --progress '([0-9.e+a-z]+)it/s' --progress-rate \
	-- sh -c 'echo 10it/s; sleep 0.4; echo 1e308it/s; echo 1e999it/s; echo nanit/s; sleep 5' \
	>"$tmp/p.out" 2>"$tmp/p.err"
st=$?
if [ $st = 0 ] && [ "$(grep -c 'out of range' "$tmp/p.err")" = 1 ] &&
	[ "$(grep -c 'not a number' "$tmp/p.err")" = 1 ] && grep -q "'1e308'" "$tmp/p.err" &&
	python3 -c '
import json, math, sys
s = [json.loads(l) for l in open(sys.argv[1])]
p = s[-1]["progress"]
assert len(s) == 4 and math.isfinite(p["count"]) and p["count"] < 100, p
assert p["not_numbers"] == 3, p
' "$tmp/p.out" 2>"$tmp/py"; then
	ok "--progress-rate 1e308, 1e999, nan: not counted, each kind said once, the count finite"
else
	notok "absurd progress numbers" "status $st" "$(cat "$tmp/p.err" "$tmp/py")"
fi

# ---- 2: the dashboard survives them -------------------------------------------
# dash_quits DESCRIPTION ARGS ERE TENTHS: the dashboard with ARGS shows ERE,
# is still drawing 2 s later, and q ends it with status 0 within TENTHS.
dash_quits() {
	if ! command -v tmux >/dev/null; then
		skip "$1" "tmux is needed (Debian package tmux)"
		return
	fi
	$T new-session -d -x 100 -y 30 "$TL $2; echo EXITED \$?; sleep 30"
	if wait_pane 0 "$3" 80 && sleep 2 && pane 0 | grep -q 'progress' && ! pane 0 | grep -q EXITED; then
		$T send-keys -t 0 q
		if wait_pane 0 'EXITED 0' "$4"; then
			ok "$1"
		else
			notok "$1: q" "$(cat "$tmp/pane")"
		fi
	else
		notok "$1" "$(cat "$tmp/pane")"
	fi
	$T kill-server 2>/dev/null
}
dash_quits "dashboard: a job printing 1e308 it/s: the note shown, still drawing, q exits 0" \
	"--progress '([0-9.e+]+)it/s' --progress-rate -- sh -c 'while :; do echo 1e308it/s; echo 40it/s; sleep 0.1; done'" \
	'out of range' 50

# ---- 3: an expression whose cost has no bound ---------------------------------
limited 10 "$TL" --batch -c 1 --progress '(a*)*\1b' -- true >"$tmp/o" 2>"$tmp/e"
st=$?
if [ $st = 2 ] && grep -q 'backreferences are not supported' "$tmp/e" &&
	[ "$(wc -l <"$tmp/e")" = 1 ]; then
	ok "--progress '(a*)*\\1b': refused in one line naming the backreference, exit 2"
else
	notok "a backreference" "status $st" "$(cat "$tmp/e")"
fi
limited 10 "$TL" --headless --serve 0 --match '(x{1,500}){1,500}' >"$tmp/o" 2>"$tmp/e"
st=$?
if [ $st = 2 ] && grep -q 'cost per line' "$tmp/e"; then
	ok "--match with nested repetitions: refused, exit 2"
else
	notok "--match nested repetitions" "status $st" "$(cat "$tmp/e")"
fi

# ---- 4: a flood of lines an expensive expression must match -------------------
start=$(date +%s.%N)
limited 40 "$TL" --batch --format json -i 0.5 -c 6 --progress '(.{1,190}a){1,5}x' \
	-- sh -c "$flood" >"$tmp/f.out" 2>"$tmp/f.err"
st=$?
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
if [ $st = 0 ] && [ "$(wc -l <"$tmp/f.out")" = 6 ] && awk -v t="$took" 'BEGIN { exit !(t < 12) }' &&
	python3 -c '
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
iv = [x["interval"] for x in s[1:]]
assert all(0.3 < i < 1.5 for i in iv), iv
assert s[-1]["progress"]["skipped"] > 0, s[-1]["progress"]
' "$tmp/f.out" 2>"$tmp/py" && grep -q 'faster than they match' "$tmp/f.err"; then
	ok "a flood of 500-byte lines: 6 samples at their pace in ${took%.*} s, lines over the budget counted and said"
else
	notok "flood of lines" "status $st, ${took} s" "$(cat "$tmp/py")" "$(head -c 600 "$tmp/f.err")"
fi
"$TL" --batch -i 0.5 --progress '(.{1,190}a){1,5}x' -- sh -c "$flood" >/dev/null 2>&1 &
pid=$!
pids+=($pid)
sleep 2
kill -TERM $pid
if gone $pid; then
	ok "the same flood: SIGTERM ends --batch within 3 s"
else
	notok "SIGTERM during a flood" "threadlab $pid still running"
fi
stop $pid
dash_quits "the same flood in the dashboard: still drawing, q quits within 3 s" \
	"--progress '(.{1,190}a){1,5}x' -- sh -c '$flood'" 'progress' 30

# ---- 5: a group that never captures a number ----------------------------------
limited 20 "$TL" --batch --format json -i 0.3 -c 3 --progress 'step (x*)' \
	-- sh -c 'while :; do echo step 5; sleep 0.05; done' >"$tmp/g.out" 2>"$tmp/g.err"
if [ "$(grep -c "the group captured '', not a number" "$tmp/g.err")" = 1 ]; then
	ok "a group that never captures a number: said once, not a silent 0"
else
	notok "a group that never captures" "$(cat "$tmp/g.err")"
fi
limited 20 "$TL" --batch --format json -i 0.3 -c 3 --progress 'step( (x+))?' \
	-- sh -c 'while :; do echo step 5; sleep 0.05; done' >"$tmp/g2.out" 2>"$tmp/g2.err"
if [ "$(grep -c "the line 'step 5', matched with no group taking part" "$tmp/g2.err")" = 1 ] &&
	python3 -c '
import json, sys
p = [json.loads(l) for l in open(sys.argv[1])][-1]["progress"]
assert p["count"] == 0 and p["matches"] == 0 and p["not_numbers"] >= 1, p
' "$tmp/g2.out" 2>"$tmp/py"; then
	ok "a group that takes no part: said once, not counted as a line"
else
	notok "a group that takes no part" "$(cat "$tmp/g2.err" "$tmp/py")"
fi

# ---- 6: files --progress-file and --log cannot use ----------------------------
sleep 30 &
sp=$!
pids+=($sp)
limited 10 "$TL" --batch -c 1 -p $sp --progress x --progress-file "$tmp" >/dev/null 2>"$tmp/e"
st1=$?
limited 10 "$TL" --batch -c 1 -p $sp --progress x --progress-file "$tmp/none/x.log" >/dev/null 2>"$tmp/e2"
st2=$?
if [ $st1 = 2 ] && grep -q 'is a directory' "$tmp/e" && [ $st2 = 2 ] && grep -q 'no such file' "$tmp/e2"; then
	ok "--progress-file on a directory and on a missing path: refused, exit 2"
else
	notok "--progress-file refusals" "$st1: $(cat "$tmp/e")" "$st2: $(cat "$tmp/e2")"
fi
stop $sp
limited 60 "$TL" --batch -c 2 -i 0.2 --size 256 --format json --record "$tmp/rec.jsonl" >/dev/null 2>&1
cp "$tmp/rec.jsonl" "$tmp/rec.before"
limited 10 "$TL" --log "$tmp/rec.jsonl" </dev/null >/dev/null 2>"$tmp/e"
st=$?
if [ $st = 2 ] && grep -q 'not an experiment log' "$tmp/e" && cmp -s "$tmp/rec.jsonl" "$tmp/rec.before"; then
	ok "--log on a recording: refused, exit 2, the recording untouched"
else
	notok "--log on a recording" "status $st" "$(cat "$tmp/e")"
fi

# ---- 7: recordings of absurd numbers and hostile size -------------------------
head -n 2 "$tmp/rec.jsonl" >"$tmp/abs.jsonl"
sed -n 3p "$tmp/rec.jsonl" | sed 's/"effective":[0-9.]*/"effective":1e308/' >>"$tmp/abs.jsonl"
sed -n 2p "$tmp/rec.jsonl" | sed 's/"interval":[0-9.]*/"interval":-1/' >>"$tmp/abs.jsonl"
limited 20 "$TL" --replay "$tmp/abs.jsonl" --batch --format text >"$tmp/o" 2>"$tmp/e"
st=$?
if [ $st = 0 ] && grep -q 'out of range' "$tmp/e" && ! grep -Eq '[0-9]{16}' "$tmp/o" &&
	[ -s "$tmp/o" ]; then
	ok "--replay of 1e308 and an interval of -1: those samples skipped and named, no 300-digit number"
else
	notok "replay of absurd numbers" "status $st" "$(cat "$tmp/e")" "$(grep -Eo '[0-9]{16,}' "$tmp/o" | head -3)"
fi
{
	head -n 2 "$tmp/rec.jsonl"
	printf '{"time":"2026-12-01T00:00:00.000Z","pad":"'
	head -c $((70 << 20)) /dev/zero | tr '\0' x
	printf '"}\n'
	sed -n 3p "$tmp/rec.jsonl"
} >"$tmp/huge.jsonl"
limited 30 "$TL" --replay "$tmp/huge.jsonl" --batch --format json >"$tmp/o" 2>"$tmp/e"
st=$?
if [ $st = 0 ] && grep -q '70 MiB, over the 64 MiB' "$tmp/e" && [ "$(wc -l <"$tmp/o")" = 2 ]; then
	ok "--replay of a 70 MiB line: named and skipped, the two samples around it replayed"
else
	notok "replay of a huge line" "status $st" "$(cat "$tmp/e")"
fi
rm -f "$tmp/huge.jsonl"
if ! command -v zstd >/dev/null; then
	skip "a zstd frame past 256 MiB" "the zstd tool is needed (Debian package zstd)"
	skip "a zstd frame under ulimit -v" "the zstd tool is needed (Debian package zstd)"
else
	limited 60 "$TL" --batch -c 2 -i 0.2 --size 256 --format json --record "$tmp/rec.jsonl.zst" >/dev/null 2>&1
	cp "$tmp/rec.jsonl.zst" "$tmp/bomb.zst"
	head -c $((300 << 20)) /dev/zero | tr '\0' ' ' | zstd -q -1 -c >>"$tmp/bomb.zst"
	size=$(stat -c %s "$tmp/bomb.zst")
	limited 30 "$TL" --replay "$tmp/bomb.zst" --batch --format json >"$tmp/o" 2>"$tmp/e"
	st=$?
	if [ $st = 0 ] && grep -q 'inflates past 256 MiB' "$tmp/e" && [ "$(wc -l <"$tmp/o")" = 2 ] &&
		[ "$size" -lt 100000 ]; then
		ok "--replay of a $((size / 1024)) KiB .zst inflating to 300 MiB: read up to that frame, said"
	else
		notok "zstd bomb" "status $st, $size bytes" "$(cat "$tmp/e")"
	fi
	cp "$tmp/rec.jsonl.zst" "$tmp/big.zst"
	{ head -c $((200 << 20)) /dev/zero | tr '\0' ' '; echo; } | zstd -q -1 -c >>"$tmp/big.zst"
	if ldd "$TL" 2>/dev/null | grep -q libasan; then
		skip "a zstd frame under ulimit -v" "an ASan build cannot start under an address-space limit"
	else
		(
			ulimit -v 200000
			exec "$TL" --replay "$tmp/big.zst" --batch --format json
		) >"$tmp/o" 2>"$tmp/e"
		st=$?
		if [ $st = 0 ] && grep -q 'out of memory' "$tmp/e" && [ "$(wc -l <"$tmp/o")" = 2 ]; then
			ok "a 200 MiB frame under ulimit -v 200 MB: the message names memory, the samples before it replay"
		else
			notok "zstd frame under ulimit -v" "status $st" "$(cat "$tmp/e")"
		fi
	fi
fi

# ---- 8: what -- CMD moves out of its group (setsid) goes with it --------------
# escapee MODE...: runs threadlab MODE... -- a command whose child calls
# setsid, ends it (q in tmux for the dashboard, SIGTERM with "term"), and
# checks the escapee is gone and the exit message counted it.
setsid_cmd="setsid sleep 300 & echo \$! >$tmp/esc.pid; sleep 300"
escapee() {
	local what=$1
	shift
	rm -f "$tmp/esc.pid"
	if [ "$1" = dash ]; then
		if ! command -v tmux >/dev/null; then
			skip "$what" "tmux is needed (Debian package tmux)"
			return
		fi
		$T new-session -d -x 100 -y 30 "$TL -- sh -c '$setsid_cmd' 2>$tmp/esc.err; echo EXITED \$?; sleep 30"
		wait_pane 0 'command' 80
		for _ in $(seq 50); do [ -s "$tmp/esc.pid" ] && break; sleep 0.1; done
		$T send-keys -t 0 q
		wait_pane 0 'EXITED' 50
		$T kill-server 2>/dev/null
	elif [ "$1" = term ]; then
		shift
		"$TL" "$@" -- sh -c "$setsid_cmd" >/dev/null 2>"$tmp/esc.err" &
		local tl=$!
		pids+=($tl)
		for _ in $(seq 50); do [ -s "$tmp/esc.pid" ] && break; sleep 0.1; done
		sleep 0.5
		kill -TERM $tl
		gone $tl
		stop $tl
	else
		limited 30 "$TL" "$@" -- sh -c "$setsid_cmd" >/dev/null 2>"$tmp/esc.err"
	fi
	local esc
	esc=$(cat "$tmp/esc.pid" 2>/dev/null)
	if [ -z "$esc" ]; then
		notok "$what" "the command never started its escapee" "$(cat "$tmp/esc.err")"
		return
	fi
	pids+=($esc)
	if gone "$esc" && grep -q 'stopped 1 process the command had moved out of its group' "$tmp/esc.err"; then
		ok "$what"
	else
		notok "$what" "escapee $esc: $(ps -o pid,sid,stat,args -p "$esc" | tail -n +2)" "$(cat "$tmp/esc.err")"
	fi
}
escapee "--batch -c 2 -- CMD: the child that called setsid is stopped and counted" --batch -c 2 -i 0.3
escapee "--diagnose -- CMD: the same" --diagnose --seconds 1
escapee "the dashboard on -- CMD, q: the same" dash
escapee "--batch -- CMD ended by SIGTERM: the same" term --batch -i 0.3

# ---- 9: a threadlab in a PID namespace keeps its quota cgroup -----------------
# The namespaced threadlab gets a pid that is no process on the host (set
# through ns_last_pid), as the one that lost its workload had.  Both it and
# the host threadlab run in a cgroup of this test's own (tcg), so that
# their lab cgroups are nested in it, out of sight of the stale-cgroup
# cleanup of any other threadlab on this machine.
ns_cleanup() {
	[ -n "${ns_u:-}" ] && kill -TERM "$ns_u" 2>/dev/null && gone "$ns_u"
	[ -n "${ns_u:-}" ] && stop "$ns_u"
	for d in "$tcg"/threadlab-*; do cg_remove "$d"; done
	cg_remove "$tcg"
}
if ! quota_capable; then
	for what in "a namespaced threadlab's cgroup survives a host threadlab's start" \
		"its workload is still under its quota" "its cgroup removed from outside: made again, quota kept"; do
		skip "$what" "$quota_why"
	done
elif ! command -v unshare >/dev/null; then
	for what in 1 2 3; do skip "PID namespace case $what" "unshare is needed (Debian package util-linux)"; done
else
	want=""
	max=$(cat /proc/sys/kernel/pid_max)
	for c in $(shuf -i $((max / 2))-$((max - 2)) -n 50); do
		[ -e "/proc/$c" ] || [ -e "/proc/$((c - 1))" ] || { want=$c; break; }
	done
	tcg=""
	for m in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct /sys/fs/cgroup; do
		[ -w "$m/cgroup.procs" ] && mkdir "$m/tl-hostile-$$" 2>/dev/null && tcg="$m/tl-hostile-$$" && break
	done
	[ -f "$tcg/cgroup.subtree_control" ] && echo +cpu >"$tcg/cgroup.subtree_control" 2>/dev/null
	(
		echo $BASHPID >"$tcg/cgroup.procs"
		exec unshare --pid --fork --kill-child --mount-proc sh -c "echo $((want - 1)) >/proc/sys/kernel/ns_last_pid; \
			$TL --batch --cpus 0.5 --size 256 -i 0.5 --format json; true"
	) >"$tmp/ns.out" 2>"$tmp/ns.err" &
	ns_u=$!
	pids+=($ns_u)
	cg="$tcg/threadlab-$want"
	for _ in $(seq 100); do
		[ -n "$(cat "$cg/cgroup.procs" 2>/dev/null)" ] && break
		sleep 0.1
	done
	if [ -z "$(cat "$cg/cgroup.procs" 2>/dev/null)" ]; then
		notok "a namespaced threadlab's cgroup survives a host threadlab's start" "no cgroup threadlab-$want" "$(cat "$tmp/ns.err")"
		skip "its workload is still under its quota" "no cgroup to check"
		skip "its cgroup removed from outside: made again, quota kept" "no cgroup to check"
	else
		# its lab is up when it printed a sample: only then is the set of
		# its cgroup's processes settled (a slow start moved its helper in
		# after the first look, once)
		for _ in $(seq 100); do grep -q . "$tmp/ns.out" 2>/dev/null && break; sleep 0.1; done
		before=$(cat "$cg/cgroup.procs" | sort | tr '\n' ' ')
		(
			echo $BASHPID >"$tcg/cgroup.procs"
			exec timeout -k 5 60 "$TL" --batch -c 2 -i 0.3 --cpus 1 --size 256
		) >/dev/null 2>"$tmp/host.err"
		if [ -d "$cg" ] && [ "$(cat "$cg/cgroup.procs" | sort | tr '\n' ' ')" = "$before" ]; then
			ok "a namespaced threadlab's cgroup threadlab-$want (no such host pid) survives a host threadlab's start"
		else
			notok "namespaced cgroup after a host start" "$cg: $(ls "$cg" 2>&1 | head -3)" "before: $before" "$(cat "$tmp/host.err")"
		fi
		sleep 1.5
		if [ "$(cat "$cg/cpu.cfs_quota_us" 2>/dev/null)" = 50000 ] &&
			tail -n 1 "$tmp/ns.out" | python3 -c '
import json, sys
s = json.loads(sys.stdin.readline())
assert s["budget"]["quota"] == 0.5 and not s["workload"].get("error"), (s["budget"], s["workload"].get("error"))
' 2>"$tmp/py"; then
			ok "its workload is still under its 0.5-CPU quota, no error in its samples"
		else
			notok "namespaced quota kept" "$(cat "$tmp/py")" "$(cat "$cg/cpu.cfs_quota_us" 2>&1)"
		fi
		# What a threadlab that judged by pid alone did: its cgroup removed,
		# its anchor killed.  The restarted workload is put under the quota
		# again, in a cgroup made anew.
		anchor=""
		for p in $(cat "$cg/cgroup.procs"); do
			[ "$(cat /proc/$p/comm 2>/dev/null)" = tl-anchor ] && anchor=$p
			echo "$p" >"$tcg/cgroup.procs"
		done
		rmdir "$cg"
		[ -n "$anchor" ] && kill -9 "$anchor"
		again=""
		# Two events, in either order on a loaded box: the cgroup made
		# again with the workload in it, and the restart said.
		for _ in $(seq 200); do
			again=$(ls -d "$tcg/threadlab-$want"* 2>/dev/null | head -n1)
			[ -n "$again" ] && [ -n "$(cat "$again/cgroup.procs" 2>/dev/null)" ] &&
				grep -q 'restarted the workload' "$tmp/ns.err" && break
			sleep 0.1
		done
		if [ -n "$again" ] && [ "$(cat "$again/cpu.cfs_quota_us")" = 50000 ] && [ -n "$(cat "$again/cgroup.procs" 2>/dev/null)" ] &&
			grep -q 'restarted the workload' "$tmp/ns.err"; then
			ok "its cgroup removed from outside and its anchor killed: the workload is in a new one, under 0.5 CPUs again"
		else
			notok "quota after the cgroup was removed" "again='$again'" "$(tail -n 3 "$tmp/ns.err")"
		fi
	fi
	ns_cleanup
fi

# ---- 10: what cannot be read whole is said so, never taken for unset ----------
ZL="${THREADLAB_BUILDDIR:-.}/tests/zombie-leader"
OMP="${THREADLAB_BUILDDIR:-.}/tests/omp-busy"
OMP_NUM_THREADS=3 "$ZL" &
zl=$!
pids+=($zl)
for _ in $(seq 30); do [ "$(awk '{print $3}' /proc/$zl/stat 2>/dev/null)" = Z ] && break; sleep 0.1; done
limited 30 "$TL" --diagnose -p $zl --seconds 1 --format json >"$tmp/zl.json" 2>"$tmp/zl.err"
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d = d.get("diagnosis", d)
assert d["env"]["OMP_NUM_THREADS"] == "3", d["env"]
assert d["env_state"] == "read" and d["maps_unreadable"] == 0, d
assert any("libgomp" in r["name"] for r in d["runtimes"]), d["runtimes"]
' "$tmp/zl.json" 2>"$tmp/py"; then
	ok "a zombie leader: its environment and libraries read through a live thread (OMP_NUM_THREADS=3, libgomp)"
else
	notok "zombie leader" "$(cat "$tmp/py" "$tmp/zl.err")"
fi
stop $zl
# ARG_MAX is a quarter of the stack limit: 64 MiB of stack lets 40
# variables of 120 kB (4.8 MB) through execve.
(
	ulimit -s 65536
	big=$(head -c 120000 /dev/zero | tr '\0' x)
	args=()
	for i in $(seq 40); do args+=("B$i=$big"); done
	exec env "${args[@]}" OMP_NUM_THREADS=2 "$OMP"
) &
be=$!
pids+=($be)
for _ in $(seq 50); do [ -s /proc/$be/environ ] && [ "$(readlink /proc/$be/exe)" != "$(readlink -f "$(command -v env)")" ] && break; sleep 0.1; done
limited 30 "$TL" --diagnose -p $be --seconds 1 --format json >"$tmp/be.json" 2>"$tmp/be.err"
limited 30 "$TL" --diagnose -p $be --seconds 1 >"$tmp/be.txt" 2>&1
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d = d.get("diagnosis", d)
assert d["env_state"] == "truncated" and d["env"]["OMP_NUM_THREADS"] == "truncated", (d["env_state"], d["env"])
g = [r for r in d["runtimes"] if "libgomp" in r["name"]]
assert g and "unknown" in g[0]["why"], g
assert not any("unset" in r for r in d["reasons"]), d["reasons"]
' "$tmp/be.json" 2>"$tmp/py" && grep -q '^environment: truncated' "$tmp/be.txt" && ! grep -q 'unset' "$tmp/be.txt"; then
	ok "a 4.8 MB environment: 'truncated' in text and JSON, no pool rule and no 'unset' reasoned from it"
else
	notok "a truncated environment" "$(cat "$tmp/py")" "$(grep -i 'environ\|unset\|libgomp' "$tmp/be.txt")"
fi
stop $be

# ---- 11: throttling read where the quota binds ---------------------------------
# A parent cgroup of 0.1 CPUs around a lab that asks for 1.5: the parent
# binds, and its cpu.stat counts the throttling (the lab's own counts none:
# it never runs out of its own quota).  The figures must be the parent's,
# whatever other work on the machine leaves the lab (a busy box may keep
# even 0.1 CPUs from binding).
if quota_capable && [ -w /sys/fs/cgroup/cpu/cgroup.procs ]; then
	anc=/sys/fs/cgroup/cpu/tl-hostile-anc-$$
	mkdir "$anc" && echo 100000 >"$anc/cpu.cfs_period_us" && echo 10000 >"$anc/cpu.cfs_quota_us"
	thr0=$(awk '$1 == "nr_throttled" { print $2 }' "$anc/cpu.stat")
	(
		echo $BASHPID >"$anc/cgroup.procs"
		exec timeout -k 5 60 "$TL" --batch --cpus 1.5 --threads 2 --size 256 -i 0.5 -c 8 --format json
	) >"$tmp/anc.json" 2>"$tmp/anc.err"
	thr1=$(awk '$1 == "nr_throttled" { print $2 }' "$anc/cpu.stat")
	(
		echo $BASHPID >"$anc/cgroup.procs"
		exec timeout -k 5 60 "$TL" --batch --cpus 1.5 --threads 2 --size 256 -i 0.5 -c 4
	) >"$tmp/anc.txt" 2>&1
	if python3 -c '
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][-4:]
name, t0, t1 = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for x in s:
    b, c = x["budget"], x["cgroup"]
    assert b["binding"] == "quota" and abs(b["quota"] - 0.1) < 1e-6, b
    assert c["throttled_in"] == name and c["stat_dir"].endswith(name), c
    assert t0 <= c["nr_throttled"] <= t1, (t0, c["nr_throttled"], t1)
# the parent throttled in those samples: their figures say so
if s[-1]["cgroup"]["nr_throttled"] > s[0]["cgroup"]["nr_throttled"]:
    assert max(x["cgroup"]["throttled_pct"] for x in s[1:]) > 0, [x["cgroup"] for x in s]
print("%d periods throttled in the parent during the run" % (t1 - t0))
' "$tmp/anc.json" "/tl-hostile-anc-$$" "$thr0" "$thr1" >"$tmp/py" 2>&1 && grep -q "throttled .* in /tl-hostile-anc-$$" "$tmp/anc.txt"; then
		ok "a 0.1-CPU parent around a 1.5-CPU lab: throttling read in the parent and named ($(cat "$tmp/py"))"
	else
		notok "throttling from the binding ancestor" "$(cat "$tmp/py")" "$(grep throttled "$tmp/anc.txt" | head -2)"
	fi
	for d in "$anc"/threadlab-*; do cg_remove "$d"; done
	cg_remove "$anc"
else
	skip "throttling from the binding ancestor" "${quota_why:-no writable cgroup v1 cpu controller}"
fi

# ---- 12: repeated deaths, an anchor killed in a sweep, a full disk -------------
# anchor_of PID: the lab's anchor among PID's children or grandchildren.
anchor_of() {
	local c a
	for c in "$1" $(ps -o pid= --ppid "$1"); do
		a=$(ps -o pid=,comm= --ppid "$c" | awk '$2 == "tl-anchor" { print $1 }' | head -n1)
		[ -n "$a" ] && echo "$a" && return 0
	done
	return 1
}
if command -v tmux >/dev/null; then
	$T new-session -d -x 200 -y 30 "$TL --size 256 -i 0.2; echo EXITED \$?; sleep 30"
	wait_pane 0 'GFLOP/s' 100
	tlp=$($T list-panes -F '#{pane_pid}' | head -n1)
	for k in 1 2 3 4; do
		a=""
		for _ in $(seq 50); do a=$(anchor_of "$tlp") && break; sleep 0.1; done
		[ -n "$a" ] && kill -9 "$a"
		wait_pane 0 "restart $k|no more restarts" 50
	done
	if wait_pane 0 'killed by signal 9: not restarted, it was restarted 3 times within 60 s: no more restarts; last view kept' 50; then
		ok "the dashboard, a fourth anchor death in a minute: the last signal and 'no more restarts' stay on the message line"
	else
		notok "dashboard after the fourth anchor death" "$(cat "$tmp/pane")"
	fi
	$T kill-server 2>/dev/null
else
	skip "the dashboard after repeated anchor deaths" "tmux is needed (Debian package tmux)"
fi
(exec "$TL" --sweep --threads 1,2,3 --size 256 --seconds 2 >"$tmp/sw.out" 2>"$tmp/sw.err") &
sw=$!
pids+=($sw)
# Once the first row is out (rows are flushed as they come), the second
# setting runs: its anchor is killed mid-sweep.
for _ in $(seq 300); do grep -qE '^ +1 +1 ' "$tmp/sw.out" 2>/dev/null && break; sleep 0.1; done
a=$(anchor_of $sw)
[ -n "$a" ] && kill -9 "$a"
for _ in $(seq 400); do kill -0 $sw 2>/dev/null || break; sleep 0.1; done
wait $sw
st=$?
rows=$(grep -cE '^ +1 +[123] ' "$tmp/sw.out")
if [ -n "$a" ] && [ $st = 0 ] && [ "$rows" = 3 ] &&
	grep -q "anchor (process $a) was killed by signal 9: restarted the workload" "$tmp/sw.err" &&
	! grep -q 'did not apply' "$tmp/sw.err"; then
	ok "an anchor killed during a sweep: said as such, the setting measured again, 3 rows"
else
	notok "anchor killed in a sweep" "anchor '$a', status $st, $rows rows" "$(cat "$tmp/sw.err")"
fi
mnt="$tmp/full"
mkdir -p "$mnt"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tl-hostile-full "$mnt" 2>/dev/null; then
	limited 60 "$TL" --batch --size 256 -i 0.1 -c 30 --format json --record "$mnt/r.jsonl" >/dev/null 2>"$tmp/full.err"
	st=$?
	if [ $st = 1 ] && grep -q 'cannot write the recording .*No space left on device' "$tmp/full.err"; then
		ok "--batch --record on a full disk: said, sampling went on, exit 1"
	else
		notok "--batch --record on a full disk" "status $st" "$(cat "$tmp/full.err")"
	fi
	rm -f "$mnt"/*
	# --headless the same: said with the file and the reason, exit 1 at the end
	"$TL" --headless --size 256 -i 0.1 --record "$mnt/h.jsonl" 2>"$tmp/hfull.err" &
	hl=$!
	pids+=("$hl")
	until_true 300 grep -q 'cannot write the recording' "$tmp/hfull.err"
	kill -TERM $hl 2>/dev/null
	reap $hl 10
	st=$reaped
	if [ $st = 1 ] && grep -q "cannot write the recording $mnt/h.jsonl: No space left on device; recording stops (exit status 1)" "$tmp/hfull.err"; then
		ok "--headless --record on a full disk: said with the file, exit 1 after SIGTERM"
	else
		notok "--headless --record on a full disk" "status $st" "$(cat "$tmp/hfull.err")"
	fi
	rm -f "$mnt"/*
	if command -v tmux >/dev/null; then
		$T new-session -d -x 120 -y 30 "$TL --size 256 -i 0.1 --record $mnt/d.jsonl 2>$tmp/dfull.err; echo EXITED \$?; sleep 30"
		wait_pane 0 'cannot write the recording' 150
		$T send-keys -t 0 q
		wait_pane 0 'EXITED' 50
		if grep -q 'EXITED 1' "$tmp/pane" && grep -q 'cannot write the recording: No space left on device.*exit status 1' "$tmp/dfull.err"; then
			ok "the dashboard with --record on a full disk: said on screen and after it, exit 1"
		else
			notok "dashboard --record on a full disk" "$(cat "$tmp/pane" | tail -3)" "$(cat "$tmp/dfull.err")"
		fi
		$T kill-server 2>/dev/null
	else
		skip "the dashboard with --record on a full disk" "tmux is needed (Debian package tmux)"
	fi
	umount "$mnt"
else
	skip "--batch --record on a full disk" "needs root to mount a small tmpfs"
	skip "--headless --record on a full disk" "needs root to mount a small tmpfs"
	skip "the dashboard with --record on a full disk" "needs root to mount a small tmpfs"
fi

