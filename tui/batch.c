/* batch.c — samples on stdout, one per interval, no terminal needed; and a
 * recording converted to text, CSV or JSON Lines. */
#include "config.h"

#include "batch.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export.h"
#include "face.h"
#include "record.h"
#include "report.h"
#include "session.h"
#include "session-progress.h"
#include "text-safe.h"

static const struct diagnosis *batch_diag(const struct session *s)
{
	return s->have_diag ? &s->diag : NULL;
}

/* The sample as one JSON line, formatted once for stdout and the
 * recording (batch --format json --record). */
struct batch_line {
	FILE *f;
	char *buf;
	size_t len;
};

/* Prints the current sample (line: already formatted); false when stdout
 * failed (the status set). */
static bool batch_print(const struct options *o, struct session *s, bool header, int *rc,
			const struct batch_line *line)
{
	struct face_out fo;
	FILE *f = face_out_begin(&fo);
	if (line)
		fwrite(line->buf, 1, line->len, f);
	else
		report_sample_progress(f, o->format, &s->model,
				       s->kind == SESSION_LAB ? &s->work : NULL, batch_diag(s),
				       &s->progress, header);
	return face_out_end(&fo, rc);
}

/* Sleeps until next; the job's output (--progress) is read every 100 ms
 * meanwhile, so a chatty job never blocks on a full pipe. */
static void batch_wait(struct session *s, double next)
{
	while (session_progress_output_fd(s) >= 0 && !stop_signal && stop_now() + 0.1 < next) {
		stop_sleep_until(stop_now() + 0.1);
		session_progress_drain_output(s);
	}
	stop_sleep_until(next);
}

static int batch_replay(const struct options *o, struct session *s)
{
	unsigned seen = 0;
	int rc = EXIT_OK;
	long printed = 0;
	face_say_news(s, &seen);
	for (bool header = true; !stop_signal; header = false) {
		if (!batch_print(o, s, header, &rc, NULL))
			break;
		if (o->count && ++printed >= o->count)
			break;
		int t = session_tick(s);
		face_say_news(s, &seen);
		if (t < 0)
			break;
	}
	if (s->replay_skipped > 1)
		fprintf(stderr, "threadlab: %u lines of %s did not read and were skipped\n",
			s->replay_skipped, o->replay);
	return rc;
}

int batch_run(const struct options *o)
{
	struct session s;
	struct record *rec = NULL;
	struct export e;
	stop_install(NULL);
	/* The exporter first: a port in use ends the run before a command
	 * is started or a recording opened (export.h). */
	int rc = export_start(&e, o);
	if (rc != EXIT_OK)
		return rc;
	rc = face_session_start(o, &s, o->replay ? NULL : &rec);
	if (rc != EXIT_OK) {
		export_stop(&e);
		return rc;
	}
	if (o->replay) {
		rc = batch_replay(o, &s);
		session_stop(&s);
		export_stop(&e);
		return rc;
	}
	export_say(&e, o);
	unsigned seen = 0;
	face_say_news(&s, &seen);
	struct batch_line one = {0};
	if (rec && o->format == FORMAT_JSON)
		one.f = open_memstream(&one.buf, &one.len);

	long printed = 0;
	bool header = true, rec_failed = false;
	double next = stop_now() + o->interval;
	rc = EXIT_OK;
	while (!stop_signal) {
		batch_wait(&s, next);
		if (stop_signal)
			break;
		int tick = session_tick(&s);
		face_say_news(&s, &seen);
		if (tick < 0) {
			face_say_ended(&s);
			/* The lab never ends unless asked: that is a failure. */
			if (s.kind == SESSION_LAB)
				rc = EXIT_RUNTIME;
			break;
		}
		export_session(&e, &s);
		const struct batch_line *line = NULL;
		if (one.f && rec) {
			rewind(one.f);
			report_sample_progress(one.f, FORMAT_JSON, &s.model,
					       s.kind == SESSION_LAB ? &s.work : NULL,
					       batch_diag(&s), &s.progress, false);
			if (fflush(one.f) == 0)
				line = &one;
		}
		if (!face_record_sample(&rec, o, &s, line ? line->buf : NULL, line ? line->len : 0))
			rec_failed = true;
		if (!batch_print(o, &s, header, &rc, line))
			break;
		header = false;
		if (o->count && ++printed >= o->count)
			break;
		/* The interval is a floor: a sample read late pushes the next
		 * one back rather than making the next interval shorter. */
		next += o->interval;
		if (next < s.model.time + o->interval)
			next = s.model.time + o->interval;
		double now = stop_now();
		if (next < now)
			next = now + o->interval;
	}
	if (one.f)
		fclose(one.f);
	free(one.buf);
	export_stop(&e);
	if (!face_session_end(&s, rec, o))
		rec_failed = true;
	if (rec_failed && rc == EXIT_OK)
		rc = EXIT_RUNTIME;
	return rc;
}

int batch_budget(const struct options *o)
{
	struct model_budget b;
	char err[512];
	int rc = session_budget(o->root, o->pid, &b, err, sizeof(err));
	if (rc != EXIT_OK) {
		fprintf(stderr, "threadlab: %s\n", err);
		return rc;
	}
	report_budget(stdout, o->format, o->pid, &b);
	return fflush(stdout) == EOF ? EXIT_RUNTIME : EXIT_OK;
}
