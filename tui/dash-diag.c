/* dash-diag.c — the diagnosis panels (dash-diag.h).
 *
 * The verdict's colour says what kind it is (fine green, oversubscribed and
 * throttled red, undersubscribed and contended yellow, idle dim); the words
 * say it too.
 * Everything that came from the target (role names, libraries, variable
 * values) is made safe before it is fitted. */
#include "config.h"

#include "dash-diag.h"

#include <stdio.h>
#include <string.h>

#include "dash-format.h"
#include "dash-paint.h"
#include "text-safe.h"

static enum dash_role dash_diag_role(enum verdict v)
{
	switch (v) {
	case VERDICT_FINE:
		return DASH_ROLE_GOOD;
	case VERDICT_OVERSUBSCRIBED:
	case VERDICT_THROTTLED:
		return DASH_ROLE_BAD;
	case VERDICT_UNDERSUBSCRIBED:
	case VERDICT_CONTENDED: /* a problem, but not of the job's making */
		return DASH_ROLE_WARN;
	case VERDICT_IDLE:
	case VERDICT_N:
		break;
	}
	return DASH_ROLE_DIM;
}

static void dash_diag_safe(const char *in, char *out, size_t cap)
{
	text_safe(in, strlen(in), out, cap);
}

/* The roles' fields of a line: prio is the first role's priority, the
 * others' one more (the fourth on: rest). */
static void dash_diag_roles_add(struct dash_line *l, const struct diagnosis *d, int prio, int rest)
{
	char name[3 * 64];
	dash_line_add(l, 0 | DASH_LINE_KEEP, "roles:");
	for (size_t i = 0; i < d->nroles; i++) {
		const struct diag_role *r = &d->roles[i];
		dash_diag_safe(r->name, name, sizeof(name));
		int p = (i == 0 ? prio : i < 3 ? prio + 1 : rest) | (i == 0 ? DASH_LINE_GLUE : 0);
		if (r->nprocs > 1)
			dash_line_add(l, p, "%d %s %.1f runnable", r->nprocs, name,
				      r->runnable_mean);
		else
			dash_line_add(l, p, "%s %.1f runnable", name, r->runnable_mean);
		dash_line_brief(l, "%s %.1f", name, r->runnable_mean);
	}
	if (d->nroles == 0)
		dash_line_add(l, DASH_LINE_GLUE, "none yet");
}

/* The pools' fields: the label with the first pool at prio, the rest
 * after. */
static void dash_diag_pools_add(struct dash_line *l, const struct diagnosis *d, int prio)
{
	char v[3 * 128];
	for (size_t i = 0; i < d->nruntimes; i++) {
		const struct diag_runtime *r = &d->runtimes[i];
		int p = i == 0 ? prio : prio + (i < 3 ? 1 : 2);
		const char *label = i == 0 ? "pools: " : "";
		if (r->pool > 0 && r->code_sets && r->pool_default > 0)
			dash_line_add(l, p, "%s%s%s%s%s %d (code's; default %d)", label, r->name,
				      r->variant[0] ? " (" : "", r->variant,
				      r->variant[0] ? ")" : "", r->pool, r->pool_default);
		else if (r->pool > 0)
			dash_line_add(l, p, "%s%s%s%s%s %d", label, r->name,
				      r->variant[0] ? " (" : "", r->variant,
				      r->variant[0] ? ")" : "", r->pool);
		else
			dash_line_add(l, p, "%s%s", label, r->name);
	}
	if (!d->nruntimes)
		dash_line_add(l, prio, "pools: no thread-pool runtime found");
	if (d->env_state == CENSUS_ENV_UNREADABLE) {
		dash_line_add(l, prio + 1, "environment not readable");
	} else {
		if (d->env_state == CENSUS_ENV_TRUNCATED)
			dash_line_add(l, prio + 1, "environment truncated");
		for (size_t i = 0; i < d->nenv; i++)
			if (d->env[i].set) {
				dash_diag_safe(d->env[i].value, v, sizeof(v));
				dash_line_add(l, prio + 1, "%s=%s", d->env[i].name, v);
			}
		if (d->env_state == CENSUS_ENV_OK && d->nenv && !d->env[0].set)
			dash_line_add(l, prio + 2, "%s unset", d->env[0].name);
	}
}

size_t dash_diag_roles_row(char *out, size_t cap, int width, const struct diagnosis *d)
{
	struct dash_line l;
	dash_line_init(&l, " | ");
	dash_diag_roles_add(&l, d, 0, 3);
	return dash_line_render(&l, out, cap, width);
}

