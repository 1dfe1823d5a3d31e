#!/bin/bash
# test-pipeline-sweep.sh — a sweep over loader counts (--sweep --loaders
# 1,3) with a batch that costs 20 ms: a row per count, and the GEMM's
# input wait falls with three loaders against one.  A CPU-share test (it
# runs alone, SERIAL_TESTS in Makefile.am): the rows compare rates, and
# beside other tests both rows read contended and three starved loaders
# left the GEMM waiting longer than one.  The rest of the input pipeline in
# batch JSON is test-pipeline-batch.sh.  Prints TAP.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
plan 1
prio_make # the sweep in a heavy cgroup: other load of the box takes little from it
prio_do timeout -k 5 120 "$TL" --sweep --loaders 1,3 --threads 1 --size 512 --prep-ms 20 \
	--seconds 1 --format json >"$tmp/sweep.json" 2>"$tmp/sweep.err"
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
	notok "--sweep --loaders" "$(cat "$tmp/check")" "$(cat "$tmp/sweep.err")"; fi

