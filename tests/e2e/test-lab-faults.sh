#!/bin/bash
# test-lab-faults.sh — the lab's faults in batch mode: a killed helper is said
# on stderr and in the JSON "error" of the sample that saw it; a killed
# anchor is restarted (with its quota cgroup) and said with its signal, up
# to the restart budget; matrices that cannot fit under RLIMIT_AS or
# RLIMIT_DATA are refused up front.  Nothing is left behind.  Prints TAP.
# Each lab runs as long as its case needs (-c is only a bound): until what
# it must show is out, then it ends on SIGTERM; no fixed sleep.
set -u

. "$(dirname "$0")/../lib/tap-lib.sh"
plan 13

# child_named PARENT NAME: the first child of PARENT called NAME, within 10 s.
first_child() { pgrep -P "$1" -x "$2" | head -1; }
child_named() { until_out 100 first_child "$1" "$2"; }
# new_child PARENT NAME OLD: a child called NAME other than OLD (a zombie
# until reaped), within 10 s.
other_child() {
	local c
	for c in $(pgrep -P "$1" -x "$2"); do [ "$c" != "$3" ] && alive "$c" && echo "$c" && return; done
}
new_child() { until_out 100 other_child "$1" "$2" "$3"; }

# samples_after FILE ERE N: N samples of FILE follow the first that matches.
samples_after() {
	awk -v n="$3" -v re="$2" '$0 ~ re && !h { h = NR } END { exit !(h && NR - h >= n) }' "$1" 2>/dev/null
}
# resumed FILE ANCHOR: FILE's last sample is of ANCHOR, with GFLOP/s > 0
# (the workload's own, the first "gflops" of a line).
resumed() {
	tail -n1 "$1" 2>/dev/null | awk -v a="$2" '
		match($0, /"anchor_pid":[0-9]+/) { pid = substr($0, RSTART + 13, RLENGTH - 13) }
		match($0, /"gflops":[-0-9.e+]+/) { g = substr($0, RSTART + 9, RLENGTH - 9) + 0 }
		END { exit !(pid == a && g > 0) }'
}
# finish PID: a batch run that has shown what its case needs ends as on
# SIGTERM (exit 0), within 30 s; its status in $reaped.
finish() {
	kill -TERM "$1" 2>/dev/null
	reap "$1" 30
}

# ---- a killed helper ----------------------------------------------------------
# The run goes on until four samples follow the one that saw the restart
# (-c is only a bound), then ends on SIGTERM.
"$TL" --batch -i 0.5 -c 120 --size 256 --format json >"$tmp/h.json" 2>"$tmp/h.err" &
tl=$!
track "$tl"
anchor=$(child_named "$tl" tl-anchor)
helper=$(child_named "${anchor:-0}" gemm0)
until_true 100 test -s "$tmp/h.json" # a sample before the kill
[ -n "$helper" ] && kill -9 "$helper"
until_true 300 samples_after "$tmp/h.json" 'helper killed by signal 9' 4
finish "$tl"
st=$reaped
if [ $st = 0 ] && grep -q "stream 0: helper killed by signal 9, restarted (restart 1)" "$tmp/h.err"; then
	ok "--batch: a killed helper is said on stderr, with its signal"
else
	notok "helper restart on stderr" "status $st" "$(cat "$tmp/h.err")"
fi
if "$PY" -c '
import json, sys
errs = [json.loads(l)["workload"]["error"] for l in open(sys.argv[1])]
hits = [e for e in errs if e and "helper killed by signal 9" in e]
assert len(hits) == 1, errs
assert errs[-1] is None, errs
' "$tmp/h.json" 2>"$tmp/err"; then
	ok "--batch: the sample that saw the restart says it in JSON error, the next do not"
else
	notok "helper restart in JSON" "$(cat "$tmp/err")"
fi

# ---- a killed anchor, under a quota where the machine allows one ----------------
# The run ends (SIGTERM) once a sample of the new anchor shows work again.
"$TL" --batch -i 0.5 -c 120 --size 256 --cpus 1 --loaders 1 --prep-ms 2 --format json \
	>"$tmp/a.json" 2>"$tmp/a.err" &
tl=$!
track "$tl"
anchor=$(child_named "$tl" tl-anchor)
# The helper and the loader run, and the anchor sits in its quota cgroup
# (found from the anchor's PID: the cgroup that holds it, when not ours).
until_true 100 test "$(pgrep -P "${anchor:-0}" | wc -l)" = 2
# A sample of the first anchor is out before it is killed.
until_true 100 test -s "$tmp/a.json"
quota_dir=""
d=$(cg_of "${anchor:-0}")
[ -n "$d" ] && [ "$d" != "$(cg_of $$)" ] && quota_dir="$d/cgroup.procs" && cg_track "$d"
old_kids=$(pgrep -P "${anchor:-0}" | tr '\n' ' ')
[ -n "$anchor" ] && kill -9 "$anchor"
new=$(new_child "$tl" tl-anchor "$anchor")
until_true 100 test "$(pgrep -P "${new:-0}" | wc -l)" = 2
# shellcheck disable=SC2086
if [ -n "$new" ] && [ "$new" != "$anchor" ] && gone $old_kids; then
	ok "a killed anchor: a new one ($new), the old one's children gone"
