#!/bin/bash
# scale-10k.sh — the dashboard and batch mode on a target with 10,000
# threads, 2,000 of them waking every 50 ms (bench/threads-target).
#
# Prints, for the dashboard attached at 1 s refresh in a private 120x40
# tmux server:
#   - time to the first sample on screen (the header's budget line) and to
#     the first thread rows (rates need two samples), from the launch;
#   - key response: PgDn/PgUp and Tab (sort) sent ROUNDS times each, the
#     time until the pane changed (capture-pane polled every 5 ms, so the
#     figure includes tmux's own latency);
#   - its own CPU (its threads' run time, schedstat: bench/cpu-ns.sh) over
#     SECONDS, % of a core;
#   - its RSS every tenth of SECONDS (VmRSS, kB);
# and for --batch --format json -i 0.5 -c 20: the intervals between
# samples (the JSON "time" fields) and the batch process's CPU.
#
# usage: bench/scale-10k.sh [SECONDS [THREADS [WAKERS [ROUNDS]]]]
#        (default 120 s, 10000 threads, 2000 wakers, 10 rounds)
# THREADLAB_BUILDDIR (default .) names the build directory; TL_ARGS adds
# options to both threadlab runs (TL_ARGS="--collector proc" for /proc).
set -u
secs="${1:-120}"
nthreads="${2:-10000}"
wakers="${3:-2000}"
rounds="${4:-10}"
B="${THREADLAB_BUILDDIR:-.}"
TL="${THREADLAB_BIN:-$B/threadlab}"
TARGET="$B/bench/threads-target"
T="tmux -u -L tl-scale-$$ -f /dev/null"
tpid=""
tmp=$(mktemp -d)
cleanup() {
	$T kill-server 2>/dev/null
	[ -n "$tpid" ] && kill "$tpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
for c in tmux python3; do
	command -v $c >/dev/null || { echo "scale-10k: $c is needed" >&2; exit 2; }
done
[ -x "$TARGET" ] || { echo "scale-10k: $TARGET not built (make bench)" >&2; exit 2; }
ulimit -u unlimited 2>/dev/null
exec 3< <(exec "$TARGET" "$nthreads" "$wakers" 50)
read -r tpid <&3 || { echo "scale-10k: the target did not start" >&2; exit 1; }
. "$(dirname "$0")/cpu-ns.sh"
now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }
pane() { $T capture-pane -p -t d 2>/dev/null; }
echo "scale-10k: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n1)"
echo "scale-10k: target $tpid: $nthreads threads, $wakers waking every 50 ms; $(uname -r)"

t0=$(now)
$T new-session -d -s d -x 120 -y 40 "exec env LC_ALL=C.UTF-8 TERM=xterm-256color '$TL' ${TL_ARGS:-} -p $tpid -i 1"
pid=$($T display-message -p -t d '#{pane_pid}')
first="" rows=""
while [ -z "$rows" ] && [ $(($(now) - t0)) -lt 30000000000 ]; do
	p=$(pane)
	[ -z "$first" ] && grep -q 'effective' <<<"$p" && first=$(now)
	grep -q 'more rows' <<<"$p" && rows=$(now)
	sleep 0.01
done
echo "first sample on screen: $(ms "$t0" "${first:-$t0}") ms; first thread rows: $(ms "$t0" "${rows:-$t0}") ms"

# key KEY: ms until the pane differs from before the key.
key() {
	local before after s e
	before=$(pane)
	s=$(now)
	$T send-keys -t d "$1"
	for _ in $(seq 400); do
		after=$(pane)
		[ "$after" != "$before" ] && break
		sleep 0.005
	done
	e=$(now)
	ms "$s" "$e"
}
sleep 2
for k in NPage PPage Tab; do
	v=""
	for _ in $(seq "$rounds"); do
		v="$v $(key $k)"
		sleep 0.3
	done
	sorted=$(printf '%s\n' $v | sort -n | tr '\n' ' ')
	echo "key $k response ms:$v (median $(echo "$sorted" | awk '{ print $(int((NF + 1) / 2)) }'), max $(echo "$sorted" | awk '{ print $NF }'))"
done
# Tab cycles the sort; put it back where it started is not needed here.

c0=$(cpu_ns "$pid")
w0=$(now)
rss=""
for i in $(seq 10); do
	sleep "$(awk -v s="$secs" 'BEGIN { print s / 10 }')"
	rss="$rss $(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")"
done
c1=$(cpu_ns "$pid")
w1=$(now)
awk -v c="$((c1 - c0))" -v ns="$((w1 - w0))" \
	'BEGIN { printf "dashboard CPU over %.0f s: %.2f %% of a core\n", ns / 1e9, 100 * c / ns }'
echo "dashboard RSS kB, every $(awk -v s="$secs" 'BEGIN { print s / 10 }') s:$rss"
$T kill-server 2>/dev/null

"$TL" ${TL_ARGS:-} --batch -p "$tpid" -i 0.5 -c 20 --format json >"$tmp/b.json" 2>"$tmp/b.err" &
bp=$!
sleep 1
bc0=$(cpu_ns $bp)
bw0=$(now)
sleep 8
bc1=$(cpu_ns $bp)
bw1=$(now)
wait $bp
python3 - "$tmp/b.json" <<'PY'
import json, sys, datetime
ts = []
for l in open(sys.argv[1]):
    d = json.loads(l)
    ts.append(datetime.datetime.fromisoformat(d["time"].replace("Z", "+00:00")).timestamp())
iv = [b - a for a, b in zip(ts, ts[1:])]
print("batch -i 0.5: %d samples, interval mean %.3f s, min %.3f, max %.3f, threads %d"
      % (len(ts), sum(iv) / len(iv), min(iv), max(iv), len(d["threads"])))
PY
awk -v c="$((bc1 - bc0))" -v ns="$((bw1 - bw0))" \
	'BEGIN { printf "batch CPU: %.1f %% of a core\n", 100 * c / ns }'
