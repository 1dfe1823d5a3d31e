/* knobs-view.h — what other files read of the knob table (knobs.h)
 * beyond its entries: a value brought within a knob's range, and the
 * lab's knobs as the report's "workload" object and the recording write
 * them (output/report.c) and read them back (recording-parse.c). */
#ifndef THREADLAB_KNOBS_VIEW_H
#define THREADLAB_KNOBS_VIEW_H

#include <stddef.h>

#include "knobs.h"
#include "labview.h"

/* v within knob k's range (knobs.h: min..max), and at least lo where lo
 * is above the range's start (a caller's own floor: the tour's lessons
 * want 2 threads, the sweep 2 steps).  A KNOB_NONE or unknown k: v. */
int knobs_view_clamp(enum knob_id k, int v, int lo);

/* How a lab knob stands in the workload object. */
enum knobs_view_form {
	KNOBS_VIEW_INT,	   /* a whole number */
	KNOBS_VIEW_WORD,   /* knobs_format's word: "double", "off", "openmp" */
	KNOBS_VIEW_BOOL,   /* true or false */
	KNOBS_VIEW_QUOTA,  /* CPUs, 3 decimals; null: none */
	KNOBS_VIEW_KERNEL, /* the kernel with its triad length and GB/s (roofline-out.h),
			    * read back by the recording's own code */
};

struct knobs_view_json {
	enum knob_id knob;
	const char *key; /* NULL: the knob's name is the key (the build's is "blas_build") */
	enum knobs_view_form form;
	double absent; /* what a recording without the key had (older than the knob) */
};

/* The lab's knobs in the order the workload object writes them; their
 * number in *n.  Static: lives as long as the program. */
const struct knobs_view_json *knobs_view_json(size_t *n);
/* e's JSON key: "threads", "blas_build". */
const char *knobs_view_json_key(const struct knobs_view_json *e);

/* The lab's settings a workload report shows (w: the settings in effect
 * as the lab reported them), and back: w's setting fields from s (the
 * words point at static strings). */
void knobs_view_of_report(const struct workload_report *w, struct settings *out);
void knobs_view_to_report(const struct settings *s, struct workload_report *w);

/* The value of knob k in a word of its own (KNOBS_VIEW_WORD: "double"),
 * or the knob's default when no value of its range has that word. */
double knobs_view_of_word(enum knob_id k, const char *word);

#endif
