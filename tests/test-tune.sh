#!/bin/bash
# test-tune.sh — tuning real jobs end to end (issue 11): --progress in
# --batch (plain, tqdm, a printed rate, a followed file, hostile output),
# the OpenMetrics counter, the command sweep's text and CSV, commands that
# misbehave, a job forking workers, --repeat, and nothing left behind.  The
# sweeps that compare rates on this machine's CPUs (with and without a
# quota) are test-tune-sweep.sh, which runs alone.  Prints TAP.
set -u
. "$(dirname "$0")/tap-lib.sh"
. "$(dirname "$0")/tap-steps.sh"
plan 15

# ---- bad input: one line, exit 2 --------------------------------------------
bad=0
detail=
for args in "--progress ( -- true" "--sweep --env NOEQ -- true" "--sweep --env X= -- true" \
	"--sweep --env 1X=1 -- true" "--sweep -- true" "--progress step" \
	"--progress-file /tmp/x -- true" "--env A=1 -- true" "--sweep --env A=1 --threads 2 -- true"; do
	# shellcheck disable=SC2086
	"$TL" $args >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st != 2 ] || [ "$(wc -l <"$tmp/err")" != 1 ] || [ -s "$tmp/out" ] ||
		! grep -q '^threadlab: ' "$tmp/err"; then
		bad=$((bad + 1))
		detail+="$args: status $st: $(cat "$tmp/err")"$'\n'
	fi
done
if [ $bad = 0 ]; then
	ok "bad --progress, --env and misplaced options: one line on stderr, exit 2"
else
	notok "bad input" "$detail"
fi

# ---- batch JSON: the right rate --------------------------------------------
# The rate threadlab reports against the count it reports, over the same
# samples: counts from the job's own lines ("step N": the last line's N).
batch_json() { # NAME THREADS COUNT PROGRESS ARGS...
	local name=$1 th=$2 c=$3 re=$4
	shift 4
	OMP_NUM_THREADS=$th limited 60 "$TL" --batch -i 0.5 -c "$c" --format json --progress "$re" \
		"$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
}
batch_json b1 2 8 'step ([0-9]+)' -- "$STEPS" 0
if "$PY" - "$tmp/b1.json" >"$tmp/check" 2>&1 <<'PY'; then
import json, sys, datetime
rows = [json.loads(l) for l in open(sys.argv[1])]
p = [r["progress"] for r in rows]
assert len(rows) == 8, len(rows)
last = p[-1]
n = int(last["last_line"].split()[1])
assert last["count"] == n, (last["count"], n)   # cumulative: the count is the job's N
assert all(b["count"] >= a["count"] for a, b in zip(p, p[1:])), "count went down"
t = [datetime.datetime.fromisoformat(r["time"].replace("Z", "+00:00")).timestamp() for r in rows]
# Over the last four samples (2 s, the rate's window): counts over time.
want = (p[-1]["count"] - p[-5]["count"]) / (t[-1] - t[-5])
assert want > 20, want
assert abs(last["rate"] - want) <= 0.25 * want, (last["rate"], want)
assert last["steady_rate"] is not None and abs(last["steady_rate"] - want) <= 0.5 * want
print("rate %.1f, from the counts %.1f, steady %.1f" % (last["rate"], want, last["steady_rate"]))
PY
	ok "--batch --format json --progress 'step ([0-9]+)': $(cat "$tmp/check")"
else
	notok "batch JSON progress" "$(cat "$tmp/check" "$tmp/b1.err")" "$(tail -c 600 "$tmp/b1.json")"
fi

# tqdm: carriage-return updates, no newline.
batch_json tq 1 6 '([0-9]+)/[0-9]+ \[' -- "$STEPS" 0 tqdm
if "$PY" - "$tmp/tq.json" >"$tmp/check" 2>&1 <<'PY'; then
import json, sys
p = [json.loads(l)["progress"] for l in open(sys.argv[1])]
last = p[-1]
n = int(last["last_line"].split("|")[2].split("/")[0])
assert last["count"] == n and n > 50, (last["count"], n)
assert last["rate"] and last["rate"] > 20, last["rate"]
assert "it/s]" in last["last_line"]
print("count %d, rate %.1f" % (n, last["rate"]))
PY
	ok "tqdm's \\r-separated updates are counted: $(cat "$tmp/check")"
