/* test-pipeline.c — the lab's input pipeline and its OpenBLAS builds, live.
 *
 * Real loaders (threadlab-burn --loader K) and helpers (threadlab-gemm),
 * read back through lab_status_read() and /proc.  The machine is small and shared
 * (other jobs run beside the suite): the assertions compare figures of the
 * same run, with margins a loaded machine does not break, and every window
 * is long enough to hold many batches. */
#define _GNU_SOURCE
#include "tl-test.h"

#include "settings-lab.h"
#include "tl-lab.h"

#include "lab.h"
#include "lab-status.h"
#include "lab-settings.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Figures of a window: rates from two lab_status_read()s dt apart. */
struct window {
	double dt, gflops, batches_per_s, input_wait_pct, loader_cpu, useful_cpus;
};

static struct window measure(struct lab *lab, int streams, double seconds)
{
	struct lab_status a, b;
	lab_status_read(lab, &a);
	double t0 = tl_now_s();
	tl_sleep_ms((long)(seconds * 1000));
	lab_status_read(lab, &b);
	struct window w = {.dt = tl_now_s() - t0};
	w.gflops = (double)(b.flops - a.flops) / w.dt / 1e9;
	w.batches_per_s = (double)(b.batches - a.batches) / w.dt;
	w.input_wait_pct =
	    100.0 * (double)(b.input_wait_ns - a.input_wait_ns) / (w.dt * 1e9 * streams);
	w.loader_cpu = (double)(b.loader_cpu_ns - a.loader_cpu_ns) / (w.dt * 1e9);
	uint64_t ua = 0, ub = 0;
	for (int i = 0; i < a.nslots; i++)
		ua += a.stream[i].busy_cpu_ns;
	for (int i = 0; i < b.nslots; i++)
		ub += b.stream[i].busy_cpu_ns;
	w.useful_cpus = (double)(ub - ua) / (w.dt * 1e9);
	printf("# %.1f s: %.1f GFLOP/s, %.1f batches/s, input wait %.0f%%, loaders %.2f CPU, "
	       "compute %.2f CPU\n",
	       w.dt, w.gflops, w.batches_per_s, w.input_wait_pct, w.loader_cpu, w.useful_cpus);
	return w;
}

static int count_loaders(const struct lab_status *st)
{
	int n = 0;
	for (int k = 0; k < CTL_MAX_LOADERS; k++)
		n += st->loader[k].pid > 0;
	return n;
}

/* The comm of pid, "" when gone. */
static void comm_of(pid_t pid, char *out, size_t cap)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (tl_read_file(path, out, cap) <= 0)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

static struct lab_settings pipe_settings(int loaders, int prep_ms)
{
	struct lab_settings s = settings_lab_defaults();
	s.size = 512;
	s.loaders = loaders;
	s.prep_ms = prep_ms;
	return s;
}

/* One loader whose batch costs several GEMMs: the stream waits for input
 * most of the time, and takes batches at the rate the loader makes them
 * with the CPU it got.  Loaders are named, listed and die with the lab. */
static void test_input_bound(void **state)
{
	(void)state;
	struct lab *lab = tl_lab_start(pipe_settings(1, 40));
	struct lab_status st;
	lab_status_read(lab, &st);
	assert_int_equal(count_loaders(&st), 1);
	pid_t l0 = st.loader[0].pid;
	char comm[64];
	for (int i = 0; i < 100; i++) {
		comm_of(l0, comm, sizeof(comm));
		if (strcmp(comm, "tl-loader0") == 0)
			break;
		tl_sleep_ms(10);
	}
	assert_string_equal(comm, "tl-loader0");
	bool listed = false;
	for (size_t i = 0; i < st.npids; i++)
		listed |= st.pids[i] == l0;
	assert_true(listed);
	struct window w = measure(lab, 1, 2.0);
	assert_true(w.input_wait_pct > 50);
	/* The loader's rate: 1000 / 40 batches per CPU second it got. */
	double rate = w.loader_cpu * 1000.0 / 40.0;
	printf("# the loader's rate with the CPU it got: %.1f batches/s\n", rate);
	assert_true(w.batches_per_s > 0.75 * rate && w.batches_per_s < 1.25 * rate + 1);
	assert_true(w.batches_per_s < 1.1 * 1000.0 / 40.0 + 1);
	lab_stop(lab);
	assert_true(tl_wait_gone(l0, 2000));
}

