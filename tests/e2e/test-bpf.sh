#!/bin/bash
# test-bpf.sh — the BPF collector through the real binary, against
# tests/lib/lat-target: --version, --collector auto|bpf|proc, the fallback note
# and exit 2 as an ordinary user (nobody, through setpriv), a copy given
# cap_bpf,cap_perfmon+ep that works as that user and holds no capability
# once loaded, a read that fails at run time (THREADLAB_BPF_FAIL_READ), the
# latency in batch JSON, CSV and the diagnosis, an overflowing map, a
# recording replayed, the dashboard's columns and their hidden line in
# tmux, the OpenMetrics histogram with scrapes that never read BPF, and
# --all through BPF and through /proc side by side.
# Prints TAP; every process and the tmux server it starts are killed on
# every path.  Without a BPF build, or where BPF does not load (not root),
# the cases that need it say SKIP and why.
#
# The runs do not depend on each other, so they start side by side, in
# three groups: those that need no BPF beside the probe, then those on the
# busy target (alone, so that its spinning threads live a few seconds),
# then the others.  Their evidence (output files, panes, capabilities,
# scrapes) is collected first; the cases are judged after, in plan order.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
LT="$B/tests/lib/lat-target"
chmod 755 "$tmp"

need_tmux bpf
for c in "$PY" curl; do
	command -v "$c" >/dev/null || skip_all "$c is not installed"
done
plan 20

# One idle session keeps the private tmux server up between the others: a
# new session right after the last one closed can find the server exiting.
$T new-session -d -s keep "sleep 3600"

# The runs are tap-lib's bg_start: they stay in the script's session
# (tap-wrap gives each test a session, so an autogroup) and share the
# test's CPU.
# target [--own] NAME ARGS...: starts lat-target, sets $NAME to its PID
# once its threads run.  --own: in a session (an autogroup) of its own,
# for busy threads: in the test's, spinning on one CPU, they drew the
# group's weight there and left the runs little of the other CPU (the busy
# target spun 13 s instead of 6).
target() {
	local own=""
	[ "$1" = --own ] && own=1 && shift
	local var=$1
	shift
	if [ -n "$own" ]; then
		spawn "$LT" "$@" >"$tmp/lt.$var"
	else
		bg_start "lt.$var" "$LT" "$@"
	fi
	until_true 100 test -s "$tmp/lt.$var"
	printf -v "$var" '%s' "$(cat "$tmp/lt.$var")"
}
# json_check FILE PYTHON: runs PYTHON with the JSON Lines of FILE as "lines".
json_check() {
	"$PY" - "$1" "$2" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
exec(sys.argv[2])
PY
}
# dash NAME COLUMNS ROWS ARGS...: threadlab's dashboard in tmux session NAME.
dash() {
	local s=$1 x=$2 y=$3 a
	shift 3
	printf -v a " '%s'" "$@"
	$T new-session -d -s "$s" -x "$x" -y "$y" "exec env LC_ALL=C.UTF-8 TERM=xterm '$TL'$a"
}
# keep_pane NAME CMD...: runs CMD (a wait_pane), its status in $tmp/NAME.rc
# and the last capture in $tmp/NAME.pane.
keep_pane() {
	local f=$1
	shift
	"$@"
	echo $? >"$tmp/$f.rc"
	cp "$tmp/pane" "$tmp/$f.pane"
}
rc_of() { [ "$(cat "$tmp/$1.rc" 2>/dev/null)" = 0 ]; }
# has_lines FILE N: FILE has N lines or more.
has_lines() { [ "$(wc -l <"$1" 2>/dev/null)" -ge "$2" ]; }

