/* test-lab.c — the lab manager against real helpers, workers and cgroups.
 *
 * Live tests: they start threadlab-anchor, threadlab-gemm and threadlab-burn
 * from the build directory (size 256 keeps them fast), look at the result
 * in /proc and in the cgroup files, and reap and remove everything on every
 * path.  Cgroup tests say SKIP where the machine does not allow one.  The
 * machine is small and shared: assertions are on ratios and "rises". */
#define _GNU_SOURCE
#include "tl-test.h"

#include "settings-lab.h"

#include <float.h>
#include "tl-lab.h"

#include "lab.h"
#include "lab-status.h"
#include "lab-settings.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Counts pid's threads whose comm starts with prefix. */
static int count_threads(pid_t pid, const char *prefix)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char p[320], comm[64];
		snprintf(p, sizeof(p), "/proc/%d/task/%s/comm", (int)pid, e->d_name);
		if (tl_read_file(p, comm, sizeof(comm)) > 0 &&
		    strncmp(comm, prefix, strlen(prefix)) == 0)
			n++;
	}
	closedir(d);
	return n;
}

/* utime + stime of a process, seconds. */
static double cpu_s(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (tl_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	unsigned long long ut = 0, st = 0;
	char *p = strrchr(buf, ')');
	sscanf(p + 2, "%*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu", &ut, &st);
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* ---- settings ---------------------------------------------------------- */

static void test_bad_values(void **state)
{
	(void)state;
	char err[512];
	struct lab_settings s = settings_lab_defaults();
	/* The ranges are the knob table's (test-knobs.c); the workload's own
	 * check is the build asked for. */
	assert_int_equal(lab_settings_check(&s, err, sizeof(err)), 0);
	s.size = LAB_MAX_SIZE;
	s.streams = CTL_MAX_STREAMS;
	s.precision = CTL_DOUBLE; /* 16 x 4 x 128 MiB */
	assert_int_equal(lab_settings_check_mem(&s, 1ull << 30, err, sizeof(err)), -ENOMEM);
	assert_non_null(strstr(err, "MiB"));
	assert_int_equal(lab_settings_check_mem(&s, 0, err, sizeof(err)), 0);
	s.streams = 1;
	assert_true(lab_settings_ready_timeout_ms(&s) > 10000);
	double cpus = 7;
	assert_int_equal(lab_settings_cpus_parse("0", &cpus, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "above 0"));
	assert_int_equal(lab_settings_cpus_parse("-1.5", &cpus, err, sizeof(err)), -EINVAL);
	assert_int_equal(lab_settings_cpus_parse("abc", &cpus, err, sizeof(err)), -EINVAL);
	assert_int_equal(lab_settings_cpus_parse("1.5", &cpus, err, sizeof(err)), 0);
	assert_true(cpus == 1.5);
	assert_int_equal(lab_settings_cpus_parse("max", &cpus, err, sizeof(err)), 0);
	assert_true(cpus == 0);
	/* lab_start refuses a build that is not installed without starting
	 * anything. */
	const char *had = getenv("THREADLAB_OPENBLAS_LIBROOT");
	char *saved = had ? strdup(had) : NULL;
	setenv("THREADLAB_OPENBLAS_LIBROOT", "/nonexistent-threadlab-libroot", 1);
	s = settings_lab_defaults();
	s.blas = LAB_BLAS_OPENMP;
	assert_null(lab_start(&s, err, sizeof(err)));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "apt install libopenblas0-openmp"));
	if (saved)
		setenv("THREADLAB_OPENBLAS_LIBROOT", saved, 1);
	else
		unsetenv("THREADLAB_OPENBLAS_LIBROOT");
	free(saved);
}

/* Thread counts and names in /proc follow the settings, live. */
static void test_settings_in_proc(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	s.threads = 2;
	struct lab *lab = tl_lab_start(s);
	struct lab_status st;
	assert_int_equal(lab_status_read(lab, &st), 0);
	pid_t h = st.stream[0].pid;
	assert_true(h > 0);
	assert_int_equal(st.stream[0].threads, 2);
	assert_int_equal(count_threads(h, "gemm0"), count_threads(h, ""));
	assert_int_equal(count_threads(h, "gemm0.w"), 1);
	s.threads = 1;
	char msg[256];
	assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), 0);
	assert_int_equal(lab_status_wait_ready(lab, 5000, msg, sizeof(msg)), 0);
	lab_status_read(lab, &st);
	assert_int_equal(st.stream[0].threads, 1);
	assert_int_equal(count_threads(h, "gemm0.w"), 0);
	assert_true(count_threads(h, "gemm0.p") >= 1); /* parked, told apart */
	/* The anchor is the root: the helper is its child. */
	assert_int_equal(lab_root_pid(lab), st.anchor_pid);
	assert_int_equal(count_threads(st.anchor_pid, "tl-anchor"), 1);
	lab_stop(lab);
	assert_true(tl_wait_gone(h, 2000));
	assert_true(tl_wait_gone(st.anchor_pid, 2000));
}

