#!/bin/bash
# record-cost.sh — what --record adds to batch sampling, and how big a
# recording is, on one target in one run.
#
# Starts bench/threads-target with THREADS threads (WAKERS of them waking
# every 50 ms), then runs `threadlab --batch -p PID -i INTERVAL -c COUNT
# --format json` three times, output to /dev/null: without --record, with
# --record FILE, with --record FILE.zst.  Prints each run's CPU (user +
# system of the threadlab process, from bash's times), the ratio to the
# run without recording, and the recording's bytes per sample.
#
# usage: bench/record-cost.sh [THREADS [COUNT [INTERVAL [WAKERS]]]]
#        (default 1000 threads, 100 samples at 0.1 s, 100 wakers)
set -u
threads="${1:-1000}"
count="${2:-100}"
interval="${3:-0.1}"
wakers="${4:-100}"
B="${THREADLAB_BUILDDIR:-.}"
TL="$B/threadlab"
tmp=$(mktemp -d)
trap 'kill -9 $tp 2>/dev/null; rm -rf "$tmp"' EXIT
[ -x "$B/bench/threads-target" ] || { echo "record-cost: make bench first" >&2; exit 2; }
coproc TT { exec "$B/bench/threads-target" "$threads" "$wakers" 50; }
read -r tp <&"${TT[0]}"
sleep 1

run() { # run ARGS...: CPU seconds (user + system) of one batch run
	local t
	t=$({ TIMEFORMAT='%3U %3S'; time "$TL" --batch -p "$tp" -i "$interval" -c "$count" \
		--format json "$@" >/dev/null 2>/dev/null; } 2>&1)
	echo "$t" | awk '{ print $1 + $2 }'
}
hz=1
base=$(run)
plain=$(run --record "$tmp/r.jsonl")
zst=$(run --record "$tmp/r.jsonl.zst")
pb=$(stat -c %s "$tmp/r.jsonl")
zb=$(stat -c %s "$tmp/r.jsonl.zst")
awk -v b="$base" -v p="$plain" -v z="$zst" -v hz="$hz" -v n="$count" -v pb="$pb" -v zb="$zb" \
	-v t="$threads" -v iv="$interval" 'BEGIN {
	printf "target: %d threads; %d samples at %s s\n", t, n, iv
	printf "batch json, no recording:  %.2f s CPU\n", b / hz
	printf "with --record FILE:        %.2f s CPU (%.2fx)\n", p / hz, b ? p / b : 0
	printf "with --record FILE.zst:    %.2f s CPU (%.2fx)\n", z / hz, b ? z / b : 0
	printf "bytes per sample: plain %.0f, zstd %.0f (%.1fx smaller)\n", pb / (n + 1),
		zb / (n + 1), zb ? pb / zb : 0 }'