# The sightings the cases wait for.
# 14: P99 and MAX at 80 columns, an lt-busy row ending in its two figures
# (the activity's short form may follow, in MARK).
columns_seen() {
	wait_pane d 'P99 +MAX' 300 && wait_pane d 'lt-busy +R.* [0-9.]+ +[0-9.]+( +[a-z]+)? *$' 300
}
# 19: once the first interval is out (/metrics has a histogram), 20
# scrapes (one curl); their span in $tmp/om.span.
histogram_out() { curl -s "http://127.0.0.1:$port/metrics" >"$tmp/m" 2>/dev/null && grep -q _bucket "$tmp/m"; }
scrape() {
	local i urls=() t0
	for i in $(seq 20); do urls+=(-o "$tmp/om.$i" "http://127.0.0.1:$port/metrics"); done
	until_true 300 histogram_out
	t0=$(date +%s.%N)
	curl -s -H 'Accept: application/openmetrics-text; version=1.0.0' "${urls[@]}"
	echo "$t0 $(date +%s.%N)" >"$tmp/om.span"
}
# 18: on the recorded sample k18 of nrec, the process row: P50, P99 and
# MAX, and 4.0 runnable from its 4 busy threads.
replay_row_seen() {
	wait_pane r "sample $k18/$nrec \\| 1x PAUSED" 10 && wait_pane r 'P50 +P99 +MAX' 10 &&
		wait_pane r '^ +[0-9]+ +[0-9]+ - .*\(5\) .* [0-9.]+ +[0-9.]+ +[0-9.]+ 4\.0(r| run) *$' 10
}

# ---- runs that need no BPF, and the probe ------------------------------------
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

# 2. Bad collector options: one line each, exit 2, before anything starts
# (run side by side, judged below).
bad_args=("--collector foo --batch -c 1" "--bpf-threads 5 --batch -c 1"
	"--bpf-threads 999999 --batch -c 1" "--collector proc --bpf-threads 100 --batch -c 1"
	"--collector bpf --root / --budget" "--collector bpf --replay /nonexistent"
	"--collector bpf --batch --root $tmp -p 1")
for i in "${!bad_args[@]}"; do
	# shellcheck disable=SC2086
	bg_start "bad$i" "$TL" ${bad_args[$i]}
done

# The quiet target serves the probe and the ordinary user's cases.
target quiet --wake 2:20
root=no
[ "$(id -u)" = 0 ] && root=yes
nobody=no
[ $root = yes ] && command -v setpriv >/dev/null && nobody=yes
# 6, 7: an ordinary user: auto falls back, bpf is refused
if [ $nobody = yes ]; then
	bg_start j6 setpriv --reuid=65534 --regid=65534 --clear-groups "$TL" --batch --format json \
		-i 0.3 -c 2 -p "$quiet"
	bg_start o7 setpriv --reuid=65534 --regid=65534 --clear-groups "$TL" --collector bpf --batch \
		-c 1 -p "$quiet"
fi

# Whether BPF loads here, as the tests' user.
bpf=yes
why=""
if ! "$TL" --collector bpf --batch -c 1 -i 0.2 -p "$quiet" >/dev/null 2>"$tmp/err"; then
	bpf=no
	why=$(cat "$tmp/err")
fi
need_bpf() { # need_bpf N DESCRIPTION: true when BPF loads, else N SKIPs
	[ $bpf = yes ] && return 0
	local i
	for ((i = 0; i < $1; i++)); do skip "$2" "BPF does not load here: ${why:-not built}"; done
	return 1
}
setcap=no
command -v setcap >/dev/null && setcap=yes
pidns=no
[ $root = yes ] && command -v unshare >/dev/null && pidns=yes

