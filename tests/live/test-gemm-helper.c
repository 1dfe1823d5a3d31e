/* test-gemm-helper.c — the workload helper threadlab-gemm (and threadlab-burn)
 * driven through a real control block, checked through /proc.
 *
 * Each test makes a memfd control block, execs helpers from
 * $THREADLAB_BUILDDIR, changes settings and looks at the helpers' threads
 * (names, CPU time from schedstat) and counters.  Sizes stay at n = 256 so
 * every GEMM takes well under a millisecond. */
#define _GNU_SOURCE
#include "tl-test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tl-ctl.h"

#define N	  256
#define MAX_TASKS 64

struct task {
	pid_t tid;
	char name[32];
	uint64_t run_ns; /* schedstat field 1 */
};

static const char *builddir(void)
{
	const char *b = getenv("THREADLAB_BUILDDIR");
	return b ? b : ".";
}

/* Starts a program from the build dir with args; stderr to errfd if >= 0. */
static pid_t spawn(const char *prog, const char *const args[], int errfd)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", builddir(), prog);
	const char *argv[16] = {prog};
	int i = 0;
	while (args[i] && i < 14) {
		argv[i + 1] = args[i];
		i++;
	}
	argv[i + 1] = NULL;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (errfd >= 0)
			dup2(errfd, 2);
		execv(path, (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Waits up to ms for pid to exit; its wait status, or -1 on timeout. */
static int wait_exit(pid_t pid, long ms)
{
	for (long t = 0; t <= ms; t += 5) {
		int st;
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return st;
		if (r < 0)
			return -1;
		tl_sleep_ms(5);
	}
	return -1;
}

/* Settings at n = N, single precision. */
static uint64_t lab_set(struct tl_ctl *l, uint32_t threads, uint32_t streams, uint32_t paused)
{
	return tl_ctl_write(&l->ctl->settings, threads, streams, N, CTL_SINGLE, paused);
}

/* The threads of pid: name and CPU time so far. */
static int tasks_read(pid_t pid, struct task *t, int max)
{
	char path[128], buf[256];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < max) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		t[n].tid = atoi(e->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)t[n].tid);
		if (tl_read_file(path, t[n].name, sizeof(t[n].name)) <= 0)
			continue;
		t[n].name[strcspn(t[n].name, "\n")] = 0;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, (int)t[n].tid);
		if (tl_read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		t[n].run_ns = strtoull(buf, NULL, 10);
		n++;
	}
	closedir(d);
	return n;
}

static int task_find(const struct task *t, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return i;
	return -1;
}

static uint64_t task_run_ns(const struct task *t, int n, const char *name)
{
	int i = task_find(t, n, name);
	return i < 0 ? 0 : t[i].run_ns;
}

static uint64_t proc_run_ns(pid_t pid)
{
	struct task t[MAX_TASKS];
	int n = tasks_read(pid, t, MAX_TASKS);
	uint64_t sum = 0;
	for (int i = 0; i < n; i++)
		sum += t[i].run_ns;
	return sum;
}

/* Waits up to ms for the names to appear in pid's threads. */
static int wait_names(pid_t pid, const char *const names[], long ms)
{
	struct task t[MAX_TASKS];
	for (long w = 0; w <= ms; w += 5) {
		int n = tasks_read(pid, t, MAX_TASKS), ok = 1;
		for (int i = 0; names[i]; i++)
			ok &= task_find(t, n, names[i]) >= 0;
		if (ok)
			return 0;
		tl_sleep_ms(5);
	}
	for (int i = 0, n = tasks_read(pid, t, MAX_TASKS); i < n; i++)
		printf("# thread %d: %s\n", (int)t[i].tid, t[i].name);
	return -1;
}

static int online_affinity(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	return CPU_COUNT(&set);
}

