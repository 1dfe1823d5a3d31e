#!/bin/bash
# test-serve-limits.sh — a real Prometheus (Debian's) scrapes threadlab's
# exporter every second while 50 slow clients from 50 loopback addresses
# and 8 more from Prometheus's own address drip their headers a byte at a
# time (reconnecting whenever dropped), and others announce bodies of
# 100 GB and chunked ones: Prometheus, started in their midst, must get
# its connection, and no scrape may fail, a body is refused at once,
# a slow client is dropped within its header budget.  Prints TAP, its plan
# first.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
TL="$(cd "$B" && pwd)/threadlab"


for c in prometheus curl "$PY"; do
	if ! command -v "$c" >/dev/null; then
		skip_all "$c is needed (Debian packages prometheus, curl, python3)"
	fi
done
plan 4
# This test runs beside others: threadlab, Prometheus and the clients (they
# time how soon they are dropped) get a heavy cpu cgroup where root has
# one; they sleep far more than they run, so they take the CPU promptly
# but little of it.
prio_make --alone

free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
q() {
	curl -s -G --data-urlencode "query=$1" "http://127.0.0.1:$pport/api/v1/query" |
		"$PY" -c 'import json, sys; d = json.load(sys.stdin); r = d["data"]["result"]; print(r[0]["value"][1] if r else "none")'
}

sleep 300 &
target=$!
track "$target"
tport=$(free_port)
prio_run "$TL" --headless --serve "127.0.0.1:$tport" -p $target -i 0.5 2>"$tmp/tl.err" &
tlpid=$!
track "$tlpid"
# ---- 30 s of abuse, Prometheus started 2 s into it ------------------------------
# Its first connection must get in past them (a new connection is what 8
# slow clients from its address used to lock out), then every scrape.
prio_run "$PY" - "$tport" 30 >"$tmp/abuse" 2>&1 <<'PY' &
import socket, statistics, sys, threading, time
port, secs = int(sys.argv[1]), float(sys.argv[2])
stop = time.time() + secs
lives, lock = [], threading.Lock()

def slow(src):
    while time.time() < stop:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(src, 0))
        except OSError:
            time.sleep(0.05)
            continue
        t0 = time.time()
        try:
            for ch in b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
                if time.time() > stop:
                    break
                s.send(bytes([ch]))
                time.sleep(0.5)
        except OSError:
            with lock:
                lives.append(time.time() - t0)  # dropped by the server
        s.close()

late = []
def bodies():
    reqs = [b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000000\r\n\r\n",
            b"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"]
    i = 0
    while time.time() < stop:
        t0 = time.time()
        got = b""
        try:
            # A connection that is not accepted is a result too (named
            # after its error), not the end of this thread.
            c = socket.create_connection(("127.0.0.1", port), timeout=3, source_address=("127.0.0.200", 0))
        except OSError as e:
            late.append((time.time() - t0, type(e).__name__.encode()))
            i += 1
            time.sleep(0.2)
            continue
        try:
            c.sendall(reqs[i % 2])
            while True:
                x = c.recv(4096)
                if not x:
                    break
                got += x
        except OSError:
            pass
        c.close()
        code = got[9:12]
        late.append((time.time() - t0, code))
        i += 1
        time.sleep(0.2)

ts = [threading.Thread(target=slow, args=("127.0.0.%d" % (10 + i),)) for i in range(50)]
ts += [threading.Thread(target=slow, args=("127.0.0.1",)) for _ in range(8)]
ts.append(threading.Thread(target=bodies))
for t in ts:
    t.start()
for t in ts:
    t.join()
codes = sorted(set(c for _, c in late))
print("slow clients dropped %d times, median after %.1f s; %d bodies, answered in at most %.2f s, codes %s"
      % (len(lives), statistics.median(lives) if lives else -1, len(late),
         max(d for d, _ in late) if late else -1, codes))
print("LIVES %s" % " ".join("%.2f" % x for x in lives))
print("BODIES %s" % " ".join("%.3f:%s" % (d, c.decode()) for d, c in late))
PY
abuser=$!
track "$abuser"
sleep 2
pport=$(free_port)
cat >"$tmp/prom.yml" <<EOF
global: {scrape_interval: 1s, scrape_timeout: 900ms, evaluation_interval: 1s}
scrape_configs:
  - job_name: tl
    static_configs: [{targets: ['127.0.0.1:$tport']}]
