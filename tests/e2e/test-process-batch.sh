#!/bin/bash
# test-process-batch.sh — threadlab on a process from the command line, end
# to end: --batch in every format (a hostile name, a TID, --tree, -- CMD,
# SIGINT), --budget, --help and --version, and the options refused with
# their exit statuses (the lab from the command line is test-lab-batch.sh).
# Prints TAP.  Every process it starts is killed on exit.
#
# No case compares CPU shares and none runs a busy program: the runs start
# side by side at the top (those that end at once first, then those that
# are timed) and the cases are reported in plan order as their runs end.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
FX="$SRC/tests/fixtures"

# Exit status and one-line message of a bad invocation (its run: usage.N).
nusage=0
usage() { # usage ARGS...: starts the run
	bg_start "usage.$nusage" "$TL" "$@"
	nusage=$((nusage + 1))
}
expect_usage() { # expect_usage DESCRIPTION: the next run started by usage
	local d="$1" r="usage.$((nchecked++))"
	bg_end "$r" 60
	local st=$reaped
	if [ "$st" = 2 ] && grep -q '^threadlab: ' "$tmp/$r.err" && [ ! -s "$tmp/$r" ]; then
		ok "$d (exit 2: $(head -n1 "$tmp/$r.err"))"
	else
		notok "$d" "status $st" "$(cat "$tmp/$r.err")"
	fi
}
nchecked=0

# Python validates JSON ($PY, Debian's: a python3 first in PATH may be a
# shim that costs a second a start); absent python3, JSON checks are
# skipped visibly.
have_py=1
command -v "$PY" >/dev/null || have_py=0
plan 34

# ---- what runs by itself, started at the top (the longest first) ----------
# A process with a hostile name: ESC, BEL, an OSC title, a C1 CSI (UTF-8
# encoded and raw) and an invalid byte.  It waits on a FIFO nobody writes
# (read, a builtin: nothing forked while it lives).
mkfifo "$tmp/never"
bash -c 'printf "x\033]0;pwn\007\302\233\233\377" > /proc/self/comm; read -r _ <"$1"' _ "$tmp/never" &
hp=$!
track "$hp"
# A locale whose decimal separator is ',' must not leak into data or
# options: compiled while the rest runs, then threadlab run in it (exit 99:
# the locale could not be made).
mkdir -p "$tmp/loc"
have_de=0
if command -v localedef >/dev/null && [ -f /usr/share/i18n/locales/de_DE ] && [ $have_py = 1 ]; then
	have_de=1
	# shellcheck disable=SC2016 # the chain's own arguments
	bg_start de bash -c 'localedef -i de_DE -f UTF-8 "$1/de_DE.UTF-8" >/dev/null 2>&1 || exit 99
		export LOCPATH=$1 LC_ALL=de_DE.UTF-8
		"$2" --budget --format json >"$1/budget" 2>"$1/err"
		exec "$2" --batch -p "$3" -c 1 -i 0.2 --format json 2>>"$1/err"' _ "$tmp/loc" "$TL" "$hp"
fi
# The runs that only read their arguments or a file and end at once.
bg_start help "$TL" --help
bg_start version "$TL" --version
usage --frobnicate
usage -p abc
usage --batch -p 1 -i 0
usage --batch -p 1 --format xml
usage --batch -p 999999999 -c 1
usage --batch --threads 0
usage --batch --cpus 0
usage --batch --size 99999999
usage --batch --streams 17
usage --batch -p 1 --cpus 1
usage --batch --tree
usage --diagnose -p 1 --no-tree
usage --diagnose --tree --no-tree -- true
usage --batch -p 1 --strict
usage --sweep --threads 1,0
usage --batch -- /nonexistent/cmd
bg_start budget "$TL" --budget
bg_start budget.json "$TL" --budget --format json
# --budget against fixture trees: the collectors' root is redirectable.
bg_start fx.quarter "$TL" --budget --root "$FX/cg-v2-quarter" -p 4242
bg_start fx.ns "$TL" --budget --root "$FX/cg-ns-hidden" -p 4242

