/* dash-layout.h — where each panel goes for a terminal size.
 *
 * Pure: a function of the size, the mode and the CPU count, so tests check
 * it without a terminal. */
#ifndef THREADLAB_DASH_LAYOUT_H
#define THREADLAB_DASH_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#define DASH_MIN_COLS 80
#define DASH_MIN_ROWS 24

/* A panel's rectangle; h == 0 means the panel is not shown. */
struct dash_rect {
	int y, x, h, w;
};

struct dash_layout {
	int rows, cols;
	bool too_small;		     /* below DASH_MIN_COLS x DASH_MIN_ROWS: only the notice */
	struct dash_rect header;     /* 1 row: mode, settings, interval */
	struct dash_rect caption;    /* the tour's status and caption under the header;
				      * h 0 unless dash_layout_caption() made room */
	struct dash_rect budget;     /* 1 row: CPU budget */
	struct dash_rect pressure;   /* 1 row: throttling, run-queue wait, PSI */
	struct dash_rect diag;	     /* the verdict: lab 1 row; attach the verdict, its
				      * suggestion and evidence, 2 rows and more */
	struct dash_rect roles;	     /* attach: roles and pools, 1 row and more */
	struct dash_rect spark;	     /* attach: history of runnable, CPU, wait, throttling */
	struct dash_rect throughput; /* lab: 3 rows: figures, useful vs busy CPU, history */
	struct dash_rect chart;	     /* lab: title row + one row per point */
	struct dash_rect cpus;	     /* title-less per-CPU bars, several per row */
	int cpu_cols;		     /* bars per row in cpus */
	struct dash_rect threads;    /* head row, rows, summary row */
	struct dash_rect keys;	     /* 1 row: key bar */
	struct dash_rect message;    /* 1 row: message line */
};

/* Computes the panels for a rows x cols terminal.  lab: the workload panels
 * are shown; ncpus: CPUs to draw bars for.  From 120 columns on, in the
 * lab, the per-CPU bars sit to the right of the chart. */
void dash_layout_compute(int rows, int cols, bool lab, size_t ncpus, struct dash_layout *l);

/* Makes room for h caption rows right under the header: every panel below
 * moves down, the threads table (then the chart) gives up the rows. */
void dash_layout_caption(struct dash_layout *l, int h);
/* The job's progress (--progress): one more row atop spark, taken from the
 * threads table.  Nothing when spark is empty or the table has no row to
 * spare. */
void dash_layout_progress(struct dash_layout *l);

#endif
