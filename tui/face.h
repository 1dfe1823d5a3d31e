/* face.h — what the faces that sample share: one-line messages on stderr,
 * the recording a session writes (--record), and how a target's end is
 * said. */
#ifndef THREADLAB_FACE_H
#define THREADLAB_FACE_H

#include <stdbool.h>
#include <stdio.h>

#include "options.h"
#include "ranking.h"
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

/* Says, once, the session's news that is a failure (a quota refused, a
 * helper restarted, a stream that failed, a recorded line that did not
 * read); *seen is the message_seq said last (0 at first).  Other news is
 * the dashboard's. */
void face_say_news(const struct session *s, unsigned *seen);

/* The end of a sampling face's session: rec closed (face_record_close),
 * s stopped, face_say_stopped().  false when the recording's close
 * failed (said). */
bool face_session_end(struct session *s, struct record *rec, const struct options *o);

/* "threadlab: process 123 exited" or "threadlab: the command exited with
 * status 3", once the target has gone. */
void face_say_ended(const struct session *s);

/* After session_stop(): says how many processes the launched command had
 * moved out of its group (setsid) were stopped, when there were any. */
void face_say_stopped(const struct session *s);

/* Opens the machine's ranking (--all) on o's --root, its baseline read at
 * now (ranking_open).  Returns EXIT_OK, or after saying why on stderr:
 * EXIT_USAGE when the directory or its proc/ does not exist, EXIT_RUNTIME
 * when it cannot be read. */
int face_ranking_open(const struct options *o, struct ranking *k, double now);
/* ranking_tick on k, and its note said on stderr once when it moved
 * (*seen: the note_seq already said, 0 at first). */
bool face_ranking_tick(struct ranking *k, double now, unsigned *seen);

/* One sample's output on stdout.  It is formatted into memory, then written
 * with write(2), which SIGINT or SIGTERM interrupt even while a reader that
 * stopped reading keeps the pipe full (stdio would retry the write and
 * block again, so the signal went unheard). */
struct face_out {
	FILE *f;
	char *buf;
	size_t len;
};

/* The stream to format the sample into (stdout itself when memory ran
 * out). */
FILE *face_out_begin(struct face_out *fo);

/* Writes the sample.  false when the output ended: a signal came (quiet),
 * the reader went away (EPIPE, quiet), or the write failed (said on
 * stderr, *rc set to EXIT_RUNTIME). */
bool face_out_end(struct face_out *fo, int *rc);

#endif
