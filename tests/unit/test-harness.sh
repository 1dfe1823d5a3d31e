#!/bin/bash
# test-harness.sh — the suite's own harness (tap-lib.sh, tap-wrap.sh,
# tap-summary.sh): a test program that crashes or hangs is one named failure
# with its unrun cases counted; a shell test that ends early fails its
# unreported cases; what a test spawned is gone after it, grandchildren too;
# the serial lock keeps two timing tests apart; the summary counts real
# results; the waits' helpers that start no program (alive, tap_file_has,
# tap_sleep) answer as the programs they replace.  Prints TAP.
SRC="${THREADLAB_SRCDIR:-.}/tests/lib"
tmp=$(mktemp -d)
. "$SRC/tap-lib.sh"
plan 21
# The wrappers this script runs must not take the suite's own lock: this
# script holds it shared, and a serial test waiting at the turnstile for it
# alone would keep them out until the time limit (a deadlock seen in CI).
unset THREADLAB_TEST_LOCK THREADLAB_SERIAL_TESTS

printf '#!/bin/sh\necho 1..4\necho ok 1 - a\necho ok 2 - b\nkill -SEGV $$\n' >"$tmp/crash.sh"
printf '#!/bin/sh\necho 1..3\necho ok 1 - a\nexec sleep 60\n' >"$tmp/hang.sh"
printf '#!/bin/sh\necho ok 1 - a\necho "not ok 2 - b # SKIP no such thing"\necho 1..2\n' >"$tmp/skip.sh"

sh "$SRC/tap-wrap.sh" "$tmp/crash.sh" >"$tmp/out" 2>&1
st=$?
if [ $st = 0 ] && [ "$(grep -c '^not ok' "$tmp/out")" = 1 ] &&
	grep -q '^not ok 3 - crash.sh killed by signal 11 (SEGV); 2 of 4 planned cases did not run$' "$tmp/out" &&
	[ "$(tail -n1 "$tmp/out")" = "1..3" ]; then
	ok "a crash: one named failure, its 2 unrun cases said, the plan matches"
else
	notok "crash" "status $st" "$(cat "$tmp/out")"
fi
THREADLAB_TEST_TIMEOUT=1 sh "$SRC/tap-wrap.sh" "$tmp/hang.sh" >"$tmp/out" 2>&1
if [ "$(grep -c '^not ok' "$tmp/out")" = 1 ] &&
	grep -q '^not ok 2 - hang.sh timed out after 1 s (THREADLAB_TEST_TIMEOUT); 2 of 3 planned cases did not run$' "$tmp/out"; then
	ok "a hang: one named failure after the time limit"
else
	notok "hang" "$(cat "$tmp/out")"
fi
sh "$SRC/tap-wrap.sh" "$tmp/skip.sh" >"$tmp/out" 2>&1
grep -q '^ok 2 - b # SKIP no such thing' "$tmp/out" && ok "cmocka's skipped case (not ok, SKIP) becomes a TAP skip (ok, SKIP)" || notok "skip" "$(cat "$tmp/out")"
# A test whose failed case left a child running (a spinner a cmocka
# assertion skipped the cleanup of): the wrapper ends with the test, not
# with the child (which held its pipe until the time limit, 600 s), says
# so, and kills it.
printf '#!/bin/sh\necho 1..1\necho "not ok 1 - a"\nsleep 300 &\necho $! >"%s"\nexit 1\n' "$tmp/left.pid" >"$tmp/left.sh"
t0=$(date +%s)
THREADLAB_TEST_TIMEOUT=60 sh "$SRC/tap-wrap.sh" "$tmp/left.sh" >"$tmp/out" 2>&1
t1=$(date +%s)
lp=$(cat "$tmp/left.pid" 2>/dev/null)
# (gone, or a zombie its new parent has not reaped yet)
gone_or_zombie() { [ ! -e "/proc/$1" ] || sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | grep -q '^Z'; }
if [ $((t1 - t0)) -lt 30 ] && [ -n "$lp" ] && gone_or_zombie "$lp" &&
	grep -q "^# left running in its session when it ended, killed: $lp" "$tmp/out"; then
	ok "a test that left a child running: the wrapper ends with it ($((t1 - t0)) s), says so, the child is killed"