EOF
prio_run prometheus --config.file="$tmp/prom.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$tmp/prom.log" 2>&1 &
track "$!"
up=none
scraped() { up=$(q 'up{job="tl"}' 2>/dev/null); [ "$up" = 1 ]; }
tap_every=5 until_true 200 scraped
if [ "$up" = 1 ]; then
	ok "Prometheus, started while they ran, gets its first connection and scrapes (up 1)"
else
	notok "Prometheus's first connection while the slow clients run" "up: $up" "$(tail -3 "$tmp/prom.log" "$tmp/tl.err")"
fi

# Why a scrape failed, if one does: Prometheus's last error, once a second.
for _ in $(seq 40); do
	kill -0 $abuser 2>/dev/null || break
	curl -s "http://127.0.0.1:$pport/api/v1/targets" | grep -o '"lastError":"[^"]\+"' >>"$tmp/errors"
	sleep 1
done
stop $abuser

curl -s -G --data-urlencode 'query=up{job="tl"}[40s]' "http://127.0.0.1:$pport/api/v1/query" >"$tmp/raw"
scrapes=$(q 'count_over_time(up{job="tl"}[40s])')
worst=$(q 'min_over_time(up{job="tl"}[40s])')
longest=$(q 'max_over_time(scrape_duration_seconds{job="tl"}[40s])')
# A scrape that failed or timed out (900 ms) is an up of 0.
if [ "$worst" = 1 ] && [ "${scrapes%.*}" != none ] && [ "${scrapes%.*}" -ge 12 ]; then
	ok "58 slow clients (8 from Prometheus's own address) and bodies: $scrapes scrapes in their midst, none failed, the longest $longest s"
else
	notok "scrapes under abuse" "scrapes $scrapes, min(up) $worst, longest $longest" "$(head -n1 "$tmp/abuse")" "$(sort -u "$tmp/errors" 2>/dev/null)" "$(cut -c1-1500 "$tmp/raw")"
fi
if "$PY" - "$tmp/abuse" <<'PY' 2>"$tmp/py"; then
import sys
b = [l for l in open(sys.argv[1]) if l.startswith("BODIES")][0].split()[1:]
d = [(float(x.split(":")[0]), x.split(":")[1]) for x in b]
# A request whose connection was never made (its error's name, on a box
# so loaded that the accept queue overflowed) sent no body: a few of those
# are allowed, every answered one must be a refusal.
answered = [(t, c) for t, c in d if c.isdigit()]
unconnected = [c for _, c in d if not c.isdigit()]
assert len(answered) >= 20, (len(answered), set(unconnected))
assert len(unconnected) <= len(d) // 10, (len(unconnected), set(unconnected))
assert all(c in ("405", "413") for _, c in answered), set(c for _, c in answered)
# answered without the body sent, and well before the 10 s of inactivity
# that used to end such a connection (client-side times, loaded box)
assert max(t for t, _ in answered) < 5.0, max(t for t, _ in answered)
PY
	ok "a body of 100 GB (POST) or chunked (GET): 405 or 413 before the body, the connection closed ($(head -n1 "$tmp/abuse" | sed 's/.*; //'))"
else
	notok "bodies refused at once" "$(cat "$tmp/py")" "$(head -n1 "$tmp/abuse")"
fi
if "$PY" - "$tmp/abuse" <<'PY' 2>"$tmp/py"; then
import statistics, sys
l = [float(x) for x in [l for l in open(sys.argv[1]) if l.startswith("LIVES")][0].split()[1:]]
assert len(l) >= 50, len(l)
# the header budget is 3 s; a byte every 0.5 s used to keep such a
# connection for good (inactivity only ended it)
assert statistics.median(l) < 4.5 and max(l) < 8.0, (statistics.median(l), max(l))
PY
	ok "slow clients dropped, none kept past the 3 s header budget ($(head -n1 "$tmp/abuse" | sed 's/;.*//'))"
else
	notok "slow clients dropped" "$(cat "$tmp/py")" "$(head -n1 "$tmp/abuse")"
fi
kill -TERM $tlpid
gone $tlpid

