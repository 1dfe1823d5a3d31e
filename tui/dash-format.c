/* dash-format.c — the dashboard's rows as text (see dash-format.h).
 *
 * Widths are counted in terminal columns over UTF-8: names are made safe
 * first (text_safe), then cut and padded with dash_fit(), so a hostile or
 * wide name can neither move the cursor nor shift the columns after it. */
#include "config.h"

#include "dash-format.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency-out.h"
#include "sweep-fit.h"
#include "text-safe.h"
#include "thread-field.h"
#include "throughput.h"
#include "xalloc.h"

const char *dash_format_sort_name(enum thread_field_id sort)
{
	const char *t = sort < THREAD_FIELD_N ? thread_field_table[sort].sort_title : NULL;
	return t ? t : "?";
}

/* The field the table is sorted by; NULL for one that does not sort. */
static const struct thread_field *dash_format_sorted(enum thread_field_id sort)
{
	return sort < THREAD_FIELD_N && thread_field_table[sort].sort_title
		   ? &thread_field_table[sort]
		   : NULL;
}

/* Appends printf output at *o (never past cap). */
static void dash_format_add(char *out, size_t cap, size_t *o, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void dash_format_add(char *out, size_t cap, size_t *o, const char *fmt, ...)
{
	va_list ap;

	if (*o + 1 >= cap)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(out + *o, cap - *o, fmt, ap);
	va_end(ap);
	if (n > 0)
		*o += (size_t)n < cap - *o ? (size_t)n : cap - *o - 1;
}

/* Appends s fitted to width columns. */
static void dash_format_cell(char *out, size_t cap, size_t *o, const char *s, int width, bool right)
{
	if (*o + 1 >= cap)
		return;
	*o += dash_fit(out + *o, cap - *o, s, width, true, right);
}

/* ---- threads table ---------------------------------------------------- */

/* The columns are the thread fields' (thread-field.h): each field with a
 * dashboard column is a cell of its dash_width (the name's fits the
 * terminal) and a gap, in the order of dash_col, one cell per head of its
 * dash_head (latency: P50, P99, MAX); MARK ends the row.  Which optional
 * groups of columns show is decided here, by width. */

#define DASH_COL_MARK 6	 /* MARK's head and its room */
#define DASH_NAME_MIN 15 /* the name's column, at the least */
#define DASH_NAME_MAX 24 /* and at the most */

/* The field in the dashboard's place col (from 1), NULL when none. */
static const struct thread_field *dash_format_column(int col)
{
	for (size_t k = 0; k < THREAD_FIELD_N; k++)
		if (thread_field_table[k].dash != THREAD_FIELD_DASH_NONE &&
		    thread_field_table[k].dash_col == col)
			return &thread_field_table[k];
	return NULL;
}

/* Head number sub of f's dash_head into out; false when it has no such
 * head. */
static bool dash_format_head(const struct thread_field *f, int sub, char *out, size_t cap)
{
	const char *h = f->dash_head;
	for (int i = 0; i < sub && h; i++) {
		h = strchr(h, ' ');
		h = h ? h + 1 : NULL;
	}
	if (!h)
		return false;
	size_t n = strcspn(h, " ");
	snprintf(out, cap, "%.*s", (int)n, h);
	return true;
}

/* Columns (cells with their gaps) the fields of group g take; a cell of
 * the layout's width counts its gap only. */
static int dash_format_group_cols(enum thread_field_dash g)
{
	char h[16];
	int cols = 0;
	for (size_t k = 0; k < THREAD_FIELD_N; k++) {
		const struct thread_field *f = &thread_field_table[k];
		if (f->dash != g)
			continue;
		for (int sub = 0; dash_format_head(f, sub, h, sizeof(h)); sub++)
			cols += abs(f->dash_width) + 1;
	}
	return cols;
}

/* Whether head sub of f shows under the layout c. */
static bool dash_format_shown(const struct dash_cols *c, const struct thread_field *f, int sub)
{
	switch (f->dash) {
	case THREAD_FIELD_DASH_ALWAYS:
		return true;
	case THREAD_FIELD_DASH_PID:
		return c->pid;
	case THREAD_FIELD_DASH_SPLIT:
		return c->split;
	case THREAD_FIELD_DASH_VCSW:
		return c->vcsw;
	case THREAD_FIELD_DASH_LATENCY:
		return sub == 0 ? c->p50 : c->lat;
	case THREAD_FIELD_DASH_ACTIVITY:
		return c->act;
	case THREAD_FIELD_DASH_NONE:
		break;
	}
	return false;
}

void dash_format_cols(int width, bool tree, struct dash_cols *c)
{
	dash_format_cols_lat(width, tree, false, c);
}

void dash_format_cols_lat(int width, bool tree, bool lat, struct dash_cols *c)
{
	int pid = dash_format_group_cols(THREAD_FIELD_DASH_PID);
	int split = dash_format_group_cols(THREAD_FIELD_DASH_SPLIT);
	int vcsw = dash_format_group_cols(THREAD_FIELD_DASH_VCSW);
	int act = dash_format_group_cols(THREAD_FIELD_DASH_ACTIVITY);
	int lat_all = dash_format_group_cols(THREAD_FIELD_DASH_LATENCY), lat_one = lat_all / 3;
	c->width = width;
	c->pid = tree || width >= 96;
	c->split = true;
	c->lat = c->p50 = lat;
	int base = dash_format_group_cols(THREAD_FIELD_DASH_ALWAYS) + split + DASH_COL_MARK +
		   (c->pid ? pid : 0),
	    room = width - base - DASH_NAME_MIN;
	if (lat && room < lat_all) {
		c->split = false; /* the latency tail says more than the user/system split */
		room += split;
		c->p50 = room >= lat_all;
	}
	int latw = lat ? (c->p50 ? lat_all : lat_all - lat_one) : 0;
	c->vcsw = width >= 104 && room - latw >= vcsw;
	/* ACT after the latency columns, where the row still has room for it */
	c->act =
	    width >= 84 + (c->pid ? pid : 0) && (!lat || room - latw - (c->vcsw ? vcsw : 0) >= act);
	int fixed =
	    base - (c->split ? 0 : split) + latw + (c->vcsw ? vcsw : 0) + (c->act ? act : 0);
	int name = width - fixed;
	c->name_w = name < DASH_NAME_MIN   ? DASH_NAME_MIN
		    : name > DASH_NAME_MAX ? DASH_NAME_MAX
					   : name;
}

size_t dash_format_thread_head(char *out, size_t cap, const struct dash_cols *c,
			       enum thread_field_id sort)
{
	const struct thread_field *sorted = dash_format_sorted(sort);
	size_t o = 0;
	char h[16], t[20];

	out[0] = '\0';
	for (int col = 1; col <= THREAD_FIELD_N; col++) {
		const struct thread_field *f = dash_format_column(col);
		for (int sub = 0; f && dash_format_head(f, sub, h, sizeof(h)); sub++) {
			if (!dash_format_shown(c, f, sub))
				continue;
			bool star = f == sorted && strcmp(h, f->sort_title) == 0;
			snprintf(t, sizeof(t), "%s%s", star ? "*" : "", h);
			dash_format_cell(out, cap, &o, t,
					 f->dash_width ? abs(f->dash_width) : c->name_w,
					 f->dash_width > 0);
			dash_format_add(out, cap, &o, " ");
		}
	}
	dash_format_add(out, cap, &o, "MARK");
	return o;
}

/* An INT cell: "-" for a value that is not known (a process row's CPU,
 * -1), 0 for one too wide for its cell. */
static void dash_format_int(char *out, size_t cap, size_t *o, int width, double v)
{
	double lim = 1;
	for (int i = 0; i < abs(width); i++)
		lim *= 10;
	if (v < 0)
		dash_format_add(out, cap, o, "%*s ", width, "-");
	else
		dash_format_add(out, cap, o, "%*d ", width, v < lim ? (int)v : 0);
}

size_t dash_format_thread_row(char *out, size_t cap, const struct dash_cols *c,
			      const struct model_thread *r, enum labview_mark m)
{
	char safe[4 * MODEL_NAME_MAX], ms[16];
	size_t o = 0;
	const char *act = r->activity ? activity_name(r->activity) : "";

	out[0] = '\0';
	for (int col = 1; col <= THREAD_FIELD_N; col++) {
		const struct thread_field *f = dash_format_column(col);
		if (!f || (f->kind != THREAD_FIELD_KIND_LATENCY && !dash_format_shown(c, f, 0)))
			continue;
		int w = f->dash_width;
		switch (f->kind) {
		case THREAD_FIELD_KIND_INT:
			dash_format_int(out, cap, &o, w, thread_field_value(f, r));
			break;
		case THREAD_FIELD_KIND_NAME:
			text_safe(r->name, r->name_len, safe, sizeof(safe));
			dash_format_cell(out, cap, &o, safe, c->name_w, false);
			dash_format_add(out, cap, &o, " ");
			break;
		case THREAD_FIELD_KIND_STATE: {
			/* A process row (state 0) has no state. */
			char s = r->state == 0			      ? '-'
				 : r->state >= 'A' && r->state <= 'z' ? r->state
								      : '?';
			dash_format_add(out, cap, &o, "%*c ", w, s);
			break;
		}
		case THREAD_FIELD_KIND_RATE:
			dash_format_add(out, cap, &o, "%*.*f ", w, f->dash_decimals,
					thread_field_value(f, r));
			break;
		case THREAD_FIELD_KIND_LATENCY: {
			const double q[3] = {r->latency.p50_s, r->latency.p99_s, r->latency.max_s};
			for (int sub = 0; sub < 3; sub++) {
				if (!dash_format_shown(c, f, sub))
					continue;
				latency_out_ms(ms, sizeof(ms), w, &r->latency, q[sub]);
				dash_format_add(out, cap, &o, "%s ", ms);
			}
			break;
		}
		case THREAD_FIELD_KIND_ACTIVITY:
			dash_format_add(out, cap, &o, "%*s ", w, act[0] ? act : "-");
			break;
		}
	}
	const char *mark = labview_mark_name(m);
	/* below the ACT column's width, the activity stands in MARK, short
	 * when the row leaves it fewer columns than ACT's */
	int act_w = abs(thread_field_table[THREAD_FIELD_ACTIVITY].dash_width);
	if (!mark[0] && !c->act && c->width - (int)dash_fit_width(out) < act_w)
		act = r->activity ? activity_short(r->activity) : "";
	dash_format_add(out, cap, &o, "%s", mark[0] || c->act ? mark : act);
	return o;
}

void dash_format_process_tail(char *out, size_t cap, const struct dash_cols *c, double runnable)
{
	char forms[3][32];
	snprintf(forms[0], sizeof(forms[0]), "%.1f run", runnable);
	snprintf(forms[1], sizeof(forms[1]), "%.1fr", runnable);
	snprintf(forms[2], sizeof(forms[2]), "%.1f", runnable);
	int room = c->width - (int)dash_fit_width(out);
	size_t o = strlen(out);
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(forms[i]);
		if ((int)n <= room && o + n < cap) {
			memcpy(out + o, forms[i], n + 1);
			return;
		}
	}
}

