#!/bin/bash
# test-install.sh — what make install puts where, that the installed
# program runs its lab from any directory with the helpers of its own tree
# (never those of the build tree or of $PATH), and that make uninstall
# leaves no file behind.  Installs into a throw-away DESTDIR.  Prints TAP.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
plan 7
root="$tmp/root"
# A make of its own: the suite's MAKEFLAGS (w, -j, the jobserver) would print
# directories into the output read below.
MAKE="env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make}"

# The configured directories, as make expands them.
dirs=$($MAKE -s -C "$B" --no-print-directory -f - print-dirs 2>/dev/null <<'MK'
include Makefile
print-dirs:
	@echo "$(bindir) $(pkglibexecdir) $(mandir) $(bashcompletiondir) $(zshcompletiondir) $(systemdsystemunitdir) $(pkgdatadir)"
MK
)
read -r bindir libexec mandir compdir zshdir unitdir datadir <<<"$dirs"
if [ -z "$datadir" ]; then
	notok "cannot read the configured directories from $B/Makefile"
	exit 1
fi

if limited 300 $MAKE -C "$B" install DESTDIR="$root" >"$tmp/install.log" 2>&1; then
	ok "make install DESTDIR=… ($(find "$root" ! -type d | wc -l) files)"
else
	notok "make install DESTDIR=…" "$(tail -n 20 "$tmp/install.log")"
fi

missing=""
for f in "$bindir/threadlab" "$libexec/threadlab-anchor" "$libexec/threadlab-gemm" \
	"$libexec/threadlab-burn" "$mandir/man1/threadlab.1" "$compdir/threadlab" "$zshdir/_threadlab" \
	"$datadir/prometheus/threadlab-rules.yml" "$datadir/prometheus/prometheus.yml" \
	"$datadir/kubernetes/threadlab-daemonset.yaml"; do
	[ -e "$root$f" ] || missing="$missing $f"
done
[ "$unitdir" = no ] || [ -e "$root$unitdir/threadlab-exporter.service" ] ||
	missing="$missing $unitdir/threadlab-exporter.service"
for h in threadlab-anchor threadlab-gemm threadlab-burn; do
	[ -e "$root$bindir/$h" ] && missing="$missing (and $h in $bindir, on \$PATH)"
done
[ -z "$missing" ] && ok "the program in $bindir, its helpers in $libexec, man page, completions, unit, fleet files" ||
	notok "installed files" "missing or misplaced:$missing"

if [ "$unitdir" != no ]; then
	grep -qx "ExecStart=$bindir/threadlab .*" "$root$unitdir/threadlab-exporter.service" &&
		ok "the unit starts $bindir/threadlab" ||
		notok "the unit's ExecStart" "$(grep ExecStart= "$root$unitdir/threadlab-exporter.service")"
else
	skip "the unit's ExecStart" "configured --with-systemdsystemunitdir=no"
fi

# The staged tree, run from / with no build tree in sight: its own helpers,
# not the decoys on $PATH (they would fail the lab).
tl="$root$bindir/threadlab"
mkdir -p "$tmp/decoys"
for h in threadlab-anchor threadlab-gemm threadlab-burn; do
	printf '#!/bin/sh\nexit 1\n' >"$tmp/decoys/$h"
	chmod +x "$tmp/decoys/$h"
done
clean_env=(env -u THREADLAB_BUILDDIR -u THREADLAB_LIBEXECDIR -u THREADLAB_SRCDIR
	PATH="$tmp/decoys:/usr/bin:/bin")
want=$(realpath "$root$libexec")
got=$(cd / && "${clean_env[@]}" "$tl" --version | sed -n 's/^helpers: //p')
[ "$got" = "$want (installed)" ] && ok "--version: helpers: $got" ||
	notok "--version names the staged helpers" "want: $want (installed)" "got: $got"

(cd / && exec "${clean_env[@]}" "$tl" --batch -c 4 -i 0.5 --size 256 --format json) >"$tmp/lab.json" 2>"$tmp/lab.err" &
bp=$!
track "$bp"
exes=""
anchor() { sed -n 's/.*"anchor_pid":\([0-9]*\).*/\1/p' "$tmp/lab.json" | head -n 1; }
a=$(until_out 50 anchor) &&
	exes=$(for p in "$a" $(pgrep -P "$a"); do readlink "/proc/$p/exe"; done)
wait "$bp"
st=$?
outside=$(grep -v "^$want/" <<<"$exes")
if [ $st = 0 ] && grep -q threadlab-gemm <<<"$exes" && [ -z "$outside" ]; then
	ok "the staged lab ran from / on the staged helpers ($(basename -a $exes | sort -u | tr '\n' ' '))"
else
	notok "the staged lab" "status $st" "helpers: $exes" "$(head -n 3 "$tmp/lab.err")"
fi
if command -v python3 >/dev/null; then
	python3 - "$tmp/lab.json" <<'PY' >"$tmp/py" 2>&1 && ok "its JSON parses: $(cat "$tmp/py")" || notok "its JSON" "$(cat "$tmp/py")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
g = [l["workload"]["gflops"] for l in lines]
assert len(lines) == 4 and max(g) > 0, (len(lines), g)
print(f"4 samples, GFLOP/s up to {max(g):.1f}")
PY
else
	skip "its JSON parses" "no python3"
fi

if limited 120 $MAKE -C "$B" uninstall DESTDIR="$root" >"$tmp/uninstall.log" 2>&1; then
	left=$(find "$root" ! -type d)
	[ -z "$left" ] && ok "make uninstall leaves no file behind" ||
		notok "make uninstall left files" "$left"
else
	notok "make uninstall" "$(tail -n 20 "$tmp/uninstall.log")"
fi
