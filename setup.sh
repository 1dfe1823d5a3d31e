#!/bin/sh
# setup.sh — one command from a fresh Debian 12 machine to a running threadlab.
#
#   ./setup.sh          install what is missing, build, start the dashboard
#   ./setup.sh check    install what is missing, build, run the whole test suite
#                       on the plain build and on the ASan/UBSan build
#
# Run it as root, or as a user with sudo (used for apt-get only).  The build
# goes to ./build (and ./build-check, with ASan, UBSan and LeakSanitizer, for
# check); nothing is installed system-wide but the Debian packages.  check
# also builds and checks the Debian package beside them (.ci/package.sh), and
# ends with one line for all of it: "N passed, N failed, N skipped".
set -eu

cd "$(dirname "$0")"
what=${1:-run}
case "$what" in
run | check) ;;
*)
	echo "usage: $0 [run|check]" >&2
	exit 2
	;;
esac

packages="gcc make autoconf automake pkg-config libncurses-dev libproc2-dev libopenblas-dev libopenblas0-pthread libopenblas0-openmp libcmocka-dev libjson-c-dev libzstd-dev libmicrohttpd-dev libcrypt-dev procps"
# The BPF collector: clang's bpf target, llvm-strip, bpftool's skeletons,
# libbpf; libcap drops the capabilities after loading.
packages="$packages clang llvm bpftool libbpf-dev libcap-dev"
if [ "$what" = check ]; then
	packages="$packages tmux python3 python3-numpy locales util-linux prometheus curl openssl python3-prometheus-client python3-yaml zstd"
	packages="$packages libcap2-bin" # setcap, for the capability test
	# the Debian package (.ci/package.sh): its build, lintian; the completions' tests
	packages="$packages build-essential dpkg-dev debhelper lintian bash-completion zsh"
fi

missing=""
for p in $packages; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	echo "setup: installing:$missing"
	if [ "$(id -u)" = 0 ]; then
		sudo=""
	elif command -v sudo >/dev/null; then
		sudo="sudo"
	else
		echo "setup: need root (or sudo) to install:$missing" >&2
		exit 1
	fi
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	# shellcheck disable=SC2086
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ ! -f build-aux/tap-driver.sh ]; then
	./autogen.sh >/dev/null 2>&1 || ./autogen.sh
fi
# Each build has its own directory: objects built with other flags must
# never be linked together.  check runs the suite on both the plain build
# (./build) and the ASan/UBSan build with LeakSanitizer (./build-check).
build_in() { # build_in DIR FLAGS
	mkdir -p "$1"
	(
		cd "$1"
		# .setup-flags is written only after a good build with these flags;
		# any other state (first run, other flags, a build that failed)
		# starts clean.
		if [ "$(cat .setup-flags 2>/dev/null)" != "$2" ]; then
			rm -f .setup-flags
			if [ -f Makefile ]; then make distclean >/dev/null 2>&1 || true; fi
			# shellcheck disable=SC2086
			../configure -q $2
		fi
		make -j"$(nproc)" >/dev/null
		echo "$2" >.setup-flags
	)
}
# What check runs, side by side on a small machine: the Debian package
# builds from the start (niced); the plain build's suite starts as soon as
# that build is done, while the sanitizer build compiles; then the
# sanitizer build's suite with the soak among its tests.  The suites share
# one lock (tests/tap-wrap.sh): the few tests that measure CPU shares
# (SERIAL_TESTS in Makefile.am) run alone, and wait while a compiler runs
# (the sanitizer build and the package hold LOCK.build shared), so no such
# test runs beside a compiler.  They come last, after every other test of
# both suites (see suite below), and then back to back.
if [ "$what" = check ]; then
	THREADLAB_TEST_LOCK="$(pwd)/build/tests-serial.lock"
	export THREADLAB_TEST_LOCK
	mkdir -p build
	: >"$THREADLAB_TEST_LOCK"
	# The Debian package beside the builds and suites (.ci/package.sh: built
	# with nocheck, lintian, the autopkgtest smoke run against it); its
	# checks are counted in the summary from build-package/package.trs.
	rm -rf build-package
	mkdir -p build-package
	setsid nice -n 10 flock -s "$THREADLAB_TEST_LOCK.build" .ci/package.sh >build-package/log 2>&1 &
	package_pid=$!
	# A build that fails (set -e) must not leave the package's build behind.
	trap 'kill -- -"$package_pid" 2>/dev/null || true' EXIT
fi
build_in build "--enable-werror --enable-bpf=yes"
if [ "$what" = run ]; then
	exec ./build/threadlab
