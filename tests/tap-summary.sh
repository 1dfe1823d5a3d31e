#!/bin/sh
# tap-summary.sh — the closing "N passed, N failed, N skipped" line of a run.
#
#   tap-summary.sh BUILDDIR [HARNESS_STATUS]
#
# Counts every test case automake's TAP driver recorded in BUILDDIR (*.trs):
# PASS and XFAIL pass; FAIL, ERROR and XPASS fail; SKIP is skipped.  A harness
# that failed (HARNESS_STATUS != 0) without a counted failure counts as one
# failure, so a broken run is never reported green.  Exits 0 only when
# nothing failed.
dir=${1:?usage: tap-summary.sh BUILDDIR [HARNESS_STATUS]}
status=${2:-0}
find "$dir" -name '*.trs' -exec cat {} + |
	awk -v status="$status" '
		/^:test-result: (PASS|XFAIL)/ { p++ }
		/^:test-result: (FAIL|ERROR|XPASS)/ { f++ }
		/^:test-result: SKIP/ { s++ }
		END {
			if (status != 0 && f == 0)
				f = 1
			printf "%d passed, %d failed, %d skipped\n", p, f, s
			exit f != 0
		}'
