# The bash completion function for threadlab.  make puts the option table
# above this part, in _threadlab_options, from `threadlab --list-options`
# (one option a line: long name, short name or "-", kind of value, values;
# separated by tabs): nothing here names an option.

# _threadlab_pids CUR: the PIDs starting with CUR, each with its process
# name when there are several; the name made printable.
_threadlab_pids() {
	local cur=$1 p comm i
	local -a pids=() names=()
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		[[ $p == "$cur"* ]] || continue
		read -r comm 2>/dev/null <"/proc/$p/comm" || continue
		pids+=("$p")
		names+=("${comm//[^[:print:]]/?}")
	done
	if ((${#pids[@]} == 1)); then
		COMPREPLY=("${pids[0]}")
		return
	fi
	for i in "${!pids[@]}"; do
		COMPREPLY+=("$(printf '%-7s (%s)' "${pids[i]}" "${names[i]}")")
	done
}

# _threadlab_values OPTION CUR: the values of OPTION starting with CUR.
# Returns 1 when OPTION takes no value (or is not one of threadlab's).
_threadlab_values() {
	local opt=$1 cur=$2 long short kind values
	while IFS=$'\t' read -r long short kind values; do
		[[ $opt == "$long" || $opt == "$short" ]] || continue
		case $kind in
		none) return 1 ;;
		enum) mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur") ;;
		pid) _threadlab_pids "$cur" ;;
		file)
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			;;
		dir)
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -d -- "$cur")
			;;
		esac
		return 0
	done <<<"$_threadlab_options"
	return 1
}

_threadlab() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev="" i
	COMPREPLY=()
	# After "--" comes a command to launch, then that command's arguments.
	for ((i = 1; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -- ]] || continue
		if ((i + 1 == COMP_CWORD)); then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u)
		elif declare -F _command_offset >/dev/null; then
			_command_offset $((i + 1))
		else
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		return 0
	done
	((COMP_CWORD > 1)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# --option=value: one word, or three when "=" is in COMP_WORDBREAKS.
	if [[ $cur == --*=* ]]; then
		local opt=${cur%%=*}
		_threadlab_values "$opt" "${cur#*=}" &&
			COMPREPLY=("${COMPREPLY[@]/#/$opt=}")
		return 0
	fi
	if [[ $cur == = ]]; then
		_threadlab_values "$prev" ""
		return 0
	fi
	if [[ $prev == = ]] && ((COMP_CWORD > 2)); then
		_threadlab_values "${COMP_WORDS[COMP_CWORD - 2]}" "$cur"
		return 0
	fi
	if [[ $prev == -* ]] && _threadlab_values "$prev" "$cur"; then
		return 0
	fi
	if [[ $cur == -* ]]; then
		local long short kind values
		local -a words=(--)
		while IFS=$'\t' read -r long short kind values; do
			words+=("$long")
			[[ $short == - ]] || words+=("$short")
		done <<<"$_threadlab_options"
		mapfile -t COMPREPLY < <(compgen -W "${words[*]}" -- "$cur")
	fi
	return 0
}
complete -F _threadlab threadlab