size_t dash_diag_pools_row(char *out, size_t cap, int width, const struct diagnosis *d)
{
	struct dash_line l;
	dash_line_init(&l, " | ");
	dash_diag_pools_add(&l, d, 0);
	return dash_line_render(&l, out, cap, width);
}

size_t dash_diag_both_row(char *out, size_t cap, int width, const struct diagnosis *d)
{
	struct dash_line l;
	dash_line_init(&l, " | ");
	dash_diag_roles_add(&l, d, 1, 5);
	dash_diag_pools_add(&l, d, 2);
	return dash_line_render(&l, out, cap, width);
}

size_t dash_diag_role_row(char *out, size_t cap, int width, const struct diag_role *r)
{
	struct dash_line l;
	char name[3 * 64];
	dash_diag_safe(r->name, name, sizeof(name));
	dash_line_init(&l, ", ");
	dash_line_add(&l, 0, "%s: %d process%s", name, r->nprocs, r->nprocs == 1 ? "" : "es");
	dash_line_add(&l, 0, "%d threads", r->threads);
	dash_line_add(&l, 0, "%.1f runnable", r->runnable_mean);
	/* the units of the --diagnose roles table and the headline */
	dash_line_add(&l, 1, "%.2f CPUs", r->cpu_pct / 100);
	dash_line_add(&l, 1, "wait %.2f s/s", r->wait_pct / 100);
	if (r->input_wait_pct >= 1)
		dash_line_add(&l, 2, "input wait %.0f%%", r->input_wait_pct);
	char act[128];
	if (activity_summary(r->activity, act, sizeof(act)))
		dash_line_add(&l, 3, "%s", act);
	return dash_line_render(&l, out, cap, width);
}

size_t dash_diag_verdict_row(char *out, size_t cap, int width, const struct diagnosis *d,
			     bool with_try)
{
	struct dash_line l;
	char sug[4 * DIAG_TEXT];
	dash_line_init(&l, ", ");
	if (d->verdict == VERDICT_OVERSUBSCRIBED)
		dash_line_add(&l, 0 | DASH_LINE_KEEP, "diagnosis: oversubscribed %.1fx", d->factor);
	else
		dash_line_add(&l, 0 | DASH_LINE_KEEP, "diagnosis: %s",
			      diagnosis_verdict_name(d->verdict));
	dash_line_brief(&l, "%s", diagnosis_verdict_name(d->verdict));
	if (d->verdict == VERDICT_THROTTLED)
		dash_line_add(&l, 1, "%.0f%% of periods throttled", d->throttled_pct);
	dash_line_add(&l, 1, "%.1f runnable on %.2f CPUs", d->runnable_mean, d->effective);
	dash_line_brief(&l, "%.1f/%.2f", d->runnable_mean, d->effective);
	dash_line_add(&l, 2, "wait %.2f s/s", d->wait);
	if (with_try && d->nsuggestions) {
		dash_diag_safe(d->suggestions[0], sug, sizeof(sug));
		dash_line_add(&l, 3, "try: %s", sug);
	}
	return dash_line_render(&l, out, cap, width);
}

/* The series' scale: runnable threads against at least the effective
 * CPUs (so 2 of 2 fills the bar), throttling against 100 %. */
static double dash_diag_scale(const struct history *h, enum history_series s)
{
	if (s == HISTORY_THROTTLED)
		return 100.0;
	double max = s == HISTORY_WAIT ? 0.5 : h->effective;
	for (size_t i = 0; i < h->n; i++)
		max = h->v[s][i] > max ? h->v[s][i] : max;
	return max > 0 ? max : 1;
}

static const char *const dash_diag_series_name[HISTORY_N] = {
    [HISTORY_RUNNABLE] = "runnable threads",
    [HISTORY_CPU] = "CPUs in use",
    [HISTORY_WAIT] = "run-queue wait s/s",
    [HISTORY_THROTTLED] = "throttled %",
};

