#!/bin/bash
# all-cost.sh — the whole machine's ranking (`threadlab --all --batch`)
# against `top -H -b` on the same loaded box, in one run (issue 19).
#
# Starts PROCS copies of bench/threads-target of THREADS sleeping threads
# each (the main thread included) and 4 busy processes (a shell loop each),
# waits until every thread runs, then alternates, ROUNDS times on that same
# load: `threadlab --all --batch -i 1 --format json` (stdout to a file) and
# `top -H -b -d 1` (stdout to /dev/null), each for SECONDS after 2 s of
# settling.  Prints the CPU each used (utime + stime of the whole process,
# /proc/PID/stat, from the end of settling to the end) as % of one core,
# and their ratio per round.  Each round also times threadlab's first
# ranked output: from its start to its first JSON line (the first ranking
# comes RANKING_FIRST_S, 0.5 s, after a baseline), in ms.
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
nbusy=4
B="${THREADLAB_BUILDDIR:-.}"
TL="${THREADLAB_BIN:-$B/threadlab}"
TARGET="$B/bench/threads-target"
tmp=""
targets=() busy=() runs=()
alive() { # PID runs (not a zombie): no fork, cheap for 300 PIDs
	local s
	{ read -r s </proc/"$1"/stat; } 2>/dev/null || return 1
	s=${s##*) }
	[ "${s%% *}" != Z ]
}
# stop PID...: SIGTERM, up to 2 s, then SIGKILL; reaps them.
stop() {
	local p i left
	[ $# -gt 0 ] || return 0
	kill "$@" 2>/dev/null
	for i in $(seq 20); do
		left=0
		for p; do alive "$p" && { left=1; break; }; done
		[ "$left" = 1 ] || break
		sleep 0.1
	done
	[ "$left" = 1 ] && kill -KILL "$@" 2>/dev/null
	for p; do wait "$p" 2>/dev/null; done
}
cleanup() {
	exec 4<&- 2>/dev/null
	stop "${runs[@]}" "${busy[@]}" "${targets[@]}"
	[ -n "$tmp" ] && rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
for c in top setpriv; do
	command -v $c >/dev/null || { echo "all-cost: $c is needed" >&2; exit 2; }
done
[ -x "$TL" ] || { echo "all-cost: $TL not built" >&2; exit 2; }
[ -x "$TARGET" ] || { echo "all-cost: $TARGET not built (make bench)" >&2; exit 2; }
for v in "$secs" "$nprocs" "$nthreads" "$rounds"; do
	case "$v" in '' | *[!0-9]*) echo "usage: bench/all-cost.sh [SECONDS [PROCS [THREADS [ROUNDS]]]]" >&2; exit 2 ;; esac
done
[ "$nthreads" -ge 2 ] || { echo "all-cost: THREADS must be 2 or more" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/all-cost.XXXXXX") || exit 1
# Every child gets SIGKILL if this shell dies (threads-target sets it itself).
orphan="setpriv --pdeathsig KILL --"

# The load: PROCS processes of THREADS sleeping threads, 4 busy loops.
for i in $(seq "$nprocs"); do
	"$TARGET" $((nthreads - 1)) >"$tmp/t.$i" 2>"$tmp/t.$i.err" &
	targets+=($!)
done
for i in $(seq "$nbusy"); do
	$orphan sh -c 'while :; do :; done' &
	busy+=($!)
done
deadline=$((SECONDS + 60))
for i in $(seq "$nprocs"); do
	while [ ! -s "$tmp/t.$i" ]; do
		[ "$SECONDS" -lt "$deadline" ] || { echo "all-cost: the targets did not start" >&2; exit 1; }
		alive "${targets[i - 1]}" || { echo "all-cost: target $i: $(cat "$tmp/t.$i.err")" >&2; exit 1; }
		sleep 0.05
	done
done
procs_now() { ls -d /proc/[0-9]* 2>/dev/null | wc -l; }
threads_now() { ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null | wc -l; }
hz=$(getconf CLK_TCK)
ticks() { # utime + stime of the whole process PID, clock ticks
	local s
	{ read -r s </proc/"$1"/stat; } 2>/dev/null || return 1
	alive "$1" || return 1
	set -- ${s##*) } # the fields after the name: state is $1, utime $12
	echo $((${12} + ${13}))
}

# measure OUT COMMAND...: sets cpu to the % of one core COMMAND (stdout to
# OUT) used over SECONDS after 2 s of settling.  Not in a subshell, so the
# EXIT trap knows the PID.
measure() {
	local out=$1 pid t0 w0 t1 w1
	shift
	$orphan "$@" >"$out" 2>"$tmp/err" &
	pid=$!
	runs=("$pid")
	sleep 2
	t0=$(ticks "$pid") || { echo "all-cost: $1 exited early: $(cat "$tmp/err")" >&2; exit 1; }
	w0=$(date +%s.%N)
	sleep "$secs"
	t1=$(ticks "$pid") || { echo "all-cost: $1 exited early: $(cat "$tmp/err")" >&2; exit 1; }
	w1=$(date +%s.%N)
	stop "$pid"
	runs=()
	cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$hz" -v w0="$w0" -v w1="$w1" \
		'BEGIN { printf "%.2f", 100 * (b - a) / hz / (w1 - w0) }')
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
	exec 4<&- # before the kill: threadlab blocked on a full pipe gets EPIPE
	stop "$pid"
	runs=()
	case "$(head -c 1 "$tmp/first.json")" in
	'{') ms=$(((t1 - t0) / 1000000)) ;;
	*) echo "all-cost: no JSON line from $TL: $(cat "$tmp/err")" >&2; exit 1 ;;
	esac
}

echo "load: $nprocs processes of $nthreads sleeping threads, $nbusy busy loops;" \
	"the machine now runs $(procs_now) processes, $(threads_now) threads (kernel threads included); $secs s per run at 1 s"
for r in $(seq "$rounds"); do
	first_line
	measure "$tmp/all.json" "$TL" ${TL_ARGS:-} --all --batch -i 1 --format json
	tl=$cpu
	seen=$(tail -n 1 "$tmp/all.json" | grep -o '"processes":[0-9]*,"threads":[0-9]*' | tr -dc '0-9,')
	measure /dev/null top -H -b -d 1
	top=$cpu
	awk -v r="$r" -v a="$tl" -v b="$top" -v ms="$ms" -v seen="$seen" 'BEGIN {
		split(seen, s, ",")
		printf "round %d: threadlab --all %.2f %% of a core, top -H %.2f %%, ratio %.2fx;" \
			" first ranking %d ms after start (threadlab saw %s processes, %s threads)\n",
			r, a, b, (b > 0 ? a / b : 0), ms, s[1], s[2] }'
done
