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
#include "text-safe.h"
#include "thread-field.h"
#include "throughput.h"

/* The thread field each order sorts by (monitor/thread-field.h): its
 * sort_title heads the column and names the order. */
static const enum thread_field_id dash_format_sort_fields[DASH_NSORT] = {
    [DASH_SORT_CPU] = THREAD_FIELD_CPU_PCT, [DASH_SORT_WAIT] = THREAD_FIELD_WAIT_PCT,
    [DASH_SORT_IVCSW] = THREAD_FIELD_IVCSW, [DASH_SORT_TID] = THREAD_FIELD_TID,
    [DASH_SORT_NAME] = THREAD_FIELD_NAME,   [DASH_SORT_P99] = THREAD_FIELD_LATENCY,
};

const char *dash_format_sort_name(enum dash_sort s)
{
	return s < DASH_NSORT ? thread_field_table[dash_format_sort_fields[s]].sort_title : "?";
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

#define DASH_COL_FIXED 55 /* every column but NAME, PID and VCS/s, with gaps; MARK 6 */
#define DASH_COL_SPLIT 12 /* USR% and SYS% */
#define DASH_COL_LAT   7  /* one latency column with its gap */

void dash_format_cols(int width, bool tree, struct dash_cols *c)
{
	dash_format_cols_lat(width, tree, false, c);
}

void dash_format_cols_lat(int width, bool tree, bool lat, struct dash_cols *c)
{
	c->width = width;
	c->pid = tree || width >= 96;
	c->split = true;
	c->lat = c->p50 = lat;
	int base = DASH_COL_FIXED + (c->pid ? 8 : 0), room = width - base - 15;
	if (lat && room < 3 * DASH_COL_LAT) {
		c->split = false; /* the latency tail says more than the user/system split */
		room += DASH_COL_SPLIT;
		c->p50 = room >= 3 * DASH_COL_LAT;
	}
	int latw = lat ? (c->p50 ? 3 : 2) * DASH_COL_LAT : 0;
	c->vcsw = width >= 104 && room - latw >= 8;
	/* ACT after the latency columns, where the row still has room for it */
	c->act = width >= 84 + (c->pid ? 8 : 0) && (!lat || room - latw - (c->vcsw ? 8 : 0) >= 12);
	int fixed =
	    base - (c->split ? 0 : DASH_COL_SPLIT) + latw + (c->vcsw ? 8 : 0) + (c->act ? 12 : 0);
	int name = width - fixed;
	c->name_w = name < 15 ? 15 : name > 24 ? 24 : name;
}

size_t dash_format_thread_head(char *out, size_t cap, const struct dash_cols *c,
			       enum dash_sort sort)
{
	size_t o = 0;
	char t[16];

#define DASH_HEAD(key, w, right)                                                                   \
	do {                                                                                       \
		snprintf(t, sizeof(t), "%s%s", sort == (key) ? "*" : "",                           \
			 dash_format_sort_name(key));                                              \
		dash_format_cell(out, cap, &o, t, w, right);                                       \
	} while (0)
	out[0] = '\0';
	if (c->pid) {
		dash_format_cell(out, cap, &o, "PID", 7, true);
		dash_format_add(out, cap, &o, " ");
	}
	DASH_HEAD(DASH_SORT_TID, 7, true);
	dash_format_add(out, cap, &o, " ");
	DASH_HEAD(DASH_SORT_NAME, c->name_w, false);
	dash_format_add(out, cap, &o, " S CPU ");
	DASH_HEAD(DASH_SORT_CPU, 6, true);
	dash_format_add(out, cap, &o, c->split ? "  USR%%  SYS%% " : " ");
	DASH_HEAD(DASH_SORT_WAIT, 6, true);
	dash_format_add(out, cap, &o, " ");
	DASH_HEAD(DASH_SORT_IVCSW, 7, true);
	if (c->vcsw)
		dash_format_add(out, cap, &o, " %7s ", "VCS/s");
	else
		dash_format_add(out, cap, &o, " ");
	if (c->p50)
		dash_format_add(out, cap, &o, "   P50 ");
	if (c->lat) {
		DASH_HEAD(DASH_SORT_P99, 6, true);
		dash_format_add(out, cap, &o, "    MAX ");
	}
	if (c->act)
		dash_format_add(out, cap, &o, "%-11s ", "ACT");
	dash_format_add(out, cap, &o, "MARK");
#undef DASH_HEAD
	return o;
}

size_t dash_format_thread_row(char *out, size_t cap, const struct dash_cols *c,
			      const struct model_thread *r, enum labview_mark m)
{
	char safe[4 * MODEL_NAME_MAX];
	size_t o = 0;

	out[0] = '\0';
	if (c->pid)
		dash_format_add(out, cap, &o, "%7d ", (int)r->pid);
	dash_format_add(out, cap, &o, "%7d ", (int)r->tid);
	text_safe(r->name, r->name_len, safe, sizeof(safe));
	dash_format_cell(out, cap, &o, safe, c->name_w, false);
	/* A process row (state 0, cpu -1) has neither a state nor a CPU. */
	char state = r->state == 0 ? '-' : r->state >= 'A' && r->state <= 'z' ? r->state : '?';
	if (r->cpu < 0)
		dash_format_add(out, cap, &o, " %c   - %6.1f ", state, r->cpu_pct);
	else
		dash_format_add(out, cap, &o, " %c %3d %6.1f ", state, r->cpu < 1000 ? r->cpu : 0,
				r->cpu_pct);
	if (c->split)
		dash_format_add(out, cap, &o, "%5.1f %5.1f ", r->user_pct, r->sys_pct);
	dash_format_add(out, cap, &o, "%6.1f %7.0f ", r->wait_pct, r->ivcsw_per_s);
	if (c->vcsw)
		dash_format_add(out, cap, &o, "%7.0f ", r->vcsw_per_s);
	char ms[16];
	if (c->p50) {
		latency_out_ms(ms, sizeof(ms), 6, &r->latency, r->latency.p50_s);
		dash_format_add(out, cap, &o, "%s ", ms);
	}
	if (c->lat) {
		latency_out_ms(ms, sizeof(ms), 6, &r->latency, r->latency.p99_s);
		dash_format_add(out, cap, &o, "%s ", ms);
		latency_out_ms(ms, sizeof(ms), 6, &r->latency, r->latency.max_s);
		dash_format_add(out, cap, &o, "%s ", ms);
	}
	const char *act = r->activity ? activity_name(r->activity) : "";
	if (c->act)
		dash_format_add(out, cap, &o, "%-11s ", act[0] ? act : "-");
	const char *mark = labview_mark_name(m);
	/* below the ACT column's width, the activity stands in MARK, short
	 * when the row leaves it fewer than 11 columns */
	if (!mark[0] && !c->act && c->width - dash_fit_width(out) < 11)
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
	enum dash_sort sort;
	const unsigned *group; /* NULL: one group */
};

static int dash_format_cmp(const void *a, const void *b, void *arg)
{
	const struct dash_format_key *k = arg;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	if (k->group && k->group[ia] != k->group[ib])
		return k->group[ia] < k->group[ib] ? -1 : 1;
	const struct model_thread *x = &k->v[ia], *y = &k->v[ib];
	const struct thread_field *f =
	    &thread_field_table[dash_format_sort_fields[k->sort < DASH_NSORT ? k->sort : 0]];
	double dx = 0, dy = 0;
	int c = 0;

	if (f->kind == THREAD_FIELD_KIND_NAME) {
		size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
		c = memcmp(x->name, y->name, n);
		if (c == 0)
			c = (x->name_len > y->name_len) - (x->name_len < y->name_len);
	} else if (k->sort != DASH_SORT_TID) {
		dx = thread_field_value(f, x), dy = thread_field_value(f, y);
	}
	if (c == 0)
		c = (dx < dy) - (dx > dy); /* highest first */
	if (c == 0)
		c = (x->tid > y->tid) - (x->tid < y->tid);
	return c;
}

void dash_format_order(const struct model_thread *v, size_t n, enum dash_sort sort,
		       const unsigned *group, size_t *idx)
{
	struct dash_format_key k = {v, sort, group};

	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	if (n > 1)
		qsort_r(idx, n, sizeof(*idx), dash_format_cmp, &k);
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
		snprintf(label, sizeof(label), "%dx%d%s", p->streams, p->threads,
			 p->left_out ? "*" : "");
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
