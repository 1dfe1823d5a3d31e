/* session-replay.c — a session whose source is a recording.
 *
 * The recorded samples are the model already (recording.h turns each line
 * back into a snapshot, its rates and the workload's report), so a replayed
 * session fills the same fields a live one does and every face works on it
 * unchanged.  What a live session accumulates tick by tick — the lab view's
 * history and chart — is rebuilt on a seek from the samples before it; the
 * few figures that takes are kept per sample, so seeking again is cheap.
 * Lines that do not read are skipped, and the first one is reported. */
#include "config.h"

#include "session-replay-impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings-lab.h"
#include "xalloc.h"
#include "recording-parse.h"
#include "session-replay.h"

/* Points of history a seek rebuilds (a screen shows fewer): each costs a
 * line read when it was not read before. */
#define SESSION_REPLAY_HISTORY 120

/* What labview_note() needs of one sample, kept once read. */
struct session_replay_note {
	float gflops, steady, steady_s, interval, effective;
	float runnable, cpu, wait, throttled; /* the history's point */
	int threads, streams, size, workers;
	unsigned char precision, paused;
	unsigned char state; /* 0 not read yet, 1 read (lab), 2 did not read, 3 read (no lab) */
};

static void session_replay_bad(struct session *s, const char *why)
{
	if (s->replay_skipped++ == 0) {
		snprintf(s->message, sizeof(s->message), "%.230s (skipped)", why);
		s->message_bad = true;
		s->message_seq++;
	}
}

static void session_replay_remember(struct session *s, size_t i)
{
	struct session_replay_note *n = &s->impl->replay_notes[i];
	const struct recording_sample *r = &s->impl->rs;
	n->runnable =
	    (float)(r->has_diag ? r->diag.runnable_mean : diagnosis_runnable_mean(&r->rates));
	n->cpu = (float)(r->rates.total_cpu_pct / 100.0);
	n->wait = (float)(r->rates.total_wait_pct / 100.0);
	n->throttled = (float)(r->rates.throttle.valid ? r->rates.throttle.throttled_pct : 0);
	n->effective = (float)r->snap.budget.effective;
	if (!r->has_workload) {
		n->state = 3; /* read, no workload */
		return;
	}
	n->state = 1;
	n->gflops = (float)r->work.gflops;
	n->steady = (float)r->work.steady_gflops;
	n->steady_s = (float)r->work.steady_seconds;
	n->interval = (float)r->work.interval;
	n->effective = (float)r->snap.budget.effective;
	n->threads = r->work.threads;
	n->streams = r->work.streams;
	n->size = r->work.size;
	n->workers = r->work.workers;
	n->precision = r->status.settings.precision == CTL_DOUBLE;
	n->paused = r->work.paused;
}

/* Reads sample i into s->impl->rs.  0, or -EINVAL (reported, skipped). */
static int session_replay_read(struct session *s, size_t i)
{
	char err[512];
	int rc = recording_read(s->impl->rec, i, &s->impl->rs, err, sizeof(err));
	if (rc == -EINVAL) {
		session_replay_bad(s, err);
		s->impl->replay_notes[i].state = 2;
		return rc;
	}
	if (rc == 0)
		session_replay_remember(s, i);
	return rc;
}

/* The sample in s->impl->rs becomes the session's current one. */
static void session_replay_show(struct session *s, long i)
{
	const struct recording_sample *r = &s->impl->rs;
	snapshot_free(&s->impl->cur);
	s->impl->cur = r->snap; /* no threads: nothing owned */
	s->impl->cur.threads.v = NULL;
	s->impl->cur.threads.n = s->impl->cur.threads.cap = 0;
	s->impl->rates.threads =
	    xreallocarray_grow(s->impl->rates.threads, &s->impl->rates.cap, r->rates.nthreads,
			       sizeof(*s->impl->rates.threads));
	struct thread_rate *keep = s->impl->rates.threads;
	size_t cap = s->impl->rates.cap;
	struct lat_hist *lat = s->impl->rates.lat;
	size_t lat_cap = s->impl->rates.lat_cap;
	s->impl->rates = r->rates;
	s->impl->rates.threads = keep;
	s->impl->rates.cap = cap;
	if (r->rates.nthreads)
		memcpy(keep, r->rates.threads, r->rates.nthreads * sizeof(*keep));
	if (r->rates.nlat) {
		lat = xreallocarray_grow(lat, &lat_cap, r->rates.nlat, sizeof(*lat));
		memcpy(lat, r->rates.lat, r->rates.nlat * sizeof(*lat));
	}
	s->impl->rates.lat = lat;
	s->impl->rates.lat_cap = lat_cap;
	s->have_rates = true;
	s->have_diag = r->has_diag;
	if (r->has_diag)
		s->diag = r->diag;
	s->runnable_mean =
	    r->has_diag ? r->diag.runnable_mean : diagnosis_runnable_mean(&s->impl->rates);
	if (r->has_workload) {
		s->work = r->work;
		s->impl->lab_status = r->status;
		settings_from_lab(&r->status.settings, &s->want);
	}
	s->replay_pos = i;
	model_sample_fill(&s->model, &s->impl->cur, &s->impl->rates, true);
}

