#!/bin/bash
# test-tour.sh — the guided tour and the input pipeline end to end: the tour
# in batch mode (every lesson, captions that quote the step's own figures),
# the tour in the dashboard under tmux (keys n, space, q; its notes file
# against its screen), the pipeline's and the OpenMP build's JSON, the
# variant switch key b, and nothing left behind after quit, SIGTERM or
# SIGKILL.  Prints TAP.
set -u
TL="${THREADLAB_BUILDDIR:-.}/threadlab"
SOCK="tl-tour-$$"
T="tmux -u -L $SOCK -f /dev/null"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d)
pids=()
cleanup() {
	$T kill-server 2>/dev/null
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$tmp"
}

. "$(dirname "$0")/tap-lib.sh"
plan 32


# ---- the tour in batch mode -------------------------------------------------
limited 300 "$TL" --tour --batch --tour-step 1.5 --format json >"$tmp/tour.jsonl" 2>"$tmp/tour.err"
st=$?
if [ $st = 0 ]; then ok "--tour --batch --format json runs to the end"; else
	notok "--tour --batch" "status $st" "$(tail -5 "$tmp/tour.err")"; fi
"$PY" - "$tmp/tour.jsonl" >"$tmp/check" 2>&1 <<'PY'
import json, re, sys
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
assert fa["amdahl_serial_fraction"] is not None and fa["amdahl_points"] == 3, fa
sp = fa["amdahl_predicted_speedup"]
assert near(am["caption"], sp, 2, "x") and near(am["caption"], fa["speedup"], 2, "x"), am["caption"]
assert abs(fa["amdahl_error_pct"] - 100 * (fa["speedup"] - sp) / sp) < 0.5, fa
# Lesson 9: the triad at 1 thread and on every CPU, memory-bound, its GB/s
# the GFLOP/s over 1/6 or 1/12 FLOP/B; the caption says scales or flattens.
t1, ta = by[14], by[15]
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
"$PY" - "$tmp/tour.jsonl" >"$tmp/check" 2>&1 <<'PY'
import json, os, sys
steps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {s["step"]: s for s in steps}
one, over = by[1]["figures"], by[3]["figures"]
# Threads beyond the CPUs wait for a CPU; one thread hardly does.
assert over["wait_pct"] > 20, over["wait_pct"]
assert over["involuntary_switches_per_thread_s"] > 0
ib = by[7]["figures"]
# One loader with a batch of two GEMMs' CPU: input-bound -- unless other
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
if [ $? = 0 ]; then ok "the tour measures what its lessons are about"; else
	notok "tour figures" "$(cat "$tmp/check")"; fi
limited 60 "$TL" --tour --batch --tour-step 0.5 --format text -c 1 >/dev/null 2>"$tmp/err"
st=$?
# -c is a batch option; the tour's length is its steps.
if [ $st = 2 ] && grep -q "drop -c" "$tmp/err"; then ok "--tour --batch refuses -c"; else
	notok "--tour with -c" "status $st" "$(cat "$tmp/err")"; fi
for args in "--tour -p 1" "--tour --sweep" "--tour-step 2" "--tour --batch --format csv" \
	"--tour --tour-step 0.1" "--tour --tour-notes $tmp/n.json --batch"; do
	# shellcheck disable=SC2086
	limited 20 "$TL" $args >/dev/null 2>"$tmp/err" </dev/null
	st=$?
	if [ $st = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ]; then ok "$args: one line, exit 2"; else
		notok "$args" "status $st" "$(cat "$tmp/err")"; fi
done

# ---- the pipeline and the OpenMP build in batch JSON ------------------------
limited 60 "$TL" --batch --format json -i 1 -c 3 --size 512 --loaders 1 --prep-ms 40 \
	>"$tmp/pipe.jsonl" 2>"$tmp/err"
"$PY" - "$tmp/pipe.jsonl" >"$tmp/check" 2>&1 <<'PY'
import json, os, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
w = rows[-1]["workload"]
for k in ("loaders", "prep_ms", "batches_per_s", "input_wait_pct", "loader_cpu_pct"):
    assert k in w, k
assert w["loaders"] == 1 and w["prep_ms"] == 40
assert w["input_wait_pct"] > 50, w["input_wait_pct"]
assert 0 < w["batches_per_s"] <= 27, w["batches_per_s"]
assert len(w["loader_pids"]) == 1
names = {t["name"] for t in rows[-1]["threads"]}
assert "tl-loader0" in names, names
print(w["loader_pids"][0])
PY
if [ $? = 0 ]; then ok "--loaders 1 --prep-ms 40: input-bound in JSON, tl-loader0 in the threads"; else
	notok "pipeline JSON" "$(cat "$tmp/check")" "$(cat "$tmp/err")"; fi
