/* session-lab-impl.h — the lab's side of a session (session-lab.c), for
 * session.c: the workload started, read at every tick, brought back when
 * its anchor died. */
#ifndef THREADLAB_SESSION_LAB_IMPL_H
#define THREADLAB_SESSION_LAB_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "session-impl.h"

/* Starts the lab from s->cfg.lab, waits until it runs, measures what the
 * first screen needs.  EXIT_OK, or an exit status with err. */
int session_lab_start(struct session *s, char *err, size_t errlen);
/* One tick of the lab: its quota cgroup kept, its status read into the
 * lab view (s->work), its events said. */
void session_lab_tick(struct session *s);
/* The lab's anchor died: the lab starts it again (lab_recover) and the
 * sampler follows the new one.  Returns true when the lab runs again. */
bool session_lab_recover(struct session *s);

/* The lab's settings asked for but not yet in effect in st, as
 * SESSION_PEND_* bits (pure, for tests). */
unsigned session_lab_pending_of(const struct settings *want, const struct lab_status *st);

#endif