static void test_bad_ctl_fd(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	const char *args[] = {"--ctl-fd", "99", "--stream", "0", NULL};
	pid_t pid = spawn("threadlab-gemm", args, p[1]);
	close(p[1]);
	char msg[512] = "";
	ssize_t n = read(p[0], msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = 0;
	close(p[0]);
	int st = wait_exit(pid, 2000);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 2);
	assert_non_null(strstr(msg, "--ctl-fd 99"));
	/* A descriptor that is not a control block (an empty memfd). */
	int fd = memfd_create("tl-test-empty", 0);
	char fds[16];
	snprintf(fds, sizeof(fds), "%d", fd);
	const char *args2[] = {"--ctl-fd", fds, "--stream", "0", NULL};
	int devnull = open("/dev/null", O_WRONLY);
	pid = spawn("threadlab-gemm", args2, devnull);
	st = wait_exit(pid, 2000);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 2);
	/* Not the expected parent: exits at once with 1. */
	const char *args3[] = {"--ctl-fd", fds, "--stream", "0", "--parent", "1", NULL};
	pid = spawn("threadlab-gemm", args3, devnull);
	st = wait_exit(pid, 2000);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	close(devnull);
	close(fd);
}

static void test_threads_names_results(void **state)
{
	(void)state;
	struct tl_ctl l;
	tl_ctl_open(&l);
	pid_t pid = tl_ctl_spawn(&l, 0);
	uint64_t e = lab_set(&l, 1, 1, 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 3000), 0);
	struct ctl_stream *s = &l.ctl->stream[0];
	assert_int_equal(atomic_load(&s->pid), pid);
	assert_int_equal(atomic_load(&s->threads), 1);
	assert_int_equal(atomic_load(&s->size), N);
	assert_int_equal(atomic_load(&l.ctl->blas_info_ready), 1);
	printf("# OpenBLAS: %s, core %s, parallel %u\n", l.ctl->blas_info, l.ctl->blas_core,
	       atomic_load(&l.ctl->blas_parallel));
	assert_non_null(strstr(l.ctl->blas_info, "OpenBLAS"));
	const char *one[] = {"gemm0", NULL};
	assert_int_equal(wait_names(pid, one, 1000), 0);
	/* With one thread, as the reference was computed: bitwise equal (the
	 * first checked call may take longer than 20 ms on a loaded box). */
	assert_true(TL_UNTIL(atomic_load(&s->checked) > 0, 5000));
	assert_int_equal(atomic_load(&s->mismatches), 0);

	/* Three threads: the pool grows to two workers, both active. */
	e = lab_set(&l, 3, 1, 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 3000), 0);
	assert_int_equal(atomic_load(&s->threads), 3);
	assert_true(atomic_load(&s->pool) >= 3);
	const char *three[] = {"gemm0", "gemm0.w1", "gemm0.w2", NULL};
	assert_int_equal(wait_names(pid, three, 1000), 0);

	/* Two threads: w1 works, w2 is parked; the driver and w1 both run. */
	e = lab_set(&l, 2, 1, 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 3000), 0);
	const char *two[] = {"gemm0", "gemm0.w1", "gemm0.p2", NULL};
	assert_int_equal(wait_names(pid, two, 1000), 0);
	tl_sleep_ms(150); /* past the spin of w2's last call */
	struct task a[MAX_TASKS], b[MAX_TASKS];
	int na = tasks_read(pid, a, MAX_TASKS);
	uint64_t g0 = atomic_load(&s->gemms);
	double t0 = tl_now_s();
	tl_sleep_ms(300);
	int nb = tasks_read(pid, b, MAX_TASKS);
	uint64_t g1 = atomic_load(&s->gemms);
	double win = (tl_now_s() - t0) * 1e9;
	double drv = (double)(task_run_ns(b, nb, "gemm0") - task_run_ns(a, na, "gemm0"));
	double w1 = (double)(task_run_ns(b, nb, "gemm0.w1") - task_run_ns(a, na, "gemm0.w1"));
	double p2 = (double)(task_run_ns(b, nb, "gemm0.p2") - task_run_ns(a, na, "gemm0.p2"));
	printf("# threads=2: driver %.0f%%, w1 %.0f%%, parked p2 %.0f%% CPU; %llu GEMMs\n",
	       100 * drv / win, 100 * w1 / win, 100 * p2 / win, (unsigned long long)(g1 - g0));
	assert_true(g1 > g0);
	/* As shares of what the pool ran, not of the wall clock: the other
	 * tests of a parallel run take their share of the cores. */
	double ran = drv + w1;
	assert_true(ran > 0.02 * win);
	assert_true(drv > 0.1 * ran);
	assert_true(w1 > 0.1 * ran);
	assert_true(p2 < 0.05 * ran);

	/* One thread: every worker parked. */
	e = lab_set(&l, 1, 1, 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 3000), 0);
	const char *parked[] = {"gemm0", "gemm0.p1", "gemm0.p2", NULL};
	assert_int_equal(wait_names(pid, parked, 1000), 0);
	g0 = atomic_load(&s->gemms);
	tl_sleep_ms(50);
	assert_true(atomic_load(&s->gemms) > g0);
	/* The epoch figures start again at the change: one thread, as the
	 * reference, so nothing differs since, whatever 3 threads did. */
	assert_true(atomic_load(&s->epoch_checked) > 0);
	assert_true(atomic_load(&s->epoch_checked) < atomic_load(&s->checked));
	assert_int_equal(atomic_load(&s->epoch_mismatches), 0);
	assert_int_equal(atomic_load(&s->epoch_max_diff_bits), 0);
	assert_int_equal(atomic_load(&s->count_seq) % 2, 0);
	assert_int_equal(atomic_load(&s->count_seq), 2 * atomic_load(&s->gemms));

	/* Results: 1, 3, 2 and 1 threads all compared with the reference. */
	uint64_t checked = atomic_load(&s->checked), bad = atomic_load(&s->mismatches);
	uint64_t bits = atomic_load(&s->max_diff_bits);
	double diff;
	memcpy(&diff, &bits, sizeof(diff));
	/* OpenBLAS 0.3.21 splits the work differently with more threads: the
	 * sums are rounded differently, so only 1 thread is bitwise equal. */
	printf("# results: %llu checked, %llu not bitwise equal, max |diff| %g\n",
	       (unsigned long long)checked, (unsigned long long)bad, diff);
	assert_true(checked > 0);
	assert_true(bad == 0 || diff < 1e-3);
	assert_true(atomic_load(&s->busy_ns) > 0);
	assert_int_equal(atomic_load(&s->flops), atomic_load(&s->gemms) * 2ull * N * N * N);
	tl_ctl_close(&l);
}

