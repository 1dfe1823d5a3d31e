/* dash-panels.c — the one-line panels, the help screen, the notices, and
 * the whole screen put together.
 *
 * Each panel formats its row with dash-rows.c and paints it cut to its
 * rectangle (dash-paint.c); the table and the chart live in dash-table.c
 * and dash-chart.c. */
#include "config.h"

#include "dash-panels.h"

#include <stdio.h>
#include <string.h>

#include "dash-chart.h"
#include "dash-diag.h"
#include "dash-fit.h"
#include "dash-keys.h"
#include "dash-paint.h"
#include "dash-roof.h"
#include "dash-table.h"
#include "report.h"
#include "text-safe.h"
#include "tour.h"
#include "tour-caption.h"
#include "dash-rows.h"
#include "session-lab.h"

/* The key table's mode for what is on screen. */
static unsigned dash_panels_mode(const struct dash *d, const struct session *s)
{
	if (d->replay.on)
		return DASH_KEYS_MODE_REPLAY;
	if (s->kind == SESSION_LAB && d->tour && tour_running(d->tour))
		return DASH_KEYS_MODE_LAB | DASH_KEYS_MODE_TOUR;
	return s->kind == SESSION_LAB ? DASH_KEYS_MODE_LAB : DASH_KEYS_MODE_ATTACH;
}

/* The step whose caption the tour shows now: the current one, or the last
 * one measured while the next settles; -1 after the end. */
static int dash_panels_caption_step(const struct tour *t)
{
	if (t->state == TOUR_DONE)
		return -1;
	if (!t->step[t->cur].caption[0] && t->cur > 0)
		return (int)t->cur - 1;
	return (int)t->cur;
}

static const char *dash_panels_caption_text(const struct tour *t)
{
	int i = dash_panels_caption_step(t);
	return i < 0 ? "The tour is over and your settings are back. t runs it again."
		     : t->step[i].caption;
}

/* The figures the shown caption quotes, on the rows above it. */
static void dash_panels_figures_text(const struct tour *t, char *out, size_t cap)
{
	int i = dash_panels_caption_step(t);
	out[0] = '\0';
	if (i >= 0)
		tour_caption_figures_text(t, (size_t)i, out, cap);
}

/* Rows text takes word-wrapped at cols columns. */
static int dash_panels_text_rows(const char *text, int cols)
{
	size_t len = strlen(text);
	if (len == 0)
		return 0;
	/* Wrapping at word ends costs a few columns a row. */
	return 1 + (int)((len - 1) / (size_t)(cols - 10));
}

int dash_panels_caption_rows(const struct dash *d, int cols)
{
	char fig[1024];
	if (!d->tour || cols <= 10)
		return 2;
	dash_panels_figures_text(d->tour, fig, sizeof(fig));
	int rows = 1 + dash_panels_text_rows(fig, cols) +
		   dash_panels_text_rows(dash_panels_caption_text(d->tour), cols);
	return rows < 2 ? 2 : rows > DASH_CAPTION_MAX ? DASH_CAPTION_MAX : rows;
}

/* text word-wrapped from row on (the rect's last row gets an ellipsis when
 * it does not all fit); returns the row after it. */
static int dash_panels_wrap(WINDOW *w, const struct dash_rect *r, int row, const char *text,
			    attr_t attr)
{
	char safe[TOUR_CAPTION_LEN * 4], fitted[512];
	text_safe(text, strlen(text), safe, sizeof(safe));
	const char *p = safe;
	for (; row < r->h && *p; row++) {
		/* The longest run of whole words that fits. */
		size_t n = strlen(p), best = 0;
		if (row == r->h - 1 || dash_fit_width(p) <= r->w) {
			dash_fit_words(fitted, sizeof(fitted), p, r->w);
			dash_paint_put(w, r->y + row, r->x, r->w, fitted, attr);
			return row + 1;
		}
		for (size_t i = 1; i <= n; i++) {
			if (p[i] != ' ' && p[i] != '\0')
				continue;
			char tmp[512];
			snprintf(tmp, sizeof(tmp), "%.*s", (int)i, p);
			if (dash_fit_width(tmp) > r->w)
				break;
			best = i;
		}
		if (best == 0)
			best = n < (size_t)r->w ? n : (size_t)r->w;
		snprintf(fitted, sizeof(fitted), "%.*s", (int)best, p);
		dash_paint_put(w, r->y + row, r->x, r->w, fitted, attr);
		p += best;
		while (*p == ' ')
			p++;
	}
	return row;
}

