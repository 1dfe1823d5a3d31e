/* sweep-cmd-out.h — the command sweep's table (sweep-cmd.h) as text, CSV
 * or one JSON document, streamed row by row; the environment record
 * (env-out.h) after the table (text: lines; CSV: "# " lines; JSON: the
 * "environment" object). */
#ifndef THREADLAB_SWEEP_CMD_OUT_H
#define THREADLAB_SWEEP_CMD_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "format.h"
#include "sweep-cmd.h"

/* The text row (no newline) into buf; header when r is NULL.  Pure, for
 * tests. */
void sweep_cmd_out_text_row(char *buf, size_t cap, const struct sweep_cmd_opts *o,
			    const struct sweep_cmd_row *r);

/* The best setting's line (no newline) into buf: the setting, its rate,
 * the margin over the next and whether it is beyond the spread of the
 * repeats; none, and why (progress: --progress was given).  Pure, for
 * tests. */
void sweep_cmd_out_best_text(char *buf, size_t cap, const struct sweep_cmd_best *b, int repeat,
			     bool progress);

/* Runs the sweep writing the table to f, notes to stderr ("threadlab: …");
 * with log (a --log FILE, may be NULL) each row is appended to that
 * experiment log too.  Returns what sweep_cmd_run returns, or -EIO when the
 * log cannot be written (said on stderr). */
int sweep_cmd_out_run(const struct sweep_cmd_opts *o, FILE *f, enum format fmt, const char *log);

#endif
