/* test-runtimes.c — what the diagnosis reads, on known input: the maps and
 * environ parsers (and both live on this process), the recognition of
 * thread-pool runtimes by library, their default thread counts, and
 * thread-name stems. */
#include "tl-test.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "census-impl.h"
#include "diagnosis-input.h"
#include "environ.h"
#include "maps.h"
#include "runtimes.h"

/* ---- maps ---------------------------------------------------------------- */

static void test_maps_lines(void **state)
{
	(void)state;
	struct maps_line l;
	const char *lib = "7f42dcc90000-7f42dccbf000 r-xp 0000a000 fe:00 333065                   "
			  "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0";
	assert_int_equal(maps_line_parse(lib, strlen(lib), &l), 0);
	assert_string_equal(l.path, "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0");
	assert_true(l.exec);
	assert_int_equal(l.inode, 333065);
	assert_false(l.deleted);
	/* Spaces come as they are; a newline as \012; unlinked files say so. */
	const char *sp = "00400000-00401000 r--p 00000000 fe:00 12 /tmp/my dir/lib x.so (deleted)";
	assert_int_equal(maps_line_parse(sp, strlen(sp), &l), 0);
	assert_string_equal(l.path, "/tmp/my dir/lib x.so");
	assert_true(l.deleted);
	assert_false(l.exec);
	const char *nl = "00400000-00401000 r--p 00000000 fe:00 12 /tmp/a\\012b.so";
	assert_int_equal(maps_line_parse(nl, strlen(nl), &l), 0);
	assert_string_equal(l.path, "/tmp/a\nb.so");
	const char *heap =
	    "01c2d000-01c4e000 rw-p 00000000 00:00 0                          [heap]";
	assert_int_equal(maps_line_parse(heap, strlen(heap), &l), 0);
	assert_string_equal(l.path, "");
	const char *anon = "7f0000000000-7f0000021000 rw-p 00000000 00:00 0 ";
	assert_int_equal(maps_line_parse(anon, strlen(anon), &l), 0);
	assert_string_equal(l.path, "");
	const char *bad[] = {"", "garbage", "0-1 rwxpq 0 0:0 0 /x", "0-1 r--p 0 00 0 /x",
			     "0-1 r--p 0 0:0 12x /x"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(maps_line_parse(bad[i], strlen(bad[i]), &l), -EINVAL);
}

static int files_seen;
static char files_last[MAPS_PATH_MAX];

static void count_file(const struct maps_line *l, void *arg)
{
	(void)arg;
	files_seen++;
	snprintf(files_last, sizeof(files_last), "%s", l->path);
}

static void test_maps_files(void **state)
{
	(void)state;
	const char *m = "00400000-00401000 r--p 00000000 fe:00 1 /usr/bin/python3.11\n"
			"00401000-00402000 r-xp 00001000 fe:00 1 /usr/bin/python3.11\n"
			"01c2d000-01c4e000 rw-p 00000000 00:00 0 [heap]\n"
			"7f0-7f1 r--p 00000000 fe:00 2 /usr/lib/x86_64-linux-gnu/libm.so.6\n"
			"7f1-7f2 r-xp 00001000 fe:00 2 /usr/lib/x86_64-linux-gnu/libm.so.6\n"
			"7f2-7f3 r--p 00000000 fe:00 3 /usr/lib/x86_64-linux-gnu/libc.so.6\n";
	files_seen = 0;
	assert_int_equal(maps_files(m, strlen(m), count_file, NULL), 3);
	assert_int_equal(files_seen, 3);
	assert_string_equal(files_last, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_int_equal(maps_files("bad line\n", 9, count_file, NULL), -EINVAL);
}

static void test_maps_live(void **state)
{
	(void)state;
	struct sysroot r;
	char *buf;
	bool cut;
	assert_int_equal(sysroot_open(&r, "/"), 0);
	ssize_t n = maps_read(&r, getpid(), &buf, 1 << 20, &cut);
	assert_true(n > 0);
	assert_false(cut);
	files_seen = 0;
	assert_true(maps_files(buf, (size_t)n, count_file, NULL) > 0);
	free(buf);
	assert_int_equal(maps_read(&r, 999999999, &buf, 1 << 20, &cut), -ESRCH);
	sysroot_close(&r);
}

/* ---- environ -------------------------------------------------------------- */

static void test_environ(void **state)
{
	(void)state;
	static const char env[] = "HOME=/root\0OMP_NUM_THREADS=4\0OMP_NUM_THREADS_X=9\0"
				  "EMPTY=\0OMP_NUM_THREADS=6\0NOEQUALS\0";
	size_t len = sizeof(env) - 1;
	/* the first one, as getenv() in the target finds it */
	assert_string_equal(environ_get(env, len, "OMP_NUM_THREADS"), "4");
	assert_string_equal(environ_get(env, len, "OMP_NUM_THREADS_X"), "9");
	assert_string_equal(environ_get(env, len, "EMPTY"), "");
	assert_null(environ_get(env, len, "NOEQUALS"));
	assert_null(environ_get(env, len, "OMP"));
	assert_null(environ_get(env, 0, "HOME"));
	/* Our own, live: the variable set before exec is there. */
	struct sysroot r;
	char *buf;
	bool cut;
	assert_int_equal(sysroot_open(&r, "/"), 0);
	ssize_t n = environ_read(&r, getpid(), &buf, &cut);
	assert_true(n > 0);
	if (getenv("THREADLAB_SRCDIR"))
		assert_non_null(environ_get(buf, (size_t)n, "THREADLAB_SRCDIR"));
	free(buf);
	sysroot_close(&r);
}

/* ---- what cannot be read whole ------------------------------------------------ */

static char fx[] = "/tmp/tl-test-census-XXXXXX";

static void fx_put(const char *rel, const char *text, size_t len)
{
	char path[512], cmd[600];
	snprintf(path, sizeof(path), "%s/%s", fx, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void fx_stat(pid_t pid, pid_t tid, char state)
{
	char rel[128], line[256];
	if (tid)
		snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", (int)pid, (int)tid);
	else
		snprintf(rel, sizeof(rel), "proc/%d/stat", (int)pid);
	int n =
	    snprintf(line, sizeof(line),
		     "%d (job) %c 1 %d %d 0 -1 0 0 0 0 0 0 0 0 0 20 0 2 0 100 0 0 0 0 0 0 0 0 0 "
		     "0 0 0 0 0 0 0 0 0 0 0 0\n",
		     (int)(tid ? tid : pid), state, (int)pid, (int)pid);
	fx_put(rel, line, (size_t)n);
}

static const char fx_maps[] = "7f0000000000-7f0000001000 r-xp 00000000 08:01 42 "
			      "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0\n";

/* An environment longer than ENVIRON_MAX reads "truncated", not unset: a
 * variable found is the one the process sees, one not found may lie
 * beyond.  A zombie leader (its environ "no such process", its maps empty)
 * is read through a live thread; without one it is "unreadable".  None of
 * it is reasoned from: a runtime of such a process has no pool rule. */
static void test_not_read_whole(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(fx));
	/* 100: 5 MiB of environment, OMP_NUM_THREADS=2 after it */
	size_t big = ENVIRON_MAX + (1 << 20);
	char *env = malloc(big + 64);
	memcpy(env, "HOME=/root", 11);
	memset(env + 11, 'x', big - 11);
	memcpy(env + 11, "PAD=", 4);
	env[big - 1] = '\0';
	size_t len = big + (size_t)sprintf(env + big, "OMP_NUM_THREADS=2") + 1;
	fx_stat(100, 0, 'S');
	fx_put("proc/100/environ", env, len);
	fx_put("proc/100/maps", fx_maps, sizeof(fx_maps) - 1);
	free(env);
	/* 200: a zombie leader, thread 201 alive; 300: a zombie leader alone */
	fx_stat(200, 0, 'Z');
	fx_stat(200, 200, 'Z');
	fx_stat(200, 201, 'S');
	fx_put("proc/200/maps", "", 0);
	static const char env2[] = "PATH=/bin\0OMP_NUM_THREADS=3\0";
	fx_put("proc/200/task/201/environ", env2, sizeof(env2) - 1);
	fx_put("proc/200/task/201/maps", fx_maps, sizeof(fx_maps) - 1);
	fx_stat(300, 0, 'Z');
	fx_stat(300, 300, 'Z');
	fx_put("proc/300/maps", "", 0);
	struct sysroot r;
	assert_int_equal(sysroot_open(&r, fx), 0);
	struct census c;
	census_init(&c, &r);
	pid_t pids[] = {100, 200, 300};
	census_update_pids(&c, &r, pids, NULL, 3, 1.0);
	const struct census_proc *p = census_find(&c, 100);
	assert_int_equal(p->env, CENSUS_ENV_TRUNCATED);
	assert_null(census_var(p, "OMP_NUM_THREADS"));
	assert_string_equal(census_var(p, "HOME") ? census_var(p, "HOME") : "/root", "/root");
	p = census_find(&c, 200);
	assert_int_equal(p->env, CENSUS_ENV_OK);
	assert_int_equal(p->view, 201);
	assert_string_equal(census_var(p, "OMP_NUM_THREADS"), "3");
	assert_true(p->maps_readable);
	assert_int_equal(p->nruntimes, 1);
	p = census_find(&c, 300);
	assert_int_equal(p->env, CENSUS_ENV_UNREADABLE);
	assert_false(p->env_denied);
	assert_false(p->maps_readable);
	/* The diagnosis of 100: "truncated", no pool rule for its libgomp. */
	struct snapshot_rates rates;
	snapshot_rates_init(&rates);
	struct budget b;
	memset(&b, 0, sizeof(b));
	b.online = b.affinity = 2;
	b.effective = 2;
	struct diagnosis *d = calloc(1, sizeof(*d));
	struct diag_input in = {.target = 100, .budget = &b, .rates = &rates, .census = &c};
	diagnosis_make(&in, d);
	assert_int_equal(d->env_state, CENSUS_ENV_TRUNCATED);
	const struct diag_env *omp = NULL;
	for (size_t i = 0; i < d->nenv; i++)
		if (strcmp(d->env[i].name, "OMP_NUM_THREADS") == 0)
			omp = &d->env[i];
	assert_true(omp && omp->state == CENSUS_ENV_TRUNCATED && !omp->set);
	bool gomp = false;
	for (size_t i = 0; i < d->nruntimes; i++)
		if (d->runtimes[i].pid == 100) {
			gomp = true;
			assert_true(d->runtimes[i].pool_unknown);
			/* unknown is never 0: no default, and no team seen */
			assert_true(d->runtimes[i].pool < 0 && d->runtimes[i].pool_default < 0);
			assert_non_null(strstr(d->runtimes[i].why, "unknown"));
		}
	assert_true(gomp);
	bool said = false;
	for (size_t i = 0; i < d->nreasons; i++) {
		said |= strstr(d->reasons[i], "longer than the 4 MiB") != NULL;
		assert_null(strstr(d->reasons[i], "unset"));
	}
	assert_true(said);
	/* 300: unreadable, said so, and its libraries unknown */
	in.target = 300;
	diagnosis_make(&in, d);
	assert_int_equal(d->env_state, CENSUS_ENV_UNREADABLE);
	assert_true(d->maps_unreadable >= 1);
	/* PID 200 taken by another process: a new start time reads it again
	 * (its command line is read only then), the same start time does
	 * not, inside the refresh cadence both. */
	fx_put("proc/200/cmdline", "new\0", 4);
	uint64_t starts[] = {100, 100, 100};
	census_update_pids(&c, &r, pids, starts, 3, 1.5);
	assert_int_equal(census_find(&c, 200)->cmdline_len, 0);
	starts[1] = 777;
	census_update_pids(&c, &r, pids, starts, 3, 2.0);
	p = census_find(&c, 200);
	assert_int_equal(p->cmdline_len, 4);
	assert_int_equal(p->starttime, 777);
	assert_string_equal(census_var(p, "OMP_NUM_THREADS"), "3");
	fx_put("proc/200/cmdline", "newer\0", 6);
	census_update_pids(&c, &r, pids, starts, 3, 2.5);
	assert_int_equal(census_find(&c, 200)->cmdline_len, 4);
	free(d);
	snapshot_rates_free(&rates);
	census_free(&c);
	sysroot_close(&r);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx);
	assert_int_equal(system(cmd), 0);
}

/* The library as the fixture's process 400 maps it: the file at GOMP
 * under proc/400/root, its inode in the maps line (returned in out). */
#define GOMP "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0"
static void fx_gomp_maps(char *out, size_t cap)
{
	char path[512];
	struct stat st;
	snprintf(path, sizeof(path), "%s/proc/400/root" GOMP, fx);
	assert_int_equal(stat(path, &st), 0);
	snprintf(out, cap, "7f0000000000-7f0000001000 r-xp 00000000 08:01 %lu %s\n",
		 (unsigned long)st.st_ino, GOMP);
}

/* The library replaced on disk (a new file renamed over it: a new inode,
 * as a package upgrade does). */
static void fx_gomp_replace(void)
{
	char a[512], b[512];
	fx_put("proc/400/root" GOMP ".new", "new", 3);
	snprintf(a, sizeof(a), "%s/proc/400/root" GOMP ".new", fx);
	snprintf(b, sizeof(b), "%s/proc/400/root" GOMP, fx);
	assert_int_equal(rename(a, b), 0);
}

/* The maps are read again when the address space's size (statm) changed,
 * when a runtime's file is no longer the one mapped (replaced on disk, its
 * symbols would be read at the old mapping's addresses), or after
 * CENSUS_MAPS_MAX_S, not at every refresh: a library loaded changes the
 * size; the maps of a process with 10,000 threads are 20,000 lines. */
static void test_maps_reread(void **state)
{
	(void)state;
	strcpy(fx, "/tmp/tl-test-census-XXXXXX"); /* mkdtemp filled it in */
	assert_non_null(mkdtemp(fx));
	static const char other[] = "7f0000000000-7f0000001000 r-xp 00000000 08:01 43 "
				    "/usr/lib/x86_64-linux-gnu/libc.so.6\n";
	char gomp[256];
	fx_stat(400, 0, 'S');
	fx_put("proc/400/environ", "A=1", 4);
	fx_put("proc/400/statm", "1000 10 5 1 0 100 0\n", 20);
	fx_put("proc/400/maps", other, sizeof(other) - 1);
	fx_put("proc/400/root" GOMP, "old", 3);
	fx_gomp_maps(gomp, sizeof(gomp));
	struct sysroot r;
	assert_int_equal(sysroot_open(&r, fx), 0);
	struct census c;
	census_init(&c, &r);
	pid_t pids[] = {400};
	double t = 1.0, step = CENSUS_REFRESH_S;
	census_update_pids(&c, &r, pids, NULL, 1, t);
	assert_int_equal(census_find(&c, 400)->nruntimes, 0);
	/* libgomp mapped: the size changed, so the next refresh sees it */
	fx_put("proc/400/statm", "1200 10 5 1 0 100 0\n", 20);
	fx_put("proc/400/maps", gomp, strlen(gomp));
	census_update_pids(&c, &r, pids, NULL, 1, t += step);
	assert_int_equal(census_find(&c, 400)->nruntimes, 1);
	/* the same size and file: the maps are not read again (here they
	 * differ, to tell) */
	fx_put("proc/400/maps", other, sizeof(other) - 1);
	census_update_pids(&c, &r, pids, NULL, 1, t += step);
	assert_int_equal(census_find(&c, 400)->nruntimes, 1);
	/* the file replaced: read again at once */
	fx_gomp_replace();
	census_update_pids(&c, &r, pids, NULL, 1, t += step);
	assert_int_equal(census_find(&c, 400)->nruntimes, 0);
	/* mapped again, then not read again until CENSUS_MAPS_MAX_S after */
	fx_gomp_maps(gomp, sizeof(gomp));
	fx_put("proc/400/statm", "1300 10 5 1 0 100 0\n", 20);
	fx_put("proc/400/maps", gomp, strlen(gomp));
	census_update_pids(&c, &r, pids, NULL, 1, t += step);
	assert_int_equal(census_find(&c, 400)->nruntimes, 1);
	double read_at = t;
	fx_put("proc/400/maps", other, sizeof(other) - 1);
	census_update_pids(&c, &r, pids, NULL, 1, t += step);
	assert_int_equal(census_find(&c, 400)->nruntimes, 1);
	census_update_pids(&c, &r, pids, NULL, 1, t = read_at + CENSUS_MAPS_MAX_S);
	assert_int_equal(census_find(&c, 400)->nruntimes, 0);
	/* no statm (a fixture, or not readable): read at every refresh */
	fx_put("proc/400/maps", gomp, strlen(gomp));
	char rel[PATH_MAX];
	snprintf(rel, sizeof(rel), "%s/proc/400/statm", fx);
	assert_int_equal(unlink(rel), 0);
	census_update_pids(&c, &r, pids, NULL, 1, t + 1.0);
	assert_int_equal(census_find(&c, 400)->nruntimes, 0); /* not due yet */
	census_update_pids(&c, &r, pids, NULL, 1, t + step);
	assert_int_equal(census_find(&c, 400)->nruntimes, 1);
	census_free(&c);
	sysroot_close(&r);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx);
	assert_int_equal(system(cmd), 0);
}

/* ---- runtimes ------------------------------------------------------------- */

static void test_runtimes_match(void **state)
{
	(void)state;
	static const struct {
		const char *path;
		enum runtime_id id;
		const char *variant;
	} t[] = {
	    {"/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so", RUNTIME_OPENBLAS,
	     "pthreads"},
	    {"/usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblasp-r0.3.21.so", RUNTIME_OPENBLAS,
	     "openmp"},
	    {"/usr/lib/x86_64-linux-gnu/openblas-serial/libopenblas-r0.3.21.so", RUNTIME_OPENBLAS,
	     "sequential"},
	    {"/venv/lib/python3.11/site-packages/numpy.libs/libopenblas64_p-r0-15028c96.3.21.so",
	     RUNTIME_OPENBLAS, "pthreads"},
	    {"/venv/numpy.libs/libscipy_openblas64_-ff651d7f.so", RUNTIME_OPENBLAS, "pthreads"},
	    {"/usr/lib/x86_64-linux-gnu/blis-openmp/libblas.so.3", RUNTIME_BLIS, "openmp"},
	    {"/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0", RUNTIME_GOMP, ""},
	    {"/venv/torch/lib/libgomp-a34b3233.so.1", RUNTIME_GOMP, ""},
	    {"/usr/lib/llvm-14/lib/libomp.so.5", RUNTIME_LLVM_OMP, ""},
	    {"/opt/intel/lib/libiomp5.so", RUNTIME_IOMP, ""},
	    {"/venv/lib/libmkl_intel_thread.so.2", RUNTIME_MKL, "intel"},
	    {"/venv/lib/libmkl_sequential.so.2", RUNTIME_MKL, "sequential"},
	    {"/usr/lib/x86_64-linux-gnu/libtbb.so.12.8", RUNTIME_TBB, ""},
	    {"/venv/torch/lib/libtorch_cpu.so", RUNTIME_TORCH, ""},
	    {"/venv/tensorflow/libtensorflow_framework.so.2", RUNTIME_TENSORFLOW, ""},
	    {"/venv/onnxruntime/capi/onnxruntime_pybind11_state.cpython-311-x86_64-linux-gnu.so",
	     RUNTIME_ONNXRUNTIME, ""},
	    {"/usr/lib/x86_64-linux-gnu/libopencv_core.so.4.6.0", RUNTIME_OPENCV, ""},
	    {"/usr/lib64/libflexiblas.so.3", RUNTIME_FLEXIBLAS, ""},
	};
	struct runtime_match m;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (!runtimes_match(t[i].path, &m))
			fail_msg("not recognised: %s", t[i].path);
		assert_int_equal(m.id, t[i].id);
		assert_string_equal(m.variant, t[i].variant);
	}
	const char *no[] = {"/usr/lib/x86_64-linux-gnu/libtbbmalloc.so.2.8",
			    "/usr/lib/x86_64-linux-gnu/libm.so.6",
			    "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3", "/usr/bin/gompd",
			    "/usr/lib/x86_64-linux-gnu/libgompwhat.so"};
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (runtimes_match(no[i], &m))
			fail_msg("recognised but is no runtime: %s", no[i]);
}