/* The tour: its status line, the figures of the step whose caption shows,
 * then the caption, each word-wrapped over the rows. */
void dash_panels_caption(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			 const struct session *s)
{
	const struct tour *t = d->tour;
	char line[512], fitted[512], fig[1024];
	(void)s;
	if (!t || r->h <= 0)
		return;
	tour_status(t, d->now, line, sizeof(line));
	dash_fit_words(fitted, sizeof(fitted), line, r->w);
	dash_paint_put(w, r->y, r->x, r->w, fitted, dash_paint_attr(d, DASH_ROLE_TITLE));
	dash_panels_figures_text(t, fig, sizeof(fig));
	int row = dash_panels_wrap(w, r, 1, fig, dash_paint_attr(d, DASH_ROLE_PLAIN));
	dash_panels_wrap(w, r, row, dash_panels_caption_text(t),
			 dash_paint_attr(d, DASH_ROLE_BOLD));
}

void dash_panels_header(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			const struct session *s)
{
	char out[1024], target[512], sweep[32], when[64];
	struct dash_header h = {0};

	h.interval = d->interval;
	if (d->replay.on) {
		/* The recorded time, to the second, in UTC as recordings keep
		 * it: "2026-12-01 08:17:03 UTC". */
		report_time_iso(s->model.wall, when, sizeof(when));
		when[10] = ' ';
		snprintf(when + 19, sizeof(when) - 19, " UTC");
		h.replay = when;
		h.replay_pos = s->replay_pos;
		h.replay_count = s->replay_count;
		h.replay_speed = d->replay.speed;
		h.replay_paused = d->replay.paused;
	}
	h.pid = s->target;
	h.tree = s->tree;
	h.gone = s->target_gone;
	h.sweep = session_sweep_label(s, sweep, sizeof(sweep));
	if (s->kind == SESSION_LAB) {
		h.mode = "lab";
		h.want = &s->want;
		h.pending = session_lab_pending(s);
	} else {
		h.mode = s->kind == SESSION_LAUNCH ? "command" : "attach";
		session_target_name(s, target, sizeof(target));
		h.target = target;
	}
	dash_rows_header(out, sizeof(out), r->w, &h);
	attr_t a = dash_paint_attr(d, DASH_ROLE_TITLE);
	dash_paint_fill(w, r, 0, a);
	dash_paint_put(w, r->y, r->x, r->w, out, a);
}

void dash_panels_budget(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			const struct session *s)
{
	char out[1024];

	dash_rows_budget(out, sizeof(out), r->w, &s->model.budget);
	dash_paint_put(w, r->y, r->x, r->w, out, dash_paint_attr(d, DASH_ROLE_PLAIN));
}

void dash_panels_pressure(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			  const struct session *s)
{
	char out[1024];
	bool throttled =
	    s->have_rates && s->model.throttle.valid && s->model.throttle.throttled_pct > 0.5;

	dash_rows_pressure(out, sizeof(out), r->w, &s->model, s->have_rates);
	dash_paint_put(w, r->y, r->x, r->w, out,
		       dash_paint_attr(d, throttled ? DASH_ROLE_WARN : DASH_ROLE_PLAIN));
}

