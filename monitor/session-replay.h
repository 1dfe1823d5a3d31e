/* session-replay.h — moving about a replay (session-replay.c); the
 * session owns the recording. */
#ifndef THREADLAB_SESSION_REPLAY_H
#define THREADLAB_SESSION_REPLAY_H

#include "session.h"

/* Replay only: shows sample i (clamped to the recording), with the lab
 * view rebuilt as it stood then.  Returns 0, or -ENOTSUP outside a
 * replay. */
int session_replay_seek(struct session *s, long i);

#endif
