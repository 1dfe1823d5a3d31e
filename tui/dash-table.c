/* dash-table.c — the threads table: head, rows, summary (dash-table.h).
 *
 * Rows come from the session's rates over the last interval, in the order
 * the user chose; in the lab each thread row says whether the thread is an
 * active GEMM thread, a parked pool worker, a background worker or the idle
 * anchor.  The summary is the demand: mean runnable threads over the
 * diagnosis window against the effective CPUs. */
#include "config.h"

#include "dash-table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"
#include "dash-paint.h"
#include "demand.h"
#include "runqlat.h"
#include "xalloc.h"
#include "dash-rows.h"
#include "session-lab.h"
#include "thread-field.h"

static enum dash_role dash_table_role(enum labview_mark m)
{
	switch (m) {
	case LABVIEW_MARK_ACTIVE:
		return DASH_ROLE_GOOD;
	case LABVIEW_MARK_PARKED:
	case LABVIEW_MARK_PAUSED:
	case LABVIEW_MARK_ANCHOR:
		return DASH_ROLE_DIM;
	case LABVIEW_MARK_WORKER:
		return DASH_ROLE_WARN;
	case LABVIEW_MARK_LOADER:
	case LABVIEW_MARK_NONE:
		break;
	}
	return DASH_ROLE_PLAIN;
}

void dash_table_view_free(struct dash_table_view *v)
{
	free(v->rows);
	memset(v, 0, sizeof(*v));
}

static struct dash_table_row *dash_table_add(struct dash_table_view *v)
{
	v->rows = xreallocarray_grow(v->rows, &v->cap, v->n + 1, sizeof(*v->rows));
	struct dash_table_row *row = &v->rows[v->n++];
	memset(row, 0, sizeof(*row));
	return row;
}

static bool dash_table_collapsed(const struct dash_table_state *t, pid_t pid)
{
	if (t->collapse_all)
		return true;
	for (size_t i = 0; i < t->ncollapsed; i++)
		if (t->collapsed[i] == pid)
			return true;
	return false;
}

/* Adds thread i of r to the process row p (and a row of its own unless the
 * process is collapsed). */
static void dash_table_thread(const struct model_sample *r, size_t i, size_t head,
			      struct dash_table_view *v)
{
	const struct model_thread *x = &r->threads[i];
	struct dash_table_row *h = &v->rows[head];
	h->nthreads++;
	for (size_t k = 0; k < THREAD_FIELD_N; k++)
		thread_field_add(&thread_field_table[k], &h->sum, x);
	h->runnable += (x->cpu_pct + x->wait_pct) / 100.0;
	if (!h->collapsed) {
		struct dash_table_row *row = dash_table_add(v);
		row->pid = x->pid;
		row->thread = i;
	}
}

void dash_table_rows(const struct model_sample *r, enum thread_field_id sort, bool grouped,
		     pid_t target, const struct dash_table_state *t, struct dash_table_view *v)
{
	v->n = 0;
	if (r->nthreads == 0)
		return;
	size_t *idx = xmalloc(r->nthreads * sizeof(*idx));
	if (!grouped) {
		dash_format_order(r->threads, r->nthreads, sort, NULL, idx);
		for (size_t k = 0; k < r->nthreads; k++) {
			struct dash_table_row *row = dash_table_add(v);
			row->pid = r->threads[idx[k]].pid;
			row->thread = idx[k];
		}
		free(idx);
		return;
	}
	/* Groups: the target's threads first, then each process's by pid (the
	 * rates are sorted by (pid, tid), so their pids come in order); one
	 * sort puts every thread under its process. */
	unsigned *group = xmalloc(r->nthreads * sizeof(*group));
	unsigned g = 0;
	for (size_t k = 0; k < r->nthreads; k++) {
		if (k > 0 && r->threads[k].pid != r->threads[k - 1].pid)
			g++;
		group[k] = r->threads[k].pid == target ? 0 : g + 1;
	}
	dash_format_order(r->threads, r->nthreads, sort, group, idx);
	size_t head = 0;
	for (size_t k = 0; k < r->nthreads; k++) {
		pid_t pid = r->threads[idx[k]].pid;
		if (k == 0 || group[idx[k]] != group[idx[k - 1]]) {
			struct dash_table_row *p = dash_table_add(v);
			p->process = true;
			p->pid = pid;
			p->collapsed = dash_table_collapsed(t, pid);
			head = v->n - 1;
		}
		dash_table_thread(r, idx[k], head, v);
	}
	free(group);
	free(idx);
}

