# tap-lib.sh — the one harness every shell test sources (bash); not run.
#
# A script sources it first, then says how many cases it has:
#
#   . "$(dirname "$0")/../lib/tap-lib.sh"
#   plan 12                 # prints "1..12" before any case
#   ok "what held"; notok "what failed" "detail" ...; skip "what" "why"
#   todo "what fails until work is done" "why"
#
# The plan comes first, so a script that ends early (an error, an exit, a
# signal) cannot lose its remaining cases: at exit every planned case not
# reported is one "not ok" naming where the script stopped, and a script that
# reports more cases than it planned fails too.  The exit status is the number
# of failures.  What the script starts is tracked by PID (spawn, track) and
# killed with its process group at exit; a script's own cleanup() function,
# when it defines one, runs first.  Nothing here finds processes or cgroups
# by name: a test touches only what it started.  The tmux server ($T), what
# its panes run and $tmp are the harness's to remove too: a script's
# cleanup() is only for what the harness cannot know (a mount, the PIDs a
# job wrote to a file).
#
# Skips are for a missing capability only (a package, root, a controller),
# never for a busy machine: retry a check a bounded number of times, then
# fail (retry).
[ -n "${BASH_VERSION:-}" ] || { echo "tap-lib.sh needs bash" >&2; exit 99; }
# Where the script has not set them (it sets one itself only to use it
# before sourcing this, or for another value): B, the build directory
# (THREADLAB_BUILDDIR); SRC, the source tree (THREADLAB_SRCDIR); TL, the
# threadlab under test (THREADLAB_BIN, else the build's); PY, Debian's
# python3 (a python3 first in PATH may be a shim that costs a second a
# start), else the one in PATH; tmp, a fresh directory, removed at exit
# (never one inherited from the environment: a parent's, which a test
# that exports tmp to its children would otherwise see removed).
: "${B:=${THREADLAB_BUILDDIR:-.}}"
: "${SRC:=${THREADLAB_SRCDIR:-.}}"
: "${TL:=${THREADLAB_BIN:-$B/threadlab}}"
: "${PY:=/usr/bin/python3}"
[ -x "$PY" ] || PY=python3
if [ -z "${tmp:-}" ] || [[ $(declare -p tmp) == "declare -x"* ]]; then
	tmp=$(mktemp -d)
	export -n tmp
fi
n=0
fails=0
tap_planned=""
tap_last="the start"
tap_pids=()
tap_cgroups=()

