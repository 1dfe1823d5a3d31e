/* duty.c — a job with a known demand, for the hysteresis tests: BUSY
 * threads that never sleep (each 1.0 runnable thread, whatever the
 * machine does) and one thread runnable a FRACTION of each 20 ms period
 * by the wall clock (busy from the period's start to its share of it,
 * then asleep until the next period, TIMER_ABSTIME: a late wake-up eats
 * into the busy part, not into the sleep).  Mean runnable threads: BUSY +
 * FRACTION.  Prints "ready"; dies with its parent.
 *
 *   duty BUSY FRACTION */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define PERIOD_NS 20000000L

static double fraction;

static void *spin(void *arg)
{
	(void)arg;
	volatile unsigned long x = 0;
	for (;;)
		x++;
	return NULL;
}

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *part(void *arg)
{
	(void)arg;
	long long start = now_ns();
	volatile unsigned long x = 0;
	for (;;) {
		long long busy_end = start + (long long)(fraction * PERIOD_NS);
		while (now_ns() < busy_end)
			x++;
		start += PERIOD_NS;
		struct timespec t = {(time_t)(start / 1000000000LL), (long)(start % 1000000000LL)};
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int busy = argc > 1 ? atoi(argv[1]) : 1;
	fraction = argc > 2 ? atof(argv[2]) : 0.5;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pthread_t t;
	for (int i = 0; i < busy; i++)
		pthread_create(&t, NULL, spin, NULL);
	if (fraction > 0)
		pthread_create(&t, NULL, part, NULL);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
