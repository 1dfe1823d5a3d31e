/* dash-format.h — the dashboard's rows as text: pure functions.
 *
 * Every function here formats into a caller's buffer and touches neither
 * the terminal nor the system, so tests check the text without a screen.
 * Text is UTF-8; widths are terminal columns, not bytes.  Foreign names go
 * through text_safe() here before they are padded.  Each function writes at
 * most cap bytes (NUL included) and returns the bytes written (without the
 * NUL).  Functions taking a width fit their row to it as dash-fit.h says:
 * shorter labels first, then fewer fields, never a word cut in two.
 * dash-format.c holds the table, bars and chart; dash-rows.c the one-line
 * panels. */
#ifndef THREADLAB_DASH_FORMAT_H
#define THREADLAB_DASH_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "dash-line.h"
#include "session.h"
#include "thread-field.h"

/* The threads table's order is a sortable thread field (thread-field.h:
 * its sort_title names the order, thread_field_sort_next cycles them). */
const char *dash_format_sort_name(enum thread_field_id sort);

/* ---- threads table ---------------------------------------------------- */

/* Which columns fit: the PID column from 96 columns (or with --tree), the
 * voluntary switches from 104, the activity (ACT, activity.h) from 84 (below,
 * it stands in the MARK column of rows without a mark); the name column
 * takes what is left, 15 to 24 columns.  With run-queue latency (the BPF
 * collector) the P99 and MAX columns come first, then P50, then the
 * USR%/SYS% split, then VCS/s and ACT: at 80 columns a grouped table shows
 * P99 and MAX in place of the split. */
struct dash_cols {
	int width;
	bool pid;
	bool vcsw;
	bool act;
	int name_w;
	bool split; /* USR% and SYS% */
	bool lat;   /* P99 and MAX, ms */
	bool p50;   /* P50, ms */
};
void dash_format_cols(int width, bool tree, struct dash_cols *c);
void dash_format_cols_lat(int width, bool tree, bool lat, struct dash_cols *c);

size_t dash_format_thread_head(char *out, size_t cap, const struct dash_cols *c,
			       enum thread_field_id sort);
size_t dash_format_thread_row(char *out, size_t cap, const struct dash_cols *c,
			      const struct model_thread *r, enum labview_mark m);

/* Ends a process row (out, a row of dash_format_thread_row with no mark)
 * with the process's mean runnable threads: "2.0 run", "2.0r" where the
 * row has fewer columns left, "2.0" at the least; nothing when even that
 * does not fit c->width. */
void dash_format_process_tail(char *out, size_t cap, const struct dash_cols *c, double runnable);
/* Fills idx[0..n) with the order of v under sort (stable for ties: TID);
 * with group (one number per thread, may be NULL), lower groups first and
 * the sort within each. */
void dash_format_order(const struct model_thread *v, size_t n, enum thread_field_id sort,
		       const unsigned *group, size_t *idx);

/* ---- bars, sparkline, chart ------------------------------------------ */

/* A bar width columns wide for value on a 0..max scale, with the ideal mark
 * (':' / '┊') and the ceiling mark ('|' / '│') drawn at their columns when
 * they are > 0 and within the scale.  UTF-8 uses eighth blocks. */
size_t dash_format_bar(char *out, size_t cap, int width, double value, double max, double ideal,
		       double ceiling, bool utf8);
/* The last width values of v[0..n) (oldest first) on a 0..max scale (max
 * <= 0: the largest value), one character each, right-aligned. */
size_t dash_format_sparkline(char *out, size_t cap, int width, const double *v, size_t n,
			     double max, bool utf8);
/* The chart's scale: 5 % above the largest of the ceiling, the points and
 * their ideals (for the current size and precision); 1 when all are 0. */
double dash_format_chart_scale(const struct labview *v, int size, int precision, double single,
			       double effective);

/* One chart row: "1x2 ████▌◆ │  208.3 ideal 208.0", with the Amdahl fit's
 * prediction for the point ('o' / '◆', fitted GFLOP/s; NAN: none) and a
 * '*' after the label of a point left out of the fit (contended or
 * throttled). */
size_t dash_format_chart_row(char *out, size_t cap, int width, const struct labview_point *p,
			     double single, double effective, double scale, double fitted,
			     bool utf8);
/* One per-CPU bar: "cpu1 ███▌   45%". */
size_t dash_format_cpu(char *out, size_t cap, int width, int id, double busy_pct, bool utf8);

/* ---- one-line panels -------------------------------------------------- */

#endif
