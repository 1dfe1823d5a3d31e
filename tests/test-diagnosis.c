/* test-diagnosis.c — the diagnosis's parts on known input: maps and
 * environ parsers, runtime recognition and default counts, name stems,
 * demand, roles, and each rule of the verdict table. */
#include "tl-test.h"

#include <math.h>

#include "diagnosis.h"
#include "environ.h"
#include "maps.h"
#include "runtimes.h"
#include "tl-rates.h"

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
	assert_string_equal(environ_get(env, len, "OMP_NUM_THREADS"), "6"); /* the last one */
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

/* ---- the verdict table ---------------------------------------------------- */

struct scene {
	struct budget b;
	struct snapshot_rates r;
	struct thread_rate t[16];
	struct census c;
	struct census_proc p[4];
	struct diag_input in;
	struct diagnosis d;
};

/* n threads of process 100, each cpu% and wait%; effective CPUs eff. */
static void scene_make(struct scene *s, int n, double cpu, double wait, double eff)
{
	memset(s, 0, sizeof(*s));
	s->b.online = s->b.affinity = 2;
	s->b.effective = eff;
	s->b.quota.cpus = -1;
	s->b.binding = BUDGET_ONLINE;
	for (int i = 0; i < n; i++) {
		s->t[i] = tl_rate(100, 100 + i, "omp-busy", 'R', cpu);
		s->t[i].wait_pct = wait;
	}
	s->r.threads = s->t;
	s->r.nthreads = (size_t)n;
	s->r.dt = 1;
	s->r.runnable = n;
	s->in.target = 100;
	s->in.budget = &s->b;
	s->in.rates = &s->r;
	s->in.census = NULL;
}

/* A census: the target with libgomp and OMP_NUM_THREADS=value. */
static const char census_env[] = "OMP_NUM_THREADS=6";

static void scene_census(struct scene *s, const char *omp)
{
	struct census_proc *p = &s->p[0];
	p->pid = 100;
	snprintf(p->comm, sizeof(p->comm), "omp-busy");
	snprintf(p->exe, sizeof(p->exe), "/usr/bin/omp-busy");
	p->exe_readable = true;
	p->nruntimes = 1;
	p->runtimes[0].id = RUNTIME_GOMP;
	p->runtimes[0].variant = "";
	snprintf(p->runtimes[0].lib, sizeof(p->runtimes[0].lib),
		 "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0");
	p->env = CENSUS_ENV_OK;
	p->environ = (char *)census_env;
	p->environ_len = sizeof(census_env);
	for (size_t i = 0; environment_thread_vars[i]; i++)
		if (strcmp(environment_thread_vars[i], "OMP_NUM_THREADS") == 0)
			p->vars[i] = omp;
	s->c.p = s->p;
	s->c.n = 1;
	s->in.census = &s->c;
}

static bool has_text(const char list[][DIAG_TEXT], size_t n, const char *needle)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(list[i], needle))
			return true;
	return false;
}

static void test_rule_idle(void **state)
{
	(void)state;
	struct scene s;
	scene_make(&s, 3, 0.5, 0, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_IDLE);
	assert_non_null(strstr(s.d.headline, "idle"));
	scene_make(&s, 0, 0, 0, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_IDLE);
}

