#!/bin/bash
# test-doc-promises.sh — what the documentation (README.md, docs/) promises
# and no other test checked: NO_COLOR and --no-color, the lab keys = w W space u r i
# I h, a launched command on /dev/null and stopped on quit, the terminal
# restored on SIGHUP and SIGABRT, exit statuses 1 and 2 ("may not be read"),
# --blas-spin off, --precision double, sweep --streams and --cpus, the batch
# JSON keys and their nulls, and --cpus never moving threadlab itself.
# Prints TAP; a private tmux server and every process it started are killed
# on every path.
#
# No case compares CPU shares.  What only waits (the dashboards on a sleeping
# process or command, the runs that fail at once) starts at the top, side by
# side; the labs, which keep CPUs busy, run one at a time: the dashboard's,
# paused once the keys that need it running are checked, then the batch and
# sweep runs, one after another, beside the rest of its keys.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
FX="$SRC/tests/fixtures"

need_tmux prom
command -v "$PY" >/dev/null || skip_all "$PY is not installed"

plan 33
# a key, then its message on the message line
key_says() { # key_says TARGET KEY ERE DESCRIPTION
	$T send-keys -t "$1" "$2"
	if wait_pane "$1" "$3" 150; then ok "$4"; else notok "$4" "$(tail -n 3 "$tmp/pane")"; fi
}
# the process and thread names below $1
names_below() { for p in $(descendants "$1"); do cat "/proc/$p/task/"*/comm 2>/dev/null; done; }
has_below() { names_below "$1" | grep -qx "$2"; }
lacks_below() { ! has_below "$1" "$2"; }
term_ok() { # the pane's tty is back in canonical mode with echo
	local tty
	tty=$($T display-message -p -t "$1" '#{pane_tty}')
	stty -F "$tty" -a 2>/dev/null | grep -q ' icanon ' && stty -F "$tty" -a | grep -q ' echo '
}
$T new-session -d -s keep -x 80 -y 24 "sleep 600"

sleep 300 &
sp=$!
track "$sp"

# ---- what only waits, started at once ------------------------------------------
# The dashboard in three colour settings (checked first).
declare -A col_cmd=(
	[plain]="env TERM=xterm-256color '$TL' -p $sp -i 0.5"
	[NO_COLOR]="env TERM=xterm-256color NO_COLOR=1 '$TL' -p $sp -i 0.5"
	[--no-color]="env TERM=xterm-256color '$TL' --no-color -p $sp -i 0.5")
declare -A col_session=([plain]=col0 [NO_COLOR]=col1 [--no-color]=col2)
for how in plain NO_COLOR --no-color; do
	$T new-session -d -s "${col_session[$how]}" -x 100 -y 30 "exec ${col_cmd[$how]}"
done
# A launched command under the dashboard: stdin /dev/null, stopped on quit.
cat >"$tmp/cmd.sh" <<EOF
#!/bin/sh
readlink /proc/self/fd/0 >"$tmp/stdin"
exec sleep 300
EOF
chmod +x "$tmp/cmd.sh"
$T new-session -d -s cmd -x 100 -y 30 "exec '$TL' -i 0.5 -- '$tmp/cmd.sh'; sleep 30"
# SIGABRT (a fatal signal) restores the terminal too
$T new-session -d -s abrt -x 100 -y 30 "'$TL' -p $sp -i 0.5; echo \$? >'$tmp/abrt.rc'; sleep 30"
# Exit 1: the workload cannot start (an anchor program that exits at once is
# found first, through THREADLAB_LIBEXECDIR)
mkdir -p "$tmp/fake"
printf '#!/bin/sh\nexit 1\n' >"$tmp/fake/threadlab-anchor"
cp "$tmp/fake/threadlab-anchor" "$tmp/fake/threadlab-gemm"
cp "$tmp/fake/threadlab-anchor" "$tmp/fake/threadlab-burn"
chmod +x "$tmp/fake/"*
bg_start exit1 env THREADLAB_LIBEXECDIR="$tmp/fake" timeout 60 "$TL" --batch -c 1 --size 256
# Exit 2: a process that may not be read (a fixture tree only root may enter)
can_nobody=0
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	can_nobody=1
	cp -r "$FX/pp-tree" "$tmp/locked"
	chmod 755 "$tmp"
	chmod 700 "$tmp/locked/proc/4242"
	bg_start exit2 setpriv --reuid=65534 --regid=65534 --clear-groups "$TL" --batch --root "$tmp/locked" -p 4242 -c 1