# ---- the runs on the busy target, alone ---------------------------------------
# The busy target's 4 threads share the first CPU: they wait in its run
# queue as they would on 2, and the test, which runs beside other tests,
# holds one CPU instead of both.  It spins only while the runs on it last:
# they start together, with nothing else of the test beside them, and it
# stops once what they show is collected.  The bounds only catch a hang.
target --own busy --busy 4 --pin 1
busy_began=$SECONDS
if [ $bpf = yes ]; then
	# 3, 4: batch JSON and CSV on 4 busy threads on one CPU
	bg_start j3 "$TL" --collector bpf --batch --format json -i 1 -c 3 -p "$busy"
	bg_start csv "$TL" --collector bpf --batch --format csv -i 0.5 -c 2 -p "$busy"
	# 9: root's capabilities once loaded (read below, then stopped)
	if [ $root = yes ]; then
		bg_start rootcaps "$TL" --collector bpf --batch -i 1 -c 30 -p "$busy"
	fi
	# 11: a read that fails at run time
	bg_start j11 env THREADLAB_BPF_FAIL_READ=4 "$TL" --collector bpf --batch --format json \
		-i 0.2 -c 8 -p "$busy"
	# 14, 15: the dashboard at 80x24
	dash d 80 24 -p "$busy"
	# 17, 18: a recording (6 samples: the replayed dashboard is checked
	# on one whose runnable threads round to 4.0)
	bg_start live "$TL" --collector bpf --batch --format json -i 0.5 -c 6 -p "$busy" \
		--record "$tmp/rec.json"
	# 19: OpenMetrics
	port=$((20000 + $$ % 20000))
	bg_start om "$TL" --headless --serve "127.0.0.1:$port" -i 2 -p "$busy"
	scrape &
	scraper=$!
	track "$scraper"
fi
# 20: the whole machine through BPF and through /proc at the same time
if [ $bpf = yes ]; then
	bg_start all_b "$TL" --all --collector bpf --batch --format json -i 1 -c 3
	bg_start all_f env THREADLAB_BPF_FAIL_READ=3 "$TL" --all --collector bpf --batch \
		--format json -i 1 -c 3
fi
bg_start all_p "$TL" --all --collector proc --batch --format json -i 1 -c 3
# 5, 16: --collector proc, batch and dashboard
bg_start j5 "$TL" --collector proc --batch --format json -i 0.3 -c 2 -p "$busy"
dash p 80 24 --collector proc -p "$busy"

if [ $bpf = yes ]; then
	bg_end j3 60
	bg_end csv 60
	if [ $root = yes ]; then
		until_true 300 test -s "$tmp/rootcaps"
		eff=$(awk '/^CapEff/ {print $2}' "/proc/${bg_pid[rootcaps]}/status")
		prm=$(awk '/^CapPrm/ {print $2}' "/proc/${bg_pid[rootcaps]}/status")
		stop "${bg_pid[rootcaps]}"
	fi
	bg_end j11 60
	st11=$reaped
	keep_pane d14 columns_seen
	$T send-keys -t d Tab Tab Tab Tab Tab
	keep_pane d15 wait_pane d 'sorted by P99' 200
	$T kill-session -t d 2>/dev/null
	bg_end live 60
	reap "$scraper" 60
	stop "${bg_pid[om]}"
fi
[ $bpf = yes ] && bg_end all_b 60 && bg_end all_f 60
bg_end all_p 60
busy_threads=$(ls "/proc/$busy/task" 2>/dev/null | wc -l)
bg_end j5 60
keep_pane p16 wait_pane p 'P50/P99/MAX hidden: threads read from /proc' 200
$T kill-session -t p 2>/dev/null
stop "$busy"
echo "# the busy target spun $((SECONDS - busy_began)) s"

# ---- the others ------------------------------------------------------------------
# 8: a copy with the two capabilities, as an ordinary user
caps_set=""
if [ $nobody = yes ] && [ $bpf = yes ] && [ $setcap = yes ]; then
	cp "$TL" "$tmp/threadlab-caps"
	chmod 755 "$tmp/threadlab-caps"
	if setcap cap_bpf,cap_perfmon+ep "$tmp/threadlab-caps" 2>"$tmp/setcap.err"; then
		caps_set=yes
		bg_start j8 setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/threadlab-caps" \
			--collector bpf --batch --format json -i 1 -c 40 -p "$quiet"
	fi
