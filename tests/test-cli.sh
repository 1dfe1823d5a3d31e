#!/bin/bash
# test-cli.sh — threadlab's command line, --budget and --batch, end to end.
# Prints TAP.  Every process it starts is killed on exit.
set -u
TL="${THREADLAB_BUILDDIR:-.}/threadlab"
SRC="${THREADLAB_SRCDIR:-.}"
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do { kill -9 "$p"; wait "$p"; } 2>/dev/null; done
	rm -rf "$tmp"
}

. "$(dirname "$0")/tap-lib.sh"
check() { # check "description" command...
	local d="$1"; shift
	if "$@" >"$tmp/out" 2>"$tmp/err"; then ok "$d"; else notok "$d" "$(head -c 600 "$tmp/err")"; fi
}

# Exit status and one-line message of a bad invocation.
expect_usage() {
	local d="$1"; shift
	"$TL" "$@" >"$tmp/out" 2>"$tmp/err"
	local st=$?
	if [ "$st" = 2 ] && grep -q '^threadlab: ' "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "$d (exit 2: $(head -n1 "$tmp/err"))"
	else
		notok "$d" "status $st" "$(cat "$tmp/err")"
	fi
}

# Python validates JSON; absent python3, JSON checks are skipped visibly.
have_py=1
command -v python3 >/dev/null || have_py=0
plan 41


"$TL" --help >"$tmp/out" 2>&1 && grep -q -- '--batch' "$tmp/out" && grep -q 'Exit status' "$tmp/out" &&
	ok "--help documents modes and exit statuses" || notok "--help" "$(cat "$tmp/out")"
"$TL" --version | grep -q '^threadlab [0-9]' && ok "--version" || notok "--version"

expect_usage "unknown option" --frobnicate
expect_usage "-p with a non-number" -p abc
expect_usage "-i of zero" --batch -p 1 -i 0
expect_usage "bad --format" --batch -p 1 --format xml
expect_usage "PID that does not exist" --batch -p 999999999 -c 1
expect_usage "--threads 0" --batch --threads 0
expect_usage "--cpus 0 (quota <= 0)" --batch --cpus 0
expect_usage "--size too large" --batch --size 99999999
expect_usage "--streams above the cap" --batch --streams 17
expect_usage "a workload knob with -p" --batch -p 1 --cpus 1
expect_usage "--tree without a target" --batch --tree
expect_usage "--no-tree without -- CMD" --diagnose -p 1 --no-tree
expect_usage "--tree and --no-tree together" --diagnose --tree --no-tree -- true
expect_usage "--strict without --diagnose" --batch -p 1 --strict
expect_usage "--sweep with a bad thread list" --sweep --threads 1,0
expect_usage "command that does not exist" --batch -- /nonexistent/cmd

# --budget of threadlab itself, as text and JSON
check "--budget text names the binding term" sh -c "'$TL' --budget | grep -q 'bound by'"
if [ $have_py = 1 ]; then
	"$TL" --budget --format json >"$tmp/b.json" 2>"$tmp/err"
	python3 - "$tmp/b.json" <<'PY' >"$tmp/err" 2>&1 && ok "--budget json has every term" || notok "--budget json" "$(cat "$tmp/err")"
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

# A process with a hostile name: ESC, BEL, an OSC title, a C1 CSI (UTF-8
# encoded and raw) and an invalid byte.
bash -c 'printf "x\033]0;pwn\007\302\233\233\377" > /proc/self/comm; while :; do sleep 0.2; done' &
hp=$!
pids+=("$hp")
wait_name() { for _ in $(seq 50); do grep -q pwn "/proc/$hp/comm" 2>/dev/null && return; sleep 0.05; done; }
wait_name
# safe FILE: valid UTF-8 with no C0 control but newline, no DEL, no C1
# (raw or encoded), and the replacement character where the name was.
safe() {
	python3 - "$1" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
t = b.decode("utf-8")  # raises on an invalid byte
bad = [c for c in t if (ord(c) < 32 and c != "\n") or 0x7f <= ord(c) <= 0x9f]
assert not bad, "control characters: %r" % bad
assert "\ufffd" in t, "no replacement character"
PY
}
LC_ALL=C.UTF-8 "$TL" --batch -p "$hp" -c 2 -i 0.1 >"$tmp/text" 2>"$tmp/err"
if [ $? = 0 ] && [ "$(grep -c 'PID' "$tmp/text")" = 2 ] && safe "$tmp/text" 2>"$tmp/err"; then
	ok "--batch text: 2 samples, no control byte from a hostile name"
else
	notok "--batch text hostile name" "$(od -c "$tmp/text" | head -20)"