/* Enough loaders with light preparation: the stream hardly waits. */
static void test_enough_loaders(void **state)
{
	(void)state;
	/* Eight batches ahead per loader: a loader that was not scheduled for
	 * a moment has its batches ready anyway. */
	struct lab_settings e = pipe_settings(3, 1);
	e.prefetch = 8;
	struct lab *lab = tl_lab_start(e);
	tl_sleep_ms(300);
	/* Other jobs only add waiting (a loader not scheduled in time): the
	 * quietest of three windows is the pipeline's own figure. */
	struct window w = measure(lab, 1, 1.5);
	for (int i = 0; i < 2 && w.input_wait_pct >= 10; i++) {
		struct window again = measure(lab, 1, 1.5);
		if (again.input_wait_pct < w.input_wait_pct)
			w = again;
	}
	assert_true(w.batches_per_s > 10);
	assert_true(w.input_wait_pct < 15);
	/* Raising the cost live (the control block alone) makes it input-bound. */
	struct lab_settings s = pipe_settings(1, 60);
	char msg[256];
	assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), 0);
	assert_int_equal(lab_status_wait_ready(lab, 10000, msg, sizeof(msg)), 0);
	tl_sleep_ms(300);
	struct window h = measure(lab, 1, 1.5);
	assert_true(h.input_wait_pct > 50);
	assert_true(h.batches_per_s < w.batches_per_s / 2);
	struct lab_status st;
	lab_status_read(lab, &st);
	assert_int_equal(count_loaders(&st), 1);
	lab_stop(lab);
}

/* On this machine compute on every CPU leaves no spare CPU: loaders that
 * need CPU take it from compute, and GFLOP/s fall. */
static void test_loaders_take_cpu(void **state)
{
	(void)state;
	struct lab_settings s = pipe_settings(0, 8);
	s.threads = 2;
	struct lab *lab = tl_lab_start(s);
	tl_sleep_ms(300);
	struct window alone = measure(lab, 1, 1.5);
	s.loaders = 2;
	char msg[256];
	assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), 0);
	assert_int_equal(lab_status_wait_ready(lab, 10000, msg, sizeof(msg)), 0);
	tl_sleep_ms(300);
	struct window fed = measure(lab, 1, 1.5);
	printf("# GFLOP/s with loaders / without: %.2f\n", fed.gflops / alone.gflops);
	assert_true(fed.batches_per_s > 0 && fed.loader_cpu > 0.05);
	assert_true(fed.gflops < 0.9 * alone.gflops);
	lab_stop(lab);
}

/* A loader killed from outside comes back: a new pid, the restart counted
 * with its cause, and batches flowing again (its half-filled slot went
 * back to the ring). */
