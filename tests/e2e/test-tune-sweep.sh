#!/bin/bash
# test-tune-sweep.sh — the command sweep on this machine's CPUs (issue 11),
# the part of test-tune.sh that compares rates and so runs alone
# (SERIAL_TESTS): OMP_NUM_THREADS=1,2,4 (2 faster than 1, 4 not faster than
# 2, each row's environment read from the command), then a CPU quota that
# throttles 2 threads; no run and no cgroup of either is left.  Prints TAP.
# Rates are compared only within one run, with margins a busy shared
# machine keeps; a comparison that noise could flip is tried up to three
# times.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
. "$(dirname "$0")/../lib/tap-steps.sh"
plan 4

# The table on this 2-CPU machine: 2 threads faster than 1, 4 not faster than 2.
try=0
while :; do
	try=$((try + 1))
	sweep sw.json --env OMP_NUM_THREADS=1,2,4 --seconds 2 --warmup 0.5 --progress 'step ([0-9]+)' \
		--format json -- "$STEPS" 0
	"$PY" - "$tmp/sw.json" >"$tmp/check" 2>&1 <<'PY' && break
import json, sys
d = json.load(open(sys.argv[1]))
r = d["rows"]
assert [x["setting"]["OMP_NUM_THREADS"] for x in r] == ["1", "2", "4"], r
for x in r:
    for k in ("rate", "speedup", "cpu_pct", "runnable_mean", "wait_pct", "throttled_pct",
              "verdict", "status"):
        assert k in x, k
    assert x["status"] == "stopped (SIGTERM)", x["status"]
    assert x["throttled_pct"] is None
    # What the command ran with, read from it: its own setting, every row.
    assert x["environment"]["OMP_NUM_THREADS"] == x["setting"]["OMP_NUM_THREADS"], x
e = d["environment"]
assert e["cpu_model"] and e["online"] >= 1 and e["kernel"] and e["date"], e
# threadlab's own value is not what the rows ran with.
assert e["OMP_NUM_THREADS"].startswith("per row"), e["OMP_NUM_THREADS"]
b = d["best"]
assert b["rate"] == max(x["rate"] for x in r) and r[b["row"]]["rate"] == b["rate"], b
assert b["beyond_spread"] is None, b   # one run each: cannot tell
rate = [x["rate"] for x in r]
cpu = [x["cpu_pct"] for x in r]
assert r[0]["speedup"] == 1.0
# Other processes competing for the CPUs hand more threads a larger share:
# then neither comparison says anything about this machine's 2 CPUs.  On
# a quiet box the job's own steps (a barrier each, a line printed) hold 1
# thread to about 92 % and 2 to about 140 % (three runs on the sanitizer
# build): 2 threads held under 1.25 CPUs are a busy machine.
if cpu[1] < 125 or cpu[2] > 1.15 * cpu[1]:
    print("busy: 1, 2, 4 threads got %.0f%%, %.0f%%, %.0f%% CPU" % tuple(cpu))
    sys.exit(1)
assert rate[2] < 1.3 * rate[1], ("4 faster than 2", rate)
assert rate[1] > 1.2 * rate[0], ("2 not faster than 1", rate)
assert rate[2] < 1.3 * rate[1], ("4 faster than 2", rate)
print("steps/s 1: %.0f, 2: %.0f, 4: %.0f (CPU %.0f%%, %.0f%%, %.0f%%)" % tuple(rate + cpu))
PY
	# each try's figures in the log: how close a busy try came
	echo "# try $try: $(head -n 1 "$tmp/check")"
	[ $try -ge 3 ] && break
done
# Busy in every try is a failure too: a skip is for a missing capability.
if [ $try -le 3 ] && grep -q '^steps/s' "$tmp/check"; then
	ok "--sweep --env OMP_NUM_THREADS=1,2,4 (try $try): 2 faster than 1, 4 not faster than 2, environment present: $(cat "$tmp/check")"
else
	notok "sweep rows" "$(cat "$tmp/check" "$tmp/sw.json.err")" "$(head -c 1500 "$tmp/sw.json")"
