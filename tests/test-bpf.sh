#!/bin/bash
# test-bpf.sh — the BPF collector through the real binary, against
# tests/lat-target: --version, --collector auto|bpf|proc, the fallback note
# and exit 2 as an ordinary user (nobody, through setpriv), a copy given
# cap_bpf,cap_perfmon+ep that works as that user and holds no capability
# once loaded, a read that fails at run time (THREADLAB_BPF_FAIL_READ), the
# latency in batch JSON, CSV and the diagnosis, an overflowing map, a
# recording replayed, the dashboard's columns and their hidden line in
# tmux, and the OpenMetrics histogram with scrapes that never read BPF.
# Prints TAP; every process and the tmux server it starts are killed on
# every path.  Without a BPF build, or where BPF does not load (not root),
# the cases that need it say SKIP and why.
set -u
B="${THREADLAB_BUILDDIR:-.}"
TL="${THREADLAB_BIN:-$B/threadlab}"
LT="$B/tests/lat-target"
T="tmux -u -L tl-bpf-$$ -f /dev/null"
tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=()
cleanup() {
	$T kill-server 2>/dev/null
	for p in "${pids[@]}"; do stop "$p"; done
	rm -rf "$tmp"
}
. "$(dirname "$0")/tap-lib.sh"

for c in python3 tmux curl; do
	command -v $c >/dev/null || skip_all "$c is not installed"
done
plan 19

# One idle session keeps the private tmux server up between the others: a
# new session right after the last one closed can find the server exiting.
$T new-session -d -s keep "sleep 3600"

# target NAME ARGS...: starts lat-target, sets $NAME to its PID.
target() {
	local var=$1
	shift
	"$LT" "$@" >"$tmp/lt.$var" &
	pids+=($!)
	for _ in $(seq 50); do [ -s "$tmp/lt.$var" ] && break; sleep 0.1; done
	printf -v "$var" '%s' "$(cat "$tmp/lt.$var")"
}
# json_check FILE PYTHON: runs PYTHON with the JSON Lines of FILE as "lines".
json_check() {
	python3 - "$1" "$2" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
exec(sys.argv[2])
PY
}

# 1. --version says whether BPF was built, as configure decided.
built=no
grep -q '^#define HAVE_BPF 1' "$B/config.h" 2>/dev/null && built=yes
v=$("$TL" --version)
if { [ $built = yes ] && grep -q '^bpf: yes' <<<"$v"; } ||
	{ [ $built = no ] && grep -q '^bpf: no' <<<"$v"; }; then
	ok "--version lists the BPF collector ($built)"
else
	notok "--version" "$v"
fi

# Bad collector options: one line each, exit 2, before anything starts.
bad=""
for args in "--collector foo --batch -c 1" "--bpf-threads 5 --batch -c 1" \
	"--bpf-threads 999999 --batch -c 1" "--collector proc --bpf-threads 100 --batch -c 1" \
	"--collector bpf --root / --budget" "--collector bpf --replay /nonexistent" \
	"--collector bpf --batch --root $tmp -p 1"; do
	# shellcheck disable=SC2086
	"$TL" $args >"$tmp/out" 2>"$tmp/err"
	st=$?
	{ [ $st = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ]; } ||
		bad="$bad|$args: status $st $(cat "$tmp/err")"
done
if [ -z "$bad" ]; then
	ok "bad --collector / --bpf-threads uses: one line, exit 2"
else
	notok "bad collector options" "$bad"
fi

# Whether BPF loads here, as the tests' user.  The busy target's 4 threads
# share the first CPU: they wait in its run queue as they would on 2, and
# the test, which runs beside other tests, holds one CPU instead of both.
target busy --busy 4 --pin 1
bpf=yes
why=""
if ! "$TL" --collector bpf --batch -c 1 -i 0.2 -p "$busy" >/dev/null 2>"$tmp/err"; then
	bpf=no
	why=$(cat "$tmp/err")
fi
need_bpf() { # need_bpf N DESCRIPTION: true when BPF loads, else N SKIPs
	[ $bpf = yes ] && return 0
	local i
	for ((i = 0; i < $1; i++)); do skip "$2" "BPF does not load here: ${why:-not built}"; done
	return 1
}

# 2. Batch JSON on 4 busy threads on one CPU: each thread's latency, the
# groups', roles' and the diagnosis's, and a reason quoting the tail.
if need_bpf 2 "batch JSON latency per thread, group and role"; then
	"$TL" --collector bpf --batch --format json -i 1 -c 3 -p "$busy" >"$tmp/j" 2>"$tmp/err"
	if json_check "$tmp/j" '
