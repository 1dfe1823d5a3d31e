#!/bin/bash
# advice-rate.sh — does the first suggestion make the job faster?  The
# measure of advice is the job's own rate.
#
# For each test program of issue 16 with a rate of its own, runs it,
# diagnoses it (threadlab --diagnose over SECONDS), reads its rate (steps or
# items per second, from the lines it prints) over the same window, applies
# the first suggestion as a user would (the call in the code, the setting,
# the worker count, the lab's flags) and measures it again:
#   omp-team 2xCPUs   a C program that calls omp_set_num_threads(2 x CPUs)
#   mp-loader         a trainer whose 2 workers take 50 ms an item (mostly
#                     waiting), its main loop 5 ms of CPU an item
#   numpy             OPENBLAS_NUM_THREADS=4, matrix products
#   serial+neighbour  one busy thread beside a busy neighbour (contended:
#                     the advice must name the neighbour, nothing to apply)
#   lab               2 threads under a 1.5-CPU quota beside a neighbour on
#                     CPU 1 (root and a cpu controller)
# and prints one row each: the verdict, the first suggestion, the rate
# before and after, and their ratio.  As root, every program (and
# threadlab) runs in a cpu cgroup of high weight, so that the other load
# of a shared machine moves the two runs alike.  Prints figures; asserts
# nothing.
#
# usage: bench/advice-rate.sh [SECONDS]   (default 6)
# THREADLAB_BUILDDIR (default .) names the build directory.
set -u
secs="${1:-6}"
B="${THREADLAB_BUILDDIR:-.}"
SRC="$(cd "$(dirname "$0")/.." && pwd)"
TL="$B/threadlab"
PY=/usr/bin/python3
tmp=$(mktemp -d)
. "$SRC/tests/lib/tap-lib.sh" # prio_make, prio_run, prio_do, stop, cg_remove
. "$SRC/tests/lib/tap-jobs.sh" # start
# a benchmark, not a test: no TAP plan; what it started goes at exit
bench_end() {
	for p in "${tap_pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	for c in "${tap_cgroups[@]}"; do cg_remove "$c"; done
	rm -rf "$tmp"
}
trap bench_end EXIT
trap 'exit 1' INT TERM HUP
[ -x "$TL" ] || { echo "advice-rate: $TL not built" >&2; exit 2; }
prio_make
cpus=$(nproc)

# count FILE: the last cumulative count a program printed ("step N", "item N")
count() { grep -Eo '^(step|item) [0-9]+' "$1" 2>/dev/null | tail -1 | awk '{ print $2 + 0 }'; }
now() { date +%s.%N; }

# measure NAME PID OUT: diagnoses PID for $secs s into $tmp/NAME.json and
# prints the rate the program's OUT file shows over that window.
measure() {
	local name=$1 pid=$2 out=$3 c0 c1 t0 t1
	sleep 1 # its start is not its rate
	c0=$(count "$out")
	t0=$(now)
	prio_do "$TL" --diagnose -p "$pid" --tree --seconds "$secs" --format json >"$tmp/$name.json" 2>/dev/null
	c1=$(count "$out")
	t1=$(now)
	awk -v a="${c0:-0}" -v b="${c1:-0}" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.1f", (b - a) / (t1 - t0) }'
}

# field NAME KEY: the diagnosis' verdict or first suggestion
field() {
	"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))["diagnosis"]
print(d["verdict"] if sys.argv[2] == "verdict" else (d["suggestions"] or ["-"])[0])' "$tmp/$1.json" "$2"
}

row() { # NAME VERDICT SUGGESTION BEFORE AFTER
	local ratio
	ratio=$(awk -v a="$4" -v b="$5" 'BEGIN { if (a > 0 && b != "-") printf "%.2fx", b / a; else print "-" }')
	printf '%-18s %-15s %10s %10s %7s  %s\n' "$1" "$2" "$4" "$5" "$ratio" "$3"
}

# run NAME CMD...: starts CMD, measures it, stops it; the rate in $rate
run() {
	local name=$1
	shift
	start "$name" prio_run "$@"
	local pid=${!name}
	rate=$(measure "$name" "$pid" "$tmp/start.$name")
	stop "$pid"
}

