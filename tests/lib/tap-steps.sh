# tap-steps.sh — what test-tune.sh and test-tune-sweep.sh share, sourced
# after tap-lib.sh: tests/lib/omp-steps (STEPS, a job that prints "step N"),
# the PIDs of its runs still alive (left, found by PID from the
# OMP_STEPS_PIDS file every run writes, never by name; a script that runs
# groups of runs side by side gives each group a file of its own,
# $tmp/steps-NAME.pids, in the runs' OMP_STEPS_PIDS), a wait until none
# is (wait_gone) and the command sweep (sweep), which notes the cgroups its
# runs are in, from their PIDs, in $tmp/run.cgroups.  B, TL, PY and tmp
# come from tap-lib.sh (TL may be THREADLAB_BIN); the script skips
# as a whole, naming what is missing, when threadlab, python3 or omp-steps
# is not there.
. "$(dirname "${BASH_SOURCE[0]}")/tap-jobs.sh"
STEPS="$(cd "$B" && pwd)/tests/lib/omp-steps"
jobs_need "$STEPS"
# left [FILE]: processes of the test program still alive (zombies do not
# count), of the runs that wrote FILE (default: OMP_STEPS_PIDS).
export OMP_STEPS_PIDS="$tmp/steps.pids"
# (In bash, no program run: sweep looks five times a second.)
left() {
	local p
	declare -A seen=()
	{ while read -r p; do
		[ -n "$p" ] && [ -z "${seen[$p]:-}" ] || continue
		seen[$p]=1
		alive "$p" && [ "/proc/$p/exe" -ef "$STEPS" ] && echo "$p"
	done <"${1:-$OMP_STEPS_PIDS}"; } 2>/dev/null
}
# wait_gone TENTHS [FILE]: until no test program (of FILE's runs) is left.
wait_gone() { until_none "$1" left "${2:-}" >/dev/null; }
# cleanup (tap-lib calls it at exit): every run of the test program killed.
cleanup() {
	local f
	for f in "$OMP_STEPS_PIDS" "$tmp"/steps-*.pids; do
		for p in $(left "$f"); do kill -9 "$p"; done
	done
}
# While it runs, the cgroups its runs are in (from their PIDs) are noted in
# $tmp/run.cgroups, so that what it made can be checked gone after.
sweep() { # NAME ARGS... (after --sweep)
	local name=$1 sp p
	shift
	limited 180 "$TL" --sweep "$@" >"$tmp/$name" 2>"$tmp/$name.err" &
	sp=$!
	local own c
	own=$(cg_of $$)
	while alive "$sp"; do
		for p in $(left); do
			c=$(cg_of "$p")
			[ -z "$c" ] || [ "$c" = "$own" ] || echo "$c"
		done >>"$tmp/run.cgroups"
		tap_sleep 0.2
	done
	wait "$sp"
}
