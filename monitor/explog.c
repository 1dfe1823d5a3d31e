/* explog.c — experiment-log rows and their comparisons (explog.h). */
#include "explog.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "environment-impl.h"
#include "knobs.h"
#include "session-impl.h"
#include "sweep-cmd.h"

size_t explog_lab_knobs(const struct settings *s, struct explog_knob *out, size_t cap)
{
	size_t n = 0;
	/* The knob table's logged knobs, in its order: a knob is one entry. */
	for (int k = KNOB_NONE + 1; k < KNOB_COUNT && n < cap; k++) {
		const struct knob *e = knobs_get((enum knob_id)k);
		if (!(e->flags & KNOB_LOGGED))
			continue;
		snprintf(out[n].name, sizeof(out[n].name), "%s", e->name);
		knobs_format(s, (enum knob_id)k, out[n].value, sizeof(out[n].value));
		n++;
	}
	return n;
}

size_t explog_env_knobs(const struct diagnosis *d, struct explog_knob *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < d->nenv && n < cap; i++) {
		if (!d->env[i].set)
			continue; /* unset on one side only still counts as a change */
		snprintf(out[n].name, sizeof(out[n].name), "%s", d->env[i].name);
		snprintf(out[n].value, sizeof(out[n].value), "%s", d->env[i].value);
		n++;
	}
	return n;
}

struct explog_row *explog_add(struct explog *l, const struct explog_row *row)
{
	if (l->n == EXPLOG_ROWS) {
		/* The baseline stays: the second row goes. */
		memmove(&l->row[1], &l->row[2], (EXPLOG_ROWS - 2) * sizeof(l->row[0]));
		l->n--;
	}
	l->row[l->n] = *row;
	return &l->row[l->n++];
}

double explog_ratio(const struct explog *l, size_t i)
{
	if (i >= l->n || l->row[0].rate <= 0 || l->row[i].rate < 0)
		return -1;
	return l->row[i].rate / l->row[0].rate;
}

static const char *explog_value(const struct explog_row *r, const char *name)
{
	for (size_t i = 0; i < r->nknobs; i++)
		if (strcmp(r->knob[i].name, name) == 0)
			return r->knob[i].value;
	return NULL;
}

/* Adds name to the list of n names so far ("a", "a and b", "a, b and c"). */
static void explog_join(char *names, size_t cap, size_t n, const char *name)
{
	size_t len = strlen(names);
	if (n == 0) {
		snprintf(names, cap, "%s", name);
		return;
	}
	char *and = strstr(names, " and ");
	if (and) {
		char last[64];
		snprintf(last, sizeof(last), "%s", and+5);
		snprintf(and, cap - (size_t)(and-names), ", %s and %s", last, name);
	} else {
		snprintf(names + len, cap - len, " and %s", name);
	}
}

size_t explog_changed(const struct explog_row *a, const struct explog_row *b, char *names,
		      size_t cap)
{
	size_t n = 0;
	if (cap)
		names[0] = '\0';
	for (int side = 0; side < 2; side++) {
		const struct explog_row *x = side ? b : a, *y = side ? a : b;
		for (size_t i = 0; i < x->nknobs; i++) {
			const char *v = explog_value(y, x->knob[i].name);
			if (side && v)
				continue; /* seen from a's side already */
			if (v && strcmp(v, x->knob[i].value) == 0)
				continue;
			explog_join(names, cap, n++, x->knob[i].name);
		}
	}
	return n;
}

const char *explog_warning(const struct explog *l, size_t i, char *buf, size_t cap)
{
	char names[512], best[512] = "";
	size_t least = SIZE_MAX;
	buf[0] = '\0';
	if (i == 0 || i >= l->n)
		return buf;
	/* Against the nearest row it is fewest knobs away from: a sweep's
	 * rows are one knob each from its first row, not from each other. */
	for (size_t j = i; j-- > 0 && least > 1;) {
		size_t n = explog_changed(&l->row[j], &l->row[i], names, sizeof(names));
		if (n < least) {
			least = n;
			snprintf(best, sizeof(best), "%s", names);
		}
	}
	if (least > 1)
		snprintf(buf, cap, "%zu knobs changed at once: %s", least, best);
	return buf;
}

void explog_row_of(const struct session *s, const char *note, struct explog_row *r)
{
	struct timespec ts;
	memset(r, 0, sizeof(*r));
	clock_gettime(CLOCK_REALTIME, &ts);
	r->wall = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	snprintf(r->note, sizeof(r->note), "%s", note ? note : "");
	r->rate = -1;
	r->throttled_pct = -1;
	r->verdict = VERDICT_N;
	if (s->kind == SESSION_LAB) {
		r->nknobs = explog_lab_knobs(&s->want, r->knob, EXPLOG_KNOBS);
		r->unit = "GFLOP/s";
		r->rate = s->work.steady_gflops;
	} else {
		if (s->have_diag)
			r->nknobs = explog_env_knobs(&s->diag, r->knob, EXPLOG_KNOBS);
		if (s->progress.on) {
			r->unit = "steps/s";
			r->rate = s->progress.steady_rate;
		}
	}
	if (s->have_diag) {
		const struct diagnosis *d = &s->diag;
		r->cpu = d->cpu;
		r->runnable_mean = d->runnable_mean;
		r->wait = d->wait;
		r->throttled_pct = d->throttle_valid ? d->throttled_pct : -1;
		r->verdict = d->verdict;
	}
}

void explog_row_of_sweep(const struct sweep_cmd_row *s, bool progress, struct explog_row *r)
{
	struct timespec ts;
	memset(r, 0, sizeof(*r));
	clock_gettime(CLOCK_REALTIME, &ts);
	r->wall = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	for (size_t k = 0; k < s->nknobs && r->nknobs < EXPLOG_KNOBS; k++, r->nknobs++) {
		snprintf(r->knob[k].name, sizeof(r->knob[k].name), "%s", s->name[k]);
		snprintf(r->knob[k].value, sizeof(r->knob[k].value), "%s", s->value[k]);
	}
	snprintf(r->note, sizeof(r->note), "--sweep: %.110s", s->status);
	r->unit = progress ? "steps/s" : NULL;
	r->rate = progress && !isnan(s->rate) ? s->rate : -1;
	bool ran = s->runs > 0 && !isnan(s->cpu_pct);
	r->cpu = ran ? s->cpu_pct / 100 : 0;
	r->runnable_mean = ran ? s->runnable_mean : 0;
	/* wait_pct is the share of the runnable time spent waiting. */
	r->wait = ran ? s->runnable_mean * s->wait_pct / 100 : 0;
	r->throttled_pct = s->throttled_pct;
	r->verdict = s->verdict;
}

void explog_environment(const struct session *s, struct env_record *e)
{
	environment_fill(e, &s->impl->root, &s->impl->cur.budget,
			 s->kind == SESSION_LAB ? &s->impl->lab_status : NULL);
}
