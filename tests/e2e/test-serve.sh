#!/bin/bash
# test-serve.sh — the exporter over HTTP, end to end: both content types
# from a real threadlab (promtool and the strict OpenMetrics parser of
# python3-prometheus-client read them, hostile thread names included),
# HEAD, 404, 405, 431, the lab's families, HTTPS with a certificate made
# by openssl, basic auth with bcrypt and SHA-512 hashes, 50 slow clients
# and 1,000 garbage requests against --batch's sampling interval and
# memory, and every bad input with its message and exit status.  Prints TAP.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
OMP="$B/tests/lib/omp-busy"
HOSTILE="$B/tests/lib/hostile-name"

for c in curl promtool openssl "$PY"; do
	if ! command -v "$c" >/dev/null; then
		skip_all "$c is needed (Debian packages curl, prometheus, openssl, python3)"
	fi
done
if ! "$PY" -c 'import prometheus_client' 2>/dev/null; then
	skip_all "the OpenMetrics parser is needed (Debian package python3-prometheus-client)"
fi
plan 37
# This test runs beside others: threadlab, whose sampling pace and answers
# it times, gets a heavy cpu cgroup (where root has one); the clients and
# the busy loop it judges threadlab against stay outside.
prio_make --alone

# serve NAME ARGS...: runs threadlab ARGS in the background (its pid in
# spid, stderr in $tmp/NAME.err) and waits for its start-up line; the URL
# it names goes to url.
serve() {
	local name=$1
	shift
	prio_run "$TL" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	spid=$!
	track "$spid"
	url=""
	until_true 100 serving "$name"
}
# serving NAME: the URL of serve NAME's start-up line is in url, or its
# threadlab has ended (no URL then).
serving() {
	url=$(sed -n 's/^threadlab: serving \(http[^ ]*\).*/\1/p' "$tmp/$1.err")
	[ -n "$url" ] || ! kill -0 "$spid" 2>/dev/null
}

# ready URL [CURL ARGS]: waits (10 s at most) for a 200 from URL.
ready() { until_true 100 answers_200 "$@"; }
answers_200() {
	local u=$1
	shift
	[ "$(curl -s -o /dev/null -w '%{http_code}' "$@" "$u")" = 200 ]
}

