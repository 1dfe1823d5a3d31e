#!/bin/bash
# test-tour.sh — the guided tour in batch mode: every lesson, captions that
# quote the step's own figures, figures that show what each lesson is about,
# and the tour's options refused where they do not apply.  The tour in the
# dashboard is test-tour-dash.sh; the input pipeline and the OpenMP build in
# batch JSON are test-pipeline-batch.sh.  Prints TAP.
set -u

. "$(dirname "$0")/../lib/tap-lib.sh"
plan 10

# The refusals need no lab: they run while the tour does, each into its
# own files, and are reported after it, in plan order.
refusals=("--tour --batch --tour-step 0.5 --format text -c 1" "--tour -p 1" "--tour --sweep"
	"--tour-step 2" "--tour --batch --format csv" "--tour --tour-step 0.1"
	"--tour --tour-notes $tmp/n.json --batch")
refused=()
for i in "${!refusals[@]}"; do
	# shellcheck disable=SC2086
	limited 60 "$TL" ${refusals[$i]} >/dev/null 2>"$tmp/refused.$i.err" </dev/null &
	refused+=("$!")
	track "$!"
done

# ---- the tour in batch mode -------------------------------------------------
# Half-second steps, --tour-step's least (the warm-up is then half a second
# too): case 2 holds each caption to its own figures, whatever a window
# measured; what case 3 asks of the figures shows in two ticks of 0.25 s
# (threads beyond the CPUs wait; a quota throttles, or others' load is
# named).  n=512 makes the pipeline lesson's batch cost a third of n=768's,
# so that a half-second window holds many: the one batch begun before the
# window and taken in it moves batches/s by 2, within case 3's slack for
# any loader that makes 4 batches/s.
tour() { limited 300 "$TL" --tour --batch --tour-step 0.5 --size 512 --format json >"$tmp/tour.jsonl" 2>"$tmp/tour.err"; }
tour
st=$?
if [ $st = 0 ]; then ok "--tour --batch --format json runs to the end"; else
	notok "--tour --batch" "status $st" "$(tail -5 "$tmp/tour.err")"; fi
"$PY" - "$tmp/tour.jsonl" "$SRC" >"$tmp/check" 2>&1 <<'PY'
import json, math, re, sys
steps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def near(text, v, dec, suffix):
    """text quotes v with dec decimals before suffix, within the rounding."""
    num = r"(\d+\.\d{%d})" % dec if dec else r"(\d+)"
    got = [float(x) for x in re.findall(num + re.escape(suffix), text)]
    return any(abs(g - v) <= 0.5 * 10 ** -dec + 0.006 for g in got)
keys = {"lesson", "lessons", "step", "steps", "title", "caption", "settings", "figures"}
assert steps, "no steps"
for s in steps:
    missing = keys - set(s)
    assert not missing, "step %s misses %s" % (s.get("step"), missing)
assert [s["step"] for s in steps] == list(range(1, steps[0]["steps"] + 1)), "steps out of order"
assert {s["lesson"] for s in steps} == set(range(1, 10)), "lessons %s" % {s["lesson"] for s in steps}
assert all(s["lessons"] == 9 for s in steps)
# What the man page and the docs say the tour runs is what it runs.
words = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
for doc in ("man/threadlab.1", "docs/teaching.md"):
    text = " ".join(open(sys.argv[2] + "/" + doc).read().split())
    m = re.search(r"(\w+) lessons in (\w+)\s+steps", text)
    assert m, "%s: no 'N lessons in M steps'" % doc
    told = [words.index(w) + 1 if w in words else -1 for w in m.groups()]
    assert told == [steps[0]["lessons"], steps[0]["steps"]], "%s says %s lessons in %s steps" % ((doc,) + m.groups())
measured = [s for s in steps if not s["skipped"]]
assert len(measured) >= len(steps) - 1, "%d steps skipped" % (len(steps) - len(measured))
# Every measured caption quotes its own GFLOP/s (one decimal), and no other.
for s in measured:
    f = s["figures"]
    g = round(f["gflops"], 1)
    text = s["caption"]
    # One decimal in the caption, three in the figures: within rounding.
    quoted = [float(x) for x in re.findall(r"(\d+\.\d)(?: GFLOP/s|\)|;| against| without)", text)]
    assert any(abs(q - f["gflops"]) <= 0.051 for q in quoted), \
        "step %d: caption lacks its GFLOP/s %.3f: %s" % (s["step"], f["gflops"], text)
    print("step %d (lesson %d) %.1f GFLOP/s: %s" % (s["step"], s["lesson"], g, text[:90]))