static void test_rule_oversubscribed(void **state)
{
	(void)state;
	struct scene s;
	scene_make(&s, 6, 33.3, 66.7, 2);
	scene_census(&s, "6");
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(fabs(s.d.runnable_mean - 6.0) < 0.01);
	assert_true(fabs(s.d.factor - 3.0) < 0.01);
	assert_true(has_text(s.d.suggestions, s.d.nsuggestions, "OMP_NUM_THREADS=2"));
	assert_true(has_text(s.d.reasons, s.d.nreasons, "OMP_NUM_THREADS=6"));
	assert_int_equal(s.d.nruntimes, 1);
	assert_int_equal(s.d.runtimes[0].pool, 6);
	/* 1.2x is the edge: 2.3 runnable on 2 CPUs is not yet oversubscribed,
	 * 2.5 is. */
	scene_make(&s, 5, 40, 10, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	scene_make(&s, 5, 36, 10, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
}

static void test_rule_throttled(void **state)
{
	(void)state;
	struct scene s;
	/* One busy thread under a 0.5-CPU quota: run 0.5, wait 0.5, all of it
	 * throttling. */
	scene_make(&s, 1, 50, 50, 0.5);
	s.b.quota.cpus = 0.5;
	s.b.binding = BUDGET_QUOTA;
	s.r.throttle.valid = true;
	s.r.throttle.throttled_pct = 98;
	s.r.throttle.throttled_s_per_s = 0.5;
	scene_census(&s, NULL);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_THROTTLED);
	assert_true(fabs(s.d.runnable_mean - 1.0) < 0.01);
	assert_true(fabs(s.d.throttle_wait - 0.5) < 0.01);
	assert_non_null(strstr(s.d.headline, "quota of 0.50 CPUs"));
	assert_true(has_text(s.d.reasons, s.d.nreasons, "0.50 s/s throttling"));
	assert_true(has_text(s.d.reasons, s.d.nreasons, "quota is not seen"));
	/* Others share the cores too (half the wait is contention): the
	 * one thread would still fit the 2 CPUs without the quota, so the
	 * quota is what holds it back. */
	s.r.throttle.throttled_s_per_s = 0.24;
	diagnosis_make(&s.in, &s.d);
	assert_true(s.d.throttle_wait < 0.5 * s.d.wait);
	assert_int_equal(s.d.verdict, VERDICT_THROTTLED);
	/* Six threads on 2 cores under the quota, throttling a small part of
	 * the wait: the cores would not hold them either. */
	scene_make(&s, 6, 8, 90, 0.5);
	s.b.quota.cpus = 0.5;
	s.b.binding = BUDGET_QUOTA;
	s.r.throttle.valid = true;
	s.r.throttle.throttled_pct = 40;
	s.r.throttle.throttled_s_per_s = 0.2;
	diagnosis_make(&s.in, &s.d);
	assert_true(s.d.throttle_wait < 0.5 * s.d.wait);
	assert_int_equal(s.d.verdict, VERDICT_OVERSUBSCRIBED);
	/* Throttled rarely: the quota is not what holds it back. */
	scene_make(&s, 1, 50, 50, 0.5);
	s.b.quota.cpus = 0.5;
	s.b.binding = BUDGET_QUOTA;
	s.r.throttle.valid = true;
	s.r.throttle.throttled_pct = 5;
	s.r.throttle.throttled_s_per_s = 0.01;
	diagnosis_make(&s.in, &s.d);
	assert_int_not_equal(s.d.verdict, VERDICT_THROTTLED);
}

static void test_rule_undersubscribed(void **state)
{
	(void)state;
	struct scene s;
	scene_make(&s, 1, 99, 0, 4);
	s.b.online = s.b.affinity = 4;
	scene_census(&s, "1");
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_UNDERSUBSCRIBED);
	assert_true(has_text(s.d.suggestions, s.d.nsuggestions, "OMP_NUM_THREADS=4"));
	/* Nobody busy: idle or fine, not undersubscribed. */
	scene_make(&s, 2, 30, 0, 4);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
}

static void test_rule_fine_and_doc(void **state)
{
	(void)state;
	struct scene s;
	scene_make(&s, 2, 99, 1, 2);
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.verdict, VERDICT_FINE);
	assert_string_equal(diagnosis_verdict_name(s.d.verdict), "fine");
	size_t n;
	const struct diag_rule_doc *r = diagnosis_rules(&n);
	assert_int_equal(n, 5);
	assert_int_equal(r[n - 1].verdict, VERDICT_FINE);
	for (int v = 0; v < VERDICT_N; v++)
		assert_int_equal(diagnosis_verdict_of(diagnosis_verdict_name((enum verdict)v)), v);
}

/* The verdict table is documented word for word: a README row
 * "| `verdict` | when |" and a man page entry ".B verdict" followed by the
 * words ("\-" read as "-"), in the table's order. */