/* 2 streams x 1 thread: two helper processes busy at once; results checked. */
static void test_concurrency_and_results(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	s.streams = 2;
	struct lab *lab = tl_lab_start(s);
	struct lab_status st;
	lab_status_read(lab, &st);
	pid_t a = st.stream[0].pid, b = st.stream[1].pid;
	assert_true(a > 0 && b > 0 && a != b);
	double a0 = cpu_s(a), b0 = cpu_s(b);
	uint64_t g0 = st.stream[0].gemms, g1 = st.stream[1].gemms;
	tl_sleep_ms(1000);
	double da = cpu_s(a) - a0, db = cpu_s(b) - b0;
	lab_status_read(lab, &st);
	printf("# helper CPU over 1 s: %.2f + %.2f s\n", da, db);
	/* Shared 2-core box: each gets at least a fair part of one CPU. */
	assert_true(da > 0.15 && db > 0.15);
	assert_true(st.stream[0].gemms > g0 && st.stream[1].gemms > g1);
	assert_true(st.checked > 0);
	if (!st.results_equal)
		printf("# results differ: max diff %g\n", st.max_diff);
	/* Other thread counts may sum in another order, never more apart than
	 * the rounding bound of an n-term float dot product over entries in
	 * [-1, 1): 2 n^2 eps.  A wrong result is off by about 1. */
	double bound = 2.0 * s.size * s.size * (double)FLT_EPSILON;
	assert_true(st.results_equal ? st.max_diff == 0 : st.max_diff > 0 && st.max_diff < bound);
	assert_true(st.npids >= 3);
	/* Fewer streams park the helper (same pid, paused). */
	s.streams = 1;
	assert_int_equal(lab_apply(lab, &s, NULL, 0), 0);
	tl_sleep_ms(200);
	lab_status_read(lab, &st);
	assert_int_equal(st.stream[1].pid, b);
	assert_int_equal(st.stream[1].state, CTL_STREAM_PAUSED);
	double r = lab_status_single_rate(lab, 256, CTL_SINGLE);
	printf("# single-thread rate n=256: %.1f GFLOP/s\n", r);
	assert_true(r > 0);
	assert_true(lab_status_single_rate_cached(lab, 256, CTL_SINGLE) == r);
	/* Steady 1 x 1 readings refine the rate by keeping the best. */
	for (int i = 0; i < 15; i++) {
		tl_sleep_ms(100);
		lab_status_read(lab, &st);
		assert_true(lab_status_single_rate_cached(lab, 256, CTL_SINGLE) >= r);
	}
	printf("# refined: %.1f GFLOP/s\n", lab_status_single_rate_cached(lab, 256, CTL_SINGLE));
	lab_stop(lab);
	assert_true(tl_wait_gone(a, 2000) && tl_wait_gone(b, 2000));
}

/* Waits until slot 0 has a helper other than old that applied the
 * settings, or gave up; returns its state. */
static int wait_restarted(struct lab *lab, pid_t old, struct lab_status *st)
{
	for (int i = 0; i < 500; i++) {
		lab_status_read(lab, st);
		const struct lab_stream_status *s = &st->stream[0];
		if (s->state == CTL_STREAM_FAILED ||
		    (s->pid != old && s->pid > 0 && s->state == CTL_STREAM_RUNNING &&
		     s->applied_epoch == st->epoch))
			return s->state;
		tl_sleep_ms(10);
	}
	return -1;
}

/* A helper killed from outside comes back (new pid, counters going on),
 * the event stays visible; after LAB_RESTART_MAX restarts it stays dead. */
