#!/bin/bash
# test-hostile-recordings.sh — recordings that used to crash or stall
# threadlab, end to end: --log pointed at a recording, a replay of absurd
# numbers, of a 70 MiB line, of a zstd frame that inflates past what may be
# held and of one under a memory limit; --record on a full disk in --batch,
# --headless and the dashboard.  The two recordings are made side by side
# at the start, the three full disks at the end.  Prints TAP, its plan
# first.
set -u
mounts=()
cleanup() {
	local m
	for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
}

. "$(dirname "$0")/../lib/tap-lib.sh"
tmux_socket hostile-recordings

plan 8

asan=0
ldd "$TL" 2>/dev/null | grep -q libasan && asan=1

# zstd_spaces FILE MIB [nl]: appends to FILE a zstd frame of MIB MiB of
# spaces (then a newline, with nl), written by hand as run-length blocks of
# 128 KiB: a few KiB that inflate to MIB MiB, as one who means harm makes
# them, and made without holding or compressing MIB MiB.
zstd_spaces() {
	local i n=$(($2 * 8))
	{
		# magic; no content size, no checksum; a 128 KiB window
		printf '\x28\xb5\x2f\xfd\x00\x38'
		# each block: 3 bytes (last?, type 1: run-length, 131072 times), the byte
		for ((i = 1; i < n; i++)); do printf '\x02\x00\x10\x20'; done
		if [ "${3:-}" = nl ]; then
			# and a last raw block of 1 byte
			printf '\x02\x00\x10\x20\x09\x00\x00\n'
		else
			printf '\x03\x00\x10\x20'
		fi
	} >>"$1"
}

# ---- the recordings the cases read, made side by side ------------------------
limited 60 "$TL" --batch -c 2 -i 0.2 --size 256 --format json --record "$tmp/rec.jsonl" \
	>/dev/null 2>"$tmp/rec.err" &
rec=$!
limited 60 "$TL" --batch -c 2 -i 0.2 --size 256 --format json --record "$tmp/rec.jsonl.zst" \
	>/dev/null 2>"$tmp/zrec.err" &
zrec=$!
track $rec $zrec
wait $rec

# ---- 1: --log on a recording ----------------------------------------------------
cp "$tmp/rec.jsonl" "$tmp/rec.before"
limited 10 "$TL" --log "$tmp/rec.jsonl" </dev/null >/dev/null 2>"$tmp/e"
st=$?
if [ $st = 2 ] && grep -q 'not an experiment log' "$tmp/e" && cmp -s "$tmp/rec.jsonl" "$tmp/rec.before"; then
	ok "--log on a recording: refused, exit 2, the recording untouched"
else
	notok "--log on a recording" "status $st" "$(cat "$tmp/e" "$tmp/rec.err")"
fi

# ---- 2: recordings of absurd numbers and hostile size -------------------------
head -n 2 "$tmp/rec.jsonl" >"$tmp/abs.jsonl"
sed -n 3p "$tmp/rec.jsonl" | sed 's/"effective":[0-9.]*/"effective":1e308/' >>"$tmp/abs.jsonl"
sed -n 2p "$tmp/rec.jsonl" | sed 's/"interval":[0-9.]*/"interval":-1/' >>"$tmp/abs.jsonl"
limited 20 "$TL" --replay "$tmp/abs.jsonl" --batch --format text >"$tmp/o" 2>"$tmp/e"
st=$?
if [ $st = 0 ] && grep -q 'out of range' "$tmp/e" && ! grep -Eq '[0-9]{16}' "$tmp/o" &&
	[ -s "$tmp/o" ]; then
	ok "--replay of 1e308 and an interval of -1: those samples skipped and named, no 300-digit number"
else
	notok "replay of absurd numbers" "status $st" "$(cat "$tmp/e")" "$(grep -Eo '[0-9]{16,}' "$tmp/o" | head -3)"
fi
{
	head -n 2 "$tmp/rec.jsonl"
	printf '{"time":"2026-12-01T00:00:00.000Z","pad":"'
	head -c $((70 << 20)) /dev/zero | tr '\0' x
	printf '"}\n'
	sed -n 3p "$tmp/rec.jsonl"
} >"$tmp/huge.jsonl"
limited 30 "$TL" --replay "$tmp/huge.jsonl" --batch --format json >"$tmp/o" 2>"$tmp/e"
st=$?
if [ $st = 0 ] && grep -q '70 MiB, over the 64 MiB' "$tmp/e" && [ "$(wc -l <"$tmp/o")" = 2 ]; then
	ok "--replay of a 70 MiB line: named and skipped, the two samples around it replayed"
else
	notok "replay of a huge line" "status $st" "$(cat "$tmp/e")"
