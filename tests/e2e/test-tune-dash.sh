#!/bin/bash
# test-tune-dash.sh — the dashboard's side of issue 11 in tmux: the job's
# progress rate and last output line (-- CMD --progress), the experiment
# log of a real job (m with a note, e), and of the lab with --log FILE
# (ratios, the two-knob warning, the JSON Lines read back).  Prints TAP.
#
# The job (tests/lib/omp-steps) is paced (OMP_STEPS_PACE): 100 lines a second,
# kept to deadlines, at no CPU; the lab, which keeps CPUs busy, runs after
# it, alone.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
STEPS="$(cd "$B" && pwd)/tests/lib/omp-steps"

need_tmux tune "$STEPS"
plan 7
$T new-session -d -s keep -x 80 -y 24 "sleep 600"
# The progress row's figures: "RATE COUNT" from the pane in $tmp/pane.
figures() {
	sed -n 's/^progress .* \([0-9.]*\) steps\/s | steady [0-9.]* | \([0-9]*\) steps.*/\1 \2/p' \
		"$tmp/pane" | head -n1
}
# fresh_figures: waits (at most 10 s) for the progress row to change, so
# that the figures in $tmp/pane were drawn a moment ago (the count is the
# last tick's, up to an interval old otherwise); their time in $t.
fresh_figures() {
	local was
	was=$(figures)
	until_true 100 figures_not "$was"
}
figures_not() {
	pane job >"$tmp/pane"
	t=$EPOCHREALTIME
	[ -n "$(figures)" ] && [ "$(figures)" != "$1" ]
}

# ---- a real job's progress ------------------------------------------------------
$T new-session -d -s job -x 80 -y 24 \
	"exec env OMP_NUM_THREADS=1 OMP_STEPS_PACE=100 LC_ALL=C.UTF-8 '$TL' -i 0.5 --progress 'step ([0-9]+)' -- '$STEPS' 0"
if wait_pane job '^progress .*[0-9] steps/s \| steady [0-9.]+ \| [0-9]+ steps' 200; then
	# the figures just after a tick, and again just after a tick 2 s on
	fresh_figures
	t1=$t
	f1=$(figures)
	sleep 2
	fresh_figures
	t2=$t
	f2=$(figures)
	if "$PY" - "$t1" "$f1" "$t2" "$f2" >"$tmp/check" 2>&1 <<'PY'; then
import sys
t1, (r1, c1), t2, (r2, c2) = float(sys.argv[1]), sys.argv[2].split(), float(sys.argv[3]), sys.argv[4].split()
want = (int(c2) - int(c1)) / (t2 - t1)
assert want > 20 and abs(float(r2) - want) <= 0.35 * want, (r2, want)
print("shows %s steps/s, the counts on screen give %.1f" % (r2, want))
PY
		ok "dashboard: the progress row's rate matches its count over 2 s: $(cat "$tmp/check")"
	else
		notok "dashboard progress rate" "$(cat "$tmp/check")" "$(cat "$tmp/pane")"
	fi
else
	notok "dashboard progress row" "$(cat "$tmp/pane")"
fi
if tail -n1 "$tmp/pane" | grep -Eq '^step [0-9]+' &&
	grep -Eq '^(run|runnable) ' "$tmp/pane"; then
	ok "the job's last output line is on the message line; the demand sparklines stay"
else
	notok "message line" "$(cat "$tmp/pane")"
fi

# m: a note typed on the message line, e: the log.
$T send-keys -t job m
wait_pane job 'note for this row' 100
$T send-keys -t job -l 'base line'
$T send-keys -t job Enter
if wait_pane job 'row 1 marked' 100; then
	$T send-keys -t job e
	if wait_pane job '^experiment log: 1 row' 100 &&
		grep -Eq '^ 1 +1\.00x +[0-9.]+ .* OMP_NUM_THREADS=1( |$)' "$tmp/pane" &&
		grep -q '"base line"' "$tmp/pane"; then
		ok "m with a note, e: the row holds the rate, OMP_NUM_THREADS=1 and the note"
	else
		notok "log view of a job" "$(cat "$tmp/pane")"
	fi
else
	notok "m with a note" "$(cat "$tmp/pane")"
fi
$T send-keys -t job q

