#!/bin/bash
# test-file-length.sh — no source file of the program (.c and .h under
# collectors/ monitor/ output/ tui/ workload/ common/) is over 600 lines:
# a file that grows past that is split by purpose first (docs/design.md,
# "Layers").  A file over the limit fails, named.
# Prints TAP.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
MAX=600
FOLDERS="collectors monitor output tui workload common"

# over_limit ROOT: "path lines" for each .c/.h under ROOT's folders over MAX.
over_limit() {
	local d f l
	for d in $FOLDERS; do
		[ -d "$1/$d" ] || continue
		# One awk for the folder's files, not a wc per file.
		find "$1/$d" -type f \( -name '*.c' -o -name '*.h' \) -print | sort | tr '\n' '\0' |
			xargs -0 -r awk -v max="$MAX" -v root="$1/" '
				FNR == 1 && NR > 1 { if (n > max) print substr(f, length(root) + 1), n }
				FNR == 1 { f = FILENAME; n = 0 } { n++ }
				END { if (NR && n > max) print substr(f, length(root) + 1), n }'
	done
	return 0
}

over_limit "$SRC" >"$tmp/over"
bad=()
while read -r f l; do
	bad+=("$f: $l lines")
done <"$tmp/over"
plan 2

total=0
for d in $FOLDERS; do
	[ -d "$SRC/$d" ] && total=$((total + $(find "$SRC/$d" -type f \( -name '*.c' -o -name '*.h' \) | wc -l)))
done
if [ ${#bad[@]} = 0 ] && [ "$total" -gt 100 ]; then
	ok "every .c/.h under $FOLDERS is at most $MAX lines ($total files)"
else
	notok "files over $MAX lines (split them by purpose)" "${bad[@]}" "of $total files"
fi

# The check can fail: in a planted tree a 601-line file is caught, a
# 600-line one and a longer file outside the folders are not.
mkdir -p "$tmp/src/monitor" "$tmp/src/tests"
seq 601 >"$tmp/src/monitor/long.c"
seq 600 >"$tmp/src/monitor/full.h"
seq 900 >"$tmp/src/tests/other.c"
got=$(over_limit "$tmp/src")
if [ "$got" = "monitor/long.c 601" ]; then
	ok "a planted 601-line file is caught, a 600-line one is not, nor one outside the folders"
else
	notok "the planted tree" "got: $got"
fi
