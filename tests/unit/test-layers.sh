#!/bin/bash
# test-layers.sh — the layer rule (docs/design.md, "Layers") holds, and keeps
# holding: tui/ and output/ include monitor/, output/ and their own headers
# (and common/, config.h and system headers), never a collectors/ or
# workload/ header directly; and no object of libtui.a or liboutput.a calls
# a function that libcollectors.a or libworkload.a defines (nm).  Also:
# workload/ does not link the collectors, and no collectors/ file includes a
# monitor/, output/ or tui/ header.
#
# The model owns its types (docs/design.md, "Layers"): no name that a
# collectors/ or workload/ header declares (a struct, union or enum tag, a
# typedef, a macro, an enumerator, a function or variable) appears in the
# code of tui/ or output/ (comments and strings aside), and no monitor/
# header those folders include reaches a collectors/ or workload/ header,
# however deep, so a face cannot name those types even by accident.
# Prints TAP.
set -u
BUILD="${THREADLAB_BUILDDIR:-.}"
. "$(dirname "$0")/../lib/tap-lib.sh"
plan 14

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


# ---- names ------------------------------------------------------------------

# layer_names FILES... -- FILES...: "file:line: name" for each name the
# files before -- declare that the code of the files after it uses.  One
# awk for all: comments and string literals are blanked first (a comment
# may cite a collectors/ function), a tag counts after its keyword only
# ("struct budget", not a variable named budget), and a member (.name,
# ->name) is not a use.
layer_names() {
	local decl=() use=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do decl+=("$1"); shift; done
	shift
	use=("$@")
	awk '
	function strip(s,    out, i, n, c, d, q) {
		out = ""; i = 1; n = length(s)
		while (i <= n) {
			c = substr(s, i, 1); d = substr(s, i, 2)
			if (incomment) {
				if (d == "*/") { incomment = 0; i += 2 } else i++
				continue
			}
			if (d == "/*") { incomment = 1; i += 2; out = out " "; continue }
			if (d == "//") break
			if (c == "\"" || c == "\047") {
				q = c; i++
				while (i <= n && substr(s, i, 1) != q) { if (substr(s, i, 1) == "\\") i++; i++ }
				i++; out = out q q; continue
			}
			out = out c; i++
		}
		return out
	}
	function declare(m) { if (!(m in bare)) { bare[m] = 1; ndecl++ } }
	function word(s) { match(s, /[A-Za-z_][A-Za-z0-9_]*/); return substr(s, RSTART, RLENGTH) }
	FNR == 1 { incomment = 0; depth = 0; inenum = 0; intypedef = 0; cont = 0 }
	{ line = strip($0) }
	phase == 1 {
		# a macro (an include guard aside); its continuation lines are its own
		if (cont) { cont = line ~ /\\[ \t]*$/; next }
		if (line ~ /^[ \t]*#/) {
			cont = line ~ /\\[ \t]*$/
			if (line ~ /^[ \t]*#[ \t]*define[ \t]/) {
				m = line; sub(/^[ \t]*#[ \t]*define[ \t]+/, "", m); m = word(m)
				if (m !~ /^THREADLAB_[A-Z0-9_]*_H$/) declare(m)
			}
			next
		}
		# tags defined (a brace follows) or declared ("struct x;")
		t = line
		while (match(t, /(struct|union|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*[{;]/)) {
			m = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
			split(m, w, /[ \t{;]+/)
			if (m ~ /\{/ || (depth == 0 && line ~ /^[ \t]*(struct|union|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*;/))
				{ if (!(w[2] in tag)) ndecl++; tag[w[2]] = w[1] }
		}
		# enumerators
		if (depth == 0 && line ~ /(^|[^A-Za-z0-9_])enum([ \t]+[A-Za-z_][A-Za-z0-9_]*)?[ \t]*(\{|$)/) inenum = 1
		if (inenum && (depth > 0 || line ~ /\{/)) {
			e = line; sub(/^.*\{/, "", e); sub(/\}.*$/, "", e)
			k = split(e, part, ",")
			for (i = 1; i <= k; i++) {
				p = part[i]; sub(/=.*/, "", p); gsub(/[ \t]/, "", p)
				if (p ~ /^[A-Za-z_][A-Za-z0-9_]*$/) declare(p)
			}
		}
		# typedefs: the name before the ";" (or inside "(*name)")
		if (depth == 0 && line ~ /^typedef[ \t]/) intypedef = 1
		if (intypedef && line ~ /;/) {
			if (match(line, /\(\*[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)/))
				declare(word(substr(line, RSTART + 2)))
			else if (match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*(\[[^]]*\])?[ \t]*;/))
				declare(word(substr(line, RSTART)))
			intypedef = 0
		}
		# functions: at file scope, the first name a "(" follows
		if (depth == 0 && !intypedef && line ~ /^[A-Za-z_]/ && line !~ /^typedef/ &&
		    match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
			m = word(substr(line, RSTART))
			if (m !~ /^(__attribute__|sizeof|_Static_assert|static_assert)$/) declare(m)
		}
		# variables declared extern
		if (depth == 0 && line ~ /^extern[ \t]/ && line !~ /\(/) {
			m = line; sub(/[ \t]*(\[[^]]*\])?[ \t]*;.*$/, "", m); sub(/.*[ \t*]/, "", m)
			declare(m)
		}
		o = gsub(/\{/, "{", line); c = gsub(/\}/, "}", line); depth += o - c
		if (depth <= 0) { depth = 0; inenum = 0 }
		next
	}
	phase == 2 {
		t = line; prev = ""
		while (match(t, /[A-Za-z_][A-Za-z0-9_]*/)) {
			x = substr(t, RSTART, RLENGTH); before = substr(t, 1, RSTART - 1)
			t = substr(t, RSTART + RLENGTH)
			if ((x in bare) && before !~ /(\.|->)[ \t]*$/)
				print FILENAME ":" FNR ": " x
			else if ((x in tag) && prev == tag[x] && before ~ /^[ \t]+$/)
				print FILENAME ":" FNR ": " prev " " x
			prev = x
		}
	}
	END { print "# " ndecl + 0 " names declared" }' phase=1 "${decl[@]}" phase=2 "${use[@]}"
}

(cd "$SRC" && layer_names collectors/*.h collectors/bpf/*.h workload/*.h -- tui/*.[ch] output/*.[ch]) >"$tmp/names"
ndecl=$(sed -n 's/^# \([0-9]*\) names declared$/\1/p' "$tmp/names")
sed -i '/^# [0-9]* names declared$/d' "$tmp/names"
if [ ! -s "$tmp/names" ] && [ "${ndecl:-0}" -gt 300 ]; then
	ok "tui/ and output/ name none of the $ndecl names collectors/ and workload/ headers declare"
else
	notok "tui/ and output/ name what collectors/ or workload/ headers declare ($(wc -l <"$tmp/names") uses)" \
		"$(head -n 40 "$tmp/names")"
fi

# The check can fail: a planted tui/ file naming a planted collectors
# header's tag, typedef, macro, enumerator, function and variable is
# caught, each; the same names in a comment, a string, as a member or as
# a variable named like a tag are not.
mkdir -p "$tmp/names-src/collectors" "$tmp/names-src/tui"
cat >"$tmp/names-src/collectors/planted.h" <<'PLANTED'
#ifndef THREADLAB_PLANTED_H
#define THREADLAB_PLANTED_H
#define PLANTED_MAX \
	4
struct planted_sample {
	int n;
};
enum planted_kind {
	PLANTED_ONE,
	PLANTED_TWO = 2,
};
typedef unsigned planted_count;
extern const int planted_table[PLANTED_MAX];
int planted_read(const struct planted_sample *s);
#endif
PLANTED
cat >"$tmp/names-src/tui/planted.c" <<'PLANTED'
/* planted_read(), struct planted_sample and PLANTED_MAX in a comment */
static int planted_face(const struct planted_sample *s, int planted_sample)
{
	const char *t = "planted_read PLANTED_ONE";
	planted_count n = 1;
	return s->planted_read + planted_sample + t[0] + PLANTED_MAX + PLANTED_TWO +
	       planted_read(s) + planted_table[0] + (int)n;
}
PLANTED
got=$(cd "$tmp/names-src" && layer_names collectors/planted.h -- tui/planted.c | grep -v '^#' |
	sed 's/^[^ ]* //' | tr '\n' ' ')
if [ "$got" = "struct planted_sample planted_count PLANTED_MAX PLANTED_TWO planted_read planted_table " ]; then
	ok "planted uses of a collectors header's names are caught (a tag, a typedef, a macro, an enumerator, a function, a variable)"
else
	notok "planted uses of a collectors header's names are caught" "got: $got"
fi

# ---- headers the faces reach --------------------------------------------------

# reach FOLDERS...: the headers that the quoted includes of the faces'
# files reach, transitively through monitor/ headers, as "via: header"
# where via is the monitor/ header (or face file) that includes it.
reach() {
	(cd "$SRC" && awk -v dirs="$*" '
	function lives(h,    i, f) {
		for (i = 1; i <= nd; i++) { f = d[i] "/" h; if ((getline x < f) >= 0) { close(f); return f } }
		return ""
	}
	BEGIN { nd = split(dirs, d, " ") }
	match($0, /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"/) {
		h = substr($0, 1, RLENGTH); sub(/^[^"]*"/, "", h); sub(/"$/, "", h)
		if (!(h in seen)) { seen[h] = FILENAME; queue[++nq] = h }
	}
	END {
		for (i = 1; i <= nq; i++) {
			h = queue[i]; f = lives(h)
			if (f == "") continue
			print seen[h] ": " f
			if (f !~ /^monitor\//) continue
			while ((getline l < f) > 0)
				if (match(l, /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"/)) {
					g = substr(l, 1, RLENGTH); sub(/^[^"]*"/, "", g); sub(/"$/, "", g)
					if (!(g in seen)) { seen[g] = f; queue[++nq] = g }
				}
			close(f)
		}
	}' tui/*.[ch] output/*.[ch])
}
reach monitor collectors workload >"$tmp/reach"
below=$(grep -E ': (collectors|workload)/' "$tmp/reach")
nmon=$(grep -c ': monitor/' "$tmp/reach")
if [ -z "$below" ] && [ "$nmon" -gt 10 ]; then
	ok "the $nmon monitor/ headers the faces include reach no collectors/ or workload/ header"
else
	notok "a monitor/ header the faces include reaches collectors/ or workload/" "$below"
fi

# The check can fail: a face including a monitor header that includes
# another that includes a collectors header is caught, named by the one
# that includes it.
mkdir -p "$tmp/reach-src/tui" "$tmp/reach-src/output" "$tmp/reach-src/monitor" "$tmp/reach-src/collectors"
printf '#include "outer.h"\n' >"$tmp/reach-src/tui/face.c"
printf '/* none */\n' >"$tmp/reach-src/output/none.c"
printf '#include "inner.h"\n' >"$tmp/reach-src/monitor/outer.h"
printf '#include "threads.h"\n' >"$tmp/reach-src/monitor/inner.h"
: >"$tmp/reach-src/collectors/threads.h"
got=$(SRC="$tmp/reach-src" reach monitor collectors workload | grep -E ': (collectors|workload)/')
if [ "$got" = "monitor/inner.h: collectors/threads.h" ]; then
	ok "a collectors header reached through two monitor headers is caught"
else
	notok "a collectors header reached through two monitor headers is caught" "got: $got"
fi
rm -rf "$tmp"
