/* explog-out.h — experiment-log rows as JSON Lines (--log FILE): one
 * object per row with the setting, the figures, the ratio to the first
 * row, the warning when more than one knob changed, and the environment
 * record (env-out.h) the figures belong to. */
#ifndef THREADLAB_EXPLOG_OUT_H
#define THREADLAB_EXPLOG_OUT_H

#include <stdio.h>

#include "environment.h"
#include "explog.h"

/* Row i of l as one JSON line on f.  Returns 0, or -EIO (errno says
 * why). */
int explog_out_json(FILE *f, const struct explog *l, size_t i, const struct env_record *e);

/* The log view's line for row i (ratio, figures, setting, note), raw. */
void explog_out_text_row(char *buf, size_t cap, const struct explog *l, size_t i);

#endif
