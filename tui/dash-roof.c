/* dash-roof.c — the roofline panel (dash-roof.h).
 *
 * x is the arithmetic intensity on a log2 scale from 1/32 to 1024 FLOPs
 * per byte (every lab kernel falls inside: the triad at 1/12 or 1/6, GEMM
 * at 2n/3e); y is GFLOP/s on a log10 scale from below the lowest figure
 * shown to above the compute roof.  Each column draws the attainable rate
 * min(compute roof, memory roof x intensity) at its intensity. */
#include "config.h"

#include "dash-roof.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dash-paint.h"

struct dash_roof_axes {
	int pw, ph;	 /* plot area, characters */
	double ylo, yhi; /* log10 GFLOP/s at the bottom and top rows */
};

static int dash_roof_col(const struct dash_roof_axes *a, double intensity)
{
	double span = DASH_ROOF_X_MAX_LOG2 - DASH_ROOF_X_MIN_LOG2;
	double c = (log2(intensity) - DASH_ROOF_X_MIN_LOG2) / span * (a->pw - 1);
	return (int)lround(c < 0 ? 0 : c > a->pw - 1 ? a->pw - 1 : c);
}

/* The row of v GFLOP/s, or -1 outside the plot. */
static int dash_roof_row(const struct dash_roof_axes *a, double v)
{
	if (!(v > 0))
		return -1;
	double f = (log10(v) - a->ylo) / (a->yhi - a->ylo);
	int r = (a->ph - 1) - (int)lround(f * (a->ph - 1));
	return r < 0 || r >= a->ph ? -1 : r;
}

/* Writes text into row y of the grid from column x, clipped. */
static void dash_roof_text(char *grid, int cols, int y, int x, const char *text)
{
	char *line = grid + (size_t)y * (cols + 1);
	for (int i = 0; text[i] && x + i < cols; i++)
		if (x + i >= 0)
			line[x + i] = text[i];
}

static void dash_roof_scale(struct dash_roof_axes *a, const struct roofline *r)
{
	double hi = r->compute_roof > 0 ? r->compute_roof : r->gflops > 0 ? r->gflops : 1;
	double lo = r->memory_roof > 0 ? r->memory_roof * exp2(DASH_ROOF_X_MIN_LOG2) : hi / 1000;
	if (r->gflops > 0 && r->gflops < lo)
		lo = r->gflops;
	if (r->gflops > hi)
		hi = r->gflops;
	a->yhi = ceil(log10(hi * 1.5));
	a->ylo = floor(log10(lo / 1.5));
	if (a->yhi - a->ylo < 2)
		a->ylo = a->yhi - 2;
}

int dash_roof_plot(char *grid, int rows, int cols, const struct roofline *r)
{
	if (rows < 6 || cols < 30)
		return -EINVAL;
	for (int y = 0; y < rows; y++) {
		memset(grid + (size_t)y * (cols + 1), ' ', (size_t)cols);
		grid[(size_t)y * (cols + 1) + cols] = '\0';
	}
	struct dash_roof_axes a = {.pw = cols - DASH_ROOF_MARGIN, .ph = rows - 2};
	dash_roof_scale(&a, r);
	char *plot = grid + DASH_ROOF_MARGIN; /* row y of the plot: plot + y * (cols + 1) */
	/* The y axis and its decades. */
	for (int y = 0; y < a.ph; y++)
		plot[(size_t)y * (cols + 1) - 1] = '|';
	for (double e = a.ylo; e <= a.yhi; e++) {
		int y = dash_roof_row(&a, pow(10, e));
		char label[16];
		snprintf(label, sizeof(label), "%*g", DASH_ROOF_MARGIN - 1, pow(10, e));
		if (y >= 0)
			dash_roof_text(grid, cols, y, 0, label);
	}
	/* The x axis, its decades, the ridge. */
	char *axis = grid + (size_t)a.ph * (cols + 1);
	axis[DASH_ROOF_MARGIN - 1] = '+';
	memset(axis + DASH_ROOF_MARGIN, '-', (size_t)a.pw);
	for (double x = 0.1; x < 1500; x *= 10) {
		char label[16];
		snprintf(label, sizeof(label), "%g", x);
		int c = DASH_ROOF_MARGIN + dash_roof_col(&a, x);
		axis[c] = '+';
		int at = c - (int)strlen(label) / 2;
		if (at + (int)strlen(label) > cols)
			at = cols - (int)strlen(label);
		dash_roof_text(grid, cols, a.ph + 1, at, label);
	}
	if (r->ridge > 0)
		axis[DASH_ROOF_MARGIN + dash_roof_col(&a, r->ridge)] = '^';
	/* The roofs, column by column. */
	int last_mem = -1, flat_from = -1;
	for (int c = 0; c < a.pw; c++) {
		double span = DASH_ROOF_X_MAX_LOG2 - DASH_ROOF_X_MIN_LOG2;
		double i = exp2(DASH_ROOF_X_MIN_LOG2 + span * c / (a.pw - 1));
		double mem = r->memory_roof > 0 ? r->memory_roof * i : (double)INFINITY;
		double top = r->compute_roof > 0 ? r->compute_roof : (double)INFINITY;
		double v = mem < top ? mem : top;
		int y = dash_roof_row(&a, v);
		if (y < 0)
			continue;
		plot[(size_t)y * (cols + 1) + c] = mem < top ? '/' : '-';
		if (mem < top)
			last_mem = c;
		else if (flat_from < 0)
			flat_from = c;
	}
	/* Each roof's figure, above it. */
	char label[64];
	if (r->compute_roof > 0 && flat_from >= 0) {
		int y = dash_roof_row(&a, r->compute_roof);
		snprintf(label, sizeof(label), "compute %.1f GFLOP/s", r->compute_roof);
		int x = a.pw - (int)strlen(label);
		if (x < flat_from)
			x = flat_from;
		if (y > 0)
			dash_roof_text(grid, cols, y - 1, DASH_ROOF_MARGIN + x, label);
	}
	if (r->memory_roof > 0 && last_mem >= 0) {
		/* By the slope's start: the left end, just above the line. */
		double i = exp2(DASH_ROOF_X_MIN_LOG2 + 1);
		int y = dash_roof_row(&a, r->memory_roof * i);
		snprintf(label, sizeof(label), "memory %.1f GB/s", r->memory_roof);
		if (y > 1)
			dash_roof_text(grid, cols, y - 2, DASH_ROOF_MARGIN + 1, label);
	}
	/* The kernel's point last: it wins over the roofs and labels. */
	if (r->gflops > 0 && r->intensity > 0) {
		int y = dash_roof_row(&a, r->gflops);
		if (y >= 0)
			plot[(size_t)y * (cols + 1) + dash_roof_col(&a, r->intensity)] = 'X';
	}
	return 0;
}