by = {s["step"]: s for s in steps}
one, two = by[1], by[2]
assert one["settings"]["threads"] == 1 and two["settings"]["threads"] == 2
assert near(two["caption"], two["figures"]["speedup"], 2, "x"), two["caption"]
over = by[3]
assert over["settings"]["threads"] > over["figures"]["effective_cpus"]
assert near(over["caption"], over["figures"]["wait_pct"], 0, "%"), over["caption"]
quota = by[6]
assert quota["settings"]["cpus"] is not None and quota["settings"]["cpus"] < quota["figures"]["online_cpus"]
pipe = [by[7], by[8], by[9]]
assert [p["settings"]["loaders"] for p in pipe] == [1, 2, 2]
assert near(pipe[0]["caption"], pipe[0]["figures"]["input_wait_pct"], 0, "%"), pipe[0]["caption"]
spin = [by[10], by[11], by[12]]
assert spin[0]["settings"]["blas"] == "pthreads"
assert spin[0]["figures"]["blas_variant"] == "pthreads"
if spin[1]["settings"]["blas"] == "openmp":
    assert spin[1]["figures"]["blas_variant"] == "openmp", spin[1]["figures"]
    assert spin[2]["settings"]["blas_spin"] == "off"
# Lesson 8: the fit of lessons 1-3 predicts a thread count they did not
# measure, and the caption says how close it came, from its own figures.
am = by[13]
assert am["lesson"] == 8 and am["settings"]["threads"] not in (1, 2, over["settings"]["threads"])
fa = am["figures"]
# Lesson 4 runs at n=256: its speedups are not to lesson 1's n=768 rate
# (a class read "2 threads is 0.48x one thread" from that).
for s in (by[4], by[5]):
    g = s["figures"]
    assert s["settings"]["size"] != one["settings"]["size"], s["settings"]
    assert g["single_thread_gflops"] is None or g["single_thread_gflops"] != one["figures"]["gflops"], g
# Lessons measured beside other processes (0.3 CPUs or more) are left out
# of the fit, and lesson 3 when its threads outnumber the CPUs.
# (every lesson when lesson 1, the rate speedups divide by, was slowed)
first3 = [by[1], by[2], over]
others = [s["figures"]["other_cpus"] for s in first3]
busy_of = lambda o: o >= 0.3 or others[0] >= 0.3
busy = sum(1 for o in others if busy_of(o))
beyond = int(not busy_of(others[2]) and
             over["settings"]["threads"] > math.ceil(over["figures"]["effective_cpus"] - 1e-9))
assert fa["amdahl_points"] + fa["amdahl_left_out_busy"] + fa["amdahl_left_out_beyond"] == 3, fa
# (JSON rounds to 3 decimals: a figure that close to 0.3 may fall either side)
if not any(abs(o - 0.3) <= 0.0006 for o in others):
    assert (fa["amdahl_left_out_busy"], fa["amdahl_left_out_beyond"]) == (busy, beyond), (fa, busy, beyond)
if fa["amdahl_serial_fraction"] is None:
    # nothing above one thread left: says so, and why
    assert fa["amdahl_points"] <= 1 or by[2]["figures"]["other_cpus"] >= 0.3, fa
    assert "No prediction: %d of lessons one to three left out" % (busy + beyond) in am["caption"], am["caption"]
else:
    sp = fa["amdahl_predicted_speedup"]
    assert near(am["caption"], sp, 2, "x") and near(am["caption"], fa["speedup"], 2, "x"), am["caption"]
    assert abs(fa["amdahl_error_pct"] - 100 * (fa["speedup"] - sp) / sp) < 0.5, fa
