/* omp-busy.c — a busy OpenMP parallel loop, for the diagnosis tests: as
 * many threads as libgomp gives it (OMP_NUM_THREADS, else the affinity
 * CPUs), each spinning on arithmetic, for SECONDS (default: until killed).
 * Prints "ready" once the team runs.  Built with -fopenmp. */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1e9;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	double t0 = omp_get_wtime();
	volatile double sink = 0;
#pragma omp parallel
	{
#pragma omp single
		{
			printf("ready %d\n", omp_get_num_threads());
			fflush(stdout);
		}
		double x = 0;
		while (omp_get_wtime() - t0 < secs)
			for (int i = 0; i < 100000; i++)
				x += i * 1e-9;
#pragma omp atomic
		sink += x;
	}
	return 0;
}
