/* dash-table.c — the threads table: head, one row per thread, summary.
 *
 * Rows come from the session's prev → cur rates, in the order the user
 * chose; in the lab each row says whether the thread is an active GEMM
 * thread, a parked pool worker, a background worker or the idle anchor. */
#include "config.h"

#include "dash-table.h"

#include "dash-paint.h"
#include "demand.h"

#include <stdlib.h>

#include "xalloc.h"

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
	case LABVIEW_MARK_NONE:
		break;
	}
	return DASH_ROLE_PLAIN;
}

void dash_table_draw(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s)
{
	char out[1024];
	struct dash_cols c;
	const struct snapshot_rates *rt = &s->rates;
	const struct lab_status *st = NULL;

	if (r->h < 2)
		return;
	if (s->kind == SESSION_LAB)
		st = &s->lab_status;
	dash_format_cols(r->w, s->tree && s->kind != SESSION_LAB, &c);
	dash_format_thread_head(out, sizeof(out), &c, d->sort);
	dash_paint_put(w, r->y, r->x, r->w, out, dash_paint_attr(d, DASH_ROLE_BOLD));
	int body = r->h - 2;
	size_t n = s->have_rates ? rt->nthreads : 0;
	if (n == 0) {
		dash_paint_put(w, r->y + 1, r->x, r->w,
			       s->target_gone
				   ? "no threads: the target has exited"
				   : "measuring (threads appear after the second sample)...",
			       dash_paint_attr(d, DASH_ROLE_DIM));
	} else {
		size_t *idx = xmalloc(n * sizeof(*idx));
		dash_format_order(rt->threads, n, d->sort, idx);
		for (int i = 0; i < body && (size_t)i < n; i++) {
			const struct thread_rate *t = &rt->threads[idx[i]];
			enum labview_mark m = labview_mark(t, st);
			dash_format_thread_row(out, sizeof(out), &c, t, m);
			dash_paint_put(w, r->y + 1 + i, r->x, r->w, out,
				       dash_paint_attr(d, dash_table_role(m)));
		}
		free(idx);
	}
	if (!s->have_rates)
		return;
	double eff = s->cur.budget.effective;
	dash_rows_summary(out, sizeof(out), r->w, rt, eff);
	bool over = demand_oversubscribed(demand_factor(rt->runnable, eff));
	dash_paint_put(w, r->y + r->h - 1, r->x, r->w, out,
		       dash_paint_attr(d, over ? DASH_ROLE_BAD : DASH_ROLE_PLAIN));
}