bool dash_table_grouped(const struct session *s)
{
	return s->kind != SESSION_LAB;
}

int dash_table_body(int h)
{
	return h - 2;
}

int dash_table_body_of(const struct session *s, int h)
{
	char note[320];
	int body = dash_table_body(h);
	collector_session_note(s, note, sizeof(note));
	return note[0] && body > 2 ? body - 1 : body;
}

int dash_table_first(const struct dash_table_state *t, size_t nrows, int body)
{
	if (body < 1 || nrows <= (size_t)body)
		return 0;
	/* One body row says "N more" when rows follow: a page shows body - 1. */
	int page = body - 1;
	int top = t->top;
	if (t->cursor_on && t->cursor < top)
		top = t->cursor;
	if (t->cursor_on && t->cursor >= top + page)
		top = t->cursor - page + 1;
	int last = (int)nrows - body; /* the last page needs no "more" row */
	if (top > last)
		top = last;
	return top < 0 ? 0 : top;
}

size_t dash_table_visible(const struct session *s, const struct dash *d, int h, pid_t *tids,
			  size_t cap, long *nrows, pid_t *cursor_pid)
{
	struct dash_table_view v = {0};
	size_t k = 0;
	*nrows = 0;
	*cursor_pid = 0;
	if (!s->have_rates)
		return 0;
	dash_table_rows(&s->model, d->sort, dash_table_grouped(s), s->target, &d->table, &v);
	int body = dash_table_body_of(s, h);
	int top = dash_table_first(&d->table, v.n, body);
	for (int i = 0; i < body && (size_t)(top + i) < v.n && k < cap; i++)
		if (!v.rows[top + i].process)
			tids[k++] = s->model.threads[v.rows[top + i].thread].tid;
	*nrows = (long)v.n;
	if (d->table.cursor_on && d->table.cursor >= 0 && (size_t)d->table.cursor < v.n)
		*cursor_pid = v.rows[d->table.cursor].pid;
	dash_table_view_free(&v);
	return k;
}

static void dash_table_process_row(char *out, size_t cap, const struct dash_cols *c,
				   const struct dash_table_row *p, const struct session *s)
{
	struct model_thread t = p->sum;
	char name[MODEL_NAME_MAX];
	const struct census_proc *cp = census_find(&s->census, p->pid);
	t.pid = p->pid;
	t.tid = p->pid;
	snprintf(name, sizeof(name), "%s", cp && cp->comm[0] ? cp->comm : "");
	/* No census (a replay, or a process not read yet): its leader
	 * thread's name, which is the process's. */
	for (size_t i = 0; !name[0] && i < s->model.nthreads; i++)
		if (s->model.threads[i].tid == p->pid)
			snprintf(name, sizeof(name), "%.*s", (int)s->model.threads[i].name_len,
				 s->model.threads[i].name);
	/* The row reads like a thread row whose name says what it sums. */
	int n = snprintf(t.name, sizeof(t.name), "%s %s(%d)", p->collapsed ? "+" : "-", name,
			 p->nthreads);
	t.name_len = n < 0 ? 0 : (size_t)n < sizeof(t.name) ? (size_t)n : sizeof(t.name) - 1;
	t.state = 0;
	t.cpu = -1;
	if (c->lat) /* quantiles of the process's threads together, not summed */
		runqlat_process(&s->model, p->pid, &t.latency);
	dash_format_thread_row(out, cap, c, &t, LABVIEW_MARK_NONE);
	dash_format_process_tail(out, cap, c, p->runnable);
}

