#!/bin/sh
# setup.sh — one command from a fresh Debian 12 machine to a running threadlab.
#
#   ./setup.sh          install what is missing, build, start the dashboard
#   ./setup.sh check    install what is missing, build, run the whole test suite
#                       on the ASan/UBSan build, and build and check the
#                       Debian package (the build as it ships) beside it
#
# Run it as root, or as a user with sudo (used for apt-get only).  The build
# goes to ./build (./build-check, with ASan, UBSan and LeakSanitizer, for
# check); nothing is installed system-wide but the Debian packages.  check
# ends with one line for all of it: "N passed, N failed, N skipped".
set -eu

cd "$(dirname "$0")"
top=$(pwd)
start=$(date +%s)
what=${1:-run}
case "$what" in
run | check) ;;
*)
	echo "usage: $0 [run|check]" >&2
	exit 2
	;;
esac

packages="gcc make autoconf automake pkg-config libncurses-dev libproc2-dev libopenblas-dev libopenblas0-pthread libopenblas0-openmp libcmocka-dev libjson-c-dev libzstd-dev libmicrohttpd-dev libgnutls28-dev libcrypt-dev procps"
# The BPF collector: clang's bpf target, llvm-strip, bpftool's skeletons,
# libbpf; libcap drops the capabilities after loading.
packages="$packages clang llvm bpftool libbpf-dev libcap-dev"
# What only the tests and the Debian package need: installed while the
# build compiles.
check_packages=""
if [ "$what" = check ]; then
	check_packages="tmux python3 python3-numpy locales util-linux prometheus curl openssl python3-prometheus-client python3-yaml zstd"
	check_packages="$check_packages libcap2-bin" # setcap, for the capability test
	# the Debian package (.ci/package.sh): its build, lintian; the completions' tests
	check_packages="$check_packages build-essential dpkg-dev debhelper lintian bash-completion zsh"
fi