# plan N: prints the plan; call it once, before the first case.
plan() {
	tap_planned=$1
	echo "1..$1"
}
# skip_all WHY: the whole script cannot run here (instead of plan).
skip_all() {
	tap_planned=0
	echo "1..0 # SKIP $1"
	exit 0
}
# tap_took: after each case a comment with the seconds since the one before
# (or the plan), so a log shows which cases of a slow script take the time.
# (Counted in bash: on this project's virtual machines a fork and exec
# costs about 4 ms of CPU, and the harness's own commands ran thousands
# of times a suite.)
tap_mark=${EPOCHREALTIME//[!0-9]/}
tap_took() {
	local now=${EPOCHREALTIME//[!0-9]/} d
	d=$(((now - tap_mark + 50000) / 100000))
	echo "# case $n: $((d / 10)).$((d % 10)) s"
	tap_mark=$now
}
ok() { n=$((n + 1)); tap_last="case $n ($1)"; echo "ok $n - $1"; tap_took; }
# notok DESCRIPTION [DETAIL...]: each detail line becomes a "# " comment.
notok() {
	n=$((n + 1)); fails=$((fails + 1)); tap_last="case $n ($1)"; echo "not ok $n - $1"; shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done
	tap_took
}
# skip DESCRIPTION WHY: counted as skipped, with its reason shown.
skip() { n=$((n + 1)); tap_last="case $n ($1)"; echo "ok $n - $1 # SKIP $2"; tap_took; }
# todo DESCRIPTION WHY: a known failure the suite waits for ("not ok ... #
# TODO WHY"): reported, not counted as a failure.
todo() { n=$((n + 1)); tap_last="case $n ($1)"; echo "not ok $n - $1 # TODO $2"; }
# skip_rest WHY: every planned case not reported yet is skipped; exits.
skip_rest() {
	while [ "$n" -lt "${tap_planned:-0}" ]; do skip "case $((n + 1))" "$1"; done
	exit
}
# retry TRIES CMD...: CMD until it succeeds, at most TRIES times; for checks
# that noise from other work could flip.  Fails when every try failed.
retry() {
	local tap_tries=$1 tap_i
	shift
	for ((tap_i = 1; tap_i <= tap_tries; tap_i++)); do "$@" && return 0; done
	return 1
}

# ---- processes ----------------------------------------------------------------
# tap_orphan_kill: the words that run a program so that it is killed when
# the script dies (PR_SET_PDEATHSIG through util-linux's setpriv), even by
# SIGKILL, when no exit trap can run: a busy loop a test started must not
# outlive it.  The program must be started by the script's own shell (not
# from a subshell that ends first); its own children are the program's to
# stop (the test programs set it for theirs).
tap_orphan_kill=()
setpriv --pdeathsig KILL true 2>/dev/null && tap_orphan_kill=(setpriv --pdeathsig KILL)
# spawn CMD...: CMD in the background in its own session and process group
# (so its descendants can be stopped with it), killed when the script dies;
# its PID in $spawned, tracked.
spawned=""
spawn() {
	setsid "${tap_orphan_kill[@]}" "$@" &
	spawned=$!
	tap_pids+=("$spawned")
}
# track PID...: processes this script started another way, stopped at exit.
track() { tap_pids+=("$@"); }
# Whether PID runs (a zombie does not).
alive() {
	local st=""
	# the whole file (a name may hold spaces, parentheses, a newline); the
	# state follows the last ") "
	{ IFS= read -r -d '' st <"/proc/$1/stat"; } 2>/dev/null
	[ -n "$st" ] || return 1
	st=${st##*) }
	st=${st%% *}
	[ -n "$st" ] && [ "$st" != Z ]
}
# Whether PID has ended (gone, or a zombie).
ended() { ! alive "$1"; }
# Runs a command under a time limit (timeout's first argument); a timeout is
# exit status 124, which the caller reports as a failure.
limited() { timeout -k 5 "$@"; }
# Kills a background process (and its group, when it leads one) and reaps
# it, so bash's "Killed" notice does not land in a later command's stderr.
stop() {
	kill -9 -- "-$1" 2>/dev/null
	kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
# reap PID [SECONDS]: waits at most SECONDS (default 10) for a child to end,
# then kills it; its exit status in $reaped (137 when it had to be killed).
reaped=""
reap() {
	until_true $((${2:-10} * 10)) ended "$1" || { kill -9 -- "-$1" 2>/dev/null; kill -9 "$1" 2>/dev/null; }
	wait "$1" 2>/dev/null
	reaped=$?
}
# bg_start NAME CMD...: CMD in the background, for cases that may run side
# by side (no CPU shares compared): tracked, killed when the script dies
# (tap_orphan_kill), its output in $tmp/NAME and $tmp/NAME.err, its PID in
# bg_pid[NAME].  bg_end NAME [SECONDS] waits for it (at most SECONDS,
# default 120, then kills it), its exit status in $reaped.  A script
# starts its runs early and reports the cases in plan order as they end.
declare -A bg_pid=()
bg_start() {
	local name=$1
	shift
	"${tap_orphan_kill[@]}" "$@" >"$tmp/$name" 2>"$tmp/$name.err" &
	bg_pid[$name]=$!
	track "$!"
}
bg_end() { reap "${bg_pid[$1]}" "${2:-120}"; }
# ---- waiting ------------------------------------------------------------------
# Every wait of a test is one of these, bounded: until_true TENTHS CMD...
# polls CMD until it succeeds, at most TENTHS tenths of a second (counted in
# looks, so that a slow CMD makes the bound longer, never shorter); the looks
# are tap_every tenths apart, 1 unless the caller sets it for the call
# (tap_every=5 until_true 200 CMD, for a CMD that starts an interpreter or a
# client each time).  until_out TENTHS CMD... waits for CMD to print
# something (a PID, a URL) and prints it; until_none TENTHS CMD... waits for
# CMD to print nothing (what is left) and prints what it printed last when
# it never did.  Each fails when its time runs out.
until_true() {
	# tap_ names: the caller's CMD sees (and may set) the caller's variables
	local tap_i tap_t=$1 tap_e=${tap_every:-1}
	shift
	for ((tap_i = 0; tap_i < tap_t; tap_i += tap_e)); do
		"$@" && return 0
		tap_sleep "$((tap_e / 10)).$((tap_e % 10))"
	done
	"$@"
}
# tap_sleep SECONDS: sleep(1) without a fork: a read that times out on a
# FIFO of $tmp opened for reading and writing (so no writer ever comes and
# no end of file either), opened for that read only (no descriptor is
# left for the programs a test starts).  sleep(1) where there is no FIFO
# (a child bash that was given until_true and tap_sleep with export -f
# has none).
tap_fifo="$tmp/.tap-sleep"
mkfifo "$tap_fifo" 2>/dev/null || tap_fifo=""
tap_sleep() {
	if [ -n "${tap_fifo:-}" ] && [ -p "$tap_fifo" ]; then
		read -r -t "$1" <>"$tap_fifo" || :
		return 0
	fi
	sleep "$1"
}
tap_out=""
tap_some_out() { tap_out=$("$@"); [ -n "$tap_out" ]; }
tap_no_out() { tap_out=$("$@"); [ -z "$tap_out" ]; }
until_out() {
	local tap_tenths=$1
	shift
	until_true "$tap_tenths" tap_some_out "$@" && printf '%s\n' "$tap_out"
}
until_none() {
	local tap_tenths=$1
	shift
	until_true "$tap_tenths" tap_no_out "$@" && return 0
	printf '%s\n' "$tap_out"
	return 1
}
# gone PID...: every PID has exited within 3 s (a zombie counts as gone).
tap_all_ended() {
	local p
	for p in "$@"; do alive "$p" && return 1; done
	return 0
}
gone() { until_true 30 tap_all_ended "$@"; }
# session_left SID: the live processes of session SID (a test that started
# a program with spawn: what it left behind, found by that PID).
session_left() {
	local p
	for p in $(pgrep -s "$1"); do alive "$p" && echo "$p $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"; done
}
# descendants PID: every process below PID, depth first.
descendants() {
	local c
	for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done
}

# ---- cgroups ------------------------------------------------------------------
# Kills what is left in the cgroup directory $1 and removes it, children
# first (the kernel lets a cgroup go a moment after its last task is reaped).
cg_remove() {
	[ -n "$1" ] && [ -d "$1" ] || return 0
	local c
	for c in "$1"/*/; do [ -d "$c" ] && [ -f "$c/cgroup.procs" ] && cg_remove "${c%/}"; done
	for p in $(cat "$1/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	until_true 50 rmdir "$1" 2>/dev/null
}
# cg_track DIR: a cgroup this script made (or one holding a process it
# started), removed at exit.
cg_track() { [ -n "$1" ] && tap_cgroups+=("$1"); }
# cg_of PID: the directory of PID's cpu cgroup (v1 cpu controller, else the
# unified hierarchy); empty when it has none.
cg_of() { # (read in bash: tests call it in loops)
	local line path="" v2="" m
	{ while IFS= read -r line; do
		if [ -z "$path" ] && [[ $line =~ ^[0-9]+:([^:]*,)?cpu(,[^:]*)?: ]]; then
			path=${line#*:*:}
		elif [[ $line == 0::* ]]; then
			v2=${line#0::}
		fi
	done <"/proc/$1/cgroup"; } 2>/dev/null
	if [ -n "$path" ]; then
		for m in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
			[ -d "$m$path" ] && { echo "$m$path"; return; }
		done
	fi
	[ -n "$v2" ] && [ -d "/sys/fs/cgroup$v2" ] && echo "/sys/fs/cgroup$v2"
}
# cg_make NAME: a child cgroup of the cpu controller's root for this script
# (v1 cpu, else v2 with +cpu enabled), tl-test-NAME-PID; its directory in
# $cg_dir, tracked.  Fails when none can be made.
cg_dir=""
cg_make() {
	cg_dir=""
	local m d
	for m in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
		[ -f "$m/cpu.cfs_quota_us" ] || continue
		d="$m/tl-test-$1-$$"
		mkdir "$d" 2>/dev/null && { cg_dir=$d; cg_track "$d"; return 0; }
	done
	if grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control ||
			echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
		d="/sys/fs/cgroup/tl-test-$1-$$"
		mkdir "$d" 2>/dev/null && { cg_dir=$d; cg_track "$d"; return 0; }
	fi
	return 1
}
# cg_quota DIR QUOTA_US PERIOD_US: the cgroup's CPU quota, v1 or v2.
cg_quota() {
	if [ -f "$1/cpu.cfs_quota_us" ]; then
		echo "$3" >"$1/cpu.cfs_period_us" && echo "$2" >"$1/cpu.cfs_quota_us"
	else
		echo "$2 $3" >"$1/cpu.max"
	fi
}
# cg_throttled_ns DIR: cpu.stat's throttled time, ns (v1 ns, v2 µs).
cg_throttled_ns() {
	awk '$1 == "throttled_time" { print $2 } $1 == "throttled_usec" { print $2 * 1000 }' "$1/cpu.stat"
}
# lab_cgroup PID: the quota cgroup of threadlab PID's lab, found from its
# anchor's PID (the cgroup that holds the anchor when that is not
# threadlab's own; on v2 the parent of its "work" leaf).  Empty when none.
# Prints only: the caller tracks it (cg_track), a $(...) cannot.
lab_cgroup() {
	local a d
	a=$(pgrep -P "$1" -x tl-anchor | head -n1)
	[ -n "$a" ] || return 0
	d=$(cg_of "$a")
	[ -n "$d" ] && [ "$d" != "$(cg_of "$1")" ] || return 0
	[ "${d##*/}" = work ] && d=${d%/work}
	echo "$d"
}
# Whether this machine can put a CPU quota on a child cgroup: root, and a
# cpu controller (v1 cpu's cpu.cfs_quota_us writable, or "cpu" among
# cgroup v2's controllers), as tl_quota_capable in tl-test.h.  That is the
# capability; a child cgroup with a quota is then tried, and when root has
# the controller and the try fails, the answer is still yes (a comment says
# so): the test goes on and fails where it uses the cgroup instead of
# skipping.  Sets quota_why when it cannot.
quota_capable() {
	quota_why=""
	if [ "$(id -u)" != 0 ]; then
		quota_why="not root: no child cgroup can be made"
		return 1
	fi
	if ! [ -w /sys/fs/cgroup/cpu/cpu.cfs_quota_us ] &&
		! [ -w /sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us ] &&
		! grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		quota_why="no writable cpu controller (cgroup v1 cpu or v2 cpu) on this machine"
		return 1
	fi
	if cg_make probe && cg_quota "$cg_dir" 50000 100000 2>/dev/null; then
		rmdir "$cg_dir"
		return 0
	fi
	[ -n "$cg_dir" ] && rmdir "$cg_dir"
	echo "# quota_capable: root with a cpu controller, yet no child cgroup with a quota could be made: what needs one fails"
	return 0
}

# ---- tmux ---------------------------------------------------------------------
# The sourcing script sets tmp and calls tmux_socket or need_tmux, which set
# T (its tmux command line, a private -L socket); the server is killed at
# exit.  tmux_socket NAME: T on the socket tl-NAME-PID, for a script that
# runs without tmux too (tmux_installed says whether it can).  need_tmux NAME
# [PROGRAM...]: the same for a script that cannot: it skips whole, naming
# what is missing, without tmux, or when threadlab ($TL) or a PROGRAM (a
# path) is not built.
tmux_socket() { T="tmux -u -L tl-$1-$$ -f /dev/null"; }
tmux_installed() { command -v tmux >/dev/null; }
need_tmux() {
	local p missing=()
	tmux_socket "$1"
	shift
	tmux_installed || skip_all "tmux is not installed (Debian package tmux)"
	for p in "$TL" "$@"; do [ -x "$p" ] || missing+=("$p"); done
	[ ${#missing[@]} = 0 ] || skip_all "${missing[*]} not built"
}
# tap_file_has [-F] FILE ERE: a line of FILE matches ERE, or holds the
# string with -F (grep -Eq, grep -Fq, without a fork, for waits that look
# many times: bash's =~ is POSIX ERE through regcomp, as grep's).
tap_file_has() {
	local tap_l tap_fixed=""
	[ "$1" = -F ] && { tap_fixed=1; shift; }
	while IFS= read -r tap_l || [ -n "$tap_l" ]; do
		if [ -n "$tap_fixed" ]; then
			[[ $tap_l == *"$2"* ]] && return 0
		else
			[[ $tap_l =~ $2 ]] && return 0
		fi
	done <"$1"
	return 1
} 2>/dev/null
# pane TARGET prints the pane; wait_pane TARGET ERE TENTHS polls it until
# ERE matches (the last capture stays in $tmp/pane).  A wait that runs out
# says so in a TAP comment: a pattern that can never match (tmux trims
# trailing spaces) shows up there, not only as a slow suite.
pane() { $T capture-pane -p -t "$1" 2>/dev/null; }
tap_pane_has() { pane "$1" >"$tmp/pane" && tap_file_has "$tmp/pane" "$2"; }
tap_pane_shows() { pane "$1" >"$tmp/pane" && tap_file_has -F "$tmp/pane" "$2"; }
wait_pane() {
	until_true "$3" tap_pane_has "$1" "$2" && return 0
	echo "# wait_pane $1 '$2': not seen within $3 tenths of a second" >&2
	return 1
}
# pane_pid TARGET: the PID of the pane's own process (its shell, or what
# the shell's exec made of it); pane_proc TARGET NAME: the PID of the
# process NAME, the pane's own (exec) or one its shell started.
pane_pid() { $T display-message -p -t "$1" '#{pane_pid}' 2>/dev/null; }
pane_proc() {
	local pp
	pp=$(pane_pid "$1")
	[ -n "$pp" ] || return 1
	{ [ "$(cat "/proc/$pp/comm" 2>/dev/null)" = "$2" ] && echo "$pp"; } || pgrep -P "$pp" -x "$2" | head -n1
}
# no_session NAME: the tmux session NAME is gone (what it ran has ended).
no_session() { ! $T has-session -t "$1" 2>/dev/null; }

# ---- the end ------------------------------------------------------------------
tap_end() {
	local st=$? p c
	trap - EXIT
	set +eu
	declare -F cleanup >/dev/null && cleanup
	# tmux: what the panes run (and what that started) is stopped by PID
	# after the server.
	local below=()
	if [ -n "${T:-}" ]; then
		for p in $($T list-panes -a -F '#{pane_pid}' 2>/dev/null); do
			below+=("$p" $(descendants "$p"))
		done
		$T kill-server 2>/dev/null
		# tmux leaves its socket file behind after kill-server
		local sock
		sock=$(printf '%s\n' "$T" | sed -n 's/.* -L \([^ ]*\).*/\1/p')
		[ -n "$sock" ] && rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
	fi
	for p in "${below[@]}"; do kill -9 "$p" 2>/dev/null; done
	for p in "${tap_pids[@]}"; do
		[ -n "$p" ] || continue
		kill -9 -- "-$p" 2>/dev/null
		kill -9 "$p" 2>/dev/null
	done
	# reaped, so that a cgroup they ran in is empty when it is removed
	for p in "${tap_pids[@]}"; do [ -n "$p" ] && wait "$p" 2>/dev/null; done
	# out of the heavy cgroup (prio_make), so that it can go
	[ -n "${prio_home:-}" ] && echo $$ >"$prio_home/cgroup.procs" 2>/dev/null
	for c in "${tap_cgroups[@]}"; do cg_remove "$c"; done
	[ -n "${tmp:-}" ] && [ -d "$tmp" ] && rm -rf "$tmp"
	if [ -z "$tap_planned" ]; then
		notok "the script printed no plan (tap-lib.sh: call plan N first)"
		echo "1..$n"
	elif [ "$n" -lt "$tap_planned" ]; then
		local why="the script ended early (status $st) after $tap_last"
		while [ "$n" -lt "$tap_planned" ]; do notok "case $((n + 1)) did not run: $why"; done
	elif [ "$n" -gt "$tap_planned" ]; then
		echo "# $n cases ran, $tap_planned were planned"
		fails=$((fails + 1))
	fi
	exit $((fails > 125 ? 125 : fails))
}
trap tap_end EXIT
trap 'exit 1' INT TERM HUP

# ---- a heavy cgroup -------------------------------------------------------------
# A cpu cgroup of high weight for the programs a test judges, so that the
# other load of a shared machine takes little from them (autogroups make
# nice count only within a session): prio_make creates it (prio_cg, its
# path, tracked; empty and 1 when not root or no writable cpu controller),
# prio_run CMD... execs CMD inside it (it replaces the shell that runs it:
# call it in the background, "prio_run CMD &", so that $! is CMD's pid;
# CMD is killed when the script dies),
# prio_do CMD... runs CMD inside it in the foreground (threadlab itself, so
# that the programs it judges do not starve it of the CPU it samples with).
# The script itself moves into it too (and back out at exit, so that it can
# be removed): outside, its own checks (python3, awk) would get almost no
# CPU beside busy programs of that weight; a json_check took 9 s that way.
# prio_make --alone leaves the script where it is: for a test that runs
# beside others (not a CPU-share test) and only wants the programs whose
# timing it judges (an exporter, Prometheus) to get the CPU promptly, not
# its load generators.
prio_cg=""
prio_home=""
prio_make() {
	local stay=""
	[ "${1:-}" = --alone ] && stay=1
	prio_cg=""
	[ "$(id -u)" = 0 ] || return 1
	local d
	for d in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
		if [ -w "$d/cgroup.procs" ] && [ -e "$d/cpu.shares" ] && mkdir "$d/tl-prio-$$" 2>/dev/null; then
			cg_track "$d/tl-prio-$$"
			echo 262144 >"$d/tl-prio-$$/cpu.shares" && prio_cg="$d/tl-prio-$$" && break
		fi
	done
	if [ -z "$prio_cg" ] && grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null &&
		mkdir /sys/fs/cgroup/tl-prio-$$ 2>/dev/null; then
		cg_track /sys/fs/cgroup/tl-prio-$$
		echo 10000 >/sys/fs/cgroup/tl-prio-$$/cpu.weight && prio_cg=/sys/fs/cgroup/tl-prio-$$
	fi
	[ -n "$prio_cg" ] || return 1
	[ -z "$stay" ] || return 0
	prio_home=$(cg_of $$)
	[ -n "$prio_home" ] && echo $$ >"$prio_cg/cgroup.procs" 2>/dev/null || prio_home=""
	return 0
}
prio_run() {
	if [ -n "$prio_cg" ]; then
		exec "${tap_orphan_kill[@]}" sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$prio_cg" "$@"
	fi
	exec "${tap_orphan_kill[@]}" "$@"
}
prio_do() {
	if [ -n "$prio_cg" ]; then
		sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$prio_cg" "$@"
	else
		"$@"
	fi
}
