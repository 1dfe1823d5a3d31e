#!/bin/bash
# test-faults.sh — the faults a hostile run found (issue 12, items 1 and 6),
# each against the real binary: a starved thread's wait, options without
# values, error advice that fits, odd quotas and online files, long kernel
# thread names, impossible CPU fields.  Prints TAP.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
FX="$SRC/tests/fixtures"
plan 20

# ---- 1: a thread starved of CPU --------------------------------------------
# Two spinners on one CPU, nice -20 and nice 19: the second is runnable but
# barely scheduled.  Every sample of it keeps CPU % and wait % within the
# interval, and while it waits it shows state R with wait near 100 %.
# They run in a session of their own: a session is an autogroup, nice
# weighs only within one, and in the test's (tap-wrap's session) the nice
# -20 spinner drew the group's whole weight to its CPU, so threadlab got
# almost none on the other (its 30 samples of 0.1 s took 80 to 100 s on a
# loaded box, the spinner burning a CPU meanwhile; 4 s this way).  They
# stop as soon as the samples are out.
cpu=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //; s/[-,].*//')
if command -v taskset >/dev/null && [ -n "$cpu" ]; then
	# (each killed when the sh that starts them dies, which dies with the
	# script: tap_orphan_kill)
	# shellcheck disable=SC2016
	spawn sh -c 'c=$1 f=$2
		shift 2
		"$@" taskset -c "$c" nice -n -20 sh -c "while :; do :; done" &
		"$@" taskset -c "$c" nice -n 19 sh -c "while :; do :; done" &
		echo $! >"$f"
		wait' sh "$cpu" "$tmp/starved" "${tap_orphan_kill[@]}"
	spin=$spawned
	until_true 100 test -s "$tmp/starved"
	starved=$(cat "$tmp/starved")
	# the bound only catches a hang: a 3 s run, under ASan beside a loaded box
	limited 90 "$TL" --batch -p "$starved" -i 0.1 -c 30 --format json >"$tmp/j" 2>"$tmp/err"
	st=$?
	stop "$spin"
	"$PY" - "$tmp/j" <<'PY' >"$tmp/py" 2>&1
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 30, "%d samples" % len(lines)
waiting = 0
for l in lines[1:]:
    t = json.loads(l)["threads"][0]
    c, w = t["cpu_pct"], t["wait_pct"]
    assert 0 <= c <= 100 and 0 <= w <= 100 and c + w <= 100.05, t
    if t["state"] == "R" and w >= 95:
        waiting += 1
# the nice-19 spinner gets well under 10 % of the CPU: most samples wait
assert waiting >= 20, "only %d of 29 samples show the wait" % waiting
print("waiting in %d of 29 samples" % waiting)
PY
	if [ $st = 0 ]; then
		[ -s "$tmp/py" ] && ! grep -q Error "$tmp/py" &&
			ok "a starved thread: CPU % and wait % within the interval, wait shown while it waits ($(tail -n1 "$tmp/py"))" ||
			notok "starved thread's rates" "$(cat "$tmp/py")"
	else
		notok "starved thread: batch status $st" "$(cat "$tmp/err")"
	fi
else
	skip "a starved thread" "taskset (util-linux) missing or no CPU in the affinity mask"
fi

# ---- 6: the smaller ones ----------------------------------------------------
# An option without its value says so, for long options as for -p.
for o in --size --threads --cpus --format --root --workers --streams --precision --seconds; do
	"$TL" $o >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st = 2 ] && grep -q "^threadlab: $o needs a value" "$tmp/err"; then
		ok "$o without a value: needs a value (exit 2)"
	else
		notok "$o without a value" "status $st" "$(cat "$tmp/err")"
	fi
done
"$TL" --batch -p >"$tmp/out" 2>"$tmp/err"
grep -q 'option -p needs a value' "$tmp/err" && ok "-p without a value" || notok "-p without a value" "$(cat "$tmp/err")"