# The runs that are timed (samples at an interval, an exit or a signal
# waited for) start once those have ended: a start beside twenty others
# waits seconds for the CPU.
quick=(help version budget budget.json fx.quarter fx.ns)
for ((i = 0; i < nusage; i++)); do quick+=("usage.$i"); done
quick_ended() {
	local r
	for r in "${quick[@]}"; do ended "${bg_pid[$r]}" || return 1; done
}
until_true 600 quick_ended
# SIGINT stops a batch run cleanly with status 0.  Without job control a
# background job starts with SIGINT ignored, so set -m; the wait is bounded.
set -m
"$TL" --batch -p "$hp" -i 0.1 >"$tmp/int" 2>&1 &
bp_int=$!
set +m
track "$bp_int"
# A thread of a process that is not its leader (it lives until stopped).
spawn "$PY" -c 'import threading,time; t=threading.Thread(target=time.sleep,args=(600,)); t.daemon=True; t.start(); time.sleep(600)'
mp=$spawned
# --tree sees a child's threads
# (in its own group: the sleep grandchild is stopped with it)
spawn bash -c 'sleep 600 & wait'
tp=$spawned
# The target exits: batch stops by itself and says so.  The target ends
# only after the first samples are out, however slow the start (ASan, the
# BPF collector's load on a loaded box).
: >"$tmp/gone"
sh -c 'until [ -s "$1" ]; do sleep 0.1; done; sleep 0.3' _ "$tmp/gone" &
sp=$!
track "$sp"
# (threadlab's output is the file the target watches)
bg_start gone "$TL" --batch -p "$sp" -i 0.1
# -- CMD: launch, monitor, stop when it exits, with its status (it exits
# once a sample is out).
: >"$tmp/cmd"
bg_start cmd "$TL" --batch -i 0.1 -- sh -c 'until [ -s "$1" ]; do sleep 0.1; done; sleep 0.2; exit 3' _ "$tmp/cmd"
# The launched command's own output must not mix into batch data.  It
# lives until threadlab has its two samples and stops it (a fixed second
# was too short for a loaded sanitizer build's start).
[ $have_py = 1 ] && bg_start noise "$TL" --batch -i 0.1 -c 2 --format json -- sh -c 'echo noise-from-cmd; exec sleep 60'

# The hostile name, in text, CSV and JSON.
until_true 300 grep -q pwn "/proc/$hp/comm"
bg_start text env LC_ALL=C.UTF-8 "$TL" --batch -p "$hp" -c 2 -i 0.1
bg_start csv "$TL" --batch -p "$hp" -c 2 -i 0.1 --format csv
bg_start json "$TL" --batch -p "$hp" -c 3 -i 0.05 --format json
# -i with a fraction: 5 samples, 0.05 s apart at least (the interval is a
# floor that no load can shorten; a loaded box may stretch it).
bg_start j5 "$TL" --batch -p "$hp" -c 5 -i 0.05 --format json
# A thread ID is not a process: the leader's TID is its PID.
bg_start leader "$TL" --batch -c 1 -p "$(ls /proc/$hp/task | head -n1)"

# ---- the runs that wait for something ------------------------------------------------
other_task() { ls /proc/$mp/task 2>/dev/null | grep -v "^$mp$" | head -n1; }
tid=$(until_out 300 other_task)
[ -n "$tid" ] && bg_start tid "$TL" --batch -c 1 -p "$tid"
until_true 300 pgrep -P "$tp" >/dev/null
bg_start tree "$TL" --batch --tree -p "$tp" -c 1 -i 0.1
# SIGINT once the first sample is out.
until_true 300 grep -q PID "$tmp/int"
kill -INT "$bp_int"

# ---- the cases, in plan order ------------------------------------------------------
bg_end help
cat "$tmp/help.err" >>"$tmp/help"
[ "$reaped" = 0 ] && grep -q -- '--batch' "$tmp/help" && grep -q 'Exit status' "$tmp/help" &&
	ok "--help documents modes and exit statuses" || notok "--help" "$(cat "$tmp/help")"
bg_end version
grep -q '^threadlab [0-9]' "$tmp/version" && ok "--version" || notok "--version"

expect_usage "unknown option"
expect_usage "-p with a non-number"
expect_usage "-i of zero"
expect_usage "bad --format"
expect_usage "PID that does not exist"
expect_usage "--threads 0"
expect_usage "--cpus 0 (quota <= 0)"
expect_usage "--size too large"
expect_usage "--streams above the cap"
expect_usage "a workload knob with -p"
expect_usage "--tree without a target"
expect_usage "--no-tree without -- CMD"
expect_usage "--tree and --no-tree together"
expect_usage "--strict without --diagnose"
expect_usage "--sweep with a bad thread list"
expect_usage "command that does not exist"

