#!/bin/bash
# test-diagnose.sh — the diagnosis against real programs the test starts:
# an OpenMP busy loop (gcc -fopenmp) with too many threads, a
# DataLoader-like forker with --tree, numpy's matrix products on Debian's
# OpenBLAS, an environment that may not be read and one of 1 MB, a sleeping
# target, --diagnose's exit statuses,
# and the dashboard's diagnosis panel in tmux: what holds whatever else the
# machine runs.  The verdicts that hang on the CPU share a job gets (a
# quota that throttles, "fine", the mean runnable threads of a known load)
# are test-diagnose-shares.sh.  Prints TAP.
# Every process and cgroup it makes is removed on exit.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
OMP="$B/tests/lib/omp-busy"
FORKER="$B/tests/lib/forker"

. "$(dirname "$0")/../lib/tap-jobs.sh"
tmux_socket diag

if ! command -v python3 >/dev/null; then
	skip_all "python3 is needed to read the JSON (Debian package python3)"
fi
cpus=$(nproc --all)
plan 16

# ---- an OpenMP loop with more threads than CPUs -----------------------------
start omp env OMP_NUM_THREADS=$((cpus * 3)) "$OMP"
limited 30 "$TL" --diagnose -p "$omp" --seconds 2 --format json >"$tmp/omp.json" 2>"$tmp/omp.err"
st=$?
json_case "OMP_NUM_THREADS=$((cpus * 3)): libgomp found, the value read, oversubscribed, exit $st" "$tmp/omp.json" "
assert $st == 1, 'exit status %d, want 1' % $st
assert d['verdict'] == 'oversubscribed', d['verdict']
assert any(r['name'].startswith('GNU OpenMP') and 'libgomp' in r['library'] for r in d['runtimes']), d['runtimes']
assert d['env']['OMP_NUM_THREADS'] == '$((cpus * 3))', d['env']
eff = int(d['effective_cpus'])
assert any('OMP_NUM_THREADS=%d' % eff in s for s in d['suggestions']), d['suggestions']
assert d['factor'] > 1.2
"
stop "$omp"

# ---- a DataLoader-like job with --tree ----------------------------------------
start fk "$FORKER" 1 2 1
limited 30 "$TL" --diagnose -p "$fk" --tree --seconds 2 --format json >"$tmp/fk.json" 2>&1
json_case "forked workers with --tree: roles main and 2 workers, each with its figures" "$tmp/fk.json" "
roles = {r['kind']: r for r in d['roles']}
assert set(roles) == {'main', 'workers'}, d['roles']
w = roles['workers']
assert w['processes'] == 2 and w['threads'] == 2, w
# two busy workers want two CPUs: run + wait, whatever share they got
assert 0.7 < w['runnable_mean'] < 2.3 and w['cpu_pct'] + w['wait_pct'] > 140, w
assert roles['main']['threads'] == 1
# the roles and what ran unseen (threads or processes that started and
# ended between reads: in the demand, in no role) make the demand
assert abs(sum(r['runnable_mean'] for r in d['roles']) + d['unseen_cpus'] - d['runnable_mean']) < 0.01
assert d['verdict'] == 'oversubscribed' or $cpus >= 3, d['verdict']
"
stop "$fk"

# ---- threads and processes that start and end between two reads ------------------
# unseen_case NAME DESC THREADLAB-ARGS...: --diagnose on both collectors
# (BPF as root), each file NAME.COLLECTOR.json; the work in the short-lived
# threads or processes no read sees is in unseen_cpus, and the verdict is
# not idle (it was: "idle: 0.00 CPUs in use").
unseen_case() {
	local name=$1 desc=$2 c
	shift 2
	for c in bpf proc; do
		[ "$c" = bpf ] && [ "$(id -u)" != 0 ] && continue
		limited 30 "$TL" --diagnose --seconds 3 --collector "$c" --format json "$@" 2>&1 |
			grep -v '^ready' >"$tmp/$name.$c.json"
	done
	json_case "$desc" "$tmp/$name.proc.json" "
import os
for path in [p for p in ('$tmp/$name.bpf.json', '$tmp/$name.proc.json') if os.path.exists(p)]:
    x = json.load(open(path))['diagnosis']
    assert x['verdict'] != 'idle', (path, x['headline'])
    # most of the CPU in use went to them (how much they get depends on
    # the load beside them: 0.33 CPUs alone, 0.08 on a loaded box)
    assert max(0.02, 0.6 * x['cpus_used']) < x['unseen_cpus'] <= x['cpus_used'] + 0.001, (path, x['unseen_cpus'], x['cpus_used'])
    assert x['runnable_mean'] >= x['unseen_cpus'], x
    assert any('no two reads saw' in r and 'started and ended between reads' in r for r in x['reasons']), x['reasons']
"
}
# Each thread spins 30 ms of its own CPU and ends, the main thread sleeps
# 60 ms: about a third of a CPU that no read of a thread sees.
start st "$B/tests/lib/short-threads" 30
unseen_case st "threads that live less than a sample: their CPU from the process's whole run (BPF and /proc)" \
	-p "$st"
