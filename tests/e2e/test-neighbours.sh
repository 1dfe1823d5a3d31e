#!/bin/bash
# test-neighbours.sh — verdicts on a shared machine, against real programs
# the test starts (issue 16): a serial busy process crowded out by a
# 3-thread neighbour reads contended (exit 1, the neighbour first), so does
# the lab beside it, and fine once the neighbour stops; a thread starved on
# its only CPU by a higher-priority spinner is contended too; 2 lab threads
# under a 1.5-CPU quota while a neighbour holds a CPU say the quota did not
# bind; -- CMD follows its forked workers with no flag; -p without --tree
# whose children work says "add --tree".  Prints TAP.
#
# Other sessions may load this machine: the programs the verdicts are
# about run in a cpu cgroup of high weight (prio_make, root) so that only
# the neighbour the test makes decides what they get; a verdict that noise
# could still flip is asked for again, up to three times.  Every process is tracked by PID and
# killed on exit.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
. "$(dirname "$0")/../lib/tap-jobs.sh"
FORKER="$B/tests/lib/forker"
jobs_need "$FORKER"
plan 8
cpus=$(nproc)
prio_make

# ---- a serial job crowded out by a neighbour, then alone ----------------------
if [ -n "$prio_cg" ]; then
	start serial prio_run "$FORKER" 1 0 0
	start neigh prio_run "$FORKER" $((cpus + 1)) 0 0
	try3 "a serial process beside a $((cpus + 1))-thread neighbour: contended, exit 1, the neighbour first" \
		"$tmp/c.json" "
assert st == 1, 'exit status %d, want 1' % st
assert d['verdict'] == 'contended', (d['verdict'], d['headline'])
assert d['neighbours'][0]['pid'] == $neigh, d['neighbours']
assert d['neighbours'][0]['cpus_used'] > 0.5, d['neighbours']
x = d['neighbours'][0]
assert x['name'] == 'forker' and x['cgroup'] and x['runnable_mean'] >= x['cpus_used'] - 0.05, x
assert 1 <= len(d['neighbours']) <= 5, d['neighbours']
c = [n['cpus_used'] for n in d['neighbours']]
assert c == sorted(c, reverse=True), c
m = d['machine']
assert 0 < m['cpus_used'] <= $cpus + 0.05, m
assert m['psi_some'] is None or 0 <= m['psi_some'] <= 100, m
assert 'the machine runs ' in d['headline'] and ' runnable threads on $cpus CPUs; others: forker (pid $neigh, ' in d['headline'], d['headline']
assert d['machine']['online'] == $cpus and d['machine']['runnable_mean'] > $cpus, d['machine']
assert 'pid $neigh' in d['headline'] and d['headline'].startswith('contended: '), d['headline']
assert d['contention_wait_s_per_s'] >= 0.1
assert any('nothing in this job can help' in s and 'pid $neigh' in s for s in d['suggestions']), d['suggestions']
" prio_do "$TL" --diagnose -p "$serial" --seconds 3 --format json
	# The lab's own diagnosis, same rules: while the neighbour crowds its
	# threads out it never reads fine, from its first verdict on.
	try3 "the lab's 2 threads beside the neighbour: contended in every sample, the neighbour named" \
		"$tmp/labc.json" "
v = [l['diagnosis'] for l in lines if 'diagnosis' in l]
assert len(v) >= 3, lines
bad = [(x['verdict'], x['headline']) for x in v if x['verdict'] == 'fine']
assert not bad, bad
assert v[-1]['verdict'] == 'contended' and 'pid $neigh' in v[-1]['headline'], v[-1]['headline']
" prio_do "$TL" --batch --threads 2 -c 5 -i 1 --format json
	stop "$neigh"
	try3 "the neighbour stopped: fine, exit 0" "$tmp/f.json" "
assert st == 0, 'exit status %d, want 0' % st
assert d['verdict'] == 'fine', (d['verdict'], d['headline'])
assert all(x['pid'] != $neigh for x in d['neighbours']), d['neighbours']
" prio_do "$TL" --diagnose -p "$serial" --seconds 3 --format json
	stop "$serial"
else
	skip "a serial process beside a neighbour: contended" "needs root and a writable cpu controller: the test gives its programs a high CPU weight over the other load of this machine"
	skip "the lab beside the neighbour: contended" "needs root and a writable cpu controller (as above)"
	skip "the neighbour stopped: fine" "needs root and a writable cpu controller (as above)"
