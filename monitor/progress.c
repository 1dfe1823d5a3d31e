/* progress.c — steps and rates from the job's output lines (progress.h). */
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

void progress_free(struct progress *p)
{
	if (p->on)
		pattern_free(p->re);
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

bool progress_line(struct progress *p, const char *line, size_t len)
{
	char buf[PROGRESS_LINE_MAX];
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	/* What follows a NUL is not matched (nor shown). */
	size_t slen = strlen(buf);
	size_t k = 0;
	while (k < slen && (buf[k] == ' ' || buf[k] == '\t'))
		k++;
	if (k < slen) {
		memcpy(p->last_line, buf, slen + 1);
		p->line_seq++;
	}
	struct pattern_span m[PATTERN_GROUPS_MAX + 1];
	if (!pattern_match(p->re, buf, slen, m, PATTERN_GROUPS_MAX + 1))
		return false;
	double v = -1;
	bool grouped = false;
	for (int g = 1; g <= pattern_groups(p->re) && g <= PATTERN_GROUPS_MAX; g++) {
		if (m[g].so < 0)
			continue;
		grouped = true;
		if (!progress_number(p, buf + m[g].so, (size_t)(m[g].eo - m[g].so), &v))
			v = -1;
		break;
	}
	if (grouped && v < 0)
		return false; /* the group is not a number: not a progress line */
	p->matches++;
	if (!grouped) {
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
	return true;
}

static double progress_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_feed(struct progress *p, const char *buf, size_t len)
{
	double end = p->budget_s > 0 ? progress_clock() + p->budget_s : 0;
	bool over = false;
	for (size_t i = 0; i < len; i++) {
		char ch = buf[i];
		if (ch == '\n' || ch == '\r') {
			over = over || (end > 0 && progress_clock() > end);
			if (!over) {
				progress_line(p, p->partial, p->plen);
			} else if (p->skipped++ == 0) {
				char note[PROGRESS_NOTE_LEN];
				snprintf(note, sizeof(note),
					 "--progress: lines came faster than they match (%.0f ms a "
					 "read): the rest not counted",
					 p->budget_s * 1e3);
				progress_say(p, note);
			}
			p->plen = 0;
		} else if (p->plen < sizeof(p->partial) - 1) {
			p->partial[p->plen++] = ch;
		}
	}
}

void progress_flush(struct progress *p)
{
	if (p->plen)
		progress_line(p, p->partial, p->plen);
	p->plen = 0;
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