# ---- the lab's log with --log ---------------------------------------------------------
$T new-session -d -s lab -x 120 -y 40 "exec env LC_ALL=C.UTF-8 '$TL' -i 0.5 --log '$tmp/log.jsonl'"
# steady TARGET: the steady figure of the setting now in effect (it reads
# "steady ..." from the change until 1.5 s of it are measured; a change
# already measured is not waited for again).
steady() {
	wait_pane "$1" 'steady \.\.\.' 100 2>/dev/null
	wait_pane "$1" 'steady [0-9]' 150
}
marked=0
if wait_pane lab 'GFLOP/s [0-9.]+ ' 300 && steady lab; then
	$T send-keys -t lab m
	wait_pane lab 'row 1 marked' 100 && marked=$((marked + 1))
	$T send-keys -t lab +
	steady lab
	$T send-keys -t lab m
	wait_pane lab 'row 2 marked: [0-9.]+x the first row' 100 && marked=$((marked + 1))
	$T send-keys -t lab + ']'
	steady lab
	$T send-keys -t lab m
	wait_pane lab 'row 3 marked: 2 knobs changed at once: threads and streams' 100 &&
		marked=$((marked + 1))
fi
if [ $marked = 3 ]; then
	ok "lab: three rows marked, the third warns: 2 knobs changed at once: threads and streams"
else
	notok "lab rows ($marked of 3 marked)" "$(cat "$tmp/pane")"
fi
$T send-keys -t lab e
wait_pane lab '^experiment log: 3 rows' 100
cp "$tmp/pane" "$tmp/view"
if grep -Eq '^ 1 +1\.00x ' "$tmp/view" && grep -Eq '^ +warning: 2 knobs changed at once' "$tmp/view"; then
	ok "e: the log view shows row 1 at 1.00x and the warning under row 3"
else
	notok "lab log view" "$(cat "$tmp/view")"
fi
$T send-keys -t lab q
until_true 50 no_session lab
if "$PY" - "$tmp/log.jsonl" "$tmp/view" >"$tmp/check" 2>&1 <<'PY'; then
import json, re, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 3, len(rows)
assert [r["setting"]["threads"] for r in rows] == ["1", "2", "3"], rows
assert [r["setting"]["streams"] for r in rows] == ["1", "1", "2"]
assert rows[0]["ratio"] == 1.0 and rows[0]["unit"] == "GFLOP/s"
assert rows[2]["warning"] == "2 knobs changed at once: threads and streams"
assert rows[1]["warning"] is None
for r in rows:
    e = r["environment"]
    assert e["cpu_model"] and e["openblas_config"] and e["kernel"] and e["date"], e
    assert r["rate"] > 0 and r["verdict"]
# The view and the file agree: each row's ratio as the view printed it.
view = {int(m.group(1)): m.group(2) for m in
        (re.match(r"^ *(\d+) +([0-9.]+)x ", l) for l in open(sys.argv[2])) if m}
for i, r in enumerate(rows, 1):
    assert abs(float(view[i]) - r["ratio"]) <= 0.0051, (i, r["ratio"], view)
print("ratios " + " ".join("%.2f" % r["ratio"] for r in rows))
PY
	ok "--log: three JSON lines with setting, ratio, warning and the environment; ratios as the view shows: $(cat "$tmp/check")"
else
	notok "--log file" "$(cat "$tmp/check")" "$(head -c 1200 "$tmp/log.jsonl")"
fi
# A second run reads the rows back and goes on: row 4, its ratio to row 1.
$T new-session -d -s lab2 -x 80 -y 24 "exec '$TL' -i 0.5 --log '$tmp/log.jsonl'"
if wait_pane lab2 'GFLOP/s [0-9.]+ ' 300 && steady lab2; then
	$T send-keys -t lab2 m
	wait_pane lab2 'row 4 marked' 100
	$T send-keys -t lab2 e
	wait_pane lab2 '^experiment log: 4 rows' 100
	cp "$tmp/pane" "$tmp/view2"
	$T send-keys -t lab2 q
fi
until_true 50 no_session lab2
if [ "$(wc -l <"$tmp/log.jsonl")" = 4 ] && grep -Eq '^ 1 +1\.00x ' "$tmp/view2" &&
	grep -Eq '^ 4 +[0-9.]+x ' "$tmp/view2" &&
	"$PY" -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; assert r[3]["row"] == 4 and r[3]["ratio"] > 0 and abs(r[3]["ratio"] - r[3]["rate"] / r[0]["rate"]) < 0.01' \
		"$tmp/log.jsonl"; then
	ok "--log round trip: a second run reads the 3 rows back, marks row 4 against row 1 and appends it"
else
	notok "--log read back" "$(wc -l <"$tmp/log.jsonl") lines" "$(cat "$tmp/view2" 2>/dev/null)"
fi
