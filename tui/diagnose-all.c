/* diagnose-all.c — threadlab --diagnose --all: the machine's verdict and its
 * ranked offenders over one window (diagnose.h).
 *
 * The ranking is sampled twice: once at the start (the baseline) and once
 * after --seconds, so every figure is that whole window's mean; a process
 * started inside the window has no baseline and is not judged. */
#include "config.h"

#include "diagnose.h"
#include "diagnose-all.h"

#include <stdio.h>

#include "face.h"
#include "ranking-out.h"
#include "ranking.h"
#include "stop.h"

int diagnose_all_run(const struct options *o)
{
	double seconds = o->seconds_set ? o->seconds : OPTIONS_DIAGNOSE_SECONDS_DEFAULT;
	char err[512];
	struct ranking k;
	stop_install(NULL);
	double t0 = stop_now();
	int rc = ranking_open(&k, o->root, o->kernel_threads, t0, err, sizeof(err));
	if (rc < 0) {
		face_say(err);
		return EXIT_USAGE;
	}
	stop_sleep_until(t0 + seconds);
	unsigned said = 0;
	if (stop_signal || !face_ranking_tick(&k, stop_now(), &said)) {
		face_say("interrupted before the window ended");
		ranking_free(&k);
		return EXIT_USAGE;
	}
	ranking_out_diagnosis(stdout, o->format, &k, (size_t)o->top);
	rc = ranking_problem(&k) ? 1 : 0;
	ranking_free(&k);
	return diagnose_flushed(rc);
}
