#!/bin/bash
# test-diagnose-shares.sh — the verdicts that hang on the CPU share a job
# gets, against real programs the test starts (a CPU-share test: it runs
# alone, SERIAL_TESTS in Makefile.am): an OpenMP busy loop in a CPU-quota
# cgroup (the quota binds and throttles; one busy thread under half a CPU
# waits only for the throttling; twice the CPUs under one CPU wait for both),
# the mean runnable threads of a known load in every sample,
# a well-configured job that reads fine, and a busy serial loop that reads
# fine with its unused CPU said.  The rest of the diagnosis against real
# programs is test-diagnose.sh.  Prints TAP.  Every process and cgroup it
# makes is removed on exit.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
OMP="$B/tests/lib/omp-busy"
cg=""

. "$(dirname "$0")/../lib/tap-jobs.sh"

if ! command -v python3 >/dev/null; then
	skip_all "python3 is needed to read the JSON (Debian package python3)"
fi
cpus=$(nproc --all)
plan 6

# ---- the same, OMP_NUM_THREADS unset, inside a quota below the CPUs --------
# On cgroup v1 or v2; where root can make a quota cgroup, failing to is a
# failure (the checks below fail on an empty cgroup), not a skip.
if quota_capable; then
	cg_make diag
	cg=$cg_dir
	cg_quota "$cg" 100000 100000
	start oq sh -c "echo \$\$ > '$cg/cgroup.procs' && exec env -u OMP_NUM_THREADS '$OMP'"
	limited 30 "$TL" --diagnose -p "$oq" --seconds 2 --format json >"$tmp/oq.json" 2>"$tmp/oq.err"
	st=$?
	json_case "OMP_NUM_THREADS unset in a 1-CPU quota: quota binds, throttled, libgomp's default named" "$tmp/oq.json" "
assert $st == 1, 'exit status %d' % $st
assert d['binding'] == 'quota' and abs(d['effective_cpus'] - 1.0) < 0.01, (d['binding'], d['effective_cpus'])
# The verdict table's order (docs/design.md): throttled before
# oversubscribed when the quota bit clearly (above the 20 % threshold's
# band) and the throttling explains the wait or the threads would fit the
# CPUs without the quota; only near the threshold may either be said.
clear = d['throttled_pct'] > 25 and (d['throttle_wait_s_per_s'] >= 0.5 * d['wait_s_per_s'] or d['runnable_mean'] <= 1.2 * $cpus)
assert d['verdict'] == 'throttled' if clear else d['verdict'] in ('throttled', 'oversubscribed'), (d['verdict'], d['throttled_pct'], d['throttle_wait_s_per_s'], d['wait_s_per_s'], d['runnable_mean'])
why = ' '.join(r['why'] for r in d['runtimes'])
assert 'OMP_NUM_THREADS unset' in why and 'quota is not seen' in why, why
assert d['env']['OMP_NUM_THREADS'] is None
"
	stop "$oq"
	# cpu.stat's throttled time (ns), and its rate since $1 over $2 s
	throttled_ns() { cg_throttled_ns "$cg"; }
	throttled_rate() { awk -v a="$1" -v b="$(throttled_ns)" -v s="$2" 'BEGIN { printf "%.3f", (b - a) / 1e9 / s }'; }
	# One busy thread under a 0.5-CPU quota: 1.0 runnable, the wait is throttling.
	cg_quota "$cg" 50000 100000
	start one sh -c "echo \$\$ > '$cg/cgroup.procs' && exec env OMP_NUM_THREADS=1 '$OMP'"
	thr0=$(throttled_ns)
	limited 30 "$TL" --diagnose -p "$one" --seconds 3 --format json >"$tmp/one.json" 2>&1
	thr=$(throttled_rate "$thr0" 3)
	json_case "1 busy thread under a 0.5-CPU quota: runnable 1.0, its wait marked as throttling (cgroup throttled $thr s/s)" "$tmp/one.json" "
assert abs(d['runnable_mean'] - 1.0) < 0.15, d['runnable_mean']
# Alone it waits 0.5 s/s, all throttling; on a loaded box others' load
# takes part of the quota's time, and that part of the wait is contention:
# the throttling shown is what cpu.stat says the cgroup was throttled.
tw = d['throttle_wait_s_per_s']
assert abs(tw - min($thr, d['wait_s_per_s'])) <= 0.1 + 0.2 * $thr, (tw, $thr)
assert tw <= d['wait_s_per_s'] + 1e-9, (tw, d['wait_s_per_s'])
assert d['wait_s_per_s'] >= 0.4, d['wait_s_per_s']
# throttled when the quota bit; when others' load kept it from biting,
# the wait is contention, and the verdict says that
if $thr >= 0.2:
    assert d['verdict'] == 'throttled', d['verdict']
    assert any('throttling' in r for r in d['reasons']), d['reasons']
