#!/bin/bash
# test-all-churn.sh — threadlab --all --batch while processes come and go
# (issue 19): a busy child ranked while it runs is gone from the ranking
# once it is a zombie; 1,000 short processes started and ended during a
# run leave no row (none lives a whole interval), no error, and
# threadlab's descriptors one a live process (stat is held open) and its
# memory flat; a PID reused by another program
# (in a PID namespace of its own whose pid_max is lowered, so the machine's
# is never touched) is a new row: its name, its budget read again, no rate
# from the old process's counters.  Prints TAP.  The runs last until what
# their case needs is out (-c is only a bound), then end on SIGTERM.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
. "$(dirname "$0")/../lib/tap-jobs.sh"
OMP="$B/tests/lib/omp-busy"
jobs_need "$OMP"
plan 3

# has_lines FILE N: FILE has N lines or more.
has_lines() { [ "$(wc -l <"$1" 2>/dev/null)" -ge "$2" ]; }

# ---- a zombie --------------------------------------------------------------------
# The child spins until threadlab's first sample is out, then exits; its
# parent never reaps it.
start zp "$PY" -c '
import os, sys, time
p = os.fork()
if p == 0:
    end = time.time() + 30
    while time.time() < end and not (os.path.exists(sys.argv[1]) and os.path.getsize(sys.argv[1])):
        pass
    os._exit(0)
print("ready", p, flush=True)
time.sleep(60)
' "$tmp/z.json"
zombie=$(awk '/ready/ { print $2 }' "$tmp/start.zp")
bounded 30 "$TL" --all --batch -c 5 --format json >"$tmp/z.json" 2>"$tmp/z.err"
st=$?
zstate=$(awk '/^State:/ { print $2 }' "/proc/$zombie/status" 2>/dev/null)
if json_check "$tmp/z.json" "$st" "
assert st == 0, st
assert '$zstate' == 'Z', 'the child is not a zombie: $zstate'
seen = [i for i, l in enumerate(lines) if any(x['pid'] == $zombie for x in l['processes'])]
assert seen and seen[0] == 0, ('not ranked while it ran', seen)
assert len(lines) == 5 and seen[-1] < 3 and seen == list(range(len(seen))), ('a zombie row', seen)
" && [ ! -s "$tmp/z.err" ]; then
	ok "a busy child is ranked while it runs and gone once it is a zombie, with no error"
else
	notok "a zombie leaves the ranking" "$(cat "$tmp/err" "$tmp/z.err")"
fi
stop "$zp"

# ---- 1,000 short processes ---------------------------------------------------------
# A copy of sleep under a name of its own, run 1,000 times for 10 ms, 8 at
# a time (xargs: a fork of a small process each, not of a shell).  The run
# goes on (-c is a bound) until two samples follow the churn.
cp "$(command -v sleep)" "$tmp/tl-churn"
# AddressSanitizer holds freed blocks in its quarantine (256 MB by
# default), which RSS counts: 1 MB of it, and 4 MB more allowed, on that
# build; the bound is about leaks.
asan_kb=0
ldd "$TL" 2>/dev/null | grep -q libasan && asan_kb=4096
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1" \
	"${tap_orphan_kill[@]}" "$TL" --all --batch -i 1 -c 600 --format json >"$tmp/c.json" 2>"$tmp/c.err" &
