/* session-replay-impl.h — the replay source of a session (session.h), internal
 * to monitor/: session.c calls these when the configuration names a
 * recording. */
#ifndef THREADLAB_SESSION_REPLAY_IMPL_H
#define THREADLAB_SESSION_REPLAY_IMPL_H

#include "session-impl.h"

/* Opens s->cfg.replay and shows its first sample that reads.  EXIT_OK, or
 * EXIT_USAGE with a one-line message naming the file in err. */
int session_replay_start(struct session *s, char *err, size_t errlen);
/* The next sample that reads: 0, or -ENODATA at the end. */
int session_replay_tick(struct session *s);
void session_replay_stop(struct session *s);

#endif
