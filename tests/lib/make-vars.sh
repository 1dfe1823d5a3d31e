#!/bin/sh
# make-vars.sh — what a configured build's Makefile sets some variables to.
#
#   make-vars.sh DIR VAR...
#
# Prints the value of each VAR in DIR/Makefile (automake's, after
# configure), one line each, in the order given: the lists of tests
# (TESTS, SERIAL_TESTS, LONG_TESTS) that setup.sh and .ci/package.sh read
# from the one place they are written.
[ $# -ge 2 ] || { echo "usage: make-vars.sh DIR VAR..." >&2; exit 2; }
dir=$1
shift
{
	echo 'tl-make-vars:'
	for v in "$@"; do printf '\t@echo $(%s)\n' "$v"; done
} | make -s -C "$dir" -f Makefile -f - tl-make-vars
