#!/bin/bash
# test-hostile-cgroups.sh — cgroups that used to fool threadlab, end to
# end: a threadlab in a PID namespace (its pid no host process) keeps its
# quota cgroup when a host threadlab starts, and gets it back, quota and
# all, when the cgroup is removed from outside; a parent cgroup with a
# tighter quota than the lab's is where throttling is read, and named.
# Needs root and the cgroup v1 cpu controller (or v2 "cpu" for the
# namespace cases); skipped, with the reason, without.  The parent-quota
# runs sample while the namespace cases run.  Prints TAP, its plan first.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"

plan 4

capable=1
quota_capable || capable=0

# ---- 4 (started first): throttling read where the quota binds ------------------
# A parent cgroup of 0.1 CPUs around labs that ask for 1.5: the parent
# binds, and its cpu.stat counts the throttling (the lab's own counts none:
# it never runs out of its own quota).  The figures must be the parent's,
# whatever other work on the machine leaves the lab (a busy box may keep
# even 0.1 CPUs from binding).  v1 refuses a child quota above its
# parent's, so each lab's 1.5 is refused as it is under 0.1; the parent
# holds 0.5 CPUs until both labs printed a sample (at 0.1 their start took
# ten seconds and more), then 0.1, and only the samples after that count.
# The JSON and the text run side by side in it, at nice -10: inside the
# parent their sampling then comes before the labs they watch (the labs'
# cgroups weigh as one nice-0 task each), instead of waiting seconds for a
# share of 0.1 CPUs.
anc=""
if [ $capable = 1 ] && [ -w /sys/fs/cgroup/cpu/cgroup.procs ]; then
	anc=/sys/fs/cgroup/cpu/tl-hostile-anc-$$
	anc_why=""
	mkdir "$anc" && cg_track "$anc" && echo 100000 >"$anc/cpu.cfs_period_us" &&
		echo 50000 >"$anc/cpu.cfs_quota_us" || anc_why="cannot make $anc with a quota"
	thr0=$(awk '$1 == "nr_throttled" { print $2 }' "$anc/cpu.stat")
	(
		echo $BASHPID >"$anc/cgroup.procs"
		exec nice -n -10 timeout -k 5 120 "$TL" --batch --cpus 1.5 --threads 2 --size 256 -i 0.5 --format json
	) >"$tmp/anc.json" 2>"$tmp/anc.err" &
	anc_json=$!
	(
		echo $BASHPID >"$anc/cgroup.procs"
		exec nice -n -10 timeout -k 5 120 "$TL" --batch --cpus 1.5 --threads 2 --size 256 -i 0.5
	) >"$tmp/anc.txt" 2>&1 &
	anc_text=$!
	track $anc_json $anc_text
	# anc_samples JSON TEXT: both runs printed at least JSON and TEXT samples
	# (a text sample opens with its time).
	text_samples() { grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' "$1"; }
	anc_samples() {
		[ "$(wc -l <"$tmp/anc.json")" -ge "$1" ] && [ "$(text_samples "$tmp/anc.txt")" -ge "$2" ]
	}
	until_true 600 anc_samples 1 1
	echo 10000 >"$anc/cpu.cfs_quota_us" || anc_why="cannot lower the quota of $anc to 0.1 CPUs"
	# the samples printed so far, and the one under way, do not count
	anc_json_from=$(($(wc -l <"$tmp/anc.json") + 1))
	anc_text_from=$(($(text_samples "$tmp/anc.txt") + 1))
fi

# ---- 1-3: a threadlab in a PID namespace keeps its quota cgroup ----------------
# The namespaced threadlab gets a pid that is no process on the host (set
# through ns_last_pid), as the one that lost its workload had.  Both it and
# the host threadlab run in a cgroup of this test's own (tcg), so that
# their lab cgroups are nested in it, out of sight of the stale-cgroup
# cleanup of any other threadlab on this machine.
# ns_cleanup: SIGTERM to the namespaced threadlab itself (unshare does not
# pass it on, and the namespace's init, a shell, would ignore it), then
# what is left is killed.
ns_cleanup() {
	local p
	for p in $(descendants "$ns_u"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = threadlab ] && kill -TERM "$p"
	done
	reap "$ns_u" 10
	for d in "$tcg"/threadlab-*; do cg_remove "$d"; done
	cg_remove "$tcg"
}
if [ $capable = 0 ]; then
	for what in "a namespaced threadlab's cgroup survives a host threadlab's start" \
		"its workload is still under its quota" "its cgroup removed from outside: made again, quota kept"; do
		skip "$what" "$quota_why"
	done
elif ! command -v unshare >/dev/null; then
	for what in 1 2 3; do skip "PID namespace case $what" "unshare is needed (Debian package util-linux)"; done
else
	want=""
	max=$(cat /proc/sys/kernel/pid_max)
	for c in $(shuf -i $((max / 2))-$((max - 2)) -n 50); do
		[ -e "/proc/$c" ] || [ -e "/proc/$((c - 1))" ] || { want=$c; break; }
	done
	tcg=""
	for m in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct /sys/fs/cgroup; do
		[ -w "$m/cgroup.procs" ] && mkdir "$m/tl-hostile-$$" 2>/dev/null && tcg="$m/tl-hostile-$$" && break
	done
	[ -f "$tcg/cgroup.subtree_control" ] && echo +cpu >"$tcg/cgroup.subtree_control" 2>/dev/null
	(
		echo $BASHPID >"$tcg/cgroup.procs"
		exec unshare --pid --fork --kill-child --mount-proc sh -c "echo $((want - 1)) >/proc/sys/kernel/ns_last_pid; \
			$TL --batch --cpus 0.5 --size 256 -i 0.5 --format json; true"
	) >"$tmp/ns.out" 2>"$tmp/ns.err" &
	ns_u=$!
	track $ns_u
	cg="$tcg/threadlab-$want"
	until_true 300 grep -qs . "$cg/cgroup.procs"
	if ! grep -q . "$cg/cgroup.procs" 2>/dev/null; then
		notok "a namespaced threadlab's cgroup survives a host threadlab's start" "no cgroup threadlab-$want" "$(cat "$tmp/ns.err")"
		skip "its workload is still under its quota" "no cgroup to check"
		skip "its cgroup removed from outside: made again, quota kept" "no cgroup to check"
	else
		# its lab is up when it printed a sample: only then is the set of
		# its cgroup's processes settled (a slow start moved its helper in
		# after the first look, once)
		until_true 300 grep -q . "$tmp/ns.out"
		before=$(sort "$cg/cgroup.procs" | tr '\n' ' ')
		(
			echo $BASHPID >"$tcg/cgroup.procs"
			exec timeout -k 5 60 "$TL" --batch -c 2 -i 0.3 --cpus 1 --size 256
		) >/dev/null 2>"$tmp/host.err"
		if [ -d "$cg" ] && [ "$(sort "$cg/cgroup.procs" | tr '\n' ' ')" = "$before" ]; then
			ok "a namespaced threadlab's cgroup threadlab-$want (no such host pid) survives a host threadlab's start"
		else
			notok "namespaced cgroup after a host start" "$cg: $(ls "$cg" 2>&1 | head -3)" "before: $before" "$(cat "$tmp/host.err")"
		fi
		# two samples more since the host threadlab ended: the last one is
		# wholly after its start
		ns_samples() { [ "$(wc -l <"$tmp/ns.out")" -ge "$1" ]; }
		until_true 300 ns_samples $(($(wc -l <"$tmp/ns.out") + 2))
		if [ "$(cat "$cg/cpu.cfs_quota_us" 2>/dev/null)" = 50000 ] &&
			tail -n 1 "$tmp/ns.out" | "$PY" -c '
import json, sys
s = json.loads(sys.stdin.readline())
assert s["budget"]["quota"] == 0.5 and not s["workload"].get("error"), (s["budget"], s["workload"].get("error"))
' 2>"$tmp/py"; then
			ok "its workload is still under its 0.5-CPU quota, no error in its samples"
		else
			notok "namespaced quota kept" "$(cat "$tmp/py")" "$(cat "$cg/cpu.cfs_quota_us" 2>&1)"
		fi
		# What a threadlab that judged by pid alone did: its cgroup removed,
		# its anchor killed.  The restarted workload is put under the quota
		# again, in a cgroup made anew.
		anchor=""
		for p in $(cat "$cg/cgroup.procs"); do
			[ "$(cat "/proc/$p/comm" 2>/dev/null)" = tl-anchor ] && anchor=$p
			echo "$p" >"$tcg/cgroup.procs"
		done
		rmdir "$cg"
		[ -n "$anchor" ] && kill -9 "$anchor"
		# Two events, in either order on a loaded box: the cgroup made
		# again with the workload in it, and the restart said.
		again=""
		remade() {
			again=$(find "$tcg" -maxdepth 1 -name "threadlab-$want*" | head -n1)
			[ -n "$again" ] && grep -q . "$again/cgroup.procs" 2>/dev/null &&
				grep -q 'restarted the workload' "$tmp/ns.err"
		}
		until_true 300 remade
		if [ -n "$again" ] && [ "$(cat "$again/cpu.cfs_quota_us")" = 50000 ] && grep -q . "$again/cgroup.procs" 2>/dev/null &&
			grep -q 'restarted the workload' "$tmp/ns.err"; then
			ok "its cgroup removed from outside and its anchor killed: the workload is in a new one, under 0.5 CPUs again"
		else
			notok "quota after the cgroup was removed" "again='$again'" "$(tail -n 3 "$tmp/ns.err")"
		fi
	fi
	ns_cleanup
fi

# ---- 4: throttling read where the quota binds (the runs started above) --------
if [ -n "$anc" ]; then
	# four JSON samples and two text ones wholly under 0.1 CPUs
	until_true 600 anc_samples $((anc_json_from + 4)) $((anc_text_from + 2))
	# the samples wholly under 0.1 CPUs: those out before the quota goes
	# back to 0.5 (at 0.1 the two sanitizer builds took seconds to exit)
	anc_json_to=$(wc -l <"$tmp/anc.json")
	anc_text_to=$(($(text_samples "$tmp/anc.txt") - 1))
	echo 50000 >"$anc/cpu.cfs_quota_us"
	kill -TERM $anc_json $anc_text
	reap $anc_json 20
	reap $anc_text 20
	thr1=$(awk '$1 == "nr_throttled" { print $2 }' "$anc/cpu.stat")
	if [ -z "$anc_why" ] && "$PY" -c '
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][int(sys.argv[5]):int(sys.argv[6])]
name, t0, t1 = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
assert len(s) >= 4, "%d samples under 0.1 CPUs" % len(s)
for x in s:
    b, c = x["budget"], x["cgroup"]
    assert b["binding"] == "quota" and abs(b["quota"] - 0.1) < 1e-6, b
    assert c["throttled_in"] == name and c["stat_dir"].endswith(name), c
    assert t0 <= c["nr_throttled"] <= t1, (t0, c["nr_throttled"], t1)
