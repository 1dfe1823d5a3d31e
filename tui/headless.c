/* headless.c — --headless (headless.h). */
#include "config.h"

#include "headless.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "face.h"
#include "fleet.h"
#include "ranking.h"
#include "record.h"
#include "session.h"

/* Sleeps until the next sample is due (next + interval; from now after a
 * tick that took longer than an interval: no burst to catch up) and
 * returns its time. */
static double headless_next(double next, double interval)
{
	next += interval;
	if (next < stop_now())
		next = stop_now() + interval;
	stop_sleep_until(next);
	return next;
}

/* --match: every matching process, each with a session of its own. */
static int headless_fleet(const struct options *o, struct export *e)
{
	struct session_config c;
	struct fleet f;
	char err[512];
	options_session_config(o, &c);
	int rc = fleet_start(&f, &c, o->match, err, sizeof(err));
	if (rc != EXIT_OK) {
		face_say(err);
		fleet_stop(&f);
		return rc;
	}
	export_say(e, o);
	struct metrics_target *t = NULL;
	size_t cap = 0;
	for (double next = stop_now(); !stop_signal; next = headless_next(next, o->interval)) {
		fleet_tick(&f);
		if (f.n > cap) {
			cap = f.n;
			t = realloc(t, cap * sizeof(*t));
			if (!t)
				break;
		}
		for (size_t i = 0; i < f.n; i++)
			t[i] = (struct metrics_target){&f.m[i]->s, "match"};
		export_targets(e, t, f.n);
	}
	free(t);
	fleet_stop(&f);
	return EXIT_OK;
}

/* --all: the machine's ranking, published each interval. */
static int headless_all(const struct options *o, struct export *e)
{
	struct ranking k;
	double next = stop_now();
	int rc = face_ranking_open(o, &k, next);
	if (rc != EXIT_OK)
		return rc;
	export_say(e, o);
	unsigned said = 0;
	while (next = headless_next(next, o->interval), !stop_signal)
		if (face_ranking_tick(&k, stop_now(), &said))
			export_ranking(e, &k);
	ranking_free(&k);
	return EXIT_OK;
}

/* One target. */
static int headless_one(const struct options *o, struct export *e)
{
	struct session s;
	struct record *rec;
	int rc = face_session_start(o, &s, &rec);
	if (rc != EXIT_OK)
		return rc;
	export_say(e, o);
	unsigned seen = 0;
	bool rec_failed = false;
	for (double next = stop_now(); !stop_signal; next = headless_next(next, o->interval)) {
		int tick = session_tick(&s);
		face_say_news(&s, &seen);
		if (tick < 0) {
			face_say_ended(&s);
			break;
		}
		export_session(e, &s);
		if (s.have_rates && !face_record_sample(&rec, o, &s, NULL, 0))
			rec_failed = true;
	}
	if (!face_session_end(&s, rec, o))
		rec_failed = true;
	return rec_failed ? EXIT_RUNTIME : EXIT_OK;
}

int headless_run(const struct options *o)
{
	struct export e;
	/* Before the target starts: a signal during start-up still cleans up.
	 * The exporter listens before any target (export.h); each way says
	 * so once its targets are found. */
	stop_install(NULL);
	int rc = export_start(&e, o);
	if (rc != EXIT_OK)
		return rc;
	rc = o->all	 ? headless_all(o, &e)
	     : o->match ? headless_fleet(o, &e)
			: headless_one(o, &e);
	export_stop(&e);
	return rc;
}
