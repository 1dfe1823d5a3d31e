/* short-threads.c — a process whose CPU goes to threads that live for
 * less than a sample: in a loop, a thread spins for MS milliseconds of its
 * own CPU time (default 30) and ends, then the main thread sleeps for
 * twice that.  With "fork" after MS, a child process does the spinning
 * and is waited for.  For the tests of what no thread read accounts for
 * (snapshot_rates' unseen_cpu).  Prints "ready" once the loop runs. */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double spin_ms = 30;

static double thread_cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *spin(void *arg)
{
	(void)arg;
	volatile unsigned long x = 0;
	double t0 = thread_cpu_ms();
	while (thread_cpu_ms() - t0 < spin_ms)
		for (int i = 0; i < 10000; i++)
			x++;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		spin_ms = atof(argv[1]);
	int forks = argc > 2 && strcmp(argv[2], "fork") == 0;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	struct timespec pause = {0, (long)(spin_ms * 2e6)};
	for (int i = 0;; i++) {
		if (forks) {
			pid_t c = fork();
			if (c == 0) {
				spin(NULL);
				_exit(0);
			}
			if (c < 0 || waitpid(c, NULL, 0) != c)
				return 1;
		} else {
			pthread_t t;
			if (pthread_create(&t, NULL, spin, NULL) != 0)
				return 1;
			pthread_join(t, NULL);
		}
		if (i == 0) {
			printf("ready\n");
			fflush(stdout);
		}
		nanosleep(&pause, NULL);
	}
}