fi

# ---- a thread starved on its only CPU by a higher-priority spinner ------------
if [ -n "$prio_cg" ] && [ "$cpus" -ge 2 ]; then
	# the victim first: behind the spinner it would take seconds to say ready
	start vic prio_run taskset -c 1 nice -n 19 "$FORKER" 1 0 0
	start hog prio_run taskset -c 1 nice -n -20 "$FORKER" 1 0 0
	try3 "a thread on CPU 1 beside a nice -20 spinner there: contended, the spinner first, not fine at factor 1.00" \
		"$tmp/starve.json" "
assert st == 1 and d['verdict'] == 'contended', (st, d['verdict'], d['headline'])
assert d['cpus_used'] < 0.3 and d['contention_wait_s_per_s'] > 0.7, (d['cpus_used'], d['headline'])
assert d['neighbours'][0]['pid'] == $hog and d['neighbours'][0]['shares_cpus'], d['neighbours']
" prio_do "$TL" --diagnose -p "$vic" --seconds 3 --format json
	# the spinner first: killed, the starved thread must still run to exit
	stop "$hog"
	stop "$vic"
else
	skip "a thread starved by a higher-priority spinner" "needs root, a writable cpu controller and 2 CPUs"
fi

# ---- the lab under a 1.5-CPU quota while a neighbour holds a CPU --------------
if quota_capable && [ "$cpus" -ge 2 ]; then
	start hold prio_run taskset -c 1 "$FORKER" 1 0 0
	try3 "2 lab threads under a 1.5-CPU quota, a neighbour on CPU 1: the quota did not bind, and why" \
		"$tmp/lab.json" "
assert d['verdict'] != 'fine' or d['borderline'], d['headline']
r = ' | '.join(d['reasons'])
assert 'the 1.50-CPU quota did not bind: other processes used' in r, r
assert d['cpus_used'] < 1.4, d['cpus_used']
assert d['machine']['others_shared_cpus'] >= 0.5, d['machine']
assert any(x['pid'] == $hold for x in d['neighbours']), d['neighbours']
" prio_do "$TL" --batch --threads 2 --cpus 1.5 -c 4 -i 1 --format json
	stop "$hold"
else
	skip "the lab under a quota beside a neighbour" "${quota_why:-fewer than 2 CPUs}"
fi

# ---- -- CMD follows its forked workers ----------------------------------------
try3 "-- CMD with forked workers, no flags: the workers are in the verdict and the roles" "$tmp/cmd.json" "
roles = {r['kind']: r for r in d['roles']}
assert 'workers' in roles and roles['workers']['processes'] == 2, d['roles']
assert roles['workers']['threads'] == 2, roles['workers']
assert d['unfollowed'] == 0
# the roles and what ran unseen (threads or processes that started and
# ended between reads: in the demand, in no role) make the demand
assert abs(sum(r['runnable_mean'] for r in d['roles']) + d['unseen_cpus'] - d['runnable_mean']) < 0.01
assert d['runnable_mean'] > 1.5, d['runnable_mean']
" prio_do "$TL" --diagnose --seconds 2 --format json -- "$FORKER" 1 2 1
"$TL" --diagnose --seconds 1 --no-tree -- "$FORKER" 1 2 1 >"$tmp/nt.txt" 2>&1
if grep -q "add --tree" "$tmp/nt.txt" && ! grep -q "forked workers" "$tmp/nt.txt"; then
	ok "--no-tree: the command alone, and the verdict says to add --tree"
else
	notok "--no-tree" "$(cat "$tmp/nt.txt")"
fi

# ---- -p without --tree whose children work -------------------------------------
start par prio_run "$FORKER" 0 2 1
try3 "-p PID without --tree, its 2 children busy: the verdict line says add --tree" "$tmp/p.json" "
assert 'add --tree' in d['headline'], d['headline']
assert d['machine']['children'] == 2 and d['machine']['children_cpus'] > 0.2, d['machine']
assert d['suggestions'] and 'add --tree' in d['suggestions'][0], d['suggestions']
" prio_do "$TL" --diagnose -p "$par" --seconds 2 --format json
stop "$par"