else
	notok "left child" "$((t1 - t0)) s, child ${lp:-?}" "$(cat "$tmp/out")"
	[ -n "$lp" ] && kill "$lp" 2>/dev/null
fi

# ---- tap-lib.sh: the plan first, an early end fails ----------------------------
# An arithmetic error on an empty PID aborts the block it is in (bash goes on
# with the next command): the case after it vanishes and counts as a
# failure.  A script that exits early fails every case it did not reach.
cat >"$tmp/early.sh" <<EOF
#!/bin/bash
. "$SRC/tap-lib.sh"
plan 4
ok "first"
pid=""
if true; then
	echo \$((10 - \$pid))
	ok "second"
fi
ok "third"
exit 0
ok "fourth"
EOF
bash "$tmp/early.sh" >"$tmp/out" 2>/dev/null
st=$?
if [ "$(head -n1 "$tmp/out")" = "1..4" ] && [ $st = 2 ] &&
	grep -q '^ok 2 - third' "$tmp/out" &&
	grep -q '^not ok 3 - case 3 did not run: the script ended early (status 0) after case 2 (third)' "$tmp/out" &&
	[ "$(grep -c '^ok' "$tmp/out")" = 2 ] && [ "$(grep -c '^not ok' "$tmp/out")" = 2 ]; then
	ok "a case lost to an arithmetic error, a script that exits early: plan first, the 2 unreported cases fail"
else
	notok "early end" "status $st" "$(cat "$tmp/out")"
fi
printf '#!/bin/bash\n. "%s/tap-lib.sh"\nplan 1\nok a\nok b\n' "$SRC" >"$tmp/more.sh"
bash "$tmp/more.sh" >"$tmp/out" 2>&1
st=$?
if [ $st != 0 ] && grep -q '2 cases ran, 1 were planned' "$tmp/out"; then
	ok "more cases than planned: the script fails"
else
	notok "more than planned" "status $st" "$(cat "$tmp/out")"
fi
printf '#!/bin/bash\n. "%s/tap-lib.sh"\nok a\n' "$SRC" >"$tmp/noplan.sh"
bash "$tmp/noplan.sh" >"$tmp/out" 2>&1
st=$?
if [ $st != 0 ] && grep -q '^not ok 2 - the script printed no plan' "$tmp/out"; then
	ok "no plan at all: a failure"
else
	notok "no plan" "status $st" "$(cat "$tmp/out")"
fi
printf '#!/bin/bash\n. "%s/tap-lib.sh"\nplan 3\nok a\nskip_rest "no such thing here"\nok b\n' "$SRC" >"$tmp/rest.sh"
bash "$tmp/rest.sh" >"$tmp/out" 2>&1
st=$?
if [ $st = 0 ] && [ "$(grep -c '^ok [23] - case [23] # SKIP no such thing here' "$tmp/out")" = 2 ]; then
	ok "skip_rest: the remaining planned cases are skips with the reason"
else
	notok "skip_rest" "status $st" "$(cat "$tmp/out")"
fi
printf '#!/bin/bash\n. "%s/tap-lib.sh"\nplan 2\nok a\ntodo "b" "split pending"\n' "$SRC" >"$tmp/todo.sh"
bash "$tmp/todo.sh" >"$tmp/out" 2>&1
st=$?
if [ $st = 0 ] && grep -qx 'not ok 2 - b # TODO split pending' "$tmp/out"; then
	ok "todo: a known failure is a TAP TODO, not counted against the script"
else
	notok "todo" "status $st" "$(cat "$tmp/out")"
fi