struct dash_format_key {
	const struct model_thread *v;
	const struct thread_field *f;
	const double *value; /* f's value of each thread; NULL for a name */
	const unsigned *group; /* NULL: one group */
};

static int dash_format_cmp(const void *a, const void *b, void *arg)
{
	const struct dash_format_key *k = arg;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	if (k->group && k->group[ia] != k->group[ib])
		return k->group[ia] < k->group[ib] ? -1 : 1;
	const struct model_thread *x = &k->v[ia], *y = &k->v[ib];
	int c = 0;
	if (!k->value) {
		size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
		c = memcmp(x->name, y->name, n);
		if (c == 0)
			c = (x->name_len > y->name_len) - (x->name_len < y->name_len);
	} else {
		double dx = k->value[ia], dy = k->value[ib];
		c = k->f->sort_ascending ? (dx > dy) - (dx < dy) : (dx < dy) - (dx > dy);
	}
	if (c == 0)
		c = (x->tid > y->tid) - (x->tid < y->tid);
	return c;
}

/* The sort key of each thread is computed once, not at each of the
 * n log n comparisons: with 10,000 threads the comparisons' field look-ups
 * were most of a tick's sorting. */
void dash_format_order(const struct model_thread *v, size_t n, enum thread_field_id sort,
		       const unsigned *group, size_t *idx)
{
	const struct thread_field *f = dash_format_sorted(sort);
	if (!f)
		f = &thread_field_table[thread_field_sort_next(THREAD_FIELD_N, +1, false)];
	double *value = NULL;
	if (f->kind != THREAD_FIELD_KIND_NAME && n > 1) {
		value = xmalloc(n * sizeof(*value));
		for (size_t i = 0; i < n; i++)
			value[i] = thread_field_value(f, &v[i]);
	}
	struct dash_format_key k = {v, f, value, group};

	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	if (n > 1)
		qsort_r(idx, n, sizeof(*idx), dash_format_cmp, &k);
	free(value);
}