fi
rm -f "$tmp/huge.jsonl"
wait $zrec
cp "$tmp/rec.jsonl.zst" "$tmp/bomb.zst"
zstd_spaces "$tmp/bomb.zst" 300
size=$(stat -c %s "$tmp/bomb.zst")
limited 30 "$TL" --replay "$tmp/bomb.zst" --batch --format json >"$tmp/o" 2>"$tmp/e"
st=$?
if [ $st = 0 ] && grep -q 'inflates past 256 MiB' "$tmp/e" && [ "$(wc -l <"$tmp/o")" = 2 ] &&
	[ "$size" -lt 100000 ]; then
	ok "--replay of a $((size / 1024)) KiB .zst inflating to 300 MiB: read up to that frame, said"
else
	notok "zstd bomb" "status $st, $size bytes" "$(cat "$tmp/e" "$tmp/zrec.err")"
fi
if [ $asan = 1 ]; then
	skip "a zstd frame under ulimit -v" "an ASan build cannot start under an address-space limit"
else
	cp "$tmp/rec.jsonl.zst" "$tmp/big.zst"
	zstd_spaces "$tmp/big.zst" 200 nl
	(
		ulimit -v 200000
		exec "$TL" --replay "$tmp/big.zst" --batch --format json
	) >"$tmp/o" 2>"$tmp/e"
	st=$?
	if [ $st = 0 ] && grep -q 'out of memory' "$tmp/e" && [ "$(wc -l <"$tmp/o")" = 2 ]; then
		ok "a 200 MiB frame under ulimit -v 200 MB: the message names memory, the samples before it replay"
	else
		notok "zstd frame under ulimit -v" "status $st" "$(cat "$tmp/e")"
	fi
fi
rm -f "$tmp"/*.zst

# ---- 3: --record on a full disk, the three modes side by side ------------------
# Each on a 64 KiB tmpfs of its own that a file already fills to its last
# 16 KiB: the header and two samples fit, then writes fail.
full() {
	mkdir -p "$tmp/$1" && mount -t tmpfs -o size=64k "tl-hostile-$1" "$tmp/$1" 2>/dev/null || return 1
	mounts+=("$tmp/$1")
	head -c $((48 << 10)) /dev/zero >"$tmp/$1/filler"
}
if [ "$(id -u)" = 0 ] && full fb && full fh && full fd; then
	limited 60 "$TL" --batch --size 256 -i 0.1 -c 8 --format json --record "$tmp/fb/r.jsonl" \
		>/dev/null 2>"$tmp/full.err" &
	fb=$!
	# --headless the same: said with the file and the reason, exit 1 at the end
	"$TL" --headless --size 256 -i 0.1 --record "$tmp/fh/h.jsonl" 2>"$tmp/hfull.err" &
	hl=$!
	track $fb $hl
	# the dashboard's message line shows the failure for a few samples:
	# looked for at once, reported third
	dash_why=none
	if tmux_installed; then
		$T new-session -d -x 120 -y 30 "$TL --size 256 -i 0.1 --record $tmp/fd/d.jsonl 2>$tmp/dfull.err; echo EXITED \$?; sleep 30"
		wait_pane 0 'cannot write the recording' 300
		$T send-keys -t 0 q
		wait_pane 0 'EXITED' 50
		dash_why=""
		grep -q 'EXITED 1' "$tmp/pane" && grep -q 'cannot write the recording: No space left on device.*exit status 1' "$tmp/dfull.err" ||
			dash_why="$(tail -n 3 "$tmp/pane")
$(cat "$tmp/dfull.err")"
		$T kill-server 2>/dev/null
	fi
	wait $fb
	st=$?
	if [ $st = 1 ] && grep -q 'cannot write the recording .*No space left on device' "$tmp/full.err"; then
		ok "--batch --record on a full disk: said, sampling went on, exit 1"
	else
		notok "--batch --record on a full disk" "status $st" "$(cat "$tmp/full.err")"
	fi
	until_true 300 grep -q 'cannot write the recording' "$tmp/hfull.err"
	kill -TERM $hl 2>/dev/null
	reap $hl 10
	st=$reaped
	if [ "$st" = 1 ] && grep -q "cannot write the recording $tmp/fh/h.jsonl: No space left on device; recording stops (exit status 1)" "$tmp/hfull.err"; then
		ok "--headless --record on a full disk: said with the file, exit 1 after SIGTERM"
	else
		notok "--headless --record on a full disk" "status $st" "$(cat "$tmp/hfull.err")"
	fi
	if [ "$dash_why" = none ]; then
		skip "the dashboard with --record on a full disk" "tmux is needed (Debian package tmux)"
	elif [ -z "$dash_why" ]; then
		ok "the dashboard with --record on a full disk: said on screen and after it, exit 1"
	else
		notok "dashboard --record on a full disk" "$dash_why"
	fi
else
	skip "--batch --record on a full disk" "needs root to mount a small tmpfs"
	skip "--headless --record on a full disk" "needs root to mount a small tmpfs"
	skip "the dashboard with --record on a full disk" "needs root to mount a small tmpfs"
fi
