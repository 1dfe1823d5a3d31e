#!/bin/bash
# test-completion.sh — the bash completion the build made from threadlab's
# option table (completion/threadlab): _threadlab is run on partial command
# lines, as bash runs it, and its candidates checked.  With bash-completion
# installed, the line after "--" is handed to the command's own completion.
# Prints TAP.  The processes it starts are killed on exit.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
COMP="$B/completion/threadlab"

have_bc=0
if [ -r /usr/share/bash-completion/bash_completion ]; then
	# shellcheck disable=SC1091
	. /usr/share/bash-completion/bash_completion && have_bc=1
fi
# shellcheck disable=SC1090
plan 25
. "$COMP" || { notok "$COMP cannot be sourced"; exit 1; }

# comp WORD...: the candidates for the command line WORD... (the last word
# is the one being completed, "" for a new one), one a line, sorted.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_threadlab threadlab "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | LC_ALL=C sort
}
# expect DESCRIPTION EXPECTED WORD...: the candidates are exactly EXPECTED
# (space-separated).
expect() {
	local d=$1 want got
	want=$(printf '%s\n' $2 | sed '/^$/d' | LC_ALL=C sort)
	shift 2
	got=$(comp "$@")
	if [ "$got" = "$want" ]; then
		ok "$d: '$*' -> ${want//$'\n'/ }"
	else
		notok "$d: '$*'" "want: ${want//$'\n'/ }" "got: ${got//$'\n'/ }"
	fi
}

# The generated file carries the table of the program it was made from.
list=$("$TL" --list-options)
st=$?
# shellcheck disable=SC2154
if [ $st = 0 ] && [ "$list" = "$_threadlab_options" ]; then
	ok "the completion's table is threadlab --list-options ($(printf '%s\n' "$list" | wc -l) options)"
else
	notok "the completion's table differs from threadlab --list-options (status $st)"
fi

expect "a long option from its start" "--format" threadlab --form
expect "long options sharing a start" "--tour --tour-notes --tour-step" threadlab --tou
expect "a short option" "-p" threadlab -p
expect "--format's values" "text csv json" threadlab --batch --format ""
expect "--format's values from a start" "json" threadlab --format j
expect "--format=VALUE, '=' split off as bash does" "json" threadlab --format = j
expect "--format=VALUE as one word" "--format=json" threadlab --format=j
expect "--precision's values" "single double" threadlab --precision ""
expect "--blas's values" "pthreads openmp" threadlab --sweep --blas ""
expect "--blas-spin's values" "default off" threadlab --blas-spin ""
expect "--collector's values" "auto bpf proc" threadlab --collector ""
expect "a numeric value is left to the user" "" threadlab --threads ""
expect "no PID starts with 0" "" threadlab -p 0
expect "after an option without a value, options again" "--tree" threadlab --batch --tre

# The man page documents every option of the same table, and every value
# of those that take one of a list (roff writes '-' as '\-').
man="$(dirname "$0")/../../man/threadlab.1"
undoc=""
while IFS=$'\t' read -r long _ kind values; do
	grep -qF -- "${long//-/\\-}" "$man" || undoc="$undoc $long"
	[ "$kind" = enum ] || continue
	for v in $values; do
		grep -qF -- "\fB$v\fR" "$man" || undoc="$undoc $long=$v"
	done
done <<<"$list"
if [ -z "$undoc" ] && [ -s "$man" ]; then
	ok "the man page names every option of --list-options and every listed value"
else
	notok "the man page does not document:$undoc"
fi

# Every option of the table is offered after "--", the hidden one is not,
# and every option's short name after "-".
got=$(comp threadlab --)
want=$( (echo --; printf '%s\n' "$list" | cut -f1) | LC_ALL=C sort)
if [ "$got" = "$want" ] && ! grep -q -- '--list-options' <<<"$got"; then
	ok "'threadlab --' offers all $(($(wc -l <<<"$want") - 1)) long options and '--', not --list-options"
else
	notok "'threadlab --' offers other options than the table" "$(diff <(echo "$want") <(echo "$got") | head -n 10)"
fi
shorts=$(printf '%s\n' "$list" | cut -f2 | grep -v '^-$' | LC_ALL=C sort)
got=$(comp threadlab - | grep -E '^-[^-]$' | LC_ALL=C sort)
[ -n "$shorts" ] && [ "$got" = "$shorts" ] && ok "'threadlab -' offers the short options ${shorts//$'\n'/ }" ||
	notok "short options" "want: $shorts" "got: $got"

# The enumerated values are those the parser takes (a value the parser
# refuses would make --help fail with 2), and the parser refuses others.
bad=""
while IFS=$'\t' read -r long short kind values; do
	[ "$kind" = enum ] || continue
	for v in $values; do
		"$TL" "$long" "$v" --help >/dev/null 2>"$tmp/err" || bad="$bad $long $v ($(cat "$tmp/err"));"
	done
	"$TL" "$long" no-such-value --help >/dev/null 2>&1
	[ $? = 2 ] || bad="$bad $long takes no-such-value;"
done <<<"$list"
[ -z "$bad" ] && ok "every enumerated value offered is one the parser takes, and only those" ||
	notok "enumerated values and the parser disagree" "$bad"

# Files and directories.
mkdir -p "$tmp/w/recs.d" && : >"$tmp/w/rec.jsonl"
cd "$tmp/w" || exit 1
expect "--record completes files" "rec.jsonl recs.d" threadlab --record rec
expect "--root completes directories only" "recs.d" threadlab --batch --root rec
cd - >/dev/null || exit 1

# -p: PIDs with their names; a name made printable.
sleep 300 &
sp=$!
track "$sp"
"$B/tests/lib/hostile-name" >"$tmp/hn" &
hp=$!
track "$hp"
until_true 50 grep -q ready "$tmp/hn"
got=$(comp threadlab -p "$sp")
if [ "$got" = "$sp" ] || grep -Eqx "$sp +\(sleep\)" <<<"$got"; then
	ok "-p $sp offers the sleeping process ($(grep -E "^$sp( |$)" <<<"$got"))"
else
	notok "-p $sp" "got: $got"
fi
got=$(comp threadlab --pid "")
line=$(grep -E "^$hp " <<<"$got")
if [ "$(wc -l <<<"$got")" -gt 2 ] && grep -Eqx "$sp +\(sleep\)" <<<"$got" && [ -n "$line" ] &&
	! LC_ALL=C grep -q '[^[:print:]]' <<<"$line" && grep -q 'RED' <<<"$line"; then
	ok "--pid lists every process with its name, a hostile name made printable ($line)"
else
	notok "--pid with its names" "hostile: $(printf '%q' "$line")" "$(head -n 5 <<<"$got")"
fi

# After "--": a command, then that command's own completion.
got=$(comp threadlab --batch -- slee)
grep -qx sleep <<<"$got" && ok "after --, commands ($(tr '\n' ' ' <<<"$got"))" ||
	notok "after --, commands" "got: $got"
if [ $have_bc = 1 ]; then
	expect "after -- CMD, that command's completion (here threadlab's own)" "--format" \
		threadlab -- threadlab --form
else
	skip "after -- CMD, that command's completion" "needs bash-completion (_command_offset)"
fi
