/* dash-log.h — the dashboard's experiment log and the job's progress.
 *
 * m marks the current setting as a row of the log (explog.h); outside the
 * lab it first asks for a note on the message line (Enter keeps it, Esc
 * drops the row).  e shows the log instead of the panels: each row with
 * its ratio to the first, and the warning when it changed more than one
 * knob against the row before.  With --log FILE every row is appended to
 * FILE as it is marked (explog-out.h).  The job's progress (--progress)
 * gets a row beside the demand sparklines, and its newest output line goes
 * on the message line when no fresher message is there. */
#ifndef THREADLAB_DASH_LOG_H
#define THREADLAB_DASH_LOG_H

#include <curses.h>
#include <stdbool.h>
#include <stdio.h>

#include "explog.h"

struct dash;
struct dash_key_ctx;
struct settings;
struct dash_rect;
struct session;

struct dash_log {
	struct explog rows;
	bool view;		/* e: the log is shown instead of the panels */
	bool prompt;		/* m outside the lab: the note is being typed */
	char note[EXPLOG_NOTE]; /* the note so far */
	size_t len;
	FILE *file; /* --log FILE (owned by the caller), or NULL */
	/* The job's output line on the message line. */
	unsigned line_seq;  /* the progress line last shown */
	bool showing_line;  /* the message line holds an output line */
	char last_msg[256]; /* the message line as last seen, to tell its age */
	int msg_age;	    /* ticks it has stood */
};

/* A key while the note is typed: printable bytes add, Backspace removes,
 * Enter marks the row, Esc cancels.  Returns DASH_KEY_* flags, 0 when no
 * note is being typed (the key table handles the key). */
int dash_log_prompt_key(struct dash *d, const struct session *s, int key);

/* Reads back the rows of the --log file at path (an earlier run's); the
 * message line says how many. */
void dash_log_load(struct dash *d, const char *path);

/* After each tick: the job's newest output line onto the message line. */
void dash_log_tick(struct dash *d, const struct session *s);

/* The log view, drawn over the whole window (as the help is). */
void dash_log_draw(WINDOW *w, const struct dash *d, const struct session *s);

/* The log view's warning line for row i ("" none), for tests. */
const char *dash_log_warning(const struct dash *d, size_t i, char *buf, size_t cap);

/* The progress row ("progress ▂▄▆ 41.2 steps/s | steady 40.8 | 1234
 * steps"), fitted to width, into out.  Returns the bytes written. */
size_t dash_log_progress_row(char *out, size_t cap, int width, const struct session *s, bool utf8);

/* Draws that row at r's first line. */
void dash_log_progress(WINDOW *w, const struct dash_rect *r, const struct dash *d,
		       const struct session *s);

/* The experiment log (dash-log.c): m marks a row, e shows the log. */
int dash_log_key_mark(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_log_key_view(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);

#endif
