/* history.h — the recent past of a session's demand figures, for the
 * dashboard's sparklines: mean runnable threads, CPUs in use, run-queue
 * wait and the share of periods throttled, one point per interval (oldest
 * first), and the effective CPUs the runnable threads compare with. */
#ifndef THREADLAB_HISTORY_H
#define THREADLAB_HISTORY_H

#include <stddef.h>

#define HISTORY_POINTS 256

enum history_series {
	HISTORY_RUNNABLE,  /* mean runnable threads */
	HISTORY_CPU,	   /* CPUs in use */
	HISTORY_WAIT,	   /* run-queue wait, s/s */
	HISTORY_THROTTLED, /* % of periods throttled (0 without a quota) */
	HISTORY_N,
};

struct history {
	double v[HISTORY_N][HISTORY_POINTS];
	size_t n;
	double effective; /* CPUs, at the last point */
};

void history_init(struct history *h);
/* Appends one interval's figures (the oldest point goes when full). */
void history_push(struct history *h, double runnable, double cpu, double wait, double throttled,
		  double effective);
/* The last value of a series, 0 when empty. */
double history_last(const struct history *h, enum history_series s);

#endif