fi
"$TL" --batch -p "$hp" -c 2 -i 0.1 --format csv >"$tmp/csv" 2>"$tmp/err"
# CSV keeps data: the name's bytes escaped, never raw controls; one row
# per thread per sample (the target has one thread).
if python3 - "$tmp/csv" "$hp" <<'PY' 2>"$tmp/err"
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
	"$TL" --batch -p "$hp" -c 3 -i 0.05 --format json >"$tmp/j" 2>"$tmp/err"
	python3 - "$tmp/j" "$hp" <<'PY' >"$tmp/err" 2>&1 && ok "--batch json: 3 JSON Lines with every key; raw name bytes kept" || notok "--batch json" "$(cat "$tmp/err")"
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

# -i with a fraction: 5 samples, 0.05 s apart at least (the interval is a
# floor that no load can shorten; a loaded box may stretch it).
"$TL" --batch -p "$hp" -c 5 -i 0.05 --format json >"$tmp/j5" 2>"$tmp/err"
st=$?
if [ $st = 0 ] && python3 - "$tmp/j5" <<'PY' 2>>"$tmp/err"
import json, sys
iv = [json.loads(l)["interval"] for l in open(sys.argv[1])]
assert len(iv) == 5, "%d samples" % len(iv)
assert all(0.045 <= x < 5 for x in iv[1:]), iv
PY
then
	ok "-i 0.05 -c 5: 5 samples, each interval at least 0.05 s"
else
	notok "-i 0.05 -c 5" "status $st" "$(cat "$tmp/err")"
fi

# The target exits: batch stops by itself and says so.  The target ends
# only after the first samples are out, however slow the start (ASan, the
# BPF collector's load on a loaded box).
: >"$tmp/out"
sh -c 'until [ -s "$1" ]; do sleep 0.1; done; sleep 0.3' _ "$tmp/out" &
sp=$!
track "$sp"
"$TL" --batch -p "$sp" -i 0.1 >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st = 0 ] && grep -q 'exited' "$tmp/err" && ok "batch stops when the target exits" || notok "batch target exit" "status $st" "$(cat "$tmp/err")"

# -- CMD: launch, monitor, stop when it exits, with its status (it exits
# once a sample is out).
: >"$tmp/out"
"$TL" --batch -i 0.1 -- sh -c 'until [ -s "$1" ]; do sleep 0.1; done; sleep 0.2; exit 3' _ "$tmp/out" >"$tmp/out" 2>"$tmp/err"
grep -q 'exited with status 3' "$tmp/err" && [ "$(grep -c PID "$tmp/out")" -ge 1 ] && ok "-- CMD is launched, sampled, and its exit status reported" || notok "-- CMD" "$(cat "$tmp/err")"

# The launched command's own output must not mix into batch data.  It
# lives until threadlab has its two samples and stops it (a fixed second
# was too short for a loaded sanitizer build's start).
if [ $have_py = 1 ]; then
	"$TL" --batch -i 0.1 -c 2 --format json -- sh -c 'echo noise-from-cmd; exec sleep 60' >"$tmp/out" 2>"$tmp/err"
	python3 -c 'import json,sys; l=open(sys.argv[1]).read().splitlines(); assert len(l) == 2, l; [json.loads(x) for x in l]' "$tmp/out" 2>/dev/null &&
		grep -q noise-from-cmd "$tmp/err" && ok "-- CMD output goes to stderr, stdout stays JSON" ||
		notok "-- CMD output mixed in" "$(head -c 300 "$tmp/out")"
else
	skip "-- CMD output" "python3 missing"
fi

# A thread ID is not a process: say which process to use.
"$TL" --batch -c 1 -p "$(ls /proc/$hp/task | head -n1)" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st = 0 ] && grep -q "^ *$hp  *$hp " "$tmp/out" && ok "-p of a process leader's TID (its PID) is accepted" ||
	notok "-p leader TID" "status $st" "$(cat "$tmp/err")"
python3 -c 'import threading,time; t=threading.Thread(target=time.sleep,args=(5,)); t.start(); time.sleep(5)' &
mp=$!
pids+=("$mp")
tid=""
for _ in $(seq 100); do
	tid=$(ls /proc/$mp/task 2>/dev/null | grep -v "^$mp$" | head -n1)
	[ -n "$tid" ] && break
	sleep 0.1
done
if [ -n "$tid" ]; then
	"$TL" --batch -c 1 -p "$tid" >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ $st = 2 ] && grep -q "thread of process $mp" "$tmp/err" && ok "-p TID of a non-leader thread is refused with the process to use" || notok "-p TID" "status $st" "$(cat "$tmp/err")"
else
	notok "-p TID: no second thread found in $mp"
fi

