/* bpf-all.c — the BPF collector reading every thread of the machine, the
 * read a whole-machine view (--all) makes each tick: one task-iterator
 * read, the rates and each thread's run-queue latency for the interval.
 *
 *   bpf-all SECONDS [INTERVAL]      (default interval 1 s)
 *
 * Runs SECONDS, then prints the threads seen, the mean time of one tick
 * (read + rates) and its own CPU (getrusage) as % of a core.  Needs root
 * (or CAP_BPF and CAP_PERFMON). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "bpf-tasks.h"
#include "bpf-threads.h"
#include "bpf-load.h"
#include "threads.h"
#include "thread-set.h"
#include "thread-rates.h"
#include "thread-latency.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 +
	       (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 20, iv = argc > 2 ? atof(argv[2]) : 1;
	char why[256];
	struct bpf_tasks *b;
	if (secs <= 0 || iv <= 0)
		return 2;
	if (bpf_load_tasks(0, &b, why, sizeof(why)) < 0) {
		fprintf(stderr, "bpf-all: %s\n", why);
		return 1;
	}
	struct bpf_threads *r = bpf_threads_new(b, 0, false, true);
	struct thread_set prev, cur;
	thread_set_init(&prev);
	thread_set_init(&cur);
	struct thread_rate *rt = NULL;
	struct lat_hist *lat = NULL;
	size_t cap = 0, nlat = 0, lcap = 0, ticks = 0, threads = 0, traced = 0;
	double busy = 0, c0 = cpu_s(), t0 = now(), next = t0;
	bpf_threads_sample(r, now(), &prev);
	while (now() - t0 < secs) {
		next += iv;
		struct timespec d = {0, 0};
		double w = next - now();
		if (w > 0) {
			d.tv_sec = (time_t)w;
			d.tv_nsec = (long)((w - (double)d.tv_sec) * 1e9);
			nanosleep(&d, NULL);
		}
		double s = now();
		if (bpf_threads_sample(r, s, &cur) < 0)
			break;
		size_t n = thread_rates(&prev, &cur, &rt, &cap);
		thread_latency_rates(&prev, &cur, rt, n, &lat, &nlat, &lcap);
		busy += now() - s;
		ticks++;
		threads = n;
		traced = nlat;
		struct thread_set t = prev;
		prev = cur;
		cur = t;
	}
	double wall = now() - t0, cpu = cpu_s() - c0;
	printf("bpf-all: %zu ticks at %.2f s: %zu threads (%zu with waits in the last "
	       "interval), %.2f ms a tick, CPU %.3f %% of a core\n",
	       ticks, iv, threads, traced, ticks ? 1e3 * busy / (double)ticks : 0,
	       100 * cpu / wall);
	free(rt);
	free(lat);
	thread_set_free(&prev);
	thread_set_free(&cur);
	bpf_threads_free(r);
	bpf_load_free(b);
	return 0;
}
