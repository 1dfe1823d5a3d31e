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
	while (!stop_signal) {
		double left = t - batch_now();
		if (left <= 0)
			return;
		struct timespec ts = {(time_t)left, (long)((left - floor(left)) * 1e9)};
		if (nanosleep(&ts, NULL) == 0)
			return;
	}
}

/* A failure the session reported (a quota refused, a helper restarted, a
 * stream that failed) goes to stderr once; other news is the dashboard's. */
static void batch_news(const struct session *s, unsigned *seen)
{
	if (s->message_seq == *seen)
		return;
	*seen = s->message_seq;
	if (!s->message_bad || !s->message[0])
		return;
	char safe[3 * SESSION_MESSAGE_LEN];
	text_safe(s->message, strlen(s->message), safe, sizeof(safe));
	fprintf(stderr, "threadlab: %s\n", safe);
}

int batch_run(const struct options *o)
{
	struct session s;
	struct session_config c;
	char err[512];
	options_session_config(o, &c);
	stop_install(NULL);
	int rc = session_start(&s, &c, err, sizeof(err));
	if (rc != EXIT_OK) {
		fprintf(stderr, "threadlab: %s\n", err);
		session_stop(&s);
		return rc;
	}
	unsigned seen = 0;
	batch_news(&s, &seen);

	long printed = 0;
	bool header = true;
	double next = batch_now() + o->interval;
	rc = EXIT_OK;
	while (!stop_signal) {
		batch_sleep_until(next);
		if (stop_signal)
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
	struct budget b;
	char err[512];
	int rc = session_budget(o->root, o->pid, &b, err, sizeof(err));
	if (rc != EXIT_OK) {
		fprintf(stderr, "threadlab: %s\n", err);
		return rc;
	}
	report_budget(stdout, o->format, o->pid, &b);
	return fflush(stdout) == EOF ? EXIT_RUNTIME : EXIT_OK;
}