/* ---- bars, sparkline, chart ------------------------------------------ */

static const char *const dash_format_eighths[8] = {"",	     "\u258f", "\u258e", "\u258d",
						   "\u258c", "\u258b", "\u258a", "\u2589"};

/* Column (0..width-1) of x on a 0..max scale, or -1 when outside it (or
 * either is not a finite number). */
static int dash_format_col(double x, double max, int width)
{
	if (!isfinite(x) || !isfinite(max) || x <= 0 || max <= 0 || x > max * 1.0001 || width <= 0)
		return -1;
	int c = (int)(x / max * width);
	return c >= width ? width - 1 : c;
}

static size_t dash_format_bar_marks(char *out, size_t cap, int width, double value, double max,
				    double ideal, double ceiling, double fitted, bool utf8);

size_t dash_format_bar(char *out, size_t cap, int width, double value, double max, double ideal,
		       double ceiling, bool utf8)
{
	return dash_format_bar_marks(out, cap, width, value, max, ideal, ceiling, NAN, utf8);
}

/* The bar with the Amdahl fit's mark too (fitted NAN: none). */
static size_t dash_format_bar_marks(char *out, size_t cap, int width, double value, double max,
				    double ideal, double ceiling, double fitted, bool utf8)
{
	size_t o = 0;

	out[0] = '\0';
	if (width <= 0)
		return 0;
	/* NaN draws nothing; +Inf, or anything past max, a full bar. */
	double cells = max > 0 && value > 0 ? value / max * width : 0;
	if (isnan(cells))
		cells = isinf(value) && !isinf(max) ? width : 0;
	if (cells > width)
		cells = width;
	int full = (int)cells;
	int eighth = (int)((cells - full) * 8 + 0.5);
	if (eighth == 8)
		full++, eighth = 0;
	if (!utf8 && eighth >= 4)
		full++;
	if (full > width)
		full = width;
	int ideal_c = dash_format_col(ideal, max, width);
	int ceil_c = dash_format_col(ceiling, max, width);
	int fit_c = dash_format_col(fitted, max, width);
	for (int i = 0; i < width; i++) {
		const char *ch;
		if (i == ceil_c)
			ch = utf8 ? "\u2502" : "|";
		else if (i == fit_c)
			ch = utf8 ? "\u25c6" : "o";
		else if (i == ideal_c)
			ch = utf8 ? "\u250a" : ":";
		else if (i < full)
			ch = utf8 ? "\u2588" : "#";
		else if (i == full && utf8 && eighth > 0)
			ch = dash_format_eighths[eighth];
		else
			ch = " ";
		dash_format_add(out, cap, &o, "%s", ch);
	}
	return o;
}

