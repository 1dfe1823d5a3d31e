/* forker.c — a DataLoader-like job for the diagnosis tests: the main
 * process runs MAIN busy threads and forks WORKERS workers (fork, no exec:
 * the same executable and command line), each running WTHREADS busy
 * threads.  Prints the workers' pids, then "ready".  Everything dies with
 * the parent (PR_SET_PDEATHSIG) and with SIGTERM.
 *
 * Usage: forker MAIN WORKERS WTHREADS */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void *spin(void *arg)
{
	(void)arg;
	volatile unsigned long x = 0;
	for (;;)
		x++;
	return NULL;
}

static void busy(int n)
{
	for (int i = 1; i < n; i++) {
		pthread_t t;
		pthread_create(&t, NULL, spin, NULL);
	}
	if (n > 0)
		spin(NULL);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	int main_threads = argc > 1 ? atoi(argv[1]) : 1;
	int workers = argc > 2 ? atoi(argv[2]) : 2;
	int wthreads = argc > 3 ? atoi(argv[3]) : 1;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pid_t me = getpid();
	for (int i = 0; i < workers; i++) {
		pid_t p = fork();
		if (p == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != me)
				_exit(0);
			busy(wthreads);
		}
		printf("%d\n", (int)p);
	}
	printf("ready\n");
	fflush(stdout);
	busy(main_threads);
	return 0;
}
