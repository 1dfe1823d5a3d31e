/* progress.c — steps and rates from the job's output lines (progress.h). */
#include "config.h"

#include "progress.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int progress_init(struct progress *p, const char *regex, bool rate_mode, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->re = pattern_compile("--progress", regex, err, errlen);
	if (!p->re)
		return -EINVAL;
	p->on = true;
	p->rate_mode = rate_mode;
	p->printed = -1;
	p->rate = -1;
	p->steady_rate = -1;
	return 0;
}

int progress_match_start(struct progress *p, double budget_s)
{
	p->matcher =
	    matcher_start(p->re, progress_match, PROGRESS_QUEUE, PROGRESS_LINE_MAX, budget_s);
	if (!p->matcher) {
		int rc = -errno;
		p->on = false; /* the matcher freed the expression */
		p->re = NULL;
		return rc;
	}
	p->budget_s = budget_s;
	return 0;
}

void progress_free(struct progress *p)
{
	if (p->matcher)
		matcher_stop(p->matcher); /* it owns the expression */
	else if (p->on)
		pattern_free(p->re);
	p->matcher = NULL;
	p->re = NULL;
	p->on = false;
}

/* Adds to the note not yet said (two kinds can come in one read). */
static void progress_say(struct progress *p, const char *text)
{
	size_t o = strlen(p->note);
	snprintf(p->note + o, sizeof(p->note) - o, "%s%s", o ? "; " : "", text);
	p->note_seq++;
}

/* The note, once per kind: the first line of that kind names itself
 * ("'TEXT', ..." after what). */
static void progress_note(struct progress *p, unsigned long *count, const char *what,
			  const char *text, size_t len, const char *why)
{
	char note[PROGRESS_NOTE_LEN];
	if ((*count)++ > 0)
		return;
	snprintf(note, sizeof(note), "%s '%.*s', %s: not counted", what, len > 24 ? 24 : (int)len,
		 text, why);
	progress_say(p, note);
}

/* The number a group captured, validated for its kind (a count or a
 * rate): the one place a number from the job's output enters the model.
 * false when it is not a number (said once) or out of range (said once). */
static bool progress_number(struct progress *p, const char *s, size_t len, double *out)
{
	char buf[64];
	char *end = buf;
	double v = -1;
	if (len > 0 && len < sizeof(buf)) {
		memcpy(buf, s, len);
		buf[len] = '\0';
		v = strtod(buf, &end);
	}
	if (end == buf || isnan(v) || v < 0) {
		progress_note(p, &p->not_number, "--progress: the group captured", s, len,
			      "not a number");
		return false;
	}
	if (v > (p->rate_mode ? PROGRESS_RATE_MAX : PROGRESS_COUNT_MAX)) {
		progress_note(
		    p, &p->out_of_range,
		    p->rate_mode ? "--progress-rate: a rate of" : "--progress: a count of", s, len,
		    p->rate_mode ? "steps/s is out of range (at most 1e9)"
				 : "is out of range (at most 2^53)");
		return false;
	}
	*out = v;
	return true;
}

int progress_match(const struct pattern *re, const char *text, size_t len, struct matcher_result *r)
{
	struct pattern_span m[PATTERN_GROUPS_MAX + 1];
	if (!pattern_match(re, text, len, m, PATTERN_GROUPS_MAX + 1))
		return 0;
	for (int g = 1; g <= pattern_groups(re) && g <= PATTERN_GROUPS_MAX; g++) {
		if (m[g].so < 0)
			continue;
		r->value = g;
		r->len = (size_t)(m[g].eo - m[g].so);
		memcpy(r->text, text + m[g].so,
		       r->len < sizeof(r->text) ? r->len : sizeof(r->text));
		return 1;
	}
	if (pattern_groups(re) > 0) {
		/* a group that took no part: the line names itself */
		r->value = -1;
		r->len = len;
		memcpy(r->text, text, len < sizeof(r->text) ? len : sizeof(r->text));
	}
	return 1;
}

/* A line that matched: a step, a count or a rate from its group. */
static void progress_count(struct progress *p, const struct matcher_result *r)
{
	double v = -1;
	if (r->value < 0) {
		/* Counting it as a line would mix two kinds of count. */
		progress_note(p, &p->no_group, "--progress: the line", r->text, r->len,
			      "matched with no group taking part");
		return;
	}
	if (r->value > 0 && !progress_number(p, r->text, r->len, &v))
		return; /* the group is not a number: not a progress line */
	p->matches++;
	if (r->value == 0) {
		p->count += 1;
	} else if (p->rate_mode) {
		p->printed = v;
	} else {
		/* Far below the last value: a new run (epoch) starts over.  A
		 * little below: lines of threads out of order; not a step. */
		if (v < p->run_last / 2) {
			p->run_base += p->run_last;
			p->run_last = v;
		} else if (v > p->run_last) {
			p->run_last = v;
		}
		p->count = p->run_base + p->run_last;
	}
}

/* A line not matched: late (the matcher reached it after budget_s) or
 * for want of room in its queue; the first of each kind is said. */
static void progress_skip(struct progress *p, bool full)
{
	p->skipped++;
	if (full ? p->skipped_full++ > 0 : p->skipped - p->skipped_full > 1)
		return;
	char note[PROGRESS_NOTE_LEN];
	if (full)
		snprintf(note, sizeof(note),
			 "--progress: lines came faster than they can be matched (the matcher's "
			 "queue was full): those not counted");
	else
		snprintf(note, sizeof(note),
			 "--progress: a line was not matched within %.0f ms (the slowest "
			 "match took %.0f ms): such lines are not counted",
			 p->budget_s * 1e3, p->matcher ? matcher_longest(p->matcher) * 1e3 : 0.0);
	progress_say(p, note);
}

