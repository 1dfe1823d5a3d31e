#!/bin/bash
# all-keys.sh — how fast the machine view answers (issue 19's goals: the
# first ranked screen within 1 s of the start, a key within 100 ms).
#
# ROUNDS times, in a private tmux server of 120x40: starts threadlab --all
# and times the first screen with a ranking on it (the machine's verdict
# on the top line), then Tab (the sort line changes), g (the grouped
# lines show) and Enter (the attach screen of the first process), each
# from send-keys to the capture that shows it; the captures are polled
# every 5 ms, so each figure is an upper bound by about that much plus one
# capture.  Prints one line per round and the worst of each.  With PROCS,
# on the load of bench/machine-load.sh (PROCS processes of THREADS
# sleeping threads, default 10, and 4 busy loops; make bench first).
#
# usage: bench/all-keys.sh [ROUNDS [PROCS [THREADS]]]   (default 5, no load)
# THREADLAB_BUILDDIR (default .) names the build directory.
set -u
rounds="${1:-5}"
nprocs="${2:-0}"
nthreads="${3:-10}"
B="${THREADLAB_BUILDDIR:-.}"
TL="${THREADLAB_BIN:-$B/threadlab}"
T="tmux -u -L tl-keys-$$ -f /dev/null"
tmp=""
. "$(dirname "$0")/machine-load.sh"
cleanup() {
	$T kill-server 2>/dev/null
	load_stop
	[ -n "$tmp" ] && rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
command -v tmux >/dev/null || { echo "all-keys: tmux is needed" >&2; exit 2; }
[ -x "$TL" ] || { echo "all-keys: $TL not built" >&2; exit 2; }
for v in "$rounds" "$nprocs" "$nthreads"; do
	case "$v" in '' | *[!0-9]*) echo "usage: bench/all-keys.sh [ROUNDS [PROCS [THREADS]]]" >&2; exit 2 ;; esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/all-keys.XXXXXX") || exit 1
if [ "$nprocs" -gt 0 ]; then
	load_start "$nprocs" "$nthreads"
	echo "load: $nprocs processes of $nthreads sleeping threads, $load_busy_n busy loops;" \
		"the machine now runs $(procs_now) processes, $(threads_now) threads"
fi

ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# until_pane ERE: polls the pane every 5 ms (10 s at most).
until_pane() {
	for _ in $(seq 2000); do
		$T capture-pane -p -t keys 2>/dev/null | grep -Eq -- "$1" && return 0
		sleep 0.005
	done
	return 1
}

worst_first=0 worst_tab=0 worst_g=0 worst_enter=0
printf '%-6s %12s %8s %8s %10s\n' round "first (ms)" "Tab" "g" "Enter"
for r in $(seq "$rounds"); do
	t=$(date +%s%N)
	$T new-session -d -s keys -x 120 -y 40 "exec env LC_ALL=C.UTF-8 '$TL' --all"
	until_pane '^ machine: [a-z]+:' || { echo "all-keys: no ranked screen" >&2; exit 1; }
	first=$(ms "$t")
	t=$(date +%s%N)
	$T send-keys -t keys Tab
	until_pane 'sort: CPU%$' || exit 1
	tab=$(ms "$t")
	t=$(date +%s%N)
	$T send-keys -t keys g
	until_pane '\([0-9]+ processes\)' || exit 1
	g=$(ms "$t")
	$T send-keys -t keys g Home
	sleep 0.2
	t=$(date +%s%N)
	$T send-keys -t keys Enter
	until_pane '^threadlab attach [0-9]+ ' || exit 1
	enter=$(ms "$t")
	$T kill-server 2>/dev/null
	sleep 0.3
	printf '%-6s %12s %8s %8s %10s\n' "$r" "$first" "$tab" "$g" "$enter"
	[ "$first" -gt "$worst_first" ] && worst_first=$first
	[ "$tab" -gt "$worst_tab" ] && worst_tab=$tab
	[ "$g" -gt "$worst_g" ] && worst_g=$g
	[ "$enter" -gt "$worst_enter" ] && worst_enter=$enter
done
printf '%-6s %12s %8s %8s %10s\n' worst "$worst_first" "$worst_tab" "$worst_g" "$worst_enter"