else
	notok "anchor restart" "old $anchor new $new" "$(cat "$tmp/a.err")"
fi
if [ -n "$new" ] && [ "$(pgrep -P "$new" | wc -l)" = 2 ]; then
	ok "the new anchor runs the helper and the loader again"
else
	notok "new anchor's children" "$(pgrep -a -P "${new:-0}")"
fi
if [ -z "$quota_dir" ]; then
	if quota_capable; then
		notok "quota cgroup" "root with a writable cpu controller, but the anchor was in none" "$(cat "$tmp/a.err")"
	else
		skip "the new anchor in the quota cgroup" "$quota_why"
	fi
elif grep -qx "$new" "$quota_dir"; then
	ok "the new anchor is in the quota cgroup again"
else
	notok "new anchor outside the quota" "$quota_dir" "$(cat "$quota_dir")"
fi
until_true 300 resumed "$tmp/a.json" "${new:-0}"
finish "$tl"
st=$reaped
if [ $st = 0 ] && grep -q "anchor (process $anchor) was killed by signal 9: restarted the workload (restart 1)" "$tmp/a.err"; then
	ok "--batch: the anchor's restart is said on stderr with the signal"
else
	notok "anchor restart message" "status $st" "$(cat "$tmp/a.err")"
fi
if "$PY" -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
errs = [r["workload"]["error"] for r in rows]
assert any(e and "was killed by signal 9: restarted" in e for e in errs), errs
anchors = sorted({r["workload"]["anchor_pid"] for r in rows})
assert len(anchors) == 2, anchors
assert rows[-1]["workload"]["gflops"] > 0, rows[-1]["workload"]
' "$tmp/a.json" 2>"$tmp/err"; then
	ok "--batch: JSON error says it; the samples follow the new anchor and work resumes"
else
	notok "anchor restart in JSON" "$(cat "$tmp/err")"
fi
if [ -n "$new" ] && gone "$new"; then ok "nothing left after the run"; else notok "left behind" "$new"; fi
if [ -n "$quota_dir" ]; then
	d=$(dirname "$quota_dir")
	[ "$(basename "$d")" = work ] && d=$(dirname "$d")
	until_true 30 test ! -d "$d"
	if [ ! -d "$d" ]; then ok "the quota cgroup is removed"; else notok "quota cgroup left" "$d"; fi
elif quota_capable; then
	notok "the quota cgroup is removed" "no quota cgroup was made"
else
	skip "the quota cgroup is removed" "$quota_why"
fi

# ---- the restart budget ---------------------------------------------------------
# Each anchor is killed once it runs its helper, often before threadlab
# has read its threads twice (a read that then found no process sorted a
# NULL list in collectors/bpf-threads.c: the sanitizer build stopped).
"$TL" --batch -i 0.2 -c 300 --size 256 --format json >"$tmp/b.json" 2>"$tmp/b.err" &
tl=$!
track "$tl"
a=$(child_named "$tl" tl-anchor)
for k in 1 2 3 4; do
	child_named "${a:-0}" gemm0 >/dev/null
	kill -9 "$a"
	[ $k = 4 ] || a=$(new_child "$tl" tl-anchor "$a") || break
done
limited 30 tail --pid="$tl" -f /dev/null
reap "$tl" 30
st=$reaped
if [ $st = 1 ] && grep -q "not restarted, it was restarted 3 times within 60 s" "$tmp/b.err"; then
	ok "a fourth death within a minute: not restarted, said, exit 1"
else
	notok "anchor restart budget" "status $st" "$(cat "$tmp/b.err")"
fi

# ---- memory limits are checked up front -----------------------------------------
# AddressSanitizer reserves terabytes of address space for its shadow at
# start: a sanitizer build cannot run under ulimit -v or -d at all.
if ldd "$TL" 2>/dev/null | grep -q libasan; then
	for what in "ulimit -v: --size 4096 double refused up front" "ulimit -d: the sweep refuses it" \
		"a limit that fits: the lab runs"; do
		skip "$what" "an ASan build cannot start under an address-space or data limit"
	done
	exit
fi
(
	ulimit -v 300000
	limited 30 "$TL" --batch -c 2 --size 4096 --precision double
) >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "address-space limit" "$tmp/err" &&
	! grep -q "killed\|restarted" "$tmp/err"; then
	ok "ulimit -v: --size 4096 double refused up front, exit 2, about memory"
else
	notok "RLIMIT_AS check" "status $st" "$(cat "$tmp/err")"
fi
(
	ulimit -d 400000
	limited 30 "$TL" --sweep --size 4096 --precision double --threads 1 --seconds 0.5
) >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st = 2 ] && grep -q "data-segment limit" "$tmp/err"; then
	ok "ulimit -d: the sweep refuses it too"
else
	notok "RLIMIT_DATA check" "status $st" "$(cat "$tmp/err")"
fi
(
	ulimit -v 2000000
	limited 60 "$TL" --batch -c 1 --size 256 --format json
) >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st = 0 ] && [ -s "$tmp/out" ]; then ok "a limit that fits: the lab runs"; else
	notok "a fitting limit refused" "status $st" "$(cat "$tmp/err")"; fi

