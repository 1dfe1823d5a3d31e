/* batch.c — samples on stdout, one per interval, no terminal needed. */
#include "config.h"

#include "batch.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "session.h"
#include "text-safe.h"

static double batch_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Sleeps until the monotonic time t, or until a stop signal arrives. */
static void batch_sleep_until(double t)
{
	while (!session_stop_signal) {
		double left = t - batch_now();
		if (left <= 0)
			return;
		struct timespec ts = {(time_t)left, (long)((left - floor(left)) * 1e9)};
		if (nanosleep(&ts, NULL) == 0)
			return;
	}
}

int batch_run(const struct options *o)
{
	struct session s;
	char err[512];
	session_signals_install(NULL);
	int rc = session_start(&s, o, err, sizeof(err));
	if (rc != EXIT_OK) {
		fprintf(stderr, "threadlab: %s\n", err);
		session_stop(&s);
		return rc;
	}
	if (s.lab && s.lab_status.quota_error[0]) {
		char safe[3 * sizeof(s.lab_status.quota_error)];
		text_safe(s.lab_status.quota_error, strlen(s.lab_status.quota_error), safe,
			  sizeof(safe));
		fprintf(stderr, "threadlab: %s\n", safe);
	}

	long printed = 0;
	bool header = true;
	double next = batch_now() + o->interval;
	rc = EXIT_OK;
	while (!session_stop_signal) {
		batch_sleep_until(next);
		if (session_stop_signal)
			break;
		if (session_tick(&s) < 0) {
			char st[128];
			if (s.kind == SESSION_LAUNCH)
				fprintf(stderr, "threadlab: the command %s\n",
					session_child_status(&s, st, sizeof(st)));
			else
				fprintf(stderr, "threadlab: process %d exited\n", (int)s.target);
			break;
		}
		report_sample(stdout, o->format, &s.cur, &s.rates,
			      s.kind == SESSION_LAB ? &s.work : NULL, header);
		header = false;
		if (fflush(stdout) == EOF || ferror(stdout)) {
			/* The reader went away (a closed pipe): stop quietly. */
			if (errno != EPIPE) {
				fprintf(stderr, "threadlab: cannot write the output: %s\n",
					strerror(errno));
				rc = EXIT_RUNTIME;
			}
			break;
		}
		if (o->count && ++printed >= o->count)
			break;
		next += o->interval;
		double now = batch_now();
		if (next < now)
			next = now + o->interval;
	}
	session_stop(&s);
	return rc;
}

int batch_budget(const struct options *o)
{
	struct sysroot root;
	struct budget b;
	int rc = sysroot_open(&root, o->root);
	if (rc < 0) {
		fprintf(stderr, "threadlab: cannot open root directory '%s': %s\n", o->root,
			strerror(-rc));
		return EXIT_USAGE;
	}
	rc = budget_read(&root, o->pid, &b);
	sysroot_close(&root);
	if (rc == -ESRCH) {
		fprintf(stderr, "threadlab: no process with PID %d\n", (int)o->pid);
		return EXIT_USAGE;
	} else if (rc < 0) {
		fprintf(stderr, "threadlab: cannot read the CPU budget of %s %d: %s\n",
			o->pid ? "process" : "this process", (int)o->pid, strerror(-rc));
		return EXIT_USAGE;
	}
	report_budget(stdout, o->format, o->pid, &b);
	return fflush(stdout) == EOF ? EXIT_RUNTIME : EXIT_OK;
}
