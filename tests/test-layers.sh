#!/bin/bash
# test-layers.sh — the layer rule (docs/design.md, "Layers") holds, and keeps
# holding: tui/ and output/ include monitor/, output/ and their own headers
# (and common/, config.h and system headers), never a collectors/ or
# workload/ header directly; and no object of libtui.a or liboutput.a calls
# a function that libcollectors.a or libworkload.a defines (nm).  Also:
# workload/ does not link the collectors, and no collectors/ file includes a
# monitor/, output/ or tui/ header.  Prints TAP.
set -u
SRC="${THREADLAB_SRCDIR:-.}"
BUILD="${THREADLAB_BUILDDIR:-.}"
. "$(dirname "$0")/tap-lib.sh"
plan 10
tmp=$(mktemp -d)

# The quoted includes of the files in a folder, as "file: header".
includes() {
	(cd "$SRC" && awk 'match($0, /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"/) {
		h = substr($0, 1, RLENGTH); sub(/^[^"]*"/, "", h); sub(/"$/, "", h)
		print FILENAME ": " h }' "$1"/*.[ch])
}
# Whether header h lives in one of the folders given.
lives_in() {
	h=$1
	shift
	for d in "$@"; do [ -f "$SRC/$d/$h" ] && return 0; done
	return 1
}

# check_includes FOLDER ALLOWED-FOLDERS...: every quoted include of FOLDER's
# files is config.h or a header of an allowed folder.
check_includes() {
	folder=$1
	shift
	bad=""
	includes "$folder" >"$tmp/inc"
	while IFS= read -r line; do
		h=${line#*: }
		[ "$h" = config.h ] && continue
		# The BPF skeleton is generated in the build tree (when BPF is built).
		case $h in *.skel.h) [ "$folder" = collectors ] && continue ;; esac
		lives_in "$h" "$@" || bad="$bad${bad:+; }$line"
	done <"$tmp/inc"
	count=$(wc -l <"$tmp/inc")
	if [ -z "$bad" ] && [ "$count" -gt 0 ]; then
		ok "$folder/ includes only $* headers ($count includes)"
	else
		notok "$folder/ includes a header from outside $*" "$bad"
	fi
}

check_includes tui tui output monitor common
check_includes output output monitor common
check_includes collectors collectors common
check_includes workload workload common
check_includes monitor monitor collectors workload common

# The monitor never prints: it hands text to the faces.
prints=$(grep -nE '(^|[^a-z_])(printf|fprintf|vfprintf|fputs|puts|putchar|perror|fwrite)[[:space:]]*\(' "$SRC"/monitor/*.c | head -n 5)
if [ -z "$prints" ]; then
	ok "monitor/ never prints"
else
	notok "monitor/ prints" "$prints"
fi

# Calls: symbols a face's objects need that the collectors or the workload
# define.
defined() { nm --defined-only -g "$@" 2>/dev/null | awk 'NF >= 3 && $2 ~ /[TDBR]/ { print $3 }' | sort -u; }
undefined() { nm -u "$@" 2>/dev/null | awk '{ print $NF }' | sort -u; }
libs_ok=1
for l in libtui.a liboutput.a libcollectors.a libworkload.a libmonitor.a; do
	[ -f "$BUILD/$l" ] || libs_ok=0
done
if [ $libs_ok = 1 ]; then
	defined "$BUILD/libcollectors.a" "$BUILD/libworkload.a" >"$tmp/below"
	for face in libtui.a liboutput.a; do
		undefined "$BUILD/$face" >"$tmp/needs"
		calls=$(comm -12 "$tmp/below" "$tmp/needs" | tr '\n' ' ')
		nneeds=$(wc -l <"$tmp/needs")
		if [ -z "$calls" ] && [ "$nneeds" -gt 0 ] && [ "$(wc -l <"$tmp/below")" -gt 20 ]; then
			ok "$face calls nothing in collectors/ or workload/ ($nneeds outside symbols, all elsewhere)"
		else
			notok "$face calls collectors/ or workload/ directly" "$calls"
		fi
	done
	# The workload's programs and library never need a collectors symbol.
	defined "$BUILD/libcollectors.a" >"$tmp/coll"
	undefined "$BUILD/libworkload.a" >"$tmp/wneeds"
	calls=$(comm -12 "$tmp/coll" "$tmp/wneeds" | tr '\n' ' ')
	if [ -z "$calls" ]; then
		ok "libworkload.a needs nothing from libcollectors.a"
	else
		notok "libworkload.a calls the collectors" "$calls"
	fi
else
	notok "the libraries are built" "missing in $BUILD"
fi

# The check itself can fail: a tui/ file that names a collectors header is
# caught (a copy of the rule run on a planted file).
mkdir -p "$tmp/src/tui" "$tmp/src/collectors" "$tmp/src/monitor" "$tmp/src/output" "$tmp/src/common"
printf '#include "threads.h"\n' >"$tmp/src/tui/planted.c"
: >"$tmp/src/collectors/threads.h"
if (SRC="$tmp/src"; includes tui | while IFS= read -r line; do
	h=${line#*: }
	lives_in "$h" tui output monitor common || exit 1
done); then
	notok "a planted tui/ include of a collectors header is caught"
else
	ok "a planted tui/ include of a collectors header is caught"
fi

