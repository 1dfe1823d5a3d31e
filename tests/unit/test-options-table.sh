#!/bin/bash
# test-options-table.sh — the option table (tui/options-table.c, dumped by
# the hidden `threadlab --list-options`) is what --help, the man page and
# the shell completions say, both ways: every option of the table is in
# each, and each names no option the table lacks.  The placeholder of an
# option's value is the same in --help and in the man page.  Prints TAP.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
MAN="$SRC/man/threadlab.1"
plan 19

# same WHAT WANT GOT: ok when the two sorted lists (files) are equal, else
# the names missing from each side.
same() {
	local what=$1
	if cmp -s "$2" "$3" && [ -s "$2" ]; then
		ok "$what ($(wc -l <"$2") options)"
	else
		notok "$what" "missing: $(comm -23 "$2" "$3" | tr '\n' ' ')" \
			"not in the table: $(comm -13 "$2" "$3" | tr '\n' ' ')"
	fi
}

"$TL" --list-options >"$tmp/list" || notok "threadlab --list-options failed"
# The table: the listed options and the hidden one that lists them.
{ cut -f1 "$tmp/list" && echo --list-options; } | LC_ALL=C sort -u >"$tmp/table"
cut -f1 "$tmp/list" | LC_ALL=C sort -u >"$tmp/listed"
awk -F'\t' '$2 != "-" { print $2 " " $1 }' "$tmp/list" | LC_ALL=C sort >"$tmp/shorts"

# ---- --help --------------------------------------------------------------
"$TL" --help >"$tmp/help" || notok "threadlab --help failed"
# An option's line: "  -p, --pid PID  help" or "      --tree  help"; its
# left part and its help are two or more spaces apart.
sed -nE 's/^  (-[a-zA-Z], |    )(--[a-z][a-z-]*)( [^ ]+)?  .*/\2\3/p' "$tmp/help" >"$tmp/help-left"
cut -d' ' -f1 "$tmp/help-left" | LC_ALL=C sort -u >"$tmp/help-opts"
same "--help has a line for every listed option, and only those" "$tmp/listed" "$tmp/help-opts"
grep -oE -- '--[a-z][a-z-]+' "$tmp/help" | LC_ALL=C sort -u >"$tmp/help-named"
comm -13 "$tmp/table" "$tmp/help-named" >"$tmp/stale"
[ ! -s "$tmp/stale" ] && ok "every option --help names anywhere is one of the table's" ||
	notok "--help names options the table lacks" "$(tr '\n' ' ' <"$tmp/stale")"
sed -nE 's/^  (-[a-zA-Z]), (--[a-z][a-z-]*).*/\1 \2/p' "$tmp/help" | LC_ALL=C sort >"$tmp/help-shorts"
cmp -s "$tmp/shorts" "$tmp/help-shorts" && ok "--help gives the short forms of the table: $(cut -d' ' -f1 "$tmp/shorts" | tr '\n' ' ')" ||
	notok "short forms: table and --help differ" "$(diff "$tmp/shorts" "$tmp/help-shorts")"

# ---- the man page --------------------------------------------------------
# The headings of the MODES and OPTIONS sections (the line after each .TP),
# roff made plain: "\-" is "-", fonts and quotes dropped.
awk '/^\.SH /{ s = $2 } s == "MODES" || s == "OPTIONS" { if (tp) print; tp = /^\.TP/ }' "$MAN" |
	sed -E 's/^\.(BR?|BI|IR?) //; s/\\f[BIRP]//g; s/\\-/-/g; s/"//g' >"$tmp/man-heads"
grep -oE -- '(^| )--[a-z][a-z-]*' "$tmp/man-heads" | tr -d ' ' | LC_ALL=C sort -u >"$tmp/man-opts"
same "the man page's MODES and OPTIONS headings are the table's options, both ways" "$tmp/table" "$tmp/man-opts"
grep -E '^-[a-zA-Z] *, *--' "$tmp/man-heads" | sed -E 's/^(-[a-zA-Z]) *, *(--[a-z-]+).*/\1 \2/' |
	LC_ALL=C sort >"$tmp/man-shorts"
cmp -s "$tmp/shorts" "$tmp/man-shorts" && ok "the man page gives the same short forms" ||
	notok "short forms: table and man page differ" "$(diff "$tmp/shorts" "$tmp/man-shorts")"
# The placeholder after each option with a value that is not one of a list
# (the man page spells those out): the same word in --help and the man page.
bad=""
while IFS=$'\t' read -r long _ kind _; do
	[ "$kind" = none ] || [ "$kind" = enum ] && continue
	h=$(awk -v o="$long" '$1 == o { print $2; exit }' "$tmp/help-left")
	m=$(grep -oE -- "(^| )$long +[^ ,-][^ ]*" "$tmp/man-heads" | head -n1 | awk '{ print $2 }')
	m=${m%...}
	[ -n "$h" ] && [ "$h" = "$m" ] || bad="$bad $long (--help '$h', man '$m');"
