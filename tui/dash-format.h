/* dash-format.h — the dashboard's rows as text: pure functions.
 *
 * Every function here formats into a caller's buffer and touches neither
 * the terminal nor the system, so tests check the text without a screen.
 * Text is UTF-8; widths are terminal columns, not bytes.  Foreign names go
 * through text_safe() here before they are padded.  Each function writes at
 * most cap bytes (NUL included) and returns the bytes written (without the
 * NUL). */
#ifndef THREADLAB_DASH_FORMAT_H
#define THREADLAB_DASH_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lab.h"
#include "labview.h"
#include "report.h"
#include "snapshot.h"

/* Threads table orders; Tab / F6 cycles through them. */
enum dash_sort {
	DASH_SORT_CPU,	 /* CPU %, highest first */
	DASH_SORT_WAIT,	 /* run-queue wait %, highest first */
	DASH_SORT_IVCSW, /* involuntary switches/s, highest first */
	DASH_SORT_TID,	 /* TID, lowest first */
	DASH_SORT_NAME,	 /* name (raw bytes), then TID */
	DASH_NSORT,
};
const char *dash_sort_name(enum dash_sort s);

/* What a thread is to the lab. */
enum dash_mark {
	DASH_MARK_NONE,	  /* not a lab thread, or attach mode */
	DASH_MARK_ACTIVE, /* stream driver or pool worker doing GEMMs */
	DASH_MARK_PARKED, /* pool worker beyond the active threads, or a stream
			   * beyond settings.streams */
	DASH_MARK_PAUSED, /* the lab is paused */
	DASH_MARK_WORKER, /* background CPU worker */
	DASH_MARK_ANCHOR, /* the lab's idle parent process */
};
const char *dash_mark_name(enum dash_mark m);

/* Classifies a thread of the lab: by its process (anchor, worker, stream
 * helper: st->stream[i].pid) and its name (gemmI.pK parked, gemmI / gemmI.wK
 * active).  st NULL (attach mode) gives DASH_MARK_NONE. */
enum dash_mark dash_thread_mark(const struct thread_rate *r, const struct lab_status *st);

/* Columns of UTF-8 text s (a wide character counts two, an unknown one). */
int dash_width(const char *s);
/* Copies s cut to at most width columns (at a character boundary) and, when
 * pad, padded with spaces to exactly width; right-aligns when right. */
size_t dash_fit(char *out, size_t cap, const char *s, int width, bool pad, bool right);

/* ---- threads table ---------------------------------------------------- */

/* Which columns fit: the PID column from 96 columns (or with --tree), the
 * voluntary switches from 104; the name column takes what is left, 15 to
 * 24 columns. */
struct dash_cols {
	int width;
	bool pid;
	bool vcsw;
	int name_w;
};
void dash_cols_for(int width, bool tree, struct dash_cols *c);

size_t dash_format_thread_head(char *out, size_t cap, const struct dash_cols *c,
			       enum dash_sort sort);
size_t dash_format_thread_row(char *out, size_t cap, const struct dash_cols *c,
			      const struct thread_rate *r, enum dash_mark m);
/* Fills idx[0..n) with the order of v under sort (stable for ties: TID). */
void dash_threads_order(const struct thread_rate *v, size_t n, enum dash_sort sort, size_t *idx);
/* "runnable 3 of 7 threads on 2.00 effective CPUs: 1.50x oversubscribed". */
size_t dash_format_summary(char *out, size_t cap, const struct snapshot_rates *r, double effective);

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
double dash_chart_scale(const struct labview *v, int size, int precision, double single,
			double effective);
/* One chart row: "1x2 ████▌ │  208.3 ideal 208.0". */
size_t dash_format_chart_row(char *out, size_t cap, int width, const struct labview_point *p,
			     double single, double effective, double scale, bool utf8);
/* One per-CPU bar: "cpu1 ███▌   45%". */
size_t dash_format_cpu(char *out, size_t cap, int width, int id, double busy_pct, bool utf8);

/* ---- one-line panels -------------------------------------------------- */

/* Bits of the lab settings asked for but not yet in effect. */
#define DASH_PEND_THREADS   0x01u
#define DASH_PEND_STREAMS   0x02u
#define DASH_PEND_SIZE	    0x04u
#define DASH_PEND_PRECISION 0x08u
#define DASH_PEND_PAUSED    0x10u
#define DASH_PEND_WORKERS   0x20u
#define DASH_PEND_QUOTA	    0x40u
unsigned dash_pending(const struct lab_settings *want, const struct lab_status *st);

struct dash_header {
	const char *mode;   /* "lab", "attach", "command" */
	pid_t pid;	    /* target */
	const char *target; /* attach/command: the name or command line, raw */
	bool tree;
	const struct lab_settings *want; /* lab only, else NULL */
	unsigned pending;		 /* DASH_PEND_* */
	double interval;		 /* s */
	bool gone;			 /* target exited */
	const char *sweep;		 /* "sweep 2/4" or NULL */
};
/* "threadlab lab | sgemm n=768 | threads 2* | streams 1 | workers 0 |
 *  quota none | every 1s" — '*' marks a pending value. */
size_t dash_format_header(char *out, size_t cap, const struct dash_header *h);
/* "CPU budget: online 2 | affinity 2 | cpuset 2 | quota none |
 *  effective 2.00 (online binds)". */
size_t dash_format_budget(char *out, size_t cap, const struct budget *b);
/* Throttling next to run-queue wait, then pressure: "throttled 48% of
 * periods 0.50 s/s | run-queue wait 0.55 s/s | PSI some cgroup 40.1%
 * system 20.3%".  Without rates (first tick): "measuring…". */
size_t dash_format_pressure(char *out, size_t cap, const struct snapshot *cur,
			    const struct snapshot_rates *r, bool have_rates);
/* "GFLOP/s 208.3 | ideal 208.0 | ceiling 208.0 | 100% of ideal | results
 *  equal" (or "DIFFER 2.5e-05", the largest difference): fits 80 columns. */
size_t dash_format_throughput(char *out, size_t cap, const struct workload_report *w);

#endif
