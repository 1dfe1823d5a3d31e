/* face.h — what the faces that sample share: one-line messages on stderr,
 * the recording a session writes (--record), and how a target's end is
 * said. */
#ifndef THREADLAB_FACE_H
#define THREADLAB_FACE_H

#include "options.h"
#include "record.h"
#include "session.h"

/* "threadlab: M" on stderr, M made safe (it may quote a file name, a
 * command line or a thread name). */
void face_say(const char *m);

/* Starts o's --record for s (sampling every o->interval).  Returns EXIT_OK
 * with *rec NULL when there is no --record; EXIT_USAGE with the reason said
 * on stderr when the file cannot be written. */
int face_record_start(const struct options *o, const struct session *s, struct record **rec);

/* "threadlab: process 123 exited" or "threadlab: the command exited with
 * status 3", once the target has gone. */
void face_say_ended(const struct session *s);

/* After session_stop(): says how many processes the launched command had
 * moved out of its group (setsid) were stopped, when there were any. */
void face_say_stopped(const struct session *s);

#endif