fi
if [ $bpf = yes ]; then
	# 10: inside a PID namespace with its own /proc (as in a container).
	# lat-target is started by a subshell, not by the namespace's init (it
	# takes a parent of PID 1 for a dead one).
	if [ $pidns = yes ]; then
		export -f until_true tap_sleep
		bg_start pidns unshare -fp --kill-child --mount-proc bash -c '
			( "$1" --wake 3:10 >"$2/ns.pid" & wait ) &
			until_true 100 test -s "$2/ns.pid"
			p=$(cat "$2/ns.pid")
			"$3" --collector bpf --batch --format json -i 0.5 -c 2 -p "$p" >"$2/ns.json" 2>"$2/ns.err"
			ls "/proc/$p/task" >"$2/ns.tids"
			echo "$p" >"$2/ns.target"' sh "$LT" "$tmp" "$TL"
	fi
	# 12, 13: a map too small, in JSON and on the dashboard
	target many --wake 40:5
	bg_start j12 "$TL" --collector bpf --bpf-threads 16 --batch --format json -i 1 -c 3 -p "$many"
	dash o 120 30 --bpf-threads 16 -p "$many"
	# 17, 18: the recording replayed, in batch and on the dashboard
	bg_start replay "$TL" --replay "$tmp/rec.json" --batch --format json
	dash r 100 30 --replay "$tmp/rec.json"
fi

bad_st=()
for i in "${!bad_args[@]}"; do
	bg_end "bad$i" 60
	bad_st[i]=$reaped
done
if [ $nobody = yes ]; then
	bg_end j6 60
	st6=$reaped
	bg_end o7 60
	st7=$reaped
	if [ -n "$caps_set" ]; then
		# loaded and sampling once two samples are out
		until_true 300 has_lines "$tmp/j8" 2
		caps=$(grep -E '^Cap(Eff|Prm|Amb)' "/proc/${bg_pid[j8]}/status" 2>/dev/null | awk '{print $2}' | sort -u)
		uid=$(awk '/^Uid/ {print $2}' "/proc/${bg_pid[j8]}/status" 2>/dev/null)
		stop "${bg_pid[j8]}"
	fi
fi
stop "$quiet"
if [ $bpf = yes ]; then
	[ $pidns = yes ] && bg_end pidns 60
	bg_end j12 60
	keep_pane o13 wait_pane o 'waits not traced, the BPF map holds 16 threads' 200
	$T kill-session -t o 2>/dev/null
	stop "$many"
	bg_end replay 60
	# 18. The replayed dashboard, paused on a recorded sample whose
	# runnable threads round to 4.0: '>' pauses whatever the replay was
	# doing, g goes to the start, each '>' one sample on, each waited for.
	want=$("$PY" - "$tmp/rec.json" <<'PY' 2>"$tmp/want.err"
import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][1:]
k = [i for i, x in enumerate(s) if "%.1f" % x["runnable_mean"] == "4.0"]
print(len(s), k[0] + 1 if k else 0, " ".join("%.3f" % x["runnable_mean"] for x in s))
PY
	)
	read -r nrec k18 means18 <<<"$want"
	if [ "${k18:-0}" -gt 0 ] && wait_pane r "sample [0-9]+/$nrec " 300; then
		$T send-keys -t r '>'
		wait_pane r "sample [0-9]+/$nrec \| 1x PAUSED" 200 && $T send-keys -t r g &&
			wait_pane r "sample 1/$nrec \| 1x PAUSED" 200
		for ((i = 2; i <= k18; i++)); do
			$T send-keys -t r '>'
			wait_pane r "sample $i/$nrec \| 1x PAUSED" 200 || break
		done
		keep_pane r18 replay_row_seen
	fi
	$T kill-session -t r 2>/dev/null
fi

echo "# every run collected after $((SECONDS - busy_began)) s"

