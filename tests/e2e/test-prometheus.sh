#!/bin/bash
# test-prometheus.sh — a real Prometheus (Debian's) scrapes a real
# threadlab --headless --serve --match every second: the busy thread's
# CPU rate is 1.0, a quota cgroup's throttled periods rise, the target set
# follows --match as processes start and end, and Prometheus negotiated
# OpenMetrics.  Then the shipped fleet files: promtool checks and tests the
# rules and the scrape config, systemd-analyze verifies the unit, the
# DaemonSet parses as YAML.  Prints TAP.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
TL="$(cd "$B" && pwd)/threadlab"
OMP="$B/tests/lib/omp-busy"
cg=""


for c in prometheus promtool curl "$PY"; do
	if ! command -v "$c" >/dev/null; then
		skip_all "$c is needed (Debian packages prometheus, curl, python3)"
	fi
done
plan 12

# A free port on 127.0.0.1.
free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# q EXPR: the instant query's result as JSON ([] when nothing matches).
q() {
	curl -s -G --data-urlencode "query=$1" "http://127.0.0.1:$pport/api/v1/query" |
		"$PY" -c 'import json, sys; d = json.load(sys.stdin); print(json.dumps(d["data"]["result"]))'
}

# until_q SECONDS EXPR PYTHON [DEFS]: polls EXPR until PYTHON (on r, the
# result list, after the definitions DEFS) holds; the last result in
# $tmp/last either way.
q_holds() {
	q "$1" >"$tmp/last"
	"$PY" -c "import json, sys
$3
r = json.load(open('$tmp/last'))
sys.exit(0 if ($2) else 1)" 2>/dev/null
}
until_q() { tap_every=5 until_true $(($1 * 10)) q_holds "$2" "$3" "${4:-}"; }

mark="tl-prom-$$"
# busy NAME [CGROUP]: an OpenMP loop of one thread whose command line is NAME.
busy() {
	local name=$1 into=${2:-}
	if [ -n "$into" ]; then
		bash -c "echo \$\$ > '$into/cgroup.procs' && OMP_NUM_THREADS=1 exec -a '$name' '$OMP'" >/dev/null &
	else
		OMP_NUM_THREADS=1 bash -c "exec -a '$name' '$OMP'" >/dev/null &
	fi
	bpid=$!
	track "$bpid"
}

busy "$mark-a"
a=$bpid
# A quota cgroup on v1 or v2 where root can make one (failing to is a
# failure below, not a skip).
cg=""
if quota_capable; then
	cg_make prom && cg=$cg_dir && cg_quota "$cg" 50000 100000
	busy "$mark-b" "$cg"
	b=$bpid
fi

