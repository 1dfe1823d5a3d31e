#!/bin/bash
# dash-cpu.sh — the dashboard's own CPU cost while the lab runs.
#
# Runs `threadlab -i INTERVAL` (the lab: dashboard + GEMM workload) in a
# private tmux server for SECONDS, after a short settling time, and prints
# the CPU the threadlab process itself used (utime + stime from
# /proc/PID/stat), as % of one core.  The workload runs in its own
# processes and is not counted.
#
# usage: bench/dash-cpu.sh [SECONDS [INTERVAL]]   (default 20 s at 1 s)
# THREADLAB_BUILDDIR (default .) names the build directory.
set -u
secs="${1:-20}"
interval="${2:-1}"
TL="${THREADLAB_BIN:-${THREADLAB_BUILDDIR:-.}/threadlab}"
T="tmux -u -L tl-bench-$$ -f /dev/null"
trap '$T kill-server 2>/dev/null' EXIT
command -v tmux >/dev/null || { echo "dash-cpu: tmux is needed" >&2; exit 2; }
[ -x "$TL" ] || { echo "dash-cpu: $TL not built" >&2; exit 2; }

$T new-session -d -s bench -x 120 -y 40 "exec env LC_ALL=C.UTF-8 '$TL' -i $interval"
pid=$($T display-message -p -t bench '#{pane_pid}')
sleep 3 # start-up and the single-thread calibration are not the steady cost
ticks() { # utime + stime of pid, clock ticks (fields after the last ')')
	sed 's/.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }'
}
run_ns() { # schedstat run time of every thread, ns (finer than clock ticks)
	cat /proc/"$pid"/task/*/schedstat | awk '{ s += $1 } END { print s }'
}
hz=$(getconf CLK_TCK)
t0=$(ticks); n0=$(run_ns); w0=$(date +%s.%N)
sleep "$secs"
t1=$(ticks); n1=$(run_ns); w1=$(date +%s.%N)
$T send-keys -t bench q
awk -v a="$t0" -v b="$t1" -v hz="$hz" -v n0="$n0" -v n1="$n1" -v w0="$w0" -v w1="$w1" \
	-v iv="$interval" 'BEGIN {
	cpu = (b - a) / hz; wall = w1 - w0; run = (n1 - n0) / 1e9
	printf "dashboard CPU: %.3f s in %.1f s at %s s refresh = %.2f %% of one core" \
		" (utime+stime; schedstat run time %.3f s = %.2f %%)\n",
		cpu, wall, iv, 100 * cpu / wall, run, 100 * run / wall }'
