/* dash-chart.c — the scaling chart and the per-CPU bars.
 *
 * The chart has one bar per (streams, threads) visited at the current size
 * and precision, sorted by total threads, on one scale shared with the
 * ideal and the ceiling, so the curve bends where the threads outnumber the
 * effective CPUs.  Amdahl's law fitted to the points (sweep-fit.h; the
 * speedups are to the chart's own 1x1 bar when it has one) marks each bar
 * where the fit puts it and says so in a line below the bars when
 * there is room. */
#include "config.h"

#include "dash-chart.h"

#include "dash-paint.h"

/* Rows a caption is counted in at most (more are not drawn anyway). */
#define DASH_CHART_CAPTION_MAX 64
#include "sweep-fit.h"
#include "dash-rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int dash_chart_cmp(const void *a, const void *b)
{
	const struct labview_point *x = *(const struct labview_point *const *)a;
	const struct labview_point *y = *(const struct labview_point *const *)b;
	int tx = x->streams * x->threads, ty = y->streams * y->threads;

	if (x->loaders != y->loaders)
		return (x->loaders > y->loaders) - (x->loaders < y->loaders);
	if (tx != ty)
		return (tx > ty) - (tx < ty);
	return (x->streams > y->streams) - (x->streams < y->streams);
}

void dash_chart_draw(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		     const struct session *s)
{
	const struct labview *v = &s->view;
	const struct labview_point *pts[LABVIEW_POINTS];
	size_t n = 0;
	char out[1024];
	int size = s->want.size, prec = (int)s->want.precision;
	double single = s->work.single_thread_gflops;
	double eff = s->model.budget.effective;

	if (r->h < 1)
		return;
	for (size_t i = 0; i < v->npoints && i < LABVIEW_POINTS; i++)
		if (labview_point_current(v, &v->points[i], size, prec))
			pts[n++] = &v->points[i];
	struct amdahl_fit fit;
	sweep_fit_labview(v, size, prec, single, eff, &fit);
	/* the fit's speedups are to the chart's own 1x1 bar when it has one */
	double ref = sweep_fit_labview_ref(v, size, prec, single);
	dash_rows_chart_title(out, sizeof(out), r->w, size, prec, single > 0 ? single * eff : 0.0,
			      n > 0 && fit.valid, d->utf8);
	dash_paint_put(w, r->y, r->x, r->w, out, dash_paint_attr(d, DASH_ROLE_BOLD));
	if (n == 0) {
		dash_fit_words(out, sizeof(out),
			       "no points yet: change threads with + and -, or press s to sweep",
			       r->w);
		dash_paint_put(w, r->y + 1, r->x, r->w, out, dash_paint_attr(d, DASH_ROLE_DIM));
		return;
	}
	qsort(pts, n, sizeof(pts[0]), dash_chart_cmp);
	double scale = dash_format_chart_scale(v, size, prec, single, eff);
	int rows = r->h - 1;
	/* Too many points for the rows: keep the last ones (most threads). */
	size_t first = n > (size_t)rows ? n - (size_t)rows : 0;
	for (size_t i = first; i < n; i++) {
		const struct labview_point *p = pts[i];
		bool current = p->streams == s->want.streams && p->threads == s->want.threads &&
			       p->loaders == s->want.loaders;
		double fitted = fit.valid && p->loaders == 0
				    ? ref * amdahl_speedup(fit.serial_fraction,
							      (double)p->streams * p->threads, eff)
				    : (double)NAN;
		dash_format_chart_row(out, sizeof(out), r->w, p, single, eff, scale, fitted,
				      d->utf8);
		bool out_of_fit =
		    sweep_fit_marked(p->left_out, (double)p->streams * p->threads, eff);
		attr_t a = dash_paint_attr(d, out_of_fit ? DASH_ROLE_DIM : DASH_ROLE_BAR) |
			   (current ? A_BOLD : A_NORMAL);
		dash_paint_put(w, r->y + 1 + (int)(i - first), r->x, r->w, out, a);
	}
	/* The fit's caption takes the rows the bars leave free, wrapped: the
	 * whole one where it fits, else the brief one.  Never cut: a
	 * prediction without its number misleads. */
	int free_rows = rows - (int)n;
	if (free_rows > 0 && (fit.valid || fit.points_excluded || fit.points_beyond)) {
		char line[512];
		sweep_fit_caption(line, sizeof(line), &fit);
		if (dash_paint_wrap_at(NULL, 0, 0, DASH_CHART_CAPTION_MAX, r->w, 2, line, 0) >
		    free_rows)
			sweep_fit_caption_brief(line, sizeof(line), &fit);
		int need = dash_paint_wrap_at(NULL, 0, 0, DASH_CHART_CAPTION_MAX, r->w, 2, line, 0);
		int y = r->y + 1 + (int)n;
		if (need <= free_rows)
			dash_paint_wrap_at(w, y, r->x, y + need, r->w, 2, line,
					   dash_paint_attr(d, DASH_ROLE_DIM));
	}
}

void dash_chart_cpus(WINDOW *w, const struct dash_rect *r, int per_row, const struct dash *d,
		     const struct session *s)
{
	const struct model_cpus *u = &s->model.cpus;
	char out[512];

	if (per_row < 1)
		per_row = 1;
	int cell = r->w / per_row;
	for (size_t i = 0; i < u->n && i < MODEL_CPUS_MAX; i++) {
		int row = (int)i / per_row, col = (int)i % per_row;
		if (row >= r->h)
			break;
		dash_format_cpu(out, sizeof(out), cell - 1, u->id[i], u->busy_pct[i], d->utf8);
		dash_paint_put(w, r->y + row, r->x + col * cell, cell - 1, out,
			       dash_paint_attr(d, DASH_ROLE_BAR));
	}
}
