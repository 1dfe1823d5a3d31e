/* lat-target.c — a process whose threads wait for CPUs in known ways, for
 * the run-queue latency tests (test-bpf-live, test-bpf.sh).
 *
 *   lat-target [--busy N] [--wake N:MS] [--rt] [--pin K] [--churn RATE]
 *
 * --busy N      N threads that spin ("lt-busy"): more of them than CPUs
 *               queue behind each other
 * --wake N:MS   N threads that sleep MS ms and wake, over and over ("lt-wake")
 * --rt          the waking threads run SCHED_FIFO 1 (as root): woken, they
 *               get a CPU at once whatever else runs, as on an idle CPU
 * --pin K       every thread on the first K online CPUs
 * --churn RATE  a thread ("lt-churn") starts RATE short-lived threads a
 *               second ("lt-short", each sleeps 1 ms and exits)
 *
 * Prints its PID once every thread runs, then runs until killed; it dies
 * with its parent. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static long wake_ms = 10, churn_rate;
static int rt;
static cpu_set_t pin;
static int pinned;
static pthread_barrier_t started;

static void lt_setup(const char *name)
{
	prctl(PR_SET_NAME, name);
	if (pinned)
		sched_setaffinity(0, sizeof(pin), &pin);
}

static void *lt_busy(void *arg)
{
	(void)arg;
	lt_setup("lt-busy");
	pthread_barrier_wait(&started);
	for (volatile unsigned long x = 0;; x++)
		;
	return NULL;
}

static void *lt_wake(void *arg)
{
	(void)arg;
	lt_setup("lt-wake");
	if (rt) {
		struct sched_param sp = {.sched_priority = 1};
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	}
	pthread_barrier_wait(&started);
	struct timespec t = {wake_ms / 1000, (wake_ms % 1000) * 1000000L};
	for (;;)
		nanosleep(&t, NULL);
	return NULL;
}

static void *lt_short(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "lt-short");
	struct timespec t = {0, 1000000L};
	nanosleep(&t, NULL);
	return NULL;
}

static void *lt_churn(void *arg)
{
	(void)arg;
	lt_setup("lt-churn");
	pthread_barrier_wait(&started);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	struct timespec gap = {0, 1000000000L / churn_rate};
	for (;;) {
		pthread_t t;
		pthread_create(&t, &a, lt_short, NULL);
		nanosleep(&gap, NULL);
	}
	return NULL;
}

static int lt_usage(void)
{
	fprintf(stderr,
		"usage: lat-target [--busy N] [--wake N:MS] [--rt] [--pin K] [--churn RATE]\n");
	return 2;
}

int main(int argc, char **argv)
{
	long busy = 0, wake = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--busy") == 0 && i + 1 < argc)
			busy = atol(argv[++i]);
		else if (strcmp(argv[i], "--wake") == 0 && i + 1 < argc &&
			 sscanf(argv[i + 1], "%ld:%ld", &wake, &wake_ms) == 2)
			i++;
		else if (strcmp(argv[i], "--rt") == 0)
			rt = 1;
		else if (strcmp(argv[i], "--pin") == 0 && i + 1 < argc) {
			int k = atoi(argv[++i]);
			CPU_ZERO(&pin);
			for (int c = 0; c < k; c++)
				CPU_SET(c, &pin);
			pinned = 1;
		} else if (strcmp(argv[i], "--churn") == 0 && i + 1 < argc)
			churn_rate = atol(argv[++i]);
		else
			return lt_usage();
	}
	if (busy < 0 || wake < 0 || wake_ms < 1 || churn_rate < 0 || busy + wake > 100000)
		return lt_usage();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		return 1;
	if (pinned)
		sched_setaffinity(0, sizeof(pin), &pin);
	unsigned n = (unsigned)(busy + wake + (churn_rate > 0)) + 1;
	pthread_barrier_init(&started, NULL, n);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	pthread_t t;
	for (long i = 0; i < busy; i++)
		if (pthread_create(&t, &a, lt_busy, NULL) != 0)
			return 1;
	for (long i = 0; i < wake; i++)
		if (pthread_create(&t, &a, lt_wake, NULL) != 0)
			return 1;
	if (churn_rate > 0 && pthread_create(&t, &a, lt_churn, NULL) != 0)
		return 1;
	pthread_barrier_wait(&started);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