static void test_helper_restart(void **state)
{
	(void)state;
	struct lab *lab = tl_lab_start(tl_lab_small());
	struct lab_status st;
	lab_status_read(lab, &st);
	pid_t old = st.stream[0].pid;
	assert_int_equal(st.stream[0].restarts, 0);
	assert_string_equal(st.stream[0].last_failure, "");
	assert_int_equal(kill(old, SIGKILL), 0);
	assert_int_equal(wait_restarted(lab, old, &st), CTL_STREAM_RUNNING);
	pid_t pid = st.stream[0].pid;
	printf("# helper %d killed, restarted as %d\n", (int)old, (int)pid);
	assert_true(tl_wait_gone(old, 1000));
	assert_int_equal(st.stream[0].restarts, 1);
	assert_int_equal(st.restarts, 1);
	assert_non_null(strstr(st.stream[0].last_failure, "killed by signal 9"));
	uint64_t g0 = st.stream[0].gemms;
	tl_sleep_ms(200);
	lab_status_read(lab, &st);
	assert_true(st.stream[0].gemms > g0);
	assert_int_equal(count_threads(pid, "gemm0"), count_threads(pid, ""));
	bool listed = false;
	for (size_t i = 0; i < st.npids; i++)
		listed |= st.pids[i] == pid;
	assert_true(listed);
	/* The budget: LAB_RESTART_MAX restarts a minute, then FAILED for good. */
	for (int k = 1; k <= LAB_RESTART_MAX; k++) {
		old = st.stream[0].pid;
		assert_int_equal(kill(old, SIGKILL), 0);
		int want = k < LAB_RESTART_MAX ? CTL_STREAM_RUNNING : CTL_STREAM_FAILED;
		assert_int_equal(wait_restarted(lab, old, &st), want);
	}
	printf("# gave up: %s\n", st.stream[0].error);
	assert_int_equal(st.stream[0].restarts, LAB_RESTART_MAX);
	assert_non_null(strstr(st.stream[0].error, "killed by signal 9"));
	assert_non_null(strstr(st.stream[0].error, "not restarted"));
	assert_non_null(strstr(st.stream[0].error, "no more restarts"));
	char msg[256];
	assert_int_equal(lab_status_wait_ready(lab, 1000, msg, sizeof(msg)), -EIO);
	assert_non_null(strstr(msg, "not restarted"));
	tl_sleep_ms(100);
	lab_status_read(lab, &st);
	assert_int_equal(st.stream[0].state, CTL_STREAM_FAILED);
	assert_int_equal(st.stream[0].pid, old); /* no new helper */
	pid_t anchor = st.anchor_pid;
	lab_stop(lab);
	assert_true(tl_wait_gone(anchor, 2000));
}

static void test_workers(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	s.workers = 2;
	s.paused = true;
	struct lab *lab = tl_lab_start(s);
	struct lab_status st;
	lab_status_read(lab, &st);
	assert_int_equal(st.nworkers, 2);
	pid_t w0 = st.worker_pid[0], w1 = st.worker_pid[1];
	assert_false(tl_pid_gone(w0) || tl_pid_gone(w1));
	/* The worker names itself right after exec. */
	for (int i = 0; i < 100 && count_threads(w1, "tl-worker1") != 1; i++)
		tl_sleep_ms(10);
	assert_int_equal(count_threads(w1, "tl-worker1"), 1);
	s.workers = 1;
	assert_int_equal(lab_apply(lab, &s, NULL, 0), 0);
	lab_status_read(lab, &st);
	assert_int_equal(st.nworkers, 1);
	assert_int_equal(st.worker_pid[0], w0);
	assert_true(tl_wait_gone(w1, 1000));
	assert_false(tl_pid_gone(w0));
	lab_stop(lab);
	assert_true(tl_wait_gone(w0, 2000));
}

/* ---- quota ----------------------------------------------------------------- */