loader=$(tail -n1 "$tmp/check")
if [ -n "$loader" ] && gone "$loader"; then ok "the loader is gone after --batch ends"; else
	notok "loader left behind" "$loader"; fi
if [ -r /usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0 ] ||
	ls /usr/lib/*/openblas-openmp/libopenblas.so.0 >/dev/null 2>&1; then
	limited 60 "$TL" --batch --format json -i 1 -c 3 --blas openmp --threads 2 >"$tmp/omp.jsonl" 2>"$tmp/err"
	"$PY" - "$tmp/omp.jsonl" >"$tmp/check" 2>&1 <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
w = rows[-1]["workload"]
assert w["blas"]["variant"] == "openmp", w["blas"]
assert w["blas_build"] == "openmp"
assert "USE_OPENMP" in w["blas"]["config"], w["blas"]["config"]
pid = w["per_stream"][0]["pid"]
mine = [t for t in rows[-1]["threads"] if t["pid"] == pid]
busy = [t for t in mine if t["cpu_pct"] > 3]
assert len(busy) >= 2, mine
assert {t["name"] for t in mine} >= {"gemm0", "gemm0.w1"}, [t["name"] for t in mine]
PY
	if [ $? = 0 ]; then ok "--blas openmp --threads 2: two busy named threads, variant openmp"; else
		notok "--blas openmp" "$(cat "$tmp/check")" "$(cat "$tmp/err")"; fi
else
	skip "--blas openmp" "libopenblas0-openmp is not installed"
fi

# ---- the sweep over loaders ---------------------------------------------------
limited 120 "$TL" --sweep --loaders 1,3 --threads 1 --size 512 --prep-ms 20 --seconds 1 \
	--format json >"$tmp/sweep.json" 2>"$tmp/err"
"$PY" - "$tmp/sweep.json" >"$tmp/check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
assert [r["loaders"] for r in rows] == [1, 3], rows
for r in rows:
    for k in ("batches_per_s", "input_wait_pct", "loader_cpu_pct"):
        assert k in r, (k, r)
assert d["env"]["prep_ms"] == 20, d["env"]
# Three loaders feed more batches than one whose batch costs 20 ms.
assert rows[1]["input_wait_pct"] < rows[0]["input_wait_pct"], rows
PY
if [ $? = 0 ]; then ok "--sweep --loaders 1,3: a row per loader count, the wait falls with more loaders"; else
	notok "--sweep --loaders" "$(cat "$tmp/check")" "$(cat "$tmp/err")"; fi

# ---- the dashboard under tmux -----------------------------------------------
if ! command -v tmux >/dev/null; then
	skip_rest "tmux is not installed (Debian package tmux)"
fi
screen() { $T capture-pane -p -t tl 2>/dev/null; }
# wait_for TEXT SECONDS: the pane shows TEXT within SECONDS.
wait_for() {
	for _ in $(seq $(($2 * 5))); do
		screen | grep -qF -- "$1" && return 0
		sleep 0.2
	done
	return 1
}
# Under a background load (one busy thread the test started): the figures
# a caption quotes must be the screen's, whatever the load does to them.
spawn env OMP_NUM_THREADS=1 "${THREADLAB_BUILDDIR:-.}/tests/omp-busy"
$T new-session -d -s tl -x 160 -y 50 \
	"$TL --tour --tour-step 1 --tour-notes $tmp/notes.jsonl --size 512; echo EXITED \$?; sleep 30"
if wait_for "tour 1/9 One thread" 30; then ok "--tour: the first lesson on screen"; else
	notok "tour start" "$(screen)"; fi
if wait_for "One intra-op thread, one stream:" 40; then ok "the first caption appears"; else
	notok "first caption" "$(screen)"; fi
shown=$(screen | grep -o "One intra-op thread, one stream: [0-9.]* GFLOP/s" | head -1)
pane=$($T list-panes -t tl -F '#{pane_pid}' | head -1)
tlpid=$(pgrep -P "$pane" -x threadlab | head -1)
anchor=$(pgrep -P "${tlpid:-0}" -x tl-anchor | head -1)
# space holds the caption, space again goes on.
$T send-keys -t tl ' '
if wait_for "PAUSED" 10; then ok "space holds the tour"; else notok "space" "$(screen)"; fi
$T send-keys -t tl ' '
$T send-keys -t tl n
# n leaves lesson 1: lesson 2 or, when a loaded box's captures came late,
# one after it (lesson 2's steps take a few seconds)
left_one() { screen | grep -Eq '^tour [2-9]/9 '; }
if until_true 200 left_one; then ok "n moves to the next step ($(screen | grep -Eo '^tour [0-9]/9' | head -n1))"; else notok "n" "$(screen)"; fi
# The screen of every step while its caption shows (held for a second).
# A capture can tear, taken while the dashboard writes one refresh (seen
# on the sanitizer build: the new status line over the last step's
# caption): a step's screen counts only when a second capture 50 ms later
# shows the same.
for _ in $(seq 600); do
	screen >"$tmp/now"
	st=$(sed -n 's/^tour [0-9]\/9 .*: step \([0-9]*\)\/[0-9]*, .*: next in .*/\1/p' "$tmp/now" | head -n1)
	if [ -n "$st" ] && [ ! -s "$tmp/shown.$st" ]; then
		sleep 0.05
		screen >"$tmp/again"
		cmp -s "$tmp/now" "$tmp/again" && cp "$tmp/now" "$tmp/shown.$st"
	fi
	grep -q '^tour done' "$tmp/now" && break
	sleep 0.2