/* A complete line: the last line; NUL-terminated in buf, its length
 * returned (what follows a NUL is neither matched nor shown). */
static size_t progress_last(struct progress *p, const char *line, size_t len, char *buf)
{
	if (len >= PROGRESS_LINE_MAX)
		len = PROGRESS_LINE_MAX - 1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	size_t slen = strlen(buf);
	size_t k = 0;
	while (k < slen && (buf[k] == ' ' || buf[k] == '\t'))
		k++;
	if (k < slen) {
		memcpy(p->last_line, buf, slen + 1);
		p->line_seq++;
	}
	return slen;
}

bool progress_line(struct progress *p, const char *line, size_t len)
{
	char buf[PROGRESS_LINE_MAX];
	size_t slen = progress_last(p, line, len, buf);
	struct matcher_result r = {0};
	if (!progress_match(p->re, buf, slen, &r))
		return false;
	unsigned long before = p->matches;
	progress_count(p, &r);
	return p->matches > before;
}

void progress_collect(struct progress *p)
{
	struct matcher_result r;
	const char *text;
	size_t len;
	char buf[PROGRESS_LINE_MAX];
	while (p->matcher && matcher_take(p->matcher, &r, &text, &len)) {
		/* the last line with its answer: a face never shows a line
		 * whose step is not counted yet */
		progress_last(p, text, len, buf);
		if (r.status == MATCHER_LATE)
			progress_skip(p, false);
		else if (r.status == 1)
			progress_count(p, &r);
	}
}

/* A complete line, matched here or queued for the matcher. */
static void progress_take(struct progress *p, const char *line, size_t len, double now)
{
	if (!p->matcher) {
		progress_line(p, line, len);
		return;
	}
	size_t slen = strnlen(line, len < PROGRESS_LINE_MAX ? len : PROGRESS_LINE_MAX - 1);
	if (matcher_put(p->matcher, 0, line, slen, now) == 0)
		return;
	progress_collect(p); /* the room of answers come back */
	if (matcher_put(p->matcher, 0, line, slen, now) < 0)
		progress_skip(p, true); /* no room: the matcher is far behind */
}

static double progress_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_feed(struct progress *p, const char *buf, size_t len)
{
	double now = progress_clock();
	progress_collect(p); /* room for what comes */
	for (size_t i = 0; i < len; i++) {
		char ch = buf[i];
		if (ch == '\n' || ch == '\r') {
			progress_take(p, p->partial, p->plen, now);
			p->plen = 0;
		} else if (p->plen < sizeof(p->partial) - 1) {
			p->partial[p->plen++] = ch;
		}
	}
	progress_collect(p);
}

void progress_flush(struct progress *p)
{
	if (p->plen)
		progress_take(p, p->partial, p->plen, progress_clock());
	p->plen = 0;
}

bool progress_settle(struct progress *p, double max_s)
{
	double end = progress_clock() + max_s;
	for (;;) {
		progress_collect(p);
		if (!p->matcher || matcher_pending(p->matcher) == 0)
			return true;
		if (progress_clock() >= end)
			return false;
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	}
}

double progress_count_at(const struct progress *p, double t)
{
	if (p->n == 0)
		return 0;
	if (t <= p->t[0])
		return p->c[0];
	for (size_t i = 1; i < p->n; i++)
		if (p->t[i] >= t) {
			double span = p->t[i] - p->t[i - 1];
			double f = span > 0 ? (t - p->t[i - 1]) / span : 1;
			return p->c[i - 1] + f * (p->c[i] - p->c[i - 1]);
		}
	return p->c[p->n - 1];
}

/* Steps per second over the window [from, last point]; < 0 when the
 * points span less than half of it. */
static double progress_rate_over(const struct progress *p, double from, double want)
{
	double last = p->t[p->n - 1];
	if (from < p->t[0])
		from = p->t[0];
	double dt = last - from;
	if (dt < want / 2 || dt <= 0)
		return -1;
	return (p->c[p->n - 1] - progress_count_at(p, from)) / dt;
}

void progress_tick(struct progress *p, double now)
{
	if (!p->on)
		return;
	progress_collect(p);
	if (p->rate_mode && p->printed >= 0 && p->t_last > 0)
		p->count += p->printed * (now - p->t_last);
	p->t_last = now;
	if (p->n == PROGRESS_TICKS) {
		memmove(p->t, p->t + 1, (PROGRESS_TICKS - 1) * sizeof(p->t[0]));
		memmove(p->c, p->c + 1, (PROGRESS_TICKS - 1) * sizeof(p->c[0]));
		p->n--;
	}
	p->t[p->n] = now;
	p->c[p->n] = p->count;
	p->n++;
	/* Steady counts from the first tick that saw a step: start-up before
	 * the job's first line is not part of its rate. */
	if (p->since <= 0 && p->matches > 0)
		p->since = now;
	if (p->since <= 0)
		return;
	p->rate = progress_rate_over(p, now - PROGRESS_RATE_S, PROGRESS_RATE_S);
	double from = now - PROGRESS_STEADY_S;
	p->steady_rate = progress_rate_over(p, from > p->since ? from : p->since, 2.0);
	if (p->nhist == HISTORY_POINTS) {
		memmove(p->hist, p->hist + 1, (HISTORY_POINTS - 1) * sizeof(p->hist[0]));
		p->nhist--;
	}
	p->hist[p->nhist++] = p->rate > 0 ? p->rate : 0;
}

void progress_restart(struct progress *p)
{
	p->since = 0;
	p->steady_rate = -1;
}
