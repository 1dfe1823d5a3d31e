/* dash.h — the live dashboard: threadlab's default mode.
 *
 * main() calls dash_check_terminal() first (before anything is started),
 * then session_start(), then dash_run(), then session_stop().  dash_run()
 * owns the terminal from its start to its return and restores it on every
 * path it controls: quit key, SIGINT/SIGTERM/SIGHUP (stop_signal)
 * and fatal signals (through the on_fatal hook it gives
 * stop_install()).
 *
 * struct dash is the dashboard's own state (sort column, help, sweep,
 * message, refresh interval).  The panels (dash-panels.h) read it together
 * with the session; keys (dash-keys.h) write it. */
#ifndef THREADLAB_DASH_H
#define THREADLAB_DASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "dash-format.h"
#include "dash-log.h"
#include "session.h"

#define DASH_MESSAGE_LEN 256

/* Replaying a recording: where and how fast. */
struct dash_replay {
	bool on;     /* the session replays a recording */
	bool paused; /* the recorded time stands still */
	int speed;   /* 1, 2, 4 or 8 samples per recorded interval */
	long target; /* the sample a key asked for (DASH_KEY_SEEK) */
	int dir;     /* which way it moved: -1 back, +1 on (past a line that does not read) */
};

/* The threads table's view: where it is scrolled, the cursor, and the
 * processes collapsed to their totals (dash-table.h). */
#define DASH_COLLAPSED_MAX 64
struct dash_table_state {
	int top;	/* first body row shown */
	int cursor;	/* the cursor's row, when cursor_on */
	bool cursor_on; /* the user moved it (Up, Down, PgUp…): it is drawn */
	pid_t collapsed[DASH_COLLAPSED_MAX];
	size_t ncollapsed;
	bool collapse_all; /* c: every process shows its totals only */
};

struct dash {
	double interval;		/* refresh interval, s (starts at -i) */
	enum thread_field_id sort;	/* threads table order */
	bool help;			/* help screen shown instead of the panels */
	bool roof_view;			/* o: the roofline panel instead of the panels */
	bool utf8;			/* bars and sparklines in UTF-8 block characters */
	bool color;			/* colour pairs initialised */
	bool quit;			/* q / F10 pressed */
	struct dash_replay replay;	/* --replay */
	struct dash_table_state table;	/* the threads table's scroll, cursor, collapse */
	char message[DASH_MESSAGE_LEN]; /* message line ("" none): a key's answer, or
					 * the session's newest message */
	bool message_bad;		/* message reports a failure: highlighted */
	unsigned message_seq;		/* the session message last shown */
	char status[96];		/* how the target ended ("exited with status 3"), "" */
	struct record *record;		/* --record, NULL when none (or after an error) */
	char record_error[160];		/* why the recording stopped ("" none): exit 1 */
	struct export *export;		/* --serve, NULL when none */
	struct tour *tour;		/* the guided tour (its state says whether it runs) */
	double tour_step;		/* seconds measured per tour step */
	FILE *tour_notes;		/* --tour-notes: each finished step as JSON, or NULL */
	int tour_key;			/* the tour key pressed (DASH_KEY_TOUR) */
	double now;			/* CLOCK_MONOTONIC at the last draw (the tour's timer) */
	struct dash_log log;		/* m, e: the experiment log; the progress line */
	struct dash_machine *machine;	/* the machine view's state (A); NULL until opened */
	bool machine_view;		/* A: the machine view instead of the panels */
	bool machine_only;		/* threadlab --all: no session behind the view */
	bool *back;			/* opened from the machine view: A sets it and leaves */
};

struct record;
struct export;
struct tour;
struct dash_machine;

/* What the command line says about the dashboard. */
struct dash_config {
	double interval;       /* refresh, s (-i; clamped to the range below) */
	bool no_color;	       /* --no-color (NO_COLOR is read by dash_run itself) */
	struct record *record; /* --record: each sample goes there too (dash_run
				* closes it); NULL: none */
	struct export *export; /* --serve: each sample is published (the caller
				* stops it); NULL: none */
	const char *message;   /* the message line at start ("serving …"), or NULL */
	bool tour;	       /* --tour: the guided tour starts at once */
	double tour_step;      /* --tour-step, s (0: OPTIONS_TOUR_STEP_DEFAULT) */
	FILE *tour_notes;      /* --tour-notes FILE, opened; dash_run closes it */
	FILE *log_file;	       /* --log FILE open for appending (the caller closes it), or
				* NULL */
	const char *log_path;  /* its name: the rows it holds are read back at start */
	bool *back;	       /* an attach screen opened from threadlab --all's view: A
				* leaves it with *back true; NULL otherwise */
};

/* Initial state: interval from c (clamped to the interval keys' range,
 * knobs_key_range; c NULL: the knob's default),
 * sort by CPU %, utf8 from text_safe_utf8, colour off. */
void dash_init(struct dash *d, const struct dash_config *c);

/* Checks that the dashboard can run here: stdin and stdout are terminals,
 * TERM is set, not "dumb", and known to terminfo.  Returns EXIT_OK, or
 * EXIT_NO_TTY with a one-line message pointing to --batch in err (no
 * "threadlab:" prefix, no newline).  Starts nothing. */
int dash_check_terminal(char *err, size_t errlen);

/* Runs the dashboard on a started session until q / F10 or a stop signal.
 * Does not stop the session (the caller's session_stop() does).  Returns
 * EXIT_OK, or EXIT_NO_TTY when the terminal cannot be initialised (message
 * on stderr). */
int dash_run(struct session *s, const struct dash_config *c);

#endif
