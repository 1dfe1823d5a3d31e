#!/bin/bash
# test-tour-dash.sh — the guided tour in the dashboard under tmux, under a
# background load: keys space, n and q, every number of each step's caption
# on the screen beside it, its notes file against its screen, the keys after
# its end, the variant switch key b, and nothing left behind after quit.
# The tour in batch mode is test-tour.sh.  Prints TAP.
set -u

. "$(dirname "$0")/../lib/tap-lib.sh"
tmux_socket tour-dash
plan 16

if ! tmux_installed; then
	skip_rest "tmux is not installed (Debian package tmux)"
fi
# wait_for TEXT SECONDS: the pane shows TEXT within SECONDS.  seen TENTHS
# CMD...: until_true, looking every 0.2 s (each look at the pane starts a
# tmux client).
shows() { tap_pane_shows tl "$1"; }
wait_for() { tap_every=2 until_true $(($2 * 10)) shows "$1"; }
seen() { tap_every=2 until_true "$@"; }
# The tour's status line while step N is held: "tour L/9 TITLE: step N/M
# PAUSED (space goes on)".
held() { tap_pane_has tl "^tour [0-9]/9 .*: step $1/[0-9]+ PAUSED"; }
# on_step N: the status line names step N (setting up, measuring, held).
on_step() { tap_pane_has tl "^tour [0-9]/9 .*: step $1/[0-9]+[ ,]"; }
# keep N: the screen of held step N into $tmp/shown.N.  A capture can tear,
# taken while the dashboard writes one refresh (seen on the sanitizer
# build: the new status line over the last step's caption): it counts only
# when a second capture 50 ms later shows the same, and the step is still
# the held one.  The figures and the caption of a held step stay; the rest
# of the screen changes with each sample.  tmux takes both captures and
# waits between them, in one command: a script that waits for a CPU (a
# loaded box) cannot stretch the 50 ms past the next sample.
keep() { until_true 100 kept "$1"; }
kept() {
	local pair now again sep='@@ tl-tour-dash again'
	pair=$($T capture-pane -p -t tl \; run-shell 'sleep 0.05' \; display-message -p "$sep" \; \
		capture-pane -p -t tl \; display-message -p "$sep" 2>/dev/null)
	now=${pair%%"$sep"*}
	again=${pair#*"$sep"$'\n'}
	again=${again%"$sep"}
	[ -n "$now" ] && [ "$now" = "$again" ] && [[ $now =~ (^|$'\n')"tour "[0-9]/9" "[^$'\n']*": step $1/"[0-9]+" PAUSED" ]] &&
		printf '%s' "$now" >"$tmp/shown.$1"
}
# Half-second steps sampled every 0.5 s (the screen then holds still long
# enough to be captured twice): what is checked is the screen against the
# notes, whatever a step measured.
$T new-session -d -s tl -x 160 -y 50 \
	"$TL --tour --tour-step 0.5 -i 0.5 --tour-notes $tmp/notes.jsonl --size 512; echo EXITED \$?; sleep 30"
if wait_for "tour 1/9 One thread" 30; then ok "--tour: the first lesson on screen"; else
	notok "tour start" "$(pane tl)"; fi
# Under a background load (one busy thread the test started, while the
# tour's steps run): the figures a caption quotes must be the screen's,
# whatever the load does to them.
spawn env OMP_NUM_THREADS=1 "${THREADLAB_BUILDDIR:-.}/tests/lib/omp-busy" >/dev/null
busy=$spawned
# Space, given while the first step is set up or measured, holds its
# caption when it comes: every step is held until its screen is kept, so
# none can go by unseen on a loaded box.  The hold stays on through n;
# space at the last step lets the tour go on to its end.
$T send-keys -t tl ' '
if wait_for "One intra-op thread, one stream:" 40; then ok "the first caption appears"; else
	notok "first caption" "$(pane tl)"; fi
shown=$(pane tl | grep -o "One intra-op thread, one stream: [0-9.]* GFLOP/s" | head -1)
tlpid=$(pane_proc tl threadlab)
if seen 300 held '[0-9]*'; then ok "space holds the tour"; else notok "space" "$(pane tl)"; fi
# The step held first: the first, unless the key came after its hold.
read -r held1 steps < <(pane tl | sed -n 's/^tour [0-9]\/9 .*: step \([0-9]*\)\/\([0-9]*\) PAUSED.*/\1 \2/p' | head -n1)
held1=${held1:-1}
steps=${steps:-15}
keep "$held1"
# n leaves the held step for the next one (held in turn when measured).
$T send-keys -t tl n
if seen 200 on_step $((held1 + 1)); then
	ok "n moves to the next step ($(pane tl | grep -Eo '^tour [0-9]/9' | head -n1))"
else
	notok "n" "$(pane tl)"
fi
# Each step's screen, held: kept, then n to the next (its hold is n's
# visible effect: no step is measured before n); space at the last.
for ((i = held1 + 1; i <= steps; i++)); do
	# A step that cannot be set up is skipped after 60 s: held as well.
	seen 1200 held "$i" || break
	keep "$i"
	if [ "$i" -lt "$steps" ]; then $T send-keys -t tl n; else $T send-keys -t tl ' '; fi
done
stop "$busy"
if wait_for "tour done: your settings are back" 60; then
	ok "the tour runs through its last lesson to its end"
else
	notok "the tour's end" "$(pane tl)"
fi
# Every number of each caption is on the screen beside it (the figures
# line, the header, the budget, the table), within its rounding; a caption
# that quotes a ceiling quotes the header's.  Every step measured from the
# first held one on was seen.
"$PY" - "$tmp/notes.jsonl" "$tmp" "$held1" >"$tmp/check" 2>&1 <<'PY'
import json, re, sys, os
steps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
num = re.compile(r"(?<![A-Za-z_\d.])(\d+(?:\.\d+)?)(?=[x%\s,.;:)/]|$)")
def nums(text):
    return [(float(m), len(m.split(".")[1]) if "." in m else 0) for m in num.findall(text)]
norm = lambda t: " ".join(t.split())
checked = 0
for s in steps:
    if s["skipped"] or s["step"] < int(sys.argv[3]):
        continue
    f = os.path.join(sys.argv[2], "shown.%d" % s["step"])
    if not os.path.exists(f):
        sys.exit("step %d was measured and its screen never seen held" % s["step"])
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
header2() { pane tl | head -n1 | grep -q 'threads 2 '; }
if until_true 100 header2 && pane tl | grep -q '+- threads' && ! pane tl | grep -q 'n next'; then
	ok "after the tour's end: + sets the threads, the key bar is the lab's"
else
	notok "keys after the tour's end" "$(pane tl | tail -4)"
fi
$T send-keys -t tl '-'
wait_for "threads 1 " 10
# t runs it again; q leaves it and the settings come back.
$T send-keys -t tl t
wait_for "tour 1/9" 20
$T send-keys -t tl q
no_tour() { ! pane tl | grep -q '^tour [0-9]/9'; }
if until_true 100 no_tour; then ok "q leaves the tour"; else notok "q leaves" "$(pane tl)"; fi
if wait_for "threads 1 " 10 && ! pane tl | grep -q "tour 1/9"; then
	ok "the settings from before the tour are back"
else
	notok "settings restored" "$(pane tl | head -3)"
fi
# b switches to the OpenMP build live; every helper is replaced (the
# anchor as it is now: a restart would have replaced it).
anchor=$(pgrep -P "${tlpid:-0}" -x tl-anchor | head -1)
old=$(pgrep -P "${anchor:-0}" | tr '\n' ' ')
before=$(pgrep -P "${anchor:-0}" | wc -l)
$T send-keys -t tl b
openmp_header() { pane tl | head -n1 | grep -q '| openmp |'; }
if until_true 200 openmp_header; then ok "b: the helpers restart on the OpenMP build"; else
	notok "b key" "$(pane tl | head -8)"; fi
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
if wait_for "EXITED 0" 15; then ok "F10 quits, status 0"; else notok "quit" "$(pane tl | tail -3)"; fi
if [ -n "$anchor" ] && gone "$anchor"; then ok "the lab is gone after quit"; else notok "anchor left" "$anchor"; fi
$T kill-server 2>/dev/null
