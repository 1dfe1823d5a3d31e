#!/bin/bash
# test-all-batch.sh — threadlab --all --batch against real programs the test
# starts (issue 19): an 8-thread OpenMP program in a 1-CPU quota cgroup
# ranks first of what the test started (other tests' programs may run
# beside it on the machine: nothing above it has a lower factor) with a
# throttled or oversubscribed verdict and the
# suggestion that names its pool (OMP_NUM_THREADS=1), a 1-thread busy program in the same quota ranks below it, an
# idle process reads idle; CSV and text carry the same ranking (--top
# bounds it); another process's hostile name is escaped in JSON and made
# safe in text; the first line comes half a second after the start; a
# batch blocked on a full pipe hears SIGTERM; --diagnose --all names the machine's verdict and the
# 8-thread program first among the offenders with its suggestion, and its
# exit status agrees with what it prints; --headless --all --serve exports
# the machine and the first --metrics-max-processes processes, read by
# promtool and the OpenMetrics parser; bad command lines exit 2 with a
# message.  Prints TAP.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
. "$(dirname "$0")/../lib/tap-jobs.sh"
OMP="$B/tests/lib/omp-busy"
HOSTILE="$B/tests/lib/hostile-name"
jobs_need "$OMP" "$HOSTILE"
plan 11

# ---- the quota cgroup and its two busy programs, an idle one ------------------
if quota_capable && cg_make all && cg_quota "$cg_dir" 100000 100000; then
	cg=$cg_dir
	start omp8 env OMP_NUM_THREADS=8 "${tap_orphan_kill[@]}" sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$OMP"
	start omp1 env OMP_NUM_THREADS=1 "${tap_orphan_kill[@]}" sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$OMP"
	"${tap_orphan_kill[@]}" sleep 300 &
	idle=$!
	track "$idle"
	try3 "--all --batch: the 8-thread program in a 1-CPU quota first, throttled or oversubscribed, with a suggestion; the 1-thread one below; idle reads idle" \
		"$tmp/all.json" "
assert st == 0, st
p = last['processes']
pids = [x['pid'] for x in p]
assert $omp8 in pids, [(x['pid'], x['name'], x['factor']) for x in p[:5]]
a = p[pids.index($omp8)]
assert pids.index($omp8) < pids.index($omp1) < pids.index($idle), 'not first of the three'
assert all(x['factor'] >= a['factor'] for x in p[:pids.index($omp8)]), [(x['pid'], x['name'], x['factor']) for x in p[:5]]
assert a['name'] == 'omp-busy' and a['threads'] == 8, a
assert a['binding'] == 'quota' and abs(a['effective_cpus'] - 1.0) < 1e-6, a
assert a['verdict'] in ('throttled', 'oversubscribed'), a
assert a['suggestion'] and a['headline'].startswith(a['verdict']), a
# the census of an offender: the pool and the setting, not only the factor
assert a['suggestion'].startswith('set OMP_NUM_THREADS=1') and 'OpenMP' in a['suggestion'], a
assert a['factor'] > 5, a
assert a['cgroup'] == '$(basename "$cg")' and a['cgroup_path'].endswith('/$(basename "$cg")'), a
# throttled when it got its quota's worth; on a box this loaded it may not
assert a['throttled_pct'] is not None and (a['throttled_pct'] > 50 or a['cpu_pct'] < 90), a
b = p[pids.index($omp1)]
assert b['threads'] == 1 and b['binding'] == 'quota' and b['factor'] < a['factor'], b
assert b['verdict'] != 'idle', b
i = p[pids.index($idle)]
assert i['verdict'] == 'idle' and i['factor'] < 0.05, i
m = last['machine']
assert m['online'] == $(nproc) and m['processes'] == len(p), m
assert m['runnable_mean'] >= 8, m
assert m['verdict'] == 'oversubscribed', m
assert p == sorted(p, key=lambda x: -x['factor']), 'not ranked by factor'
" "$TL" --all --batch -c 1 --format json
	bounded 20 "$TL" --all --batch -c 1 --format csv >"$tmp/all.csv" 2>"$tmp/all.csv.err"
	st=$?
	if "$PY" - "$tmp/all.csv" "$omp8" "$st" >"$tmp/err" 2>&1 <<'PY'; then