# --budget of threadlab itself, as text and JSON
bg_end budget
[ "$reaped" = 0 ] && grep -q 'bound by' "$tmp/budget" && ok "--budget text names the binding term" ||
	notok "--budget text names the binding term" "$(head -c 600 "$tmp/budget.err")"
if [ $have_py = 1 ]; then
	bg_end budget.json
	"$PY" - "$tmp/budget.json" <<'PY' >"$tmp/err" 2>&1 && ok "--budget json has every term" || notok "--budget json" "$(cat "$tmp/err")"
import json, os, sys
d = json.load(open(sys.argv[1]))
b = d["budget"]
for k in ("online", "affinity", "cpuset", "quota", "effective", "binding"):
    assert k in b, k
assert b["online"] == os.cpu_count(), b
assert 0 < b["effective"] <= b["online"], b
assert b["binding"] in ("online", "affinity", "cpuset", "quota"), b
PY
else
	skip "--budget json" "python3 missing"
fi

# safe FILE: valid UTF-8 with no C0 control but newline, no DEL, no C1
# (raw or encoded), and the replacement character where the name was.
safe() {
	"$PY" - "$1" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
t = b.decode("utf-8")  # raises on an invalid byte
bad = [c for c in t if (ord(c) < 32 and c != "\n") or 0x7f <= ord(c) <= 0x9f]
assert not bad, "control characters: %r" % bad
assert "\ufffd" in t, "no replacement character"
PY
}
bg_end text
if [ "$reaped" = 0 ] && [ "$(grep -c 'PID' "$tmp/text")" = 2 ] && safe "$tmp/text" 2>"$tmp/err"; then
	ok "--batch text: 2 samples, no control byte from a hostile name"
else
	notok "--batch text hostile name" "$(od -c "$tmp/text" | head -20)"
fi
# CSV keeps data: the name's bytes escaped, never raw controls; one row
# per thread per sample (the target has one thread).
bg_end csv
if "$PY" - "$tmp/csv" "$hp" <<'PY' 2>"$tmp/err"
import csv, io, sys
b = open(sys.argv[1], "rb").read()
assert not any(c < 32 and c not in (10, 13) or c == 127 for c in b), "raw control byte"
rows = list(csv.reader(io.StringIO(b.decode("utf-8", "surrogateescape"))))
h = rows[0]
assert h[0] == "time" and "tid" in h and "name" in h, h
body = rows[1:]
assert len(body) == 2, "%d rows for 1 thread x 2 samples" % len(body)
assert all(r[h.index("tid")] == sys.argv[2] for r in body)
PY
then
	ok "--batch csv: header and one row per thread per sample, no raw control byte"
else
	notok "--batch csv" "$(cat "$tmp/csv" "$tmp/err")"
fi
if [ $have_py = 1 ]; then
	bg_end json
	"$PY" - "$tmp/json" "$hp" <<'PY' >"$tmp/err" 2>&1 && ok "--batch json: 3 JSON Lines with every key; raw name bytes kept" || notok "--batch json" "$(cat "$tmp/err")"
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
assert len(lines) == 3, len(lines)
for l in lines:
    d = json.loads(l)
    for k in ("time", "budget", "cgroup", "threads", "cpus"):
        assert k in d, k
    for k in ("online", "affinity", "cpuset", "quota", "effective", "binding"):
        assert k in d["budget"], k
    for k in ("version", "path", "nr_periods", "nr_throttled", "throttled_pct", "throttled_s_per_s", "psi_some_avg10"):
        assert k in d["cgroup"], k
    t = d["threads"][0]
    for k in ("pid", "tid", "name", "state", "cpu", "cpu_pct", "user_pct", "sys_pct", "wait_pct", "vcsw_per_s", "ivcsw_per_s"):
        assert k in t, k
    assert t["pid"] == int(sys.argv[2])
    raw = t["name"].encode("utf-8", "surrogateescape")
    assert raw == b"x\x1b]0;pwn\x07\xc2\x9b\x9b\xff", raw
    assert isinstance(d["cpus"], list) and len(d["cpus"]) >= 1
PY
else
	skip "--batch json" "python3 missing"
fi