/* The history row: "history ▂▄▅▅ steady 207.0 | 1 thread 104.0". */
static void dash_panels_history(WINDOW *w, int y, const struct dash_rect *r, const struct dash *d,
				const struct session *s)
{
	const struct workload_report *wr = &s->work;
	char spark[1024], tail[96], steady[32] = "steady ...";
	const char *label = "history ";

	if (wr->steady_gflops >= 0)
		snprintf(steady, sizeof(steady), "steady %.1f", wr->steady_gflops);
	if (wr->single_thread_gflops > 0 && wr->single_stale)
		snprintf(tail, sizeof(tail), " %s | 1 thread %.1f (quieter box %.0f s ago)", steady,
			 wr->single_thread_gflops, wr->single_age_s);
	else if (wr->single_thread_gflops > 0)
		snprintf(tail, sizeof(tail), " %s | 1 thread %.1f", steady,
			 wr->single_thread_gflops);
	else
		snprintf(tail, sizeof(tail), " %s", steady);
	int width = r->w - (int)strlen(label) - dash_fit_width(tail);
	if (width < 8) {
		snprintf(tail, sizeof(tail), " %s", steady);
		width = r->w - (int)strlen(label) - dash_fit_width(tail);
	}
	double max = wr->ceiling_gflops;
	for (size_t i = 0; i < s->view.nhistory; i++)
		max = s->view.history[i] > max ? s->view.history[i] : max;
	dash_format_sparkline(spark, sizeof(spark), width, s->view.history, s->view.nhistory, max,
			      d->utf8);
	dash_paint_put(w, y, r->x, r->w, label, dash_paint_attr(d, DASH_ROLE_PLAIN));
	dash_paint_put(w, y, r->x + (int)strlen(label), width, spark,
		       dash_paint_attr(d, DASH_ROLE_BAR));
	dash_paint_put(w, y, r->x + (int)strlen(label) + width, dash_fit_width(tail), tail,
		       dash_paint_attr(d, DASH_ROLE_PLAIN));
}

void dash_panels_throughput(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			    const struct session *s)
{
	const struct workload_report *wr = &s->work;
	char out[1024];
	enum dash_role role = DASH_ROLE_PLAIN;

	if (wr->ideal_gflops > 0) {
		double eff = wr->gflops / wr->ideal_gflops;
		role = eff >= 0.9 ? DASH_ROLE_GOOD : eff >= 0.6 ? DASH_ROLE_WARN : DASH_ROLE_BAD;
	}
	/* A difference in the last bits is OpenBLAS adding in another order,
	 * not a fault: only a large one (or NaN) colours the line. */
	if (wr->epoch_results_checked && !wr->epoch_results_equal && !(wr->epoch_max_diff < 1e-3))
		role = DASH_ROLE_BAD;
	if (wr->paused)
		role = DASH_ROLE_PLAIN;
	dash_rows_throughput(out, sizeof(out), r->w, wr);
	dash_paint_put(w, r->y, r->x, r->w, out, dash_paint_attr(d, role));
	if (r->h >= 3) {
		/* Spin shows as busy CPU beyond the work: warn from 0.25 CPU. */
		bool spin = wr->cpu_cpus - wr->useful_cpus >= 0.25;
		dash_rows_work(out, sizeof(out), r->w, wr);
		dash_paint_put(w, r->y + 1, r->x, r->w, out,
			       dash_paint_attr(d, wr->error[0] ? DASH_ROLE_BAD
						  : spin       ? DASH_ROLE_WARN
							       : DASH_ROLE_PLAIN));
	}
	if (r->h >= 2)
		dash_panels_history(w, r->y + r->h - 1, r, d, s);
}

void dash_panels_keys(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		      const struct session *s)
{
	attr_t a = dash_paint_attr(d, DASH_ROLE_TITLE);
	char out[512];

	dash_keys_bar(out, sizeof(out), r->w, dash_panels_mode(d, s));
	dash_paint_fill(w, r, 0, a);
	dash_paint_put(w, r->y, r->x, r->w, out, a);
}

void dash_panels_message(WINDOW *w, const struct dash_rect *r, const struct dash *d,
			 const struct session *s)
{
	char out[512], safe[512], fitted[512];
	const char *m = d->message[0] ? d->message : s->message;
	enum dash_role role = d->message_bad ? DASH_ROLE_BAD : DASH_ROLE_BOLD;

	if (s->target_gone) {
		if (s->kind == SESSION_LAB && s->gone_why[0])
			snprintf(out, sizeof(out), "%.400s; last view kept, q quits", s->gone_why);
		else if (s->kind == SESSION_LAB)
			snprintf(out, sizeof(out),
				 "the lab workload (process %d) exited: "
				 "last view kept, q quits",
				 (int)s->target);
		else if (d->status[0])
			snprintf(out, sizeof(out), "command %s: last view kept, q quits",
				 d->status);
		else
			snprintf(out, sizeof(out), "process %d exited: last view kept, q quits",
				 (int)s->target);
		m = out;
		role = DASH_ROLE_WARN;
	}
	/* Messages may quote paths and helper errors: make them safe too. */
	text_safe(m, strlen(m), safe, sizeof(safe));
	dash_fit_words(fitted, sizeof(fitted), safe, r->w);
	dash_paint_put(w, r->y, r->x, r->w, fitted, dash_paint_attr(d, role));
}