fi
# The batch JSON keys of an attach run and of a fixture tree.
bg_start a.json "$TL" --batch -p "$sp" -c 2 -i 0.2 --format json
bg_start f.json "$TL" --batch --root "$FX/pp-tree" -p 4242 -c 2 -i 0.1 --format json

# ---- colours: NO_COLOR and --no-color -------------------------------------
# sgr PANE: the SGR parameters the pane holds (capture-pane -e keeps them)
colours() { $T capture-pane -e -p -t "$1" | grep -Eo $'\e\\[[0-9;]*m' | grep -Ec '\[(3[0-7]|9[0-7]|38;)' ; }
for how in plain NO_COLOR --no-color; do
	col=${col_session[$how]}
	# the table, and the CPU bars (coloured unless colour is off)
	if wait_pane "$col" 'more rows|TID' 300 && wait_pane "$col" '^cpu0 ' 100; then
		c=$(colours "$col")
		if [ $how = plain ]; then
			[ "$c" -gt 0 ] && ok "colours on by default ($c coloured runs)" || notok "no colour without NO_COLOR" "$($T capture-pane -e -p -t "$col" | head -5 | od -c | head)"
		else
			[ "$c" = 0 ] && ok "$how: no colour at all" || notok "$how: $c coloured runs"
		fi
	else
		notok "$how: the dashboard did not draw" "$(cat "$tmp/pane")"
	fi
	$T kill-session -t "$col"
done

# ---- the lab keys ---------------------------------------------------------------
# The pane's shell outlives threadlab, so the terminal can be checked after.
$T new-session -d -s lab -x 120 -y 40 "env LC_ALL=C.UTF-8 '$TL' -i 0.5 --size 256; sleep 60"
tl=$(until_out 300 pane_proc lab threadlab)
track "$tl"
if ! wait_pane lab 'GFLOP/s [0-9.]+' 300; then
	notok "lab: the dashboard did not start" "$(cat "$tmp/pane")"
	exit 1
fi
key_says lab '=' 'intra-op threads 2' "= is + : intra-op threads 2"
until_true 150 has_below "$tl" gemm0.w1 && ok "=: the workload runs gemm0.w1" || notok "=: no gemm0.w1" "$(names_below "$tl" | tr '\n' ' ')"
key_says lab 'w' 'background workers 1' "w: background workers 1"
until_true 150 has_below "$tl" tl-worker0 && ok "w: a tl-worker0 process runs" || notok "w: no worker process" "$(names_below "$tl" | tr '\n' ' ')"
key_says lab 'W' 'background workers 0' "W: background workers 0"
until_true 150 lacks_below "$tl" tl-worker0 && ok "W: the worker process is gone" || notok "W: worker still there"

# space: the helper stops using CPU, and starts again
helper=$(for p in $(descendants "$tl"); do grep -qx 'gemm0' "/proc/$p/comm" 2>/dev/null && echo "$p"; done | head -n1)
cpu_of() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
key_says lab ' ' 'paused' "space: paused"
sleep 0.5
c0=$(cpu_of "$helper")
sleep 1
c1=$(cpu_of "$helper")
[ $((c1 - c0)) -le 5 ] && ok "space: the paused helper uses no CPU ($((c1 - c0)) ticks in 1 s)" || notok "space: helper still busy: $((c1 - c0)) ticks in 1 s"
key_says lab ' ' 'running' "space again: running"
# The keys below do not need the workload running: paused again (it keeps
# no CPU busy), and the batch and sweep labs run beside them, one after
# another.
$T send-keys -t lab ' '
wait_pane lab '\| PAUSED \|' 100
lab_runs() {
	"${tap_orphan_kill[@]}" "$TL" --batch -c 2 -i 0.5 --size 256 --blas-spin off --precision double \
		--format json >"$tmp/lab.json" 2>"$tmp/lab.json.err"
	echo $? >"$tmp/lab.json.st"
	"${tap_orphan_kill[@]}" "$TL" --sweep --streams 1,2 --threads 1 --seconds 0.3 --size 256 \
		--format json >"$tmp/sw.json" 2>"$tmp/sw.json.err"
	echo $? >"$tmp/sw.json.st"
	[ "$1" = 1 ] || return 0
	"${tap_orphan_kill[@]}" "$TL" --sweep --cpus 0.5 --threads 1,2 --seconds 0.5 --size 256 \
		--format json >"$tmp/swq.json" 2>"$tmp/swq.json.err"
	echo $? >"$tmp/swq.json.st"
}
quota=0
quota_capable && quota=1
lab_runs $quota &
labs=$!
track "$labs"