import csv, sys
st = int(sys.argv[3])
assert st == 0, st
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows, 'no rows'
mine = [r for r in rows if r['pid'] == sys.argv[2]]
assert mine, 'no row for the 8-thread program'
a = mine[0]
assert a['binding'] == 'quota' and a['verdict'] in ('throttled', 'oversubscribed'), a
assert [r['rank'] for r in rows] == [str(i + 1) for i in range(len(rows))]
f = [float(r['factor']) for r in rows]
assert f == sorted(f, reverse=True), f
assert all(x >= float(a['factor']) for x in f[:int(a['rank']) - 1]), (a, f[:5])
PY
		ok "--all --batch --format csv: the same ranking, one row per process"
	else
		notok "--all --batch --format csv: the same ranking, one row per process" "$(cat "$tmp/err" "$tmp/all.csv.err")"
	fi
	# the first five rows: other tests' programs may outrank it, not four
	bounded 20 "$TL" --all --batch -c 1 --top 5 >"$tmp/all.txt" 2>&1
	st=$?
	rows=$(grep -cE '^ +[0-9]+ ' "$tmp/all.txt")
	if [ "$st" = 0 ] && [ "$rows" = 5 ] && grep -qE "^ +$omp8 +omp-busy .* (throttled|oversubscribed)$" "$tmp/all.txt" &&
		grep -q '^  \.\.\. [0-9]* more (--top N shows more)$' "$tmp/all.txt" && grep -q ' machine oversubscribed: ' "$tmp/all.txt"; then
		ok "--all --batch --top 5 (text): the machine's line, five rows, the count of the rest"
	else
		notok "--all --batch --top 5 (text): the machine's line, five rows, the count of the rest" "status $st, $rows rows" "$(cat "$tmp/all.txt")"
	fi
	try3 "--diagnose --all: the machine oversubscribed, the 8-thread program an offender with its OMP_NUM_THREADS=1 suggestion, exit 1" \
		"$tmp/diag.json" "
assert st == 1, st
assert last['problem'] is True and last['machine']['verdict'] == 'oversubscribed', last['machine']
assert 1.5 < last['seconds'] < 4, last['seconds']
o = last['offenders']
mine = [x for x in o if x['pid'] == $omp8]
assert mine, [(x['pid'], x['name'], x['verdict']) for x in o]
assert mine[0]['suggestion'].startswith('set OMP_NUM_THREADS=1'), mine[0]
assert all(x['verdict'] in ('throttled', 'oversubscribed') for x in o), o
assert all(x['verdict'] == 'contended' for x in last['starved']), last['starved']
assert $idle not in [x['pid'] for x in o + last['starved']], 'the idle process is listed'
f = [x['factor'] for x in o]
assert f == sorted(f, reverse=True), f
" "$TL" --diagnose --all --seconds 2 --format json
	bounded 20 "$TL" --diagnose --all --seconds 1 --top 3 >"$tmp/diag.txt" 2>&1
	st=$?
	if [ "$st" = 1 ] && grep -q '^machine: oversubscribed: ' "$tmp/diag.txt" &&
		grep -q "^offenders, ranked by runnable threads over their own CPUs ([0-9]*):\$" "$tmp/diag.txt" &&
		grep -qE "^  pid $omp8 omp-busy \[$(basename "$cg")\]: (throttled|oversubscribed).* Try: set OMP_NUM_THREADS=1" "$tmp/diag.txt" &&
		[ "$(grep -c '^  pid ' "$tmp/diag.txt")" -le 6 ]; then
		ok "--diagnose --all (text, --top 3): the machine's verdict, the offender's line with its suggestion, exit 1"
	else
		notok "--diagnose --all (text, --top 3): the machine's verdict, the offender's line with its suggestion, exit 1" "status $st" "$(cat "$tmp/diag.txt")"
	fi
	if ! command -v promtool >/dev/null || ! command -v curl >/dev/null; then
		skip "--headless --all --serve" "promtool and curl are needed (Debian packages prometheus, curl)"
	else
		# the exporter: the machine's series and the first 5 processes', in
		# both formats, read by promtool and by the strict OpenMetrics parser
		"${tap_orphan_kill[@]}" "$TL" --headless --all --serve 127.0.0.1:0 --metrics-max-processes 5 \
			>"$tmp/srv.out" 2>"$tmp/srv.err" &
		srv=$!
		track "$srv"
		url=""
		until_true 100 grep -q '^threadlab: serving http' "$tmp/srv.err" &&
			url=$(sed -n 's/^threadlab: serving \(http[^ ]*\).*/\1/p' "$tmp/srv.err")
		scraped() { curl -s -o "$tmp/srv.prom" "$url" && grep -q "^threadlab_process_oversubscription_ratio{pid=\"$omp8\"" "$tmp/srv.prom"; }
		got=false
		[ -n "$url" ] && tap_every=3 until_true 100 scraped && got=true
		curl -s -H 'Accept: application/openmetrics-text;version=1.0.0' -o "$tmp/srv.om" "${url:-http://127.0.0.1:1/}"
		if $got && promtool check metrics <"$tmp/srv.prom" >"$tmp/lint" 2>&1 &&
			"$PY" - "$tmp/srv.prom" "$tmp/srv.om" "$omp8" "$(basename "$cg")" >"$tmp/err" 2>&1 <<'PY'; then