# "(run as its user or as root)" only where a permission is what failed.
sleep 30 &
sp=$!
track "$sp"
# Five descriptors: the three standard ones and two for the loader and
# threadlab; any a runner left open (perf record's, a CI agent's) is closed
# first, or the loader itself runs out.
(
	for fd in /proc/self/fd/*; do
		fd=${fd##*/}
		[ "$fd" -gt 2 ] && eval "exec $fd>&-"
	done
	ulimit -n 5
	"$TL" --batch -p "$sp" -c 1
) >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st != 0 ] && grep -q 'Too many open files' "$tmp/err" && ! grep -q 'as root' "$tmp/err"; then
	ok "EMFILE: said without the advice to change user ($(head -n1 "$tmp/err"))"
else
	notok "EMFILE message" "status $st" "$(cat "$tmp/err")"
fi

# --budget text of odd quotas and online files (fixture trees).
budget() { "$TL" --budget --root "$FX/$1" -p 4242 >"$tmp/out" 2>&1; }
budget cg-v2-milli
grep -q 'quota      0.001 CPUs' "$tmp/out" && grep -q 'effective  0.001 CPUs' "$tmp/out" &&
	ok "--budget: a 0.001-CPU quota reads 0.001, not 0.00" || notok "0.001-CPU quota" "$(cat "$tmp/out")"
budget cg-v2-huge
if grep -q 'quota      1.84e+14 CPUs' "$tmp/out" && ! grep -Eq '[0-9]{10}' "$tmp/out" &&
	grep -q 'bound by online' "$tmp/out"; then
	ok "--budget: a 2^64-1 us quota is no 20-digit count and does not bind"
else
	notok "2^64-1 quota" "$(cat "$tmp/out")"
fi
for c in cg-v2-noonline cg-v2-badonline; do
	budget $c
	grep -q '^  online     unavailable' "$tmp/out" && grep -q 'bound by quota' "$tmp/out" &&
		ok "--budget $c: online unavailable, not 0" || notok "--budget $c" "$(cat "$tmp/out")"
	"$TL" --budget --format json --root "$FX/$c" -p 4242 >"$tmp/out" 2>&1
	# (and the quota's directory a path from the root, as the text gives it)
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); b=d["budget"]; assert b["online"] is None and b["effective"] == 2.5, b; q=d["cgroup"]["quota_dir"]; assert q.startswith("/sys/fs/cgroup"), q' "$tmp/out" 2>"$tmp/err" &&
		ok "--budget json $c: online is null" || notok "--budget json $c" "$(cat "$tmp/out" "$tmp/err")"
done
"$TL" --budget --root "$FX/cg-v1" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st = 2 ] && grep -q -- '--root needs -p PID' "$tmp/err" && ! grep -q 'PID 0' "$tmp/err" &&
	ok "--budget --root without -p asks for -p (exit 2)" || notok "--root without -p" "status $st" "$(cat "$tmp/err")"

# A kernel thread's long name keeps the text columns; stat field 39 of
# 99999999999 shows as unknown (-1), not a wrapped number.
"$TL" --batch --root "$FX/pp-kthread" -p 4242 -c 1 >"$tmp/out" 2>"$tmp/err"
# The state letter of every row sits under the header's "S".
if awk '/ PID +TID NAME/ { col = index($0, " S ") + 1; next }
	col && /^ +4242 +424[23] / { if (substr($0, col - 1, 3) !~ /^ [A-Z] $/) bad = 1; rows++ }
	END { exit !(col && rows == 2 && !bad) }' "$tmp/out" &&
	grep -q 'kworker/u8:2-eve I' "$tmp/out" && grep -Eq ' S +-1 ' "$tmp/out" &&
	! grep -q 1215752191 "$tmp/out"; then
	ok "--batch text: a 27-byte kernel thread name is cut to the column; CPU 99999999999 is -1"
else
	notok "long kernel thread name / huge CPU field" "$(cat "$tmp/out" "$tmp/err")"
fi