/* The pool threads OpenBLAS made at load carry names while the helper
 * computes its reference (n = 2048 double: a few hundred ms on 1 thread). */
static void test_names_during_reference(void **state)
{
	(void)state;
	struct tl_ctl l;
	tl_ctl_open(&l);
	pid_t pid = tl_ctl_spawn(&l, 0);
	struct ctl_stream *s = &l.ctl->stream[0];
	uint64_t e = tl_ctl_write(&l.ctl->settings, 1, 1, 2048, CTL_DOUBLE, 0);
	int named = 0, samples = 0;
	struct task t[MAX_TASKS];
	for (int i = 0; i < 2500 && atomic_load(&s->applied_epoch) != e; i++) {
		int n = tasks_read(pid, t, MAX_TASKS), all = n > 0;
		for (int k = 0; k < n; k++)
			all &= strncmp(t[k].name, "gemm0", 5) == 0;
		/* Counted only when the reference was still being computed after. */
		if (atomic_load(&s->applied_epoch) != e && atomic_load(&s->pid) == pid) {
			samples++;
			named += all && n > 1;
		}
		tl_sleep_ms(2);
	}
	tasks_read(pid, t, MAX_TASKS);
	printf("# %d of %d samples during start-up had every thread named (%s, %s)\n", named,
	       samples, t[0].name, t[1].name);
	assert_int_equal(atomic_load(&s->applied_epoch), e);
	if (online_affinity() < 2 || samples == 0) {
		tl_ctl_close(&l);
		TL_SKIP("no pool thread to see (%d CPUs, %d samples)", online_affinity(), samples);
	}
	assert_true(named > 0);
	tl_ctl_close(&l);
}

static void test_pause_quit(void **state)
{
	(void)state;
	struct tl_ctl l;
	tl_ctl_open(&l);
	pid_t pid = tl_ctl_spawn(&l, 0);
	struct ctl_stream *s = &l.ctl->stream[0];
	uint64_t e = lab_set(&l, 1, 1, 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 3000), 0);
	assert_true(TL_UNTIL(atomic_load(&s->state) == CTL_STREAM_RUNNING, 5000));
	/* Paused: the counters stop. */
	e = lab_set(&l, 1, 1, 1);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 1000), 0);
	assert_true(TL_UNTIL(atomic_load(&s->state) == CTL_STREAM_PAUSED, 5000));
	uint64_t g = atomic_load(&s->gemms);
	tl_sleep_ms(100);
	assert_int_equal(atomic_load(&s->gemms), g);
	/* Resumed (a stream index beyond streams: see the two-stream test). */
	e = lab_set(&l, 1, 1, 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 1000), 0);
	/* A GEMM after the resume, however loaded the box (not within 50 ms). */
	assert_true(TL_UNTIL(atomic_load(&s->gemms) > g, 10000));
	/* quit: exit status 0 and state EXITED. */
	atomic_store(&l.ctl->settings.quit, 1);
	int st = wait_exit(pid, 1000);
	assert_true(st != -1 && WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(atomic_load(&s->state), CTL_STREAM_EXITED);
	l.nhelpers = 0;
	tl_ctl_close(&l);
}

