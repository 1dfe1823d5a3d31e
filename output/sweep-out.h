/* sweep-out.h — the sweep's table as text, CSV or JSON.
 *
 * The monitor's sweep engine (sweep.h) measures; this writes what it hands
 * over: the environment record, one row per setting as soon as it is
 * measured, and the end.  Every part ends with a flush whose outcome is
 * returned: a sweep runs for minutes and must notice a full disk or a
 * reader that has gone. */
#ifndef THREADLAB_SWEEP_OUT_H
#define THREADLAB_SWEEP_OUT_H

#include <stdio.h>

#include "amdahl.h"
#include "format.h"
#include "json-out.h"
#include "sweep.h"

struct record;

struct sweep_out {
	FILE *f;
	enum format fmt;
	struct json_out j;	  /* JSON: the document being written */
	struct record *record;	  /* --record: the windows as samples, or NULL */
	struct amdahl_set points; /* the rows as scaling points, for the fit at the end */
	double cpus;		  /* C of the fit (sweep-fit.h), from begin's env */
};

void sweep_out_init(struct sweep_out *w, FILE *f, enum format fmt);
/* Each writes its part and flushes.  0, -EPIPE (the reader of a pipe has
 * gone) or -EIO (another write error; errno says which). */
int sweep_out_begin(struct sweep_out *w, const struct sweep_env *env);
int sweep_out_row(struct sweep_out *w, const struct sweep_row *r);
/* baseline_gflops: what speedups were computed against (JSON only).  The
 * Amdahl fit of the rows so far follows the table: text "Amdahl fit: …",
 * CSV the same as a "# " line, JSON the "fit" object (fit-out.h). */
int sweep_out_end(struct sweep_out *w, double baseline_gflops);

/* The text table's header line and one row, without newline, into buf;
 * columns right-aligned to the same widths.  Pure, for tests. */
void sweep_out_text_head(char *buf, size_t cap);
void sweep_out_text_row(char *buf, size_t cap, const struct sweep_row *r);

/* -EPIPE when f is a pipe whose reader has gone (POLLERR), else 0. */
int sweep_out_file_gone(FILE *f);
/* A note on stderr as "threadlab: LINE", made safe. */
void sweep_out_say(const char *line);

/* Runs the sweep (sweep_run) writing the table to f in fmt, its notes to
 * stderr as "threadlab: …" lines; stops when f is a pipe whose reader has
 * gone.  rec, when not NULL, gets the recording header (mode "sweep") and
 * each setting's window as a sample.  Returns what sweep_run returns. */
int sweep_out_run(const struct sweep_opts *o, FILE *f, enum format fmt, struct record *rec);

#endif
