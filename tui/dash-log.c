/* dash-log.c — the experiment log's keys and view, the progress row
 * (dash-log.h). */
#include "config.h"

#include "dash-log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dash-format.h"
#include "dash-keys-impl.h"
#include "dash-keys-act.h"
#include "dash-layout.h"
#include "dash-paint.h"
#include "explog-out.h"
#include "text-safe.h"
#include "explog-load.h"

/* Marks the row; says so, with its ratio and any warning. */
static int dash_log_add(struct dash *d, const struct session *s, const char *note)
{
	struct dash_log *g = &d->log;
	struct explog_row r;
	char warn[600];
	explog_row_of(s, note, &r);
	explog_add(&g->rows, &r);
	size_t i = g->rows.n - 1;
	explog_warning(&g->rows, i, warn, sizeof(warn));
	double x = explog_ratio(&g->rows, i);
	if (warn[0])
		dash_keys_act_say(d, "row %zu marked: %s", i + 1, warn);
	else if (x >= 0 && i > 0)
		dash_keys_act_say(d, "row %zu marked: %.2fx the first row (e shows the log)", i + 1,
				  x);
	else
		dash_keys_act_say(d, "row %zu marked (e shows the log)", i + 1);
	d->message_bad = warn[0] != '\0';
	if (g->file) {
		struct env_record e;
		explog_environment(s, &e);
		if (explog_out_json(g->file, &g->rows, i, &e) < 0) {
			dash_keys_act_say(d, "cannot write the log: %s; the log file stops",
					  strerror(errno ? errno : EIO));
			d->message_bad = true;
			g->file = NULL;
		}
	}
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_log_key_mark(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg)
{
	(void)w, (void)arg;
	if (!c->session)
		return DASH_KEY_HANDLED;
	if (c->lab)
		return dash_log_add(d, c->session, NULL);
	d->log.prompt = true;
	d->log.len = 0;
	d->log.note[0] = '\0';
	dash_keys_act_say(d, "note for this row (Enter marks it, Esc cancels): ");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_log_key_view(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg)
{
	(void)w, (void)c, (void)arg;
	d->log.view = !d->log.view;
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_log_prompt_key(struct dash *d, const struct session *s, int key)
{
	struct dash_log *g = &d->log;
	if (!g->prompt)
		return 0;
	if (key == 27) {
		g->prompt = false;
		dash_keys_act_say(d, "no row marked");
	} else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		g->prompt = false;
		return dash_log_add(d, s, g->note);
	} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (g->len)
			g->note[--g->len] = '\0';
	} else if (key >= 0x20 && key < 0x100 && key != 0x7f && g->len + 1 < sizeof(g->note)) {
		g->note[g->len++] = (char)key;
		g->note[g->len] = '\0';
	} else {
		return DASH_KEY_HANDLED;
	}
	if (g->prompt)
		dash_keys_act_say(d, "note for this row (Enter marks it, Esc cancels): %s",
				  g->note);
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

void dash_log_tick(struct dash *d, const struct session *s)
{
	struct dash_log *g = &d->log;
	if (strcmp(g->last_msg, d->message) != 0) {
		snprintf(g->last_msg, sizeof(g->last_msg), "%s", d->message);
		g->msg_age = 0;
		g->showing_line = false;
	} else {
		g->msg_age++;
	}
	const struct progress *p = &s->progress;
	if (!p->on || p->line_seq == g->line_seq || g->prompt)
		return;
	/* A key's answer or the session's news stands three ticks first. */
	if (!g->showing_line && d->message[0] && g->msg_age < 3)
		return;
	g->line_seq = p->line_seq;
	snprintf(d->message, sizeof(d->message), "%.*s", (int)sizeof(d->message) - 1, p->last_line);
	d->message_bad = false;
	snprintf(g->last_msg, sizeof(g->last_msg), "%s", d->message);
	g->showing_line = true;
}

const char *dash_log_warning(const struct dash *d, size_t i, char *buf, size_t cap)
{
	return explog_warning(&d->log.rows, i, buf, cap);
}

void dash_log_draw(WINDOW *w, const struct dash *d, const struct session *s)
{
	const struct explog *l = &d->log.rows;
	char line[2048], safe[4 * 2048], warn[600];
	int rows, cols, y = 0;
	getmaxyx(w, rows, cols);
	const char *unit = l->n && l->row[0].unit ? l->row[0].unit
			   : s->kind == SESSION_LAB    ? "GFLOP/s"
						       : "steps/s";
	snprintf(line, sizeof(line), "experiment log: %zu row%s, ratio to row 1 (e closes, m marks)",
		 l->n, l->n == 1 ? "" : "s");
	dash_paint_put(w, y++, 0, cols, line, dash_paint_attr(d, DASH_ROLE_BOLD));
	snprintf(line, sizeof(line), " # %7s %9s %5s %5s %5s %5s %-15s setting", "ratio", unit,
		 "CPUs", "run", "wait", "thr", "verdict");
	dash_paint_put(w, y++, 0, cols, line, dash_paint_attr(d, DASH_ROLE_DIM));
	if (l->n == 0)
		dash_paint_put(w, y++, 0, cols, "no rows yet: m marks the current setting",
			       dash_paint_attr(d, DASH_ROLE_PLAIN));
	for (size_t i = 0; i < l->n && y < rows; i++) {
		explog_out_text_row(line, sizeof(line), l, i);
		text_safe(line, strlen(line), safe, sizeof(safe));
		y = dash_paint_wrap(w, y, rows, cols, 3, safe, dash_paint_attr(d, DASH_ROLE_PLAIN));
		if (explog_warning(l, i, warn, sizeof(warn))[0] && y < rows) {
			snprintf(line, sizeof(line), "   warning: %s", warn);
			text_safe(line, strlen(line), safe, sizeof(safe));
			y = dash_paint_wrap(w, y, rows, cols, 3, safe,
					    dash_paint_attr(d, DASH_ROLE_WARN));
		}
	}
}

size_t dash_log_progress_row(char *out, size_t cap, int width, const struct session *s, bool utf8)
{
	const struct progress *p = &s->progress;
	char spark[1024], rate[32], steady[48], tail[96];
	if (p->rate >= 0)
		snprintf(rate, sizeof(rate), "%.1f steps/s", p->rate);
	else
		snprintf(rate, sizeof(rate), "... steps/s");
	if (p->steady_rate >= 0)
		snprintf(steady, sizeof(steady), " | steady %.1f", p->steady_rate);
	else
		snprintf(steady, sizeof(steady), " | steady ...");
	snprintf(tail, sizeof(tail), "%s%s | %.0f steps", rate, steady, p->count);
	if (p->matches == 0)
		snprintf(tail, sizeof(tail), "no progress line matched yet");
	const char *label = "progress ";
	int sw = width - (int)strlen(label) - (int)strlen(tail) - 1;
	if (sw < 4)
		sw = 4;
	double max = 0;
	for (size_t i = 0; i < p->nhist; i++)
		max = p->hist[i] > max ? p->hist[i] : max;
	dash_format_sparkline(spark, sizeof(spark), sw, p->hist, p->nhist, max > 0 ? max : 1, utf8);
	int n = snprintf(out, cap, "%s%s %s", label, spark, tail);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

void dash_log_progress(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		       const struct session *s)
{
	char out[2048];
	if (r->h < 1 || !s->progress.on)
		return;
	dash_log_progress_row(out, sizeof(out), r->w, s, d->utf8);
	dash_paint_put(w, r->y, r->x, r->w, out, dash_paint_attr(d, DASH_ROLE_BAR));
}

void dash_log_load(struct dash *d, const char *path)
{
	size_t skipped = 0;
	int n = explog_load(&d->log.rows, path, &skipped);
	if (n < 0)
		dash_keys_act_say(d, "cannot read the log %s: %s", path, strerror(-n));
	else if (n > 0 || skipped)
		dash_keys_act_say(d, "log %s: %d earlier row%s%s (e shows them)", path, n,
				  n == 1 ? "" : "s", skipped ? ", some lines not rows" : "");
	d->message_bad = n < 0;
}