void dash_panels_help(WINDOW *w, const struct dash *d, const struct session *s)
{
	/* Notes, each for the modes where what it explains is on screen. */
	static const struct {
		const char *text;
		unsigned modes;
	} notes[] = {
	    {"A value marked * is asked for but not yet applied by the workload.",
	     DASH_KEYS_MODE_LAB},
	    {"Run-queue wait includes throttled time under a quota: compare the two.",
	     DASH_KEYS_MODE_LAB | DASH_KEYS_MODE_ATTACH | DASH_KEYS_MODE_REPLAY},
	    {"Parked threads: OpenBLAS pool workers beyond the active count (gemmI.pK).",
	     DASH_KEYS_MODE_LAB},
	    {"Loaders (tl-loaderN) prepare input batches; workers (tl-workerN) only burn CPU.",
	     DASH_KEYS_MODE_LAB},
	    {"The tour owns the lab's knobs until q leaves it; F10 quits.", DASH_KEYS_MODE_TOUR},
	};
	char line[512];
	int rows, cols, y = 0;
	size_t n;
	unsigned mode = dash_panels_mode(d, s);
	const struct dash_key_help *h = dash_keys_help(mode, &n);

	getmaxyx(w, rows, cols);
	dash_paint_put(w, y++, 0, cols, "threadlab keys (any key closes this help)",
		       dash_paint_attr(d, DASH_ROLE_BOLD));
	for (size_t i = 0; i < n && y < rows; i++) {
		snprintf(line, sizeof(line), "  %-8s %s", h[i].keys, h[i].what);
		y = dash_paint_wrap(w, y, rows, cols, 11, line,
				    dash_paint_attr(d, DASH_ROLE_PLAIN));
	}
	y++;
	for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]) && y < rows; i++)
		if (notes[i].modes & mode)
			y = dash_paint_wrap(w, y, rows, cols, 2, notes[i].text,
					    dash_paint_attr(d, DASH_ROLE_PLAIN));
}

void dash_panels_too_small(WINDOW *w, int rows, int cols)
{
	char line[128];
	int y = rows / 2 - 1;

	snprintf(line, sizeof(line), "terminal too small: %dx%d, needs %dx%d", cols, rows,
		 DASH_MIN_COLS, DASH_MIN_ROWS);
	int x = (cols - (int)strlen(line)) / 2;
	dash_paint_put(w, y < 0 ? 0 : y, x < 0 ? 0 : x, cols, line, A_BOLD);
	const char *q = "q quits";
	x = (cols - (int)strlen(q)) / 2;
	dash_paint_put(w, y + 1 < 0 ? 0 : y + 1, x < 0 ? 0 : x, cols, q, A_NORMAL);
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
	if (d->roof_view && s->kind == SESSION_LAB) {
		dash_roof_draw(w, d, s);
		dash_panels_keys(w, &l->keys, d, s);
		dash_panels_message(w, &l->message, d, s);
		return;
	}
	if (d->log.view) {
		dash_log_draw(w, d, s);
		dash_panels_keys(w, &l->keys, d, s);
		dash_panels_message(w, &l->message, d, s);
		return;
	}
	dash_panels_header(w, &l->header, d, s);
	if (l->caption.h > 0)
		dash_panels_caption(w, &l->caption, d, s);
	dash_panels_budget(w, &l->budget, d, s);
	dash_panels_pressure(w, &l->pressure, d, s);
	if (l->diag.h > 0)
		dash_diag_draw(w, &l->diag, d, s);
	if (l->roles.h > 0)
		dash_diag_roles(w, &l->roles, d, s);
	if (l->spark.h > 0) {
		struct dash_rect sp = l->spark;
		if (s->progress.on && sp.h > 1) {
			dash_log_progress(w, &sp, d, s);
			sp.y++;
			sp.h--;
		}
		dash_diag_spark(w, &sp, d, s);
	}
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
