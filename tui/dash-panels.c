/* dash-panels.c — the one-line panels, the help screen, the notices.
 *
 * Each panel formats its row with dash-format.c and writes it cut to its
 * rectangle; the table and the chart live in dash-table.c and dash-chart.c.
 * Colours are a hint only: every role has a meaning without them. */
#include "config.h"

#include "dash-panels.h"

#include <stdio.h>
#include <string.h>

#include "dash-keys.h"
#include "text-safe.h"

enum {
	DASH_PAIR_GOOD = 1,
	DASH_PAIR_WARN,
	DASH_PAIR_BAD,
	DASH_PAIR_BAR,
};

void dash_panels_colors_init(void)
{
	/* -1: the terminal's default background (use_default_colors). */
	init_pair(DASH_PAIR_GOOD, COLOR_GREEN, -1);
	init_pair(DASH_PAIR_WARN, COLOR_YELLOW, -1);
	init_pair(DASH_PAIR_BAD, COLOR_RED, -1);
	init_pair(DASH_PAIR_BAR, COLOR_CYAN, -1);
}

attr_t dash_panels_attr(const struct dash *d, enum dash_role role)
{
	bool c = d->color;

	switch (role) {
	case DASH_ROLE_TITLE:
		return A_REVERSE;
	case DASH_ROLE_GOOD:
		return c ? COLOR_PAIR(DASH_PAIR_GOOD) : A_NORMAL;
	case DASH_ROLE_WARN:
		return c ? COLOR_PAIR(DASH_PAIR_WARN) : A_BOLD;
	case DASH_ROLE_BAD:
		return c ? COLOR_PAIR(DASH_PAIR_BAD) | A_BOLD : A_BOLD;
	case DASH_ROLE_BAR:
		return c ? COLOR_PAIR(DASH_PAIR_BAR) : A_NORMAL;
	case DASH_ROLE_DIM:
		return A_DIM;
	case DASH_ROLE_BOLD:
		return A_BOLD;
	case DASH_ROLE_PLAIN:
		break;
	}
	return A_NORMAL;
}

void dash_panels_put(WINDOW *w, int y, int x, int width, const char *s, attr_t a)
{
	char buf[2048];
	int rows, cols;

	getmaxyx(w, rows, cols);
	if (y < 0 || y >= rows || x < 0 || x >= cols || width <= 0)
		return;
	if (width > cols - x)
		width = cols - x;
	dash_fit(buf, sizeof(buf), s, width, false, false);
	wattrset(w, a);
	mvwaddstr(w, y, x, buf);
	wattrset(w, A_NORMAL);
}

/* Fills a row of the rectangle with spaces in attribute a (title bars). */
static void dash_panels_fill(WINDOW *w, const struct dash_rect *r, int row, attr_t a)
{
	char buf[1024];
	int n = r->w < (int)sizeof(buf) - 1 ? r->w : (int)sizeof(buf) - 1;

	memset(buf, ' ', (size_t)n);
	buf[n] = '\0';
	dash_panels_put(w, r->y + row, r->x, r->w, buf, a);
}

/* The settings status to compare want with: the newest we have. */
static const struct lab_status *dash_panels_status(const struct dash *d, const struct session *s)
{
	return d->quick_valid ? &d->quick : &s->lab_status;
}

/* The launched command line or the attached process's name, raw. */
static void dash_panels_target(const struct session *s, char *buf, size_t cap)
{
	size_t o = 0;

	buf[0] = '\0';
	if (s->kind == SESSION_LAUNCH && s->opt && s->opt->command) {
		for (char **a = s->opt->command; *a && o + 1 < cap; a++) {
			int n = snprintf(buf + o, cap - o, "%s%s", o ? " " : "", *a);
			o += n > 0 ? (size_t)n : 0;
		}
		return;
	}
	for (size_t i = 0; i < s->cur.threads.n; i++) {
		const struct thread_sample *t = &s->cur.threads.v[i];
		if (t->tid == s->target) {
			size_t n = t->name_len < cap - 1 ? t->name_len : cap - 1;
			memcpy(buf, t->name, n);
			buf[n] = '\0';
			return;
		}
	}
}

