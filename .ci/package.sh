#!/bin/sh
# .ci/package.sh — the Debian package, checked: build it (tests skipped
# with nocheck: the suite runs beside this, on the sanitizer build), no
# compiler warning with Debian's flags, the unit tests (tests/unit/, the
# cmocka programs) built with those flags and run, lintian --pedantic on
# it (no error, no warning), its files where they belong, and the
# autopkgtest smoke run (debian/tests/smoke) against the package unpacked
# into a throw-away root, run from there.
#
#   .ci/package.sh [--wait-deps S] [--results DIR] [OUTDIR]
#       OUTDIR keeps the .deb and the logs (default: a temporary directory,
#       removed); --wait-deps waits up to S seconds for the build
#       dependencies (and lintian) to be installed, as setup.sh installs
#       them while this starts beside it; --results DIR receives the unit
#       tests' results (.trs and .log, as automake's harness writes them),
#       so that a run's summary counts each of their cases.
#
# Builds from a copy of the files git tracks or would (as they are in the work
# tree), so the checkout's own builds are never touched.  Ends with one
# line: "package: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
start=$(date +%s)
wait_deps=0
results=""
while [ $# -ge 2 ]; do
	case "$1" in
	--wait-deps) wait_deps=$2 ;;
	--results) results=$2 ;;
	*) break ;;
	esac
	shift 2
done
keep=${1:-}
out=${keep:-$(mktemp -d)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cleanup() { [ -n "$keep" ] || rm -rf "$out"; }
trap cleanup EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "package: ok - $1"; }
fail() { failed=$((failed + 1)); echo "package: FAILED - $1"; }

# Build dependencies: Build-Depends less the <!nocheck> ones, and lintian.
deps_ok() { dpkg-checkbuilddeps -P nocheck >/dev/null 2>&1 && command -v lintian >/dev/null; }
waited=0
while ! deps_ok && [ "$waited" -lt "$wait_deps" ]; do
	sleep 5
	waited=$((waited + 5))
done
deps_ok || echo "package: build dependencies missing: $(dpkg-checkbuilddeps -P nocheck 2>&1)"
[ "$waited" = 0 ] || echo "package: waited $waited s for the build dependencies"

