#!/bin/bash
# test-pools.sh — pools as they run, against real programs the test starts
# (issue 16): a C program built with -fopenmp that calls
# omp_set_num_threads(2 x CPUs) in its code, OMP_NUM_THREADS unset, reads a
# libgomp pool of 2 x CPUs in effect (the default would be the CPUs),
# oversubscribed, and the suggestion names omp_set_num_threads; numpy with
# OPENBLAS_NUM_THREADS=4 reads the pool OpenBLAS really runs (capped at the
# CPUs), from the process's memory when threadlab may read it; numpy whose
# code calls openblas_set_num_threads(1) reads 1, the code's setting.
# Prints TAP.  Every process is tracked by PID and killed on exit.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
. "$(dirname "$0")/../lib/tap-jobs.sh"
TEAM="$B/tests/lib/omp-team"
jobs_need "$TEAM"
plan 3
cpus=$(nproc)

# check DESC FILE PYTHON: the diagnosis in FILE passes the assertions.
check() {
	json_check "$2" 0 "$3" && ok "$1" || notok "$1" "$(cat "$tmp/err")" "$(head -c 2000 "$2")"
}

# ---- a team its code sizes ------------------------------------------------------
# libgomp's own wait policy: its threads stop spinning at the barriers once
# they outnumber the CPUs, so their mean demand is below the team's size;
# the team working together is what oversubscribes.
team=$((cpus * 2))
start omp env -u OMP_NUM_THREADS -u OMP_WAIT_POLICY "$TEAM" "$team"
"$TL" --diagnose -p "$omp" --seconds 2 --format json >"$tmp/omp.json" 2>"$tmp/omp.err"
st=$?
check "omp_set_num_threads($team) in the code, OMP_NUM_THREADS unset: pool $team in effect, default $cpus, oversubscribed, the call named" "$tmp/omp.json" "
assert $st == 1, 'exit %d' % $st
g = [r for r in d['runtimes'] if r['name'].startswith('GNU OpenMP')]
assert g, d['runtimes']
g = g[0]
assert g['pool'] == $team and g['pool_source'] == 'observed', g
assert g['pool_default'] == $cpus and g['code_sets'], g
assert 'the code' in g['pool_why'], g['pool_why']
assert d['env']['OMP_NUM_THREADS'] is None
assert d['verdict'] == 'oversubscribed', d['verdict']
s = d['suggestions'][0]
assert 'omp_set_num_threads($cpus)' in s and 'OMP_NUM_THREADS=$cpus' in s, s
"
stop "$omp"

# ---- numpy: what OpenBLAS really runs ------------------------------------------
npy=""
"$PY" -c 'import numpy' 2>/dev/null && npy=$PY
if [ -n "$npy" ]; then
	want=$((cpus < 4 ? cpus : 4))
	start np env OPENBLAS_NUM_THREADS=4 "$npy" -c '
import numpy
a = numpy.ones((500, 500))
print("ready", flush=True)
while True:
    a @ a
'
	"$TL" --diagnose -p "$np" --seconds 2 --format json >"$tmp/np.json" 2>&1
	src=$([ "$(id -u)" = 0 ] && echo memory || echo "")
	check "numpy, OPENBLAS_NUM_THREADS=4 on $cpus CPUs: pool $want in effect (capped)${src:+, read from the process}" "$tmp/np.json" "
ob = [r for r in d['runtimes'] if r['name'] == 'OpenBLAS']
assert ob, d['runtimes']
ob = ob[0]
assert ob['pool'] == $want and ob['pool_default'] == $want, ob
if '$src':
    assert ob['pool_source'] == '$src' and 'blas_cpu_number' in ob['pool_why'], ob
assert not ob['code_sets'], ob
assert d['env']['OPENBLAS_NUM_THREADS'] == '4'
"
	stop "$np"
	# The code sets the count: openblas_set_num_threads(1), the environment
	# would give the CPUs.
	start np1 env -u OPENBLAS_NUM_THREADS -u OMP_NUM_THREADS "$npy" -c '
import ctypes, numpy
lib = [l.split()[-1] for l in open("/proc/self/maps") if "openblas" in l and l.split()[-1].startswith("/")][0]
ctypes.CDLL(lib).openblas_set_num_threads(1)
a = numpy.ones((300, 300))
print("ready", flush=True)
while True:
    a @ a
'
	"$TL" --diagnose -p "$np1" --seconds 2 --format json >"$tmp/np1.json" 2>&1
	if [ "$(id -u)" = 0 ]; then
		check "numpy whose code calls openblas_set_num_threads(1): pool 1, the code's setting (default $cpus)" "$tmp/np1.json" "
ob = [r for r in d['runtimes'] if r['name'] == 'OpenBLAS'][0]
assert ob['pool'] == 1 and ob['pool_source'] == 'memory', ob
assert ob['pool_default'] == $cpus, ob
assert ob['code_sets'] == ($cpus != 1), ob
"
	else
		skip "numpy whose code calls openblas_set_num_threads(1)" "reading another process's memory needs root or its user"
	fi
	stop "$np1"
else
	skip "numpy: what OpenBLAS runs" "numpy is not installed (Debian package python3-numpy)"
	skip "numpy: the code's setting" "numpy is not installed (Debian package python3-numpy)"
fi