done <"$tmp/list"
[ -z "$bad" ] && ok "each option's placeholder is the same in --help and the man page" ||
	notok "placeholders differ" "$bad"
# A knob's range and default (the knob table's, which --help appends to
# the option's help line) stand in the man page's paragraph of the option
# too: "1-64; default 1" in --help is "1\(en64" and "default 1" there.
# An option's help, its continuation lines (from column 25) joined to it.
awk 'BEGIN { pad = sprintf("%24s", "") } index($0, pad) == 1 { sub(/^ +/, ""); line = line " " $0; next }
	{ if (NR > 1) print line; line = $0 } END { print line }' "$tmp/help" | sed -E 's/ {2,}/ /g' >"$tmp/help-joined"
bad="" knobs=0
while read -r long range def; do
	knobs=$((knobs + 1))
	para=$(awk -v o="$long" '
		/^\.TP/ { on = 0; next }
		/^\.B/ && !seen { h = $0; gsub(/\\/, "", h)
			if (h ~ ("(^| )" o "( |\"|,|$)")) { on = 1; seen = 1; next } }
		on && /^\.(TP|SH|SS|PP)/ { on = 0 }
		on { print }' "$MAN" | tr '\n' ' ' | sed 's/\\(en/-/g; s/\\-/-/g; s/\\f[BIRP]//g')
	case "$para" in *"default $def"*) ;; *) bad="$bad $long (default $def);" ;; esac
	if [ "$range" != - ]; then
		case "$para" in *"$range"*) ;; *) bad="$bad $long ($range);" ;; esac
	fi
done < <(sed -nE 's/^ *(-[a-zA-Z], )?(--[a-z-]+) .*, ([0-9.]+-[0-9.]+); default ([^ ;,)]+).*/\2 \3 \4/p;
	t; s/^ *(-[a-zA-Z], )?(--[a-z-]+) .*; default ([^ ;,)]+) *$/\2 - \3/p' "$tmp/help-joined")
# The range --help gives is the one the parser holds to: one past either
# end is refused, naming that range; each end is taken.
refused="" ranges=0
while read -r long lo hi; do
	ranges=$((ranges + 1))
	for v in $((lo - 1)) $((hi + 1)); do
		"$TL" --batch -c 1 "$long" "$v" >/dev/null 2>"$tmp/err" </dev/null
		st=$?
		[ $st = 2 ] && grep -q -- "$long takes $lo to $hi" "$tmp/err" || refused="$refused $long $v (status $st: $(cat "$tmp/err"));"
	done
	for v in "$lo" "$hi"; do # parsed, then --help ends the run
		"$TL" "$long" "$v" --help >/dev/null 2>"$tmp/err" </dev/null ||
			refused="$refused $long $v refused: $(cat "$tmp/err");"
	done
done < <(sed -nE 's/^ *(-[a-zA-Z], )?(--[a-z-]+) .*, ([0-9]+)-([0-9]+); default .*/\2 \3 \4/p' "$tmp/help-joined")
[ "$ranges" -ge 6 ] && [ -z "$refused" ] && ok "the $ranges knob ranges --help gives are the parser's, at both ends" ||
	notok "knob ranges: --help and the parser differ ($ranges ranges read)" "$refused"
[ "$knobs" -ge 10 ] && [ -z "$bad" ] && ok "the $knobs knobs' ranges and defaults in --help are the man page's" ||
	notok "knob ranges or defaults: --help and the man page differ ($knobs knobs read)" "$bad"

# ---- the defaults of options that are no knob ---------------------------
# A help line names a default as "%g" (or "%s", an address), printed from
# the entry's def[] (sdef), the constant the code starts from: none is left
# unprinted, and the table's help lines write no default figure by hand.
grep -qE '%[gs]' "$tmp/help" && notok "--help prints every default a help line names" "$(grep -E '%[gs]' "$tmp/help")" ||
	ok "--help prints every default a help line names"
hand=$(grep -nE 'default:? [0-9]+([^.0-9]|$)|default:? [0-9]+\.[0-9]+\.[0-9]|[0-9]+ (offenders )?in text' "$SRC/tui/options-table.c")
[ -z "$hand" ] && ok "the option table's help lines write no default figure by hand" ||
	notok "the option table's help lines write no default figure by hand" "$hand"
