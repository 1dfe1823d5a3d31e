/* tour-face.c — the guided tour in batch mode (tour-face.h).
 *
 * One lab session sampled every TOUR_TICK_S; the tour moves on after each
 * tick and every finished step is printed at once.  Captions are held for
 * no time: the next step begins as soon as one is measured. */
#include "config.h"

#include "tour-face.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "face.h"
#include "stop.h"
#include "tour-out.h"
#include "tour.h"
#include "xalloc.h"

#define TOUR_TICK_S 0.25

static double tour_face_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void tour_face_sleep(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (!stop_signal && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int tour_face_batch(const struct options *o)
{
	char err[512];
	struct session s;
	struct session_config c;
	options_session_config(o, &c);
	c.diag_window = 0;
	stop_install(NULL);
	int rc = session_start(&s, &c, err, sizeof(err));
	if (rc != EXIT_OK) {
		session_stop(&s);
		face_say(err);
		return rc;
	}
	struct tour *t = xcalloc(1, sizeof(*t));
	unsigned seen = s.message_seq;
	tour_start(t, &s, o->tour_step, 0, tour_face_now());
	rc = EXIT_OK;
	while (!stop_signal && tour_running(t)) {
		tour_face_sleep(TOUR_TICK_S);
		if (stop_signal)
			break;
		if (session_tick(&s) < 0) {
			face_say("the lab workload has gone");
			rc = EXIT_RUNTIME;
			break;
		}
		if (s.message_seq != seen) {
			seen = s.message_seq;
			if (s.message_bad && s.message[0])
				face_say(s.message);
		}
		size_t cur = t->cur;
		if (!tour_tick(t, &s, tour_face_now()))
			continue;
		int w = tour_out_step(stdout, o->format, t, cur);
		if (w == -EPIPE)
			break;
		if (w < 0) {
			fprintf(stderr, "threadlab: cannot write the output: %s\n",
				strerror(errno));
			rc = EXIT_RUNTIME;
			break;
		}
		if (t->step[cur].failed && s.work.error[0])
			rc = EXIT_RUNTIME;
		/* Held for no time: the next step begins with this tick. */
		tour_tick(t, &s, tour_face_now());
	}
	tour_stop(t, &s);
	free(t);
	session_stop(&s);
	return rc;
}
