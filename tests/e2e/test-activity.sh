#!/bin/bash
# test-activity.sh — what each thread is doing, against real programs the
# test starts (issue 16): a thread blocked on a pipe reads input-wait, a
# sleeping one sleep, one on a condition variable pool-idle, a busy one
# compute; a spinning OpenMP team reads spin beside its computing main
# thread, in the table and summed in the thread group; a trainer whose
# main loop waits on 2 slow multiprocessing workers is input-bound
# (input_wait_pct > 50, a reason, more workers suggested first), with fast
# workers it waits under 15 %.  Prints TAP.
#
# The programs run in a cpu cgroup of high weight (prio_make, root), so
# that the other load of this machine does not turn their busy threads
# into waiting-cpu ones; a check that noise could still flip is tried up to
# three times.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
. "$(dirname "$0")/../lib/tap-jobs.sh"
BLOCKER="$B/tests/lib/blocker"
TEAM="$B/tests/lib/omp-team"
SRC="${THREADLAB_SRCDIR:-$(dirname "$0")/../..}"
LOADER="$SRC/tests/lib/mp-loader.py"
jobs_need "$BLOCKER" "$TEAM"
plan 4
prio_make

# ---- threads that wait in known ways -------------------------------------------
start blk prio_run "$BLOCKER"
tid() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/start.blk"; }
try3 "a pipe read is input-wait, nanosleep sleep, a condition variable pool-idle, a busy loop compute" \
	"$tmp/blk.json" "
act = {t['tid']: t['activity'] for t in last['threads']}
want = {$(tid pipe): 'input-wait', $(tid sleep): 'sleep', $(tid futex): 'pool-idle', $(tid busy): 'compute'}
bad = {t: (act.get(t), w) for t, w in want.items() if act.get(t) != w}
assert not bad, bad
g = d['groups'][0]['activity']
assert g.get('input-wait') == 1 and g.get('sleep', 0) >= 1 and g.get('compute') == 1, g
" prio_do "$TL" --batch -p "$blk" -c 2 -i 1 --format json
stop "$blk"

# ---- a spinning OpenMP team -----------------------------------------------------
# OMP_WAIT_POLICY=active: the team waits for the next parallel region
# spinning in libgomp while the main thread computes alone.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 3)
if [ "$(id -u)" = 0 ] || [ "$paranoid" -le 2 ]; then
	start team prio_run env OMP_WAIT_POLICY=active "$TEAM" 2 spin
	try3 "a spinning OpenMP team: its waiting thread reads spin, the main thread compute" "$tmp/team.json" "
rows = last['threads']
main = [t for t in rows if t['tid'] == t['pid']]
others = [t for t in rows if t['tid'] != t['pid']]
assert main and main[0]['activity'] == 'compute', rows
assert others and all(t['activity'] == 'spin' for t in others), rows
g = d['groups'][0]['activity']
assert g.get('spin') == len(others) and g.get('compute') == 1, g
" prio_do "$TL" --batch -p "$team" -c 4 -i 1 --format json
	stop "$team"
else
	skip "a spinning OpenMP team reads spin" "perf events refused here (not root, kernel.perf_event_paranoid=$paranoid): spin is told apart only for OpenBLAS's pthreads pool"
fi

# ---- an input-bound trainer, and the same fed fast ----------------------------------
if [ -f "$LOADER" ]; then
	start slow prio_run "$PY" "$LOADER" 2 100 5
	try3 "2 workers at 100 ms an item, 5 ms of compute each (the main role would wait 90 %): it waits over 50 %, input-bound, more workers first" \
		"$tmp/slow.json" "
main = [r for r in d['roles'] if r['kind'] == 'main'][0]
assert main['input_wait_pct'] > 50, main
assert d['input_bound'], d['reasons']
assert any('the main process waited' in r and 'on its 2 forked workers' in r for r in d['reasons']), d['reasons']
s = d['suggestions'][0]
assert s.startswith('use ') and 'workers instead of 2' in s or 'cheaper' in s, s
assert not any(x.startswith('use 1 of') for x in d['suggestions']), d['suggestions']
" prio_do "$TL" --diagnose -p "$slow" --tree --seconds 3 --format json
	stop "$slow"
	start fast prio_run "$PY" "$LOADER" 2 1 5
	try3 "workers at 1 ms an item: the main role waits under 15 %, not input-bound" "$tmp/fast.json" "
main = [r for r in d['roles'] if r['kind'] == 'main'][0]
assert main['input_wait_pct'] < 15, main
assert not d['input_bound'], d['reasons']
" prio_do "$TL" --diagnose -p "$fast" --tree --seconds 3 --format json
	stop "$fast"
else
	skip "an input-bound trainer" "$LOADER not found"
	skip "a trainer fed fast" "$LOADER not found"
fi
