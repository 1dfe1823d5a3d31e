# The zsh completion function for threadlab (autoloaded as _threadlab).
# make puts the option table above this part, in _threadlab_options, from
# `threadlab --list-options` (one option a line: long name, short name or
# "-", kind of value, values; separated by tabs): nothing here names an
# option.

# After "--": the command to launch, then that command's own completion.
local i=${words[(i)--]}
if (( i < CURRENT )); then
	words=("${(@)words[i+1,-1]}")
	(( CURRENT -= i ))
	_normal
	return
fi

# Every process, shown with its name made printable.
_threadlab_pids() {
	local p comm
	local -a pids shown
	for p in /proc/<->(N); do
		p=${p#/proc/}
		read -r comm 2>/dev/null <"/proc/$p/comm" || continue
		pids+=("$p")
		shown+=("$p  (${comm//[^[:print:]]/?})")
	done
	compadd -l -d shown -a pids
}

local line long short kind values arg eq
local -a f specs
for line in ${(f)_threadlab_options}; do
	f=("${(@ps:\t:)line}")
	long=$f[1] short=$f[2] kind=$f[3] values=$f[4]
	eq="="
	case $kind in
	none) arg="" eq="" ;;
	enum) arg=":${long#--}:(${values})" ;;
	pid) arg=":process ID:_threadlab_pids" ;;
	file) arg=":file:_files" ;;
	dir) arg=":directory:_files -/" ;;
	*) arg=":${long#--}: " ;;
	esac
	if [[ $short != - ]]; then
		specs+=("(${short} ${long})${short}${arg}" "(${short} ${long})${long}${eq}${arg}")
	else
		specs+=("${long}${eq}${arg}")
	fi
done
_arguments : $specs
