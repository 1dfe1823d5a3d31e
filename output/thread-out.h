/* thread-out.h — one thread row in the formats, field by field from the
 * table of a thread's fields (monitor/thread-field.h): its JSON object,
 * its CSV cells and the text report's columns.  Names go through
 * json-out.h, csv-out.h or text-safe.h. */
#ifndef THREADLAB_THREAD_OUT_H
#define THREADLAB_THREAD_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "csv-out.h"
#include "json-out.h"
#include "model.h"

/* t as a JSON object ({"pid": …, …, "activity": …}); m is the sample t is
 * a row of (its latency histograms). */
void thread_out_json(struct json_out *j, const struct model_sample *m,
		     const struct model_thread *t);

/* The CSV columns of the fields before the sample's columns (!last) or
 * after them (last), comma-separated, into buf (cut to cap). */
void thread_out_csv_names(char *buf, size_t cap, bool last);

/* t's CSV cells of the fields before (!last) or after (last) the
 * sample's cells. */
void thread_out_csv(struct csv_out *c, const struct model_sample *m, const struct model_thread *t,
		    bool last);

/* The text report's head line of the thread table ("  PID TID …"),
 * latency columns when lat_on, and one row of it for t. */
void thread_out_text_head(FILE *f, bool lat_on);
void thread_out_text(FILE *f, const struct model_sample *m, const struct model_thread *t);

#endif
