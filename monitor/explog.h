/* explog.h — the experiment log: one row per setting the user marks.
 *
 * A row is the setting (its knobs as name/value pairs: the lab's settings,
 * or the target's thread variables), a note the user typed, and what was
 * measured over the steady window: the rate (GFLOP/s in the lab, steps/s
 * with --progress; < 0 unknown), CPUs in use, mean runnable threads,
 * run-queue wait, throttled share and the verdict (the diagnosis's window).
 * Rows compare with the first, the baseline.  Strings are raw bytes (made
 * safe by whoever shows or writes them). */
#ifndef THREADLAB_EXPLOG_H
#define THREADLAB_EXPLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnosis.h"
#include "environment.h"
#include "model.h"
#include "settings.h"

#define EXPLOG_KNOBS 24
#define EXPLOG_ROWS  32
#define EXPLOG_NOTE  128

struct explog_knob {
	char name[40];
	char value[72];
};

struct explog_row {
	double wall; /* CLOCK_REALTIME s when marked */
	struct explog_knob knob[EXPLOG_KNOBS];
	size_t nknobs;
	char note[EXPLOG_NOTE];
	const char *unit;     /* "GFLOP/s", "steps/s", or NULL: no rate */
	double rate;	      /* < 0 unknown */
	double cpu;	      /* CPUs in use */
	double runnable_mean; /* threads */
	double wait;	      /* run-queue wait, s/s */
	double throttled_pct; /* % of periods; < 0 no figure */
	enum verdict verdict; /* VERDICT_N: none yet */
};

struct explog {
	struct explog_row row[EXPLOG_ROWS];
	size_t n;
};

/* The lab's knobs of s as name/value pairs: the knob table's logged ones
 * (KNOB_LOGGED, knobs.h) in its order.  Returns the count. */
size_t explog_lab_knobs(const struct settings *s, struct explog_knob *out, size_t cap);

/* The target's thread variables that are set, from a diagnosis.  Returns
 * the count. */
size_t explog_env_knobs(const struct diagnosis *d, struct explog_knob *out, size_t cap);

struct session;
/* The row for s now: the lab's knobs (s->want) and its steady GFLOP/s, or
 * the target's thread variables and its steady steps/s (--progress);
 * the diagnosis's figures; note (may be NULL), the time. */
void explog_row_of(const struct session *s, const char *note, struct explog_row *r);

struct sweep_cmd_row;
/* The row of a command sweep's setting (--sweep --log FILE): its knobs,
 * steps/s when progress is read (else no rate), the row's figures. */
void explog_row_of_sweep(const struct sweep_cmd_row *s, bool progress, struct explog_row *r);

/* The environment record of s now (as a recording's header has it). */
void explog_environment(const struct session *s, struct env_record *e);

/* Appends row (the oldest goes when full).  Returns the row as stored. */
struct explog_row *explog_add(struct explog *l, const struct explog_row *row);

/* rate / the first row's rate; < 0 when either is unknown. */
double explog_ratio(const struct explog *l, size_t i);

/* The knobs that differ between a and b (a knob missing on one side
 * counts), their names joined into names ("OMP_NUM_THREADS and loaders",
 * "a, b and c").  Returns how many differ. */
size_t explog_changed(const struct explog_row *a, const struct explog_row *b, char *names,
		      size_t cap);

/* The warning for row i, "" when some earlier row is at most one knob
 * away (one knob at a time from a measured point: a sweep's rows are each
 * one knob from its first row), else against the latest of the rows
 * fewest knobs away: "2 knobs changed at once: OMP_NUM_THREADS and
 * loaders".  Returns buf. */
const char *explog_warning(const struct explog *l, size_t i, char *buf, size_t cap);

#endif