# Every default figure --help prints (a number or an address) stands in
# the man page's paragraph of that option too: the option's first .B line
# past the SYNOPSIS (a mode's paragraph under MODES, an option's under
# OPTIONS).
man_para() { # LONG: the man page's paragraph of LONG, plain text
	awk -v o="$1" '
		/^\.SH/ { body = ($2 != "SYNOPSIS" && $2 != "NAME"); on = 0; next }
		/^\.TP/ { on = 0; next }
		body && /^\.B/ && !seen { h = $0; gsub(/\\/, "", h)
			if (h ~ ("(^| )" o "( |\"|,|$)")) { on = 1; seen = 1; next } }
		on && /^\.(TP|SH|SS|PP)/ { on = 0 }
		on { print }' "$MAN" | tr '\n' ' ' | sed 's/\\(en/-/g; s/\\-/-/g; s/\\f[BIRP]//g'
}
bad="" figures=0 last=""
while read -r long v; do
	figures=$((figures + 1))
	[ "$long" = "$last" ] || man_para "$long" >"$tmp/para"
	last=$long
	grep -qE "(^|[^0-9.])$v([^0-9]|\.?$|\.[^0-9])" "$tmp/para" || bad="$bad $long (default $v);"
done < <(grep -E '^ *(-[a-zA-Z], )?--[a-z-]+ ' "$tmp/help-joined" | awk '{
	match($0, /--[a-z-]+/); long = substr($0, RSTART, RLENGTH); s = $0
	while (match(s, /default [0-9][0-9.]*/)) {
		v = substr(s, RSTART + 8, RLENGTH - 8); sub(/\.$/, "", v); print long, v
		s = substr(s, RSTART + RLENGTH)
	} }')
[ "$figures" -ge 10 ] && [ -z "$bad" ] && ok "the $figures default figures --help prints stand in the man page's paragraphs" ||
	notok "default figures: --help and the man page differ ($figures read)" "$bad"

# The guides state two of those defaults in their prose: the latency map's
# size (docs/bpf.md) and the exporter's address (docs/prometheus.md); each
# is the figure --help prints.
help_def() { sed -nE "s/^ *$1 .*\(default ([0-9.]+)\).*/\1/p" "$tmp/help-joined"; }
doc_def() { tr '\n' ' ' <"$SRC/docs/$1" | sed -nE "s/.*$2.*/\1/p"; }
hb=$(help_def --bpf-threads) db=$(doc_def bpf.md '`--bpf-threads N` histograms \(default ([0-9]+),')
hs=$(help_def --serve) ds=$(doc_def prometheus.md 'ADDR is ([0-9.]+) unless you give another')
[ -n "$hb" ] && [ "$hb" = "$db" ] && [ -n "$hs" ] && [ "$hs" = "$ds" ] &&
	ok "the guides' defaults are --help's: --bpf-threads $db (docs/bpf.md), --serve's address $ds (docs/prometheus.md)" ||
	notok "the guides' defaults differ from --help's" "--bpf-threads: help '$hb', docs/bpf.md '$db'" \
		"--serve: help '$hs', docs/prometheus.md '$ds'"

# ---- the modes of each option (the table's "X is for Y" check) ----------
# usage WANT-MESSAGE ARG...: exit 2, WANT-MESSAGE on stderr, nothing on stdout.
usage() {
	local want=$1
	shift
	"$TL" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	local st=$?
	if [ $st = 2 ] && [ "$(cat "$tmp/err")" = "threadlab: $want" ] && [ ! -s "$tmp/out" ]; then
		ok "'$*': exit 2, $want"
	else
		notok "'$*'" "status $st" "$(cat "$tmp/err")"
	fi
}
usage "--record is for the dashboard, --batch, --sweep and --headless" --budget --record "$tmp/r"
usage "-c is for --batch" --replay "$tmp/none.jsonl" -c 3
usage "--root is for --budget and --batch" --diagnose --root /

# ---- the shell completions -----------------------------------------------
comp="$B/completion/threadlab"
if [ -r "$comp" ]; then
	# shellcheck disable=SC1090
	got=$(bash -c '. "$1" && printf "%s\n" "$_threadlab_options"' _ "$comp")
	cut -f1 <<<"$got" | LC_ALL=C sort -u >"$tmp/comp-opts"
	same "the bash completion's option list is the table's, both ways" "$tmp/listed" "$tmp/comp-opts"
	[ "$got" = "$(cat "$tmp/list")" ] && ok "the bash completion carries the table's kinds and values as listed" ||
		notok "the bash completion's table is not threadlab --list-options" \
			"$(diff <(echo "$got") "$tmp/list" | head -n 5)"
else
	skip "the bash completion's option list" "$comp not built"
	skip "the bash completion's kinds and values" "$comp not built"
fi
zcomp="$B/completion/_threadlab"
if [ -r "$zcomp" ]; then
	sed -n "/^_threadlab_options='/,/'\$/p" "$zcomp" | sed "s/^_threadlab_options='//; s/'\$//" >"$tmp/zlist"
	cut -f1 "$tmp/zlist" | LC_ALL=C sort -u >"$tmp/zcomp-opts"
	same "the zsh completion's option list is the table's, both ways" "$tmp/listed" "$tmp/zcomp-opts"
else
	skip "the zsh completion's option list" "$zcomp not built"
fi
# The completion functions name no option themselves: each reads the table.
named=$(cat "$SRC/completion/threadlab.bash" "$SRC/completion/threadlab.zsh" |
	grep -v '^[[:space:]]*#' | grep -oE -- '--[a-z][a-z-]+' | LC_ALL=C sort -u | comm -12 - "$tmp/table")
[ -z "$named" ] && ok "completion/threadlab.bash and .zsh name no option of the table themselves" ||
	notok "the completion functions name options by hand" "$named"