if [ $quota = 1 ]; then
	key_says lab '}' 'quota 0.5 CPUs' "}: quota 0.5 CPUs"
	cg_track "$(lab_cgroup "$tl")"
	key_says lab 'u' 'quota removed' "u: quota removed"
	key_says lab 'u' 'no quota to remove' "u again: no quota to remove"
else
	skip "}: quota 0.5 CPUs" "$quota_why"
	skip "u: quota removed" "$quota_why"
	skip "u again: no quota to remove" "$quota_why"
fi
key_says lab 'r' 'history and chart cleared' "r: history and chart cleared"
for _ in $(seq 6); do $T send-keys -t lab 'i'; sleep 0.05; done
key_says lab 'i' 'refresh interval stays within 0.1\.\.10 s' "i at the bound: stays within 0.1..10 s"
for _ in $(seq 9); do $T send-keys -t lab 'I'; sleep 0.05; done
if wait_pane lab 'refresh interval stays within|refresh every 10 s' 100; then
	key_says lab 'I' 'refresh interval stays within 0.1\.\.10 s' "I at the bound: stays within 0.1..10 s"
else
	notok "I: no refresh message" "$(tail -n 3 "$tmp/pane")"
fi
key_says lab 'i' 'refresh every 5 s' "i from 10 s: refresh every 5 s"
$T send-keys -t lab 'h'
if wait_pane lab 'F10' 100 && grep -q 'quit' "$tmp/pane" && grep -Eq 'sweep threads 1' "$tmp/pane"; then
	ok "h: the help screen lists the keys"
	$T send-keys -t lab 'x'
	wait_pane lab 'GFLOP/s [0-9.]+' 100 && ok "any key closes the help" || notok "help stays open" "$(head -5 "$tmp/pane")"
else
	notok "h: no help screen" "$(head -5 "$tmp/pane")"
	notok "any key closes the help"
fi

# SIGHUP: the terminal is restored, the workload stopped
labprocs=$(descendants "$tl")
kill -HUP "$tl"
if until_true 50 sh -c "! kill -0 $tl 2>/dev/null" && sleep 0.3 && term_ok lab; then
	left=""
	for p in $labprocs; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
	[ -z "$left" ] && ok "SIGHUP: terminal restored (canonical, echo), workload gone" || notok "SIGHUP: left running:$left"
else
	notok "SIGHUP: threadlab still running or the terminal not restored" "$(stty -F "$($T display-message -p -t lab '#{pane_tty}')" -a 2>&1 | head -3)"
fi

# ---- a launched command: stdin /dev/null, stopped on quit (started above) ----
tl=$(pane_pid cmd)
if until_true 300 test -s "$tmp/stdin" && wait_pane cmd 'sleep' 100; then
	[ "$(cat "$tmp/stdin")" = /dev/null ] && ok "-- CMD under the dashboard reads /dev/null, not the terminal" ||
		notok "-- CMD stdin is $(cat "$tmp/stdin")"
	child=$(pgrep -P "$tl" -x sleep | head -n1)
	$T send-keys -t cmd 'q'
	if [ -n "$child" ] && until_true 50 sh -c "! kill -0 $child 2>/dev/null"; then
		ok "q: the launched command is stopped"
	else
		notok "q: the launched command ${child:-?} still runs"
	fi
else
	notok "-- CMD under the dashboard did not start" "$(cat "$tmp/pane")"
	notok "q: the launched command is stopped"
fi

# SIGABRT (a fatal signal) restores the terminal too (started above)
if wait_pane abrt 'TID' 300; then
	p=$(pane_proc abrt threadlab)
	kill -ABRT "$p"
	if until_true 50 test -s "$tmp/abrt.rc" && term_ok abrt; then
		ok "SIGABRT: terminal restored, exit $(cat "$tmp/abrt.rc")"
	else
		notok "SIGABRT: terminal not restored" "rc $(cat "$tmp/abrt.rc" 2>/dev/null)"
	fi