static const char *const *fake_env;

static const char *fake_get(const void *ctx, const char *name)
{
	(void)ctx;
	for (size_t i = 0; fake_env && fake_env[i]; i += 2)
		if (strcmp(fake_env[i], name) == 0)
			return fake_env[i + 1];
	return NULL;
}

static int count_with(enum runtime_id id, const char *variant, const char *const *env, int affinity,
		      char *why)
{
	fake_env = env;
	struct runtimes_env e = {fake_get, NULL};
	return runtimes_default_count(id, variant, &e, affinity, 4, why, 256);
}

static void test_default_counts(void **state)
{
	(void)state;
	char why[256];
	/* OpenBLAS pthreads: the precedence, then the cap at the affinity CPUs. */
	const char *none[] = {NULL};
	assert_int_equal(count_with(RUNTIME_OPENBLAS, "pthreads", none, 2, why), 2);
	assert_non_null(strstr(why, "affinity"));
	const char *omp4[] = {"OMP_NUM_THREADS", "4", NULL};
	assert_int_equal(count_with(RUNTIME_OPENBLAS, "pthreads", omp4, 2, why), 2);
	assert_non_null(strstr(why, "OMP_NUM_THREADS=4 asked for 4, capped"));
	const char *both[] = {"OMP_NUM_THREADS", "8", "OPENBLAS_NUM_THREADS", "1", NULL};
	assert_int_equal(count_with(RUNTIME_OPENBLAS, "pthreads", both, 8, why), 1);
	assert_non_null(strstr(why, "OPENBLAS_NUM_THREADS=1"));
	const char *goto3[] = {"GOTO_NUM_THREADS", "3", "OMP_NUM_THREADS", "8", NULL};
	assert_int_equal(count_with(RUNTIME_OPENBLAS, "pthreads", goto3, 8, why), 3);
	assert_int_equal(count_with(RUNTIME_OPENBLAS, "pthreads", none, 128, why), 64);
	/* The OpenMP build follows OpenMP, uncapped; the serial one is 1. */
	const char *omp8[] = {"OMP_NUM_THREADS", "8", "OPENBLAS_NUM_THREADS", "1", NULL};
	assert_int_equal(count_with(RUNTIME_OPENBLAS, "openmp", omp8, 2, why), 8);
	assert_int_equal(count_with(RUNTIME_OPENBLAS, "sequential", omp8, 2, why), 1);
	/* libgomp: OMP_NUM_THREADS (first of a list), capped by OMP_THREAD_LIMIT. */
	const char *list[] = {"OMP_NUM_THREADS", "6,2", NULL};
	assert_int_equal(count_with(RUNTIME_GOMP, "", list, 2, why), 6);
	const char *limit[] = {"OMP_NUM_THREADS", "6", "OMP_THREAD_LIMIT", "3", NULL};
	assert_int_equal(count_with(RUNTIME_GOMP, "", limit, 2, why), 3);
	assert_int_equal(count_with(RUNTIME_GOMP, "", none, 2, why), 2);
	assert_non_null(strstr(why, "quota is not seen"));
	/* BLIS is single-threaded unless told; MKL_NUM_THREADS wins. */
	assert_int_equal(count_with(RUNTIME_BLIS, "pthreads", none, 8, why), 1);
	assert_int_equal(count_with(RUNTIME_BLIS, "pthreads", omp4, 8, why), 4);
	const char *mkl[] = {"MKL_NUM_THREADS", "2", "OMP_NUM_THREADS", "8", NULL};
	assert_int_equal(count_with(RUNTIME_MKL, "intel", mkl, 8, why), 2);
	assert_int_equal(count_with(RUNTIME_MKL, "intel", none, 8, why), 4); /* cores */
	assert_int_equal(count_with(RUNTIME_TBB, "", omp4, 3, why), 3);
	/* The knob a suggestion names is the one that works. */
	fake_env = both;
	struct runtimes_env e = {fake_get, NULL};
	assert_string_equal(runtimes_knob(RUNTIME_OPENBLAS, "pthreads", &e),
			    "OPENBLAS_NUM_THREADS");
	assert_string_equal(runtimes_knob(RUNTIME_OPENBLAS, "openmp", &e), "OMP_NUM_THREADS");
	fake_env = mkl;
	assert_string_equal(runtimes_knob(RUNTIME_MKL, "", &e), "MKL_NUM_THREADS");
	assert_string_equal(runtimes_knob(RUNTIME_GOMP, "", &e), "OMP_NUM_THREADS");
}

static void test_stems(void **state)
{
	(void)state;
	static const char *t[][2] = {
	    {"pt_autograd_0", "pt_autograd"},
	    {"gemm0.w12", "gemm0.w"},
	    {"tl-worker3", "tl-worker"},
	    {"python3", "python"},
	    {"12345", "12345"},
	    {"tt-wake", "tt-wake"},
	    {"", ""},
	};
	char out[64];
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		diagnosis_stem(t[i][0], strlen(t[i][0]), out, sizeof(out));
		assert_string_equal(out, t[i][1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_maps_lines),	   cmocka_unit_test(test_maps_files),
	    cmocka_unit_test(test_maps_live),	   cmocka_unit_test(test_environ),
	    cmocka_unit_test(test_runtimes_match), cmocka_unit_test(test_default_counts),
	    cmocka_unit_test(test_stems),	   cmocka_unit_test(test_not_read_whole),
	    cmocka_unit_test(test_maps_reread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
