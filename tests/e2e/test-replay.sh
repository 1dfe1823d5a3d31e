#!/bin/bash
# test-replay.sh — --record and --replay end to end: a real lab run and a
# real attach run recorded, converted back with --replay --batch (the same
# samples), replayed in the dashboard under tmux (the recorded figures on
# screen, the seek keys move the recorded time), zstd whole and cut, and
# every bad input with its message and exit status.  Prints TAP.
#
# The two lab runs go one at a time (a lab starting beside another starts
# slower, its busy threads burning the CPU it waits for); the replays of a
# recording, which only read it, run side by side once it is written.
set -u
HOSTILE="${THREADLAB_BUILDDIR:-.}/tests/lib/hostile-name"

. "$(dirname "$0")/../lib/tap-lib.sh"
tmux_socket replay

# Debian's python3 (a python3 first in PATH may be a shim that costs a
# second a start).
if ! command -v "$PY" >/dev/null; then
	skip_all "python3 is needed to compare JSON (Debian package python3)"
fi
plan 24

# same A B: the JSON Lines of A and B hold the same samples, field for field.
same() {
	"$PY" - "$1" "$2" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
b = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
if len(a) != len(b):
    sys.exit("%d samples against %d" % (len(a), len(b)))
for i, (x, y) in enumerate(zip(a, b)):
    if x != y:
        keys = [k for k in set(x) | set(y) if x.get(k) != y.get(k)]
        sys.exit("sample %d differs in %s" % (i, keys))
if not a:
    sys.exit("no samples")
PY
}

# ---- a real lab run, recorded in batch mode (2 s) -----------------------------
# (beside it, the attach run of a sleeping process, below)
"$HOSTILE" >"$tmp/hostile.out" &
hp=$!
track "$hp"
until_true 300 grep -q ready "$tmp/hostile.out"
bg_start att.out "$TL" --batch -p "$hp" -c 4 -i 0.2 --format json --record "$tmp/att.jsonl"
lab_args=(--batch -c 10 -i 0.2 --size 256 --threads 2 --format json --record "$tmp/lab.jsonl")
limited 60 "$TL" "${lab_args[@]}" >"$tmp/lab.out" 2>"$tmp/lab.err"
st=$?
# The second lab run, for zstd, once the first is done.
bg_start z.out "$TL" --batch -c 6 -i 0.2 --size 256 --format json --record "$tmp/lab.jsonl.zst"
# The replays of the recording and the bad inputs, side by side.
bg_start lab.replay "$TL" --replay "$tmp/lab.jsonl" --batch --format json
# A batch JSON file is a recording without a header.
bg_start lab.replay2 "$TL" --replay "$tmp/lab.out" --batch --format json
bg_start lab.csv "$TL" --replay "$tmp/lab.jsonl" --batch --format csv
bg_start lab.txt "$TL" --replay "$tmp/lab.jsonl" --batch -c 3
# bad_start NAME ARGS...: a run that must fail (checked by bad below).
bad_start() { bg_start "bad.$1" "$TL" "${@:2}"; }
bad_start none --replay "$tmp/none.jsonl" --batch
printf 'GIF89a\n' >"$tmp/pic.jsonl"
bad_start pic --replay "$tmp/pic.jsonl" --batch
sed '1s/"threadlab_recording":1/"threadlab_recording":7/' "$tmp/lab.jsonl" >"$tmp/newer.jsonl"
bad_start newer --replay "$tmp/newer.jsonl" --batch
head -n1 "$tmp/lab.jsonl" >"$tmp/headonly.jsonl"
bad_start headonly --replay "$tmp/headonly.jsonl" --batch
bad_start p --replay "$tmp/lab.jsonl" -p 1
bad_start dir --batch -c 1 --size 256 --record "$tmp/no/such/dir.jsonl"
# A bad line in the middle is skipped and said once.
{ head -n4 "$tmp/lab.jsonl"; echo '{"time": 12}'; echo 'not json at all'; tail -n +5 "$tmp/lab.jsonl"; } >"$tmp/mid.jsonl"
bg_start mid.out "$TL" --replay "$tmp/mid.jsonl" --batch --format json
# A torn last line (a run killed while writing) is ignored with a note.
head -c -40 "$tmp/lab.jsonl" >"$tmp/torn.jsonl"
bg_start torn.out "$TL" --replay "$tmp/torn.jsonl" --batch --format json