bg_end j5
st=$reaped
if [ $st = 0 ] && "$PY" - "$tmp/j5" <<'PY' 2>>"$tmp/j5.err"
import json, sys
iv = [json.loads(l)["interval"] for l in open(sys.argv[1])]
assert len(iv) == 5, "%d samples" % len(iv)
assert all(0.045 <= x < 5 for x in iv[1:]), iv
PY
then
	ok "-i 0.05 -c 5: 5 samples, each interval at least 0.05 s"
else
	notok "-i 0.05 -c 5" "status $st" "$(cat "$tmp/j5.err")"
fi

bg_end gone
st=$reaped
[ $st = 0 ] && grep -q 'exited' "$tmp/gone.err" && ok "batch stops when the target exits" || notok "batch target exit" "status $st" "$(cat "$tmp/gone.err")"

bg_end cmd
grep -q 'exited with status 3' "$tmp/cmd.err" && [ "$(grep -c PID "$tmp/cmd")" -ge 1 ] && ok "-- CMD is launched, sampled, and its exit status reported" || notok "-- CMD" "$(cat "$tmp/cmd.err")"

if [ $have_py = 1 ]; then
	bg_end noise
	"$PY" -c 'import json,sys; l=open(sys.argv[1]).read().splitlines(); assert len(l) == 2, l; [json.loads(x) for x in l]' "$tmp/noise" 2>/dev/null &&
		grep -q noise-from-cmd "$tmp/noise.err" && ok "-- CMD output goes to stderr, stdout stays JSON" ||
		notok "-- CMD output mixed in" "$(head -c 300 "$tmp/noise")"
else
	skip "-- CMD output" "python3 missing"
fi

bg_end leader
st=$reaped
[ $st = 0 ] && grep -q "^ *$hp  *$hp " "$tmp/leader" && ok "-p of a process leader's TID (its PID) is accepted" ||
	notok "-p leader TID" "status $st" "$(cat "$tmp/leader.err")"
if [ -n "$tid" ]; then
	bg_end tid
	st=$reaped
	[ $st = 2 ] && grep -q "thread of process $mp" "$tmp/tid.err" && ok "-p TID of a non-leader thread is refused with the process to use" || notok "-p TID" "status $st" "$(cat "$tmp/tid.err")"
else
	notok "-p TID: no second thread found in $mp"
fi
stop "$mp"

bg_end tree
grep -q ' sleep ' "$tmp/tree" && ok "--tree includes the child process" || notok "--tree" "$(cat "$tmp/tree" "$tmp/tree.err")"
stop "$tp"

if ! until_true 100 ended "$bp_int"; then
	notok "SIGINT batch: still running 10 s after SIGINT"
	stop "$bp_int"
else
	reap "$bp_int" 30
	st=$reaped
	[ $st = 0 ] && ok "SIGINT ends batch mode with status 0" || notok "SIGINT batch" "status $st"
fi

[ $have_de = 1 ] && bg_end de 180 && [ "$reaped" = 99 ] && have_de=0
if [ $have_de = 1 ]; then
	st=$reaped
	"$PY" -c 'import json,sys; json.load(open(sys.argv[1])); json.loads(open(sys.argv[2]).read())' "$tmp/loc/budget" "$tmp/de" 2>>"$tmp/loc/err" && [ $st = 0 ] &&
		ok "a de_DE locale: JSON stays JSON and -i 0.2 is accepted" || notok "de_DE locale" "$(cat "$tmp/loc/err" "$tmp/loc/budget")"
else
	skip "decimal-comma locale" "localedef or the de_DE locale source (Debian package locales) is missing"
fi

bg_end fx.quarter
cat "$tmp/fx.quarter.err" >>"$tmp/fx.quarter"
grep -q 'effective  0.25 CPUs (bound by quota)' "$tmp/fx.quarter" && ok "--budget --root: a 0.25-CPU quota stays 0.25 and binds" || notok "--budget fixture quarter" "$(cat "$tmp/fx.quarter")"
bg_end fx.ns
cat "$tmp/fx.ns.err" >>"$tmp/fx.ns"
grep -q 'note .*outside what its mount shows' "$tmp/fx.ns" && grep -q 'quota      unknown' "$tmp/fx.ns" && ok "--budget --root: a cgroup outside the mount's view: quota unknown, said" || notok "--budget fixture ns" "$(cat "$tmp/fx.ns")"
