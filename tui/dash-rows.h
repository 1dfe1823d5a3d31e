/* dash-rows.h — the dashboard's one-line panels as fitted text
 * (dash-rows.c): pure functions of the figures and a width in columns,
 * writing into the caller's buffer (cut at cap, NUL-terminated) and
 * returning the length written. */
#ifndef THREADLAB_DASH_ROWS_H
#define THREADLAB_DASH_ROWS_H

#include "dash-format.h"

/* "runnable 3.00 of 7 threads on average on 2.00 effective CPUs: 1.50x
 * oversubscribed | total CPU 95% wait 106%" fitted to width.  The word
 * after the factor is the verdict's when there is one (v < VERDICT_N:
 * "throttled", say, where the factor alone would say oversubscribed),
 * none for fine and idle; else the factor's own. */
size_t dash_rows_summary(char *out, size_t cap, int width, const struct model_sample *r,
			 double runnable, double effective, enum verdict v);
/* The chart's title row: "Scaling n=768 sgemm | bars: steady GFLOP/s,
 * ┊ ideal, │ ceiling 208.0, ◆ Amdahl fit | right: GFLOP/s, % of ideal"
 * fitted to width; ceiling 0: "ceiling ?" (no 1-thread run yet); fit:
 * the bars show the fit's mark. */
size_t dash_rows_chart_title(char *out, size_t cap, int width, int size, int precision,
			     double ceiling, bool fit, bool utf8);
struct dash_header {
	const char *mode;   /* "lab", "attach", "command" */
	pid_t pid;	    /* target */
	const char *target; /* attach/command: the name or command line, raw */
	bool tree;
	const struct settings *want;   /* lab only, else NULL */
	unsigned pending;	       /* SESSION_PEND_* */
	double interval;	       /* s */
	bool gone;		       /* target exited */
	const char *sweep;	       /* "sweep 2/4" or NULL */
	const char *replay;	       /* replay: "2026-12-01 08:17:03", else NULL */
	long replay_pos, replay_count; /* replay: the sample shown (0-based), of */
	int replay_speed;	       /* replay: 1, 2, 4, 8 */
	bool replay_paused;
};
/* "threadlab lab | sgemm n=768 | threads 2* | streams 1 | workers 0 |
 *  quota none | every 1s" — '*' marks a pending value; at 80 columns
 *  "… | thr 2* | str 1 | wrk 0 | quota none | 1s". */
size_t dash_rows_header(char *out, size_t cap, int width, const struct dash_header *h);
/* "CPU budget: online 2 | affinity 2 | cpuset 2 | quota none |
 *  effective 2.00 (online binds)". */
size_t dash_rows_budget(char *out, size_t cap, int width, const struct model_budget *b);
/* Run-queue wait with throttling right after it, then pressure:
 * "run-queue wait 0.55 s/s | throttled 0.50 s/s (48% of periods, part of
 * the wait) | PSI some: cgroup 40.1% system 20.3%".  Under a quota the wait
 * includes throttled time (docs/design.md, "Wait and throttling"): the two figures sit side by side
 * so they can be told apart.  Without rates: "measuring...". */
size_t dash_rows_pressure(char *out, size_t cap, int width, const struct model_sample *m,
			  bool have_rates);
/* "GFLOP/s 208.3 | ideal 208.0 | ceiling 208.0 | 100% of ideal | results
 *  equal" (or "DIFFER 2.5e-05", the largest difference). */
size_t dash_rows_throughput(char *out, size_t cap, int width, const struct workload_report *w);
/* Useful CPU next to the CPU /proc shows, then per-stream GFLOP/s when
 * more than one stream runs: "work 1.96 of 2.00 CPUs busy (0.04
 * spin/overhead) | per stream GFLOP/s: s0 76.1 s1 85.2".  Stream failures
 * show as "s1 FAILED". */
size_t dash_rows_work(char *out, size_t cap, int width, const struct workload_report *w);

#endif
