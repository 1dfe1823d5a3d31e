# tap-lib.sh — the TAP helpers the shell tests share; sourced, not run.
# The sourcing script sets n=0 and fails=0, prints its plan ("1..$n") at the
# end and exits with the failure count.
ok() { n=$((n + 1)); echo "ok $n - $1"; }
# notok DESCRIPTION [DETAIL...]: each detail line becomes a "# " comment.
notok() {
	n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done
}
# skip DESCRIPTION WHY: counted as skipped, with its reason shown.
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# Runs a command under a time limit (timeout's first argument); a timeout is
# exit status 124, which the caller reports as a failure.
limited() { timeout -k 5 "$@"; }
# Kills a background process and reaps it, so bash's "Killed" notice does
# not land in the stderr of a later command.
stop() { kill -9 "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
# Kills what is left in the cgroup directory $1 and removes it (the kernel
# lets a cgroup go a moment after its last task is reaped).
cg_remove() {
	[ -n "$1" ] && [ -d "$1" ] || return 0
	for p in $(cat "$1/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	for _ in $(seq 50); do rmdir "$1" 2>/dev/null && break; sleep 0.1; done
}
# Whether this machine can put a CPU quota on a child cgroup (root and a
# writable cpu controller, v1 or v2); when it can, a test that finds no
# quota cgroup fails instead of skipping.  Sets quota_why when it cannot.
quota_capable() {
	quota_why=""
	if [ "$(id -u)" != 0 ]; then
		quota_why="not root: no child cgroup can be made"
		return 1
	fi
	[ -w /sys/fs/cgroup/cpu/cpu.cfs_quota_us ] || [ -w /sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us ] && return 0
	grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null && return 0
	quota_why="no writable cpu controller (cgroup v1 cpu or v2 cpu) on this machine"
	return 1
}
# tmux: the sourcing script sets T (its tmux command line) and tmp.
# pane TARGET prints the pane; wait_pane TARGET ERE TENTHS polls it until
# ERE matches (the last capture stays in $tmp/pane).
pane() { $T capture-pane -p -t "$1" 2>/dev/null; }
wait_pane() {
	local i=0
	while [ "$i" -lt "$3" ]; do
		pane "$1" >"$tmp/pane" && grep -Eq -- "$2" "$tmp/pane" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	pane "$1" >"$tmp/pane"
	return 1
}
# gone PID...: every PID has exited within 3 s (a zombie counts as gone).
gone() {
	for _ in $(seq 30); do
		local alive=0
		for p in "$@"; do
			st=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)
			[ -n "$st" ] && [ "$st" != Z ] && alive=1
		done
		[ $alive = 0 ] && return 0
		sleep 0.1
	done
	return 1
}
# A cpu cgroup of high weight for the programs a test judges, so that the
# other load of a shared machine takes little from them (autogroups make
# nice count only within a session): prio_make creates it (prio_cg, its
# path; empty and 1 when not root or no writable cpu controller),
# prio_run CMD... execs CMD inside it (it replaces the shell that runs it:
# call it in the background, "prio_run CMD &", so that $! is CMD's pid),
# prio_remove removes it (call it from the cleanup trap).
prio_make() {
	prio_cg=""
	[ "$(id -u)" = 0 ] || return 1
	local d
	for d in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
		if [ -w "$d/cgroup.procs" ] && [ -e "$d/cpu.shares" ]; then
			mkdir "$d/tl-prio-$$" 2>/dev/null && echo 262144 >"$d/tl-prio-$$/cpu.shares" &&
				prio_cg="$d/tl-prio-$$" && return 0
		fi
	done
	if grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null &&
		mkdir /sys/fs/cgroup/tl-prio-$$ 2>/dev/null; then
		echo 10000 >/sys/fs/cgroup/tl-prio-$$/cpu.weight && prio_cg=/sys/fs/cgroup/tl-prio-$$ &&
			return 0
	fi
	return 1
}
prio_run() {
	if [ -n "${prio_cg:-}" ]; then
		exec sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$prio_cg" "$@"
	fi
	exec "$@"
}
# prio_do CMD...: CMD inside it, in the foreground (threadlab itself, so
# that the programs it judges do not starve it of the CPU it samples with).
prio_do() {
	if [ -n "${prio_cg:-}" ]; then
		sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$prio_cg" "$@"
	else
		"$@"
	fi
}
prio_remove() { cg_remove "${prio_cg:-}"; }
