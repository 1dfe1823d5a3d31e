#!/bin/sh
# seeds.sh NAME FIXTURES OUT — the seed corpus of fuzz target NAME: the
# fixture files of the kind it parses, copied into OUT (one file each).
name=$1 fx=$2 out=$3
i=0
put() { for f in "$@"; do [ -f "$f" ] && i=$((i + 1)) && cp "$f" "$out/seed-$i"; done; }
case "$name" in
fuzz-procparse) put $(find "$fx" -path '*/task/*' \( -name stat -o -name schedstat -o -name status \)) $(find "$fx" -path '*/proc/[0-9]*' -name status) ;;
fuzz-cgroup) put $(find "$fx" \( -name cgroup -o -name mountinfo -o -name online -o -name '*cpus*' \) -type f) ;;
fuzz-quota)
	put $(find "$fx" \( -name cpu.max -o -name cpu.stat -o -name cpu.pressure -o -path '*/pressure/cpu' \) -type f)
	# the cfs pair: quota line, then period
	for q in $(find "$fx" -name cpu.cfs_quota_us); do
		i=$((i + 1)); cat "$q" "${q%quota_us}period_us" >"$out/seed-$i" 2>/dev/null
	done ;;
fuzz-runtimes | fuzz-recording | fuzz-http) put "$fx"/seeds/"${name#fuzz-}"/* ;;
fuzz-machine)
	put "$fx"/seeds/machine/*
	# an ELF header with its program headers, from this machine's own binaries
	for b in /bin/true /lib/x86_64-linux-gnu/libc.so.6; do
		[ -f "$b" ] && i=$((i + 1)) && head -c 4096 "$b" >"$out/seed-$i"
	done ;;
*) echo "seeds.sh: no seeds for $name" >&2; exit 1 ;;
esac