void dash_table_draw(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s)
{
	char out[1024];
	struct dash_cols c;
	const struct model_sample *rt = &s->model;
	bool grouped = dash_table_grouped(s);

	if (r->h < 2)
		return;
	dash_format_cols_lat(r->w, grouped || (s->tree && s->kind != SESSION_LAB),
			     s->have_rates && rt->lat_on, &c);
	dash_format_thread_head(out, sizeof(out), &c, d->sort);
	dash_paint_put(w, r->y, r->x, r->w, out, dash_paint_attr(d, DASH_ROLE_BOLD));
	int body = dash_table_body(r->h);
	size_t n = s->have_rates ? rt->nthreads : 0;
	if (n == 0) {
		dash_paint_put(w, r->y + 1, r->x, r->w,
			       s->target_gone
				   ? "no threads: the target has exited"
				   : "measuring (threads appear after the second sample)...",
			       dash_paint_attr(d, DASH_ROLE_DIM));
		return;
	}
	/* Why the latency columns are hidden (or the map was full): the last
	 * row of the body says so. */
	char note[320];
	collector_session_note(s, note, sizeof(note));
	if (note[0] && body > 2) {
		body = dash_table_body_of(s, r->h);
		dash_paint_put(w, r->y + 1 + body, r->x, r->w, note,
			       dash_paint_attr(d, DASH_ROLE_DIM));
	}
	struct dash_table_view v = {0};
	dash_table_rows(rt, d->sort, grouped, s->target, &d->table, &v);
	int top = dash_table_first(&d->table, v.n, body);
	bool more = v.n > (size_t)(top + body);
	int shown = more ? body - 1 : body;
	for (int i = 0; i < shown && (size_t)(top + i) < v.n; i++) {
		const struct dash_table_row *row = &v.rows[top + i];
		attr_t a;
		if (row->process) {
			dash_table_process_row(out, sizeof(out), &c, row, s);
			a = dash_paint_attr(d, DASH_ROLE_BOLD);
		} else {
			const struct model_thread *t = &rt->threads[row->thread];
			enum labview_mark m = session_lab_thread_mark(s, t);
			dash_format_thread_row(out, sizeof(out), &c, t, m);
			a = dash_paint_attr(d, dash_table_role(m));
		}
		if (d->table.cursor_on && top + i == d->table.cursor)
			a |= A_REVERSE;
		dash_paint_put(w, r->y + 1 + i, r->x, r->w, out, a);
	}
	if (more) {
		snprintf(out, sizeof(out), "  ... %zu more rows (PgDn, End; c collapses processes)",
			 v.n - (size_t)(top + shown));
		if (!grouped)
			snprintf(out, sizeof(out), "  ... %zu more threads (PgDn, End)",
				 v.n - (size_t)(top + shown));
		dash_paint_put(w, r->y + 1 + shown, r->x, r->w, out,
			       dash_paint_attr(d, DASH_ROLE_DIM));
	}
	dash_table_view_free(&v);
	double eff = s->model.budget.effective;
	double runnable = s->have_diag ? s->diag.runnable_mean : s->runnable_mean;
	enum verdict verdict = s->have_diag ? s->diag.verdict : VERDICT_N;
	dash_rows_summary(out, sizeof(out), r->w, rt, runnable, eff, verdict);
	bool over = verdict < VERDICT_N ? verdict != VERDICT_FINE && verdict != VERDICT_IDLE
					: demand_oversubscribed(demand_factor(runnable, eff));
	enum dash_role role = verdict == VERDICT_UNDERSUBSCRIBED ? DASH_ROLE_WARN
			      : over				 ? DASH_ROLE_BAD
								 : DASH_ROLE_PLAIN;
	dash_paint_put(w, r->y + r->h - 1, r->x, r->w, out, dash_paint_attr(d, role));
}
