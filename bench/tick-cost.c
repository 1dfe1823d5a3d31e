/* tick-cost.c — threadlab's per-tick CPU cost against top -H, in one run.
 *
 * Starts a target process with many threads (1,000 by default, small
 * stacks), then measures on the same target:
 *   (a) threadlab: thread_sampler_sample() + thread_rates() per tick, as CPU time
 *       (getrusage user + sys of this process) averaged over the ticks;
 *   (b) top -H -b -d INTERVAL -n TICKS -p PID: the CPU time of the top
 *       process (wait4 rusage) divided by the ticks.
 * Both are run twice: with threads that sleep for good (the common case, in
 * which unchanged schedstat spares the reads of stat and status) and with
 * threads that wake every 50 ms (every tick reads schedstat and stat of
 * every thread, and status of those whose turn it is: about one in
 * status-period / interval).  The files read per tick are printed too.
 *
 * threadlab's sampler runs as the dashboard runs it: the threads not wanted
 * have schedstat read every PERIOD seconds (default 1; 0: every thread,
 * every tick) and stat every 2 x PERIOD when they ran,
 * and every tick for the WANTED threads a screen shows (default 30).
 * With -b the BPF collector (bpf-tasks.h; root) is measured too, on the
 * same target and with the same cadence: bpf_threads_sample() +
 * thread_rates() per tick, and the records per tick in full and short.
 *
 * Usage: tick-cost [-n THREADS] [-t TICKS] [-i INTERVAL_MS] [-s PERIOD] [-w WANTED] [-b] */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpf-tasks.h"
#include "bpf-threads.h"
#include "bpf-load.h"
#include "sysroot.h"
#include "threads.h"
#include "thread-set.h"
#include "thread-sampler.h"
#include "thread-rates.h"

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

static long wake_ms;		   /* 0: threads sleep for good */
static double stat_period = 1.0;   /* -s: the stat and the sched period */
static int wanted = 30;		   /* -w */
static double status_period = 1.0; /* -S */
static bool with_bpf;		   /* -b */
static double bpf_load_ms;	   /* the programs' load and attach, wall ms */

static void *target_thread(void *arg)
{
	(void)arg;
	for (;;) {
		if (wake_ms)
			sleep_ms(wake_ms);
		else
			pause();
	}
	return NULL;
}