rm -rf "$out/src" "$out/root"
mkdir -p "$out/src"
git ls-files -z --cached --others --exclude-standard | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	tar --null -T - -cf - | tar -xf - -C "$out/src"
if (cd "$out/src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
	dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	deb=$(ls "$out"/threadlab_*.deb 2>/dev/null | head -n 1)
	pass "dpkg-buildpackage -us -uc -b: $(basename "$deb")"
	# The build as it ships is the one the suite does not run on (it runs
	# on the sanitizer build, setup.sh): Debian's flags must not warn either.
	warned=$(grep -E '^[^ :]+:[0-9]+:[0-9]+: warning: ' "$out/build.log" | sort -u)
	if [ -z "$warned" ]; then
		pass "the compiler warned of nothing with Debian's flags (dpkg-buildflags, hardening=+all)"
	else
		fail "the compiler warned with Debian's flags:"
		printf '%s\n' "$warned" | head -n 20 | sed 's/^/package:   /'
	fi
	# The unit tests on the build as it ships: the optimiser sees code the
	# sanitizer build compiles otherwise.  Only their programs are built
	# (check_PROGRAMS narrowed to them), with the package's flags.
	unit=$(sh tests/lib/make-vars.sh "$out/src" TESTS |
		tr ' ' '\n' | grep '^tests/unit/test-[^.]*$' | tr '\n' ' ')
	if [ -z "$unit" ]; then
		fail "the unit tests on the build as it ships: none found in the Makefile"
	elif make -C "$out/src" -j"$(nproc)" check TESTS="$unit" check_PROGRAMS="$unit" >"$out/unit.log" 2>&1; then
		pass "the unit tests on the build as it ships: $(echo $unit | wc -w) programs, $(grep -c '^:test-result: PASS' "$out/src"/tests/unit/*.trs | awk -F: '{ n += $NF } END { print n }') cases passed"
	else
		fail "the unit tests on the build as it ships (log: $out/unit.log)"
		grep -h -A5 '^\(not ok\|FAIL\|ERROR\)' "$out/src"/tests/unit/*.log 2>/dev/null | head -n 40 | sed 's/^/package:   /'
		tail -n 20 "$out/unit.log" | sed 's/^/package:   /'
	fi
	if [ -n "$results" ]; then
		mkdir -p "$results"
		cp "$out/src"/tests/unit/*.trs "$out/src"/tests/unit/*.log "$results"/ 2>/dev/null
	fi
else
	deb=""
	fail "dpkg-buildpackage (log: $out/build.log)"
	tail -n 30 "$out/build.log"
fi

if [ -n "$deb" ]; then
	changes=$(ls "$out"/threadlab_*.changes | head -n 1)
	lintian --pedantic --display-info "$changes" >"$out/lintian.log" 2>&1
	sed 's/^/package: lintian: /' "$out/lintian.log"
	if grep -Eq '^[EW]: ' "$out/lintian.log"; then
		fail "lintian --pedantic: errors or warnings"
	else
		pass "lintian --pedantic: no error, no warning ($(grep -c '^[IPX]: ' "$out/lintian.log") other tags)"
	fi

	dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$out/files"
	missing=""
	for f in /usr/bin/threadlab /usr/libexec/threadlab/threadlab-anchor \
		/usr/libexec/threadlab/threadlab-gemm /usr/libexec/threadlab/threadlab-burn \
		/usr/share/man/man1/threadlab.1.gz /usr/share/bash-completion/completions/threadlab \
		/usr/share/zsh/vendor-completions/_threadlab \
		/lib/systemd/system/threadlab-exporter.service \
		/usr/share/threadlab/prometheus/threadlab-rules.yml \
		/usr/share/threadlab/kubernetes/threadlab-daemonset.yaml \
		/usr/share/threadlab/demo/fork-numpy.py \
		/usr/share/doc/threadlab/copyright /usr/share/doc/threadlab/README.md.gz \
		/usr/share/doc/threadlab/docs/dashboard.md.gz; do
		grep -qx "$f" "$out/files" || missing="$missing $f"
	done
	[ -z "$missing" ] && pass "the files are where they belong ($(grep -vc '/$' "$out/files") files)" ||
		fail "missing from the package:$missing"
	# The README installed beside the fleet files names them by their
	# place there: each must be in the package.
	missing=""
	for f in $(grep -o '`\(prometheus\|kubernetes\|demo\)/[^` ]*' contrib/README.md | tr -d '`' | sort -u); do
		grep -qx "/usr/share/threadlab/$f" "$out/files" || missing="$missing $f"
	done
	[ -z "$missing" ] && pass "every file /usr/share/threadlab/README.md names is installed beside it" ||
		fail "/usr/share/threadlab/README.md names files the package lacks:$missing"
	# Installed, not enabled: the maintainer scripts start nothing, and
	# enable the unit only where the admin had enabled it (an upgrade).
	mkdir -p "$out/ctl"
	dpkg-deb -e "$deb" "$out/ctl"
	enables=$(cat "$out/ctl"/post* "$out/ctl"/pre* 2>/dev/null | grep -c 'deb-systemd-helper enable')
	guarded=$(cat "$out/ctl"/post* 2>/dev/null | grep -v '^[[:space:]]*#' | grep -A1 'was-enabled' | grep -c 'deb-systemd-helper enable')
	if [ "$enables" = "$guarded" ] && ! grep -qs 'deb-systemd-invoke start\|systemctl start' "$out/ctl"/*; then
		pass "the exporter's unit is installed, not enabled or started"
	else
		fail "a maintainer script enables or starts the unit"
	fi
	dpkg-deb -x "$deb" "$out/root"
	if THREADLAB="$out/root/usr/bin/threadlab" sh debian/tests/smoke >"$out/smoke.log" 2>&1; then
		pass "autopkgtest smoke, unpacked root: $(grep -c '^ok' "$out/smoke.log") checks"
	else
		fail "autopkgtest smoke, unpacked root"
	fi
	sed 's/^/package: smoke: /' "$out/smoke.log"
fi
echo "package: took $(($(date +%s) - start)) s"
echo "package: $passed passed, $failed failed"
[ "$failed" = 0 ]
