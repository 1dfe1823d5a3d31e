/* threads-target.c — a process with many threads of known behaviour, for
 * benchmarks (and the scale tests): N threads (small stacks), of which W
 * wake every MS milliseconds and the rest sleep for good.  Threads are
 * named "tt-sleep" and "tt-wake".  Prints its PID once every thread runs,
 * then waits to be killed (it dies with its parent).
 *
 * Usage: threads-target N [W [MS]]     (default W 0, MS 50) */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static long wake_ms = 50;

static void *sleeper(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "tt-sleep");
	for (;;)
		pause();
	return NULL;
}

static void *waker(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "tt-wake");
	struct timespec t = {wake_ms / 1000, (wake_ms % 1000) * 1000000L};
	for (;;)
		nanosleep(&t, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, w = argc > 2 ? atol(argv[2]) : 0;
	if (argc > 3)
		wake_ms = atol(argv[3]);
	if (n < 1 || w < 0 || w > n || wake_ms < 1) {
		fprintf(stderr, "usage: threads-target N [W [MS]]\n");
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	for (long i = 0; i < n; i++) {
		pthread_t t;
		int rc = pthread_create(&t, &a, i < w ? waker : sleeper, NULL);
		if (rc) {
			fprintf(stderr, "threads-target: thread %ld: %s\n", i, strerror(rc));
			return 1;
		}
	}
	printf("%d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