if [ $st = 0 ] && [ "$(wc -l <"$tmp/lab.jsonl")" = 11 ] &&
	head -n1 "$tmp/lab.jsonl" | grep -q '"threadlab_recording":1' &&
	head -n1 "$tmp/lab.jsonl" | grep -q '"mode":"lab"'; then
	ok "--batch --record: a header and one line per sample (11 lines)"
else
	notok "--batch --record" "status $st" "$(cat "$tmp/lab.err")" "$(wc -l <"$tmp/lab.jsonl")"
fi
"$PY" - "$tmp/lab.jsonl" "$TL" "${lab_args[@]}" <<'PY' >"$tmp/err" 2>&1 && ok "the header holds every field it promises" || notok "recording header fields" "$(cat "$tmp/err")"
import json, sys
h = json.loads(open(sys.argv[1]).readline())
for k in ("threadlab_recording", "threadlab_version", "host", "kernel", "cpu_model",
          "online_cpus", "openblas", "env", "command_line", "start_time", "mode", "target",
          "interval"):
    assert k in h, k
assert "OMP_NUM_THREADS" in h["env"], h["env"]
assert h["openblas"]["variant"] in ("pthreads", "openmp", "sequential"), h["openblas"]
# The command line as it was given: the program, then every argument.
assert h["command_line"] == sys.argv[2:], (h["command_line"], sys.argv[2:])
assert h["interval"] == 0.2
PY
tail -n +2 "$tmp/lab.jsonl" >"$tmp/lab.samples"
if same "$tmp/lab.out" "$tmp/lab.samples" 2>"$tmp/err"; then
	ok "each recorded sample is the batch --format json sample"
else
	notok "recorded samples = batch output" "$(cat "$tmp/err")"
fi
bg_end lab.replay 30
st=$reaped
if [ $st = 0 ] && same "$tmp/lab.out" "$tmp/lab.replay" 2>>"$tmp/lab.replay.err"; then
	ok "--replay --batch --format json gives the same samples back (round trip)"
else
	notok "round trip" "status $st" "$(cat "$tmp/lab.replay.err")"
fi
bg_end lab.replay2 30
if same "$tmp/lab.out" "$tmp/lab.replay2" 2>>"$tmp/lab.replay2.err"; then
	ok "a batch JSON file replays too (no header)"
else
	notok "batch JSON replays" "$(cat "$tmp/lab.replay2.err")"
fi
bg_end lab.csv 30
rows=$("$PY" -c 'import json,sys; print(sum(len(json.loads(l)["threads"]) for l in open(sys.argv[1])))' "$tmp/lab.out")
if [ "$(head -n1 "$tmp/lab.csv" | cut -d, -f1)" = time ] && [ "$(($(wc -l <"$tmp/lab.csv") - 1))" = "$rows" ]; then
	ok "--replay --format csv: one row per thread per sample ($rows rows)"
else
	notok "--replay csv" "$(head -n3 "$tmp/lab.csv")" "want $rows rows"
fi
bg_end lab.txt 30
if [ "$(grep -c 'effective 2.00 CPUs\|effective [0-9.]* CPUs' "$tmp/lab.txt")" = 3 ] &&
	grep -q 'workload 1 stream(s) x 2 thread(s)' "$tmp/lab.txt"; then
	ok "--replay --format text -c 3: three samples with the workload"
else
	notok "--replay text" "$(head -n12 "$tmp/lab.txt")"
fi

# ---- zstd, whole and cut --------------------------------------------------------
bg_end z.out 60
size=$(stat -c %s "$tmp/lab.jsonl.zst")
head -c $((size * 3 / 5)) "$tmp/lab.jsonl.zst" >"$tmp/cut.zst"
bg_start z.replay "$TL" --replay "$tmp/lab.jsonl.zst" --batch --format json
bg_start cut.out "$TL" --replay "$tmp/cut.zst" --batch --format json
bg_end z.replay 30
st=$reaped
if [ "$(head -c4 "$tmp/lab.jsonl.zst" | od -An -tx1 | tr -d ' ')" = 28b52ffd ] && [ $st = 0 ] &&
	same "$tmp/z.out" "$tmp/z.replay" 2>>"$tmp/z.replay.err"; then
	ok "FILE.zst is written compressed and replays to the same samples"
else
	notok "zstd round trip" "$(cat "$tmp/z.out.err" "$tmp/z.replay.err")"
