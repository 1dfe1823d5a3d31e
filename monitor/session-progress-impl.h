/* session-progress-impl.h — the session's side of the job's progress: where
 * the lines come from (the launched command's pipe, a followed file) and
 * when they are counted (every tick).  Internal to monitor/. */
#ifndef THREADLAB_SESSION_PROGRESS_IMPL_H
#define THREADLAB_SESSION_PROGRESS_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "session-impl.h"

/* Sets up s->progress from s->cfg.  EXIT_OK, or EXIT_USAGE with a
 * one-line reason in err (a bad regular expression). */
int session_progress_start(struct session *s, char *err, size_t errlen);

/* Reads what arrived and counts it; the tick's point at now. */
void session_progress_tick(struct session *s, double now);

/* Reads what arrived without a tick (between ticks: keeps the pipe from
 * filling while a face waits). */
void session_progress_drain(struct session *s);

void session_progress_free(struct session *s);

#endif