# ---- tap-lib.sh: what a test spawned is gone after it, grandchildren too -----
# The script spawns a shell that starts a sleep grandchild, then dies of a
# signal: both are stopped by PID (the group), nothing else is touched.
cat >"$tmp/leak.sh" <<EOF
#!/bin/bash
. "$SRC/tap-lib.sh"
plan 1
spawn bash -c 'sleep 300 & echo \$! >"$tmp/grandchild"; wait'
echo \$spawned >"$tmp/child"
until_true 50 test -s "$tmp/grandchild"
ok spawned
kill -TERM \$\$
EOF
sleep 300 &
bystander=$!
bash "$tmp/leak.sh" >"$tmp/out" 2>&1
child=$(cat "$tmp/child" 2>/dev/null)
grand=$(cat "$tmp/grandchild" 2>/dev/null)
if [ -n "$child" ] && [ -n "$grand" ] && gone "$child" "$grand" && alive "$bystander"; then
	ok "spawn: the child and its sleep grandchild are gone after a TERM; a bystander is not touched"
else
	notok "spawned processes left" "child $child grandchild $grand bystander $bystander" "$(cat "$tmp/out")"
fi
stop "$bystander"
# reap: a bounded wait, then a kill.
sleep 300 &
s=$!
t0=$(date +%s%N)
reap "$s" 1
t1=$(date +%s%N)
if [ "$reaped" = 137 ] && ! alive "$s" && [ $(((t1 - t0) / 1000000)) -lt 60000 ]; then # not the sleep's 300 s
	ok "reap: a child that does not end is killed after its bound ($(((t1 - t0) / 1000000)) ms)"
else
	notok "reap" "status $reaped" "$(((t1 - t0) / 1000000)) ms"
fi
# The waiters: until_out prints what came, until_none what was left;
# each fails when its bound (counted in looks) runs out, never before.
late() { [ -s "$tmp/late" ] && cat "$tmp/late"; }
(sleep 0.3; echo 4242 >"$tmp/late") &
track "$!"
got=$(until_out 50 late)
gst=$?
t0=${EPOCHREALTIME/./}
left=$(tap_every=2 until_none 10 echo still)
lst=$?
t1=${EPOCHREALTIME/./}
if [ $gst = 0 ] && [ "$got" = 4242 ] && [ $lst = 1 ] && [ "$left" = still ] && [ $(((t1 - t0) / 1000)) -ge 1000 ]; then
	ok "until_out: what came; until_none: what was left, after its whole bound ($(((t1 - t0) / 1000)) ms)"
else
	notok "waiters" "until_out: status $gst '$got'" "until_none: status $lst '$left' after $(((t1 - t0) / 1000)) ms"
fi

# ---- tap-wrap.sh: the serial lock -------------------------------------------
# Two serial tests and a shared one started together: none overlaps
# another (each notes its start and end); a serial test runs alone.
for t in ser1 ser2 free; do
	printf '#!/bin/sh\necho "$(date +%%s%%N) start" >>"%s/serial"\nsleep 0.4\necho "$(date +%%s%%N) end" >>"%s/serial"\necho 1..1\necho ok 1 - x\n' "$tmp" "$tmp" >"$tmp/$t.sh"
done
export THREADLAB_SERIAL_TESTS="ser1.sh ser2.sh" THREADLAB_TEST_LOCK="$tmp/lock"
w=()
for t in ser1 free ser2; do
	sh "$SRC/tap-wrap.sh" "$tmp/$t.sh" >/dev/null 2>&1 &
	w+=($!)
done
for p in "${w[@]}"; do reap "$p" 20; done
unset THREADLAB_SERIAL_TESTS THREADLAB_TEST_LOCK
if [ "$(awk '{print $2}' "$tmp/serial" | tr '\n' ' ')" = "start end start end start end " ]; then
	ok "two serial tests and a shared one started together: one after another"
else
	notok "serial lock" "$(cat "$tmp/serial")"
fi

mkdir -p "$tmp/b1" "$tmp/b2"
printf ':test-result: PASS\n:test-result: PASS\n:test-result: SKIP\n' >"$tmp/b1/x.trs"
printf ':test-result: FAIL\n:test-result: ERROR\n:test-result: XFAIL\n' >"$tmp/b2/y.trs"
printf '1..3\nok 1 - a\nnot ok 2 - b went wrong\nFAIL: y.sh 2 - b went wrong\n# the figure: 7\n# expected 9\nok 3 - c\n# y.sh took 1 s\n' >"$tmp/b2/y.log"
printf ':test-result: FAIL package smoke\n' >"$tmp/b2/p.trs"
printf ':test-result: ERROR\n' >"$tmp/b2/z.trs"
printf '1..2\nok 1 - a\n%s\n# z.sh took 1 s\ndied here\n' "$(seq 6)" >"$tmp/b2/z.log"
out=$(sh "$SRC/tap-summary.sh" --label "both" "$tmp/b1" "$tmp/b2" 0)
want="failed: $tmp/b2/p.log
  not ok package smoke
