/* thread-field.h — the table of a thread's fields (docs/design.md,
 * "Tables"): one entry per field of a thread row, in the order every
 * format writes them, with its JSON key (the recording's key, read back by
 * recording-parse.c), its CSV column(s), its text-report column and the
 * dashboard's sort title where the dashboard sorts by it.  The writers
 * (output/report.c) and the reader (monitor/recording-parse.c) walk this
 * table; a new field is one entry here and one case per kind it needs. */
#ifndef THREADLAB_THREAD_FIELD_H
#define THREADLAB_THREAD_FIELD_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

enum thread_field_kind {
	THREAD_FIELD_KIND_INT,	    /* an int member (pid_t or int): value() reads it */
	THREAD_FIELD_KIND_NAME,	    /* the raw name bytes: text-safe / escaped per format */
	THREAD_FIELD_KIND_STATE,    /* the state letter */
	THREAD_FIELD_KIND_RATE,	    /* a double member: value() reads it */
	THREAD_FIELD_KIND_LATENCY,  /* the interval's run-queue latency (p50, p99, max, events) */
	THREAD_FIELD_KIND_ACTIVITY, /* what it did most of the interval (activity.h) */
};

struct thread_field {
	const char *key;	/* JSON key; the recording's, read back */
	const char *csv;	/* CSV column(s), comma-separated */
	const char *header;	/* text report column head(s), space-separated */
	int width;		/* text report column width; negative: left-aligned */
	int decimals;		/* JSON and CSV (the text report shows one) */
	const char *unit;	/* "%" (of one CPU), "1/s", "ms", "" */
	const char *sort_title; /* the dashboard's title when sorted by it; NULL: no sort */
	bool csv_last;		/* CSV: after the sample's columns (gflops ... verdict),
				 * where the column was added, kept for older readers */
	enum thread_field_kind kind;
	size_t offset;	    /* INT and RATE: of the member in the row (struct model_thread) */
	size_t rate_offset; /* the same in the rates the recording reader fills */
	const char *help;
};

enum thread_field_id {
	THREAD_FIELD_PID,
	THREAD_FIELD_TID,
	THREAD_FIELD_NAME,
	THREAD_FIELD_STATE,
	THREAD_FIELD_CPU,
	THREAD_FIELD_CPU_PCT,
	THREAD_FIELD_USER_PCT,
	THREAD_FIELD_SYS_PCT,
	THREAD_FIELD_WAIT_PCT,
	THREAD_FIELD_VCSW,
	THREAD_FIELD_IVCSW,
	THREAD_FIELD_LATENCY,
	THREAD_FIELD_ACTIVITY,
	THREAD_FIELD_N
};

/* The table, THREAD_FIELD_N entries indexed by enum thread_field_id. */
extern const struct thread_field thread_field_table[THREAD_FIELD_N];

/* An INT or RATE field's value in t (a double either way); for LATENCY its
 * p99 in seconds (what the dashboard sorts by); 0 for the other kinds. */
double thread_field_value(const struct thread_field *f, const struct model_thread *t);

#endif
