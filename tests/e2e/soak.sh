#!/bin/bash
# soak.sh — threadlab's dashboard on the lab for SOAK_SECONDS (default 600):
# under a CPU quota, with thread counts, streams, loaders, workers and the
# quota changed every few seconds by keys, a recording replayed beside it
# and /metrics scraped; then checks that nothing leaked (LeakSanitizer on a
# sanitizer build), no descriptor was gained, its own CPU did not drift,
# and no error line came out.  Prints TAP and the figures.  Run it with
# `make soak SOAK_SECONDS=N` from a build directory (the ASan/UBSan build,
# build-check, for the leak check).
set -u
SECONDS_WANTED=${SOAK_SECONDS:-600}

. "$(dirname "$0")/../lib/tap-lib.sh"

need_tmux soak
command -v curl >/dev/null || skip_all "curl is not installed"
plan 9
port=$((20000 + $$ % 20000))
# The lab's work is what threadlab watches, not what is checked: a quota of
# 0.5 CPU keeps every helper, loader and worker the keys start and burns a
# third of the CPU 1.5 did.
cpus=0.5
[ "$(id -u)" = 0 ] || cpus=""
# LeakSanitizer and UBSan write their reports here (a plain build: none).
export ASAN_OPTIONS="detect_leaks=1:log_path=$tmp/asan:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:log_path=$tmp/ubsan:${UBSAN_OPTIONS:-}"
$T new-session -d -s soak -x 120 -y 40 \
	"$TL ${cpus:+--cpus $cpus} --threads 2 --loaders 1 --prep-ms 10 -i 0.5 \
	--serve 127.0.0.1:$port --record $tmp/soak.jsonl 2>$tmp/stderr; echo EXITED \$? >$tmp/status; sleep 60"
tlpid=$(until_out 200 pane_proc soak threadlab)
[ -n "$tlpid" ] && until_true 200 curl -sf -o /dev/null "http://127.0.0.1:$port/metrics"
if [ -z "$tlpid" ]; then
	notok "the dashboard started" "$(pane soak)"
	exit 1
fi
ok "the dashboard runs (pid $tlpid) under ${cpus:-no} quota, serving :$port"