import sys
from prometheus_client.parser import text_string_to_metric_families as prom
fams = {f.name: f for f in prom(open(sys.argv[1]).read())}
pid, cg = sys.argv[3], sys.argv[4]
def one(name, **want):
    s = [x for x in fams[name].samples if all(x.labels.get(k) == v for k, v in want.items())]
    assert len(s) == 1, (name, want, fams[name].samples)
    return s[0]
r = one('threadlab_process_oversubscription_ratio', pid=pid)
assert r.labels['name'] == 'omp-busy' and r.labels['cgroup'].endswith('/' + cg), r
assert r.value > 5, r
assert one('threadlab_process_effective_cpus', pid=pid, binding='quota').value == 1, 'effective'
assert one('threadlab_process_threads', pid=pid).value == 8
v = [x for x in fams['threadlab_process_verdict'].samples if x.labels['pid'] == pid and x.value == 1]
assert len(v) == 1 and v[0].labels['verdict'] in ('throttled', 'oversubscribed'), v
assert one('threadlab_machine_runnable_threads_mean').value >= 8
assert one('threadlab_machine_verdict', verdict='oversubscribed').value == 1
assert one('threadlab_machine_cpus_used').value > 0.5
n = one('threadlab_machine_processes').value
folded = one('threadlab_processes_folded').value
for name in ('threadlab_process_threads', 'threadlab_process_runnable_threads_mean', 'threadlab_process_cpus_used'):
    assert len(fams[name].samples) == 5, (name, len(fams[name].samples))
assert folded == n - 5 and n > 5, (n, folded)
try:
    from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
except ImportError:
    om = None
if om:
    o = {f.name: f for f in om(open(sys.argv[2]).read())}
    assert 'threadlab_process_oversubscription_ratio' in o and o['threadlab_samples'].type == 'counter', sorted(o)
PY
			ok "--headless --all --serve: promtool and the OpenMetrics parser read it; the 8-thread program's ratio, quota and verdict; the machine's series; 5 processes, the rest folded"
		else
			notok "--headless --all --serve: the exposition" "url '$url'" "$(cat "$tmp/srv.err" "$tmp/lint" "$tmp/err")" "$(grep -v '^#' "$tmp/srv.prom" 2>/dev/null | head -30)"
		fi
		stop "$srv"
	fi
	stop "$omp8"
	stop "$omp1"
else
	why=${quota_why:-no cgroup with a quota could be made}
	skip "--all --batch ranks the quota-bound program first" "$why"
	skip "--all --batch --format csv" "$why"
	skip "--all --batch --top 5 (text)" "$why"
	skip "--diagnose --all (json)" "$why"
	skip "--diagnose --all (text)" "$why"
	skip "--headless --all --serve" "$why"
fi

# ---- another process's name -------------------------------------------------------
start hostile "$HOSTILE"
bounded 20 "$TL" --all --batch -c 1 --format json >"$tmp/h.json" 2>"$tmp/h.err"
st=$?
bounded 20 "$TL" --all --batch -c 1 --top 1000 >"$tmp/h.txt" 2>&1
if json_check "$tmp/h.json" "$st" "
assert st == 0, st
comm = open('/proc/$hostile/comm', 'rb').read().rstrip(b'\n')
h = [x for x in last['processes'] if x['pid'] == $hostile]
assert h, 'the hostile process is not ranked'
assert h[0]['name'].encode('utf-8', 'surrogateescape') == comm, (h[0]['name'], comm)
" && grep -qE "^ +$hostile " "$tmp/h.txt" && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f\x9b]' "$tmp/h.txt"; then
	ok "a hostile process name: its bytes in JSON, nothing a terminal acts on in text"