stop "$st"
# The same work in child processes -- CMD's tree never reads: each is
# waited for, and its run is in the command's reaped children.
unseen_case sf "child processes that live less than a sample, under -- CMD: their CPU from the reaped children's" \
	-- "$B/tests/lib/short-threads" 30 fork

# ---- numpy on Debian's OpenBLAS ------------------------------------------------
# Debian's numpy is /usr/bin/python3's (another python3 may come first in PATH).
npy=""
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import numpy' 2>/dev/null; then
		npy=$p
		break
	fi
done
if [ -n "$npy" ]; then
	start np "$npy" -c '
import numpy, sys
a = numpy.ones((600, 600))
print("ready", flush=True)
while True:
    a @ a
'
	limited 30 "$TL" --diagnose -p "$np" --seconds 2 --format json >"$tmp/np.json" 2>&1
	json_case "numpy: OpenBLAS found through numpy's libraries, pool of $cpus (the affinity CPUs)" "$tmp/np.json" "
ob = [r for r in d['runtimes'] if r['name'] == 'OpenBLAS']
assert ob, d['runtimes']
assert ob[0]['variant'] == 'pthreads', ob
assert ob[0]['pool'] == min($cpus, 64), ob
threads = sum(r['threads'] for r in d['roles'])
assert threads >= ob[0]['pool'], (threads, ob)
"
	stop "$np"
else
	skip "numpy: OpenBLAS found" "numpy is not installed (Debian package python3-numpy)"
fi

# ---- environments: not readable, and 1 MB -------------------------------------
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	start root1 env OMP_NUM_THREADS=1 "$OMP"
	limited 30 setpriv --reuid=65534 --regid=65534 --clear-groups "$TL" --diagnose -p "$root1" \
		--seconds 1 --format json >"$tmp/un.json" 2>"$tmp/un.err"
	json_case "a root process seen by an unprivileged user: the variables are 'unreadable', never unset" "$tmp/un.json" "
assert d['env']['OMP_NUM_THREADS'] == 'unreadable', d['env']
assert all(v == 'unreadable' for v in d['env'].values()), d['env']
assert any('not readable' in r for r in d['reasons']), d['reasons']
assert d['maps_unreadable'] >= 1 and d['runtimes'] == [], d
assert any('could not be read' in r for r in d['reasons']), d['reasons']
"
	stop "$root1"
else
	skip "an environment that may not be read" "needs root and setpriv to drop to another user"
fi
# One string may hold 128 KiB (MAX_ARG_STRLEN): ten variables of 100 kB.
big=$(head -c 100000 /dev/zero | tr '\0' x)
start bigenv env B0="$big" B1="$big" B2="$big" B3="$big" B4="$big" B5="$big" B6="$big" \
	B7="$big" B8="$big" B9="$big" OMP_NUM_THREADS=2 "$OMP"
limited 30 "$TL" --diagnose -p "$bigenv" --seconds 1 --format json >"$tmp/big.json" 2>&1
json_case "a 1 MB environment: the variable after it is read" "$tmp/big.json" "
assert len(open('/proc/$bigenv/environ', 'rb').read()) > 1000000
assert d['env']['OMP_NUM_THREADS'] == '2', d['env']
"
stop "$bigenv"

# ---- idle, and the exit statuses ---------------------------------------------
sleep 60 &
sl=$!
track "$sl"
limited 30 "$TL" --diagnose -p "$sl" --seconds 1 >"$tmp/idle.txt" 2>&1
st=$?
if [ $st = 0 ] && grep -q '^verdict: idle' "$tmp/idle.txt"; then
	ok "a sleeping process reads 'idle', exit 0"
else
	notok "sleeping reads idle" "exit $st" "$(cat "$tmp/idle.txt")"
fi
limited 30 "$TL" --diagnose -p 999999999 --seconds 1 >"$tmp/bad.out" 2>"$tmp/bad.err"
st=$?
if [ $st = 2 ] && grep -q '^threadlab: no process with PID' "$tmp/bad.err" && [ ! -s "$tmp/bad.out" ]; then
	ok "--diagnose of no such process: exit 2, one line"