missing_of() { # missing_of PACKAGE...: those not installed
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || printf ' %s' "$p"
	done
}
# shellcheck disable=SC2086
missing=$(missing_of $packages)
# shellcheck disable=SC2086
check_missing=$(missing_of $check_packages)
sudo=""
if [ -n "$missing$check_missing" ] && [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null; then
		sudo="sudo"
	else
		echo "setup: need root (or sudo) to install:$missing$check_missing" >&2
		exit 1
	fi
fi
apt_install() { # apt_install PACKAGE...
	# shellcheck disable=SC2086
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
if [ -n "$missing$check_missing" ]; then
	echo "setup: installing:$missing$check_missing"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
fi
# shellcheck disable=SC2086
[ -z "$missing" ] || apt_install $missing
# The tests' packages go in while the build compiles (dpkg works on one
# CPU, the compiler on the others); waited for before the first test.
apt_pid=""
if [ -n "$check_missing" ]; then
	# shellcheck disable=SC2086
	apt_install $check_missing &
	apt_pid=$!
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ ! -f build-aux/tap-driver.sh ]; then
	./autogen.sh >/dev/null 2>&1 || ./autogen.sh
fi
# Each build has its own directory: objects built with other flags must
# never be linked together.  run builds ./build; check builds ./build-check
# (ASan, UBSan, LeakSanitizer) and the Debian package (the plain build as
# it ships, .ci/package.sh).
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
if [ "$what" = run ]; then
	build_in build "--enable-werror --enable-bpf=yes"
	exec ./build/threadlab
fi

# ---- check ------------------------------------------------------------------
# Every check runs once, on the build that checks the most: ASan, UBSan and
# LeakSanitizer, warnings as errors (./build-check).  The build as it ships
# (Debian's flags, no sanitizer) is the Debian package's: .ci/package.sh
# builds it (a compiler warning fails it), runs the unit tests built with
# its flags, lintian, and the autopkgtest smoke test against it unpacked.
rm -rf build-package
mkdir -p build-package
# The package is one more job beside the sanitizer build and the first
# turn of tests, in a session (so an autogroup) of its own: it is done
# before the CPU-share tests begin.  It waits for the tests' packages
# (lintian) that apt installs meanwhile, and holds LOCK.build shared while
# it runs: a CPU-share test (tests/lib/tap-wrap.sh) waits for it, as even at a
# CPU weight of 2 a package build beside a busy thread took up to 9 % of
# its CPU (docs/figures.md, "The test suite").
mkdir -p build-check
# (The lock's name; exported for the tests below, not for the package's
# own unit tests, which take no turn.)
THREADLAB_TEST_LOCK="$(pwd)/build-check/tests-serial.lock"
setsid flock -s "$THREADLAB_TEST_LOCK.build" .ci/package.sh --wait-deps 600 --results build-package/unit >build-package/log 2>&1 &
package_pid=$!
# A suite stopped by a signal must not leave the package's build behind.
trap 'kill -TERM -"$package_pid" 2>/dev/null || true' EXIT # (sh's kill takes no "--")
trap 'exit 1' INT TERM HUP
build_in build-check "--enable-werror --enable-sanitizers --enable-bpf=yes"
# The benchmarks too (make bench): they print figures rather than pass or
# fail, but one that no longer compiles against the code it measures would
# otherwise go unnoticed until someone reruns it.
(cd build-check && make -j"$(nproc)" check TESTS= bench >/dev/null)
echo "setup: the sanitizer build was ready $(($(date +%s) - start)) s after the start"
if [ -n "$apt_pid" ] && ! wait "$apt_pid"; then
	echo "setup: installing the tests' packages failed:$check_missing" >&2
	exit 1
fi
export THREADLAB_TEST_LOCK
: >"$THREADLAB_TEST_LOCK"
jobs=$(nproc)
# Most tests wait (for samples, a tmux pane, a server) more than they
# compute: three tests a CPU at a time (on 2 CPUs, 4 at a time took 252 s
# for the first turn, 6 took 217 s and 8 took 238 s); the CPU-share tests
# run alone whatever the count (tests/lib/tap-wrap.sh).
test_jobs=$((jobs * 3))
# suite_tests DIR bulk|serial: the tests of the build in DIR that need no
# turn of their own, the longest first (LONG_TESTS in Makefile.am: one of
# them started last would hold the suite alone at its end), or the
# CPU-share tests (SERIAL_TESTS).
suite_tests() {
	sh "$top/tests/lib/make-vars.sh" "$1" TESTS SERIAL_TESTS LONG_TESTS |
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
# The suite in two turns: every test that needs no turn of its own (the
# soak first, then the longest), then the CPU-share tests (SERIAL_TESTS),
# one at a time with the machine to themselves.  tap-summary.sh names
# every failed case, with its diagnostics, just above the closing line.
status=0
(
	cd build-check
	find . -name '*.trs' -delete
	# shellcheck disable=SC2046
	st=0
	make -j"$test_jobs" check TESTS="tests/e2e/soak.sh $(suite_tests . bulk)" SOAK_SECONDS=60 >suite-bulk.out 2>&1 || st=$?
	echo "setup: the CPU-share tests began $(($(date +%s) - start)) s after the start"
	turn=0
	make -j"$test_jobs" check TESTS="$(suite_tests . serial)" >suite-serial.out 2>&1 || turn=$?
	[ "$turn" = 0 ] || st=$turn
	# tests/lib/tap-wrap.sh ends every log with "# NAME took N s, CPU M s".
	sed -n 's/^# \(.*\) took \([0-9]*\) s, CPU \([0-9.?]*\) s$/\2 \3 \1/p' tests/*/*.log |
		sort -rn >tests/took.txt
	echo "setup: the suite took $(($(date +%s) - start)) s from the start" \
		"(its tests' CPU: $(awk '{ n += $2 } END { printf "%.0f", n }' tests/took.txt) s); the slowest:"
	head -n 10 tests/took.txt | awk '{ printf "setup:   %4d s  (CPU %5.1f s)  %s\n", $1, $2, $3 }'
	exit "$st"
) || status=1
package_status=0
wait "$package_pid" || package_status=$?
trap - EXIT
sed -n 's/^package: ok - /:test-result: PASS /p; s/^package: FAILED - /:test-result: FAIL /p' \
	build-package/log >build-package/package.trs
grep -v '^package: \(ok\|FAILED\) - ' build-package/log | sed 's/^\(package: \)*/setup: package: /'
[ "$package_status" = 0 ] || status=1
echo "setup: all of it took $(($(date +%s) - start)) s"
exec sh tests/lib/tap-summary.sh --label "the suite (ASan/UBSan build) and the package (as it ships)" build-check \
	build-package "$status"
