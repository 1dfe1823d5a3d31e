/* session-diag.h — the diagnosis of a live session, internal to monitor/:
 * session.c calls these. */
#ifndef THREADLAB_SESSION_DIAG_H
#define THREADLAB_SESSION_DIAG_H

#include "session-impl.h"

void session_diag_init(struct session *s);
/* After a tick that produced rates: census, window, diagnosis. */
void session_diag_tick(struct session *s);
void session_diag_free(struct session *s);

#endif