# ---- both formats, a hostile target -------------------------------------------
"$HOSTILE" >"$tmp/hostile.out" &
hpid=$!
track "$hpid"
until_true 50 grep -qs ready "$tmp/hostile.out"
serve h --headless --serve 127.0.0.1:0 -p "$hpid" -i 0.5
if [ -n "$url" ] && [[ $url == http://127.0.0.1:*/metrics ]] && ready "$url" && [ ! -s "$tmp/h.out" ]; then
	ok "--headless --serve 127.0.0.1:0: the start-up line names $url, stdout stays empty"
else
	notok "headless start-up" "$(cat "$tmp/h.err")" "$(head -c 300 "$tmp/h.out")"
fi
curl -s -D "$tmp/prom.h" -o "$tmp/prom" "$url"
curl -s -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' \
	-D "$tmp/om.h" -o "$tmp/om" "$url"
if grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' "$tmp/prom.h" &&
	promtool check metrics <"$tmp/prom" >"$tmp/lint" 2>&1; then
	ok "plain curl gets the text format 0.0.4, and promtool check metrics passes (hostile names)"
else
	notok "0.0.4 and promtool" "$(cat "$tmp/prom.h" "$tmp/lint")" "$(head -c 1500 "$tmp/prom")"
fi
if grep -qi '^content-type: application/openmetrics-text; version=1.0.0; charset=utf-8' "$tmp/om.h" &&
	[ "$(tail -n 1 "$tmp/om")" = "# EOF" ] &&
	"$PY" - "$tmp/om" "$tmp/prom" >"$tmp/parse" 2>&1 <<'PY'; then
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
from prometheus_client.parser import text_string_to_metric_families as prom
o = {f.name: f for f in om(open(sys.argv[1]).read())}
p = list(prom(open(sys.argv[2]).read()))
names = {s.labels['name'] for s in o['threadlab_thread_runqueue_wait_seconds'].samples}
want = ['\\x1b[31mRED\\x07', 'q"uo\\te\\', 'new\nline\\x0d', 'bad\\xff\\xfe\\xc2\\x9b']
for w in want:
    assert w in names, (w, names)
assert o['threadlab_target'].type == 'info' and o['threadlab_thread_cpu_seconds'].type == 'counter'
assert len(p) == len(o), (len(p), len(o))
PY
	ok "Accept: openmetrics-text gets OpenMetrics 1.0.0 ending in # EOF; the strict parser reads it, the names come back escaped"
else
	notok "OpenMetrics" "$(cat "$tmp/om.h" "$tmp/parse")" "$(tail -c 300 "$tmp/om")"
fi
code=$(curl -s -I -o "$tmp/head" -w '%{http_code}' "$url")
len=$(sed -n 's/^[Cc]ontent-[Ll]ength: *\([0-9]*\).*/\1/p' "$tmp/head")
body=$(curl -s -X HEAD --max-time 2 "$url" 2>/dev/null | wc -c)
if [ "$code" = 200 ] && [ "${len:-0}" -gt 1000 ] && [ "$body" = 0 ]; then
	ok "HEAD /metrics: 200 with Content-Length $len and no body"
else
	notok "HEAD" "code $code length ${len:-none} body $body"
fi
base=${url%/metrics}
c404=$(curl -s -o /dev/null -w '%{http_code}' "$base/nope")
c405=$(curl -s -D "$tmp/405.h" -o /dev/null -w '%{http_code}' -X POST -d x=1 "$url")
cidx=$(curl -s -o "$tmp/index" -w '%{http_code}' "$base/")
big=$(head -c 20000 /dev/zero | tr '\0' a)
c431=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $big" "$url")
if [ "$c404" = 404 ] && [ "$c405" = 405 ] && grep -qi '^allow: GET, HEAD' "$tmp/405.h" &&
	[ "$cidx" = 200 ] && grep -q 'href="/metrics"' "$tmp/index" && [ "$c431" = 431 ]; then
	ok "/nope 404, POST 405 with Allow: GET, HEAD, / links to /metrics, a 20 kB header 431"
else
	notok "routes and limits" "404:$c404 405:$c405 index:$cidx 431:$c431"
fi
kill -TERM "$spid"
reap "$spid" 30
st=$reaped
port=${url##*:}
port=${port%%/*}
if [ $st = 0 ] && ! curl -s -o /dev/null "http://127.0.0.1:$port/metrics"; then
	ok "SIGTERM: exit 0, the port closed"
else
	notok "SIGTERM" "exit $st"
fi
stop "$hpid"

# ---- the lab's families ---------------------------------------------------------
serve lab --headless --serve 127.0.0.1:0 -i 0.5
lab_ok=false
if [ -n "$url" ]; then
	lab_counts() {
		curl -s "$url" >"$tmp/lab" 2>/dev/null
		grep -qE '^threadlab_workload_flops_total\{stream="0"\} [1-9]' "$tmp/lab" &&
			grep -q '^threadlab_workload_single_thread_gflops{' "$tmp/lab"
	}
	tap_every=3 until_true 180 lab_counts && lab_ok=true
fi
# its OpenBLAS build an info family in OpenMetrics, as the target's is
$lab_ok && curl -s -H 'Accept: application/openmetrics-text;version=1.0.0' "$url" >"$tmp/lab.om"
if $lab_ok && grep -q 'mode="lab"' "$tmp/lab" && promtool check metrics <"$tmp/lab" >/dev/null 2>&1 &&
	grep -qx '# TYPE threadlab_workload info' "$tmp/lab.om" &&
	grep -q '^threadlab_workload_info{pid="[0-9]*",blas="' "$tmp/lab.om" &&
	grep -qx '# TYPE threadlab_workload_info gauge' "$tmp/lab"; then
	ok "the lab headless: FLOPs and GEMM calls per stream, its settings and rates as gauges, its build an info"
else
	notok "lab families" "$(cat "$tmp/lab.err")" "$(grep workload "$tmp/lab" | head)"
fi
kill -TERM "$spid"
reap "$spid" 30

# ---- bad inputs: one line, exit 2, nothing left listening --------------------------
serve held --headless --serve 127.0.0.1:0 -p $$
held=$url
hport=${held##*:}
hport=${hport%%/*}
printf 'alice:secret\n' >"$tmp/plain.auth"
bad() { # bad DESC ARGS...
	local d=$1
	shift
	timeout -k 5 20 "$TL" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
	local st=$?
	if [ $st = 2 ] && [ "$(wc -l <"$tmp/bad.err")" = 1 ] && grep -q '^threadlab: ' "$tmp/bad.err" &&
		[ ! -s "$tmp/bad.out" ]; then
		ok "$d: exit 2, '$(cat "$tmp/bad.err")'"
	else
		notok "$d" "exit $st" "$(cat "$tmp/bad.err")"
	fi
}
bad "a port in use" --headless --serve "127.0.0.1:$hport" -p $$
# ... before anything else happens: the command not started, an earlier
# recording of the same name left whole.
echo "an earlier recording" >"$tmp/keep.jsonl"
for mode in --headless --batch; do
	timeout -k 5 20 "$TL" $mode --serve "127.0.0.1:$hport" --record "$tmp/keep.jsonl" \
		-- sh -c "touch $tmp/ran" >/dev/null 2>"$tmp/first.err"
	st=$?
	if [ $st = 2 ] && [ ! -e "$tmp/ran" ] && [ "$(cat "$tmp/keep.jsonl")" = "an earlier recording" ]; then
		ok "$mode, a port in use: exit 2 before the command starts or the recording is opened"
	else
		notok "$mode: a port in use after side effects" "exit $st" "$(ls "$tmp/ran" 2>&1)" "$(head -c 200 "$tmp/keep.jsonl")" "$(cat "$tmp/first.err")"
	fi
	rm -f "$tmp/ran"
done
bad "not an address" --headless --serve 300.1.1.1:9864 -p $$
bad "not a port" --headless --serve abc -p $$
bad "a host name" --headless --serve example.com:9864 -p $$
bad "a missing key file" --headless --serve 127.0.0.1:0 --tls-cert "$tmp/no.pem" --tls-key "$tmp/no.key" -p $$
bad "a certificate without a key" --headless --serve 127.0.0.1:0 --tls-cert "$tmp/no.pem" -p $$
bad "a plain password in --basic-auth" --headless --serve 127.0.0.1:0 --basic-auth "$tmp/plain.auth" -p $$
bad "a bad --match expression" --headless --serve 127.0.0.1:0 --match '(['
bad "--match without --headless" --batch --match python
bad "--tls-cert without --serve" --batch -p $$ --tls-cert x --tls-key y
bad "--headless without --serve" --headless -p $$
bad "--serve with --sweep" --sweep --serve 127.0.0.1:0
bad "--serve with --replay --batch" --replay "$tmp/none.jsonl" --batch --serve 127.0.0.1:0
bad "--serve with --tour --batch" --tour --batch --serve 127.0.0.1:0
# A target that is not there ends the run before it listens: no
# "serving" line first (one line).
gone=$(sh -c 'echo $$')
bad "--headless with a PID that has gone" --headless --serve 127.0.0.1:0 -p "$gone"
kill -TERM "$spid"
reap "$spid" 30

# ---- HTTPS ---------------------------------------------------------------------
if openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" \
	-days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1; then
	serve tls --headless --serve 127.0.0.1:0 --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" -p $$
	plain="http://${url#https://}"
	if [[ $url == https://* ]] && ready "$url" --cacert "$tmp/cert.pem" &&
		[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$plain")" != 200 ]; then
		ok "--tls-cert/--tls-key: HTTPS verified against the certificate; plain HTTP is refused"
	else
		notok "TLS" "$(cat "$tmp/tls.err")" "url $url"
	fi
	kill -TERM "$spid"
	reap "$spid" 30
else
	skip "HTTPS" "openssl could not make a certificate"
fi

# ---- basic auth ----------------------------------------------------------------
sha=$(openssl passwd -6 secret)
bcr=$("$PY" -W ignore -c 'import crypt; print(crypt.crypt("hunter2", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << 8)))' 2>/dev/null)
if [[ $bcr == '$2'* ]]; then
	printf '# exporter users\nalice:%s\nbob:%s\n' "$sha" "$bcr" >"$tmp/users"
	serve auth --headless --serve 127.0.0.1:0 --basic-auth "$tmp/users" -p $$
	ready "$url" -u alice:secret
	code() { curl -s -o /dev/null -w '%{http_code}' "$@" "$url"; }
	a=$(code -u alice:secret) b=$(code -u bob:hunter2) w=$(code -u alice:hunter2)
	u=$(code -u nobody:secret) none=$(code)
	curl -s -D "$tmp/401.h" -o /dev/null "$url"
	if [ "$a" = 200 ] && [ "$b" = 200 ] && [ "$w" = 401 ] && [ "$u" = 401 ] && [ "$none" = 401 ] &&
		grep -qi '^www-authenticate: basic realm="threadlab"' "$tmp/401.h"; then
		ok "--basic-auth: SHA-512 crypt and bcrypt users get 200; wrong, unknown and missing credentials 401"
	else
		notok "basic auth" "alice $a bob $b wrong $w unknown $u none $none"
	fi
	# A wrong password takes as long for a user that exists as for one that
	# does not (every hash is computed either way).
	"$PY" - "$url" >"$tmp/timing" 2>&1 <<'PY'
import base64, sys, time, urllib.request, urllib.error
url = sys.argv[1]
def t(user):
    r = urllib.request.Request(url, headers={"Authorization": "Basic " + base64.b64encode((user + ":wrong").encode()).decode()})
    for _ in range(50):
        a = time.perf_counter()
        try:
            urllib.request.urlopen(r, timeout=5)
        except urllib.error.HTTPError as e:
            if e.code == 429:  # the hashing budget (auth.h): wait, not timed
                time.sleep(0.2)
                continue
            assert e.code == 401
            return time.perf_counter() - a
    raise SystemExit("429 fifty times")
# in turns, so that other load on the machine falls on both alike
known, unknown = [], []
for _ in range(9):
    known.append(t("bob"))
    unknown.append(t("nobody-at-all"))
known, unknown = sorted(known)[4], sorted(unknown)[4]
print("median: known user %.1f ms, unknown %.1f ms" % (known * 1e3, unknown * 1e3))
assert 0.5 < known / unknown < 2.0, (known, unknown)
PY
	if [ $? = 0 ]; then
		ok "a wrong password: as long for a known user as for an unknown one ($(cat "$tmp/timing"))"
	else
		notok "auth timing" "$(cat "$tmp/timing")"
	fi
	kill -TERM "$spid"
	reap "$spid" 30
	# Clients guessing passwords against a slow hash (bcrypt cost 11, about
	# 0.1 s here; 8 at once, from 8 addresses) cannot hold up a scraper
	# whose password matched once: it is remembered, and the guesses get
	# 429 once they have had a quarter of the exporter's thread (auth.h).
	slow=$("$PY" -W ignore -c 'import crypt; print(crypt.crypt("s3cret", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << 11)))')
	printf 'prom:%s\nops:%s\n' "$slow" "$slow" >"$tmp/slow.users"
	serve guess --headless --serve 127.0.0.1:0 --basic-auth "$tmp/slow.users" -p $$
	ready "$url" -u prom:s3cret
	"$PY" - "$url" >"$tmp/guess" 2>&1 <<'PY'
import base64, http.client, sys, threading, time
port = int(sys.argv[1].split(":")[2].split("/")[0])
def get(source, cred):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    c.request("GET", "/metrics", headers={"Authorization": "Basic " + base64.b64encode(cred.encode()).decode()})
    status = c.getresponse().status
    c.close()
    return status
stop = time.time() + 6
codes = {}
def guess(i):
    while time.time() < stop:
        c = get("127.0.0.%d" % (10 + i), "ops:guess%d" % i)
        codes[c] = codes.get(c, 0) + 1
threads = [threading.Thread(target=guess, args=(i,)) for i in range(8)]
for t in threads:
    t.start()
time.sleep(1)
worst, bad = 0.0, []
while time.time() < stop - 0.5:
    a = time.perf_counter()
    c = get("127.0.0.1", "prom:s3cret")
    took = time.perf_counter() - a
    worst = max(worst, took)
    if c != 200:
        bad.append(c)
    time.sleep(0.25)
for t in threads:
    t.join()
print("scrapes: worst %.2f s, not 200: %s; guesses: %s" % (worst, bad, sorted(codes.items())))
assert not bad and worst < 1.0, "a scrape failed or waited"
assert codes.get(429, 0) > 0 and codes.get(401, 0) > 0, "the guesses were not limited"
PY
	if [ $? = 0 ]; then
		ok "8 clients guessing passwords: every scrape 200 ($(cat "$tmp/guess"))"
	else
		notok "password guessers against a scraper" "$(cat "$tmp/guess")"
	fi
	kill -TERM "$spid"
	reap "$spid" 30
else
	skip "basic auth" "python3's crypt module cannot make a bcrypt hash here"
	skip "auth timing" "no bcrypt hash"
	skip "password guessers" "no bcrypt hash"
fi

# ---- slow clients and garbage against the sampling --------------------------------
"$OMP" 1000000 >/dev/null &
busy=$!
track "$busy"
# Every connection is accepted now (room kept per kind, serve-admit.h), each
# with its memory pool: AddressSanitizer's quarantine (256 MB of freed
# blocks by default) would count those as RSS; the bound is about leaks.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4" \
	serve slow --batch -p "$busy" -i 0.2 --format json --serve 127.0.0.1:0
ready "$url"
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$spid/status"; }
rss0=$(rss)
"$PY" - "$url" >"$tmp/abuse" 2>&1 <<'PY'
import random, socket, sys, threading, time, urllib.request
host, port = sys.argv[1].split("//")[1].split("/")[0].split(":")
port = int(port)
stop = time.time() + 8
def slow():
    try:
        s = socket.create_connection((host, port), timeout=3)
        for ch in b"GET /metrics HTTP/1.1\r\nHost: x\r\n":
            if time.time() > stop:
                break
            s.send(bytes([ch]))
            time.sleep(1)
        s.close()
    except OSError:
        pass  # refused or reset beyond the per-address limit: the point
threads = [threading.Thread(target=slow) for _ in range(50)]
for t in threads:
    t.start()
time.sleep(1)
# Another address is served while the slow ones hold theirs.
s = socket.socket()
s.bind(("127.0.0.2", 0))
s.settimeout(3)
s.connect((host, port))
s.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
answer = s.recv(64)
s.close()
rnd = random.Random(1)
garbage = [b"\x00\xff" * 50, b"GET\r\n\r\n", b"FOO /metrics HTTP/9.9\r\n\r\n",
           b"GET /" + b"a" * 30000 + b" HTTP/1.1\r\n\r\n", b"\r\n\r\n\r\n"]
sent = 0
for i in range(1000):
    c = None
    try:
        c = socket.create_connection((host, port), timeout=2, source_address=("127.0.0.3", 0))
        c.sendall(garbage[i % len(garbage)] + bytes(rnd.randrange(256) for _ in range(20)))
        sent += 1
        c.shutdown(socket.SHUT_WR)  # no more: the server answers or closes
        c.settimeout(0.5)
        c.recv(128)
    except OSError:
        pass
    finally:
        if c:
            c.close()
for t in threads:
    t.join()
time.sleep(max(0, stop - time.time()))  # the slow ones may be dropped early: 8 s all the same
print("other address answered: %r; garbage requests sent: %d" % (answer[:12], sent))
assert answer.startswith(b"HTTP/1.0 200") or answer.startswith(b"HTTP/1.1 200"), answer
assert sent >= 900, sent
PY
pyst=$?
rss1=$(rss)
kill -TERM "$spid"
reap "$spid" 30
stop "$busy"
if [ $pyst = 0 ] && "$PY" - "$tmp/slow.out" "$rss0" "$rss1" >"$tmp/gaps" 2>&1 <<'PY'; then
import datetime, json, sys
t = [datetime.datetime.fromisoformat(json.loads(l)["time"].replace("Z", "+00:00")) for l in open(sys.argv[1]) if l.strip()]
gaps = [(b - a).total_seconds() for a, b in zip(t, t[1:])]
rss0, rss1 = int(sys.argv[2]), int(sys.argv[3])
print("%d samples, longest gap %.3f s, RSS %d -> %d kB" % (len(t), max(gaps), rss0, rss1))
assert len(t) >= 35, len(t)
# a handler that blocked the sampler would hold it for a slow client's
# byte (1 s) or a timeout (seconds); a crowded box (the suite runs four
# tests at a time) has delayed one 0.2 s tick to a 0.453 s gap
assert max(gaps) < 0.7, max(gaps)
assert rss1 - rss0 < 16384, (rss0, rss1)
PY
	ok "50 slow clients and 1,000 garbage requests: another address still served, $(cat "$tmp/gaps")"
else
	notok "abuse" "$(cat "$tmp/abuse")" "$(cat "$tmp/gaps" 2>/dev/null)"
fi


# ---- what docs/prometheus.md promises of the endpoint -----------------------------
# listening PID: the addresses and ports PID listens on (its sockets' inodes
# in /proc/net/tcp and tcp6).
listening() {
	"$PY" - "$1" <<'PY'
import os, socket, struct, sys
pid = sys.argv[1]
inodes = set()
for fd in os.listdir("/proc/%s/fd" % pid):
    try:
        l = os.readlink("/proc/%s/fd/%s" % (pid, fd))
    except OSError:
        continue
    if l.startswith("socket:["):
        inodes.add(l[8:-1])
for fam, path in ((socket.AF_INET, "/proc/net/tcp"), (socket.AF_INET6, "/proc/net/tcp6")):
    for line in open(path).readlines()[1:]:
        p = line.split()
        if p[3] != "0A" or p[9] not in inodes:
            continue
        a, port = p[1].split(":")
        b = bytes.fromhex(a)
        b = b"".join(b[i:i + 4][::-1] for i in range(0, len(b), 4))
        print(socket.inet_ntop(fam, b), int(port, 16))
PY
}
# A connection idle after a whole request and its answer (keep-alive) is
# closed after the inactivity timeout (10 s); one that sends nothing goes
# at the header budget (3 s, test-serve-limits.sh) instead.  Timed in the
# background while the other cases run.
serve idle --headless --serve 127.0.0.1:0 -p $$
idle_pid=$spid
iport=${url##*:}
iport=${iport%%/*}
"$PY" - "$iport" >"$tmp/idle" 2>&1 <<'PY' &
import socket, sys, time
c = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
c.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
r = b""
while b"\r\n\r\n" not in r:
    r += c.recv(65536)
head, body = r.split(b"\r\n\r\n", 1)
length = [int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
assert head.startswith(b"HTTP/1.1 200") and length, head[:200]
while len(body) < length[0]:
    body += c.recv(65536)
t0 = time.monotonic()
try:
    got = c.recv(16)
except OSError as e:
    got = repr(e).encode()
dt = time.monotonic() - t0
print("kept open after its answer, closed after %.1f s idle (%r)" % (dt, got))
assert got == b"" and 8 <= dt <= 14, (dt, got)  # docs/prometheus.md: 10 s of inactivity
PY
idle_check=$!
# --serve PORT alone: 127.0.0.1, nothing else; SIGINT ends --headless with 0.
set -m # else the background job starts with SIGINT ignored
serve port --headless --serve 0 -p $$
set +m
addrs=$(listening "$spid")
pport=${url##*:}
pport=${pport%%/*}
if [ "$addrs" = "127.0.0.1 $pport" ] && [[ $url == http://127.0.0.1:* ]]; then
	ok "--serve PORT listens on 127.0.0.1 only ($addrs)"
else
	notok "--serve PORT: the address" "$url" "listening: $addrs"
fi
kill -INT "$spid"
reap "$spid" 10
[ "$reaped" = 0 ] && ok "--headless ends on SIGINT with exit 0" || notok "--headless SIGINT" "exit $reaped"
# [::1]:PORT: IPv6 loopback, served.
serve v6 --headless --serve '[::1]:0' -p $$
addrs=$(listening "$spid")
vport=${url##*:}
vport=${vport%%/*}
code=$(curl -g -s -o /dev/null -w '%{http_code}' --max-time 5 "http://[::1]:$vport/metrics")
if [ "$addrs" = "::1 $vport" ] && [ "$code" = 200 ]; then
	ok "--serve [::1]:PORT listens on ::1 only and serves ($code)"
else
	notok "--serve [::1]" "$url" "listening: $addrs" "status $code" "$(cat "$tmp/v6.err")"
fi
# SIGQUIT ends it as cleanly (its default, a core dump, leaves a lab's
# cgroup behind; started in the background without job control, it was
# ignored)
kill -QUIT "$spid"
reap "$spid" 10
[ "$reaped" = 0 ] && ok "--headless ends on SIGQUIT with exit 0" || notok "--headless SIGQUIT" "exit $reaped"
# [::]:PORT: every address, IPv4 too, whatever net.ipv6.bindv6only says;
# in a network namespace of its own, where only loopback exists, so that
# the test itself listens on nothing beyond the machine.
if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null && command -v ip >/dev/null; then
	unshare -n sh -c '
		ip link set lo up
		sysctl -qw net.ipv6.bindv6only=1 2>/dev/null
		"$1" --headless --serve "[::]:0" -p "$2" 2>"$3" &
		tl=$!
		for _ in $(seq 100); do grep -q serving "$3" && break; sleep 0.1; done
		p=$(sed -n "s/.*serving http:[^ ]*:\([0-9]*\)\/metrics.*/\1/p" "$3")
		for _ in $(seq 50); do
			a=$(curl -s -o /dev/null -w "%{http_code}" --max-time 5 "http://127.0.0.1:$p/metrics")
			[ "$a" = 200 ] && break
			sleep 0.1
		done
		b=$(curl -g -s -o /dev/null -w "%{http_code}" --max-time 5 "http://[::1]:$p/metrics")
		echo "port $p: IPv4 $a, IPv6 $b, bindv6only $(sysctl -n net.ipv6.bindv6only)"
		kill -TERM $tl
		wait $tl
	' sh "$TL" $$ "$tmp/any.err" >"$tmp/any" 2>&1
	if grep -q "IPv4 200, IPv6 200, bindv6only 1" "$tmp/any"; then
		ok "--serve [::]:PORT serves IPv4 and IPv6 ($(cat "$tmp/any"))"
	else
		notok "--serve [::]" "$(cat "$tmp/any" "$tmp/any.err")"
	fi
else
	skip "--serve [::]:PORT" "needs root and unshare -n (a network namespace of its own)"
fi
# A request line beyond 16 KiB: 414, and the connection closed.
"$PY" - "$pport" "$iport" >"$tmp/414" 2>&1 <<'PY'
import socket, sys
c = socket.create_connection(("127.0.0.1", int(sys.argv[2])), timeout=5)
c.sendall(b"GET /" + b"a" * 17000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
r = b""
while True:
    d = c.recv(4096)
    if not d:
        break
    r += d
print(r.split(b"\r\n")[0].decode())
assert r.startswith(b"HTTP/1.1 414"), r[:80]
PY
if [ $? = 0 ]; then ok "a request line of 17 KB: $(cat "$tmp/414"), closed"; else notok "long request line" "$(cat "$tmp/414")"; fi
# Host (RFC 9112, 3.2): HTTP/1.1 needs exactly one; HTTP/1.0 may have none.
"$PY" - "$iport" >"$tmp/host" 2>&1 <<'PY'
import socket, sys
def status(req):
    c = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
    c.sendall(req)
    r = b""
    while b"\r\n" not in r:
        d = c.recv(4096)
        if not d:
            break
        r += d
    c.close()
    return r.split(b"\r\n")[0].decode()
got = [status(b"GET /metrics HTTP/1.1\r\n\r\n"),
       status(b"GET /metrics HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
       status(b"GET /metrics HTTP/1.0\r\n\r\n"),
       status(b"GET /metrics HTTP/1.1\r\nhost: a\r\n\r\n")]
print("no Host: %s; two: %s; HTTP/1.0 without: %s; one: %s" % tuple(got))
assert [g.split()[1] for g in got] == ["400", "400", "200", "200"], got
PY
if [ $? = 0 ]; then ok "Host: $(cat "$tmp/host")"; else notok "the Host header" "$(cat "$tmp/host")"; fi
reap "$idle_check" 20
if [ "$reaped" = 0 ]; then ok "an idle connection: $(cat "$tmp/idle") (the inactivity timeout)"; else
	notok "inactivity timeout" "$(cat "$tmp/idle")"; fi
kill -TERM "$idle_pid"
reap "$idle_pid" 10