# Lesson 9: the triad at 1 thread and on every CPU, memory-bound, its GB/s
# the GFLOP/s over 1/6 or 1/12 FLOP/B; the caption says scales or flattens.
t1, ta = by[14], by[15]
# the triad's speedups are to its own one-thread lesson, as the caption's
assert abs(t1["figures"]["speedup"] - 1) < 0.01, t1["figures"]
assert abs(ta["figures"]["speedup"] - ta["figures"]["gflops"] / t1["figures"]["gflops"]) < 0.01, ta["figures"]
for s in (t1, ta):
    assert s["settings"]["kernel"] == "triad", s["settings"]
    f = s["figures"]
    assert f["bound"] == "memory", f
    assert abs(f["gbs"] - f["gflops"] / f["intensity_flops_per_byte"]) <= 0.01 * f["gbs"] + 0.01, f
assert ta["settings"]["threads"] >= 2
assert "still scales" in ta["caption"] or "flattens" in ta["caption"] or "neither" in ta["caption"], ta["caption"]
PY
if [ $? = 0 ]; then ok "every lesson, in order; each caption quotes its own figures"; else
	notok "tour steps and captions" "$(cat "$tmp/check")"; fi
quota_capable && export QUOTA=1
# lesson_figures: what each lesson is about shows in the tour's figures,
# or its caption names what the load did.
lesson_figures() {
	"$PY" - "$tmp/tour.jsonl" >"$tmp/check" 2>&1 <<'PY'
import json, os, sys
steps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {s["step"]: s for s in steps}
one, over = by[1]["figures"], by[3]["figures"]
# Threads beyond the CPUs wait for a CPU; one thread hardly does.
assert over["wait_pct"] > 20, over["wait_pct"]
assert over["involuntary_switches_per_thread_s"] > 0
ib = by[7]["figures"]
# One loader with a batch of three GEMMs' CPU: input-bound -- unless other
# work kept compute from its CPU, and then the caption must say so.
if ib["input_wait_pct"] <= 30:
    assert ib["other_cpus"] > 0.3 and "Other processes used" in by[7]["caption"], (ib, by[7]["caption"])
assert ib["batches_per_s"] > 0 and ib["loader_cpu_pct"] > 10, ib
# The batches came at the rate the loader made them with the CPU it got.
rate = ib["loader_cpu_pct"] / 100 * 1000 / by[7]["settings"]["prep_ms"]
assert ib["batches_per_s"] <= 1.25 * rate + 1, (ib, rate)
# The quota lesson: where a quota could be set (QUOTA=1) the throttling is
# measured, and either it bit or the caption says that others' load kept
# the threads below the quota.
assert not by[6]["skipped"], "the quota lesson was skipped: " + by[6]["caption"]
q = by[6]["figures"]
if os.environ.get("QUOTA") == "1":
    assert q["throttled_pct"] is not None, q
    if q["throttled_pct"] < 1:
        assert q["other_cpus"] >= 0.2 and "hardly throttled" in by[6]["caption"], (q, by[6]["caption"])
    print("quota: throttled %.0f%% of periods" % q["throttled_pct"])
else:
    assert q["throttled_pct"] is None and "could not be set" in by[6]["caption"], by[6]["caption"]
PY
}
# A loaded box can still flip one of these (seen: lesson 1 measured at 1
# GFLOP/s, so the pipeline lesson's batch cost 823 ms of CPU and a loader
# given 37 % of a CPU finished none in its half-second window): the tour
# runs again, twice at most, before this fails.
figures_held=no
for try in 1 2 3; do
	if [ "$try" -gt 1 ]; then
		echo "# try failed: $(tail -n 1 "$tmp/check" | cut -c1-300)"
		tour
	fi
	lesson_figures && { figures_held=yes; break; }
done
if [ $figures_held = yes ]; then ok "the tour measures what its lessons are about"; else
	notok "tour figures" "$(cat "$tmp/check")"; fi
for i in "${!refusals[@]}"; do
	wait "${refused[$i]}"
	st=$?
	args=${refusals[$i]}
	err="$tmp/refused.$i.err"
	if [ "$i" = 0 ]; then
		# -c is a batch option; the tour's length is its steps.
		if [ $st = 2 ] && grep -q "drop -c" "$err"; then ok "--tour --batch refuses -c"; else
			notok "--tour with -c" "status $st" "$(cat "$err")"; fi
	elif [ $st = 2 ] && [ "$(wc -l <"$err")" = 1 ]; then ok "$args: one line, exit 2"; else
		notok "$args" "status $st" "$(cat "$err")"
	fi
done