void dash_panels_header(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			const struct session *s)
{
	char out[1024], target[512], sweep[32];
	struct dash_header h = {0};

	h.interval = d->interval;
	h.pid = s->target;
	h.tree = s->tree;
	h.gone = s->target_gone;
	h.sweep = dash_sweep_label(&d->sweep, sweep, sizeof(sweep));
	if (s->kind == SESSION_LAB) {
		h.mode = "lab";
		h.want = &s->want;
		h.pending = dash_pending(&s->want, dash_panels_status(d, s));
	} else {
		h.mode = s->kind == SESSION_LAUNCH ? "command" : "attach";
		dash_panels_target(s, target, sizeof(target));
		h.target = target;
	}
	dash_format_header(out, sizeof(out), &h);
	attr_t a = dash_panels_attr(d, DASH_ROLE_TITLE);
	dash_panels_fill(w, r, 0, a);
	dash_panels_put(w, r->y, r->x, r->w, out, a);
}

void dash_panels_budget(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			const struct session *s)
{
	char out[1024];

	dash_format_budget(out, sizeof(out), &s->cur.budget);
	dash_panels_put(w, r->y, r->x, r->w, out, dash_panels_attr(d, DASH_ROLE_PLAIN));
}

void dash_panels_pressure(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			  const struct session *s)
{
	char out[1024];
	bool throttled =
	    s->have_rates && s->rates.throttle.valid && s->rates.throttle.throttled_pct > 0.5;

	dash_format_pressure(out, sizeof(out), &s->cur, &s->rates, s->have_rates);
	dash_panels_put(w, r->y, r->x, r->w, out,
			dash_panels_attr(d, throttled ? DASH_ROLE_WARN : DASH_ROLE_PLAIN));
}

void dash_panels_throughput(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			    const struct session *s)
{
	const struct workload_report *wr = &s->work;
	char out[1024], spark[1024], tail[64];
	enum dash_role role = DASH_ROLE_PLAIN;

	if (wr->ideal_gflops > 0) {
		double eff = wr->gflops / wr->ideal_gflops;
		role = eff >= 0.9 ? DASH_ROLE_GOOD : eff >= 0.6 ? DASH_ROLE_WARN : DASH_ROLE_BAD;
	}
	if (wr->results_checked && !wr->results_equal)
		role = DASH_ROLE_BAD;
	dash_format_throughput(out, sizeof(out), wr);
	dash_panels_put(w, r->y, r->x, r->w, out, dash_panels_attr(d, role));
	if (r->h < 2)
		return;
	if (wr->steady_gflops >= 0)
		snprintf(tail, sizeof(tail), " steady %.1f", wr->steady_gflops);
	else
		snprintf(tail, sizeof(tail), " steady ...");
	if (wr->single_thread_gflops > 0)
		snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail), " | 1 thread %.1f",
			 wr->single_thread_gflops);
	const char *label = "history ";
	int width = r->w - (int)strlen(label) - (int)strlen(tail);
	double max = wr->ceiling_gflops;
	for (size_t i = 0; i < s->view.nhistory; i++)
		max = s->view.history[i] > max ? s->view.history[i] : max;
	dash_format_sparkline(spark, sizeof(spark), width, s->view.history, s->view.nhistory, max,
			      d->utf8);
	dash_panels_put(w, r->y + 1, r->x, r->w, label, dash_panels_attr(d, DASH_ROLE_PLAIN));
	dash_panels_put(w, r->y + 1, r->x + (int)strlen(label), width, spark,
			dash_panels_attr(d, DASH_ROLE_BAR));
	dash_panels_put(w, r->y + 1, r->x + (int)strlen(label) + width, (int)strlen(tail), tail,
			dash_panels_attr(d, DASH_ROLE_PLAIN));
}

