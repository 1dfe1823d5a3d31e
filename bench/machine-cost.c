/* machine-cost.c — what one read of the whole machine costs
 * (collectors/machine.h): the CPU time of machine_sample() per call, and
 * the files it reads, on this machine as it is and with PROCS extra
 * sleeping processes of THREADS threads each that the benchmark starts.
 *
 *   bench/machine-cost [-n CALLS] [-p PROCS] [-t THREADS] [-i SECONDS]
 *
 * Calls are SECONDS apart (default 1, the diagnosis's cadence).  Prints
 * figures; asserts nothing. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "machine.h"
#include "sysroot.h"

static double clock_s(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* A process of threads sleeping threads that dies with us. */
static pid_t spawn(int threads)
{
	pid_t p = fork();
	if (p != 0)
		return p;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (int i = 1; i < threads; i++) {
		pthread_t t;
		pthread_create(&t, NULL, sleeper, NULL);
	}
	sleeper(NULL);
	_exit(0);
}

int main(int argc, char **argv)
{
	int calls = 10, procs = 0, threads = 1;
	double gap = 1.0;
	for (int c; (c = getopt(argc, argv, "n:p:t:i:")) != -1;) {
		if (c == 'n')
			calls = atoi(optarg);
		else if (c == 'p')
			procs = atoi(optarg);
		else if (c == 't')
			threads = atoi(optarg);
		else if (c == 'i')
			gap = atof(optarg);
		else
			return 2;
	}
	pid_t *kids = calloc((size_t)procs + 1, sizeof(*kids));
	for (int i = 0; i < procs; i++)
		kids[i] = spawn(threads);
	sleep(procs ? 2 : 0);
	struct sysroot r;
	if (sysroot_open(&r, "/") < 0)
		return 1;
	struct machine_sampler *m = machine_sampler_new(&r);
	struct machine_sample s;
	machine_sample_init(&s);
	machine_sample(m, clock_s(CLOCK_MONOTONIC), &s); /* the baseline */
	double cpu = 0, worst = 0;
	uint64_t reads0 = machine_sampler_reads(m);
	for (int i = 0; i < calls; i++) {
		usleep((useconds_t)(gap * 1e6));
		double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
		machine_sample(m, clock_s(CLOCK_MONOTONIC), &s);
		double dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
		cpu += dc;
		worst = dc > worst ? dc : worst;
	}
	printf("%zu processes, %zu threads read; %d calls %.2f s apart: %.2f ms of CPU a call "
	       "(worst %.2f ms), %.0f files a call; %.3f %% of a core at that cadence\n",
	       s.n, s.nthreads, calls, gap, 1e3 * cpu / calls, 1e3 * worst,
	       (double)(machine_sampler_reads(m) - reads0) / calls, 100 * cpu / calls / gap);
	machine_sample_free(&s);
	machine_sampler_free(m);
	sysroot_close(&r);
	for (int i = 0; i < procs; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	free(kids);
	return 0;
}
