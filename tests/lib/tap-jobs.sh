# tap-jobs.sh — helpers of the bash test scripts beside tap-lib.sh:
# programs started and waited for, and JSON checks that retry.  Sourced
# after tap-lib.sh (which sets B, TL, PY and tmp).
# jobs_need PROGRAM...: the whole script skips, naming what is missing, when
# threadlab, python3 or one of the PROGRAMs (paths) is not there.
jobs_need() {
	local p missing=()
	for p in "$TL" "$PY" "$@"; do [ -x "$p" ] || missing+=("$p"); done
	[ ${#missing[@]} = 0 ] || skip_all "${missing[*]} missing"
}
# start VAR CMD...: runs CMD in the background, its pid into VAR (tracked:
# killed at exit, and when the script dies without its exit trap too,
# tap-lib's tap_orphan_kill, which prio_run applies itself), and waits at most 5 s
# for its "ready" line (its output is kept in $tmp/start.VAR).
start() {
	local var=$1
	shift
	if declare -F "$1" >/dev/null; then
		"$@" >"$tmp/start.$var" 2>&1 &
	else
		"${tap_orphan_kill[@]}" "$@" >"$tmp/start.$var" 2>&1 &
	fi
	local p=$!
	track "$p"
	# (a program that never says ready costs the whole 5 s: said, so that
	# a slow script shows why)
	until_true 50 tap_file_has "$tmp/start.$var" ready ||
		echo "# start $var: no ready line within 5 s ($*)"
	printf -v "$var" '%s' "$p"
}
# json_check FILE STATUS PYTHON: PYTHON's assertions hold for the JSON in
# FILE, with lines (its JSON Lines), last (the last one), d (last's
# "diagnosis", else last) and st (STATUS, an exit status) defined; a
# failure's message is left in $tmp/err.
json_check() {
	local f=$1 status=$2 py=$3
	"${PY:-/usr/bin/python3}" - "$f" "$status" >"$tmp/err" 2>&1 <<PY
import json, sys
st = int(sys.argv[2])
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
last = lines[-1] if lines else {}
d = last.get("diagnosis", last)
$py
PY
}
# json_case DESC FILE PYTHON: one case, DESC: json_check's names, PYTHON's
# assertions hold for the JSON in FILE; a failure shows why and the file's
# start.
json_case() {
	if json_check "$2" 0 "$3"; then ok "$1"; else notok "$1" "$(cat "$tmp/err")" "$(head -c 1500 "$2")"; fi
}
# bounded SECONDS CMD...: runs CMD (a shell function too) for at most
# SECONDS; when it had to be stopped, what it ran and where each process
# of it slept go to $tmp/hang (for the log) and the status is 124.
bounded() {
	local limit=$1 p q below
	shift
	"$@" &
	p=$!
	if until_true $((limit * 10)) ended "$p"; then
		wait "$p"
		return
	fi
	below=$(descendants "$p")
	for q in $below; do
		echo "still running after $limit s: $(tr '\0' ' ' <"/proc/$q/cmdline" 2>/dev/null | cut -c1-100)" \
			"(threads asleep in: $(cat /proc/"$q"/task/*/wchan 2>/dev/null | tr '\n' ' ' | cut -c1-200))"
	done >"$tmp/hang"
	kill -9 $below "$p" 2>/dev/null
	wait "$p" 2>/dev/null
	return 124
}
# try3 DESC FILE PYTHON CMD...: CMD's JSON in FILE passes PYTHON's checks in
# one of three tries, each bounded to 90 s (a try that hangs is said in a
# TAP comment and counts as a failed try).
try3() {
	local desc=$1 f=$2 py=$3 st
	shift 3
	for _ in 1 2 3; do
		bounded 90 "$@" >"$f" 2>"$f.err"
		st=$?
		[ "$st" = 124 ] && sed 's/^/# /' "$tmp/hang"
		json_check "$f" "$st" "$py" && { ok "$desc"; return 0; }
		# Each failed try is said, so a log shows what noise flips.
		echo "# try failed: $(tail -n 1 "$tmp/err" | cut -c1-300)"
	done
	notok "$desc" "$(cat "$tmp/err")" "$(head -c 2000 "$f")" "$(head -c 500 "$f.err")"
	return 1
}