# ---- the cases, in plan order -------------------------------------------------------
bad=""
for i in "${!bad_args[@]}"; do
	st=${bad_st[$i]}
	{ [ "$st" = 2 ] && [ "$(wc -l <"$tmp/bad$i.err")" = 1 ] && [ ! -s "$tmp/bad$i" ]; } ||
		bad="$bad|${bad_args[$i]}: status $st $(cat "$tmp/bad$i.err")"
done
if [ -z "$bad" ]; then
	ok "bad --collector / --bpf-threads uses: one line, exit 2"
else
	notok "bad collector options" "$bad"
fi

# 3. Batch JSON on 4 busy threads on one CPU: each thread's latency, the
# groups', roles' and the diagnosis's, and a reason quoting the tail.
if need_bpf 2 "batch JSON latency per thread, group and role"; then
	if json_check "$tmp/j3" '
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
		notok "batch JSON latency" "$(cat "$tmp/py" "$tmp/j3.err")"
	fi
	if head -n1 "$tmp/csv" | grep -q ',p50_ms,p99_ms,max_ms,latency_events\(,\|$\)' &&
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "latency_events") e = i }
			NR > 1 && $9 == "lt-busy" && $e > 0 { n++ } END { exit n < 4 }' "$tmp/csv"; then
		ok "CSV: p50_ms, p99_ms, max_ms and latency_events columns"
	else
		notok "CSV latency columns" "$(head -n 4 "$tmp/csv")" "$(head -n 4 "$tmp/csv.err")"
	fi
fi

# 5. --collector proc: no latency, no note; JSON says so.
if [ ! -s "$tmp/j5.err" ] && json_check "$tmp/j5" '
s = lines[-1]
assert s["collector"] == {"path": "proc"}, s["collector"]
assert all(t["latency"] is None for t in s["threads"])
assert s["diagnosis"]["latency"] is None
'; then
	ok "--collector proc: latency null, no note"
else
	notok "--collector proc" "$(cat "$tmp/j5.err")"
fi

# 6-8. An ordinary user: auto falls back with the note, bpf exits 2 with the
# reason, and a copy with the two capabilities works (and drops them).
if [ $nobody = no ]; then
	skip "--collector auto as nobody" "needs root and setpriv to become nobody"
	skip "--collector bpf as nobody" "needs root and setpriv to become nobody"
	skip "a copy with cap_bpf,cap_perfmon as nobody" "needs root and setpriv"
else
	if [ "$st6" = 0 ] && grep -q 'collector /proc: BPF unavailable (' "$tmp/j6.err" &&
		[ "$(wc -l <"$tmp/j6.err")" = 1 ] && json_check "$tmp/j6" 'assert lines[-1]["collector"]["path"] == "proc"'; then
		ok "--collector auto as nobody: /proc with a one-line note ($(cat "$tmp/j6.err"))"
	else
		notok "--collector auto as nobody" "status $st6" "$(cat "$tmp/j6.err")"
	fi
	if [ "$st7" = 2 ] && grep -Eq 'cannot load the BPF programs: .*(setcap|built without)' "$tmp/o7.err" &&
		[ ! -s "$tmp/o7" ]; then
		ok "--collector bpf as nobody: exit 2 with the reason"
	else
		notok "--collector bpf as nobody" "status $st7" "$(cat "$tmp/o7.err")"
	fi
	if [ $bpf != yes ]; then
		skip "a copy with cap_bpf,cap_perfmon as nobody" "BPF does not load here: $why"
	elif [ $setcap = no ]; then
		skip "a copy with cap_bpf,cap_perfmon as nobody" "setcap (libcap2-bin) is not installed"
	elif [ -z "$caps_set" ]; then
		skip "a copy with cap_bpf,cap_perfmon as nobody" "setcap failed: $(cat "$tmp/setcap.err")"
	elif [ "$caps" = 0000000000000000 ] && [ "$uid" = 65534 ] &&
		json_check "$tmp/j8" '
