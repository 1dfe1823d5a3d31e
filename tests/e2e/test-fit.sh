#!/bin/bash
# test-fit.sh — the Amdahl fit end to end (issue 22): the command sweep of a
# program with a known serial fraction (tests/lib/omp-amdahl: 20 ms serial +
# 80 ms parallel per step, s = 0.2) recovers it, exactly as its own rows
# imply, in JSON and text; the lab's own sweep carries the fit and each
# row's Karp-Flatt.  Prints TAP.  A window the diagnosis read as contended
# is left out of the fit, so on a busy machine a try is repeated (three at
# most), never passed.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
PROG="$(cd "$B" && pwd)/tests/lib/omp-amdahl"

if [ ! -x "$TL" ] || [ ! -x "$PROG" ]; then
	skip_all "$TL or $PROG not built"
fi
plan 3

# ---- a real job's sweep: s = 0.2 recovered ----------------------------------
try=0
while :; do
	try=$((try + 1))
	limited 120 "$TL" --sweep --env OMP_NUM_THREADS=1,2 --seconds 4 --warmup 1 \
		--progress 'step' --format json -- "$PROG" 0 >"$tmp/cmd.json" 2>"$tmp/cmd.err"
	"$PY" - "$tmp/cmd.json" >"$tmp/check" 2>&1 <<'PY' && break
import json, sys
d = json.load(open(sys.argv[1]))
r, f = d["rows"], d["fit"]
assert [x["setting"]["OMP_NUM_THREADS"] for x in r] == ["1", "2"], r
assert r[0]["karp_flatt"] is None, r[0]        # 1 thread: no information
if f["points_left_out"]:
    print("busy: verdicts %s" % [x["verdict"] for x in r])
    sys.exit(1)
assert f["points_used"] == 2, f
s, kf = f["serial_fraction"], r[1]["karp_flatt"]
# With one point above 1 thread the least squares goes through it: the
# fit is that row's own Karp-Flatt (both rounded to 4 decimals).
assert abs(s - kf) <= 2e-4, (s, kf)
# ... and its speedup, from the rates the rows give.
sp = r[1]["rate"] / r[0]["rate"]
assert abs(kf - (1 / sp - 0.5) / 0.5) <= 0.01, (kf, sp)
assert f["cpus"] == 2 or f["cpus"] > 1, f
pred = f["predicted"]
assert any(p["prediction"] and p["cpus"] > f["cpus"] for p in pred), pred
on = [p for p in pred if p["threads"] == 2 and not p["prediction"]]
assert on and abs(on[0]["speedup"] - 1 / (s + (1 - s) / 2)) <= 2e-3, pred
if abs(s - 0.2) > 0.08:
    print("s %.3f is not 0.2 +- 0.08 (speedup %.2f)" % (s, sp))
    sys.exit(1)
print("s %.3f (speedup %.2f at 2 threads)" % (s, sp))
PY
	[ $try -ge 3 ] && break
done
if grep -q '^s ' "$tmp/check" && ! grep -q 'not 0.2' "$tmp/check"; then
	ok "--sweep --env OMP_NUM_THREADS=1,2 of a 20+80 ms job (try $try): fit = the 2-thread row's Karp-Flatt, $(cat "$tmp/check")"
else
	notok "command sweep fit" "$(cat "$tmp/check" "$tmp/cmd.err")" "$(head -c 2000 "$tmp/cmd.json")"
fi

# ---- the text line ------------------------------------------------------------
limited 60 "$TL" --sweep --env OMP_NUM_THREADS=1,2 --seconds 1 --warmup 0.25 \
	--progress 'step' -- "$PROG" 0 >"$tmp/cmd.txt" 2>"$tmp/cmd.txt.err"
line=$(grep '^Amdahl fit: ' "$tmp/cmd.txt")
if [[ "$line" == "Amdahl fit: serial fraction "*"predicts "*"x at 2 threads; a prediction beyond this box's "*" CPUs: "*"x at "*" CPUs"* ]] ||
	[[ "$line" == "Amdahl fit: none ("*"left out, contended"* ]] ||
	[[ "$line" == "Amdahl fit: none (1 point above 1 thread slower than 1 thread: "* ]]; then
	ok "text: $line"
else
	notok "text line" "$(cat "$tmp/cmd.txt" "$tmp/cmd.txt.err")"
fi

# ---- the lab's sweep ----------------------------------------------------------
limited 120 "$TL" --sweep --threads 1,2 --size 256 --seconds 2 --format json \
	>"$tmp/lab.json" 2>"$tmp/lab.err"
if "$PY" - "$tmp/lab.json" >"$tmp/check" 2>&1 <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
r, f = d["rows"], d["fit"]
assert [x["threads"] for x in r] == [1, 2], r
for x in r:
    assert "karp_flatt" in x and "verdict" in x and "fit_left_out" in x, x
assert r[0]["karp_flatt"] is None
used = [x for x in r if not x["fit_left_out"]]
assert f["points_used"] == len(used) and f["points_left_out"] == len(r) - len(used), f
if any(x["threads"] == 2 for x in used) and r[1]["speedup"] < 1:
    # slower than 1 thread (n=256 is small): no serial fraction's, no fit
    assert f["serial_fraction"] is None and f["points_slower"] == 1, f
    assert f["karp_flatt_min"] is None, f
    print("n=256: 2 threads slower than 1 (speedup %.2f): no fit" % r[1]["speedup"])
elif any(x["threads"] == 2 for x in used):
    s, kf = f["serial_fraction"], r[1]["karp_flatt"]
    assert 0 <= s <= 1 and abs(s - max(0, min(1, kf))) <= 2e-4, (s, kf)
    print("n=256: s %.3f, speedup %.2f" % (s, r[1]["speedup"]))
else:
    assert f["serial_fraction"] is None, f
    print("n=256: the 2-thread row left out (%s)" % r[1]["verdict"])
PY
	ok "--sweep --threads 1,2 --size 256: rows carry karp_flatt and verdict, fit agrees: $(cat "$tmp/check")"
else
	notok "lab sweep fit" "$(cat "$tmp/check" "$tmp/lab.err")" "$(head -c 2000 "$tmp/lab.json")"
fi
