/* omp-steps.c — a job with a known progress rate, for the --progress and
 * command-sweep tests: OpenMP threads (OMP_NUM_THREADS) each doing fixed
 * chunks of arithmetic, every chunk one step, so the rate grows with the
 * threads up to the CPUs.  Built with -fopenmp.
 *
 *   omp-steps [SECONDS] [MODE]   (SECONDS 0: until stopped)
 *   MODE "lines" (default): "step N" per step, N cumulative
 *        "tqdm": tqdm's "\r 45/1000 [..., 40.00it/s]" updates, no newline
 *        "quiet": progress lines that do not match 'step'
 *        "noterm": as lines, but SIGTERM is ignored
 *        "fork": forks a grandchild that keeps printing, then exits
 *        "setsid": as fork, but the grandchild leaves the process group
 *        "hostile": a line with escape sequences and invalid UTF-8, 10 a second
 *
 * With OMP_STEPS_PIDS=FILE set, every process of it (the forked grandchild
 * too) appends its PID to FILE: the tests find what is left of their own
 * runs by PID, never by name.
 *
 * With OMP_STEPS_PACE=N set (steps per second), one thread prints the same
 * lines at that pace, each step waiting for its time instead of computing:
 * for the tests of how lines are read and commands stopped, which need a
 * steady rate and no CPU.  The steps keep to deadlines, so a late wake-up
 * catches up, by at most 0.1 s: a process starved for seconds goes on from
 * where it is, it does not print seconds of steps at once. */
#define _GNU_SOURCE
#include <errno.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double chunk(void)
{
	volatile double x = 0;
	for (int i = 0; i < 400000; i++)
		x += i * 1e-9;
	return x;
}

static void note_pid(void)
{
	const char *f = getenv("OMP_STEPS_PIDS");
	FILE *o = f && *f ? fopen(f, "a") : NULL;
	if (o) {
		fprintf(o, "%ld\n", (long)getpid());
		fclose(o);
	}
}

static void step_line(const char *mode, long count, double dt)
{
	if (strcmp(mode, "tqdm") == 0)
		printf("\r%3ld%%|#####     | %ld/100000 [00:%02d<00:10, %.2fit/s]", count / 1000,
		       count, (int)dt, count / (dt > 0 ? dt : 1));
	else if (strcmp(mode, "quiet") == 0)
		printf("working %ld\n", count);
	else
		printf("step %ld\n", count);
	fflush(stdout);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* OMP_STEPS_PACE: the steps at pace a second from start, each at its
 * deadline; one more than 0.1 s late moves the deadlines after it. */
static void run_paced(double secs, const char *mode, double pace)
{
	double start = now_s(), due = start;
	for (long count = 1;; count++) {
		due += 1 / pace;
		double now = now_s();
		if (now - due > 0.1)
			due = now;
		if (secs > 0 && due - start >= secs)
			return;
		struct timespec ts = {(time_t)due, (long)((due - (double)(time_t)due) * 1e9)};
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		step_line(mode, count, now_s() - start);
	}
}

static void run(double secs, const char *mode)
{
	const char *pace = getenv("OMP_STEPS_PACE");
	if (pace && atof(pace) > 0) {
		run_paced(secs, mode, atof(pace));
		return;
	}
	long count = 0;
	double t0 = omp_get_wtime();
#pragma omp parallel
	{
		while (secs <= 0 || omp_get_wtime() - t0 < secs) {
			chunk();
#pragma omp critical
			{
				count++;
				step_line(mode, count, omp_get_wtime() - t0);
			}
		}
	}
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0;
	const char *mode = argc > 2 ? argv[2] : "lines";
	note_pid();
	if (strcmp(mode, "noterm") == 0)
		signal(SIGTERM, SIG_IGN);
	double t0 = omp_get_wtime();
	while (strcmp(mode, "hostile") == 0 && (secs <= 0 || omp_get_wtime() - t0 < secs)) {
		printf("hostile \033[31mred\033]0;title\007 \x9b"
		       "2J \xff\xfe end\n");
		fflush(stdout);
		nanosleep(&(struct timespec){0, 100000000}, NULL);
	}
	if (strcmp(mode, "fork") == 0 || strcmp(mode, "setsid") == 0) {
		if (fork() == 0) {
			if (strcmp(mode, "setsid") == 0)
				setsid();
			note_pid();
			run(secs, "lines");
			return 0;
		}
		printf("parent leaves\n");
		return 0;
	}
	run(secs, mode);
	return 0;
}
