#!/bin/bash
# start-cost.sh — what one threadlab run costs before its first figure: the
# CPU (user + system) of `--batch -c 1 -i 0.05`
# attached to a sleeping process, with the BPF collector (its programs
# loaded and verified, the kernel's BTF read) and with /proc, ROUNDS times
# each, alternating.  THREADLAB_BIN (else THREADLAB_BUILDDIR/threadlab, else
# ./threadlab) is the binary; run as root for the BPF path.
#
# usage: bench/start-cost.sh [ROUNDS]      (default 8)
set -u
export LC_ALL=C # times prints the locale's decimal point
rounds="${1:-8}"
[ "$rounds" -ge 1 ] 2>/dev/null || { echo "usage: $0 [ROUNDS >= 1]" >&2; exit 2; }
TL="${THREADLAB_BIN:-${THREADLAB_BUILDDIR:-.}/threadlab}"
[ -x "$TL" ] || { echo "start-cost: $TL not found" >&2; exit 2; }
sleep 600 &
target=$!
# children_ms: the user + system CPU of every child waited for so far, in
# ms, into $ms (bash's times, in this shell: getrusage's figures printed to
# the millisecond)
dir=$(mktemp -d)
trap 'kill $target 2>/dev/null; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
to_ms() { # XmY.ZZZs into $tms (no subshell: its CPU would be counted)
	local m=${1%%m*} s=${1#*m}
	s=${s%s}
	tms=$((m * 60000 + 10#${s%.*} * 1000 + 10#${s#*.}))
}
children_ms() {
	local self u st
	times >"$dir/times"
	{ read -r self; read -r u st; } <"$dir/times"
	to_ms "$u"
	ms=$tms
	to_ms "$st"
	ms=$((ms + tms))
}
# one_run COLLECTOR: "CPU_MS STATUS" of one run
one_run() {
	local before st
	children_ms
	before=$ms
	"$TL" -p "$target" --collector "$1" --batch -c 1 -i 0.05 >/dev/null 2>&1
	st=$?
	children_ms
	echo "$((ms - before)) $st" >>"$dir/$1"
}
echo "start-cost: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n1); $(uname -r)"
echo "start-cost: $TL -p (a sleeping process) --batch -c 1 -i 0.05, $rounds rounds"
for c in bpf proc; do : >"$dir/$c"; done
for ((i = 0; i < rounds; i++)); do
	for c in bpf proc; do one_run "$c"; done
done
for c in bpf proc; do
	sort -n "$dir/$c" | awk -v c="$c" '
		$2 != 0 { bad++ } { ms[NR] = $1 }
		END {
			printf "%-5s CPU ms: min %d, median %d, max %d%s\n", c,
				ms[1], ms[int((NR + 1) / 2)], ms[NR],
				bad ? sprintf(" (%d runs failed)", bad) : ""
		}'
	rm -f "$dir/$c"
done
