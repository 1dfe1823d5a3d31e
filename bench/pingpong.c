/* pingpong.c — two threads pass a byte back and forth over two pipes, the
 * pattern of `perf bench sched pipe`: every round trip is two wake-ups and
 * two context switches, the worst case for tracing the scheduler.
 *
 *   pingpong SECONDS [--pid FILE]
 *
 * Prints the PID (or writes it to FILE), waits 0.5 s for a tracer to
 * attach, runs SECONDS and prints "round trips/s N per-cpu-s M": per
 * second of wall time, and per second of the process's own CPU time
 * (getrusage), which other work on a loaded machine does not dilute (the
 * tracepoint's program runs in the switching task, so it is counted).
 * Both threads share CPU 0 when the machine has more than one, so the
 * figure measures the switch path and not cross-CPU wake-ups. */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int ab[2], ba[2];
static volatile int done;

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

static void *pong(void *arg)
{
	(void)arg;
	char c;
	while (read(ab[0], &c, 1) == 1 && write(ba[1], &c, 1) == 1)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 5;
	if (secs <= 0 || pipe(ab) || pipe(ba))
		return 2;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one);
	pthread_t t;
	if (pthread_create(&t, NULL, pong, NULL))
		return 1;
	if (argc > 3 && strcmp(argv[2], "--pid") == 0) {
		FILE *f = fopen(argv[3], "w");
		if (!f)
			return 1;
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	} else {
		printf("%d\n", (int)getpid());
	}
	fflush(stdout);
	struct timespec settle = {0, 500000000L};
	nanosleep(&settle, NULL);
	char c = 'x';
	unsigned long n = 0;
	double t0 = now(), end = t0 + secs, c0 = cpu_s();
	for (;;) {
		for (int i = 0; i < 1000; i++) {
			if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
				return 1;
		}
		n += 1000;
		if (now() >= end)
			break;
	}
	double wall = now() - t0, cpu = cpu_s() - c0;
	printf("round trips/s %.0f per-cpu-s %.0f\n", (double)n / wall,
	       cpu > 0 ? (double)n / cpu : 0);
	return 0;
}
