/* omp-team.c — an OpenMP job whose team size its code sets, for the pool
 * and activity tests and the advice benchmark.  Built with -fopenmp.
 *
 *   omp-team THREADS [MODE] [SECONDS]
 *   THREADS > 0: omp_set_num_threads(THREADS) in the code (the environment
 *                is then overridden); 0: libgomp's own count
 *   MODE "steps" (default): each step is a parallel loop over a fixed
 *        amount of arithmetic, split statically, with a barrier at its
 *        end; prints "step N" every 10 steps (N cumulative), so the job's
 *        own rate falls when the team outnumbers the CPUs
 *        "spin": one parallel region starts the team, then the main thread
 *        computes alone while the others wait for the next region (they
 *        spin with OMP_WAIT_POLICY=active)
 * Prints "ready N" (the team size) once the team runs; dies with its
 * parent. */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#define STEP_WORK 4000000 /* iterations of a step, split over the team */

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 0;
	const char *mode = argc > 2 ? argv[2] : "steps";
	double secs = argc > 3 ? atof(argv[3]) : 0;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (threads > 0)
		omp_set_num_threads(threads);
	double t0 = omp_get_wtime();
	volatile double sink = 0;
#pragma omp parallel
	{
#pragma omp single
		{
			printf("ready %d\n", omp_get_num_threads());
			fflush(stdout);
		}
	}
	if (strcmp(mode, "spin") == 0) {
		double x = 0;
		while (secs <= 0 || omp_get_wtime() - t0 < secs)
			for (int i = 0; i < 100000; i++)
				x += i * 1e-9;
		sink = x;
		return 0;
	}
	for (long step = 1; secs <= 0 || omp_get_wtime() - t0 < secs; step++) {
		double x = 0;
#pragma omp parallel for schedule(static) reduction(+ : x)
		for (int i = 0; i < STEP_WORK; i++)
			x += i * 1e-9;
		sink += x;
		if (step % 10 == 0) {
			printf("step %ld\n", step);
			fflush(stdout);
		}
	}
	return 0;
}
