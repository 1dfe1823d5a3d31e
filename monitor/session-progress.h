/* session-progress.h — the job's output as a face waits between ticks
 * (session-progress.c): the descriptor to poll and the read that keeps the
 * pipe drained.  The session owns the descriptor; a face never closes it. */
#ifndef THREADLAB_SESSION_PROGRESS_H
#define THREADLAB_SESSION_PROGRESS_H

#include "session.h"

/* The job's output while a face waits between ticks (--progress): the
 * descriptor to poll for input (-1: none), and the read of what arrived,
 * so that a chatty job never blocks on a full pipe. */
int session_progress_output_fd(const struct session *s);
void session_progress_drain_output(struct session *s);

#endif