s = lines[-1]
assert s["collector"]["path"] == "bpf", s["collector"]
busy = [t for t in s["threads"] if t["name"] == "lt-busy"]
assert len(busy) == 4
for t in busy:
    l = t["latency"]
    assert l["events"] > 0 and 0 < l["p50_ms"] <= l["p99_ms"] <= l["max_ms"], l
    assert l["mean_ms"] > 0 and sum(c for _, c in l["hist"]) == l["events"], l
d = s["diagnosis"]
assert d["latency"]["events"] > 0 and d["latency"]["p99_ms"] > 0, d["latency"]
assert all(g["latency"] is not None for g in d["groups"]), d["groups"]
assert all(r["latency"]["events"] > 0 for r in d["roles"]), d["roles"]
assert any("p99 run-queue latency" in r for r in d["reasons"]), d["reasons"]
' 2>"$tmp/py"; then
		ok "batch JSON: latency of each thread, group, role and the target; the reason quotes the tail"
	else
		notok "batch JSON latency" "$(cat "$tmp/py" "$tmp/err")"
	fi
	"$TL" --collector bpf --batch --format csv -i 0.5 -c 2 -p "$busy" >"$tmp/csv" 2>&1
	if head -n1 "$tmp/csv" | grep -q ',p50_ms,p99_ms,max_ms,latency_events\(,\|$\)' &&
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "latency_events") e = i }
			NR > 1 && $9 == "lt-busy" && $e > 0 { n++ } END { exit n < 4 }' "$tmp/csv"; then
		ok "CSV: p50_ms, p99_ms, max_ms and latency_events columns"
	else
		notok "CSV latency columns" "$(head -n 4 "$tmp/csv")"
	fi
fi

# 3. --collector proc: no latency, no note; JSON says so.
"$TL" --collector proc --batch --format json -i 0.3 -c 2 -p "$busy" >"$tmp/j" 2>"$tmp/err"
if [ ! -s "$tmp/err" ] && json_check "$tmp/j" '
s = lines[-1]
assert s["collector"] == {"path": "proc"}, s["collector"]
assert all(t["latency"] is None for t in s["threads"])
assert s["diagnosis"]["latency"] is None
'; then
	ok "--collector proc: latency null, no note"
else
	notok "--collector proc" "$(cat "$tmp/err")"
fi

# 4-6. An ordinary user: auto falls back with the note, bpf exits 2 with the
# reason, and a copy with the two capabilities works (and drops them).
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "--collector auto as nobody" "needs root and setpriv to become nobody"
	skip "--collector bpf as nobody" "needs root and setpriv to become nobody"
	skip "a copy with cap_bpf,cap_perfmon as nobody" "needs root and setpriv"
else
	target quiet --wake 2:20
	as_nobody "$TL" --batch --format json -i 0.3 -c 2 -p "$quiet" >"$tmp/j" 2>"$tmp/err"
	st=$?
	if [ $st = 0 ] && grep -q 'collector /proc: BPF unavailable (' "$tmp/err" &&
		[ "$(wc -l <"$tmp/err")" = 1 ] && json_check "$tmp/j" 'assert lines[-1]["collector"]["path"] == "proc"'; then
		ok "--collector auto as nobody: /proc with a one-line note ($(cat "$tmp/err"))"
	else
		notok "--collector auto as nobody" "status $st" "$(cat "$tmp/err")"
	fi
	as_nobody "$TL" --collector bpf --batch -c 1 -p "$quiet" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st = 2 ] && grep -Eq 'cannot load the BPF programs: .*(setcap|built without)' "$tmp/err" &&
		[ ! -s "$tmp/out" ]; then
		ok "--collector bpf as nobody: exit 2 with the reason"
	else
		notok "--collector bpf as nobody" "status $st" "$(cat "$tmp/err")"
	fi
	if [ $bpf != yes ]; then
		skip "a copy with cap_bpf,cap_perfmon as nobody" "BPF does not load here: $why"
	elif ! command -v setcap >/dev/null; then
		skip "a copy with cap_bpf,cap_perfmon as nobody" "setcap (libcap2-bin) is not installed"
	else
		cp "$TL" "$tmp/threadlab-caps"
		chmod 755 "$tmp/threadlab-caps"
		if setcap cap_bpf,cap_perfmon+ep "$tmp/threadlab-caps" 2>"$tmp/err"; then
			setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/threadlab-caps" \
				--collector bpf --batch --format json -i 1 -c 40 -p "$quiet" \
				>"$tmp/j" 2>"$tmp/err" &
			cp_pid=$!
			pids+=($cp_pid)
			# loaded and sampling once two samples are out (bounded wait)
			for _ in $(seq 150); do [ "$(wc -l <"$tmp/j")" -ge 2 ] && break; sleep 0.1; done
			caps=$(grep -E '^Cap(Eff|Prm|Amb)' "/proc/$cp_pid/status" 2>/dev/null | awk '{print $2}' | sort -u)
			uid=$(awk '/^Uid/ {print $2}' "/proc/$cp_pid/status" 2>/dev/null)
			stop $cp_pid
			if [ "$caps" = 0000000000000000 ] && [ "$uid" = 65534 ] &&
				json_check "$tmp/j" '
