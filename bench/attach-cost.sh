#!/bin/bash
# attach-cost.sh — the dashboard attached to many busy threads against
# top -H on the same target, in one run.
#
# Starts bench/threads-target with THREADS threads that all wake every
# 50 ms, then alternates, ROUNDS times: the threadlab dashboard attached
# to it (`threadlab -p PID -i INTERVAL`) and `top -H -d INTERVAL -p PID`,
# each in a private tmux server of 120x40 for SECONDS after 3 s of
# settling.  Prints the CPU each used (its threads' schedstat run time,
# bench/cpu-ns.sh) as % of one core, and their ratio per round.
#
# usage: bench/attach-cost.sh [SECONDS [THREADS [INTERVAL [ROUNDS]]]]
#        (default 20 s, 1000 threads, 0.1 s, 2 rounds)
# THREADLAB_BUILDDIR (default .) names the build directory; build the
# benchmarks first (make bench).  TL_ARGS adds options to threadlab's runs
# (TL_ARGS="--collector proc" measures the /proc path).
set -u
secs="${1:-20}"
nthreads="${2:-1000}"
interval="${3:-0.1}"
rounds="${4:-2}"
B="${THREADLAB_BUILDDIR:-.}"
TL="${THREADLAB_BIN:-$B/threadlab}"
TARGET="$B/bench/threads-target"
T="tmux -u -L tl-attach-$$ -f /dev/null"
tpid=""
cleanup() {
	$T kill-server 2>/dev/null
	[ -n "$tpid" ] && kill "$tpid" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
for c in tmux top; do
	command -v $c >/dev/null || { echo "attach-cost: $c is needed" >&2; exit 2; }
done
[ -x "$TL" ] || { echo "attach-cost: $TL not built" >&2; exit 2; }
[ -x "$TARGET" ] || { echo "attach-cost: $TARGET not built (make bench)" >&2; exit 2; }

exec 3< <("$TARGET" "$nthreads" "$nthreads" 50)
read -r tpid <&3 || { echo "attach-cost: the target did not start" >&2; exit 1; }
. "$(dirname "$0")/cpu-ns.sh"

# measure NAME COMMAND: CPU % of one core the pane's process used.
measure() {
	$T new-session -d -s m -x 120 -y 40 "exec env LC_ALL=C.UTF-8 TERM=xterm-256color $2"
	local pid
	pid=$($T display-message -p -t m '#{pane_pid}')
	sleep 3
	local t0 w0 t1 w1
	t0=$(cpu_ns "$pid")
	w0=$(date +%s.%N)
	sleep "$secs"
	t1=$(cpu_ns "$pid")
	w1=$(date +%s.%N)
	$T send-keys -t m q
	sleep 0.5
	$T kill-server 2>/dev/null
	awk -v a="$t0" -v b="$t1" -v w0="$w0" -v w1="$w1" \
		'BEGIN { printf "%.2f", 100 * (b - a) / 1e9 / (w1 - w0) }'
}

echo "target: $nthreads threads waking every 50 ms (pid $tpid); $secs s per run at $interval s"
for r in $(seq "$rounds"); do
	tl=$(measure threadlab "'$TL' ${TL_ARGS:-} -p $tpid -i $interval")
	top=$(measure top "top -H -d $interval -p $tpid")
	awk -v r="$r" -v a="$tl" -v b="$top" 'BEGIN {
		printf "round %d: threadlab %.2f %% of a core, top -H %.2f %%, ratio %.2fx\n",
			r, a, b, (b > 0 ? a / b : 0) }'
done
