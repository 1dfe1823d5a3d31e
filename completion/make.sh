#!/bin/sh
# make.sh PROGRAM FIRST-LINE FUNCTION-FILE: a completion script on stdout:
# FIRST-LINE, the option table of PROGRAM (--list-options) in
# _threadlab_options, then the function.  Fails when the listing does.
set -e
list=$("$1" --list-options)
printf '%s\n' "$2"
printf '# made by make from threadlab --list-options and %s\n' "${3##*/}"
printf "_threadlab_options='%s'\n" "$list"
cat "$3"
