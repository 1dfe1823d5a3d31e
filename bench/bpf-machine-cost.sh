#!/bin/bash
# bpf-machine-cost.sh — reading every thread of the machine each second:
# bench/bpf-all (the BPF collector's read, rates and latency, what --all
# will do each tick) against `top -H -b -d 1` on the same machine, one after
# the other, SECONDS each, ROUNDS times.  Prints each one's CPU (the run
# time of its threads, from schedstat to the nanosecond: bench/cpu-ns.sh)
# as % of a core and the ratio; the goal is at most 0.05x.  Runs as root
# (BPF).
#
# usage: bench/bpf-machine-cost.sh [SECONDS [ROUNDS]]   (default 30 s, 2 rounds)
# THREADLAB_BUILDDIR (default .) names the build directory (make bench).
set -u
secs="${1:-30}"
rounds="${2:-2}"
B="${THREADLAB_BUILDDIR:-.}"
ALL="$B/bench/bpf-all"
[ -x "$ALL" ] || { echo "bpf-machine-cost: $ALL not built (make bench)" >&2; exit 2; }
command -v top >/dev/null || { echo "bpf-machine-cost: top is needed" >&2; exit 2; }
. "$(dirname "$0")/cpu-ns.sh"
# cost CMD...: % of a core the command used over secs (measured from 1 s in)
cost() {
	"$@" >/dev/null 2>&1 &
	local p=$! a b w0 w1
	sleep 1
	a=$(cpu_ns $p) w0=$(date +%s.%N)
	sleep "$((secs - 2))"
	b=$(cpu_ns $p) w1=$(date +%s.%N)
	kill $p 2>/dev/null
	wait $p 2>/dev/null
	awk -v a="$a" -v b="$b" -v w0="$w0" -v w1="$w1" \
		'BEGIN { printf "%.4f", 100 * (b - a) / 1e9 / (w1 - w0) }'
}
echo "bpf-machine-cost: $(nproc) CPUs, $(ls /proc/[0-9]*/task 2>/dev/null | grep -c '^[0-9]') threads, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$ALL" 3 1 || exit 1
for r in $(seq "$rounds"); do
	a=$(cost "$ALL" "$secs" 1)
	t=$(cost top -H -b -d 1)
	awk -v r="$r" -v a="$a" -v t="$t" 'BEGIN {
		printf "round %d: BPF read of every thread %.3f %% of a core, top -H -b -d 1 %.2f %%, ratio %.3fx\n",
			r, a, t, (t > 0 ? a / t : 0) }'
done
