/* session-replay.h — moving about a replay (session-replay.c); the
 * session owns the recording. */
#ifndef THREADLAB_SESSION_REPLAY_H
#define THREADLAB_SESSION_REPLAY_H

#include "session.h"

/* Replay only: shows sample i (clamped to the recording), with the lab
 * view rebuilt as it stood then; where line i does not read, the nearest
 * that does in the direction dir (< 0: back, else on), else the other
 * way.  Returns the sample shown, or -ENOTSUP outside a replay. */
long session_replay_seek(struct session *s, long i, int dir);

#endif