fi
bg_end cut.out 30
st=$reaped
got=$(wc -l <"$tmp/cut.out")
if [ $st = 0 ] && [ "$got" -ge 1 ] && [ "$got" -lt 6 ] && grep -q 'cut in a zstd frame' "$tmp/cut.out.err" &&
	"$PY" -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$tmp/cut.out"; then
	ok "a zstd file cut in the middle replays up to the cut, with a note ($got of 6)"
else
	notok "cut zstd" "status $st, $got lines" "$(cat "$tmp/cut.out.err")"
fi

# ---- a real attach run (started beside the first lab run) --------------------------
bg_end att.out 30
bg_start att.replay "$TL" --replay "$tmp/att.jsonl" --batch --format json
bg_end att.replay 30
if head -n1 "$tmp/att.jsonl" | grep -q '"mode":"attach"' && same "$tmp/att.out" "$tmp/att.replay" 2>>"$tmp/att.replay.err"; then
	ok "attach run: recorded (mode attach) and replayed to the same samples"
else
	notok "attach round trip" "$(cat "$tmp/att.out.err" "$tmp/att.replay.err")"
fi

# ---- bad input: one line, exit 2 ----------------------------------------------------
# bad NAME DESCRIPTION NEEDLE: run bad.NAME (bad_start, above) exited 2,
# nothing on stdout, one line naming NEEDLE.
bad() {
	local r="bad.$1" d="$2" needle="$3"
	bg_end "$r" 30
	local st=$reaped
	if [ $st = 2 ] && [ ! -s "$tmp/$r" ] && [ "$(wc -l <"$tmp/$r.err")" = 1 ] &&
		grep -q "^threadlab: .*$needle" "$tmp/$r.err"; then
		ok "$d: exit 2, $(cat "$tmp/$r.err")"
	else
		notok "$d" "status $st" "$(cat "$tmp/$r.err")" "$(head -c 300 "$tmp/$r")"
	fi
}
bad none "a recording that does not exist" "$tmp/none.jsonl: No such file"
bad pic "a file that is not a recording" "pic.jsonl:1: not a threadlab recording"
bad newer "a recording from a newer format" "newer.jsonl:1: recording format 7 is newer"
bad headonly "a recording without samples" "without samples"
bad p "--replay with -p" "drop -p"
bad dir "--record into a directory that does not exist" "cannot write the recording"
bg_end mid.out 30
st=$reaped
if [ $st = 0 ] && [ "$(wc -l <"$tmp/mid.out")" = 10 ] && grep -q 'mid.jsonl:5: ' "$tmp/mid.out.err" &&
	grep -q '2 lines .* skipped' "$tmp/mid.out.err" && [ "$(wc -l <"$tmp/mid.out.err")" = 2 ]; then
	ok "bad lines in the middle: skipped, the first named once, the count at the end"
else
	notok "bad line in the middle" "status $st, $(wc -l <"$tmp/mid.out") lines" "$(cat "$tmp/mid.out.err")"
fi
# A torn last line (a run killed while writing) is ignored with a note.
bg_end torn.out 30
if [ $reaped = 0 ] && [ "$(wc -l <"$tmp/torn.out")" = 9 ] && grep -q 'no end: ignored' "$tmp/torn.out.err"; then
	ok "a torn last line is ignored with a note"
else
	notok "torn last line" "$(cat "$tmp/torn.out.err")"
fi

# ---- the dashboard on a recording (tmux) ------------------------------------------
if ! tmux_installed; then
	skip "replay in the dashboard" "tmux is not installed (Debian package tmux)"
	skip "replay seek keys" "tmux is not installed"
	skip "replay > and <" "tmux is not installed"
	skip "replay of an attach run: the process row's name" "tmux is not installed"
	skip "dashboard --record" "tmux is not installed"