failed: $tmp/b2/y.log
  not ok 2 - b went wrong
  # the figure: 7
  # expected 9
failed: $tmp/b2/z.log
  | 1
  | 2
  | 3
  | 4
  | 5
  | 6
  | # z.sh took 1 s
  | died here
the tests that failed: p y z
both: 3 passed, 4 failed, 1 skipped"
[ "$out" = "$want" ] && ok "summary over two builds, each failure named with its diagnostics above the count" ||
	notok "summary" "$out"
out=$(sh "$SRC/tap-summary.sh" "$tmp/b1" 2)
[ "$out" = "2 passed, 1 failed, 1 skipped" ] && ok "a failed harness without a counted failure is one failure" || notok "harness status" "$out"
mkdir -p "$tmp/none"
out=$(sh "$SRC/tap-summary.sh" "$tmp/b1" "$tmp/none" 0)
[ "$out" = "2 passed, 1 failed, 1 skipped" ] && ok "a build with no results at all is a failure" || notok "empty build" "$out"

# need_tmux: a script that cannot run without tmux or a program skips whole,
# naming what is not built; with both, its tmux is on a private socket.
printf '. "%s/tap-lib.sh"\nTL=/bin/true\nneed_tmux x "$1"\nskip_all "T=$T"\n' "$SRC" >"$tmp/tmux.sh"
missing=$(PATH=/usr/bin:/bin bash "$tmp/tmux.sh" "$tmp/no-such-prog" 2>&1)
if command -v tmux >/dev/null; then
	here=$(bash "$tmp/tmux.sh" /bin/true 2>&1)
	[ "$missing" = "1..0 # SKIP $tmp/no-such-prog not built" ] &&
		[[ $here == "1..0 # SKIP T=tmux -u -L tl-x-"[0-9]*" -f /dev/null" ]] &&
		ok "need_tmux: a program not built skips the script by name; else T is a private socket" ||
		notok "need_tmux" "$missing" "$here"
else
	[ "$missing" = "1..0 # SKIP tmux is not installed (Debian package tmux)" ] &&
		ok "need_tmux without tmux: the script skips, saying so" || notok "need_tmux" "$missing"
fi

# ---- the waits' helpers, which start no program ---------------------------------
# alive reads the state after the name, whatever the name holds: a process
# named "a) b<newline>Z" (prctl, by itself) is alive while it runs, and not
# once it is a zombie (its parent, not this shell, leaves it unreaped).
"$PY" -c 'import ctypes, os, time
pid = os.fork()
if pid == 0:
    ctypes.CDLL(None).prctl(15, b"a) b\nZ", 0, 0, 0)
    time.sleep(1)
    os._exit(0)
print(pid, flush=True)
time.sleep(30)' >"$tmp/named" &
track "$!"
until_true 100 test -s "$tmp/named"
read -r named <"$tmp/named"
until_true 50 tap_file_has -F "/proc/$named/comm" "a) b"
a1=no a2=no
name=$(cat "/proc/$named/comm" 2>/dev/null)
alive "$named" && a1=yes
until_true 50 ended "$named" && [ -e "/proc/$named/stat" ] && a2=yes
[ "$name" = $'a) b\nZ' ] && [ $a1$a2 = yesyes ] &&
	ok "alive: a name with ') ' and a newline runs, then is a zombie, not alive" ||
	notok "alive with a hostile name" "name '$name', running $a1, a zombie not alive $a2"