size_t dash_format_sparkline(char *out, size_t cap, int width, const double *v, size_t n,
			     double max, bool utf8)
{
	static const char *const blocks[8] = {"\u2581", "\u2582", "\u2583", "\u2584",
					      "\u2585", "\u2586", "\u2587", "\u2588"};
	static const char ascii[8] = {'.', ':', '-', '=', '+', '*', '#', '@'};
	size_t o = 0;

	out[0] = '\0';
	if (width <= 0)
		return 0;
	size_t show = n < (size_t)width ? n : (size_t)width;
	const double *p = v + (n - show);
	/* No scale, or one that is not finite: the largest finite point. */
	if (!(max > 0) || !isfinite(max)) {
		max = 0;
		for (size_t i = 0; i < show; i++)
			max = isfinite(p[i]) && p[i] > max ? p[i] : max;
	}
	for (int i = 0; i < width - (int)show; i++)
		dash_format_add(out, cap, &o, " ");
	for (size_t i = 0; i < show; i++) {
		/* NaN and nothing: blank; +Inf and past the scale: the top. */
		int level = 0;
		if (p[i] > 0 && (p[i] >= max || !isfinite(p[i])))
			level = 8;
		else if (p[i] > 0)
			level = (int)(p[i] / max * 8 + 0.5);
		if (level == 0 && p[i] > 0)
			level = 1; /* any work at all shows */
		if (level == 0)
			dash_format_add(out, cap, &o, " ");
		else if (utf8)
			dash_format_add(out, cap, &o, "%s", blocks[level - 1]);
		else
			dash_format_add(out, cap, &o, "%c", ascii[level - 1]);
	}
	return o;
}

