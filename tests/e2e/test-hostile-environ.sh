#!/bin/bash
# test-hostile-environ.sh — what cannot be read whole is said so, never
# taken for unset, end to end with --diagnose: a zombie leader (its environ
# "no such process", its maps empty) read through a live thread, and a
# 4.8 MB environment, past the 4 MiB threadlab reads, "truncated" with no
# pool rule and no "unset" reasoned from it.  The three diagnoses run side
# by side, and the busy targets live only while they are read.  Prints
# TAP, its plan first.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
ZL="$B/tests/lib/zombie-leader"
OMP="$B/tests/lib/omp-busy"

plan 2

# A zombie leader: its live thread keeps one CPU busy in an OpenMP region.
OMP_NUM_THREADS=3 "${tap_orphan_kill[@]}" "$ZL" &
zl=$!
track $zl
# ARG_MAX is a quarter of the stack limit: 64 MiB of stack lets 40
# variables of 120 kB (4.8 MB) through execve.  omp-busy prints "ready"
# once its team of 2 runs (it ends by itself after 120 s at the latest).
(
	ulimit -s 65536
	big=$(head -c 120000 /dev/zero | tr '\0' x)
	args=()
	for i in $(seq 40); do args+=("B$i=$big"); done
	exec env "${args[@]}" OMP_NUM_THREADS=2 "$OMP" 120
) >"$tmp/be.ready" &
be=$!
track $be

zombie() { [ "$(awk '{print $3}' "/proc/$zl/stat" 2>/dev/null)" = Z ]; }
until_true 100 zombie
limited 60 "$TL" --diagnose -p $zl --seconds 0.5 --format json >"$tmp/zl.json" 2>"$tmp/zl.err" &
d_zl=$!
until_true 300 grep -q ready "$tmp/be.ready"
limited 60 "$TL" --diagnose -p $be --seconds 0.5 --format json >"$tmp/be.json" 2>"$tmp/be.err" &
d_json=$!
limited 60 "$TL" --diagnose -p $be --seconds 0.5 >"$tmp/be.txt" 2>&1 &
d_text=$!
track $d_zl $d_json $d_text

# ---- 1: a zombie leader, read through a live thread ----------------------------
wait $d_zl
stop $zl
if "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1])); d = d.get("diagnosis", d)
assert d["env"]["OMP_NUM_THREADS"] == "3", d["env"]
assert d["env_state"] == "read" and d["maps_unreadable"] == 0, d
assert any("libgomp" in r["name"] for r in d["runtimes"]), d["runtimes"]
' "$tmp/zl.json" 2>"$tmp/py"; then
	ok "a zombie leader: its environment and libraries read through a live thread (OMP_NUM_THREADS=3, libgomp)"
else
	notok "zombie leader" "$(cat "$tmp/py" "$tmp/zl.err")"
fi

# ---- 2: an environment longer than what is read --------------------------------
wait $d_json
wait $d_text
stop $be
if "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1])); d = d.get("diagnosis", d)
assert d["env_state"] == "truncated" and d["env"]["OMP_NUM_THREADS"] == "truncated", (d["env_state"], d["env"])
g = [r for r in d["runtimes"] if "libgomp" in r["name"]]
assert g and "unknown" in g[0]["why"], g
assert not any("unset" in r for r in d["reasons"]), d["reasons"]
' "$tmp/be.json" 2>"$tmp/py" && grep -q '^environment: truncated' "$tmp/be.txt" && ! grep -q 'unset' "$tmp/be.txt"; then
	ok "a 4.8 MB environment: 'truncated' in text and JSON, no pool rule and no 'unset' reasoned from it"
else
	notok "a truncated environment" "$(cat "$tmp/py" "$tmp/be.err")" "$(grep -i 'environ\|unset\|libgomp' "$tmp/be.txt")"
fi