# tap_file_has answers as grep -Eq (and -Fq with -F), a last line without
# a newline included.
printf 'tour 1/9 One: step 2/5 PAUSED\nthreadlab lab x threads 2 | y\na*b [c] \\d?\nlast' >"$tmp/lines"
differ=""
for re in '^tour [0-9]/9 .*: step 2/[0-9]+ PAUSED' 'threads 2 \|' '^last$' 'x{2}' 'a\*b \[c\]' '^threadlab lab' 'nothing' '[[:digit:]]+/9'; do
	tap_file_has "$tmp/lines" "$re" && mine=1 || mine=0
	grep -Eq -- "$re" "$tmp/lines" && theirs=1 || theirs=0
	[ $mine = $theirs ] || differ="$differ [-E '$re': $mine, grep $theirs]"
done
for str in 'a*b [c] \d?' '| y' 'last' 'b [d'; do
	tap_file_has -F "$tmp/lines" "$str" && mine=1 || mine=0
	grep -Fq -- "$str" "$tmp/lines" && theirs=1 || theirs=0
	[ $mine = $theirs ] || differ="$differ [-F '$str': $mine, grep $theirs]"
done
[ -z "$differ" ] && ok "tap_file_has: the answers of grep -Eq and grep -Fq (12 patterns)" ||
	notok "tap_file_has against grep" "$differ"
# tap_sleep waits, here and in a child bash given it with until_true (a
# wait there that lost its sleep ran every look at once).
t0=${EPOCHREALTIME//[!0-9]/}
tap_sleep 0.3
t1=${EPOCHREALTIME//[!0-9]/}
export -f until_true tap_sleep
t2=${EPOCHREALTIME//[!0-9]/}
bash -c 'until_true 3 false' 2>"$tmp/child.err"
t3=${EPOCHREALTIME//[!0-9]/}
export -nf until_true tap_sleep
here=$(((t1 - t0) / 1000)) child=$(((t3 - t2) / 1000))
[ "$here" -ge 290 ] && [ "$child" -ge 290 ] && [ ! -s "$tmp/child.err" ] &&
	ok "tap_sleep 0.3 waits ${here} ms; until_true 3 in a child bash ${child} ms" ||
	notok "tap_sleep" "here $here ms, child $child ms" "$(cat "$tmp/child.err")"
# A wrapper killed by SIGKILL leaves its cpuacct cgroup: the next wrapper
# removes an empty one whose wrapper is gone, never one that holds a process.
cg=/sys/fs/cgroup/cpuacct
if [ -w "$cg/cgroup.procs" ]; then
	# (two PIDs from the top of the range down that no process has; the
	# held one is made under another name and renamed once it holds its
	# process, so that no wrapper starting beside this sees it empty)
	free=() k=$(($(cat /proc/sys/kernel/pid_max) - 1))
	while [ ${#free[@]} -lt 2 ]; do
		[ -e "/proc/$k" ] || [ -e "$cg/tl-suite-$k" ] || free+=("$k")
		k=$((k - 1))
	done
	dead=${free[0]}
	busy=$cg/tl-suite-${free[1]}
	mkdir "$cg/tl-suite-$dead" "$cg/tl-held-$$"
	sleep 30 &
	holder=$!
	echo "$holder" >"$cg/tl-held-$$/cgroup.procs"
	mv "$cg/tl-held-$$" "$busy"
	printf '#!/bin/sh\necho 1..1\necho ok 1 - fine\n' >"$tmp/fine.sh"
	sh "$SRC/tap-wrap.sh" "$tmp/fine.sh" >"$tmp/out" 2>&1
	st=$?
	gone=no kept=no
	[ -e "$cg/tl-suite-$dead" ] || gone=yes
	[ -d "$busy" ] && kept=yes
	echo "$holder" >"$cg/cgroup.procs"
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	rmdir "$busy" "$cg/tl-held-$$" "$cg/tl-suite-$dead" 2>/dev/null
	[ $st = 0 ] && [ $gone$kept = yesyes ] &&
		ok "tap-wrap removes an empty cgroup of a wrapper that is gone, keeps one that holds a process" ||
		notok "tap-wrap's stale cgroups" "exit $st, the empty one removed: $gone, the held one kept: $kept" "$(cat "$tmp/out")"
else
	skip "tap-wrap's stale cgroups" "no writable cpuacct hierarchy (cgroup v1) here"
fi