printf '%-18s %-15s %10s %10s %7s  %s\n' program verdict before after ratio "first suggestion"

# ---- a team its code sizes -------------------------------------------------------
team=$((cpus * 2))
run omp env -u OMP_NUM_THREADS "$B/tests/lib/omp-team" "$team"
before=$rate
sug=$(field omp suggestion)
after=-
if n=$(grep -Eo 'omp_set_num_threads\(([0-9]+)\)' <<<"$sug" | grep -Eo '[0-9]+'); then
	run omp2 env -u OMP_NUM_THREADS "$B/tests/lib/omp-team" "$n"
	after=$rate
fi
row "omp-team $team" "$(field omp verdict)" "$sug" "$before" "$after"

# ---- an input-bound trainer -------------------------------------------------------
run mp "$PY" "$SRC/tests/lib/mp-loader.py" 2 50 5
before=$rate
sug=$(field mp suggestion)
after=-
if w=$(grep -Eo '^use [0-9]+ workers' <<<"$sug" | grep -Eo '[0-9]+'); then
	run mp2 "$PY" "$SRC/tests/lib/mp-loader.py" "$w" 50 5
	after=$rate
fi
row "mp-loader 2x50ms" "$(field mp verdict)" "$sug" "$before" "$after"

# ---- numpy with more OpenBLAS threads than CPUs -------------------------------------
if "$PY" -c 'import numpy' 2>/dev/null; then
	NP='import numpy
a = numpy.ones((400, 400))
print("ready", flush=True)
i = 0
while True:
    a @ a
    i += 1
    if i % 20 == 0:
        print("step %d" % i, flush=True)'
	run np env OPENBLAS_NUM_THREADS=4 "$PY" -c "$NP"
	before=$rate
	sug=$(field np suggestion)
	after=-
	kv=$(grep -Eo '^set [A-Z_]+=[0-9]+' <<<"$sug" | cut -d' ' -f2)
	if [ -n "$kv" ]; then
		run np2 env OPENBLAS_NUM_THREADS=4 "$kv" "$PY" -c "$NP"
		after=$rate
	fi
	row "numpy OB=4" "$(field np verdict)" "$sug" "$before" "$after"
fi

# ---- a serial job beside a neighbour --------------------------------------------------
start neigh prio_run "$B/tests/lib/forker" $((cpus + 1)) 0 0
run serial env OMP_NUM_THREADS=1 "$B/tests/lib/omp-steps" 0
row "serial+neighbour" "$(field serial verdict)" "$(field serial suggestion) (neighbour pid $neigh)" "$rate" "-"
stop "$neigh"

# ---- the lab under a quota beside a neighbour --------------------------------------------
if quota_capable; then
	start hold prio_run taskset -c 1 "$B/tests/lib/forker" 1 0 0
	lab() { # FLAGS...: the lab's mean GFLOP/s over $secs s after 2 s
		prio_do "$TL" --batch --cpus 1.5 "$@" -c $((secs + 2)) -i 1 --format json 2>/dev/null >"$tmp/lab.jsonl"
		"$PY" -c 'import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][2:]
print("%.1f" % (sum(x["workload"]["gflops"] for x in s) / max(len(s), 1)))' "$tmp/lab.jsonl"
	}
	before=$(lab --threads 2)
	prio_do "$TL" --diagnose --threads 2 --cpus 1.5 --seconds "$secs" --format json >"$tmp/labd.json" 2>/dev/null
	sug=$(field labd suggestion)
	row "lab 2t, 1.5 CPUs" "$(field labd verdict)" "$sug (neighbour pid $hold)" "$before" "-"
	# The job's own change, suggested after the neighbour: what it gives
	# while the neighbour holds its CPU.
	flags=$("$PY" -c 'import json, re, sys
for s in json.load(open(sys.argv[1]))["diagnosis"]["suggestions"]:
    m = re.search("run with (--threads [0-9]+ --streams [0-9]+)", s)
    if m:
        print(m.group(1))
        break' "$tmp/labd.json")
	if [ -n "$flags" ]; then
		# shellcheck disable=SC2086
		row "  then: $flags" "" "(the job's own change)" "$before" "$(lab $flags)"
	fi
	stop "$hold"
fi