s = lines[-1]
assert s["collector"]["path"] == "bpf"
assert any(t["latency"]["events"] > 0 for t in s["threads"] if t["name"] == "lt-wake")'; then
		ok "a copy with cap_bpf,cap_perfmon+ep: BPF as nobody, no capability left once loaded"
	else
		notok "setcap copy as nobody" "caps '$caps' uid '$uid'" "$(head -c 400 "$tmp/j8.err")"
	fi
fi

# 9. As root, once loaded: CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN are gone
# from the running process; its other capabilities stay.
if [ $root = no ]; then
	skip "root drops the BPF capabilities" "not root"
elif need_bpf 1 "root drops the BPF capabilities"; then
	if "$PY" -c '
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

# 10. Inside a PID namespace with its own /proc: the iterator numbers
# threads as that /proc does, so BPF serves the target.
if [ $pidns = no ]; then
	skip "BPF inside a PID namespace with its own /proc" "needs root and unshare (util-linux)"
elif need_bpf 1 "BPF inside a PID namespace with its own /proc"; then
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

# 11. A read that fails at run time: the session goes on through /proc,
# said once on stderr, every sample written.
if need_bpf 1 "a BPF read that fails at run time"; then
	if [ "$st11" = 0 ] && [ "$(grep -c 'the BPF read failed' "$tmp/j11.err")" = 1 ] && json_check "$tmp/j11" '
paths = [s["collector"]["path"] for s in lines]
assert len(lines) == 8, len(lines)
assert paths[0] == "bpf" and paths[-1] == "proc", paths
assert all(len(s["threads"]) == 5 for s in lines), [len(s["threads"]) for s in lines]
'; then
		ok "a BPF read that fails: /proc from then on, the session goes on, said once"
	else
		notok "BPF failure at run time" "status $st11" "$(cat "$tmp/j11.err")"
	fi
fi

# 12, 13. A map too small: the dropped events are counted in JSON and said
# in the dashboard; the traced threads' figures are theirs.
if need_bpf 2 "an overflowing latency map"; then
	if json_check "$tmp/j12" '
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
		notok "overflow in JSON" "$(cat "$tmp/py" "$tmp/j12.err")"
	fi
	if rc_of o13; then
		ok "the dashboard says the map is full"
	else
		notok "dashboard overflow line" "$(cat "$tmp/o13.pane")"
	fi
fi

# 14, 15. The dashboard: P99 and MAX at 80 columns with BPF (the activity's
# short form may follow, in MARK); Tab sorts by P99.
if need_bpf 2 "the dashboard's latency columns"; then
	if rc_of d14; then
		ok "the dashboard shows P99 and MAX at 80x24"
	else
		notok "dashboard latency columns" "$(cat "$tmp/d14.pane")"
	fi
	if rc_of d15 && grep -q '\*P99' "$tmp/d15.pane"; then
		ok "Tab sorts by P99"
	else
		notok "sort by P99" "$(cat "$tmp/d15.pane")"
	fi
fi
# 16. Without BPF, the line saying why.
if rc_of p16 && ! grep -q 'P99 ' "$tmp/p16.pane"; then
	ok "--collector proc: the columns hidden, one line says why"
else
	notok "hidden columns line" "$(cat "$tmp/p16.pane")"
fi

# 17, 18. A recording keeps the latency; the replay shows what was recorded.
if need_bpf 2 "a recording with latency, replayed"; then
	if "$PY" - "$tmp/live" "$tmp/replay" <<'PY' 2>"$tmp/py"; then
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
		notok "replay of latency" "$(cat "$tmp/py" "$tmp/replay.err")"
	fi
	if rc_of r18; then
		ok "the replayed dashboard shows P50/P99/MAX, the process row's from its threads"
	elif [ "${k18:-0}" = 0 ]; then
		notok "replay dashboard" "no recorded sample has 4.0 runnable threads: ${means18:-} $(cat "$tmp/want.err")"
	else
		notok "replay dashboard" "sample $k18 of $nrec (runnable ${means18:-})" "$(cat "$tmp/r18.pane" "$tmp/pane" 2>/dev/null)"
	fi