# --tree sees a child's threads
# (in its own group: the sleep grandchild is stopped with it)
spawn bash -c 'sleep 30 & wait'
tp=$spawned
for _ in $(seq 50); do [ -n "$(pgrep -P "$tp")" ] && break; sleep 0.1; done
"$TL" --batch --tree -p "$tp" -c 1 -i 0.1 >"$tmp/out" 2>"$tmp/err"
grep -q ' sleep ' "$tmp/out" && ok "--tree includes the child process" || notok "--tree" "$(cat "$tmp/out" "$tmp/err")"
stop "$tp"

# SIGINT stops a batch run cleanly with status 0.  Without job control a
# background job starts with SIGINT ignored, so set -m; the wait is bounded.
set -m
"$TL" --batch -p "$hp" -i 0.1 >"$tmp/out" 2>&1 &
bp=$!
set +m
pids+=("$bp")
for _ in $(seq 50); do grep -q PID "$tmp/out" && break; sleep 0.1; done
kill -INT "$bp"
for _ in $(seq 100); do kill -0 "$bp" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$bp" 2>/dev/null; then
	notok "SIGINT batch: still running 10 s after SIGINT"
	stop "$bp"
else
	reap "$bp" 30
	st=$reaped
	[ $st = 0 ] && ok "SIGINT ends batch mode with status 0" || notok "SIGINT batch" "status $st"
fi

# A locale whose decimal separator is ',' must not leak into data or options.
mkdir -p "$tmp/loc"
if command -v localedef >/dev/null && [ -f /usr/share/i18n/locales/de_DE ] && [ $have_py = 1 ] &&
	localedef -i de_DE -f UTF-8 "$tmp/loc/de_DE.UTF-8" >/dev/null 2>&1; then
	LOCPATH="$tmp/loc" LC_ALL=de_DE.UTF-8 "$TL" --budget --format json >"$tmp/out" 2>"$tmp/err"
	LOCPATH="$tmp/loc" LC_ALL=de_DE.UTF-8 "$TL" --batch -p "$hp" -c 1 -i 0.2 --format json >"$tmp/out2" 2>>"$tmp/err"
	st=$?
	python3 -c 'import json,sys; json.load(open(sys.argv[1])); json.loads(open(sys.argv[2]).read())' "$tmp/out" "$tmp/out2" 2>>"$tmp/err" && [ $st = 0 ] &&
		ok "a de_DE locale: JSON stays JSON and -i 0.2 is accepted" || notok "de_DE locale" "$(cat "$tmp/err" "$tmp/out")"
else
	skip "decimal-comma locale" "localedef or the de_DE locale source (Debian package locales) is missing"
fi

# --budget against fixture trees: the collectors' root is redirectable.
FX="$SRC/tests/fixtures"
"$TL" --budget --root "$FX/cg-v2-quarter" -p 4242 >"$tmp/out" 2>&1
grep -q 'effective  0.25 CPUs (bound by quota)' "$tmp/out" && ok "--budget --root: a 0.25-CPU quota stays 0.25 and binds" || notok "--budget fixture quarter" "$(cat "$tmp/out")"
"$TL" --budget --root "$FX/cg-ns-hidden" -p 4242 >"$tmp/out" 2>&1
grep -q 'note .*not visible' "$tmp/out" && ok "--budget --root: namespace fallback is said" || notok "--budget fixture ns" "$(cat "$tmp/out")"

# The lab in batch mode: workload object, thread names, nothing left behind.
lab_procs() { # the lab processes under threadlab $1: its anchor and the anchor's children
	local a
	for a in $(pgrep -P "$1"); do echo "$a"; pgrep -P "$a"; done
}
# lab_wait PID: threadlab PID's anchor and its helpers run (at most 10 s);
# the anchor's PID in $anchor.
anchor=""
lab_wait() { # up to 30 s: a lab's start under ASan on a loaded box took over 10
	local i
	for ((i = 0; i < 300; i++)); do
		anchor=$(pgrep -P "$1" -x tl-anchor | head -n1)
		[ -n "$anchor" ] && [ -n "$(pgrep -P "$anchor")" ] && return 0
		sleep 0.1
	done
	return 1
}
lab_left() { # $1: the lab's cgroup seen while it ran, $2: its lab processes; prints what is still there
	local p
	for p in $2; do alive "$p" && echo "process $p ($(cat /proc/$p/comm 2>/dev/null))"; done
	[ -n "$1" ] && [ -d "$1" ] && echo "cgroup $1"
}
if [ $have_py = 1 ]; then
	"$TL" --batch -c 3 -i 0.4 --size 256 --threads 2 --workers 1 --format json >"$tmp/lab" 2>"$tmp/err" &
	lp=$!
	lab_wait "$lp"
	lprocs=$(lab_procs "$lp")
	reap "$lp" 30
	st=$reaped
	python3 - "$tmp/lab" <<'PY' >"$tmp/err2" 2>&1 && [ $st = 0 ] && ok "--batch lab: workload object, gemm0 + gemm0.w1 threads, worker pid" || notok "--batch lab json" "status $st" "$(cat "$tmp/err" "$tmp/err2")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 3, len(lines)