static char *slurp_doc(const char *rel)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s",
		 getenv("THREADLAB_SRCDIR") ? getenv("THREADLAB_SRCDIR") : ".", rel);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strdup(buf);
}

static void test_rules_documented(void **state)
{
	(void)state;
	size_t n;
	const struct diag_rule_doc *r = diagnosis_rules(&n);
	char *readme = slurp_doc("README.md"), *man = slurp_doc("man/threadlab.1");
	/* the man page with "\-" as "-" and each entry's lines joined */
	for (char *p = man, *q = man;; p++) {
		if (p[0] == '\\' && p[1] == '-')
			p++;
		*q++ = *p;
		if (!*p)
			break;
	}
	const char *sec = strstr(man, "\n.SH DIAGNOSIS\n");
	assert_non_null(sec);
	const char *prev_md = readme, *prev_man = sec;
	for (size_t i = 0; i < n; i++) {
		const char *v = diagnosis_verdict_name(r[i].verdict);
		char want[1024];
		snprintf(want, sizeof(want), "| `%s` | %s |", v, r[i].when);
		const char *md = strstr(readme, want);
		if (!md || md < prev_md)
			fail_msg("README.md lacks, in order, the row: %s", want);
		prev_md = md;
		snprintf(want, sizeof(want), "\n.B %s\n", v);
		const char *m = strstr(prev_man, want);
		if (!m)
			fail_msg("man page DIAGNOSIS lacks, in order, '.B %s'", v);
		m += strlen(want);
		char words[1024];
		size_t o = 0;
		for (; *m && strncmp(m, "\n.", 2) != 0 && o + 1 < sizeof(words); m++)
			words[o++] = *m == '\n' ? ' ' : *m;
		words[o] = '\0';
		if (strcmp(words, r[i].when) != 0)
			fail_msg("man page, %s: '%s', the table says '%s'", v, words, r[i].when);
		prev_man = m;
	}
	free(readme);
	free(man);
}

/* Forked workers and OpenBLAS in every process: the suggestion is checked
 * by arithmetic and brings the demand within the CPUs. */