static void test_loader_restart(void **state)
{
	(void)state;
	struct lab *lab = tl_lab_start(pipe_settings(1, 5));
	struct lab_status st;
	lab_status_read(lab, &st);
	pid_t old = st.loader[0].pid;
	assert_true(old > 0);
	assert_int_equal(kill(old, SIGKILL), 0);
	assert_true(tl_wait_gone(old, 2000));
	pid_t now = 0;
	for (int i = 0; i < 300; i++) {
		lab_status_read(lab, &st);
		now = st.loader[0].pid;
		if (now > 0 && now != old)
			break;
		tl_sleep_ms(10);
	}
	printf("# loader %d killed, restarted as %d: %s\n", (int)old, (int)now,
	       st.loader[0].last_failure);
	assert_true(now > 0 && now != old);
	assert_int_equal(st.loader[0].restarts, 1);
	assert_non_null(strstr(st.loader[0].last_failure, "killed by signal 9"));
	struct window w = measure(lab, 1, 1.5);
	assert_true(w.batches_per_s > 5);
	/* Fewer loaders kill the newest; none is restarted for that. */
	struct lab_settings s = pipe_settings(0, 5);
	char msg[256];
	assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), 0);
	assert_true(tl_wait_gone(now, 2000));
	lab_status_read(lab, &st);
	assert_int_equal(count_loaders(&st), 0);
	assert_int_equal(st.loader[0].restarts, 1);
	/* Without loaders the GEMMs need no input. */
	struct window free_run = measure(lab, 1, 1.0);
	assert_true(free_run.gflops > 0);
	assert_true(free_run.batches_per_s == 0);
	lab_stop(lab);
}

/* The threads of pid whose CPU time moved over ms, and whether a mapping
 * of the process names lib. */
static int busy_threads(pid_t pid, int ms)
{
	char path[64];
	unsigned long long t0[64] = {0}, t1[64] = {0};
	int tids[64], n = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d)) && n < 64)
		if (e->d_name[0] != '.')
			tids[n++] = atoi(e->d_name);
	closedir(d);
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++) {
			char p[96], buf[1024];
			snprintf(p, sizeof(p), "/proc/%d/task/%d/schedstat", (int)pid, tids[i]);
			unsigned long long run = 0;
			if (tl_read_file(p, buf, sizeof(buf)) > 0)
				sscanf(buf, "%llu", &run);
			(pass ? t1 : t0)[i] = run;
		}
		if (!pass)
			tl_sleep_ms(ms);
	}
	int busy = 0;
	for (int i = 0; i < n; i++)
		busy += t1[i] - t0[i] > (unsigned long long)ms * 1000000ull / 30; /* > 3 % */
	return busy;
}

static bool maps_have(pid_t pid, const char *lib)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	char line[1024];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, lib) != NULL;
	fclose(f);
	return found;
}

