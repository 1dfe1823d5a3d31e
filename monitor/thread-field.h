/* thread-field.h — the table of a thread's fields (docs/design.md,
 * "Tables"): one entry per field of a thread row, in the order every
 * format writes them, with its JSON key (the recording's key, read back by
 * recording-parse.c), its CSV column(s), its text-report column, its
 * dashboard column (head, width, format, place and when it shows), the
 * dashboard's sort title where the dashboard sorts by it, and the
 * OpenMetrics family that exports its counter.  The writers
 * (output/thread-out.c, output/metrics.c, tui/dash-format.c) and the
 * reader (monitor/recording-parse.c) walk this table; a new field is one
 * entry here and one case per kind it needs.  The table is static and
 * constant: pointers into it live as long as the program. */
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

/* When the dashboard shows a column: always, or with a group of columns
 * its threads table's layout (tui/dash-format.c) keeps while they fit. */
enum thread_field_dash {
	THREAD_FIELD_DASH_NONE,	    /* not a dashboard column */
	THREAD_FIELD_DASH_ALWAYS,   /* at every width */
	THREAD_FIELD_DASH_PID,	    /* with processes grouped (--tree), or on wide terminals */
	THREAD_FIELD_DASH_SPLIT,    /* the user/system split, given up first for latency */
	THREAD_FIELD_DASH_VCSW,	    /* on wide terminals */
	THREAD_FIELD_DASH_LATENCY,  /* with the BPF collector: P99 and MAX, and P50 where it fits */
	THREAD_FIELD_DASH_ACTIVITY, /* where it fits; elsewhere the activity stands in MARK */
};

/* A per-thread OpenMetrics family: the thread's counter since it started.
 * Fields that share a family tell their series apart by one label. */
enum thread_field_metric_value {
	THREAD_FIELD_METRIC_SECONDS, /* a double member, seconds */
	THREAD_FIELD_METRIC_COUNT,   /* a uint64_t member, events */
};
struct thread_field_metric {
	const char *family; /* the counter's name, without _total */
	enum thread_field_metric_value value;
	const char *help; /* plain ASCII: no backslash, quote or newline */
};

struct thread_field {
	const char *key;	/* JSON key; the recording's, read back */
	const char *csv;	/* CSV column(s), comma-separated */
	const char *header;	/* text report column head(s), space-separated */
	int width;		/* text report column width; negative: left-aligned */
	int decimals;		/* JSON and CSV (the text report shows one) */
	const char *unit;	/* "%" (of one CPU), "1/s", "ms", "" */
	const char *sort_title; /* the dashboard's title when sorted by it; NULL: no sort */
	int sort_rank;		/* its place in the dashboard's sort cycle (Tab), from 1 */
	bool sort_ascending;	/* lowest first (TID, NAME); else highest first */
	bool csv_last;		/* CSV: after the sample's columns (gflops ... verdict),
				 * where the column was added, kept for older readers */
	enum thread_field_kind kind;
	size_t offset;	    /* INT and RATE: of the member in the row (struct model_thread) */
	size_t rate_offset; /* the same in the rates the recording reader fills */
	const char *help;
	/* The dashboard's threads table: */
	const char *dash_head; /* column head(s), space-separated; a sortable column's is
				* its sort_title */
	int dash_width;	       /* columns, negative: left-aligned; 0: as the layout fits */
	int dash_decimals;     /* RATE fields */
	int dash_col;	       /* place among the dashboard's columns, from 1 */
	enum thread_field_dash dash;
	/* OpenMetrics (output/metrics.c): the family exporting the field's
	 * counter, NULL none; the label telling this field's series from the
	 * others of the family; the counter's member in the row. */
	const struct thread_field_metric *metric;
	const char *metric_label, *metric_label_value;
	size_t metric_offset;
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

/* The dashboard's sort cycle (Tab / F6): the fields with a sort_title,
 * by sort_rank.  The field after from (dir +1) or before it (dir -1),
 * passing over the latency's unless lat (it is measured only by the BPF
 * collector); from THREAD_FIELD_N, the first (dir +1) or the last (-1). */
enum thread_field_id thread_field_sort_next(enum thread_field_id from, int dir, bool lat);

/* An INT or RATE field's value in t (a double either way); for LATENCY its
 * p99 in seconds (what the dashboard sorts by); 0 for the other kinds. */
double thread_field_value(const struct thread_field *f, const struct model_thread *t);

/* Adds t's value of a RATE field to sum's (a process's row: its threads'
 * rates summed); other kinds are left alone. */
void thread_field_add(const struct thread_field *f, struct model_thread *sum,
		      const struct model_thread *t);

/* The counter a field with a metric exports from t: seconds for a
 * THREAD_FIELD_METRIC_SECONDS family, a count for a _COUNT one (the other
 * reads 0). */
double thread_field_metric_seconds(const struct thread_field *f, const struct model_thread *t);
unsigned long long thread_field_metric_count(const struct thread_field *f,
					     const struct model_thread *t);

#endif
