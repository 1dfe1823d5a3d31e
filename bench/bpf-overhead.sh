#!/bin/bash
# bpf-overhead.sh — what the run-queue latency tracepoints cost the traced
# program: bench/pingpong (two threads passing a byte over pipes, as
# `perf bench sched pipe` does) run alone, then with threadlab attached to
# another process (a sleep) through BPF, then with threadlab attached to
# it (--collector bpf --batch -i 1: the sched_switch program times every
# wait of its threads), in turn ROUNDS times of SECONDS each.
#
# The middle run is the floor: the programs are attached and run at every
# context switch of the machine, but return at their first check (the
# ping-pong is not a target), so it measures what the kernel's tracepoint
# and BPF trampoline cost on their own, before any work of threadlab's.
# Prints each run's round trips per second of wall time and per second of
# the ping-pong's own CPU time, and the ratios of the medians to the run
# alone; the goal is at least 0.97 traced.  On a machine loaded by other
# work the wall-time rate is mostly that load; the CPU-time rate is not
# diluted by it (the program runs in the switching task, and counts
# there).  Runs as root (BPF).
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
# run() runs in a subshell ($(run ...)): what it starts is noted in
# $tmp/started, for cleanup to stop on every path.
cleanup() {
	[ -s "$tmp/started" ] && xargs kill <"$tmp/started" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
[ -x "$PP" ] || { echo "bpf-overhead: $PP not built (make bench)" >&2; exit 2; }
"$TL" --collector bpf --batch -c 1 -p $$ >/dev/null 2>"$tmp/err" ||
	{ echo "bpf-overhead: BPF does not load: $(cat "$tmp/err")" >&2; exit 2; }
echo "bpf-overhead: $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"

run() { # run alone|floor|traced: "wall-rate cpu-rate" of one pingpong run
	local tl="" other=""
	rm -f "$tmp/pid"
	if [ "$1" = floor ]; then
		sleep 1000 &
		other=$!
		"$TL" --collector bpf --batch -i 1 -p "$other" >/dev/null 2>&1 &
		tl=$!
		echo "$other $tl" >>"$tmp/started"
		sleep 0.5 # loaded and attached before the ping-pong starts
		kill -0 "$tl" 2>/dev/null || { echo "bpf-overhead: threadlab did not stay attached" >&2; exit 1; }
	fi
	"$PP" "$secs" --pid "$tmp/pid" >"$tmp/out" &
	local pp=$!
	echo "$pp" >>"$tmp/started"
	if [ "$1" = traced ]; then
		for _ in $(seq 50); do [ -s "$tmp/pid" ] && break; sleep 0.01; done
		"$TL" --collector bpf --batch -i 1 -p "$(cat "$tmp/pid")" >/dev/null 2>&1 &
		tl=$!
		echo "$tl" >>"$tmp/started"
	fi
	wait $pp
	[ -n "$tl" ] && { kill "$tl" 2>/dev/null; wait "$tl" 2>/dev/null; }
	[ -n "$other" ] && { kill "$other" 2>/dev/null; wait "$other" 2>/dev/null; }
	: >"$tmp/started"
	awk '/round trips/ { print $3, $5 }' "$tmp/out"
}
aw="" ac="" fw="" fc="" tw="" tc=""
for r in $(seq "$rounds"); do
	read -r a1 a2 <<<"$(run alone)"
	read -r f1 f2 <<<"$(run floor)"
	read -r t1 t2 <<<"$(run traced)"
	echo "round $r: alone $a1/s ($a2 per CPU-s), floor $f1/s ($f2), traced $t1/s ($t2)"
	aw="$aw $a1" ac="$ac $a2" fw="$fw $f1" fc="$fc $f2" tw="$tw $t1" tc="$tc $t2"
done
median() { printf '%s\n' $1 | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for per in wall CPU; do
	if [ $per = wall ]; then a=$aw f=$fw t=$tw; else a=$ac f=$fc t=$tc; fi
	awk -v per=$per -v a="$(median "$a")" -v f="$(median "$f")" -v t="$(median "$t")" 'BEGIN {
		printf "median per %s s: alone %.0f, floor %.0f (%.3fx), traced %.0f (%.3fx; %.3fx of the floor)\n",
			per, a, f, f / a, t, t / a, t / f }'
done
echo "bpf-overhead: load after $(cut -d' ' -f1-3 /proc/loadavg)"