done
if wait_for "tour done: your settings are back" 60 && screen | grep -q "tour 9/9\|tour done"; then
	ok "the tour runs through its last lesson to its end"
else
	notok "the tour's end" "$(screen)"
fi
# Every number of each caption is on the screen beside it (the figures
# line, the header, the budget, the table), within its rounding; a caption
# that quotes a ceiling quotes the header's.
"$PY" - "$tmp/notes.jsonl" "$tmp" >"$tmp/check" 2>&1 <<'PY'
import json, re, sys, os
steps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
num = re.compile(r"(?<![A-Za-z_\d.])(\d+(?:\.\d+)?)(?=[x%\s,.;:)/]|$)")
def nums(text):
    return [(float(m), len(m.split(".")[1]) if "." in m else 0) for m in num.findall(text)]
norm = lambda t: " ".join(t.split())
checked = 0
for s in steps:
    f = os.path.join(sys.argv[2], "shown.%d" % s["step"])
    if s["skipped"] or not os.path.exists(f):
        continue
    lines = open(f).read().splitlines()
    cap = norm(s["caption"])
    # The caption's own rows are not evidence for its numbers.
    rest = [l for l in lines if not (norm(l) and norm(l).rstrip("…") in cap)]
    on_screen = [v for l in rest for v, _ in nums(l)]
    for v, d in nums(cap):
        if not any(abs(v - w) <= 10 ** -d + 1e-9 for w in on_screen):
            sys.exit("step %d: %g is nowhere on the screen beside the caption: %s\n%s" %
                     (s["step"], v, cap, "\n".join(rest)))
    # No placeholder where a figure belongs, anywhere on the step's screen
    # (a status line once read "1 stream x E threads").
    for l in lines:
        bad = re.search(r"%[-0-9.]*[a-z]|\(null\)|\b(?:nan|-?inf)\b|streams? x (?!\d)\S+ threads?\b", l)
        if bad:
            sys.exit("step %d: a placeholder %r on the screen: %s" % (s["step"], bad.group(0), l))
    m = re.search(r"of the ceiling (\d+\.\d)", cap)
    head = [l for l in rest if "ceiling" in l and "GFLOP/s" in l]
    if m and head:
        c = float(m.group(1))
        h = float(re.search(r"ceiling (\d+\.\d)", head[0]).group(1))
        if abs(c - h) > 0.15:
            sys.exit("step %d: the caption's ceiling %.1f, the header's %.1f" % (s["step"], c, h))
    checked += 1
assert checked >= 8, "only %d steps' screens were seen" % checked
print("%d captions against their screens" % checked)
PY
if [ $? = 0 ]; then ok "under a background load every number of each caption is on its screen: $(cat "$tmp/check")"; else
	notok "captions against the screen" "$(cat "$tmp/check")"; fi
# The notes hold what the screen said: each caption was written from the
# figures stored beside it.
"$PY" - "$tmp/notes.jsonl" >"$tmp/check" 2>&1 <<'PY'
import json, re, sys
steps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert steps, "no notes"
for s in steps:
    if s["skipped"]:
        continue
    quoted = [float(x) for x in re.findall(r"(\d+\.\d)", s["caption"])]
    assert any(abs(q - s["figures"]["gflops"]) <= 0.051 for q in quoted), s
