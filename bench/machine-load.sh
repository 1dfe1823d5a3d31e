# machine-load.sh — sourced by the whole-machine benchmarks (all-cost.sh,
# all-keys.sh): the box of issue 19, PROCS copies of bench/threads-target
# of THREADS sleeping threads each (the main thread included) and 4 busy
# loops (a shell loop each), every one of them killed when the script
# dies (parent-death signals) and stopped by load_stop.
#
# load_start PROCS THREADS: starts the load and waits (60 s at most) until
# every thread runs; exits the script with a message when it cannot.
# load_stop: stops it.  alive PID, stop PID..., procs_now, threads_now and
# ticks PID (utime + stime of the whole process, clock ticks) are for the
# scripts too.  Needs $B (the build directory) and $tmp (a directory).
load_targets=() load_busy=()
load_busy_n=4
orphan="setpriv --pdeathsig KILL --"
alive() { # PID runs (not a zombie): no fork, cheap for 300 PIDs
	local s
	{ read -r s </proc/"$1"/stat; } 2>/dev/null || return 1
	s=${s##*) }
	[ "${s%% *}" != Z ]
}
# stop PID...: SIGTERM, up to 2 s, then SIGKILL; reaps them.
stop() {
	local p i left=0
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
procs_now() { ls -d /proc/[0-9]* 2>/dev/null | wc -l; }
threads_now() { ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null | wc -l; }
ticks() {
	local s
	{ read -r s </proc/"$1"/stat; } 2>/dev/null || return 1
	alive "$1" || return 1
	set -- ${s##*) } # the fields after the name: state is $1, utime $12
	echo $((${12} + ${13}))
}
load_start() {
	local nprocs=$1 nthreads=$2 i deadline target="$B/bench/threads-target"
	command -v setpriv >/dev/null || { echo "machine-load: setpriv is needed" >&2; exit 2; }
	[ -x "$target" ] || { echo "machine-load: $target not built (make bench)" >&2; exit 2; }
	[ "$nthreads" -ge 2 ] || { echo "machine-load: THREADS must be 2 or more" >&2; exit 2; }
	for i in $(seq "$nprocs"); do
		"$target" $((nthreads - 1)) >"$tmp/t.$i" 2>"$tmp/t.$i.err" &
		load_targets+=($!)
	done
	for i in $(seq "$load_busy_n"); do
		$orphan sh -c 'while :; do :; done' &
		load_busy+=($!)
	done
	deadline=$((SECONDS + 60))
	for i in $(seq "$nprocs"); do
		while [ ! -s "$tmp/t.$i" ]; do
			[ "$SECONDS" -lt "$deadline" ] || { echo "machine-load: the targets did not start" >&2; exit 1; }
			alive "${load_targets[i - 1]}" || { echo "machine-load: target $i: $(cat "$tmp/t.$i.err")" >&2; exit 1; }
			sleep 0.05
		done
	done
}
load_stop() {
	stop "${load_busy[@]}" "${load_targets[@]}"
	load_targets=() load_busy=()
}
