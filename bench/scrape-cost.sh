#!/bin/bash
# scrape-cost.sh — what scrapes cost the exporter.
#
# Starts bench/threads-target with THREADS threads that all wake every
# 50 ms and `threadlab --headless --serve 127.0.0.1:PORT -p PID` on it
# (one sample a second), lets it settle 3 s, then measures threadlab's CPU
# (utime + stime of the whole process, /proc/PID/stat) over SECONDS with
# no scrape, and over SECONDS more with RATE scrapes a second (one client,
# keep-alive, the way Prometheus scrapes; its own CPU is not counted).
# Prints both as % of one core, their difference, and the exposition's
# size.
#
# usage: bench/scrape-cost.sh [SECONDS [THREADS [RATE]]]   (default 20 1000 10)
# THREADLAB_BUILDDIR (default .) names the build directory; build the
# benchmarks first (make bench).
set -u
secs="${1:-20}"
nthreads="${2:-1000}"
rate="${3:-10}"
B="${THREADLAB_BUILDDIR:-.}"
TL="${THREADLAB_BIN:-$B/threadlab}"
TARGET="$B/bench/threads-target"
PY=/usr/bin/python3
tpid="" spid=""
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	[ -n "$tpid" ] && kill "$tpid" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
[ -x "$TL" ] || { echo "scrape-cost: $TL not built" >&2; exit 2; }
[ -x "$TARGET" ] || { echo "scrape-cost: $TARGET not built (make bench)" >&2; exit 2; }

exec 3< <("$TARGET" "$nthreads" "$nthreads" 50)
read -r tpid <&3 || { echo "scrape-cost: the target did not start" >&2; exit 1; }
port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$TL" --headless --serve "127.0.0.1:$port" -p "$tpid" 2>/dev/null &
spid=$!
sleep 3
hz=$(getconf CLK_TCK)
ticks() { sed 's/.*) //' "/proc/$spid/stat" | awk '{ print $12 + $13 }'; }
cpu() { # cpu COMMAND...: % of a core threadlab used while COMMAND ran
	local t0 t1 w0 w1
	t0=$(ticks); w0=$(date +%s.%N)
	"$@"
	t1=$(ticks); w1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" -v hz="$hz" -v w0="$w0" -v w1="$w1" \
		'BEGIN { printf "%.2f", 100 * (b - a) / hz / (w1 - w0) }'
}
idle=$(cpu sleep "$secs")
busy=$(cpu "$PY" - "$port" "$secs" "$rate" 2>"/tmp/scrape-cost.$$" <<'PY'
import http.client, sys, time
port, secs, rate = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
end, n, size = time.time() + secs, 0, 0
while time.time() < end:
    t = time.time()
    try:
        c.request("GET", "/metrics", headers={"Accept": "application/openmetrics-text;version=1.0.0"})
        size = len(c.getresponse().read())
        n += 1
    except (http.client.HTTPException, OSError):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    time.sleep(max(0, 1 / rate - (time.time() - t)))
print("%d scrapes of %d bytes" % (n, size), file=sys.stderr)
PY
)
echo "target: $nthreads threads waking every 50 ms; threadlab --headless --serve, a sample a second"
cat "/tmp/scrape-cost.$$"
rm -f "/tmp/scrape-cost.$$"
awk -v i="$idle" -v b="$busy" -v r="$rate" -v s="$secs" 'BEGIN {
	printf "no scrapes: %.2f %% of a core; %s scrapes/s: %.2f %%; the scrapes add %.2f %% of a core (over %s s each)\n",
		i, r, b, b - i, s }'