size_t dash_roof_caption(char *out, size_t cap, const char *kernel, int size,
			 const struct roofline *r)
{
	char what[48];
	if (strcmp(kernel, "triad") == 0)
		snprintf(what, sizeof(what), "triad");
	else
		snprintf(what, sizeof(what), "GEMM n=%d", size);
	int n;
	if (r->bound == ROOFLINE_UNKNOWN)
		n = snprintf(out, cap,
			     "X %s: %.3g FLOP/B. %s: the bound needs both roofs (o measures them).",
			     what, r->intensity,
			     r->memory_roof > 0 ? "The compute roof is not measured yet"
						: "The memory roof is not measured yet");
	else if (r->bound == ROOFLINE_MEMORY)
		n = snprintf(out, cap,
			     "X %s: %.3g FLOP/B, below the ridge at %.3g: memory-bound. It moves "
			     "%.1f GB/s of the %.1f GB/s the memory gives; more threads help only "
			     "until they use up that bandwidth, then they wait on memory together.",
			     what, r->intensity, r->ridge, r->gbs > 0 ? r->gbs : 0, r->memory_roof);
	else
		n = snprintf(out, cap,
			     "X %s: %.3g FLOP/B, above the ridge at %.3g: compute-bound. It does "
			     "%.1f of the %.1f GFLOP/s the CPUs can (the 1-thread rate x the "
			     "CPUs); more threads help until they fill the CPUs, memory is not the "
			     "limit.",
			     what, r->intensity, r->ridge, r->gflops > 0 ? r->gflops : 0,
			     r->compute_roof);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

void dash_roof_draw(WINDOW *w, const struct dash *d, const struct session *s)
{
	int rows, cols;
	getmaxyx(w, rows, cols);
	const struct workload_report *wr = &s->work;
	const struct roofline *r = &wr->roofline;
	char line[512];
	snprintf(line, sizeof(line), "Roofline: %s %s | x FLOP/byte, y GFLOP/s, log-log | o closes",
		 wr->kernel ? wr->kernel : "gemm", wr->precision ? wr->precision : "");
	dash_paint_put(w, 0, 0, cols, line, dash_paint_attr(d, DASH_ROLE_BOLD));
	char caption[512];
	dash_roof_caption(caption, sizeof(caption), wr->kernel ? wr->kernel : "gemm", wr->size, r);
	/* The caption's lines at this width, counted off-screen. */
	int ncap = dash_paint_wrap(NULL, 0, rows, cols, 2, caption, 0);
	int ph = rows - 3 - ncap; /* title, key bar, message line */
	if (ph >= 6 && cols >= 30) {
		static char grid[64 * 512];
		int gc = cols < 511 ? cols : 511, gr = ph < 64 ? ph : 64;
		dash_roof_plot(grid, gr, gc, r);
		for (int y = 0; y < gr; y++)
			dash_paint_put(w, 1 + y, 0, gc, grid + (size_t)y * (gc + 1),
				       dash_paint_attr(d, DASH_ROLE_PLAIN));
		dash_paint_wrap(w, 1 + gr, rows - 2, cols, 2, caption,
				dash_paint_attr(d, r->bound == ROOFLINE_MEMORY ? DASH_ROLE_WARN
									       : DASH_ROLE_PLAIN));
	} else {
		dash_paint_wrap(w, 1, rows - 2, cols, 2, caption,
				dash_paint_attr(d, DASH_ROLE_PLAIN));
	}
}