else
	notok "a hostile process name: its bytes in JSON, nothing a terminal acts on in text" "$(cat "$tmp/err" "$tmp/h.err")" "$(grep -aE "^ +$hostile " "$tmp/h.txt" | od -c | head -5)"
fi
stop "$hostile"

# ---- the exit status says what the output says ---------------------------------------
# Whatever else this machine runs: 1 exactly when the machine is
# oversubscribed or a process offends or starves, 0 otherwise.
bounded 20 "$TL" --diagnose --all --seconds 1 --format json >"$tmp/any.json" 2>"$tmp/any.err"
st=$?
if json_check "$tmp/any.json" "$st" "
want = 1 if (last['machine']['verdict'] == 'oversubscribed' or last['offenders'] or last['starved']) else 0
assert st == want and last['problem'] == (want == 1), (st, want, last['machine'], len(last['offenders']), len(last['starved']))
assert last['machine']['processes'] > 0, last['machine']
"; then
	ok "--diagnose --all: the exit status agrees with the verdicts it prints"
else
	notok "--diagnose --all: the exit status agrees with the verdicts it prints" "$(cat "$tmp/err" "$tmp/any.err")"
fi

# ---- the first line, and a reader that stops reading ---------------------------
bounded 20 "$TL" --all --batch -c 2 --format json >"$tmp/first.json" 2>"$tmp/first.err"
st=$?
if json_check "$tmp/first.json" "$st" "
assert st == 0 and len(lines) == 2, (st, len(lines))
w = [l['interval'] for l in lines]
# RANKING_FIRST_S (docs/design.md, 'The whole machine'), then the interval
assert 0.4 <= w[0] < 0.95 and w[1] >= 0.9, w
"; then
	ok "--all --batch: the first ranking covers the half second after the start, the next one the interval"
else
	notok "--all --batch: the first ranking covers the half second after the start, the next one the interval" "$(cat "$tmp/err" "$tmp/first.err")"
fi
full=""
for how in "--all --batch --format json" "--batch --format json -i 0.1 -- sleep 60"; do
	# shellcheck disable=SC2086
	out=$("$PY" "$(dirname "$0")/../lib/full-pipe.py" "$TL" $how 2>&1)
	[ "${out%% *}" = 0 ] || full+="'$how': $out; "
done
if [ -z "$full" ]; then
	ok "--all --batch and --batch blocked on a full pipe end at SIGTERM with status 0"
else
	notok "--all --batch and --batch blocked on a full pipe end at SIGTERM with status 0" "$full"
fi

# ---- bad command lines ----------------------------------------------------------
bad=""
check_usage() {
	local want=$1 out st
	shift
	out=$("$TL" "$@" 2>&1 </dev/null)
	st=$?
	[ "$st" = 2 ] && printf '%s' "$out" | grep -q -- "$want" || bad+="'$*': status $st, '$out' (want '$want'); "
}
check_usage "drop -p" --all --batch -p 1
check_usage "once a second" --all --batch -i 0.5
check_usage "count of 1 or more" --all --batch --top 0
check_usage "does not apply to the built-in workload" --batch --top 3
check_usage "does not apply to --all" --all --batch --threads 2
check_usage "exclude each other" --all --batch --diagnose
check_usage "drop -i" --diagnose --all -i 1
check_usage "once a second" --diagnose --all --seconds 0.5
check_usage "does not apply to --all" --diagnose --all --strict
check_usage "not csv" --diagnose --all --format csv
check_usage "goes with --serve" --all --batch --metrics-max-processes 5
check_usage "does not apply to --all" --headless --all --serve 127.0.0.1:0 --metrics-max-threads 5
check_usage "1 to 1000000" --headless --all --serve 127.0.0.1:0 --metrics-max-processes 0
check_usage "does not apply to --all" --headless --all --record /tmp/x.jsonl
check_usage "exports from --headless or --batch" --all --serve 127.0.0.1:0
if [ -z "$bad" ]; then
	ok "bad --all command lines exit 2 with a message"
else
	notok "bad --all command lines exit 2 with a message" "$bad"
fi
