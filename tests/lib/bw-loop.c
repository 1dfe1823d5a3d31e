/* bw-loop.c — memory bandwidth by a plain C loop, for test-roofline-live.sh:
 *
 *   bw-loop ELEMENTS THREADS SECONDS
 *
 * Two arrays of ELEMENTS doubles; THREADS pthreads each run the loop
 * a[i] = a[i] + s * b[i] over their own slice, one pass at a time, for
 * about SECONDS; the best pass's 3 x 8 bytes an element over its wall
 * time is printed as "GB/s X".  No OpenBLAS: an independent measurement
 * of what the lab's triad kernel moves.  Exit 2 on bad arguments. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double *a, *b;
static size_t len;
static int nthreads;
static pthread_barrier_t start, done;
static volatile int stop;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The reference loop is never instrumented: under ASan every access would
 * be checked and the "independent bandwidth" would read a quarter of the
 * machine's (10.9 against the lab's 45.3 GB/s in the sanitizer build). */
__attribute__((no_sanitize("address", "undefined"))) static void *worker(void *arg)
{
	size_t k = (size_t)(long)arg;
	size_t lo = len * k / (size_t)nthreads, hi = len * (k + 1) / (size_t)nthreads;
	for (;;) {
		pthread_barrier_wait(&start);
		if (stop)
			return NULL;
		for (size_t i = lo; i < hi; i++)
			a[i] = a[i] + 0.5 * b[i];
		pthread_barrier_wait(&done);
	}
}

int main(int argc, char **argv)
{
	if (argc != 4 || atol(argv[1]) < 1024 || atoi(argv[2]) < 1 || atof(argv[3]) <= 0) {
		fprintf(stderr, "usage: bw-loop ELEMENTS THREADS SECONDS\n");
		return 2;
	}
	len = (size_t)atol(argv[1]);
	nthreads = atoi(argv[2]);
	double secs = atof(argv[3]);
	a = malloc(len * sizeof(*a));
	b = malloc(len * sizeof(*b));
	if (!a || !b) {
		fprintf(stderr, "bw-loop: cannot allocate 2 x %zu doubles\n", len);
		return 1;
	}
	for (size_t i = 0; i < len; i++)
		a[i] = 0, b[i] = (double)(i % 8 + 1);
	pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1);
	pthread_barrier_init(&done, NULL, (unsigned)nthreads + 1);
	pthread_t *t = calloc((size_t)nthreads, sizeof(*t));
	for (int k = 0; k < nthreads; k++)
		pthread_create(&t[k], NULL, worker, (void *)(long)k);
	double best = 0, t_end = now() + secs;
	int passes = 0;
	while (passes < 2 || now() < t_end) {
		double t0 = now();
		pthread_barrier_wait(&start);
		pthread_barrier_wait(&done);
		double gbs = 24.0 * (double)len / (now() - t0) / 1e9;
		if (gbs > best)
			best = gbs;
		passes++;
	}
	stop = 1;
	pthread_barrier_wait(&start);
	for (int k = 0; k < nthreads; k++)
		pthread_join(t[k], NULL);
	/* a[] is read so that the loop cannot be dropped. */
	printf("GB/s %.2f passes %d check %.1f\n", best, passes, a[len / 2]);
	free(t);
	free(a);
	free(b);
	return 0;
}