/* The triad kernel through the same block: kernel and length in effect,
 * 2 x length FLOPs a call, each call's sampled check equal, and back to
 * GEMM with the matrices it held. */
static void test_triad_kernel(void **state)
{
	(void)state;
	struct tl_ctl l;
	tl_ctl_open(&l);
	tl_ctl_spawn(&l, 0);
	struct ctl_stream *s = &l.ctl->stream[0];
	uint64_t e = lab_set(&l, 1, 1, 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 3000), 0);
	assert_true(TL_UNTIL(atomic_load(&s->gemms) > 0, 10000));
	const uint32_t len = 1u << 20; /* small: the helper takes the block's length */
	struct ctl_values v = {2, 1, N, CTL_DOUBLE, 0, 0, 0, 0, 1, CTL_TRIAD, len};
	e = control_settings_write(&l.ctl->settings, &v);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 10000), 0);
	assert_int_equal(atomic_load(&s->kernel), CTL_TRIAD);
	assert_int_equal(atomic_load(&s->length), len);
	assert_int_equal(atomic_load(&s->threads), 2);
	uint64_t c0 = atomic_load(&s->gemms), f0 = atomic_load(&s->flops);
	assert_true(TL_UNTIL(atomic_load(&s->gemms) >= c0 + 5, 10000));
	/* Read under the sequence lock's even value: calls and FLOPs together. */
	uint64_t c1, f1, q;
	do {
		q = atomic_load(&s->count_seq);
		c1 = atomic_load(&s->gemms);
		f1 = atomic_load(&s->flops);
	} while ((q & 1) || q != atomic_load(&s->count_seq));
	assert_int_equal(f1 - f0, (c1 - c0) * 2ull * len);
	assert_true(atomic_load(&s->epoch_checked) > 0);
	assert_int_equal(atomic_load(&s->epoch_mismatches), 0);
	/* Back to GEMM: its size in effect again, GEMMs counted at 2 n^3. */
	e = lab_set(&l, 1, 1, 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 10000), 0);
	assert_int_equal(atomic_load(&s->kernel), CTL_GEMM);
	assert_int_equal(atomic_load(&s->size), N);
	c0 = atomic_load(&s->gemms);
	assert_true(TL_UNTIL(atomic_load(&s->gemms) > c0, 10000));
	assert_int_equal(atomic_load(&s->epoch_mismatches), 0);
	tl_ctl_close(&l);
}

static void test_dies_with_parent(void **state)
{
	(void)state;
	struct tl_ctl l;
	tl_ctl_open(&l);
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t mid = fork();
	assert_true(mid >= 0);
	if (mid == 0) {
		/* The intermediate parent: starts the helper, reports, waits. */
		pid_t h = tl_ctl_spawn(&l, 0);
		if (write(p[1], &h, sizeof(h)) != sizeof(h))
			_exit(1);
		for (;;)
			pause();
	}
	pid_t helper = 0;
	assert_int_equal(read(p[0], &helper, sizeof(helper)), sizeof(helper));
	close(p[0]);
	close(p[1]);
	/* The pid is published after PR_SET_PDEATHSIG took effect. */
	for (int i = 0; i < 600 && atomic_load(&l.ctl->stream[0].pid) != helper; i++)
		tl_sleep_ms(5);
	assert_int_equal(atomic_load(&l.ctl->stream[0].pid), helper);
	lab_set(&l, 1, 1, 0);
	tl_sleep_ms(20);
	kill(mid, SIGKILL);
	waitpid(mid, NULL, 0);
	double t0 = tl_now_s();
	while (!tl_pid_gone(helper) && tl_now_s() - t0 < 1.0)
		tl_sleep_ms(5);
	printf("# helper gone %.0f ms after its parent was killed\n", (tl_now_s() - t0) * 1000);
	assert_true(tl_pid_gone(helper));
	tl_ctl_close(&l);
}

