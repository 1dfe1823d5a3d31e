#!/bin/bash
# test-completion-zsh.sh — the zsh completion the build made from
# threadlab's option table (completion/_threadlab), typed into a real zsh
# in a private tmux: Tab on partial command lines, the line or the list
# read back with capture-pane.  Prints TAP; skips visibly without zsh or
# tmux.  The processes it starts are killed on exit.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
tmux_socket zsh
if ! command -v zsh >/dev/null || ! tmux_installed; then
	skip_all "needs zsh and tmux"
fi
plan 8

mkdir -p "$tmp/fn"
cp "$B/completion/_threadlab" "$tmp/fn/"
$T new-session -d -x 200 -y 120 "env -i HOME=$tmp TERM=xterm PATH=/usr/bin:/bin LISTMAX=0 zsh -f -i"
$T send-keys "fpath=($tmp/fn \$fpath); autoload -Uz compinit; compinit -u -D; PS1='%% '" Enter
$T send-keys "clear; print ready" Enter
wait_pane 0 '^ready' 100 || { notok "zsh started" "$(cat "$tmp/pane")"; exit 1; }

# abort_line: one C-c, then whether the prompt is empty again (tmux trims
# the space after "%").
abort_line() {
	sleep 0.2
	$T send-keys C-c
	wait_pane 0 '^% ?$' 10 >/dev/null && [ "$(grep -v '^$' "$tmp/pane" | tail -n 1)" = "%" ]
}
# tab DESCRIPTION ERE TEXT [AFTER]: types TEXT, presses Tab (then types
# AFTER), waits for ERE on the screen, then clears the line and the screen.
tab() {
	local d=$1 want=$2
	$T send-keys "$3" Tab ${4:+"$4"}
	if wait_pane 0 "$want" 50; then
		ok "$d: '$3<Tab>'"
	else
		notok "$d: '$3<Tab>'" "$(sed '/^$/d' "$tmp/pane")"
	fi
	# Abort until the prompt is empty again (a C-c that lands while a
	# completion function runs aborts only that), then clear the screen.
	retry 5 abort_line
	$T send-keys "clear" Enter
	wait_pane 0 '^% ?$' 50 >/dev/null
}

tab "a long option from its start" '^% threadlab --format' "threadlab --form"
tab "--format's values listed" 'csv +json +text' "threadlab --batch --format "
tab "--blas's values from a start" '^% threadlab --blas openmp' "threadlab --blas o"
tab "--precision=VALUE in one word" '^% threadlab --precision=double' "threadlab --precision=d"
tab "-p lists processes with their names" '^1 +\(' "threadlab -p 1"
sleep 300 &
sp=$!
track "$sp"
# Completed alone, the PID gets its space (the X typed after shows it);
# else it is listed with its name.
tab "-p offers a sleeping process" "(^% threadlab -p $sp X|^$sp +\\(sleep\\))" "threadlab -p $sp" X
tab "after --, commands" '^% threadlab -- sleep' "threadlab -- slee"
tab "after -- CMD, its own completion (threadlab's here)" '^% threadlab -- threadlab --format' \
	"threadlab -- threadlab --form"
