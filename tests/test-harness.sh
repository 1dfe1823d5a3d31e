#!/bin/sh
# test-harness.sh — the suite's own harness (tap-wrap.sh, tap-summary.sh):
# a test program that crashes or hangs is one named failure with its unrun
# cases counted, and the summary counts real results.  Prints TAP.
SRC="${THREADLAB_SRCDIR:-.}/tests"
n=0
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$SRC/tap-lib.sh"

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

mkdir -p "$tmp/b1" "$tmp/b2"
printf ':test-result: PASS\n:test-result: PASS\n:test-result: SKIP\n' >"$tmp/b1/x.trs"
printf ':test-result: FAIL\n:test-result: ERROR\n:test-result: XFAIL\n' >"$tmp/b2/y.trs"
out=$(sh "$SRC/tap-summary.sh" --label "both" "$tmp/b1" "$tmp/b2" 0)
[ "$out" = "both: 3 passed, 2 failed, 1 skipped" ] && ok "summary over two builds: $out" || notok "summary" "$out"
out=$(sh "$SRC/tap-summary.sh" "$tmp/b1" 2)
[ "$out" = "2 passed, 1 failed, 1 skipped" ] && ok "a failed harness without a counted failure is one failure" || notok "harness status" "$out"
mkdir -p "$tmp/none"
out=$(sh "$SRC/tap-summary.sh" "$tmp/b1" "$tmp/none" 0)
[ "$out" = "2 passed, 1 failed, 1 skipped" ] && ok "a build with no results at all is a failure" || notok "empty build" "$out"

echo "1..$n"
exit $((fails > 0))