/* One sample's figures back into the lab view, as labview_feed() gave
 * them when it was recorded. */
static void session_replay_note(struct session *s, size_t i)
{
	const struct session_replay_note *n = &s->impl->replay_notes[i];
	struct workload_report w;
	if (n->state == 1 || n->state == 3)
		history_push(&s->history, n->runnable, n->cpu, n->wait, n->throttled, n->effective);
	if (n->state != 1)
		return;
	memset(&w, 0, sizeof(w));
	w.gflops = n->gflops;
	w.steady_gflops = n->steady;
	w.steady_seconds = n->steady_s;
	w.interval = n->interval;
	w.threads = n->threads;
	w.streams = n->streams;
	w.size = n->size;
	w.workers = n->workers;
	w.precision = n->precision ? "double" : "single";
	w.paused = n->paused;
	labview_note(&s->view, &w, n->effective);
}

int session_replay_start(struct session *s, char *err, size_t errlen)
{
	s->impl->rec = recording_open(s->cfg.replay, err, errlen);
	if (!s->impl->rec)
		return EXIT_USAGE;
	const struct recording_header *h = recording_header(s->impl->rec);
	s->replay_count = (long)recording_count(s->impl->rec);
	s->impl->replay_notes = xcalloc((size_t)s->replay_count, sizeof(*s->impl->replay_notes));
	recording_parse_sample_init(&s->impl->rs);
	labview_init(&s->view);
	const char *note = recording_note(s->impl->rec);
	if (note[0]) {
		snprintf(s->message, sizeof(s->message), "%s: %s", s->cfg.replay, note);
		s->message_bad = true;
		s->message_seq++;
	}
	long first = 0;
	while (first < s->replay_count && session_replay_read(s, (size_t)first) < 0)
		first++;
	if (first == s->replay_count) {
		snprintf(err, errlen, "%s: no sample reads (%s)", s->cfg.replay, s->message);
		return EXIT_USAGE;
	}
	if (strcmp(h->mode, "lab") == 0 || strcmp(h->mode, "sweep") == 0 ||
	    (!h->present && s->impl->rs.has_workload))
		s->kind = SESSION_LAB;
	else if (strcmp(h->mode, "command") == 0)
		s->kind = SESSION_LAUNCH;
	else
		s->kind = SESSION_ATTACH;
	s->target = h->pid;
	if (!s->target && s->impl->rs.rates.nthreads)
		s->target = s->impl->rs.rates.threads[0].pid;
	s->tree = h->tree;
	snprintf(s->impl->replay_target, sizeof(s->impl->replay_target), "%s", h->target);
	session_replay_show(s, first);
	session_replay_note(s, (size_t)first);
	return EXIT_OK;
}

int session_replay_tick(struct session *s)
{
	for (long i = s->replay_pos + 1; i < s->replay_count; i++) {
		if (session_replay_read(s, (size_t)i) < 0)
			continue;
		session_replay_show(s, i);
		session_replay_note(s, (size_t)i);
		s->impl->replay_end = false;
		return 0;
	}
	s->impl->replay_end = true;
	return -ENODATA;
}

/* The nearest sample from i on in step's direction that reads, or -1. */
static long session_replay_readable(struct session *s, long i, long step)
{
	for (; i >= 0 && i < s->replay_count; i += step)
		if (session_replay_read(s, (size_t)i) == 0)
			return i;
	return -1;
}

long session_replay_seek(struct session *s, long i, int dir)
{
	if (!s->impl->rec)
		return -ENOTSUP;
	i = i < 0 ? 0 : i >= s->replay_count ? s->replay_count - 1 : i;
	long step = dir < 0 ? -1 : 1;
	long at = session_replay_readable(s, i, step);
	if (at < 0)
		at = session_replay_readable(s, i - step, -step);
	if (at < 0)
		return s->replay_pos;
	/* The view as it stood: every sample up to at, from the notes (read
	 * now where they were not yet). */
	struct recording_sample shown = s->impl->rs;
	recording_parse_sample_init(&s->impl->rs);
	labview_init(&s->view);
	history_init(&s->history);
	/* The lab view needs every sample before (its chart); the history
	 * only its last points. */
	long from = shown.has_workload ? 0 : at - SESSION_REPLAY_HISTORY + 1;
	for (long k = from < 0 ? 0 : from; k <= at; k++) {
		if (s->impl->replay_notes[k].state == 0)
			session_replay_read(s, (size_t)k);
		session_replay_note(s, (size_t)k);
	}
	recording_parse_sample_free(&s->impl->rs);
	s->impl->rs = shown;
	session_replay_show(s, at);
	s->impl->replay_end = false;
	return at;
}

void session_replay_stop(struct session *s)
{
	recording_close(s->impl->rec);
	s->impl->rec = NULL;
	recording_parse_sample_free(&s->impl->rs);
	free(s->impl->replay_notes);
	s->impl->replay_notes = NULL;
}