/* The processes of the lab's process group (the anchor leads it). */
static int group_size(pid_t pgid)
{
	DIR *d = opendir("/proc");
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		char p[300], buf[1024];
		snprintf(p, sizeof(p), "/proc/%s/stat", e->d_name);
		if (tl_read_file(p, buf, sizeof(buf)) <= 0)
			continue;
		char *r = strrchr(buf, ')');
		int pg = 0;
		char st = 0;
		if (r && sscanf(r + 2, "%c %*d %d", &st, &pg) == 2 && pg == pgid && st != 'Z')
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* The OpenMP build: two busy threads, libgomp loaded, the variant
 * reported; a live switch to the pthreads build restarts the helper and
 * leaves nothing behind; both builds' results agree with the same
 * 1-thread reference. */
static void test_openmp_build(void **state)
{
	(void)state;
	if (!lab_settings_blas_dir(LAB_BLAS_OPENMP)) {
		printf("# SKIP: the OpenMP build of OpenBLAS is not installed "
		       "(libopenblas0-openmp)\n");
		skip();
	}
	struct lab_settings s = settings_lab_defaults();
	s.size = 512;
	s.threads = 2;
	s.blas = LAB_BLAS_OPENMP;
	struct lab *lab = tl_lab_start(s);
	struct lab_status st;
	lab_status_read(lab, &st);
	pid_t omp = st.stream[0].pid;
	printf("# variant %s: %s\n", st.blas_variant, st.blas_config);
	assert_string_equal(st.blas_variant, "openmp");
	assert_true(maps_have(omp, "libgomp"));
	assert_true(maps_have(omp, "openblas-openmp"));
	int busy = busy_threads(omp, 1500);
	printf("# busy threads of the OpenMP helper: %d\n", busy);
	assert_true(busy >= 2);
	int members = group_size(st.anchor_pid);
	tl_sleep_ms(300);
	lab_status_read(lab, &st);
	assert_true(st.epoch_checked > 0);
	double omp_diff = st.epoch_max_diff;
	bool omp_equal = st.epoch_results_equal;

	s.blas = LAB_BLAS_PTHREADS;
	char msg[256];
	assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), 0);
	printf("# %s\n", msg);
	assert_non_null(strstr(msg, "helpers restart"));
	assert_int_equal(lab_status_wait_ready(lab, 20000, msg, sizeof(msg)), 0);
	assert_true(tl_wait_gone(omp, 2000));
	for (int i = 0; i < 200; i++) {
		lab_status_read(lab, &st);
		if (!st.blas_switching && st.blas_variant[0])
			break;
		tl_sleep_ms(10);
	}
	assert_string_equal(st.blas_variant, "pthreads");
	assert_int_equal(st.restarts, 0); /* a switch is not a failure */
	pid_t pth = st.stream[0].pid;
	assert_true(pth != omp);
	assert_false(maps_have(pth, "libgomp"));
	assert_int_equal(group_size(st.anchor_pid), members);
	tl_sleep_ms(300);
	lab_status_read(lab, &st);
	assert_true(st.epoch_checked > 0);
	printf("# results vs the 1-thread reference: openmp %s (%.3g), pthreads %s (%.3g)\n",
	       omp_equal ? "equal" : "differ", omp_diff, st.epoch_results_equal ? "equal" : "differ",
	       st.epoch_max_diff);
	/* Both builds run the same kernels: at most rounding apart. */
	assert_true(omp_diff < 1e-2 && st.epoch_max_diff < 1e-2);
	pid_t anchor = st.anchor_pid;
	lab_stop(lab);
	assert_true(tl_wait_gone(pth, 2000) && tl_wait_gone(anchor, 2000));
	assert_int_equal(group_size(anchor), 0);
}

/* Spin off reaches the helpers' environment, for either build. */
static void test_spin_environment(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	s.spin_off = true;
	struct lab *lab = tl_lab_start(s);
	struct lab_status st;
	lab_status_read(lab, &st);
	char path[64], env[65536];
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)st.stream[0].pid);
	int n = tl_read_file(path, env, sizeof(env));
	assert_true(n > 0);
	bool timeout = false, passive = false, libdir = false;
	for (int i = 0; i < n; i += (int)strlen(env + i) + 1) {
		timeout |= strcmp(env + i, "OPENBLAS_THREAD_TIMEOUT=1") == 0;
		passive |= strcmp(env + i, "OMP_WAIT_POLICY=PASSIVE") == 0;
		libdir |= strncmp(env + i, "LD_LIBRARY_PATH=", 16) == 0 &&
			  strstr(env + i, "openblas-pthread") != NULL;
	}
	assert_true(timeout && passive);
	if (lab_settings_blas_dir(LAB_BLAS_PTHREADS))
		assert_true(libdir);
	/* Spin back on, live: the helper restarts without the variables. */
	pid_t old = st.stream[0].pid;
	s.spin_off = false;
	char msg[256];
	assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), 0);
	assert_int_equal(lab_status_wait_ready(lab, 10000, msg, sizeof(msg)), 0);
	lab_status_read(lab, &st);
	assert_true(st.stream[0].pid != old);
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)st.stream[0].pid);
	n = tl_read_file(path, env, sizeof(env));
	assert_true(n > 0);
	for (int i = 0; i < n; i += (int)strlen(env + i) + 1)
		assert_true(strcmp(env + i, "OMP_WAIT_POLICY=PASSIVE") != 0);
	lab_stop(lab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_input_bound),	     cmocka_unit_test(test_enough_loaders),
	    cmocka_unit_test(test_loaders_take_cpu), cmocka_unit_test(test_loader_restart),
	    cmocka_unit_test(test_openmp_build),     cmocka_unit_test(test_spin_environment),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
