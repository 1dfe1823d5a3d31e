#!/bin/bash
# bpf-overhead.sh — what the run-queue latency tracepoints cost the traced
# program: bench/pingpong (two threads passing a byte over pipes, as
# `perf bench sched pipe` does) run alone, then with threadlab attached to
# it through BPF (--collector bpf --batch -i 1: the tracepoints time every
# wake-up and switch of its threads), alternately ROUNDS times of SECONDS.
# Prints each run's round trips per second of wall time and per second of
# the ping-pong's own CPU time, and the ratios of the medians (with /
# without); the goal is at least 0.97.  On a machine loaded by other work
# the wall-time rate is mostly that load; the CPU-time rate is not diluted
# by it (the program runs in the switching task, and counts there).  Runs
# as root (BPF).
#
# usage: bench/bpf-overhead.sh [SECONDS [ROUNDS]]   (default 5 s, 6 rounds)
# THREADLAB_BUILDDIR (default .) names the build directory (make bench).
set -u
secs="${1:-5}"
rounds="${2:-6}"
B="${THREADLAB_BUILDDIR:-.}"
TL="${THREADLAB_BIN:-$B/threadlab}"
PP="$B/bench/pingpong"
tmp=$(mktemp -d)
tl=""
cleanup() {
	[ -n "$tl" ] && kill "$tl" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
[ -x "$PP" ] || { echo "bpf-overhead: $PP not built (make bench)" >&2; exit 2; }
"$TL" --collector bpf --batch -c 1 -p $$ >/dev/null 2>"$tmp/err" ||
	{ echo "bpf-overhead: BPF does not load: $(cat "$tmp/err")" >&2; exit 2; }
echo "bpf-overhead: $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"

run() { # run traced|alone: "wall-rate cpu-rate" of one pingpong run
	rm -f "$tmp/pid"
	"$PP" "$secs" --pid "$tmp/pid" >"$tmp/out" &
	local pp=$!
	if [ "$1" = traced ]; then
		for _ in $(seq 50); do [ -s "$tmp/pid" ] && break; sleep 0.01; done
		"$TL" --collector bpf --batch -i 1 -p "$(cat "$tmp/pid")" >/dev/null 2>&1 &
		tl=$!
	fi
	wait $pp
	[ -n "$tl" ] && { kill "$tl" 2>/dev/null; wait "$tl" 2>/dev/null; tl=""; }
	awk '/round trips/ { print $3, $5 }' "$tmp/out"
}
aw="" ac="" tw="" tc=""
for r in $(seq "$rounds"); do
	read -r a1 a2 <<<"$(run alone)"
	read -r t1 t2 <<<"$(run traced)"
	echo "round $r: alone $a1/s ($a2 per CPU-s), traced $t1/s ($t2 per CPU-s)"
	aw="$aw $a1" ac="$ac $a2" tw="$tw $t1" tc="$tc $t2"
done
median() { printf '%s\n' $1 | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
awk -v a="$(median "$aw")" -v t="$(median "$tw")" -v ac="$(median "$ac")" -v tc="$(median "$tc")" 'BEGIN {
	printf "median per wall s: alone %.0f, traced %.0f: %.3fx\n", a, t, t / a
	printf "median per CPU s: alone %.0f, traced %.0f: %.3fx\n", ac, tc, tc / ac }'
echo "bpf-overhead: load after $(cut -d' ' -f1-3 /proc/loadavg)"