double dash_format_chart_scale(const struct labview *v, int size, int precision, double single,
			       double effective)
{
	double max = single > 0 ? throughput_ceiling(single, effective) : 0;

	for (size_t i = 0; i < v->npoints; i++) {
		const struct labview_point *p = &v->points[i];
		if (!labview_point_current(v, p, size, precision))
			continue;
		if (p->gflops > max)
			max = p->gflops;
		double ideal = throughput_ideal(single, (double)p->streams * p->threads, effective);
		if (single > 0 && ideal > max)
			max = ideal;
	}
	return max > 0 ? max * 1.05 : 1.0;
}

#define DASH_CHART_LABEL 7  /* "16x4 L8" */
#define DASH_CHART_TAIL	 13 /* " %6.1f %4.0f%%" */

size_t dash_format_chart_row(char *out, size_t cap, int width, const struct labview_point *p,
			     double single, double effective, double scale, double fitted,
			     bool utf8)
{
	char label[24];
	size_t o = 0;

	out[0] = '\0';
	if (p->loaders > 0)
		snprintf(label, sizeof(label), "%dx%d L%d", p->streams, p->threads, p->loaders);
	else
		/* starred as the fit's caption says: left out of it */
		snprintf(label, sizeof(label), "%dx%d%s", p->streams, p->threads,
			 sweep_fit_marked(p->left_out, (double)p->streams * p->threads, effective)
			     ? "*"
			     : "");
	dash_format_cell(out, cap, &o, label, DASH_CHART_LABEL, true);
	dash_format_add(out, cap, &o, " ");
	double ideal =
	    single > 0 ? throughput_ideal(single, (double)p->streams * p->threads, effective) : 0;
	double ceiling = single > 0 ? throughput_ceiling(single, effective) : 0;
	int bar = width - DASH_CHART_LABEL - 1 - DASH_CHART_TAIL;
	if (bar > 0 && o + 1 < cap)
		o += dash_format_bar_marks(out + o, cap - o, bar, p->gflops, scale, ideal, ceiling,
					   fitted, utf8);
	if (ideal > 0)
		dash_format_add(out, cap, &o, " %6.1f %4.0f%%", p->gflops,
				100.0 * throughput_efficiency(p->gflops, ideal));
	else
		dash_format_add(out, cap, &o, " %6.1f     ?", p->gflops);
	return o;
}

size_t dash_format_cpu(char *out, size_t cap, int width, int id, double busy_pct, bool utf8)
{
	char label[16];
	size_t o = 0;

	out[0] = '\0';
	snprintf(label, sizeof(label), "cpu%d", id);
	dash_format_cell(out, cap, &o, label, 6, false);
	int bar = width - 6 - 5;
	if (bar > 0 && o + 1 < cap)
		o += dash_format_bar(out + o, cap - o, bar, busy_pct, 100.0, 0, 0, utf8);
	dash_format_add(out, cap, &o, " %3.0f%%", busy_pct < 0 ? 0 : busy_pct);
	return o;
}