else
	notok "SIGABRT: the dashboard did not start" "$(cat "$tmp/pane")"
fi

# ---- exit statuses (started above) ----------------------------------------------
# 1: the workload cannot start
bg_end exit1 90
st=$reaped
[ $st = 1 ] && [ -s "$tmp/exit1.err" ] && ok "exit 1: the workload could not start ($(head -n1 "$tmp/exit1.err" | cut -c1-100))" ||
	notok "exit 1 for a workload that cannot start" "status $st" "$(cat "$tmp/exit1.err")"
# 2: a process that may not be read
if [ $can_nobody = 1 ]; then
	bg_end exit2 60
	st=$reaped
	[ $st = 2 ] && grep -q 'may not read process 4242: Permission denied (run as its user or as root)' "$tmp/exit2.err" &&
		ok "exit 2: a process that may not be read, with the advice that fits EACCES" ||
		notok "exit 2 for an unreadable process" "status $st" "$(cat "$tmp/exit2.err")"
else
	skip "exit 2 for an unreadable process" "needs root and setpriv (util-linux) to become user nobody"
fi

# 3: out of memory.  A 3,000-thread target under a 2 MB data limit: the
# thread arrays do not fit; one line names memory, the target runs on.
# The /proc collector: under that limit the BPF programs do not load
# either, and the fallback's note would be a second line.
if ldd "$TL" 2>/dev/null | grep -q libasan; then
	skip "exit 3 on out of memory" "an ASan build cannot start under a data limit"
else
	exec 3< <(exec "$B/bench/threads-target" 3000)
	read -r many <&3
	track "$many"
	(
		ulimit -d 2000
		limited 30 "$TL" --batch -c 2 -i 0.2 --collector proc -p "$many"
	) >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st = 3 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q '^threadlab: out of memory' "$tmp/err" &&
		alive "$many"; then
		ok "exit 3: out of memory, said in one line ($(cat "$tmp/err")); the target runs on"
	else
		notok "exit 3 on out of memory" "status $st" "$(head -3 "$tmp/err")"
	fi
	stop "$many"
	exec 3<&-
fi

# ---- lab options and sweep (run beside the keys above) ---------------------------
reap "$labs" 300
st=$(cat "$tmp/lab.json.st" 2>/dev/null)
"$PY" - "$tmp/lab.json" <<'PY' >"$tmp/py" 2>&1
import json, sys
l = [json.loads(x) for x in open(sys.argv[1])]
assert len(l) == 2, len(l)
w = l[-1]["workload"]
assert w["precision"] == "double" and w["blas_spin"] == "off", w
assert w["gflops"] > 0 and w["results_equal"] is True, w
PY
[ "$st" = 0 ] && [ ! -s "$tmp/py" ] && ok "--precision double --blas-spin off: dgemm runs, results equal, settings reported" ||
	notok "--precision double --blas-spin off" "status $st" "$(cat "$tmp/py" "$tmp/lab.json.err")"

st=$(cat "$tmp/sw.json.st" 2>/dev/null)
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [r["streams"] for r in d["rows"]] == [1, 2], d["rows"]
assert all(r["gflops"] > 0 for r in d["rows"]), d["rows"]' "$tmp/sw.json" 2>"$tmp/py"
[ "$st" = 0 ] && [ ! -s "$tmp/py" ] && ok "--sweep --streams 1,2: one row per stream count" || notok "--sweep --streams" "status $st" "$(cat "$tmp/py" "$tmp/sw.json.err")"
if [ $quota = 1 ]; then
	st=$(cat "$tmp/swq.json.st" 2>/dev/null)
	"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert abs(d["env"]["quota_cpus"] - 0.5) < 1e-6, d["env"]
assert [r["threads"] for r in d["rows"]] == [1, 2], d["rows"]
assert all(r["gflops"] > 0 for r in d["rows"]), d["rows"]' "$tmp/swq.json" 2>"$tmp/py"
	[ "$st" = 0 ] && [ ! -s "$tmp/py" ] && ok "--sweep --cpus 0.5: the sweep runs under the quota and says so" || notok "--sweep --cpus" "status $st" "$(cat "$tmp/py" "$tmp/swq.json.err")"