size_t dash_diag_spark_row(char *out, size_t cap, int width, const struct history *h, bool utf8)
{
	static const char *const full[HISTORY_N] = {"runnable", "CPU", "wait", "throttled"};
	static const char *const brief[HISTORY_N] = {"run", "cpu", "wait", "thr"};
	char part[HISTORY_N][1100], spark[512];
	/* Four cells of equal width; each: label, sparkline, figure. */
	int cell = (width - 3 * 3) / HISTORY_N;
	const char *const *label = cell >= 26 ? full : brief;
	size_t o = 0;
	out[0] = '\0';
	for (int s = 0; s < HISTORY_N; s++) {
		double last = history_last(h, (enum history_series)s);
		char fig[32];
		if (s == HISTORY_RUNNABLE)
			snprintf(fig, sizeof(fig), "%.1f/%.2f", last, h->effective);
		else if (s == HISTORY_THROTTLED)
			snprintf(fig, sizeof(fig), "%.0f%%", last);
		else
			snprintf(fig, sizeof(fig), "%.2f", last);
		int sw = cell - (int)strlen(label[s]) - (int)strlen(fig) - 2;
		if (sw < 1)
			sw = 1;
		dash_format_sparkline(spark, sizeof(spark), sw, h->v[s], h->n,
				      dash_diag_scale(h, (enum history_series)s), utf8);
		snprintf(part[s], sizeof(part[s]), "%s %s %s", label[s], spark, fig);
		int n = snprintf(out + o, cap - o, "%s%s", s ? " | " : "", part[s]);
		if (n < 0 || (size_t)n >= cap - o)
			break;
		o += (size_t)n;
	}
	return o;
}

