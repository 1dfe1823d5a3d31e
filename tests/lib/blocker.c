/* blocker.c — threads that wait in known ways, for the activity tests:
 * one reads a pipe nobody writes to, one sleeps in nanosleep, one waits on
 * a condition variable (a futex), one spins on arithmetic.  Prints
 * "pipe TID", "sleep TID", "futex TID", "busy TID", then "ready"; dies
 * with its parent. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static int fds[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static pid_t tids[4];
static pthread_barrier_t started; /* the four threads and main */

static void *reader(void *arg)
{
	(void)arg;
	tids[0] = gettid();
	pthread_barrier_wait(&started);
	char c;
	for (;;)
		if (read(fds[0], &c, 1) <= 0)
			pause();
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	tids[1] = gettid();
	pthread_barrier_wait(&started);
	for (;;) {
		struct timespec ts = {10, 0};
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	tids[2] = gettid();
	pthread_barrier_wait(&started);
	pthread_mutex_lock(&lock);
	for (;;)
		pthread_cond_wait(&never, &lock);
	return NULL;
}

static void *busy(void *arg)
{
	(void)arg;
	tids[3] = gettid();
	pthread_barrier_wait(&started);
	volatile unsigned long x = 0;
	for (;;)
		x++;
	return NULL;
}

int main(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pipe(fds) < 0)
		return 1;
	pthread_barrier_init(&started, NULL, 5);
	void *(*fn[4])(void *) = {reader, sleeper, waiter, busy};
	for (int i = 0; i < 4; i++) {
		pthread_t t;
		pthread_create(&t, NULL, fn[i], NULL);
	}
	pthread_barrier_wait(&started);
	printf("pipe %d\nsleep %d\nfutex %d\nbusy %d\nready\n", tids[0], tids[1], tids[2], tids[3]);
	fflush(stdout);
	for (;;)
		pause();
}