fi
jobs=$(nproc)
# The suites run one test more than there are CPUs at a time: most tests
# wait (for samples, a tmux pane, a server) more than they compute (the
# sanitizer suite's tests used 57 % of 2 CPUs outside the CPU-share turns),
# and the CPU-share tests run alone whatever the count.
test_jobs=$((jobs + 1))
# suite DIR LABEL [EXTRA...]: runs the suite in DIR in two turns: first
# the tests that need no turn of their own (EXTRA, then the longest, then
# the rest); then, once both suites are past that turn (DIR/.bulk-done of
# each: the other suite's, or the sanitizer build's failure, writes it), the
# CPU-share tests (SERIAL_TESTS), which take the machine one at a time
# (tests/tap-wrap.sh).  So the CPU-share tests of both suites run back to
# back after every other test of both, instead of each waiting, the CPUs
# idle, for the tests in flight to drain.  It prints a turn's log when the
# turn failed, and its summary; its output goes to DIR/setup-suite.out,
# shown when both are done.
suite() {
	dir=$1 label=$2
	shift 2
	(
		cd "$dir"
		status=0
		find . -name '*.trs' -delete
		make -j"$jobs" check TESTS= >/dev/null
		start=$(date +%s)
		# shellcheck disable=SC2046
		set -- "$@" $(suite_tests . bulk)
		make -j"$test_jobs" check TESTS="$*" SOAK_SECONDS=60 || status=$?
		if [ "$status" != 0 ] && [ -f test-suite.log ]; then
			tail -n 60 test-suite.log
		fi
		: >.bulk-done
		while [ ! -e ../build/.bulk-done ] || [ ! -e ../build-check/.bulk-done ]; do sleep 1; done
		echo "setup: $label: its CPU-share tests began $(($(date +%s) - start)) s after its first test"
		turn=0
		make -j"$test_jobs" check TESTS="$(suite_tests . serial)" || turn=$?
		if [ "$turn" != 0 ] && [ -f test-suite.log ]; then
			tail -n 60 test-suite.log
		fi
		[ "$turn" = 0 ] || status=$turn
		# tests/tap-wrap.sh ends every log with "# NAME took N s, CPU M s".
		sed -n 's/^# \(.*\) took \([0-9]*\) s, CPU \([0-9.?]*\) s$/\2 \3 \1/p' tests/*.log |
			sort -rn >tests/took.txt
		echo "setup: $label suite took $(($(date +%s) - start)) s" \
			"(its tests' CPU: $(awk '{ n += $2 } END { printf "%.0f", n }' tests/took.txt) s); the slowest:"
		head -n 8 tests/took.txt |
			awk '{ printf "setup: %s:   %4d s  (CPU %5.1f s)  %s\n", label, $1, $2, $3 }' label="$label"
		sh ../tests/tap-summary.sh . "$status" | sed "s/^/setup: $label: /"
		exit "$status"
	) >"$dir/setup-suite.out" 2>&1
}
# suite_tests DIR bulk|serial: the tests of the build in DIR that need no
# turn of their own, the longest first (LONG_TESTS in Makefile.am: one of
# them started last would hold the suite alone at its end), or the
# CPU-share tests (SERIAL_TESTS).
suite_tests() {
	printf 'print-tests:\n\t@echo $(TESTS)\n\t@echo $(SERIAL_TESTS)\n\t@echo $(LONG_TESTS)\n' |
		make -s -C "$1" -f Makefile -f - print-tests |
		awk -v which="$2" '
		NR == 1 { n = split($0, all, " ") }
		NR == 2 { for (i = 1; i <= NF; i++) serial[$i] = 1 }
		NR == 3 { nl = split($0, longs, " "); for (i = 1; i <= nl; i++) long[longs[i]] = 1 }
		END {
			for (i = 1; i <= n; i++) {
				b = all[i]; sub(".*/", "", b)
				path[b] = all[i]
				if (which == "serial" && (b in serial)) printf "%s ", all[i]
			}
			if (which == "bulk")
				for (i = 1; i <= nl; i++)
					if ((longs[i] in path) && !(longs[i] in serial)) printf "%s ", path[longs[i]]
			if (which == "bulk")
				for (i = 1; i <= n; i++) {
					b = all[i]; sub(".*/", "", b)
					if (!(b in long) && !(b in serial)) printf "%s ", all[i]
				}
		}'
}
start=$(date +%s)
rm -f build/.bulk-done build-check/.bulk-done
suite build "plain build" &
plain=$!
# The sanitizer build and its test programs, holding the build lock (shared:
# the package's build holds it too).  When it fails, the plain suite is
# stopped (its CPU-share tests would wait for the sanitizer suite).
mkdir -p build-check
(
	exec 8>>"$THREADLAB_TEST_LOCK.build"
	flock -s 8
	build_in build-check "--enable-werror --enable-sanitizers --enable-bpf=yes" 8>&-
	(cd build-check && make -j"$jobs" check TESTS= >/dev/null 8>&-)
) || {
	echo "setup: the sanitizer build failed" >&2
	: >build-check/.bulk-done
	kill "$plain" 2>/dev/null
	wait "$plain"
	exit 1
}
echo "setup: the sanitizer build was ready after $(($(date +%s) - start)) s"
# The soak first among its tests, so that it runs beside the others.
suite build-check "sanitizer build" tests/soak.sh &
sanitizer=$!
status=0
wait "$plain" || status=1
wait "$sanitizer" || status=1
cat build/setup-suite.out build-check/setup-suite.out
echo "setup: both suites and the soak took $(($(date +%s) - start)) s"
package_status=0
wait "$package_pid" || package_status=$?
sed -n 's/^package: ok - /:test-result: PASS /p; s/^package: FAILED - /:test-result: FAIL /p' \
	build-package/log >build-package/package.trs
grep -v '^package: \(ok\|FAILED\) - ' build-package/log | sed 's/^\(package: \)*/setup: package: /'
[ "$package_status" = 0 ] || status=1
exec sh tests/tap-summary.sh --label "both builds (plain, ASan/UBSan) and the package" build build-check \
	build-package "$status"
