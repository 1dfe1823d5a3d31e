/* omp-amdahl.c — a job with a known serial fraction, for the Amdahl fit's
 * tests: each step is SERIAL ms of CPU on one thread, then PARALLEL ms of
 * CPU split evenly over the OpenMP team (OMP_NUM_THREADS), then a line
 * "step N".  On idle CPUs a step takes SERIAL + PARALLEL / T ms, so
 * s = SERIAL / (SERIAL + PARALLEL).  Work is measured in the thread's own
 * CPU time, so a preempted thread still does its share.  Built with
 * -fopenmp.
 *
 *   omp-amdahl [SECONDS [SERIAL_MS PARALLEL_MS]]   (defaults 0 = until
 *   stopped, 20, 80) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double thread_cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double wall_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Spins for ms of this thread's CPU. */
static void spin(double ms)
{
	volatile double x = 0;
	double end = thread_cpu_ms() + ms;
	while (thread_cpu_ms() < end)
		for (int i = 0; i < 1000; i++)
			x += i * 0.5;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 0;
	double serial = argc > 3 ? atof(argv[2]) : 20, parallel = argc > 3 ? atof(argv[3]) : 80;
	double t0 = wall_s();
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (long n = 1; seconds <= 0 || wall_s() - t0 < seconds; n++) {
		spin(serial);
#pragma omp parallel
		spin(parallel / omp_get_num_threads());
		printf("step %ld\n", n);
	}
	return 0;
}