/* Forks a target holding nthreads threads; returns its PID once they exist. */
static pid_t start_target(int nthreads, long wake)
{
	int p[2];
	if (pipe(p) < 0)
		return -1;
	pid_t pid = fork();
	if (pid != 0) {
		close(p[1]);
		char c;
		ssize_t got = pid > 0 ? read(p[0], &c, 1) : -1;
		close(p[0]);
		return got == 1 ? pid : -1;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	close(p[0]);
	wake_ms = wake;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int i = 0; i < nthreads; i++) {
		pthread_t t;
		if (pthread_create(&t, &attr, target_thread, NULL) != 0)
			_exit(1);
	}
	if (write(p[1], "x", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static double cpu_ms(const struct rusage *ru)
{
	return (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1e3 +
	       (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e3;
}

static double user_ms(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec * 1e3 + (double)ru->ru_utime.tv_usec / 1e3;
}

static double bench_user; /* user-space part of the threadlab figure, ms per tick */

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* threadlab's CPU ms per tick over ticks ticks (after one warm-up tick). */
static double bench_threadlab(pid_t pid, int ticks, long interval, double *first_ms,
			      size_t *nthreads, size_t *fds, struct thread_sampler_reads *per_tick)
{
	struct sysroot r;
	if (sysroot_open(&r, "/") < 0)
		return -1;
	struct thread_sampler *ts = thread_sampler_new(&r, pid, false);
	if (!ts) {
		sysroot_close(&r);
		return -1;
	}
	struct thread_set prev, cur;
	thread_set_init(&prev);
	thread_set_init(&cur);
	struct thread_rate *rates = NULL;
	size_t cap = 0;
	struct rusage a, b;
	thread_sampler_set_stat_period(ts, 2 * stat_period); /* as sampler_set_detail_period */
	thread_sampler_set_sched_period(ts, stat_period);
	thread_sampler_set_status_period(ts, status_period);

	getrusage(RUSAGE_SELF, &a);
	thread_sampler_sample(ts, &prev);
	/* The rows a screen would show: the first TIDs stand in for them. */
	pid_t *want = calloc((size_t)wanted + 1, sizeof(*want));
	size_t nw = 0;
	for (size_t i = 0; i < prev.n && nw < (size_t)wanted; i++)
		want[nw++] = prev.v[i].tid;
	thread_sampler_want(ts, want, nw);
	free(want);
	getrusage(RUSAGE_SELF, &b);
	*first_ms = cpu_ms(&b) - cpu_ms(&a);

	struct thread_sampler_reads r0, r1;
	thread_sampler_read_counts(ts, &r0);
	double spent = 0, user = 0;
	for (int i = 0; i < ticks; i++) {
		sleep_ms(interval);
		getrusage(RUSAGE_SELF, &a);
		thread_sampler_sample(ts, &cur);
		thread_rates(&prev, &cur, &rates, &cap);
		thread_set_copy(&prev, &cur);
		getrusage(RUSAGE_SELF, &b);
		spent += cpu_ms(&b) - cpu_ms(&a);
		user += user_ms(&b) - user_ms(&a);
	}
	bench_user = user / ticks;
	*nthreads = cur.n;
	*fds = thread_sampler_fds(ts);
	thread_sampler_read_counts(ts, &r1);
	per_tick->listings = (r1.listings - r0.listings) / (uint64_t)ticks;
	per_tick->schedstat = (r1.schedstat - r0.schedstat) / (uint64_t)ticks;
	per_tick->stat = (r1.stat - r0.stat) / (uint64_t)ticks;
	per_tick->status = (r1.status - r0.status) / (uint64_t)ticks;
	free(rates);
	thread_set_free(&prev);
	thread_set_free(&cur);
	thread_sampler_free(ts);
	sysroot_close(&r);
	return spent / ticks;
}

/* The BPF collector's CPU ms per tick (after one warm-up tick), or -1
 * with why; full and brief: its records per tick. */
static double bench_bpf(pid_t pid, int ticks, long interval, double *full, double *brief, char *why,
			size_t whylen)
{
	struct bpf_tasks *b = NULL;
	double t0 = now_ms();
	if (bpf_load_tasks(0, &b, why, whylen) < 0)
		return -1;
	bpf_load_ms = now_ms() - t0;
	struct bpf_threads *t = bpf_threads_new(b, pid, false, false);
	if (!t) {
		snprintf(why, whylen, "%s", strerror(errno));
		bpf_load_free(b);
		return -1;
	}
	bpf_threads_set_period(t, stat_period);
	struct thread_set prev, cur;
	thread_set_init(&prev);
	thread_set_init(&cur);
	struct thread_rate *rates = NULL;
	size_t cap = 0, nf, nb;
	double spent = -1;
	if (bpf_threads_sample(t, now_ms() / 1e3, &prev) == 0) {
		pid_t *want = calloc((size_t)wanted + 1, sizeof(*want));
		size_t nw = 0;
		for (size_t i = 0; i < prev.n && nw < (size_t)wanted; i++)
			want[nw++] = prev.v[i].tid;
		bpf_threads_want(t, want, nw);
		free(want);
		spent = *full = *brief = 0;
		for (int i = 0; i < ticks; i++) {
			struct rusage a, z;
			sleep_ms(interval);
			getrusage(RUSAGE_SELF, &a);
			bpf_threads_sample(t, now_ms() / 1e3, &cur);
			thread_rates(&prev, &cur, &rates, &cap);
			thread_set_copy(&prev, &cur);
			getrusage(RUSAGE_SELF, &z);
			spent += cpu_ms(&z) - cpu_ms(&a);
			bpf_threads_last_read(t, &nf, &nb);
			*full += (double)nf / ticks;
			*brief += (double)nb / ticks;
		}
		spent /= ticks;
	} else {
		snprintf(why, whylen, "the first read failed");
	}
	free(rates);
	thread_set_free(&prev);
	thread_set_free(&cur);
	bpf_threads_free(t);
	bpf_load_free(b);
	return spent;
}

/* top -H's CPU ms per tick. */
static double bench_top(pid_t pid, int ticks, long interval)
{
	char n[16], p[16], d[16];
	snprintf(n, sizeof(n), "%d", ticks);
	snprintf(p, sizeof(p), "%d", (int)pid);
	snprintf(d, sizeof(d), "%.3f", (double)interval / 1e3);
	pid_t top = fork();
	if (top < 0)
		return -1;
	if (top == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execlp("top", "top", "-H", "-b", "-d", d, "-n", n, "-p", p, (char *)NULL);
		_exit(127);
	}
	int status;
	struct rusage ru;
	while (wait4(top, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return cpu_ms(&ru) / ticks;
}

static void run(const char *what, int nthreads, long wake, int ticks, long interval)
{
	pid_t pid = start_target(nthreads, wake);
	if (pid < 0) {
		fprintf(stderr, "tick-cost: cannot start the target: %s\n", strerror(errno));
		exit(1);
	}
	double first, t0 = now_ms();
	size_t seen = 0, fds = 0;
	struct thread_sampler_reads reads = {0};
	double tl = bench_threadlab(pid, ticks, interval, &first, &seen, &fds, &reads);
	double tl_wall = now_ms() - t0;
	double bpf = -1, full = 0, brief = 0;
	char why[256] = "not asked for (-b)";
	if (with_bpf)
		bpf = bench_bpf(pid, ticks, interval, &full, &brief, why, sizeof(why));
	double top = bench_top(pid, ticks, interval);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	printf(
	    "target: %d %s threads (+1 main), %d ticks at %ld ms; detail period %g s, %d wanted\n",
	    nthreads, what, ticks, interval, stat_period, wanted);
	if (tl < 0)
		printf("  threadlab thread_sampler: failed\n");
	else
		printf("  threadlab thread_sampler: %7.3f ms CPU per tick  (%zu threads, %zu fds "
		       "held; "
		       "first tick %.3f ms; %.1f s wall; %.3f ms of it user space)\n",
		       tl, seen, fds, first, tl_wall / 1e3, bench_user);
	if (tl >= 0)
		printf(
		    "  reads per tick:     %llu listings, %llu schedstat, %llu stat, %llu status\n",
		    (unsigned long long)reads.listings, (unsigned long long)reads.schedstat,
		    (unsigned long long)reads.stat, (unsigned long long)reads.status);
	if (top < 0)
		printf("  top -H -b:          failed (is procps' top installed?)\n");
	else
		printf("  top -H -b:          %7.3f ms CPU per tick\n", top);
	if (tl >= 0 && top > 0)
		printf("  ratio:              %7.3f x top -H  (goal <= 0.10)\n", tl / top);
	if (bpf < 0 && with_bpf)
		printf("  threadlab bpf_threads: failed: %s\n", why);
	else if (bpf >= 0)
		printf("  threadlab bpf_threads: %7.3f ms CPU per tick (%.0f records in full, %.0f "
		       "short per tick)%s%.3f x top -H; loaded in %.1f ms\n",
		       bpf, full, brief, top > 0 ? "; " : "", top > 0 ? bpf / top : 0, bpf_load_ms);
}

int main(int argc, char **argv)
{
	int nthreads = 1000, ticks = 20, opt;
	long interval = 100;
	while ((opt = getopt(argc, argv, "n:t:i:s:S:w:b")) != -1) {
		switch (opt) {
		case 'n':
			nthreads = atoi(optarg);
			break;
		case 't':
			ticks = atoi(optarg);
			break;
		case 'i':
			interval = atol(optarg);
			break;
		case 's':
			stat_period = atof(optarg);
			break;
		case 'w':
			wanted = atoi(optarg);
			break;
		case 'S':
			status_period = atof(optarg);
			break;
		case 'b':
			with_bpf = true;
			break;
		default:
			fprintf(stderr, "usage: tick-cost [-n THREADS] [-t TICKS] [-i INTERVAL_MS] "
					"[-s PERIOD] [-w WANTED] [-b]\n");
			return 2;
		}
	}
	if (nthreads < 1 || ticks < 1 || interval < 1) {
		fprintf(stderr, "tick-cost: THREADS, TICKS and INTERVAL_MS must be positive\n");
		return 2;
	}
	/* Three descriptors per thread are held: lift the soft limit to the hard one. */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	run("sleeping", nthreads, 0, ticks, interval);
	run("waking every 50 ms", nthreads, 50, ticks, interval);
	return 0;
}
