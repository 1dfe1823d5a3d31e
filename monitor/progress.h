/* progress.h — the job's own progress rate, from the lines it prints.
 *
 * --progress REGEX is a POSIX extended regular expression applied to each
 * line of the job's output (lines end at '\n' or '\r', so tqdm's
 * carriage-return updates count one by one).  A match without a group
 * counts one step; with a group, its first group that matched is read as
 * a number: a cumulative count ("step ([0-9]+)"; a count that goes down
 * starts a new run, added on), or with rate_mode a rate the job prints
 * itself ("([0-9.]+)it/s"; the count is then that rate integrated over
 * time).  Lines that do not match only become the last line.
 *
 * Rates come from the count at each tick (progress_tick): rate over the
 * last PROGRESS_RATE_S seconds, steady over the last PROGRESS_STEADY_S
 * seconds since the first step (or the last progress_restart()).
 *
 * Lines are matched either in progress_feed() itself (pure over the bytes
 * and times it is given: the tests) or, after progress_match_start(), on a
 * matcher thread (matcher.h: what the session does, so no line and no
 * expression can hold a tick): a line is then counted at the first
 * progress_feed() or progress_tick() after its answer, and a line the
 * matcher could not take or reach within the budget is skipped, counted
 * and said once. */
#ifndef THREADLAB_PROGRESS_H
#define THREADLAB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "history.h"
#include "matcher.h"
#include "pattern.h"

#define PROGRESS_LINE_MAX 512
#define PROGRESS_RATE_S	  2.0  /* the smoothed rate's window, s */
#define PROGRESS_STEADY_S 10.0 /* the steady rate's window, s */
#define PROGRESS_TICKS	  256  /* (time, count) points kept */
/* What a captured number may be: beyond these it is not a measurement
 * (a typo, garbage, 1e308) and is dropped with a note. */
#define PROGRESS_COUNT_MAX 9007199254740992.0 /* 2^53: counts stay exact */
#define PROGRESS_RATE_MAX  1e9		      /* steps/s */
#define PROGRESS_NOTE_LEN  256
#define PROGRESS_QUEUE	   (256 * 1024) /* bytes of lines waiting for the matcher */

struct progress {
	bool on; /* --progress given: the rest is meaningful */
	struct pattern *re;
	bool rate_mode;			 /* --progress-rate: the group is a rate */
	char partial[PROGRESS_LINE_MAX]; /* the line being read (raw bytes) */
	size_t plen;
	char last_line[PROGRESS_LINE_MAX]; /* the last non-empty line (answered), raw; "" none */
	unsigned line_seq;		   /* counts lines: a face shows each new one */
	unsigned long matches;		   /* lines that matched */
	double count;			   /* steps so far */
	double run_base, run_last;	   /* cumulative counts: earlier runs, the last value */
	double printed;			   /* rate_mode: the last rate printed, steps/s; < 0 none */
	double t_last;			   /* time of the last tick, s; 0 none */
	double t[PROGRESS_TICKS], c[PROGRESS_TICKS]; /* one point per tick, oldest first */
	size_t n;
	double since;	    /* steady from here: the first tick with a step after start/restart */
	double rate;	    /* steps/s over PROGRESS_RATE_S; < 0 not yet */
	double steady_rate; /* steps/s over PROGRESS_STEADY_S from since; < 0 not yet */
	double hist[HISTORY_POINTS]; /* rate, one point per tick, for the sparkline */
	size_t nhist;
	/* Matching lines whose group did not give a usable number: not
	 * counted, and the first of each kind said once in note. */
	unsigned long not_number;   /* the group captured text that is not a number */
	unsigned long out_of_range; /* a number beyond PROGRESS_*_MAX */
	unsigned long no_group;	    /* the expression has groups, none took part */
	/* Lines matched off this thread (progress_match_start()), or NULL:
	 * matched in progress_feed().  A line the matcher has no room for,
	 * or has not reached budget_s seconds after it was read, is not
	 * matched: counted in skipped, said once. */
	struct matcher *matcher;
	double budget_s;
	unsigned long skipped;
	unsigned long skipped_full; /* of those, for want of room (the rest: late) */
	char note[PROGRESS_NOTE_LEN]; /* raw (the job's bytes), made safe when shown; the
				       * notes not yet said, joined by "; " (the reader
				       * empties it when it says them) */
	unsigned note_seq;	      /* counts notes: a face says each once */
};

/* Compiles regex (pattern.h: POSIX extended syntax, glibc's regcomp).
 * Returns 0, or -EINVAL with the reason in err ("--progress 'step (':
 * Unmatched ( or \("; a backreference or a repetition too large is
 * refused as such). */
int progress_init(struct progress *p, const char *regex, bool rate_mode, char *err, size_t errlen);

/* From now on lines are matched on a thread of their own, each skipped
 * when it waited more than budget_s seconds.  0, or -errno when no thread
 * can be made (lines are then matched in progress_feed()). */
int progress_match_start(struct progress *p, double budget_s);

/* Splits len bytes of output into lines and counts them (a line longer
 * than PROGRESS_LINE_MAX keeps its start): with a matcher, queues them
 * and counts the answers come back; never waits for it. */
void progress_feed(struct progress *p, const char *buf, size_t len);

/* The matcher's answers come back so far, counted. */
void progress_collect(struct progress *p);

/* Waits up to max_s seconds for the matcher to answer every line queued
 * (the end of a sweep's row, not a tick), and counts them.  true when
 * none is left. */
bool progress_settle(struct progress *p, double max_s);

/* One complete line (no terminator), matched here: the last line, and a
 * step if it matches.  Returns true when it matched. */
bool progress_line(struct progress *p, const char *line, size_t len);

/* The matcher's function for the job's lines (matcher.h): whether text
 * matches, the first group that took part in r->value, r->len, r->text;
 * r->value 0 when the expression has no group, -1 with the line in
 * r->len, r->text when it has groups and none took part. */
int progress_match(const struct pattern *re, const char *text, size_t len,
		   struct matcher_result *r);

/* The end of the output: a line without terminator counts too. */
void progress_flush(struct progress *p);

/* One tick at now (CLOCK_MONOTONIC s): counts the answers come back,
 * integrates a printed rate, adds the point, recomputes rate and
 * steady_rate. */
void progress_tick(struct progress *p, double now);

/* Steady from the next step on (the setting changed). */
void progress_restart(struct progress *p);

/* The count at or just before time t (linear in between); the first
 * point's count before it. */
double progress_count_at(const struct progress *p, double t);

/* Stops the matcher without waiting for a match in progress. */
void progress_free(struct progress *p);

#endif