fi

# 19. OpenMetrics: the histogram per thread group, well formed; scrapes in
# one interval never read BPF (the reads counter moves with the samples).
if need_bpf 1 "threadlab_runqueue_latency_seconds"; then
	if "$PY" - "$tmp" <<'PY' 2>"$tmp/py"; then
import math, re, sys
d = sys.argv[1]
om = [open("%s/om.%d" % (d, i)).read() for i in range(1, 21)]
reads = [int(re.search(r"^threadlab_collector_bpf_reads_total (\d+)$", t, re.M).group(1)) for t in om]
# 20 scrapes: the reads move only with the samples (one per 2 s interval
# the scrapes spanned, and one more at an edge), never with a scrape.
t0, t1 = map(float, open(d + "/om.span").read().split())
spanned = t1 - t0
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
		notok "OpenMetrics latency" "$(cat "$tmp/py" "$tmp/om.err")"
	fi
fi

# 20. --all: every thread of the machine in one BPF read (no latency
# traced), the same ranking figures as /proc read at the same time: the
# busy target's four spinning threads are runnable all the time (run +
# wait: 4 threads, whatever share of their CPU other tests leave them); a
# BPF read that fails (the third: THREADLAB_BPF_FAIL_READ) is said once on
# stderr and the rankings go on from /proc.
#
# Each path's runnable threads over its three samples (weighted by their
# intervals).  BPF's figures are as of its read (the wait of a thread
# queued at that moment counted up to it), so they hold 4 threads however
# crowded the CPU; /proc's schedstat adds a wait only when it ends, so a
# wait of 100 ms that spans a read lands in the next interval: 4.56 and
# 4.81 were read over single intervals on a box with 34 runnable threads.
# (Steal time makes both read less: the kernel's runtime leaves it out.)
if need_bpf 1 "--all --collector bpf"; then
	if "$PY" - "$tmp/all_b" "$tmp/all_p" "$busy" "$busy_threads" "$tmp/all_f" <<'PY' >"$tmp/py" 2>&1; then
import json, sys
b, p = ([json.loads(l) for l in open(f) if l.strip()] for f in sys.argv[1:3])
f = [json.loads(l)["machine"]["collector"] for l in open(sys.argv[5]) if l.strip()]
err = open(sys.argv[5] + ".err").read()
assert f == ["bpf", "proc", "proc"], (f, err)
assert err.count("the BPF read failed (Input/output error): every process from /proc from now on") == 1, err
pid, nt = int(sys.argv[3]), int(sys.argv[4])
assert all(x["machine"]["collector"] == "bpf" for x in b), [x["machine"] for x in b]
assert all(x["machine"]["collector"] == "proc" for x in p), [x["machine"] for x in p]
def rows(samples):
    r = [(s["interval"], x) for s in samples for x in s["processes"] if x["pid"] == pid]
    assert len(r) == len(samples) == 3, ("the busy target is not in every sample", len(r))
    return r
rb, rp = rows(b), rows(p)
mean = lambda r: sum(t * x["runnable_mean"] for t, x in r) / sum(t for t, x in r)
mb, mp = mean(rb), mean(rp)
print("runnable %.2f and %.2f threads" % (mb, mp))
for r in (rb, rp):
    assert all(x["threads"] == nt for t, x in r), ([x["threads"] for t, x in r], nt)
    assert all(x["cpu_pct"] > 0 for t, x in r), r
assert 3.3 <= mb <= 4.2 and 3.3 <= mp <= 4.5, (rb, rp)
assert abs(mb - mp) <= 0.5, (rb, rp)
PY
		ok "--all --collector bpf: the machine in one read, the busy target as on /proc ($(tail -n 1 "$tmp/py"))"
	else
		notok "--all --collector bpf against /proc" "$(cat "$tmp/py" "$tmp/all_b.err" "$tmp/all_p.err")" "$(head -c 1500 "$tmp/all_b")"
	fi
fi