s = lines[-1]
assert s["collector"]["path"] == "bpf"
assert any(t["latency"]["events"] > 0 for t in s["threads"] if t["name"] == "lt-wake")'; then
				ok "a copy with cap_bpf,cap_perfmon+ep: BPF as nobody, no capability left once loaded"
			else
				notok "setcap copy as nobody" "caps '$caps' uid '$uid'" "$(head -c 400 "$tmp/err")"
			fi
		else
			skip "a copy with cap_bpf,cap_perfmon as nobody" "setcap failed: $(cat "$tmp/err")"
		fi
	fi
fi

# As root, once loaded: CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN are gone from
# the running process; its other capabilities stay.
if [ "$(id -u)" != 0 ]; then
	skip "root drops the BPF capabilities" "not root"
elif need_bpf 1 "root drops the BPF capabilities"; then
	"$TL" --collector bpf --batch -i 1 -c 30 -p "$busy" >"$tmp/rootcaps" 2>&1 &
	rp=$!
	pids+=($rp)
	for _ in $(seq 150); do [ -s "$tmp/rootcaps" ] && break; sleep 0.1; done
	eff=$(awk '/^CapEff/ {print $2}' "/proc/$rp/status") prm=$(awk '/^CapPrm/ {print $2}' "/proc/$rp/status")
	stop $rp
	if python3 -c '
import sys
for v in sys.argv[1:]:
    c = int(v, 16)
    assert not c & (1 << 21 | 1 << 38 | 1 << 39), hex(c)  # SYS_ADMIN, PERFMON, BPF
    assert c & (1 << 19), hex(c)                          # SYS_PTRACE stays
' "$eff" "$prm"; then
		ok "as root, once loaded: no CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN (effective $eff)"
	else
		notok "root capabilities after loading" "effective $eff permitted $prm"
	fi
fi

# Inside a PID namespace with its own /proc (as in a container): the
# iterator numbers threads as that /proc does, so BPF serves the target.
# lat-target is started by a subshell, not by the namespace's init (it
# takes a parent of PID 1 for a dead one).
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	skip "BPF inside a PID namespace with its own /proc" "needs root and unshare (util-linux)"
elif need_bpf 1 "BPF inside a PID namespace with its own /proc"; then
	limited 60 unshare -fp --mount-proc bash -c '
		( "$1" --wake 3:10 >"$2/ns.pid" & wait ) &
		for _ in $(seq 50); do [ -s "$2/ns.pid" ] && break; sleep 0.1; done
		p=$(cat "$2/ns.pid")
		"$3" --collector bpf --batch --format json -i 0.5 -c 2 -p "$p" >"$2/ns.json" 2>"$2/ns.err"
		ls "/proc/$p/task" >"$2/ns.tids"
		echo "$p" >"$2/ns.target"' sh "$LT" "$tmp" "$TL"
	if [ ! -s "$tmp/ns.err" ] && json_check "$tmp/ns.json" '
target = int(open(sys.argv[1].rsplit("/", 1)[0] + "/ns.target").read())
tids = sorted(int(t) for t in open(sys.argv[1].rsplit("/", 1)[0] + "/ns.tids").read().split())
s = lines[-1]
assert s["collector"]["path"] == "bpf", s["collector"]
assert sorted(t["tid"] for t in s["threads"]) == tids, (s["threads"], tids)
assert all(t["pid"] == target for t in s["threads"])
wake = [t for t in s["threads"] if t["name"] == "lt-wake"]
assert len(wake) == 3 and all(t["latency"]["events"] > 0 for t in wake), wake
' 2>"$tmp/py"; then
		ok "BPF inside a PID namespace with its own /proc: the namespace's TIDs, latency traced"
	else
		notok "BPF in a PID namespace" "$(cat "$tmp/py" "$tmp/ns.err" 2>/dev/null)"
	fi