else
	skip "--sweep --cpus" "$quota_why"
fi

# ---- --cpus moves the workload, never threadlab --------------------------------
if [ $quota = 1 ]; then
	# Long enough (up to 60 samples) that it still runs when its cgroups
	# are read on a slow box; SIGTERM ends it after.
	"$TL" --batch -c 60 -i 0.5 --size 256 --cpus 1 --format json >"$tmp/q.json" 2>"$tmp/err" &
	bp=$!
	track "$bp"
	until_true 100 sh -c "grep -q workload '$tmp/q.json'"
	mine=$(cg_of "$bp")
	anchor=$("$PY" -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["workload"]["anchor_pid"])' "$tmp/q.json" 2>/dev/null)
	theirs=$(cg_of "${anchor:-0}")
	cg_track "$theirs"
	kill -TERM "$bp" 2>/dev/null
	reap "$bp" 30
	if [ -n "$theirs" ] && [ "$theirs" != "$mine" ] && [ "$mine" = "$(cg_of $$)" ]; then
		ok "--cpus 1: the workload runs in ${theirs#/sys/fs/cgroup}, threadlab itself stays where it was"
	else
		notok "--cpus moved the wrong processes" "threadlab: $mine" "anchor $anchor: $theirs"
	fi
else
	skip "--cpus never moves threadlab" "$quota_why"
fi

# ---- the batch JSON keys docs/batch-json.md lists, and their nulls ----------------
bg_end a.json 60
bg_end f.json 60
"$PY" - "$tmp/a.json" "$tmp/f.json" "$tmp/lab.json" <<'PY' >"$tmp/py" 2>&1
import json, sys
def keys(d, ks, what):
    for k in ks:
        assert k in d, "%s: no %s" % (what, k)
for path in sys.argv[1:]:
    for l in open(path):
        d = json.loads(l)
        keys(d, ("time", "interval", "budget", "cgroup", "system", "threads", "runnable",
                 "runnable_mean", "diagnosis", "cpus"), path)
        keys(d["budget"], ("online", "affinity", "cpuset", "quota", "effective", "binding",
                           "quota_controller", "note"), "budget")
        keys(d["cgroup"], ("version", "path", "nr_periods", "nr_throttled", "throttled_pct",
                           "throttled_s_per_s", "psi_some_avg10"), "cgroup")
        keys(d["system"], ("psi_some_avg10",), "system")
        for t in d["threads"]:
            keys(t, ("pid", "tid", "name", "state", "cpu", "cpu_pct", "user_pct", "sys_pct",
                     "wait_pct", "vcsw_per_s", "ivcsw_per_s"), "thread")
a = json.loads(open(sys.argv[1]).readline())
assert a["budget"]["quota"] is None, "no quota here: quota is null, not %r" % a["budget"]["quota"]
# The cpu controller on cgroup v1: the cgroup has no pressure (null, with
# a note), never the system's figure copied.
import os
if os.path.exists("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"):
    assert a["cgroup"]["psi_some_avg10"] is None, a["cgroup"]
    assert "v1" in a["cgroup"]["psi_note"], a["cgroup"]
f = json.loads(open(sys.argv[2]).readline())
# the fixture tree has no PSI and no online file
assert f["cgroup"]["psi_some_avg10"] is None and f["system"]["psi_some_avg10"] is None, f["cgroup"]
assert f["budget"]["online"] is None, f["budget"]
w = json.loads(open(sys.argv[3]).readlines()[-1])["workload"]
keys(w, ("gflops", "steady_gflops", "ideal_gflops", "ceiling_gflops", "single_thread_gflops",
         "results_equal", "max_diff", "setting_results_equal", "setting_max_diff", "useful_cpus",
         "cpu_cpus", "steady_seconds", "per_stream", "blas", "error", "pids", "anchor_pid",
         "worker_pids"), "workload")
assert w["error"] is None, w["error"]
PY
[ ! -s "$tmp/py" ] && ok "batch JSON: every key docs/batch-json.md lists, null where unknown (quota, PSI, online; the cgroup's PSI on v1)" ||
	notok "batch JSON keys" "$(cat "$tmp/py" "$tmp/a.json.err" "$tmp/f.json.err")"

