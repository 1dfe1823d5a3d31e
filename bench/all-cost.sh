#!/bin/bash
# all-cost.sh — the whole machine's ranking, in the dashboard (`threadlab
# --all`) and in batch (`threadlab --all --batch`), against `top -H -b` on
# the same loaded box, in one run (issue 19).
#
# Starts the load of bench/machine-load.sh (PROCS copies of
# bench/threads-target of THREADS sleeping threads each, 4 busy loops),
# then alternates, ROUNDS times on that same load: `threadlab --all` in a
# private 120x40 tmux, `threadlab --all --batch -i 1 --format json` (stdout
# to a file) and `top -H -b -d 1` (stdout to /dev/null), each for SECONDS
# after 2 s of settling.  Prints the CPU each used (its threads' schedstat
# run time, bench/cpu-ns.sh, from the end of settling to the end) as %
# of one core, and the ratios to top's per round.  Each round also times
# the batch's first ranked output: from its start to its first JSON line
# (the first ranking comes RANKING_FIRST_S, 0.5 s, after a baseline), in ms.
#
# usage: bench/all-cost.sh [SECONDS [PROCS [THREADS [ROUNDS]]]]
#        (default 30 s, 300 processes, 10 threads, 2 rounds)
# THREADLAB_BUILDDIR (default .) names the build directory; build the
# benchmarks first (make bench).  TL_ARGS adds options to threadlab's runs.
# Everything it starts is stopped on exit, Ctrl-C included (and dies with
# the script if the script is killed: parent-death signals).
set -u
secs="${1:-30}"
nprocs="${2:-300}"
nthreads="${3:-10}"
rounds="${4:-2}"
B="${THREADLAB_BUILDDIR:-.}"
TL="${THREADLAB_BIN:-$B/threadlab}"
T="tmux -u -L tl-cost-$$ -f /dev/null"
tmp=""
runs=()
. "$(dirname "$0")/machine-load.sh"
cleanup() {
	exec 4<&- 2>/dev/null
	$T kill-server 2>/dev/null
	stop "${runs[@]}"
	load_stop
	[ -n "$tmp" ] && rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
for c in top tmux; do
	command -v $c >/dev/null || { echo "all-cost: $c is needed" >&2; exit 2; }
done
[ -x "$TL" ] || { echo "all-cost: $TL not built" >&2; exit 2; }
for v in "$secs" "$nprocs" "$nthreads" "$rounds"; do
	case "$v" in '' | *[!0-9]*) echo "usage: bench/all-cost.sh [SECONDS [PROCS [THREADS [ROUNDS]]]]" >&2; exit 2 ;; esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/all-cost.XXXXXX") || exit 1
load_start "$nprocs" "$nthreads"
. "$(dirname "$0")/cpu-ns.sh"

# cpu_of PID: sets cpu to the % of one core PID used over SECONDS after 2 s
# of settling (its threads' schedstat run time: bench/cpu-ns.sh).
cpu_of() {
	local pid=$1 t0 w0 t1 w1
	sleep 2
	alive "$pid" || { echo "all-cost: $pid exited early: $(cat "$tmp/err")" >&2; exit 1; }
	t0=$(cpu_ns "$pid")
	w0=$(date +%s.%N)
	sleep "$secs"
	t1=$(cpu_ns "$pid")
	w1=$(date +%s.%N)
	alive "$pid" || { echo "all-cost: $pid exited early: $(cat "$tmp/err")" >&2; exit 1; }
	cpu=$(awk -v a="$t0" -v b="$t1" -v w0="$w0" -v w1="$w1" \
		'BEGIN { printf "%.2f", 100 * (b - a) / 1e9 / (w1 - w0) }')
}
# measure OUT COMMAND...: cpu_of COMMAND (stdout to OUT).  Not in a
# subshell, so the EXIT trap knows the PID.
measure() {
	local out=$1 pid
	shift
	$orphan "$@" >"$out" 2>"$tmp/err" &
	pid=$!
	runs=("$pid")
	cpu_of "$pid"
	stop "$pid"
	runs=()
}
# measure_dash: cpu_of threadlab --all in a 120x40 tmux pane.
measure_dash() {
	local pid
	: >"$tmp/err"
	$T new-session -d -s cost -x 120 -y 40 "exec env LC_ALL=C.UTF-8 '$TL' ${TL_ARGS:-} --all 2>'$tmp/err'"
	pid=$($T display-message -p -t cost '#{pane_pid}')
	cpu_of "$pid"
	$T capture-pane -p -t cost >"$tmp/pane"
	$T kill-server 2>/dev/null
	grep -q '^ machine: [a-z]*:' "$tmp/pane" || { echo "all-cost: the view showed no ranking:" >&2; cat "$tmp/pane" >&2; exit 1; }
}

# first_line: sets ms to the time from threadlab's start to its first
# JSON line (read by head, which reads the pipe in blocks).
first_line() {
	local t0 t1 pid
	t0=$(date +%s%N)
	exec 4< <(exec $orphan "$TL" ${TL_ARGS:-} --all --batch -i 1 --format json 2>"$tmp/err")
	pid=$!
	runs=("$pid")
	timeout 30 head -n 1 <&4 >"$tmp/first.json"
	t1=$(date +%s%N)
	exec 4<&-
	stop "$pid"
	runs=()
	case "$(head -c 1 "$tmp/first.json")" in
	'{') ms=$(((t1 - t0) / 1000000)) ;;
	*) echo "all-cost: no JSON line from $TL: $(cat "$tmp/err")" >&2; exit 1 ;;
	esac
}

echo "load: $nprocs processes of $nthreads sleeping threads, $load_busy_n busy loops;" \
	"the machine now runs $(procs_now) processes, $(threads_now) threads (kernel threads included); $secs s per run at 1 s"
for r in $(seq "$rounds"); do
	first_line
	measure_dash
	dash=$cpu
	measure "$tmp/all.json" "$TL" ${TL_ARGS:-} --all --batch -i 1 --format json
	tl=$cpu
	seen=$(tail -n 1 "$tmp/all.json" | grep -o '"processes":[0-9]*,"threads":[0-9]*' | tr -dc '0-9,')
	measure /dev/null top -H -b -d 1
	top=$cpu
	awk -v r="$r" -v d="$dash" -v a="$tl" -v b="$top" -v ms="$ms" -v seen="$seen" 'BEGIN {
		split(seen, s, ",")
		printf "round %d: threadlab --all (view) %.2f %% of a core, --all --batch %.2f %%, top -H %.2f %%;" \
			" ratios %.2fx and %.2fx; first ranking %d ms after start (threadlab saw %s processes, %s threads)\n",
			r, d, a, b, (b > 0 ? d / b : 0), (b > 0 ? a / b : 0), ms, s[1], s[2] }'
done
