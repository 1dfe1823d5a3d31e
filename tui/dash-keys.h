/* dash-keys.h — what each key does in the dashboard.
 *
 * dash_keys_handle() maps a key (an ncurses wgetch() code) through one
 * table to an action on the dashboard's state and on the lab settings
 * asked for; it never draws and never talks to the workload.  The caller
 * acts on the returned flags: redraw, apply want (session_lab_apply), reset the
 * history, seek in a replay, quit.  The help screen, the key bar and the
 * man page's KEYS section (checked by a test) come from the same table. */
#ifndef THREADLAB_DASH_KEYS_H
#define THREADLAB_DASH_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "dash.h"
#include "session.h"

#define DASH_KEY_HANDLED 0x01  /* the key means something here */
#define DASH_KEY_REDRAW	 0x02  /* the screen must be drawn again */
#define DASH_KEY_APPLY	 0x04  /* want changed: apply it to the workload */
#define DASH_KEY_QUIT	 0x08  /* leave the dashboard */
#define DASH_KEY_RESET	 0x10  /* forget the throughput history and the chart */
#define DASH_KEY_RETIME	 0x20  /* the refresh interval (or replay pace) changed */
#define DASH_KEY_SEEK	 0x40  /* replay: show sample d->replay.target next */
#define DASH_KEY_TOUR	 0x80  /* the tour: do d->tour_key (t start, n, p, space, q) */
#define DASH_KEY_ROOFS	 0x100 /* measure the roofline's roofs (session_roofline_roofs) */

/* Where a key acts. */
#define DASH_KEYS_MODE_LAB     0x1u  /* the built-in workload */
#define DASH_KEYS_MODE_ATTACH  0x2u  /* -p PID or -- CMD */
#define DASH_KEYS_MODE_REPLAY  0x4u  /* --replay FILE */
#define DASH_KEYS_MODE_TOUR    0x8u  /* the guided tour runs (with the lab's mode) */
#define DASH_KEYS_MODE_MACHINE 0x10u /* the machine view (A, threadlab --all) */

/* What a key may need to know about the session. */
struct dash_key_ctx {
	bool machine;		 /* the machine view shows: its keys only */
	bool lab;		 /* the workload keys apply (not attach mode) */
	bool replay;		 /* a replay: knobs inactive, replay keys act */
	bool tour;		 /* the tour runs: it owns the knobs */
	long replay_pos;	 /* replay: the sample shown (0-based) */
	long replay_count;	 /* replay: samples in the recording */
	long table_rows;	 /* rows of the threads table (process rows too) */
	int table_body;		 /* rows it shows at once */
	pid_t table_cursor_pid;	 /* the process of the cursor's row, 0: none */
	int online;		 /* online CPUs: the quota keys' upper end */
	double effective;	 /* effective CPUs: the sweep's range */
	double now;		 /* CLOCK_MONOTONIC, s */
	struct session *session; /* settings are checked against its machine's
				  * memory (session_knob_step), the s key sweeps
				  * its lab (session_sweep_start); NULL: the knob
				  * table and this process's limits only, no sweep */
};

/* Handles one key (while the help shows, any key only closes it).  May change d (sort, help,
 * interval, message, quit), c->session's sweep and *want (a knob key is one session_knob_step: the
 * knob table's step and range, a size that would not fit in memory refused with a message). Returns
 * DASH_KEY_* flags; 0 for a key that means nothing. */
int dash_keys_handle(struct dash *d, struct settings *want, const struct dash_key_ctx *c, int key);

/* One help-screen line. */
struct dash_key_help {
	const char *keys; /* "+ -": key names, separated by spaces */
	const char *what; /* "intra-op threads up / down" */
	unsigned modes;	  /* DASH_KEYS_MODE_* where the keys act */
};
/* The help lines of mode (DASH_KEYS_MODE_*, the tour's with the lab's), in
 * order, generated from the key table: a line only where its keys act,
 * with only the key names that reach it in that mode (in the tour q leaves
 * the tour, so the quit line says F10).  Mode 0: every line with every
 * name (the man page).  *n receives their count; the lines live until the
 * next call. */
const struct dash_key_help *dash_keys_help(unsigned mode, size_t *n);

/* The key bar for the bottom of the screen in mode (DASH_KEYS_MODE_*),
 * fitted to width columns: the less used keys go first when it is narrow
 * (F1 help and q quit stay).  Returns the bytes written. */
size_t dash_keys_bar(char *out, size_t cap, int width, unsigned mode);

/* The DASH_KEYS_MODE_* a context is in. */
unsigned dash_keys_mode(const struct dash_key_ctx *c);

#endif