size_t dash_diag_series_row(char *out, size_t cap, int width, const struct history *h,
			    enum history_series s, bool utf8)
{
	char spark[1024], fig[64];
	double last = history_last(h, s);
	if (s == HISTORY_RUNNABLE)
		snprintf(fig, sizeof(fig), " %.2f (effective %.2f)", last, h->effective);
	else if (s == HISTORY_THROTTLED)
		snprintf(fig, sizeof(fig), " %.0f%%", last);
	else
		snprintf(fig, sizeof(fig), " %.2f", last);
	int label = 20;
	int sw = width - label - (int)strlen(fig);
	if (sw < 4)
		sw = 4;
	dash_format_sparkline(spark, sizeof(spark), sw, h->v[s], h->n, dash_diag_scale(h, s), utf8);
	int n = snprintf(out, cap, "%-*s%s%s", label, dash_diag_series_name[s], spark, fig);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

/* A suggestion that needs more than rows rows at width: its predicted
 * figures (what follows its last ": " when that starts with a number, as
 * "...: 2.00 runnable threads on 2.00 CPUs") go before any of its action
 * is cut, so the setting and its number are whole; a suggestion that
 * fits, or whose action alone does not, is left to be wrapped as it is. */
static void dash_diag_fit_rows(char *line, int width, int rows)
{
	if (rows < 1 || dash_paint_wrap(NULL, 0, 1 << 20, width, 5, line, 0) <= rows)
		return;
	char *colon = strstr(line, ": "), *last = NULL;
	for (; colon; colon = strstr(colon + 2, ": "))
		last = colon;
	if (!last || last - line < 5 || last[2] < '0' || last[2] > '9') /* 5: "Try: " */
		return;
	char c = *last;
	*last = '\0';
	if (dash_paint_wrap(NULL, 0, 1 << 20, width, 5, line, 0) > rows)
		*last = c;
}

/* The label of the first suggestion: in a replay one that names a process
 * by its pid ("stress (pid 812, ...", "/proc/812/task") says that the pid
 * is the recording's (it may be another process's now, and renice or kill
 * would hit that one). */
static const char *dash_diag_try(const struct dash *d, const char *sug)
{
	if (d->replay.on && (strstr(sug, "(pid ") || strstr(sug, "/proc/")))
		return "Try (PIDs as recorded):";
	return "Try:";
}

void dash_diag_draw(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		    const struct session *s)
{
	char safe[4 * (2 * DIAG_TEXT)], line[4 * (2 * DIAG_TEXT) + 16];
	if (r->h < 1)
		return;
	if (!s->have_diag) {
		dash_paint_put(w, r->y, r->x, r->w, "diagnosis: after the second sample",
			       dash_paint_attr(d, DASH_ROLE_DIM));
		return;
	}
	const struct diagnosis *g = &s->diag;
	attr_t a = dash_paint_attr(d, dash_diag_role(g->verdict));
	dash_diag_safe(g->headline, safe, sizeof(safe));
	if (r->h <= 2) {
		/* Compact: the verdict and its figures, then the first
		 * suggestion on a row of its own. */
		dash_diag_verdict_row(line, sizeof(line), r->w, g, r->h == 1);
		dash_paint_put(w, r->y, r->x, r->w, line, a | (r->h == 2 ? A_BOLD : 0));
		if (r->h == 2 && g->nsuggestions) {
			char sug[4 * DIAG_TEXT];
			dash_diag_safe(g->suggestions[0], sug, sizeof(sug));
			snprintf(line, sizeof(line), "%s %s", dash_diag_try(d, sug), sug);
			dash_fit_words(safe, sizeof(safe), line, r->w);
			dash_paint_put(w, r->y + 1, r->x, r->w, safe,
				       dash_paint_attr(d, DASH_ROLE_BOLD));
		}
		return;
	}
	/* The verdict takes what it needs of the first rows (its suggestion
	 * apart: a row of its own, wrapped onto the next when it is long, never
	 * cut before the figures it promises); the reasons the rest (the one
	 * that repeats the verdict's figures skipped). */
	char *try = strstr(safe, ". Try: ");
	if (try)
		*try = '\0';
	int end = r->y + r->h;
	int head = r->h >= 5 ? 2 : 1;
	int used = dash_paint_wrap(w, r->y, r->y + head, r->w, 2, safe, a | A_BOLD) - r->y;
	for (size_t i = 0; i < g->nsuggestions && used < r->h; i++) {
		char sug[4 * DIAG_TEXT];
		dash_diag_safe(g->suggestions[i], sug, sizeof(sug));
		snprintf(line, sizeof(line), "%s %s", i ? "  or" : dash_diag_try(d, sug), sug);
		/* the first suggestion may take every row left; the others two */
		int stop = i == 0 ? end : r->y + used + 2 < end ? r->y + used + 2 : end;
		dash_diag_fit_rows(line, r->w, stop - (r->y + used));
		used = dash_paint_wrap(w, r->y + used, stop, r->w, 5, line,
				       dash_paint_attr(d, DASH_ROLE_BOLD)) -
		       r->y;
		if (r->h < 4)
			break; /* a small screen: the first suggestion only */
	}
	for (size_t i = 0; i < g->nreasons && used < r->h; i++) {
		char reason[4 * DIAG_TEXT];
		if (strstr(g->reasons[i], " in state R now) on "))
			continue; /* the figures the verdict line shows already */
		dash_diag_safe(g->reasons[i], reason, sizeof(reason));
		snprintf(line, sizeof(line), "  %s", reason);
		dash_fit_words(safe, sizeof(safe), line, r->w);
		dash_paint_put(w, r->y + used++, r->x, r->w, safe,
			       dash_paint_attr(d, DASH_ROLE_PLAIN));
	}
}

void dash_diag_roles(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s)
{
	char out[1024];
	if (r->h < 1 || !s->have_diag)
		return;
	const struct diagnosis *g = &s->diag;
	attr_t a = dash_paint_attr(d, DASH_ROLE_PLAIN);
	if (r->h == 1) {
		dash_diag_both_row(out, sizeof(out), r->w, g);
		dash_paint_put(w, r->y, r->x, r->w, out, a);
		return;
	}
	dash_diag_pools_row(out, sizeof(out), r->w, g);
	dash_paint_put(w, r->y, r->x, r->w, out, a);
	int y = 1;
	if (r->h - 1 < (int)g->nroles) {
		dash_diag_roles_row(out, sizeof(out), r->w, g);
		dash_paint_put(w, r->y + y, r->x, r->w, out, a);
		return;
	}
	for (size_t i = 0; i < g->nroles && y < r->h; i++, y++) {
		dash_diag_role_row(out, sizeof(out), r->w, &g->roles[i]);
		dash_paint_put(w, r->y + y, r->x, r->w, out, a);
	}
}

void dash_diag_spark(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s)
{
	char out[2048];
	if (r->h < 1)
		return;
	attr_t a = dash_paint_attr(d, DASH_ROLE_BAR);
	if (r->h < HISTORY_N) {
		dash_diag_spark_row(out, sizeof(out), r->w, &s->history, d->utf8);
		dash_paint_put(w, r->y, r->x, r->w, out, a);
		return;
	}
	for (int k = 0; k < HISTORY_N; k++) {
		dash_diag_series_row(out, sizeof(out), r->w, &s->history, (enum history_series)k,
				     d->utf8);
		dash_paint_put(w, r->y + k, r->x, r->w, out, a);
	}
}
