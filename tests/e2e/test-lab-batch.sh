#!/bin/bash
# test-lab-batch.sh — the lab from the command line, end to end: --batch with
# the workload (its JSON object, its thread names), what is left after a
# normal exit and after SIGINT, SIGTERM, SIGHUP and SIGKILL (the stale quota
# cgroup removed by the next start), and --sweep's JSON.  The rest of the
# command line is test-process-batch.sh.  Prints TAP.  Every process it
# starts is killed on exit.
#
# The labs run one at a time (a lab starting beside another starts slower,
# and its busy threads burn the CPU it waits for), each started once the
# one before has done its work: what overlaps is the one's start and the
# other's way out (its processes stopped, the sanitizers' exit checks).
# The cases are reported in plan order after the last.
set -u

. "$(dirname "$0")/../lib/tap-lib.sh"

# Python validates JSON; absent python3, JSON checks are skipped visibly.
# Debian's python3 (a python3 first in PATH may be a shim that costs a
# second a start).
have_py=1
command -v "$PY" >/dev/null || have_py=0
plan 7

# The lab in batch mode: workload object, thread names, nothing left behind.
lab_procs() { # the lab processes under threadlab $1: its anchor and the anchor's children
	local a
	for a in $(pgrep -P "$1"); do echo "$a"; pgrep -P "$a"; done
}
# lab_wait PID: threadlab PID's anchor and its helpers run; the anchor's
# PID in $anchor.
anchor=""
lab_wait() { until_true 300 lab_up "$1"; } # up to 30 s: a lab's start under ASan on a loaded box took over 10
lab_up() {
	anchor=$(pgrep -P "$1" -x tl-anchor | head -n1)
	[ -n "$anchor" ] && [ -n "$(pgrep -P "$anchor")" ]
}
lab_left() { # $1: the lab's cgroup seen while it ran, $2: its lab processes; prints what is still there
	local p
	for p in $2; do alive "$p" && echo "process $p ($(cat /proc/$p/comm 2>/dev/null))"; done
	[ -n "$1" ] && [ -d "$1" ] && echo "cgroup $1"
}
# lab_watch NAME PID PROCS SECONDS: in the background, once threadlab PID
# has ended (at most SECONDS), what of its lab processes PROCS is still
# there 3 s after (empty: none) into $tmp/NAME.left; its PID in
# watcher[NAME].  The next lab starts meanwhile.
declare -A watcher
lab_watch() {
	(
		until_true $(($4 * 10)) ended "$2"
		left=$(until_none 30 lab_left "" "$3")
		printf '%s' "$left" >"$tmp/$1.left"
	) &
	watcher[$1]=$!
	track "$!"
}
# The workload object, thread names, nothing left behind: its processes
# seen while it runs, the next lab started once its samples are out.
if [ $have_py = 1 ]; then
	bg_start lab "$TL" --batch -c 3 -i 0.4 --size 256 --threads 2 --workers 1 --format json
	lab_wait "${bg_pid[lab]}"
	lprocs=$(lab_procs "${bg_pid[lab]}")
	lab_watch lab "${bg_pid[lab]}" "$lprocs" 30
	samples() { [ "$(wc -l <"$tmp/lab")" -ge 3 ] || ended "${bg_pid[lab]}"; }
	until_true 300 samples
fi
# SIGINT, SIGTERM and SIGHUP: each lab signalled once it runs.
declare -A sig_pid sig_procs
for sig in INT TERM HUP; do
	set -m # else the background job starts with SIGINT ignored
	"$TL" --batch -i 0.2 --size 256 --workers 1 >/dev/null 2>&1 &
	sig_pid[$sig]=$!
	set +m
	track "${sig_pid[$sig]}"
	lab_wait "${sig_pid[$sig]}"
	sig_procs[$sig]=$(lab_procs "${sig_pid[$sig]}")
	kill -"$sig" "${sig_pid[$sig]}"
	lab_watch "$sig" "${sig_pid[$sig]}" "${sig_procs[$sig]}" 10
done
# SIGKILL: helpers die with threadlab (PDEATHSIG); the stale quota cgroup
# is removed by the next start.
quota=0
if quota_capable; then
	quota=1
	"$TL" --batch -i 0.2 --size 256 --cpus 1.5 >/dev/null 2>&1 &
	bp=$!
	track "$bp"
	lab_wait "$bp"
	# The quota cgroup holds the anchor: found by its PID, not by a name.
	had=$(cg_of "${anchor:-0}")
	cg_track "$had"
	lp=$(lab_procs "$bp")
	kill -KILL "$bp"
	reap "$bp" 5
	kill_procs=$(until_none 30 lab_left "" "$lp") # the anchor gives its group 300 ms of grace
	bg_start next "$TL" --batch -c 1 -i 0.1 --size 256
	bg_end next 60
fi
# --sweep: a well-formed table with its environment header
[ $have_py = 1 ] && bg_start sw "$TL" --sweep --threads 1,2 --seconds 0.3 --size 256 --format json

# ---- the cases, in plan order ---------------------------------------------------
if [ $have_py = 1 ]; then
	bg_end lab 30
	st=$reaped
	"$PY" - "$tmp/lab" <<'PY' >"$tmp/err2" 2>&1 && [ $st = 0 ] && ok "--batch lab: workload object, gemm0 + gemm0.w1 threads, worker pid" || notok "--batch lab json" "status $st" "$(cat "$tmp/lab.err" "$tmp/err2")"
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
[ -n "${watcher[lab]:-}" ] && reap "${watcher[lab]}" 40
left=$(cat "$tmp/lab.left" 2>/dev/null || echo "not looked at")
[ -n "${lprocs:-}" ] && [ -z "$left" ] && ok "normal exit of the lab leaves no process or cgroup" || notok "lab leftovers after exit" "procs: ${lprocs:-none seen}" "$left"

for sig in INT TERM HUP; do
	reap "${watcher[$sig]}" 20
	reap "${sig_pid[$sig]}" 10
	procs=${sig_procs[$sig]}
	left=$(cat "$tmp/$sig.left" 2>/dev/null || echo "not looked at")
	[ -n "$procs" ] && [ -z "$left" ] && ok "SIG$sig: the lab's processes are gone" || notok "SIG$sig leftovers" "procs: ${procs:-none seen}" "$left"
done

if [ $have_py = 1 ]; then
	bg_end sw
	st=$reaped
	"$PY" - "$tmp/sw" <<'PY' >"$tmp/err2" 2>&1 && [ $st = 0 ] && ok "--sweep json: env header and one row per thread count" || notok "--sweep json" "status $st" "$(cat "$tmp/sw.err" "$tmp/err2")"
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

if [ $quota = 1 ]; then
	if [ -n "$had" ] && [ -z "$kill_procs" ] && [ ! -d "$had" ]; then
		ok "SIGKILL: helpers died with threadlab; the next start removed the stale cgroup"
	else
		notok "SIGKILL cleanup" "cgroup: ${had:-none made}" "procs: $kill_procs" "still there: $(ls -d "$had" 2>/dev/null)"
	fi
else
	skip "SIGKILL cleanup of the quota cgroup" "$quota_why"
fi