tl=$!
track "$tl"
# The descriptors and memory of threadlab every 0.25 s, and the processes
# of the machine: "fds rss_kB processes" (read by the shell, no program
# started but sleep).  The machine reader holds each process's stat open
# (collectors/machine.c), so its descriptors follow the processes alive;
# what must stay flat is the difference.
(
	while kill -0 "$tl" 2>/dev/null; do
		fd=("/proc/$tl/fd/"*)
		r=""
		while read -r k v _; do [ "$k" = VmRSS: ] && r=$v; done 2>/dev/null <"/proc/$tl/status"
		ps=(/proc/[0-9]*)
		[ -n "$r" ] && [ -e "${fd[0]}" ] && echo "${#fd[@]} $r ${#ps[@]}"
		sleep 0.25
	done
) >"$tmp/c.res" &
watch=$!
track "$watch"
until_true 100 grep -q . "$tmp/c.json" # the first sample: the reader is warm
# The memory is compared between the first figures taken once the reader
# is warm and the last before threadlab is told to stop (at exit the leak
# check of a sanitizer build takes more; under load the 3rd figure came
# before the first sample).
warm_at=$(wc -l <"$tmp/c.res")
until_true 50 has_lines "$tmp/c.res" $((warm_at + 1))
started=$(date +%s%N)
yes 0.01 | head -n 1000 | xargs -P 8 -n 1 "$tmp/tl-churn"
churn_ms=$((($(date +%s%N) - started) / 1000000))
after=$(($(wc -l <"$tmp/c.json") + 2))
until_true 300 has_lines "$tmp/c.json" "$after" # two more samples after the churn
end_at=$(wc -l <"$tmp/c.res")
kill -TERM "$tl"
wait "$tl"
st=$?
wait "$watch" 2>/dev/null
if json_check "$tmp/c.json" "$st" "
assert st == 0, st
assert len(lines) >= 4, len(lines)
rows = [x for l in lines for x in l['processes'] if x['name'] == 'tl-churn']
assert not rows, ('a process that lived 10 ms has a row', rows[:3])
res = [tuple(map(int, l.split())) for l in open('$tmp/c.res') if l.strip()]
assert len(res) > 8, res
base_fd, base_rss, base_p = res[$warm_at]
# one descriptor per process it read, a few of its own: a leak of one a
# process would be 1,000 more; processes that ended since its last tick
# are still held until the next one, and the count of processes is read
# at another moment than the descriptors, while other tests start and end
# theirs (17 apart during the churn, 14 after it, on a loaded box)
over = max(f - p for f, r, p in res[2:])
fd_max = max(f for f, r, p in res[2:])
fd_end, rss_end, p_end = res[$end_at - 1]
assert over <= 64, ('descriptors beyond the processes', base_fd, base_p, over)
assert fd_end - p_end <= 64, ('descriptors left after the churn', fd_end, p_end)
# the ranking's arrays follow the processes alive at once, which the
# other load of this machine moves: 16 kB for each above the first sample's
extra = max(l['machine']['processes'] for l in lines) - lines[0]['machine']['processes']
assert rss_end <= base_rss + 1024 + $asan_kb + 16 * max(extra, 0), ('memory grew (kB)', base_rss, rss_end, extra, $asan_kb)
print('# %d samples, churn %d ms: descriptors %d..%d, RSS %d -> %d kB' % (len(lines), $churn_ms, base_fd, fd_max, base_rss, rss_end))
" && [ ! -s "$tmp/c.err" ]; then
	cat "$tmp/err"
	ok "1,000 processes of 10 ms during --all --batch: no row for any, no error, one descriptor a process alive and no more, memory flat"
else
	notok "1,000 short processes during --all --batch" "$(cat "$tmp/err" "$tmp/c.err")" "$(head -3 "$tmp/c.res"; tail -3 "$tmp/c.res")"
fi