static uint64_t throttled(const char *dir)
{
	char path[1200], buf[1024];
	snprintf(path, sizeof(path), "/%s/cpu.stat", dir);
	if (tl_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	const char *p = strstr(buf, "nr_throttled ");
	return p ? strtoull(p + 13, NULL, 10) : 0;
}

/* The quota as the cgroup files say, CPUs; 0 for unlimited. */
static double quota_read(const char *dir, int version)
{
	char path[1200], buf[128];
	if (version == 1) {
		snprintf(path, sizeof(path), "/%s/cpu.cfs_quota_us", dir);
		if (tl_read_file(path, buf, sizeof(buf)) <= 0)
			return -1;
		long long q = atoll(buf);
		return q < 0 ? 0 : (double)q / 100000.0;
	}
	snprintf(path, sizeof(path), "/%s/cpu.max", dir);
	if (tl_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strncmp(buf, "max", 3) == 0 ? 0 : atof(buf) / 100000.0;
}

static void test_quota(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	s.threads = 2;
	s.cpus = 0.5;
	struct lab *lab = tl_lab_start(s);
	struct lab_status st;
	lab_status_read(lab, &st);
	if (!st.quota_dir[0]) {
		char why[300], cap[200];
		snprintf(why, sizeof(why), "%s", st.quota_error);
		lab_stop(lab);
		if (tl_quota_capable(cap, sizeof(cap)))
			fail_msg("root with a writable cpu controller, yet no quota cgroup: %s",
				 why);
		TL_SKIP("no quota cgroup here: %s (%s)", why, cap);
		return;
	}
	char dir[LAB_PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", st.quota_dir);
	assert_true(quota_read(dir, st.quota_version) == 0.5);
	/* Two busy threads under half a CPU are throttled, unless the box is
	 * so loaded that they never get half a CPU: then they must have used
	 * less than the quota.  Wait for either, with a bound. */
	uint64_t t0 = throttled(dir), t1 = t0;
	double c0 = 0, c1 = 0, w0 = tl_now_s();
	for (size_t i = 0; i < st.npids; i++)
		c0 += cpu_s(st.pids[i]);
	for (int i = 0; i < 50 && t1 == t0; i++) {
		tl_sleep_ms(100);
		t1 = throttled(dir);
	}
	for (size_t i = 0; i < st.npids; i++)
		c1 += cpu_s(st.pids[i]);
	double used = (c1 - c0) / (tl_now_s() - w0);
	printf("# nr_throttled %llu -> %llu, the workload used %.2f CPUs\n", (unsigned long long)t0,
	       (unsigned long long)t1, used);
	/* (A window cut short by the first throttled period is too short to
	 * bound the use by clock ticks: only the 5 s one is.) */
	assert_true(t1 > t0 || used < 0.5 * 1.1 + 0.02);
	/* Change live, remove, put back. */
	s.cpus = 1.0;
	assert_int_equal(lab_apply(lab, &s, NULL, 0), 0);
	assert_true(quota_read(dir, st.quota_version) == 1.0);
	s.cpus = 0;
	assert_int_equal(lab_apply(lab, &s, NULL, 0), 0);
	assert_true(quota_read(dir, st.quota_version) == 0);
	lab_status_read(lab, &st);
	assert_true(st.quota_cpus == 0 && st.settings.cpus == 0);
	s.cpus = 0.25;
	assert_int_equal(lab_apply(lab, &s, NULL, 0), 0);
	assert_true(quota_read(dir, st.quota_version) == 0.25);
	lab_stop(lab);
	char path[1200];
	snprintf(path, sizeof(path), "/%s", dir);
	assert_int_equal(access(path, F_OK), -1);
}

/* A quota added live moves the running workload (anchor, helpers, workers). */
static void test_quota_live(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	s.workers = 1;
	struct lab *lab = tl_lab_start(s);
	s.cpus = 0.3;
	char msg[512];
	int rc = lab_apply(lab, &s, msg, sizeof(msg));
	struct lab_status st;
	lab_status_read(lab, &st);
	if (rc < 0) {
		assert_true(strlen(msg) > 20);	   /* says what is needed */
		assert_true(st.stream[0].pid > 0); /* the rest keeps working */
		lab_stop(lab);
		char cap[200];
		if (tl_quota_capable(cap, sizeof(cap)))
			fail_msg("root with a writable cpu controller, yet no quota: %s", msg);
		TL_SKIP("no quota cgroup here: %s (%s)", msg, cap);
		return;
	}
	char path[1200], buf[4096];
	snprintf(path, sizeof(path), "/%s/%scgroup.procs", st.quota_dir,
		 st.quota_version == 2 ? "work/" : "");
	assert_true(tl_read_file(path, buf, sizeof(buf)) > 0);
	for (size_t i = 0; i < st.npids; i++) {
		char p[32];
		snprintf(p, sizeof(p), "%d\n", (int)st.pids[i]);
		assert_non_null(strstr(buf, p));
	}
	lab_stop(lab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_bad_values, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_settings_in_proc, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_concurrency_and_results, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_helper_restart, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_workers, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_quota, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_quota_live, tl_lab_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