else
	notok "tqdm" "$(cat "$tmp/check" "$tmp/tq.err")" "$(tail -c 600 "$tmp/tq.json")"
fi

# --progress-rate: the job prints its rate.
batch_json pr 1 8 '([0-9.]+)it/s' --progress-rate -- "$STEPS" 0 tqdm
if "$PY" - "$tmp/pr.json" >"$tmp/check" 2>&1 <<'PY'; then
import json, sys, re
p = [json.loads(l)["progress"] for l in open(sys.argv[1])]
last = p[-1]
printed = float(re.search(r"([0-9.]+)it/s", last["last_line"]).group(1))
assert abs(last["rate"] - printed) <= 0.3 * printed, (last["rate"], printed)
assert last["count"] > 0
print("rate %.1f, printed %.1f" % (last["rate"], printed))
PY
	ok "--progress-rate takes the rate the job prints: $(cat "$tmp/check")"
else
	notok "--progress-rate" "$(cat "$tmp/check" "$tmp/pr.err")" "$(tail -c 600 "$tmp/pr.json")"
fi

# Hostile output: escaped in JSON, made safe in text.
batch_json ho 1 2 'never matches' -- "$STEPS" 1 hostile
limited 30 "$TL" --batch -i 0.5 -c 2 --progress 'never matches' -- "$STEPS" 0 hostile \
	>"$tmp/ho.txt" 2>&1
if "$PY" - "$tmp/ho.json" >"$tmp/check" 2>&1 <<'PY' && ! grep -q $'\033' "$tmp/ho.txt" &&
import json, sys
raw = open(sys.argv[1], "rb").read()
assert b"\x1b" not in raw and b"\x07" not in raw and b"\xff" not in raw
p = [json.loads(l)["progress"] for l in raw.decode().splitlines()]
lines = [q["last_line"] for q in p if q["last_line"]]
assert lines and lines[0].startswith("hostile \x1b[31m"), lines
assert p[-1]["count"] == 0 and p[-1]["rate"] is None
PY
	grep -q 'last line: hostile' "$tmp/ho.txt"; then
	ok "a hostile output line: escaped in JSON, no escape byte in text; nothing matched, rate null"
else
	notok "hostile output" "$(cat "$tmp/check")" "$(head -c 600 "$tmp/ho.txt" | od -c | head -8)"
fi

# --progress-file with -p: a job appending to a file that is rotated and truncated.
log="$tmp/job.log"
cat >"$tmp/writer.sh" <<EOF
i=0
while :; do i=\$((i + 1)); echo "step \$i" >>"$log"; sleep 0.01; done
EOF
bash "$tmp/writer.sh" &
wpid=$!
pids+=("$wpid")
# --progress-file refuses a path that is not there yet: the job's first line first
for _ in $(seq 100); do [ -s "$log" ] && break; sleep 0.1; done
"$TL" --batch -i 0.5 -c 12 --format json -p "$wpid" --progress '^step' --progress-file "$log" \
	>"$tmp/pf.json" 2>"$tmp/pf.err" &
tpid=$!
pids+=("$tpid")
sleep 2
mv "$log" "$log.1"
sleep 1.5
: >"$log"
reap "$tpid" 30
if "$PY" - "$tmp/pf.json" >"$tmp/check" 2>&1 <<'PY'; then
import json, sys
p = [json.loads(l)["progress"] for l in open(sys.argv[1])]
c = [q["count"] for q in p]
assert len(c) == 12, len(c)
# Counting through the rotation (about 2 s) and the truncation (3.5 s).
assert c[3] > 10 and c[6] > c[3] + 10 and c[-1] > c[7] + 10, c
print("counts %s" % c[::3])
PY
	ok "--progress-file follows the file through rotation and truncation: $(cat "$tmp/check")"
else
	notok "--progress-file" "$(cat "$tmp/check" "$tmp/pf.err")"
fi
stop "$wpid"

# ---- the OpenMetrics counter -------------------------------------------------
OMP_NUM_THREADS=1 "$TL" --headless --serve 127.0.0.1:0 -i 0.5 --progress 'step ([0-9]+)' \
	-- "$STEPS" 0 >"$tmp/srv.out" 2>"$tmp/srv.err" &
