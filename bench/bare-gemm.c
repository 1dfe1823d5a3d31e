/* bare-gemm.c — the reference for bench/lab-vs-bare: a bare OpenBLAS loop.
 *
 *   bare-gemm THREADS SECONDS [N] [single|double]
 *
 * Calls C = A x B back to back with THREADS OpenBLAS threads, warms up for
 * one second, then prints "gflops X" measured over SECONDS of wall time. */
#define _GNU_SOURCE
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bare-gemm THREADS SECONDS [N] [single|double]\n");
		return 2;
	}
	int threads = atoi(argv[1]);
	double seconds = atof(argv[2]);
	int n = argc > 3 ? atoi(argv[3]) : 768;
	int dbl = argc > 4 && strcmp(argv[4], "double") == 0;
	size_t elem = dbl ? sizeof(double) : sizeof(float);
	size_t nn = (size_t)n * (size_t)n;
	void *a = malloc(nn * elem), *b = malloc(nn * elem), *c = malloc(nn * elem);
	if (threads < 1 || seconds <= 0 || n < 1 || !a || !b || !c)
		return 2;
	for (size_t i = 0; i < nn; i++) {
		double v = (double)((i * 7919u) % 1000u) / 1000.0 - 0.5;
		if (dbl) {
			((double *)a)[i] = v;
			((double *)b)[i] = -v;
		} else {
			((float *)a)[i] = (float)v;
			((float *)b)[i] = (float)-v;
		}
	}
	openblas_set_num_threads(threads);
	double t0 = now_s(), start = 0;
	long calls = 0;
	for (;;) {
		if (dbl)
			cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n,
				    b, n, 0.0, c, n);
		else
			cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n,
				    b, n, 0.0f, c, n);
		double t = now_s();
		if (start == 0 && t - t0 >= 1.0) {
			start = t;
			calls = 0;
		} else if (start > 0) {
			calls++;
			if (t - start >= seconds) {
				printf("gflops %.3f\n",
				       2.0 * n * (double)n * n * (double)calls / (t - start) / 1e9);
				break;
			}
		}
	}
	free(a);
	free(b);
	free(c);
	return 0;
}