else
	$T new-session -d -s keep -x 80 -y 24 "sleep 600"
	# The dashboard records too (checked last, its lab started first: it
	# starts while the replay below is driven).
	$T new-session -d -s rec -x 120 -y 40 "exec '$TL' -i 0.3 --size 256 --record '$tmp/dash.jsonl'"
	# The recorded GFLOP/s of the first sample, as the screen rounds it, and
	# the times of the first and the last.
	read -r first t1 t10 < <("$PY" -c 'import json,sys
l = [json.loads(x) for x in open(sys.argv[1])]
print("%.1f" % l[0]["workload"]["gflops"], l[0]["time"][11:19], l[-1]["time"][11:19])' "$tmp/lab.out")
	$T new-session -d -s rp -x 120 -y 40 "exec env LC_ALL=C.UTF-8 '$TL' --replay '$tmp/lab.jsonl'"
	# pause (> always pauses; a space would play a replay that already
	# ran to its end) and back to the start: on a loaded box the key may
	# come after the replay has moved on
	$T send-keys -t rp '>' g
	if wait_pane rp 'threadlab replay lab' 150 && grep -q "GFLOP/s $first" "$tmp/pane" &&
		grep -q "$t1 UTC" "$tmp/pane" && grep -q 'gemm0.w1' "$tmp/pane" &&
		grep -q 'CPU budget: online' "$tmp/pane" && grep -Eq ' (sample )?1/10 ' "$tmp/pane"; then
		ok "replay: the dashboard shows the recorded GFLOP/s ($first), time (UTC), threads and budget"
	else
		notok "replay screen" "want GFLOP/s $first at $t1" "$(cat "$tmp/pane")"
	fi
	$T send-keys -t rp G
	wait_pane rp ' (sample )?10/10 ' 100
	at_end=$?
	grep -q "$t10" "$tmp/pane"
	end_time=$?
	$T send-keys -t rp Left Left
	wait_pane rp ' (sample )?8/10 ' 100
	back=$?
	$T send-keys -t rp g
	wait_pane rp ' (sample )?1/10 ' 100
	start=$?
	if [ $at_end = 0 ] && [ $end_time = 0 ] && [ $back = 0 ] && [ $start = 0 ]; then
		ok "replay keys: G to the end (its recorded time), Left twice back, g to the start"
	else
		notok "replay keys" "end $at_end time $end_time back $back start $start" "$(cat "$tmp/pane")"
	fi
	# The key bar's "<>": > and < step like Right and Left.
	$T send-keys -t rp '>' '>'
	wait_pane rp ' (sample )?3/10 ' 100
	fwd=$?
	$T send-keys -t rp '<'
	wait_pane rp ' (sample )?2/10 ' 100
	bwd=$?
	if [ $fwd = 0 ] && [ $bwd = 0 ] && grep -q '<> step' "$tmp/pane"; then
		ok "replay: > and < step forward and back, as the key bar's <> says"
	else
		notok "replay > and <" "forward $fwd back $bwd" "$(cat "$tmp/pane")"
	fi
	$T send-keys -t rp '4' ' '
	if wait_pane rp ' (sample )?([3-9]|10)/10 ' 100 && grep -q '| 4x' "$tmp/pane"; then
		ok "replay plays on at 4x after space"
	else
		notok "replay play at 4x" "$(cat "$tmp/pane")"
	fi
	$T send-keys -t rp q

	# An attach run replayed: its process row is named after the process
	# (no census in a replay: the leader thread's name, made safe) as the
	# live one is; it read "- (6)".
	$T new-session -d -s ra -x 120 -y 40 "exec env LC_ALL=C.UTF-8 '$TL' --replay '$tmp/att.jsonl'"
	if wait_pane ra $'- \xef\xbf\xbd\\[31mRED\xef\xbf\xbd\\([0-9]+\\)' 150; then
		ok "replay of an attach run: the process row has the process's name"
	else
		notok "replay: the process row's name" "$(cat "$tmp/pane")"
	fi
	$T send-keys -t ra q

	# The dashboard records too: a header and samples, while it runs.
	wait_pane rec 'GFLOP/s [0-9]' 300
	recorded() { [ "$(wc -l <"$tmp/dash.jsonl" 2>/dev/null || echo 0)" -ge "$1" ]; }
	until_true 100 recorded 5
	$T send-keys -t rec q
	until_true 50 no_session rec
	lines=$(wc -l <"$tmp/dash.jsonl" 2>/dev/null || echo 0)
	if [ "$lines" -ge 4 ] && limited 30 "$TL" --replay "$tmp/dash.jsonl" --batch --format json >"$tmp/dash.out" 2>"$tmp/err" &&
		[ "$(wc -l <"$tmp/dash.out")" = $((lines - 1)) ]; then
		ok "the dashboard with --record writes a recording that replays ($((lines - 1)) samples)"
	else
		notok "dashboard --record" "$lines lines" "$(cat "$tmp/err" 2>/dev/null)"
	fi
fi

[ "$fails" = 0 ]