/* Busy CPU time of the whole machine so far, ns (/proc/stat, all CPUs). */
static double machine_busy_ns(void)
{
	char buf[512];
	if (tl_read_file("/proc/stat", buf, sizeof(buf)) <= 0)
		return 0;
	unsigned long long v[8] = {0};
	sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
	       &v[4], &v[5], &v[6], &v[7]);
	double ticks = (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]);
	return ticks * 1e9 / (double)sysconf(_SC_CLK_TCK);
}

static void test_two_streams_concurrent(void **state)
{
	(void)state;
	if (online_affinity() < 2)
		TL_SKIP("needs 2 CPUs, this process may use %d", online_affinity());
	struct tl_ctl l;
	tl_ctl_open(&l);
	tl_ctl_spawn(&l, 0);
	tl_ctl_spawn(&l, 1);
	/* Stream 1 is beyond streams = 1: paused. */
	uint64_t e = lab_set(&l, 1, 1, 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 1, e, 3000), 0);
	tl_sleep_ms(20);
	assert_int_equal(atomic_load(&l.ctl->stream[1].state), CTL_STREAM_PAUSED);
	assert_int_equal(atomic_load(&l.ctl->stream[1].gemms), 0);
	e = lab_set(&l, 1, 2, 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 3000), 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 1, e, 3000), 0);
	const char *s1[] = {"gemm1", NULL};
	assert_int_equal(wait_names(l.pid[1], s1, 1000), 0);
	tl_sleep_ms(50);
	/* Both streams run in the same window, each on a CPU of its own when
	 * the box is idle (then about 2 CPUs, printed as a figure).  Asserted
	 * is what load cannot break: both helpers progressed in it,
	 * each with a real share of a CPU. */
	uint64_t a0 = proc_run_ns(l.pid[0]), a1 = proc_run_ns(l.pid[1]);
	uint64_t h0 = atomic_load(&l.ctl->stream[0].gemms);
	uint64_t h1 = atomic_load(&l.ctl->stream[1].gemms);
	double m0 = machine_busy_ns(), t0 = tl_now_s();
	tl_sleep_ms(500);
	double win = (tl_now_s() - t0) * 1e9;
	double c0 = (double)(proc_run_ns(l.pid[0]) - a0) / win;
	double c1 = (double)(proc_run_ns(l.pid[1]) - a1) / win;
	double others = (machine_busy_ns() - m0) / win - c0 - c1;
	printf("# 2 streams x 1 thread: helpers use %.2f + %.2f CPUs, the rest of the machine "
	       "%.2f\n",
	       c0, c1, others);
	uint64_t g0 = atomic_load(&l.ctl->stream[0].gemms);
	uint64_t g1 = atomic_load(&l.ctl->stream[1].gemms);
	assert_true(g0 > h0 && g1 > h1); /* both made progress in the window */
	assert_true(c0 >= 0.05 && c1 >= 0.05);
	tl_ctl_close(&l);
}

static void burn_check(const char *prog, const char *const args[], const char *name)
{
	pid_t pid = spawn(prog, args, -1);
	const char *names[] = {name, NULL};
	assert_int_equal(wait_names(pid, names, 1000), 0);
	uint64_t a = proc_run_ns(pid);
	tl_sleep_ms(100);
	assert_true(proc_run_ns(pid) > a);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_burn(void **state)
{
	(void)state;
	char parent[16];
	snprintf(parent, sizeof(parent), "%d", (int)getpid());
	const char *a1[] = {"--name", "tl-worker0", "--parent", parent, NULL};
	burn_check("threadlab-burn", a1, "tl-worker0");
	const char *a2[] = {"--burn", "--name", "tl-worker1", "--parent", parent, NULL};
	burn_check("threadlab-gemm", a2, "tl-worker1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bad_ctl_fd),
	    cmocka_unit_test(test_threads_names_results),
	    cmocka_unit_test(test_names_during_reference),
	    cmocka_unit_test(test_pause_quit),
	    cmocka_unit_test(test_triad_kernel),
	    cmocka_unit_test(test_dies_with_parent),
	    cmocka_unit_test(test_two_streams_concurrent),
	    cmocka_unit_test(test_burn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
