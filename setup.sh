#!/bin/sh
# setup.sh — one command from a fresh Debian 12 machine to a running threadlab.
#
#   ./setup.sh          install what is missing, build, start the dashboard
#   ./setup.sh check    install what is missing, build, run the whole test suite
#
# Run it as root, or as a user with sudo (used for apt-get only).  The build
# goes to ./build (./build-check, with ASan and UBSan, for the test suite);
# nothing is installed system-wide but the Debian packages.
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
if [ "$what" = check ]; then
	packages="$packages tmux python3 python3-numpy locales util-linux prometheus curl openssl python3-prometheus-client python3-yaml"
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
# The test suite builds with sanitizers in its own directory: objects built
# with other flags must never be linked together.
if [ "$what" = check ]; then
	dir=build-check
	flags="--enable-werror --enable-sanitizers"
else
	dir=build
	flags="--enable-werror"
fi
mkdir -p "$dir"
cd "$dir"
# .setup-flags is written only after a good build with these flags; any
# other state (first run, other flags, a build that failed) starts clean.
if [ "$(cat .setup-flags 2>/dev/null)" != "$flags" ]; then
	rm -f .setup-flags
	if [ -f Makefile ]; then make distclean >/dev/null 2>&1 || true; fi
	# shellcheck disable=SC2086
	../configure -q $flags
fi
make -j"$(nproc)" >/dev/null
echo "$flags" >.setup-flags

if [ "$what" = run ]; then
	exec ./threadlab
fi

# Tests run one at a time: several of them measure CPU time on a small box.
status=0
find . -name '*.trs' -delete
make -j"$(nproc)" check TESTS= >/dev/null
make -j1 check || status=$?
if [ "$status" != 0 ] && [ -f test-suite.log ]; then
	tail -n 60 test-suite.log
fi
exec sh ../tests/tap-summary.sh . "$status"