fi

# 7. A read that fails at run time: the session goes on through /proc,
# said once on stderr, every sample written.
if need_bpf 1 "a BPF read that fails at run time"; then
	THREADLAB_BPF_FAIL_READ=4 "$TL" --collector bpf --batch --format json -i 0.2 -c 8 -p "$busy" \
		>"$tmp/j" 2>"$tmp/err"
	st=$?
	if [ $st = 0 ] && [ "$(grep -c 'the BPF read failed' "$tmp/err")" = 1 ] && json_check "$tmp/j" '
paths = [s["collector"]["path"] for s in lines]
assert len(lines) == 8, len(lines)
assert paths[0] == "bpf" and paths[-1] == "proc", paths
assert all(len(s["threads"]) == 5 for s in lines), [len(s["threads"]) for s in lines]
'; then
		ok "a BPF read that fails: /proc from then on, the session goes on, said once"
	else
		notok "BPF failure at run time" "status $st" "$(cat "$tmp/err")"
	fi
fi

# 8. A map too small: the dropped events are counted in JSON and said in the
# dashboard; the traced threads' figures are theirs.
if need_bpf 2 "an overflowing latency map"; then
	target many --wake 40:5
	"$TL" --collector bpf --bpf-threads 16 --batch --format json -i 1 -c 3 -p "$many" >"$tmp/j" 2>"$tmp/err"
	if json_check "$tmp/j" '
s = lines[-1]
c = s["collector"]
assert c["latency_map_threads"] == 16 and c["latency_dropped"] > 0, c
traced = [t for t in s["threads"] if t["latency"]["events"] > 0]
assert 0 < len(traced) <= 16, len(traced)
for t in traced:
    assert t["latency"]["p50_ms"] <= t["latency"]["p99_ms"] <= t["latency"]["max_ms"]
' 2>"$tmp/py"; then
		ok "a map for 16 of 41 threads: dropped events counted, at most 16 traced"
	else
		notok "overflow in JSON" "$(cat "$tmp/py")"
	fi
	$T new-session -d -s o -x 120 -y 30 "exec env LC_ALL=C.UTF-8 TERM=xterm '$TL' --bpf-threads 16 -p $many"
	if wait_pane o 'waits not traced, the BPF map holds 16 threads' 80; then
		ok "the dashboard says the map is full"
	else
		notok "dashboard overflow line" "$(cat "$tmp/pane")"
	fi
	$T kill-session -t o 2>/dev/null
fi

# 9. The dashboard: P99 and MAX at 80 columns with BPF (the activity's
# short form may follow, in MARK); without, the line saying why.
if need_bpf 2 "the dashboard's latency columns"; then
	$T new-session -d -s d -x 80 -y 24 "exec env LC_ALL=C.UTF-8 TERM=xterm '$TL' -p $busy"
	if wait_pane d 'P99 +MAX' 150 && wait_pane d 'lt-busy +R.* [0-9.]+ +[0-9.]+( +[a-z]+)? *$' 150; then
		ok "the dashboard shows P99 and MAX at 80x24"
	else
		notok "dashboard latency columns" "$(cat "$tmp/pane")"
	fi
	$T send-keys -t d Tab Tab Tab Tab Tab
	if wait_pane d 'sorted by P99' 100 && grep -q '\*P99' "$tmp/pane"; then
		ok "Tab sorts by P99"
	else
		notok "sort by P99" "$(cat "$tmp/pane")"
	fi
	$T kill-session -t d 2>/dev/null
fi
$T new-session -d -s p -x 80 -y 24 "exec env LC_ALL=C.UTF-8 TERM=xterm '$TL' --collector proc -p $busy"
if wait_pane p 'P50/P99/MAX hidden: threads read from /proc' 60 && ! grep -q 'P99 ' "$tmp/pane"; then
	ok "--collector proc: the columns hidden, one line says why"
else
	notok "hidden columns line" "$(cat "$tmp/pane")"
fi
$T kill-session -t p 2>/dev/null

# 10. A recording keeps the latency; the replay shows what was recorded.
if need_bpf 2 "a recording with latency, replayed"; then
	"$TL" --collector bpf --batch --format json -i 0.5 -c 4 -p "$busy" --record "$tmp/rec.json" >"$tmp/live" 2>/dev/null
	"$TL" --replay "$tmp/rec.json" --batch --format json >"$tmp/replay" 2>"$tmp/err"
	if python3 - "$tmp/live" "$tmp/replay" <<'PY' 2>"$tmp/py"; then
