#!/bin/bash
# test-hysteresis.sh — a job held just above a threshold gives the same
# verdict run after run (issue 16): tests/duty holds 1.25 x the CPUs in
# runnable threads (busy threads and one runnable a share of each 20 ms by
# the wall clock), inside the band 1.1 to 1.3 around oversubscribed's 1.2;
# ten consecutive --diagnose runs over 30 s read the same verdict and exit
# status (fine, borderline: exit 0), --strict exits 1 for it, and --batch
# (hysteresis) does not flip over 20 samples.  Prints TAP.
set -u
B="${THREADLAB_BUILDDIR:-.}"
TL="$B/threadlab"
DUTY="$B/tests/duty"
PY=/usr/bin/python3
tmp=$(mktemp -d)
n=0
fails=0
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	prio_remove
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
. "$(dirname "$0")/tap-lib.sh"

if [ ! -x "$TL" ] || [ ! -x "$DUTY" ] || [ ! -x "$PY" ]; then
	echo "1..0 # SKIP $TL, $DUTY or $PY missing"
	exit 0
fi
echo "1..3"
cpus=$(nproc)
# busy threads and a share making 1.25 x the CPUs
read -r busy share < <(awk -v c="$cpus" 'BEGIN { t = 1.25 * c; b = int(t); printf "%d %.3f\n", b, t - b }')
prio_make # the job in a heavy cpu cgroup: the rest of the machine cannot stretch its share
prio_run "$DUTY" "$busy" "$share" >"$tmp/duty.out" 2>&1 &
job=$!
pids+=("$job")
for _ in $(seq 100); do grep -q ready "$tmp/duty.out" && break; sleep 0.05; done

: >"$tmp/runs"
for i in $(seq 10); do
	prio_do "$TL" --diagnose -p "$job" --seconds 3 --format json >"$tmp/run$i.json" 2>&1
	echo "$? $tmp/run$i.json" >>"$tmp/runs"
done
if "$PY" - "$tmp/runs" >"$tmp/err" 2>&1 <<'PY'; then
import json, sys
runs = []
for line in open(sys.argv[1]):
    st, f = line.split()
    d = json.load(open(f))["diagnosis"]
    runs.append((int(st), d["verdict"], d["borderline"], d["factor"]))
print("runs (exit, verdict, borderline, factor): %s" % runs)
assert len(runs) == 10
assert all(1.1 < r[3] <= 1.3 for r in runs), "a factor left the band"
assert len({(r[0], r[1], r[2]) for r in runs}) == 1, "the verdict flipped"
assert runs[0][:3] == (0, "fine", "oversubscribed"), runs[0]
PY
	ok "10 runs over 30 s at a factor of 1.25: one verdict (fine, borderline oversubscribed), exit 0 each"
else
	notok "10 runs at a factor of 1.25: one verdict" "$(cat "$tmp/err")"
fi

prio_do "$TL" --diagnose --strict -p "$job" --seconds 3 --format json >"$tmp/strict.json" 2>&1
st=$?
if [ $st = 1 ] && grep -q '"borderline":"oversubscribed"' "$tmp/strict.json"; then
	ok "--strict: the borderline result exits 1"
else
	notok "--strict: the borderline result exits 1" "exit $st" "$(head -c 800 "$tmp/strict.json")"
fi

prio_do "$TL" --batch -p "$job" -i 0.5 -c 20 --format json >"$tmp/batch.json" 2>"$tmp/batch.err"
if "$PY" - "$tmp/batch.json" >"$tmp/err" 2>&1 <<'PY'; then
import json, sys
v = [json.loads(l)["diagnosis"]["verdict"] for l in open(sys.argv[1]) if l.strip()]
print("verdicts: %s" % v)
assert len(v) >= 19 and len(set(v[1:])) == 1, v
PY
	ok "--batch every 0.5 s: the verdict does not flip over 20 samples"
else
	notok "--batch: the verdict does not flip" "$(cat "$tmp/err")" "$(cat "$tmp/batch.err")"
fi
exit $fails