# the parent throttled in those samples: their figures say so
if s[-1]["cgroup"]["nr_throttled"] > s[0]["cgroup"]["nr_throttled"]:
    assert max(x["cgroup"]["throttled_pct"] for x in s[1:]) > 0, [x["cgroup"] for x in s]
print("%d periods throttled in the parent during the run" % (t1 - t0))
' "$tmp/anc.json" "/tl-hostile-anc-$$" "$thr0" "$thr1" "$anc_json_from" "$anc_json_to" >"$tmp/py" 2>&1 &&
		awk -v from="$anc_text_from" -v to="$anc_text_to" \
			'/^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T/ { n++ } n > from && n <= to' "$tmp/anc.txt" |
		grep -q "throttled .* in /tl-hostile-anc-$$"; then
		ok "a 0.1-CPU parent around a 1.5-CPU lab: throttling read in the parent and named ($(cat "$tmp/py"))"
	else
		notok "throttling from the binding ancestor" "$anc_why" "$(cat "$tmp/py")" "$(grep throttled "$tmp/anc.txt" | tail -n 2)"
	fi
	for d in "$anc"/threadlab-*; do cg_remove "$d"; done
	cg_remove "$anc"
else
	skip "throttling from the binding ancestor" "${quota_why:-no writable cgroup v1 cpu controller}"
fi
