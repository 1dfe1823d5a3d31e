#!/bin/sh
# tap-summary.sh — the closing "N passed, N failed, N skipped" line of a run.
#
#   tap-summary.sh [--label TEXT] BUILDDIR... [HARNESS_STATUS]
#
# Counts every test case automake's TAP driver recorded in each BUILDDIR
# (*.trs): PASS and XFAIL pass; FAIL, ERROR and XPASS fail; SKIP is skipped.
# A harness that failed (HARNESS_STATUS != 0) without a counted failure
# counts as one failure, so a broken run is never reported green; so does a
# BUILDDIR with no results at all.  TEXT, when given, starts the line
# ("TEXT: N passed, ...").  Exits 0 only when nothing failed.
#
# Before that line, each test with a failed case is named with its "not ok"
# lines and the diagnostics under them (a script that died without one: its
# last lines), then all their names on one line, so that the end of a long
# run's output says what failed.
label=""
if [ "${1:-}" = --label ]; then
	label="$2: "
	shift 2
fi
[ $# -ge 1 ] || { echo "usage: tap-summary.sh [--label TEXT] BUILDDIR... [HARNESS_STATUS]" >&2; exit 2; }
status=0
dirs=""
empty=0
for a in "$@"; do
	case "$a" in
	*[!0-9]* | "") dirs="$dirs $a" ;;
	*) if [ -d "$a" ]; then dirs="$dirs $a"; else status=$a; fi ;;
	esac
done
for d in $dirs; do
	[ -n "$(find "$d" -name '*.trs' | head -n1)" ] || empty=$((empty + 1))
done
# shellcheck disable=SC2086
failed=$(find $dirs -name '*.trs' -exec grep -lE '^:test-result: (FAIL|ERROR|XPASS)' {} + 2>/dev/null | sort)
for trs in $failed; do
	log=${trs%.trs}.log
	echo "failed: ${log#./}"
	if [ ! -f "$log" ]; then
		sed -nE 's/^:test-result: (FAIL|ERROR|XPASS) */  not ok /p' "$trs"
	else
		# each failed case (a known failure that passed, XPASS, too) with
		# the diagnostics under it; a script that died without one: its end
		cases=$(awk '(/^not ok/ && !/# TODO/) || /^ok .*# TODO/ { n = 12; print "  " $0; next }
			n > 0 && /^(PASS|FAIL|ERROR|SKIP|XFAIL|XPASS): / { next }
			n > 0 && /^#/ { print "  " $0; n--; next }
			{ n = 0 }' "$log" | head -n 24)
		if [ -n "$cases" ]; then
			printf '%s\n' "$cases"
		else
			tail -n 8 "$log" | sed 's/^/  | /'
		fi
	fi
done
# The names once more, together, where the end of a long output shows them.
if [ -n "$failed" ]; then
	names=$(for trs in $failed; do t=${trs%.trs}; printf '%s ' "${t##*/}"; done)
	echo "the tests that failed: ${names% }"
fi
# shellcheck disable=SC2086
find $dirs -name '*.trs' -exec cat {} + |
	awk -v status="$status" -v empty="$empty" -v label="$label" '
		/^:test-result: (PASS|XFAIL)/ { p++ }
		/^:test-result: (FAIL|ERROR|XPASS)/ { f++ }
		/^:test-result: SKIP/ { s++ }
		END {
			if (status != 0 && f == 0)
				f = 1
			f += empty
			printf "%s%d passed, %d failed, %d skipped\n", label, p, f, s
			exit f != 0
		}'