print(steps[0]["caption"][:60])
PY
if [ $? = 0 ]; then ok "--tour-notes: one object per finished step, captions quote its figures"; else
	notok "tour notes" "$(cat "$tmp/check")"; fi
# The number on screen is the one in the notes of the same run.
first=$(head -n1 "$tmp/notes.jsonl" | "$PY" -c 'import json,sys; s=json.loads(sys.stdin.read()); print(s["caption"] if s["step"] == 1 else "")')
if [ -n "$shown" ] && [ "${first#"$shown"}" != "$first" ]; then
	ok "the screen's first caption is the notes' ($shown)"
else
	notok "screen against notes" "screen: $shown" "notes: $first"
fi
# After its end the knobs and the key bar are the user's again.
$T send-keys -t tl '+'
header2() { screen | head -n1 | grep -q 'threads 2 '; }
if until_true 100 header2 && screen | grep -q '+- threads' && ! screen | grep -q 'n next'; then
	ok "after the tour's end: + sets the threads, the key bar is the lab's"
else
	notok "keys after the tour's end" "$(screen | tail -4)"
fi
$T send-keys -t tl '-'
wait_for "threads 1 " 10
stop "$spawned"
# t runs it again; q leaves it and the settings come back.
$T send-keys -t tl t
wait_for "tour 1/9" 20
$T send-keys -t tl q
no_tour() { ! screen | grep -q '^tour [0-9]/9'; }
if until_true 100 no_tour; then ok "q leaves the tour"; else notok "q leaves" "$(screen)"; fi
if wait_for "threads 1 " 10 && ! screen | grep -q "tour 1/9"; then
	ok "the settings from before the tour are back"
else
	notok "settings restored" "$(screen | head -3)"
fi
# b switches to the OpenMP build live; every helper is replaced (the
# anchor as it is now: a restart would have replaced it).
anchor=$(pgrep -P "${tlpid:-0}" -x tl-anchor | head -1)
old=$(pgrep -P "${anchor:-0}" | tr '\n' ' ')
before=$(pgrep -P "${anchor:-0}" | wc -l)
$T send-keys -t tl b
openmp_header() { screen | head -n1 | grep -q '| openmp |'; }
if until_true 200 openmp_header; then ok "b: the helpers restart on the OpenMP build"; else
	notok "b key" "$(screen | head -8)"; fi
# shellcheck disable=SC2086
if [ -n "$old" ] && gone $old; then ok "the old helpers are gone"; else notok "old helpers" "$old"; fi
kids=$(pgrep -P "${anchor:-0}" | wc -l)
omp=0
for p in $(pgrep -P "${anchor:-0}"); do grep -q libgomp "/proc/$p/maps" 2>/dev/null && omp=$((omp + 1)); done
if [ "$before" -ge 1 ] && [ "$kids" = "$before" ] && [ "$omp" = "$kids" ]; then
	ok "as many helpers after the switch ($kids), all on libgomp, nothing stray"
else
	notok "processes under the anchor" "before $before after $kids on libgomp $omp" "$(pgrep -a -P "${anchor:-0}")"
fi
$T send-keys -t tl F10 2>/dev/null || $T send-keys -t tl q
$T send-keys -t tl q
if wait_for "EXITED 0" 15; then ok "F10 quits, status 0"; else notok "quit" "$(screen | tail -3)"; fi
if [ -n "$anchor" ] && gone "$anchor"; then ok "the lab is gone after quit"; else notok "anchor left" "$anchor"; fi
$T kill-server 2>/dev/null

# ---- nothing left after SIGTERM or SIGKILL, with loaders --------------------
for sig in TERM KILL; do
	"$TL" --batch --format json -i 0.5 --loaders 2 --prep-ms 5 >"$tmp/sig.jsonl" 2>/dev/null &
	tl=$!
	pids+=("$tl")
	for _ in $(seq 150); do [ -s "$tmp/sig.jsonl" ] && break; sleep 0.2; done
	lp=$(head -n1 "$tmp/sig.jsonl" | "$PY" -c 'import json,sys; w=json.loads(sys.stdin.read())["workload"]; print(" ".join(map(str, w["pids"] + w["loader_pids"])))' 2>/dev/null)
	kill -s "$sig" "$tl"
	reap "$tl" 30
	# shellcheck disable=SC2086
	if [ -n "$lp" ] && gone $lp; then ok "SIG$sig of threadlab: anchor, helpers and loaders gone"; else
		notok "SIG$sig leaves processes" "${lp:-no sample within 30 s}"; fi
done