import json, sys
live = [json.loads(l) for l in open(sys.argv[1])]
rep = [json.loads(l) for l in open(sys.argv[2])]
assert len(live) == len(rep), (len(live), len(rep))
for a, b in zip(live, rep):
    assert b["collector"] == a["collector"], (a["collector"], b["collector"])
    for x, y in zip(a["threads"], b["threads"]):
        assert x["latency"] == y["latency"], (x["latency"], y["latency"])
    assert a["diagnosis"]["latency"] == b["diagnosis"]["latency"]
    assert [g["latency"] for g in a["diagnosis"]["groups"]] == [g["latency"] for g in b["diagnosis"]["groups"]]
PY
		ok "replay --batch writes the latency recorded, thread by thread and group by group"
	else
		notok "replay of latency" "$(cat "$tmp/py" "$tmp/err")"
	fi
	$T new-session -d -s r -x 100 -y 30 "exec env LC_ALL=C.UTF-8 TERM=xterm '$TL' --replay '$tmp/rec.json'"
	if wait_pane r 'P50 +P99 +MAX' 60 && wait_pane r '^ +[0-9]+ +[0-9]+ - .*\(5\) .* [0-9.]+ +[0-9.]+ +[0-9.]+ 4\.0(r| run) *$' 60; then
		ok "the replayed dashboard shows P50/P99/MAX, the process row's from its threads"
	else
		notok "replay dashboard" "$(cat "$tmp/pane")"
	fi
	$T kill-session -t r 2>/dev/null
fi

# 11. OpenMetrics: the histogram per thread group, well formed; scrapes in
# one interval never read BPF (the reads counter moves with the samples).
if need_bpf 1 "threadlab_runqueue_latency_seconds"; then
	port=$((20000 + $$ % 20000))
	"$TL" --headless --serve "127.0.0.1:$port" -i 2 -p "$busy" 2>"$tmp/err" &
	hp=$!
	pids+=($hp)
	for _ in $(seq 50); do curl -s "http://127.0.0.1:$port/metrics" >"$tmp/m" 2>/dev/null &&
		grep -q _bucket "$tmp/m" && break; sleep 0.2; done
	t0=$(date +%s.%N)
	for i in $(seq 20); do
		curl -s -H 'Accept: application/openmetrics-text; version=1.0.0' "http://127.0.0.1:$port/metrics" >"$tmp/om.$i"
	done
	t1=$(date +%s.%N)
	if python3 - "$tmp" "$t0" "$t1" <<'PY' 2>"$tmp/py"; then
import math, re, sys
d = sys.argv[1]
om = [open("%s/om.%d" % (d, i)).read() for i in range(1, 21)]
reads = [int(re.search(r"^threadlab_collector_bpf_reads_total (\d+)$", t, re.M).group(1)) for t in om]
# 20 scrapes: the reads move only with the samples (one per 2 s interval
# the scrapes spanned, and one more at an edge), never with a scrape.
spanned = float(sys.argv[3]) - float(sys.argv[2])
assert max(reads) - min(reads) <= math.floor(spanned / 2) + 1, (reads, "%.1f s" % spanned)
t = om[-1]
assert "# TYPE threadlab_runqueue_latency_seconds histogram" in t
series = {}
for m in re.finditer(r'^threadlab_runqueue_latency_seconds_bucket\{pid="(\d+)",group="([^"]*)",le="([^"]+)"\} (\d+)$', t, re.M):
    series.setdefault((m.group(1), m.group(2)), []).append((m.group(3), int(m.group(4))))
assert series, "no buckets"
for key, b in series.items():
    counts = [c for _, c in b]
    assert counts == sorted(counts), (key, b)
    assert b[-1][0] == "+Inf"
    cnt = re.search(r'^threadlab_runqueue_latency_seconds_count\{pid="%s",group="%s"\} (\d+)$' % key, t, re.M)
    assert cnt and int(cnt.group(1)) == b[-1][1], key
busy = [k for k in series if k[1] == "lt-busy"]
assert busy and series[busy[0]][-1][1] > 0
assert t.endswith("# EOF\n")
PY
		ok "OpenMetrics histogram per group: monotone buckets, +Inf = _count; 20 scrapes, no BPF read"
	else
		notok "OpenMetrics latency" "$(cat "$tmp/py" "$tmp/err")"
	fi
	stop $hp
fi

