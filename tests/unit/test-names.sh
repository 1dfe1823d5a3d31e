#!/bin/bash
# test-names.sh — every name a file exports carries its file's stem
# (docs/design.md, "Names"): a function of monitor/diagnosis-advice.c starts
# with diagnosis_advice_, one of collectors/cgroup-parse.c with
# cgroup_parse_; the stem of its family (diagnosis_, cgroup_) is not enough.
# Read from the objects (nm), so every exported function and variable
# counts, static ones do not.  Left out: main, the names the compiler makes
# (__odr_asan.*, in the sanitizer build), the BPF programs (their names are
# the kernel's hook names) and common/xalloc.c's x-prefixed allocators
# (xmalloc, xstrdup: the old convention).  A stand-in built instead of a
# module (collectors/bpf-none.c when BPF is not built) carries the stems of
# the modules it stands in for (bpf_load_, bpf_threads_).
#
# And every name a file exports is declared in its own header
# (docs/design.md, "Layers"): one of monitor/diagnosis-advice.c in
# diagnosis-advice.h.  A module's headers are stem.h and the private sides
# named after it that no other module owns (stem-impl.h, diagnosis-input.h
# for diagnosis.c): a header belongs to the .c whose stem is its name's
# longest prefix cut at a dash.  A family's header that no .c owns (the
# shared types of threads.h, cgroup.h) declares no one's functions.  A
# stand-in built instead of a module (collectors/bpf-none.c when BPF is not
# built) is held to the headers of the modules it stands in for.  Prints
# TAP.
set -u
BUILD="${THREADLAB_BUILDDIR:-.}"
. "$(dirname "$0")/../lib/tap-lib.sh"
plan 5

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
# strays: the lines of "folder stem name" whose name does not carry the
# file's stem (dashes made underscores).
strays() {
	awk '
	$3 == "main" || $3 ~ /^__/ || ($1 == "common" && $2 == "xalloc" && $3 ~ /^x/) { next }
	$1 == "collectors" && $2 == "bpf-none" && ($3 ~ /^bpf_load_/ || $3 ~ /^bpf_threads_/) { next }
	{
		stem = $2; gsub("-", "_", stem)
		if ($3 != stem && index($3, stem "_") != 1) print $1 "/" $2 ": " $3
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

# The check can fail: planted names without their stem are caught, among
# them the family's prefix alone (dash_keys_mark in dash-log.c, cgroup_psi_parse
# in cgroup-parse.c) and a stand-in's name outside the stems it stands in for
# (bpf_tasks_free in bpf-none.c).
printf '%s\n' "monitor diagnosis-advice diagnosis_advice_over" \
	"monitor diagnosis-advice diag_advise_over" "collectors cgroup-parse psi_parse" \
	"collectors cgroup-parse cgroup_psi_parse" "tui dash-log dash_keys_mark" \
	"tui dash-log dash_log_key_mark" "tui dash-log dash_log" "tui dash-log dash_logger" \
	"collectors bpf-none bpf_load_free" "collectors bpf-none bpf_tasks_free" \
	"common xalloc xmalloc" >"$tmp/planted"
got=$(strays <"$tmp/planted" | tr '\n' ' ')
want="monitor/diagnosis-advice: diag_advise_over collectors/cgroup-parse: psi_parse "
want="${want}collectors/cgroup-parse: cgroup_psi_parse tui/dash-log: dash_keys_mark "
want="${want}tui/dash-log: dash_logger collectors/bpf-none: bpf_tasks_free "
if [ "$got" = "$want" ]; then
	ok "planted strays (no stem, a family's prefix alone, a stand-in's name outside its modules' stems) are caught, the stem passes"
else
	notok "planted strays are caught" "got: $got"
fi

# owners: "folder/stem folder/header" for each header of the folders read,
# with the .c that owns it (its name's longest prefix, cut at a dash, that
# names a .c of the folder); headers no .c owns are left out.  Stand-ins
# follow, with the headers they are held to.
owners() {
	local d h s
	for d in collectors monitor tui output workload common; do
		for h in "$SRC/$d"/*.h; do
			s=${h##*/}
			s=${s%.h}
			while [ -n "$s" ] && [ ! -f "$SRC/$d/$s.c" ]; do
				case $s in *-*) s=${s%-*} ;; *) s="" ;; esac
			done
			[ -n "$s" ] && echo "$d/$s $d/${h##*/}"
		done
	done
	echo "collectors/bpf-none collectors/bpf-load.h"
	echo "collectors/bpf-none collectors/bpf-threads.h"
}
# words HEADER...: "folder/header word" for each identifier a header's code
# holds (comments dropped).
words() {
	local h
	for h in "$@"; do
		awk -v k="${h#"$SRC"/}" '
		{
			line = $0; out = ""
			while (line != "") {
				if (incomment) {
					i = index(line, "*/")
					if (!i) { line = ""; break }
					line = substr(line, i + 2); incomment = 0
				} else {
					i = index(line, "/*")
					if (!i) { out = out line; break }
					out = out substr(line, 1, i - 1) " "; line = substr(line, i + 2); incomment = 1
				}
			}
			n = split(out, w, /[^A-Za-z0-9_]+/)
			for (j = 1; j <= n; j++) if (w[j] != "") print k, w[j]
		}' "$h"
	done | sort -u
}
# undeclared OWNERS WORDS: the lines of "folder stem name" (standard input)
# whose name no header of folder/stem declares.
undeclared() {
	awk -v owners="$1" -v words="$2" '
	BEGIN {
		while ((getline l < owners) > 0) { split(l, f, " "); heads[f[1]] = heads[f[1]] " " f[2] }
		while ((getline l < words) > 0) { split(l, f, " "); has[f[1] " " f[2]] = 1 }
	}
	$3 == "main" || $3 ~ /^__/ { next }
	{
		m = $1 "/" $2; ok = 0
		n = split(heads[m], h, " ")
		for (i = 1; i <= n; i++) if ((h[i] " " $3) in has) ok = 1
		if (!ok) print m ": " $3 (n ? " (not in" heads[m] ")" : " (no header of its own)")
	}'
}

owners >"$tmp/owners"
words "$SRC"/{collectors,monitor,tui,output,workload,common}/*.h >"$tmp/words"
undeclared "$tmp/owners" "$tmp/words" <"$tmp/names" >"$tmp/undeclared"
if [ "$count" -gt 300 ] && [ ! -s "$tmp/undeclared" ]; then
	ok "the $count exported names are each declared in their own file's header"
else
	notok "exported names are declared in their own file's header ($count read)" \
		"$(head -n 40 "$tmp/undeclared")"
fi

# The check can fail: a name no header declares, one declared only in
# another file's header, and one in a family's header are caught; one in
# the module's private side passes.
printf '%s\n' "monitor diagnosis-advice diagnosis_planted_stray" \
	"tui dash-keys-act dash_rows_header" "collectors thread-set thread_rate" \
	"monitor thread-field thread_field_set" "monitor diagnosis diagnosis_make" >"$tmp/planted"
got=$(undeclared "$tmp/owners" "$tmp/words" <"$tmp/planted" | sed 's/ (.*//' | tr '\n' ' ')
if [ "$got" = "monitor/diagnosis-advice: diagnosis_planted_stray tui/dash-keys-act: dash_rows_header collectors/thread-set: thread_rate " ]; then
	ok "planted undeclared names are caught, a module's private header passes"
else
	notok "planted undeclared names are caught" "got: $got"
fi
rm -rf "$tmp"
