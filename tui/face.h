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

/* Starts o's session (options_session_config) in *s and, when rec is not
 * NULL, its --record in *rec.  Returns EXIT_OK, or the exit status after
 * saying why on stderr, with nothing left running (the session stopped). */
int face_session_start(const struct options *o, struct session *s, struct record **rec);

/* Writes s's current sample to *rec (line, when not NULL, is it already
 * formatted as a JSON line of len bytes).  A write that fails is said
 * ("cannot write the recording PATH: why; recording stops (exit status
 * 1)"), the recording closed and *rec set NULL: returns false then, and
 * true when written or when *rec is NULL. */
bool face_record_sample(struct record **rec, const struct options *o, const struct session *s,
			const char *line, size_t len);

/* Closes *rec (NULL: nothing); false after saying so when the close (its
 * last write) failed. */
bool face_record_close(struct record *rec, const struct options *o);

/* "threadlab: process 123 exited" or "threadlab: the command exited with
 * status 3", once the target has gone. */
void face_say_ended(const struct session *s);

/* After session_stop(): says how many processes the launched command had
 * moved out of its group (setsid) were stopped, when there were any. */
void face_say_stopped(const struct session *s);

#endif
