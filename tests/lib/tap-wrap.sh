#!/bin/sh
# Runs one test program under a time limit and passes its TAP on.
#
# - cmocka prints a skipped test as "not ok N # SKIP", which TAP harnesses
#   (automake's among them) count as a failure; TAP says "ok N # SKIP".
# - Every program runs under timeout(1): THREADLAB_TEST_TIMEOUT seconds
#   (default 600: test-hostile.sh, before its split into test-hostile-*.sh,
#   76 s on a quiet box, reached 300 on a loaded one).  A program that hangs, or dies of a signal (a crash, an
#   abort from a sanitizer), is one "not ok" line with its name and the
#   number of planned cases that did not run, and the plan is moved to the
#   end so the harness counts exactly that one failure.
# - With THREADLAB_TEST_LOCK (a file) set, the tests that share it take
#   that lock: a program named in THREADLAB_SERIAL_TESTS (space-separated
#   names; the few that measure CPU shares) takes it alone (flock -x), every
#   other program shared (flock -s), so a CPU-share test runs with no other
#   test beside it.  A turnstile (LOCK.turn) lets a waiting serial test in
#   before later shared ones; a serial test also waits for LOCK.build,
#   which every compiler holds shared (setup.sh check builds the Debian
#   package while the suite runs).  The wait is not part of the time limit.
# - The last line it adds is a comment "# NAME took N s, CPU M s": how long
#   the program ran, the wait for the lock not counted, and the CPU time of
#   everything it started (a cpuacct cgroup of its own where there is one,
#   else what the shell waited for).
prog="$1"; shift
limit=${THREADLAB_TEST_TIMEOUT:-600}
name=${prog##*/}
case "$prog" in
*.sh)
	# Run a script with the interpreter its #! line names (bash or sh).
	interp=$(sed -n '1s/^#! *//p' "$prog")
	# shellcheck disable=SC2086
	set -- ${interp:-/bin/sh} "$prog" "$@"
	;;
*) set -- "$prog" "$@" ;;
esac
if [ -n "${THREADLAB_TEST_LOCK:-}" ]; then
	exec 7>>"$THREADLAB_TEST_LOCK.build" 8>>"$THREADLAB_TEST_LOCK.turn" \
		9>>"$THREADLAB_TEST_LOCK" || exit 99
	how=-s
	case " ${THREADLAB_SERIAL_TESTS:-} " in *" $name "*) how=-x ;; esac
	if [ "$how" = -x ]; then flock -x 7 || exit 99; fi
	flock -x 8 && flock "$how" 9 && flock -u 8 || exit 99
	exec 8>&-
fi
began=$(date +%s)
# The CPU a test costs, its background programs included, where a cpuacct
# hierarchy of its own can hold it (cgroup v1): times(1) below counts only
# what the shell waited for.  Nothing the tests read is cpuacct.
# A wrapper killed by SIGKILL leaves its cgroup: an empty one whose
# wrapper is gone is removed here (rmdir refuses one that holds a process,
# so a wrapper of another PID namespace that shares the hierarchy keeps its
# own while its test runs).
acct=""
if [ -w /sys/fs/cgroup/cpuacct/cgroup.procs ]; then
	for stale in /sys/fs/cgroup/cpuacct/tl-suite-*; do
		[ -d "$stale" ] && [ ! -e "/proc/${stale##*-}" ] && rmdir "$stale" 2>/dev/null
	done
	acct=/sys/fs/cgroup/cpuacct/tl-suite-$$
	if mkdir "$acct" 2>/dev/null && echo $$ >"$acct/cgroup.procs" 2>/dev/null; then :; else
		rmdir "$acct" 2>/dev/null
		acct=""
	fi
fi
status_file=$(mktemp) || exit 99
count_file=$(mktemp) || exit 99
# Each test runs in a session of its own, so in an autogroup of its own:
# the CPU is shared between tests, not between their processes (a test
# that starts eight busy threads takes no more than one that starts one),
# and a thread a test lowers with nice (the fleet's matcher, nice +10)
# yields to its own test's threads only, as it would in a terminal of its
# own.  The session's leader writes its pid, so that an interrupted make
# stops the test's whole session.
session_file=$(mktemp) || exit 99
stop_session() {
	sid=$(cat "$session_file" 2>/dev/null)
	# (no "--": this runs under sh, whose kill takes none and then kills nothing)
	[ -n "$sid" ] && kill -TERM "-$sid" 2>/dev/null
	exit 130
}
trap stop_session INT TERM HUP
{
	setsid -w sh -c 'echo $$ >"$0"; exec "$@"' "$session_file" timeout -k 10 "$limit" "$@" 2>&1 7>&- 9>&-
	echo $? >"$status_file"
	# What the test left in its session once it ended (a child a failed
	# case did not stop) would hold this pipe open until it ended: said,
	# and killed.
	sid=$(cat "$session_file" 2>/dev/null)
	# (zombies are not running: a killed child whose new parent has not
	# reaped it yet is one)
	if [ -n "$sid" ] && left=$(ps -o pid=,stat= --sid "$sid" 2>/dev/null |
		awk '$2 !~ /^Z/ { printf "%s ", $1 }') && [ -n "$left" ]; then
		echo "# left running in its session when it ended, killed: $left"
		kill -KILL "-$sid" $left 2>/dev/null
	fi
} 7>&- 9>&- |
	sed -u 's/^not ok \([0-9][0-9]*\)\(.*\)# SKIP/ok \1\2# SKIP/' |
	awk -v out="$count_file" '
		/^1\.\.[0-9]+/ && !plan { plan = $0; next }
		/^(not )?ok/ { n++ }
		{ print; fflush() }
		END { printf "%d %s\n", n, plan > out }'
status=$(cat "$status_file")
read -r ran plan <"$count_file"
rm -f "$status_file" "$count_file" "$session_file"
# How long it ran (its wait for the lock not counted) and the CPU time
# (user and system) of everything it started and waited for: setup.sh check
# lists the slowest, and the suite's CPU, from these comments.  times(1) is
# the shell's own builtin; its second line is the children's times.
times >"$count_file.times"
cpu=$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] }; printf "%.1f", n }' "$count_file.times")
rm -f "$count_file.times"
if [ -n "$acct" ]; then
	cpu=$(awk '{ printf "%.1f", $1 / 1e9 }' "$acct/cpuacct.usage" 2>/dev/null)
	echo $$ >/sys/fs/cgroup/cpuacct/cgroup.procs
	for p in $(cat "$acct/cgroup.procs" 2>/dev/null); do echo "$p" >/sys/fs/cgroup/cpuacct/cgroup.procs; done
	rmdir "$acct" 2>/dev/null
fi
echo "# $name took $(($(date +%s) - began)) s, CPU ${cpu:-?} s"
planned=$(printf '%s\n' "$plan" | sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p')
why=""
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
	why="timed out after $limit s (THREADLAB_TEST_TIMEOUT)"
elif [ "$status" -gt 128 ] 2>/dev/null; then
	sig=$((status - 128))
	why="killed by signal $sig ($(kill -l "$sig" 2>/dev/null || echo '?'))"
fi
if [ -n "$why" ]; then
	left=""
	if [ -n "$planned" ] && [ "$planned" -gt "$ran" ]; then
		left="; $((planned - ran)) of $planned planned cases did not run"
	elif [ -z "$planned" ]; then
		left="; its plan was never printed (cases after the ${ran} shown did not run)"
	fi
	ran=$((ran + 1))
	echo "not ok $ran - $name $why$left"
	echo "1..$ran"
	exit 0
fi
[ -n "$plan" ] && echo "$plan"
exit "$status"