fi
if [ -z "$(left)" ]; then
	ok "after the sweep no run of the command is left"
else
	notok "processes left after the sweep" "$(left)"
fi


# Under a 1-CPU quota: 2 threads not faster than 1 and throttled (one
# thread cannot use more than one CPU: it is not), every row with its
# throttled share.  Other work on the machine may hold 2 threads to about
# one CPU by itself, so that the quota does not bind; then a 0.5-CPU quota,
# which binds whatever else runs, must show the throttling.
quota_check() { # FILE CPUS
	"$PY" - "$1" "$2" >"$tmp/check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cpus = float(sys.argv[2])
r = d["rows"]
assert d["cpus"] == cpus and len(r) >= 1
# the environment record says the quota the rows ran under (it read none)
e = d["environment"]
assert e["quota_cpus"] == cpus and e["effective_cpus"] <= cpus, e
assert all(x["throttled_pct"] is not None and x["status"] == "stopped (SIGTERM)" for x in r), r
if len(r) == 2 and r[0]["cpu_pct"] > 85:
    assert r[1]["rate"] < 1.2 * r[0]["rate"], ("2 faster than 1", [x["rate"] for x in r])
last = r[-1]
assert last["cpu_pct"] < 100 * cpus + 15, last
# throttled needs 25 % of periods, the top of its band (20 % +- 5)
if last["throttled_pct"] < 25 and last["cpu_pct"] < 80 * cpus:
    print("busy: %d threads got %.0f%% CPU under a %s-CPU quota" % (len(r), last["cpu_pct"], sys.argv[2]))
    sys.exit(1)
if last["throttled_pct"] < 25:
    print("not binding: %d threads got %.0f%% CPU, throttled %.0f%%, wait %.0f%%" % (len(r), last["cpu_pct"], last["throttled_pct"], last["wait_pct"]))
    sys.exit(1)
assert last["verdict"] == "throttled", last
print("%s CPUs: throttled %.0f%%, verdict throttled, steps/s %s" % (sys.argv[2], last["throttled_pct"], " / ".join("%.0f" % x["rate"] for x in r)))
PY
}
sweep q.json --env OMP_NUM_THREADS=1,2 --cpus 1 --seconds 2 --warmup 0.5 --progress 'step ([0-9]+)' \
	--format json -- "$STEPS" 0
if ! quota_capable; then
	skip "--cpus 1 sweep" "$quota_why"
elif quota_check "$tmp/q.json" 1; then
	ok "--cpus 1: 2 threads throttled and not faster than 1: $(cat "$tmp/check")"
elif grep -Eq '^(not binding|busy)' "$tmp/check"; then
	first=$(cat "$tmp/check")
	# A 0.5-CPU quota binds whatever else runs; busy twice more is a failure.
	q2() {
		sweep q2.json --env OMP_NUM_THREADS=2 --cpus 0.5 --seconds 2 --warmup 0.5 \
			--progress 'step ([0-9]+)' --format json -- "$STEPS" 0 && quota_check "$tmp/q2.json" 0.5
	}
	if retry 2 q2; then
		ok "--cpus 1 did not bind on this busy machine ($first); --cpus 0.5: $(cat "$tmp/check")"
	else
		notok "quota sweep at 0.5 CPUs" "$first" "$(cat "$tmp/check" "$tmp/q2.json.err")" \
			"$(head -c 1500 "$tmp/q2.json")"
	fi
else
	notok "quota sweep" "$(cat "$tmp/check" "$tmp/q.json.err")" "$(head -c 1500 "$tmp/q.json")"
fi
# The sweep's quota cgroup held its runs: found from their PIDs while they
# ran (the cgroups the runs were in), gone after.
if wait_gone 20 && [ -z "$(for d in $(cat "$tmp/run.cgroups" 2>/dev/null); do [ -d "$d" ] && echo "$d"; done)" ]; then
	ok "after the quota sweep: no process and no cgroup of it left ($(wc -w <"$tmp/run.cgroups" 2>/dev/null) cgroups seen)"
else
	notok "quota sweep left something" "$(left)" "$(cat "$tmp/run.cgroups" 2>/dev/null)"
fi

