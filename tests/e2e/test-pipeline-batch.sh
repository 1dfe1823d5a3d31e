#!/bin/bash
# test-pipeline-batch.sh — the input pipeline and the OpenMP build of
# OpenBLAS in batch JSON: one loader's input wait and its thread, the
# loader gone after the run, the OpenMP build's named busy threads, and
# nothing left behind after SIGTERM or SIGKILL of threadlab with loaders.
# (The sweep over loader counts compares rates: test-pipeline-sweep.sh, a
# CPU-share test.)  Prints TAP.
set -u

. "$(dirname "$0")/../lib/tap-lib.sh"
plan 5

omp_lib=""
if [ -r /usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0 ] ||
	ls /usr/lib/*/openblas-openmp/libopenblas.so.0 >/dev/null 2>&1; then
	omp_lib=yes
fi
# The OpenMP build's threads must each get some CPU: it runs alone.  The
# pipeline's input wait is its own loader's against its own GEMM: that run
# and the signalled ones after them run side by side.
if [ -n "$omp_lib" ]; then
	limited 60 "$TL" --batch --format json -i 1 -c 3 --blas openmp --threads 2 \
		>"$tmp/omp.jsonl" 2>"$tmp/omp.err"
fi
limited 60 "$TL" --batch --format json -i 1 -c 3 --size 512 --loaders 1 --prep-ms 40 \
	>"$tmp/pipe.jsonl" 2>"$tmp/pipe.err" &
pipe=$!
track "$pipe"
# SIGTERM and SIGKILL, each to a threadlab with loaders once it printed its
# first sample (at once, so that neither runs longer than it must): the
# anchor, helpers and loaders that sample names are gone after it.
declare -A sig_pid sig_left
for sig in TERM KILL; do
	"$TL" --batch --format json -i 0.5 --loaders 2 --prep-ms 5 >"$tmp/sig.$sig.jsonl" 2>/dev/null &
	sig_pid[$sig]=$!
	track "$!"
done
has_line() { [ "$(wc -l <"$1")" -ge 1 ]; }
for sig in TERM KILL; do
	# a whole line: the sample, not part of it
	until_true 300 has_line "$tmp/sig.$sig.jsonl"
	sig_left[$sig]=$(head -n1 "$tmp/sig.$sig.jsonl" | "$PY" -c 'import json,sys; w=json.loads(sys.stdin.read())["workload"]; print(" ".join(map(str, w["pids"] + w["loader_pids"])))' 2>/dev/null)
	kill -s "$sig" "${sig_pid[$sig]}"
done
for sig in TERM KILL; do reap "${sig_pid[$sig]}" 30; done

# ---- the pipeline and the OpenMP build in batch JSON ------------------------
wait "$pipe"
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
# the anchor waits for threadlab's bell, not for the loaders' input
anchor = [t.get("activity") for t in rows[-1]["threads"] if t["name"] == "tl-anchor"]
assert anchor == ["sleep"], anchor
print(w["loader_pids"][0])
PY
if [ $? = 0 ]; then ok "--loaders 1 --prep-ms 40: input-bound in JSON, tl-loader0 in the threads, the anchor asleep"; else
	notok "pipeline JSON" "$(cat "$tmp/check")" "$(cat "$tmp/pipe.err")"; fi
loader=$(tail -n1 "$tmp/check")
if [ -n "$loader" ] && gone "$loader"; then ok "the loader is gone after --batch ends"; else
	notok "loader left behind" "$loader"; fi
if [ -n "$omp_lib" ]; then
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
		notok "--blas openmp" "$(cat "$tmp/check")" "$(cat "$tmp/omp.err")"; fi
else
	skip "--blas openmp" "libopenblas0-openmp is not installed"
fi

# ---- nothing left after SIGTERM or SIGKILL, with loaders --------------------
for sig in TERM KILL; do
	lp=${sig_left[$sig]}
	# shellcheck disable=SC2086
	if [ -n "$lp" ] && gone $lp; then ok "SIG$sig of threadlab: anchor, helpers and loaders gone"; else
		notok "SIG$sig leaves processes" "${lp:-no sample within 30 s}"; fi
done