static void worker_scene(struct scene *s, int cpus, int main_threads)
{
	scene_make(s, 0, 0, 0, cpus);
	s->b.online = s->b.affinity = cpus;
	size_t k = 0;
	pid_t pids[] = {100, 200, 201};
	for (int p = 0; p < 3; p++)
		for (int t = 0; t < (p == 0 ? main_threads : 2); t++, k++) {
			s->t[k] = tl_rate(pids[p], pids[p] + t, "python3", 'R', 40);
			s->t[k].wait_pct = 60;
		}
	s->r.nthreads = k;
	const char cmd[] = "python3\0train.py\0";
	for (int i = 0; i < 3; i++) {
		struct census_proc *p = &s->p[i];
		memset(p, 0, sizeof(*p));
		p->pid = pids[i];
		p->exe_readable = true;
		snprintf(p->exe, sizeof(p->exe), "/usr/bin/python3.11");
		memcpy(p->cmdline, cmd, sizeof(cmd));
		p->cmdline_len = sizeof(cmd);
		p->nruntimes = 1;
		p->runtimes[0].id = RUNTIME_OPENBLAS;
		p->runtimes[0].variant = "pthreads";
		snprintf(p->runtimes[0].lib, sizeof(p->runtimes[0].lib),
			 "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so");
		p->env = CENSUS_ENV_OK;
	}
	s->c.p = s->p;
	s->c.n = 3;
	s->in.census = &s->c;
	diagnosis_make(&s->in, &s->d);
	assert_int_equal(s->d.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(s->d.nsuggestions >= 1);
	print_message("# %d CPUs, main %d threads: %s\n", cpus, main_threads, s->d.suggestions[0]);
}

static void test_suggest_workers(void **state)
{
	(void)state;
	struct scene s;
	/* 2 + 2 x 2 on 2 CPUs: even one thread each is 3; fewer workers. */
	worker_scene(&s, 2, 2);
	assert_non_null(strstr(s.d.suggestions[0], "use 1 of the 2 forked workers, with "
						   "OPENBLAS_NUM_THREADS=1 in each and in the main "
						   "process: 2 runnable threads"));
	/* 4 + 2 x 2 on 4 CPUs: workers at 1, the main process at 2. */
	worker_scene(&s, 4, 4);
	assert_non_null(strstr(s.d.suggestions[0],
			       "set OPENBLAS_NUM_THREADS=1 in the 2 forked workers and "
			       "OPENBLAS_NUM_THREADS=2 in the main process: 4 runnable"));
	/* 1 + 2 x 2 on 4 CPUs: the workers' pools alone. */
	worker_scene(&s, 4, 1);
	assert_non_null(strstr(s.d.suggestions[0], "set OPENBLAS_NUM_THREADS=1 in the 2 forked "
						   "workers (OpenBLAS runs"));
	assert_non_null(strstr(s.d.suggestions[0], "about 3.0 runnable threads on 4.00 CPUs"));
}

/* Roles: the target, its forked workers (same exe and command line), a
 * child running something else. */
static void test_roles(void **state)
{
	(void)state;
	struct scene s;
	scene_make(&s, 0, 0, 0, 2);
	s.t[0] = tl_rate(100, 100, "python3", 'R', 90);
	s.t[1] = tl_rate(100, 101, "python3", 'R', 90);
	s.t[2] = tl_rate(200, 200, "python3", 'R', 50);
	s.t[3] = tl_rate(201, 201, "python3", 'R', 50);
	s.t[4] = tl_rate(300, 300, "ffmpeg", 'S', 5);
	for (int i = 0; i < 5; i++)
		s.t[i].wait_pct = 10;
	s.r.nthreads = 5;
	const char cmd[] = "python3\0train.py\0";
	pid_t pids[] = {100, 200, 201, 300};
	for (int i = 0; i < 4; i++) {
		struct census_proc *p = &s.p[i];
		p->pid = pids[i];
		p->exe_readable = true;
		snprintf(p->exe, sizeof(p->exe),
			 i == 3 ? "/usr/bin/ffmpeg" : "/usr/bin/python3.11");
		memcpy(p->cmdline, cmd, sizeof(cmd));
		p->cmdline_len = sizeof(cmd);
	}
	s.c.p = s.p;
	s.c.n = 4;
	s.in.census = &s.c;
	diagnosis_make(&s.in, &s.d);
	assert_int_equal(s.d.nroles, 3);
	assert_string_equal(s.d.roles[0].name, "python3.11 (main)");
	assert_int_equal(s.d.roles[0].threads, 2);
	assert_string_equal(s.d.roles[1].kind, "workers");
	assert_int_equal(s.d.roles[1].nprocs, 2);
	assert_true(fabs(s.d.roles[1].runnable_mean - 1.2) < 0.01);
	assert_string_equal(s.d.roles[2].name, "ffmpeg");
	/* The roles add up to the whole. */
	double sum = 0;
	for (size_t i = 0; i < s.d.nroles; i++)
		sum += s.d.roles[i].runnable_mean;
	assert_true(fabs(sum - s.d.runnable_mean) < 1e-9);
	/* Groups by process and stem. */
	assert_int_equal(s.d.ngroups, 4);
	assert_int_equal(s.d.groups[0].threads, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_maps_lines),
	    cmocka_unit_test(test_maps_files),
	    cmocka_unit_test(test_maps_live),
	    cmocka_unit_test(test_environ),
	    cmocka_unit_test(test_runtimes_match),
	    cmocka_unit_test(test_default_counts),
	    cmocka_unit_test(test_stems),
	    cmocka_unit_test(test_rule_idle),
	    cmocka_unit_test(test_rule_oversubscribed),
	    cmocka_unit_test(test_rule_throttled),
	    cmocka_unit_test(test_rule_undersubscribed),
	    cmocka_unit_test(test_rule_fine_and_doc),
	    cmocka_unit_test(test_rules_documented),
	    cmocka_unit_test(test_suggest_workers),
	    cmocka_unit_test(test_roles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
