/* dash-layout.c — panel rectangles from the terminal size.
 *
 * Top to bottom: header, budget, pressure, (attach) the diagnosis — the
 * verdict, the evidence, the roles and pools, the history of demand, all
 * growing with the height —, (lab) throughput and the scaling chart,
 * per-CPU bars, (lab) the workload's verdict in one row, the threads table,
 * the key bar and the message line.
 * The fixed rows come first; the chart and the CPU bars grow a little with
 * the height (so the screen does not jump as chart points arrive), and the
 * threads table takes the rest.  Wide terminals put the CPU bars beside the
 * chart instead of below it. */
#include "config.h"

#include "dash-layout.h"

#include <string.h>

#define DASH_CPU_CELL	 26 /* columns per CPU bar */
#define DASH_THREADS_MIN 5

static struct dash_rect dash_layout_rect(int y, int x, int h, int w)
{
	struct dash_rect r = {y, x, h, w};
	return r;
}

static int dash_layout_clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void dash_layout_compute(int rows, int cols, bool lab, size_t ncpus, struct dash_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->rows = rows;
	l->cols = cols;
	if (rows < DASH_MIN_ROWS || cols < DASH_MIN_COLS) {
		l->too_small = true;
		return;
	}
	int y = 0;
	l->header = dash_layout_rect(y++, 0, 1, cols);
	l->budget = dash_layout_rect(y++, 0, 1, cols);
	l->pressure = dash_layout_rect(y++, 0, 1, cols);
	int extra = rows - DASH_MIN_ROWS; /* rows beyond the minimum */
	if (lab) {
		l->throughput = dash_layout_rect(y, 0, 3, cols);
		y += 3;
	} else {
		/* three rows at 80x24: the verdict and a suggestion wrapped
		 * onto a second row rather than cut */
		int dh = dash_layout_clamp(3 + extra / 4, 3, 6);
		int rh = dash_layout_clamp(1 + extra / 8, 1, 4);
		int sh = dash_layout_clamp(1 + extra / 6, 1, 4);
		l->diag = dash_layout_rect(y, 0, dh, cols);
		y += dh;
		l->roles = dash_layout_rect(y, 0, rh, cols);
		y += rh;
		l->spark = dash_layout_rect(y, 0, sh, cols);
		y += sh;
	}
	int chart_h = lab ? dash_layout_clamp(6 + extra / 3, 6, 12) : 0;
	bool side = lab && cols >= 120;
	int cpu_w = side ? cols * 2 / 5 : cols;
	int per_row = dash_layout_clamp(cpu_w / DASH_CPU_CELL, 1, 64);
	int need = ncpus ? (int)((ncpus + (size_t)per_row - 1) / (size_t)per_row) : 1;
	int cpu_max = side ? chart_h : dash_layout_clamp(2 + extra / 4, 2, 16);
	int cpu_h = dash_layout_clamp(need, 1, cpu_max);
	l->cpu_cols = per_row;
	if (side) {
		int chart_w = cols - cpu_w - 1;
		l->chart = dash_layout_rect(y, 0, chart_h, chart_w);
		l->cpus = dash_layout_rect(y, chart_w + 1, cpu_h, cpu_w);
		y += chart_h;
	} else {
		if (lab) {
			l->chart = dash_layout_rect(y, 0, chart_h, cols);
			y += chart_h;
		}
		l->cpus = dash_layout_rect(y, 0, cpu_h, cols);
		y += cpu_h;
	}
	if (lab) /* the workload's verdict, just above its threads */
		l->diag = dash_layout_rect(y++, 0, 1, cols);
	int threads_h = rows - 2 - y;
	if (threads_h < DASH_THREADS_MIN)
		threads_h = DASH_THREADS_MIN; /* cannot happen at 80x24 */
	l->threads = dash_layout_rect(y, 0, threads_h, cols);
	l->keys = dash_layout_rect(rows - 2, 0, 1, cols);
	l->message = dash_layout_rect(rows - 1, 0, 1, cols);
}

static void dash_layout_down(struct dash_rect *r, int h)
{
	if (r->h > 0)
		r->y += h;
}

void dash_layout_caption(struct dash_layout *l, int h)
{
	if (l->too_small || h <= 0)
		return;
	int from_table = l->threads.h - DASH_THREADS_MIN;
	from_table = from_table < 0 ? 0 : from_table > h ? h : from_table;
	int from_chart = h - from_table;
	if (from_chart > l->chart.h - 2)
		from_chart = l->chart.h - 2 > 0 ? l->chart.h - 2 : 0;
	h = from_table + from_chart;
	if (h <= 0)
		return;
	struct dash_rect *below[] = {&l->budget, &l->pressure, &l->diag,   &l->roles,
				     &l->spark,	 &l->throughput, &l->chart, &l->cpus,
				     &l->threads};
	for (size_t i = 0; i < sizeof(below) / sizeof(below[0]); i++)
		dash_layout_down(below[i], h);
	/* The chart sits above the CPU bars (or beside them) and the threads. */
	if (from_chart > 0) {
		l->chart.h -= from_chart;
		if (l->cpus.y > l->chart.y && l->cpus.x == l->chart.x)
			l->cpus.y -= from_chart;
		if (l->diag.y > l->chart.y)
			l->diag.y -= from_chart;
		l->threads.y -= from_chart;
	}
	l->threads.h -= from_table;
	l->caption = (struct dash_rect){l->header.y + 1, 0, h, l->cols};
}

void dash_layout_progress(struct dash_layout *l)
{
	if (l->too_small || l->spark.h == 0 || l->threads.h <= DASH_THREADS_MIN)
		return;
	l->spark.h++;
	if (l->cpus.y > l->spark.y)
		l->cpus.y++;
	l->threads.y++;
	l->threads.h--;
}