spid=$!
pids+=("$spid")
url=
for _ in $(seq 100); do
	url=$(sed -n 's/^threadlab: serving \(http[^ ]*\).*/\1/p' "$tmp/srv.err")
	[ -n "$url" ] && break
	sleep 0.1
done
got=
for _ in $(seq 50); do
	[ -n "$url" ] && curl -s -H 'Accept: application/openmetrics-text;version=1.0.0' "$url" \
		>"$tmp/om" 2>/dev/null
	got=$(sed -n 's/^threadlab_progress_steps_total{pid="[0-9]*"} \([0-9.e+]*\)$/\1/p' "$tmp/om")
	[ -n "$got" ] && [ "${got%%.*}" -gt 0 ] 2>/dev/null &&
		grep -q '^threadlab_progress_steps_per_second{' "$tmp/om" && break
	sleep 0.2
done
if [ -n "$got" ] && grep -q '^# TYPE threadlab_progress_steps counter' "$tmp/om" &&
	grep -q '^threadlab_progress_steps_per_second{' "$tmp/om"; then
	ok "OpenMetrics: threadlab_progress_steps_total $got (a counter) and the rate gauge"
else
	notok "OpenMetrics progress" "url $url" "$(grep progress "$tmp/om")" "$(cat "$tmp/srv.err")"
fi
kill -TERM "$spid"
reap "$spid" 30
wait_gone 30

# ---- the command sweep: text and CSV ---------------------------------------
sweep sw.txt --env OMP_NUM_THREADS=1,2 --seconds 1 --warmup 0.5 -- "$STEPS" 0
sweep sw.csv --env OMP_NUM_THREADS=1 --env X='a"b,c' --grid --seconds 1 --warmup 0.5 \
	--progress step --format csv -- "$STEPS" 0
if grep -Eq '^setting +steps/s' "$tmp/sw.txt" && grep -Eq '^OMP_NUM_THREADS=2 +- ' "$tmp/sw.txt" &&
	grep -q '^best: none' "$tmp/sw.txt" &&
	grep -q '^cpu:' "$tmp/sw.txt" && head -1 "$tmp/sw.csv" | grep -q '^setting,rate,' &&
	[ "$(grep -vc '^#' "$tmp/sw.csv")" = 3 ] && grep -q '^# kernel:' "$tmp/sw.csv"; then
	ok "text table (no rate without --progress) and CSV with the environment as # lines"
else
	notok "text/csv sweep" "$(cat "$tmp/sw.txt" "$tmp/sw.csv" "$tmp/sw.txt.err")"
fi

# ---- commands that misbehave -------------------------------------------------
sweep bad.json --env MODE=x --seconds 1.5 --warmup 0.5 --progress 'step ([0-9]+)' --format json \
	-- "$STEPS" 0 noterm
sweep fork.json --env MODE=x --seconds 1.5 --warmup 0.5 --progress 'step ([0-9]+)' --format json \
	-- "$STEPS" 0 fork
sweep setsid.json --env MODE=x --seconds 1.5 --warmup 0.5 --progress 'step ([0-9]+)' --format json \
	-- "$STEPS" 0 setsid
sweep none.json --env MODE=x,y --seconds 1 --warmup 0 --format json -- "$tmp/no-such-program"
sweep quiet.json --env MODE=x --seconds 1 --warmup 0.5 --progress 'step ([0-9]+)' --format json \
	-- "$STEPS" 0 quiet
sweep early.json --env MODE=x --seconds 2 --warmup 0.2 --progress 'step ([0-9]+)' --format json \
	-- "$STEPS" 0.8
if "$PY" - "$tmp" >"$tmp/check" 2>&1 <<'PY'; then
import json, sys
d = sys.argv[1]
st = lambda f: [x["status"] for x in json.load(open(d + "/" + f))["rows"]]
# On a failure, every row's status: which case and what the others said.
sys.excepthook = lambda t, v, tb: print("%s: %s\nall rows: %s" % (t.__name__, v, {
    f: st(f) for f in ("bad.json", "fork.json", "setsid.json", "none.json", "quiet.json", "early.json")}))