else
	notok "--diagnose bad pid" "exit $st" "$(cat "$tmp/bad.err")"
fi
limited 30 "$TL" --diagnose -p "$sl" --format csv >/dev/null 2>"$tmp/bad.err"
st=$?
[ $st = 2 ] && ok "--diagnose --format csv: exit 2 ($(cat "$tmp/bad.err"))" || notok "--diagnose csv" "exit $st"
# threadlab in a session of its own: what it leaves behind is found by that
# session (its PID), never by a name.
spawn timeout -k 5 30 "$TL" --diagnose --seconds 2 -- env OMP_NUM_THREADS=$((cpus * 3)) "$OMP" >"$tmp/cmd.txt" 2>&1
sid=$spawned
reap "$sid" 40
st=$reaped
until_true 100 test -z "$(session_left "$sid")"
if [ $st = 1 ] && grep -q '^verdict: oversubscribed' "$tmp/cmd.txt" && [ -z "$(session_left "$sid")" ]; then
	ok "--diagnose -- CMD: the command diagnosed (exit 1) and stopped after"
else
	notok "--diagnose -- CMD" "exit $st" "$(cat "$tmp/cmd.txt")" "$(session_left "$sid")"
fi

spawn timeout -k 5 30 "$TL" --diagnose --tree --seconds 1 -- sh -c 'sleep 27; true' >/dev/null 2>&1
sid=$spawned
reap "$sid" 40
st=$reaped
until_true 100 test -z "$(session_left "$sid")"
if [ $st = 0 ] && [ -z "$(session_left "$sid")" ]; then
	ok "--diagnose --tree -- CMD: what the command started is stopped with it"
else
	notok "-- CMD leaves its children" "exit $st" "$(session_left "$sid")"
fi
limited 30 "$TL" --diagnose --seconds 1 --no-tree -- sh -c "'$OMP' >/dev/null; true" >"$tmp/notree.txt" 2>&1
st=$?
if [ $st = 0 ] && grep -q "add --tree" "$tmp/notree.txt"; then
	ok "the work in a child with --no-tree: idle, and the suggestion says --tree"
else
	notok "no --tree hint" "exit $st" "$(cat "$tmp/notree.txt")"
fi
# (only onto the device: where something had removed it, > made a regular
# /dev/full that later runs wrote to)
if [ ! -c /dev/full ]; then
	skip "--diagnose onto a full disk" "no /dev/full device here"
else
limited 30 "$TL" --diagnose -p "$sl" --seconds 0.5 >/dev/full 2>"$tmp/full.err"
st=$?
if [ $st = 2 ] && grep -q "cannot write the output" "$tmp/full.err"; then
	ok "--diagnose onto a full disk: exit 2 (an error, not a verdict), one line"
else
	notok "--diagnose > /dev/full" "exit $st" "$(cat "$tmp/full.err")"
fi
fi

# ---- the dashboard's diagnosis ----------------------------------------------------
if tmux_installed; then
	start dfk "$FORKER" 1 2 1
	$T new-session -d -s keep -x 80 -y 24 "sleep 600"
	$T new-session -d -s d -x 100 -y 32 "exec env LC_ALL=C.UTF-8 '$TL' -p $dfk --tree -i 0.5"
	# 3 busy threads (a main and 2 workers) on 2 CPUs: one verdict.
	verdict() {
		pane d >"$tmp/pane" && grep -q 'roles:' "$tmp/pane" && grep -Eq '^oversubscribed' "$tmp/pane" &&
			grep -q 'forked workers' "$tmp/pane"
	}
	if until_true 80 verdict && grep -Eq -- '- forker\(1\)' "$tmp/pane" && grep -q 'runnable .* on average' "$tmp/pane"; then
		ok "dashboard attach: verdict, roles, process rows and mean runnable on screen"
	else
		notok "dashboard attach diagnosis" "$(cat "$tmp/pane")"
	fi
	$T send-keys -t d c
	wait_pane d '\+ forker' 50
	cp "$tmp/pane" "$tmp/pane2"
	if grep -Eq -- '\+ forker' "$tmp/pane2" && ! grep -Eq '^ +[0-9]+ +[0-9]+ forker +R' "$tmp/pane2"; then
		ok "dashboard: c collapses every process to its totals"
	else
		notok "collapse" "$(cat "$tmp/pane2")"
	fi
	$T send-keys -t d q
else
	skip "dashboard attach diagnosis" "tmux is not installed"
	skip "dashboard collapse" "tmux is not installed"
fi

[ "$fails" = 0 ]