void dash_panels_keys(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		      const struct session *s)
{
	attr_t a = dash_panels_attr(d, DASH_ROLE_TITLE);

	dash_panels_fill(w, r, 0, a);
	dash_panels_put(w, r->y, r->x, r->w, dash_keys_bar(s->kind == SESSION_LAB), a);
}

void dash_panels_message(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			 const struct session *s)
{
	char out[512], safe[512];
	const char *m = d->message[0] ? d->message : s->message;

	if (s->target_gone) {
		if (d->status[0])
			snprintf(out, sizeof(out), "command %s: last view kept, q quits",
				 d->status);
		else
			snprintf(out, sizeof(out), "process %d exited: last view kept, q quits",
				 (int)s->target);
		m = out;
	}
	/* Messages may quote paths and helper errors: make them safe too. */
	text_safe(m, strlen(m), safe, sizeof(safe));
	dash_panels_put(w, r->y, r->x, r->w, safe,
			dash_panels_attr(d, s->target_gone ? DASH_ROLE_WARN : DASH_ROLE_BOLD));
}

void dash_panels_help(WINDOW *w, const struct dash *d, const struct session *s)
{
	static const char *const notes[] = {
	    "A value marked * is asked for but not yet applied by the workload.",
	    "Run-queue wait includes throttled time under a quota: compare the two.",
	    "Parked threads: OpenBLAS pool workers beyond the active count (gemmI.pK).",
	};
	char line[512];
	int rows, cols, y = 0;
	size_t n;
	bool lab = s->kind == SESSION_LAB;
	const struct dash_key_help *h = dash_keys_help(&n);

	getmaxyx(w, rows, cols);
	dash_panels_put(w, y++, 0, cols, "threadlab keys (any key closes this help)",
			dash_panels_attr(d, DASH_ROLE_BOLD));
	y++;
	for (size_t i = 0; i < n && y < rows; i++) {
		if (h[i].lab && !lab)
			continue;
		snprintf(line, sizeof(line), "  %-8s %s", h[i].keys, h[i].what);
		dash_panels_put(w, y++, 0, cols, line, dash_panels_attr(d, DASH_ROLE_PLAIN));
	}
	y++;
	for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]) && y < rows; i++)
		dash_panels_put(w, y++, 0, cols, notes[i], dash_panels_attr(d, DASH_ROLE_PLAIN));
}

void dash_panels_too_small(WINDOW *w, int rows, int cols)
{
	char line[128];
	int y = rows / 2 - 1;

	snprintf(line, sizeof(line), "terminal too small: %dx%d, needs %dx%d", cols, rows,
		 DASH_MIN_COLS, DASH_MIN_ROWS);
	int x = (cols - (int)strlen(line)) / 2;
	dash_panels_put(w, y < 0 ? 0 : y, x < 0 ? 0 : x, cols, line, A_BOLD);
	const char *q = "q quits";
	x = (cols - (int)strlen(q)) / 2;
	dash_panels_put(w, y + 1 < 0 ? 0 : y + 1, x < 0 ? 0 : x, cols, q, A_NORMAL);
}

void dash_panels_draw(WINDOW *w, const struct dash_layout *l, const struct dash *d,
		      const struct session *s)
{
	werase(w);
	if (l->too_small) {
		dash_panels_too_small(w, l->rows, l->cols);
		return;
	}
	if (d->help) {
		dash_panels_help(w, d, s);
		return;
	}
	dash_panels_header(w, &l->header, d, s);
	dash_panels_budget(w, &l->budget, d, s);
	dash_panels_pressure(w, &l->pressure, d, s);
	if (l->throughput.h > 0 && s->kind == SESSION_LAB)
		dash_panels_throughput(w, &l->throughput, d, s);
	if (l->chart.h > 0 && s->kind == SESSION_LAB)
		dash_chart_draw(w, &l->chart, d, s);
	if (l->cpus.h > 0)
		dash_chart_cpus(w, &l->cpus, l->cpu_cols, d, s);
	if (l->threads.h > 0)
		dash_table_draw(w, &l->threads, d, s);
	dash_panels_keys(w, &l->keys, d, s);
	dash_panels_message(w, &l->message, d, s);
}