w = lines[-1]["workload"]
for k in ("threads", "streams", "size", "precision", "workers", "gflops", "ideal_gflops",
          "ceiling_gflops", "single_thread_gflops", "results_equal", "pids"):
    assert k in w, k
assert w["threads"] == 2 and w["size"] == 256 and w["workers"] == 1, w
assert len(w["pids"]) >= 3, w["pids"]
assert w["gflops"] > 0, w
# 2 threads may sum in another order than the 1-thread reference: then the
# difference must be reported, and small.
assert w["results_equal"] is True or (w["results_equal"] is False and 0 < w["max_diff"] < 1e-3), w
names = {t["name"] for t in lines[-1]["threads"]}
assert "gemm0" in names and "gemm0.w1" in names, names
PY
else
	skip "--batch lab json" "python3 missing"
fi
# shellcheck disable=SC2086
gone ${lprocs:-}
left=$(lab_left "" "${lprocs:-}")
[ -n "${lprocs:-}" ] && [ -z "$left" ] && ok "normal exit of the lab leaves no process or cgroup" || notok "lab leftovers after exit" "procs: ${lprocs:-none seen}" "$left"

for sig in INT TERM HUP; do
	set -m # else the background job starts with SIGINT ignored
	"$TL" --batch -i 0.2 --size 256 --workers 1 >/dev/null 2>&1 &
	bp=$!
	set +m
	pids+=("$bp")
	lab_wait "$bp"
	procs=$(lab_procs "$bp")
	kill -$sig "$bp"
	reap "$bp" 10
	for _ in $(seq 30); do
		left=$(lab_left "" "$procs")
		[ -z "$left" ] && break
		sleep 0.1
	done
	[ -n "$procs" ] && [ -z "$left" ] && ok "SIG$sig: the lab's processes are gone" || notok "SIG$sig leftovers" "procs: ${procs:-none seen}" "$left"
done

# --sweep: a well-formed table with its environment header
if [ $have_py = 1 ]; then
	"$TL" --sweep --threads 1,2 --seconds 0.3 --size 256 --format json >"$tmp/sw" 2>"$tmp/err"
	st=$?
	python3 - "$tmp/sw" <<'PY' >"$tmp/err2" 2>&1 && [ $st = 0 ] && ok "--sweep json: env header and one row per thread count" || notok "--sweep json" "status $st" "$(cat "$tmp/err" "$tmp/err2")"
import json, sys
d = json.load(open(sys.argv[1]))
env = d["env"]
for k in ("cpu_model", "online", "affinity", "quota_cpus", "openblas_config", "openblas_variant",
          "blas_spin", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "kernel", "date"):
    assert k in env, k
rows = d["rows"]
assert [r["threads"] for r in rows] == [1, 2], rows
for r in rows:
    for k in ("streams", "threads", "gflops", "speedup", "efficiency", "ceiling_pct", "wait_pct",
              "throttled_pct", "results_equal"):
        assert k in r, k
    assert r["gflops"] > 0, r
PY
else
	skip "--sweep json" "python3 missing"
fi

# SIGKILL: helpers die with threadlab (PDEATHSIG); the stale quota cgroup
# is removed by the next start.
if quota_capable; then
	"$TL" --batch -i 0.2 --size 256 --cpus 1.5 >/dev/null 2>&1 &
	bp=$!
	pids+=("$bp")
	lab_wait "$bp"
	# The quota cgroup holds the anchor: found by its PID, not by a name.
	had=$(cg_of "${anchor:-0}")
	cg_track "$had"
	lp=$(lab_procs "$bp")
	kill -KILL "$bp"
	reap "$bp" 5
	for _ in $(seq 30); do # the anchor gives its group 300 ms of grace
		procs=$(lab_left "" "$lp")
		[ -z "$procs" ] && break
		sleep 0.1
	done
	"$TL" --batch -c 1 -i 0.1 --size 256 >/dev/null 2>&1
	if [ -n "$had" ] && [ -z "$procs" ] && [ ! -d "$had" ]; then
		ok "SIGKILL: helpers died with threadlab; the next start removed the stale cgroup"
	else
		notok "SIGKILL cleanup" "cgroup: ${had:-none made}" "procs: $procs" "still there: $(ls -d "$had" 2>/dev/null)"
	fi
else
	skip "SIGKILL cleanup of the quota cgroup" "$quota_why"
fi