# fds PID, cpu_s PID, rss_kb PID.  fds leaves out the /proc/PID/stat of
# other processes the machine reader holds (collectors/machine.c): those
# follow the processes of the machine, which other tests start and end.
fds() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 -printf '%l\n' 2>/dev/null | grep -cvE '^/proc/[0-9]+/stat$'; }
cpu_s() { awk '{ printf "%.2f", ($14 + $15) / '"$(getconf CLK_TCK)"' }' "/proc/$1/stat" 2>/dev/null; }
rss_kb() { awk '/VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

# The quota goes up (}) and back ({) at the end of each cycle, so that the
# lab holds 1 CPU for one second of the twelve.
keys=('+' ']' 'l' 'w' 'x' '-' '[' 'L' 'W' 'X' '}' '{')
start=$(date +%s)
# One full cycle of keys first: every helper, worker and loader the cycle
# uses exists afterwards (parked streams and OpenBLAS pools never shrink),
# so later cycles end with the same threads and the same descriptors.
press_cycle() {
	for key in "${keys[@]}"; do
		$T send-keys -t soak "$key"
		sleep 1
		code=$(curl -s -o "$tmp/m" -w '%{http_code}' \
			-H 'Accept: application/openmetrics-text; version=1.0.0' \
			"http://127.0.0.1:$port/metrics")
		scrapes=$((scrapes + 1))
		{ [ "$code" = 200 ] && tail -n1 "$tmp/m" | grep -q '^# EOF'; } || bad_scrapes=$((bad_scrapes + 1))
		k=$((k + 1))
		if [ $((k % 5)) = 0 ]; then
			limited 60 "$TL" --replay "$tmp/soak.jsonl" --batch --format json -c 20 \
				>/dev/null 2>>"$tmp/replay.err" || bad_replays=$((bad_replays + 1))
			replays=$((replays + 1))
		fi
	done
}
scrapes=0
bad_scrapes=0
replays=0
bad_replays=0
k=0
press_cycle
sleep 2
fd0=$(fds "$tlpid")
rss0=$(rss_kb "$tlpid")
t0=$(date +%s.%N)
c0=$(cpu_s "$tlpid")
cycles=0
cpu_first=""
while [ $(($(date +%s) - start)) -lt "$SECONDS_WANTED" ] || [ $cycles -lt 2 ]; do
	press_cycle
	cycles=$((cycles + 1))
	if [ -z "$cpu_first" ]; then
		cpu_first=$(echo "$(cpu_s "$tlpid") $c0 $(date +%s.%N) $t0" | awk '{ printf "%.2f", 100 * ($1 - $2) / ($3 - $4) }')
		c1=$(cpu_s "$tlpid")
		t1=$(date +%s.%N)
	fi
done
sleep 2
fd1=$(fds "$tlpid")
rss1=$(rss_kb "$tlpid")
cpu_last=$(echo "$(cpu_s "$tlpid") ${c1:-$c0} $(date +%s.%N) ${t1:-$t0}" | awk '{ printf "%.2f", 100 * ($1 - $2) / ($3 - $4) }')
[ "$cycles" -ge 2 ] || cpu_last=""
$T send-keys -t soak F10
until_true 200 test -s "$tmp/status"

echo "# soak: ${SECONDS_WANTED} s asked, $(($(date +%s) - start)) s run, $k key presses, $scrapes scrapes, $replays replays"
echo "# descriptors: $fd0 -> $fd1; RSS: ${rss0} kB -> ${rss1} kB"
echo "# threadlab's own CPU: ${cpu_first:-?} % of a core (first cycle of keys) -> ${cpu_last:-?} % (the rest)"
if grep -q "EXITED 0" "$tmp/status" 2>/dev/null; then ok "F10 quits with status 0"; else
	notok "exit" "$(cat "$tmp/status" 2>/dev/null)"; fi
if [ "$fd1" -le $((fd0 + 2)) ]; then ok "no descriptor growth over $cycles cycles of keys ($fd0 -> $fd1)"; else
	notok "descriptors grew" "$fd0 -> $fd1" "$(ls -l "/proc/$tlpid/fd" 2>/dev/null | tail -20)"; fi
if [ -n "$cpu_last" ] && awk -v a="$cpu_first" -v b="$cpu_last" 'BEGIN { exit !(b <= 1.5 * a + 2) }'; then
	ok "no drift in its own CPU (${cpu_first}% -> ${cpu_last}%)"
elif [ -z "$cpu_last" ]; then
	notok "CPU drift" "the run was too short: two cycles of keys after the first are needed (SOAK_SECONDS)"
else
	notok "its CPU drifted" "${cpu_first}% -> ${cpu_last}%"
fi
if [ "$bad_scrapes" = 0 ]; then ok "every scrape answered 200 with # EOF ($scrapes)"; else
	notok "scrapes failed" "$bad_scrapes of $scrapes"; fi
if [ "$bad_replays" = 0 ]; then ok "every replay of the growing recording read ($replays)"; else
	notok "replays failed" "$bad_replays of $replays" "$(tail -5 "$tmp/replay.err")"; fi
# The start-up line says where it serves; anything else is an error line.
if ! grep -v '^threadlab: serving http://' "$tmp/stderr" | grep -q .; then ok "no error line on stderr"; else
	notok "stderr" "$(head -20 "$tmp/stderr")"; fi
# LeakSanitizer says "Running thread N was not suspended. False leaks are
# possible." when a thread of the process was ending at the moment of its
# check: a warning that a leak it reports may be false, not a report.  A
# file with nothing else is shown, not failed; any other line fails.
reports=""
for f in $(find "$tmp" -maxdepth 1 \( -name 'asan.*' -o -name 'ubsan.*' \) -size +0 2>/dev/null); do
	if grep -qvE '^==[0-9]+==Running thread [0-9]+ was not suspended\. False leaks are possible\.$' "$f"; then
		reports="$reports $f"
	else
		echo "# ${f##*/}: $(head -3 "$f" | tr '\n' ' ')(LeakSanitizer's warning, no report)"
	fi
done
if [ -n "$reports" ]; then
	# shellcheck disable=SC2086
	notok "sanitizer reports" "$(head -60 $reports)"
else
	ok "no leak or undefined behaviour reported"
fi
errs=$(grep -c '"error":"' "$tmp/soak.jsonl" 2>/dev/null)
if [ "${errs:-0}" = 0 ]; then ok "no sample of the recording carries an error"; else
	notok "errors in the recording" "$(grep -o '"error":"[^"]*"' "$tmp/soak.jsonl" | sort | uniq -c | head)"; fi