assert st("bad.json") == ["ignored SIGTERM: killed (SIGKILL)"], st("bad.json")
f = st("fork.json")[0]
assert f.startswith("exited with status 0 after") and "left running was stopped" in f, f
g = st("setsid.json")[0]
assert "1 process it left outside its group stopped" in g, g
n = st("none.json")
assert len(n) == 2 and all(s.startswith("did not start: cannot run") and "No such file" in s for s in n), n
q = json.load(open(d + "/quiet.json"))["rows"][0]
assert q["status"].endswith("no progress lines matched") and q["rate"] is None, q
e = json.load(open(d + "/early.json"))["rows"][0]
assert e["status"].startswith("exited with status 0 after"), e
for s in (f, n[0], q["status"], e["status"]):
    print(s)
PY
	ok "rows say how each ended: ignored SIGTERM, forked and exited, left its group, not found, no progress, ended early"
else
	notok "misbehaving commands" "$(cat "$tmp/check")"
fi
if wait_gone 20; then
	ok "nothing of the misbehaving commands is left (the grandchildren included, one outside the group)"
else
	notok "left behind" "$(ps -o pid,ppid,pgid,args -p "$(left | tr '\n' ,)0")"
fi

# A DataLoader-like job: workers forked into the main process's group are
# stopped with it, not counted as left outside; --log takes every row.
FORKER="$B/tests/forker"
sweep dl.json --env X=a,b --seconds 1 --warmup 0.3 --format json --log "$tmp/dl.log" -- "$FORKER" 1 2 1
if "$PY" - "$tmp/dl.json" "$tmp/dl.log" >"$tmp/check" 2>&1 <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
st = [x["status"] for x in d["rows"]]
# Stopped with their group (a worker slow to go on a loaded box is killed
# after the grace), never counted as left outside it.
assert len(st) == 2 and all(x.startswith("stopped (SIGTERM)") and "outside" not in x for x in st), st
log = [json.loads(l) for l in open(sys.argv[2])]
assert [l["setting"]["X"] for l in log] == ["a", "b"], log
assert all(l["note"].startswith("--sweep: stopped") for l in log), log
print(st[0])
PY
	ok "a job forking workers into its group: '$(cat "$tmp/check")', none 'left outside'; --log has both rows"
else
	notok "sweep of a forking job" "$(cat "$tmp/check" "$tmp/dl.json.err")"
fi

# --repeat: the median and the spread.
sweep rep.json --env MODE=x --repeat 3 --seconds 1 --warmup 0.3 --progress 'step ([0-9]+)' \
	--format json -- "$STEPS" 0
if "$PY" - "$tmp/rep.json" >"$tmp/check" 2>&1 <<'PY'; then
import json, sys
r = json.load(open(sys.argv[1]))
x = r["rows"][0]
assert r["repeat"] == 3 and x["runs"] == 3, x
assert x["rate"] > 0 and x["rate_spread"] is not None and 0 <= x["rate_spread"] < x["rate"], x
print("median %.1f steps/s, spread %.1f" % (x["rate"], x["rate_spread"]))
PY
	ok "--repeat 3: three runs, the median and the spread: $(cat "$tmp/check")"
else
	notok "--repeat" "$(cat "$tmp/check" "$tmp/rep.json.err")"
fi

# SIGKILL, SIGINT and SIGTERM of threadlab in the middle of a run.
for sig in KILL INT TERM; do
	"$TL" --sweep --env MODE=a,b --seconds 30 --warmup 1 --progress step --format json \
		-- "$STEPS" 0 noterm >"$tmp/sig.out" 2>"$tmp/sig.err" &
	tpid=$!
	for _ in $(seq 50); do [ -n "$(left)" ] && break; sleep 0.1; done
	sleep 0.5
	before=$(left | wc -l)
	kill -"$sig" "$tpid"
	reap "$tpid" 30
	st=$reaped
	if [ "$before" -ge 1 ] && wait_gone 30; then
		ok "threadlab stopped by SIG$sig (status $st): the command that ignores SIGTERM is gone"
	else
		notok "SIG$sig of threadlab" "before $before, left: $(left)" "$(cat "$tmp/sig.err")"
		for p in $(left); do kill -9 "$p"; done
	fi
done