# ---- a PID reused by another program -------------------------------------------------
# In a PID namespace with its own /proc, pid_max 350: after the first 300
# PIDs new ones cycle through 300..349, so the PID of a process that ended
# comes back within 50 starts.  pid_max belongs to the namespace (Linux
# 6.14 and later); the machine's is checked unchanged after.  Where the
# namespace's ns_last_pid can be written (as root), the next PID is set
# instead of started through: past 299 at first, then to the ended one's.
# The run goes on (-c is a bound) while the first program shows in two
# samples and the new one in three.
host_max=$(cat /proc/sys/kernel/pid_max)
cp "$(command -v sleep)" "$tmp/tl-first"
reuse() {
	lines_at_least() { [ "$(wc -l <"$tmp/r.json")" -ge "$1" ]; }
	echo 350 >/proc/sys/kernel/pid_max || exit 77
	echo 299 2>/dev/null >/proc/sys/kernel/ns_last_pid || for _ in $(seq 300); do /bin/true; done
	"$tmp/tl-first" 60 &
	a=$!
	echo "a $a"
	"$TL" --all --batch -i 1 -c 60 --format json >"$tmp/r.json" 2>"$tmp/r.err" &
	t=$!
	until_true 300 lines_at_least 2
	kill "$a"
	wait "$a" 2>/dev/null
	echo $((a - 1)) 2>/dev/null >/proc/sys/kernel/ns_last_pid
	for _ in $(seq 400); do
		OMP_NUM_THREADS=1 sh -c '[ $$ = "$0" ] && exec taskset -c 0 "$1"; exit 0' "$a" "$OMP" &
		b=$!
		if [ "$b" = "$a" ]; then
			echo "b $b $(date +%s.%N)"
			break
		fi
		wait "$b"
	done
	# the new program ranked (on a loaded box a new process may take more
	# than three samples to be found and given a full interval), then two
	# samples more, so that it shows with a rate of its own
	until_true 300 grep -q '"name":"omp-busy"' "$tmp/r.json"
	n=$(wc -l <"$tmp/r.json")
	until_true 300 lines_at_least $((n + 2))
	kill -TERM "$t"
	wait "$t"
	echo "st $?"
	kill "$b" 2>/dev/null
}
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	skip "a reused PID is a new row" "needs root and unshare (util-linux) for a PID namespace"
else
	export tmp TL OMP
	export -f reuse until_true tap_sleep
	limited 60 unshare --pid --fork --mount-proc bash -c reuse >"$tmp/r.out" 2>&1
	ust=$?
	now_max=$(cat /proc/sys/kernel/pid_max)
	if [ "$now_max" != "$host_max" ]; then
		echo "$host_max" >/proc/sys/kernel/pid_max
		notok "a reused PID is a new row" "the machine's pid_max changed ($host_max -> $now_max): restored"
	elif [ "$ust" = 77 ]; then
		skip "a reused PID is a new row" "pid_max cannot be set in a PID namespace here (Linux before 6.14)"
	else
		a=$(awk '$1 == "a" { print $2 }' "$tmp/r.out")
		b=$(awk '$1 == "b" { print $2 }' "$tmp/r.out")
		st=$(awk '$1 == "st" { print $2 }' "$tmp/r.out")
		if [ -n "$a" ] && [ "$a" = "$b" ] && json_check "$tmp/r.json" "${st:-1}" "
assert st == 0, st
rows = [(i, x) for i, l in enumerate(lines) for x in l['processes'] if x['pid'] == $a]
first = [x for i, x in rows if x['name'] == 'tl-first']
second = [(i, x) for i, x in rows if x['name'] == 'omp-busy']
assert first and all(x['verdict'] == 'idle' and x['binding'] != 'affinity' for x in first), first
assert second, ('the new program never ranked', rows)
# once its name shows, every row is its own: the budget read again, no
# rate carried over from the sleeping process's counters
for i, x in second:
    assert x['binding'] == 'affinity' and x['effective_cpus'] == 1, x
    assert x['threads'] == 1 and x['cpu_pct'] <= 101 and x['runnable_mean'] <= 1.05, x
assert max(i for i, x in rows if x['name'] == 'tl-first') < second[0][0], rows
assert any(x['cpu_pct'] > 5 for i, x in second), second
" && [ ! -s "$tmp/r.err" ]; then
			ok "a PID reused by another program (pid_max 350 in a PID namespace): a new row with its name and budget, no stale rate"
		else
			notok "a reused PID is a new row" "unshare status $ust" "$(cat "$tmp/r.out" "$tmp/err" "$tmp/r.err" 2>/dev/null)"
		fi
	fi
fi
