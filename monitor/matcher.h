/* matcher.h — a pattern matched on a thread of its own.
 *
 * glibc's regexec cannot be interrupted, and an expression it accepts may
 * take a second on one line (pattern-cost.h), so texts from other
 * processes (a job's output lines, command lines) are matched here, never
 * on the thread that samples, reads keys and notices signals.  That
 * thread puts texts in a bounded queue and takes answers back; it never
 * waits for the matcher: a full queue is said at once (-EAGAIN), and a
 * text that waited longer than the budget is answered MATCHER_LATE
 * without being matched.  Stopping never waits for a match in progress:
 * the thread is left to finish it and frees what it holds.
 *
 * One thread puts and takes (the owner); the matcher thread runs fn, at
 * nice +10, with every signal blocked (docs/design.md, "Job output"). */
#ifndef THREADLAB_MATCHER_H
#define THREADLAB_MATCHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

#define MATCHER_LATE	    (-1) /* status: waited past the budget, not matched */
#define MATCHER_RESULT_TEXT 64	 /* bytes of text an answer carries */

/* The answer for one text. */
struct matcher_result {
	uint64_t tag; /* as put */
	int status;   /* 1 matched, 0 not, MATCHER_LATE */
	/* What fn reports beside (progress: the first group that took part,
	 * 0 no group, -1 none took part; its length in bytes; its first
	 * bytes, not terminated). */
	int value;
	size_t len;
	char text[MATCHER_RESULT_TEXT];
};

/* Matches text (len bytes, a NUL after them) against re; returns 1 or 0 and may fill
 * r->value, r->len, r->text.  Called on the matcher thread only. */
typedef int matcher_fn(const struct pattern *re, const char *text, size_t len,
		       struct matcher_result *r);

struct matcher;

/* Starts the thread.  It owns re from now on (freed by matcher_stop or
 * after it).  queue_bytes bounds the texts waiting (each also takes
 * about 32 bytes); text_max is the longest text put; budget_s the
 * longest a text may wait, s (0: no limit).  NULL with errno set when no
 * thread can be made (re is then freed). */
struct matcher *matcher_start(struct pattern *re, matcher_fn *fn, size_t queue_bytes,
			      size_t text_max, double budget_s);

/* Queues text (len <= text_max bytes) with its tag, put at now
 * (CLOCK_MONOTONIC s).  0, or -EAGAIN when the queue has no room for it.
 * Never waits. */
int matcher_put(struct matcher *m, uint64_t tag, const char *text, size_t len, double now);

/* The next answer, in the order put: true with *r filled and, when text
 * is not NULL, *text and *len set to the text it answers (valid until the
 * next matcher_put or matcher_take); false when none is ready.  Never
 * waits. */
bool matcher_take(struct matcher *m, struct matcher_result *r, const char **text, size_t *len);

/* Texts put whose answers have not been taken. */
size_t matcher_pending(const struct matcher *m);

/* Whether a match is running now. */
bool matcher_busy(const struct matcher *m);

/* The longest one match has taken so far, s. */
double matcher_longest(const struct matcher *m);

/* Ends the thread: at once when it is idle, otherwise it ends (and frees
 * everything) when its match does; answers not taken are dropped.  m is
 * gone after. */
void matcher_stop(struct matcher *m);

#endif
