#!/bin/bash
# test-names.sh — every name a file exports carries its file's stem
# (docs/design.md, "Names"): a function of monitor/diagnosis-advice.c starts
# with diagnosis_advice_ or with the stem of its family, diagnosis_ (the
# file's name cut at a dash); one of collectors/cgroup-parse.c with
# cgroup_parse_ or cgroup_.  Read from the objects (nm), so every exported
# function and variable counts, static ones do not.  Left out: main, the
# names the compiler makes (__odr_asan.*, in the sanitizer build), the
# BPF programs (their names are the kernel's hook names) and
# common/xalloc.c's x-prefixed allocators (xmalloc, xstrdup: the old
# convention).  Prints TAP.
set -u
SRC="${THREADLAB_SRCDIR:-.}"
BUILD="${THREADLAB_BUILDDIR:-.}"
. "$(dirname "$0")/tap-lib.sh"
plan 3
tmp=$(mktemp -d)

# objects FOLDER...: "folder stem name" for each global the objects of a
# folder's sources define (an object left over from a source that is gone
# does not count).  An object is named after its source (stem.o), or after
# its target and source when the target has flags of its own
# (libmonitor_a-stem.o, threadlab_gemm-stem.o, threadlab-stem.o).
objects() {
	local d f s o list=()
	for d in "$@"; do
		for f in "$SRC/$d"/*.c "$SRC/$d"/*.cc; do
			[ -f "$f" ] || continue
			s=${f##*/}
			s=${s%.*}
			for o in "$BUILD/$d/$s.o" "$BUILD/$d"/lib*_a-"$s.o" "$BUILD/$d/threadlab_gemm-$s.o" \
				"$BUILD/$d/threadlab-$s.o"; do
				[ -f "$o" ] && list+=("$o")
			done
		done
	done
	# One nm for all: it heads each object's names with "path:".
	nm --defined-only -g -A "${list[@]}" 2>/dev/null | awk '
	{
		split($1, p, ":"); path = p[1]
		n = split(path, q, "/"); d = q[n - 1]; b = q[n]
		sub(/\.o$/, "", b); sub(/^lib[a-z]*_a-/, "", b); sub(/^threadlab_gemm-/, "", b); sub(/^threadlab-/, "", b)
		if (NF >= 3 && $(NF - 1) ~ /^[TDBRC]$/) print d, b, $NF
	}'
}
# strays: the lines of "folder stem name" whose name carries neither the
# stem nor a family's (the stem cut at a dash) prefix.
strays() {
	awk '
	$3 == "main" || $3 ~ /^__/ || ($1 == "common" && $2 == "xalloc" && $3 ~ /^x/) { next }
	{
		stem = $2; gsub("-", "_", stem)
		n = split(stem, part, "_"); pre = ""; ok = 0
		for (i = 1; i <= n; i++) {
			pre = i == 1 ? part[1] : pre "_" part[i]
			if ($3 == pre || index($3, pre "_") == 1) ok = 1
		}
		if (!ok) print $1 "/" $2 ": " $3
	}'
}

objects collectors monitor tui output workload common | sort -u >"$tmp/names"
count=$(wc -l <"$tmp/names")
strays <"$tmp/names" >"$tmp/strays"
if [ "$count" -gt 300 ] && [ ! -s "$tmp/strays" ]; then
	ok "$count exported names of collectors/, monitor/, tui/, output/, workload/ and common/ carry their file's stem"
else
	notok "exported names carry their file's stem ($count read)" "$(head -n 40 "$tmp/strays")"
fi

# Every folder was read: an object naming scheme the stems above miss
# (a folder of no objects) would make the check above pass on nothing.
missing=""
for d in collectors monitor tui output workload common; do
	grep -q "^$d " "$tmp/names" || missing="$missing $d"
done
if [ -z "$missing" ]; then
	ok "names were read from the objects of all six folders"
else
	notok "names were read from every folder" "no objects in:$missing"
fi

# The check can fail: planted names without their stem are caught, a
# family's prefix passes.
printf '%s\n' "monitor diagnosis-advice diagnosis_advise_over" \
	"monitor diagnosis-advice diag_advise_over" "collectors cgroup-parse psi_parse" \
	"collectors cgroup-parse cgroup_cfs_parse" "common xalloc xmalloc" >"$tmp/planted"
got=$(strays <"$tmp/planted" | tr '\n' ' ')
if [ "$got" = "monitor/diagnosis-advice: diag_advise_over collectors/cgroup-parse: psi_parse " ]; then
	ok "planted strays (diag_advise_over, psi_parse) are caught, a family's prefix passes"
else
	notok "planted strays are caught" "got: $got"
fi
rm -rf "$tmp"