else:
    assert d['verdict'] in ('throttled', 'oversubscribed'), d['verdict']
"
	stop "$one"
	# 2 x the CPUs busy threads under a 1-CPU quota: each CPU's run queue is
	# throttled about half the time, so half of each thread's time is
	# throttling and the rest of its wait is contention (cpu.stat's
	# throttled time is summed over the CPUs: it must not count twice).
	cg_quota "$cg" 100000 100000
	start many sh -c "echo \$\$ > '$cg/cgroup.procs' && exec env OMP_NUM_THREADS=$((cpus * 2)) '$OMP'"
	thr0=$(throttled_ns)
	limited 30 "$TL" --diagnose -p "$many" --seconds 3 --format json >"$tmp/many.json" 2>&1
	thr=$(throttled_rate "$thr0" 3)
	json_case "$((cpus * 2)) busy threads under a 1-CPU quota: throttling and contention both in the wait (cgroup throttled $thr s/s)" "$tmp/many.json" "
n = $((cpus * 2))
tw, w = d['throttle_wait_s_per_s'], d['wait_s_per_s']
# never more than cpu.stat's throttled time allows, and some when it was
assert tw <= 1.2 * $thr * n + 0.05, (tw, $thr)
assert tw > 0 or $thr < 0.1, (tw, $thr)
# n threads wait n s/s less the 1 CPU the quota gives; on a loaded box
# the cgroup may get less than its quota, so more wait, never above n
assert n - 1.5 < w <= n + 0.05, (w, n)
# Both in the wait: some throttling (above), some contention.  How much of
# each is the diagnosis' estimate (cpu.stat's throttled time over the CPUs
# the threads were last seen on), so only the bounds are asserted: when a
# loaded box clusters the threads' last CPUs it leans to throttling.
assert 0 <= tw <= w, (tw, w)
assert w - tw >= 0.1, (w, tw)
"
	stop "$many"
else
	skip "OMP_NUM_THREADS unset in a 1-CPU quota" "$quota_why"
	skip "1 busy thread under a 0.5-CPU quota" "$quota_why"
	skip "busy threads under a 1-CPU quota" "$quota_why"
fi

# ---- mean runnable threads of a known load -----------------------------------
start four env OMP_NUM_THREADS=$((cpus * 2)) "$OMP"
limited 30 "$TL" --batch -p "$four" -c 3 -i 0.5 --format json >"$tmp/four.json" 2>"$tmp/four.err"
json_case "$((cpus * 2)) busy threads on $cpus CPUs: runnable_mean $((cpus * 2)).0 +- 0.3 in every sample" "$tmp/four.json" "
err = open('$tmp/four.err').read()
assert err == '', 'stderr: ' + err
lines = open(sys.argv[1]).readlines()
assert len(lines) == 3, '%d samples, want the 3 asked for' % len(lines)
for l in lines:
    try:
        s = json.loads(l)
    except ValueError:
        raise AssertionError('not JSON: %r' % l[:300])
    assert abs(s['runnable_mean'] - $((cpus * 2))) <= 0.3, s['runnable_mean']
    assert abs(s['diagnosis']['runnable_mean'] - s['runnable_mean']) < 1e-9
"
stop "$four"

# ---- fine, and a serial loop ------------------------------------------------
# A well-configured job reads fine only when nothing else crowds it out:
# it runs in a heavy cpu cgroup (with threadlab) so that the other load of a
# shared machine takes little from it (else it is rightly "contended").
prio_make
start fine prio_run env OMP_NUM_THREADS=$cpus "$OMP"
prio_do timeout -k 5 30 "$TL" --diagnose -p "$fine" --seconds 2 >"$tmp/fine.txt" 2>&1
st=$?
if [ $st = 0 ] && grep -q '^verdict: fine' "$tmp/fine.txt"; then
	ok "OMP_NUM_THREADS=$cpus on $cpus CPUs reads 'fine', exit 0"
else
	notok "well configured reads fine" "exit $st" "$(cat "$tmp/fine.txt")"
fi
stop "$fine"

prio_do timeout -k 5 30 "$TL" --diagnose --seconds 1 --format json -- sh -c 'while :; do :; done' >"$tmp/serial.json" 2>&1
st=$?
json_case "a busy serial loop and no thread pool: fine (exit $st), the unused CPU said" "$tmp/serial.json" "
assert $st == 0 and d['verdict'] == 'fine', ($st, d['verdict'])
# said when the loop had its CPU (at least 90 %; less when others load the machine)
if d['roles'][0]['cpu_pct'] >= 90:
    assert any('looks serial' in r for r in d['reasons']), d['reasons']
"

[ "$fails" = 0 ]