tport=$(free_port)
"$TL" --headless --serve "127.0.0.1:$tport" --match "^$mark-" -i 0.5 2>"$tmp/tl.err" &
tlpid=$!
track "$tlpid"
pport=$(free_port)
cat >"$tmp/prom.yml" <<EOF
global: {scrape_interval: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: threadlab
    static_configs: [{targets: ['127.0.0.1:$tport']}]
EOF
prometheus --config.file="$tmp/prom.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$tmp/prom.log" 2>&1 &
ppid=$!
track "$ppid"
until_true 100 curl -sf "http://127.0.0.1:$pport/-/ready" >/dev/null

# ---- the scrape ----------------------------------------------------------------
# Prometheus lists new targets every 5 s: the first sample takes about 6 s.
if until_q 30 'up{job="threadlab"}' 'r and r[0]["value"][1] == "1"'; then
	ok "Prometheus scrapes threadlab (up 1)"
else
	notok "up" "$(cat "$tmp/last")" "$(cat "$tmp/tl.err" "$tmp/prom.log" | tail -5)"
fi
if until_q 20 "threadlab_target_info{pid=\"$a\"}" 'len(r) == 1' &&
	curl -s "http://127.0.0.1:$pport/api/v1/metadata?metric=threadlab_target" | grep -q '"type":"info"'; then
	ok "it negotiated OpenMetrics: threadlab_target is an info family in Prometheus's metadata"
else
	notok "OpenMetrics negotiated" "$(curl -s "http://127.0.0.1:$pport/api/v1/metadata?metric=threadlab_target")"
fi
rate="sum by (tid) (rate(threadlab_thread_cpu_seconds_total{pid=\"$a\",tid=\"$a\"}[10s]))"
# The busy thread's own CPU share over the same 10 s, from its schedstat
# (a reading every 0.25 s, kept with its time): a whole CPU on an idle box,
# less on a loaded one, and it changes as other load comes and goes, so
# each try compares the rate with the share over the 10 s before it.
(while :; do echo "$(date +%s.%N) $(cut -d' ' -f1 "/proc/$a/task/$a/schedstat" 2>/dev/null)"; sleep 0.25; done) >"$tmp/runs" &
track "$!"
sleep 10
cond="r and 0 < float(r[0][\"value\"][1]) <= 1.05 and abs(float(r[0][\"value\"][1]) - share(10)) <= 0.15"
share_py="
def share(w):
    rows = [l.split() for l in open('$tmp/runs').read().split(chr(10)) if len(l.split()) == 2]
    t1, r1 = float(rows[-1][0]), float(rows[-1][1])
    t0, r0 = next((float(t), float(r)) for t, r in rows if float(t) >= t1 - w)
    return (r1 - r0) / 1e9 / (t1 - t0)
"
if until_q 30 "$rate" "$cond" "$share_py"; then
	ok "rate(threadlab_thread_cpu_seconds_total[10s]) of the busy thread, user + system, its schedstat share over those 10 s: $(cut -c1-120 "$tmp/last")"
else
	notok "busy thread rate: its schedstat share over the last 10 s $("$PY" -c "$share_py
print('%.3f' % share(10))") +- 0.15" "$(cat "$tmp/last")"
fi
if quota_capable && [ -z "$cg" ]; then
	notok "a quota cgroup's throttled periods" "root can make a quota cgroup, but cg_make failed"
elif [ -n "$cg" ]; then
	thr="increase(threadlab_cgroup_cpu_cfs_throttled_periods_total{cgroup=\"/tl-test-prom-$$\"}[5s])"
	# cpu.stat's own count over 5 s: a loaded box may keep the cgroup from
	# its quota (then few or no throttled periods); Prometheus must agree.
	nthr() { awk '$1 == "nr_throttled" { print $2 }' "$cg/cpu.stat"; }
	n0=$(nthr)
	sleep 5
	own=$(($(nthr) - n0))
	if until_q 30 "$thr" "r and ($own < 3 or float(r[0][\"value\"][1]) > 1) and float(r[0][\"value\"][1]) <= 2 * $own + 5"; then
		ok "a 0.5-CPU quota: its cgroup's throttled periods as cpu.stat counts them ($own in 5 s; $(cut -c1-100 "$tmp/last"))"
	else
		notok "throttled periods rise" "$(cat "$tmp/last")"
	fi
else
	skip "a quota cgroup's throttled periods" "$quota_why"
fi

# ---- --match follows processes ------------------------------------------------------
busy "$mark-c"
c=$bpid
if until_q 20 "threadlab_target_info{pid=\"$c\"}" 'len(r) == 1'; then
	ok "a new matching process joins the target set"
else
	notok "new target" "$(cat "$tmp/last")"
fi
stop "$a"
if until_q 20 "threadlab_target_info{pid=\"$a\"}" 'len(r) == 0' &&
	[ "$(q "threadlab_target_info{pid=\"$c\"}")" != "[]" ]; then
	ok "an ended process leaves it: its series stop, the others stay"
else
	notok "ended target" "$(cat "$tmp/last")"
fi
n_targets=$(q "count(threadlab_target_info)" | "$PY" -c 'import json, sys; r = json.load(sys.stdin); print(r[0]["value"][1] if r else 0)')
want=$([ -n "$cg" ] && echo 2 || echo 1)
if [ "$n_targets" = "$want" ]; then
	ok "only the matching processes are targets ($n_targets; threadlab and Prometheus are not)"
else
	notok "target count" "$n_targets, want $want"
fi
kill -TERM "$tlpid"
reap "$tlpid" 10
st=$reaped
[ $st = 0 ] && ok "--headless --match ends on SIGTERM with exit 0" || notok "headless exit" "exit $st"
kill -TERM "$ppid"
reap "$ppid" 10

# ---- the fleet files ------------------------------------------------------------------
P="$SRC/contrib/prometheus"
if promtool check config "$P/prometheus.yml" >"$tmp/pc" 2>&1 &&
	promtool check rules "$P/threadlab-rules.yml" >>"$tmp/pc" 2>&1; then
	ok "promtool check config and check rules pass on contrib/prometheus"
else
	notok "promtool check" "$(cat "$tmp/pc")"
fi
if promtool test rules "$P/threadlab-rules.test.yml" >"$tmp/pt" 2>&1; then
	ok "promtool test rules: the recording rules and the three alerts behave as their tests say"
else
	notok "promtool test rules" "$(tail -20 "$tmp/pt")"
fi
unit="$SRC/contrib/systemd/threadlab-exporter.service"
if command -v systemd-analyze >/dev/null; then
	mkdir -p "$tmp/unit"
	sed "s#^ExecStart=/usr/bin/threadlab #ExecStart=$TL #" "$unit" >"$tmp/unit/threadlab-exporter.service"
	if systemd-analyze verify --man=no "$tmp/unit/threadlab-exporter.service" >"$tmp/sv" 2>&1 &&
		[ ! -s "$tmp/sv" ]; then
		ok "systemd-analyze verify: the unit is clean"
	else
		notok "systemd-analyze verify" "$(cat "$tmp/sv")"
	fi
else
	skip "systemd-analyze verify" "systemd is not installed"
fi
if "$PY" - "$SRC/contrib/kubernetes/threadlab-daemonset.yaml" >"$tmp/ky" 2>&1 <<'PY'; then
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["kind"] == "DaemonSet", d["kind"]
spec = d["spec"]["template"]["spec"]
assert spec["hostPID"] is True
c = spec["containers"][0]
args = " ".join(c.get("args", []) + c.get("command", []))
assert "--headless" in args and "--match" in args and "--serve" in args, args
sc = c["securityContext"]
assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False
assert set(sc["capabilities"]["add"]) == {"SYS_PTRACE", "DAC_READ_SEARCH"}, sc
assert sc["capabilities"]["drop"] == ["ALL"]
assert any(p.get("name") == "metrics" for p in c["ports"])
PY
	ok "the DaemonSet parses: hostPID, --headless --serve --match, read-only root, two capabilities"
else
	notok "DaemonSet YAML" "$(cat "$tmp/ky")"
fi

