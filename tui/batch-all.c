/* batch-all.c — threadlab --all --batch: every process of the machine,
 * ranked against its budget, one sample per interval (batch-all.h). */
#include "config.h"

#include "batch-all.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "export.h"
#include "face.h"
#include "ranking-out.h"
#include "ranking.h"
#include "stop.h"

static double batch_all_wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int batch_all_run(const struct options *o)
{
	struct ranking k;
	struct export e;
	stop_install(NULL);
	int rc = export_start(&e, o);
	if (rc != EXIT_OK)
		return rc;
	double next = stop_now();
	/* The baseline: the first ranking comes RANKING_FIRST_S later, the
	 * next ones an interval apart. */
	rc = face_ranking_open(o, &k, next);
	if (rc != EXIT_OK) {
		export_stop(&e);
		return rc;
	}
	export_say(&e, o);
	long printed = 0;
	unsigned said = 0;
	for (bool header = true; !stop_signal;) {
		next += header ? RANKING_FIRST_S : o->interval;
		stop_sleep_until(next);
		if (stop_signal)
			break;
		double now = stop_now();
		if (!face_ranking_tick(&k, now, &said))
			continue;
		export_ranking(&e, &k);
		struct face_out fo;
		ranking_out(face_out_begin(&fo), o->format, &k, batch_all_wall(), (size_t)o->top,
			    header);
		header = false;
		if (!face_out_end(&fo, &rc))
			break;
		if (o->count && ++printed >= o->count)
			break;
		/* A tick read late pushes the next one back. */
		if (next < now)
			next = now;
	}
	ranking_free(&k);
	export_stop(&e);
	return rc;
}
