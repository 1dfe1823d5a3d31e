/* dash-keys-impl.h — what the key table (dash-keys-table.c), its lookup
 * (dash-keys.c) and its actions (dash-keys-act.c, dash-keys-move.c,
 * dash-log.c) share; not for other files.
 *
 * An action gets the dashboard, the settings asked for, the key's context
 * and the key's argument, and returns DASH_KEY_* flags. */
#ifndef THREADLAB_DASH_KEYS_IMPL_H
#define THREADLAB_DASH_KEYS_IMPL_H

#include "dash-keys.h"
#include "knobs.h"

typedef int (*dash_keys_fn)(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			    int arg);

#define DASH_KEYS_MAX 6 /* keys per command */

struct dash_keys_cmd {
	struct {
		int key; /* 0 ends the list */
		int arg; /* a knob's: +1 up, -1 down, 0 its own (toggle, no quota) */
	} k[DASH_KEYS_MAX];
	dash_keys_fn fn;	/* the action; NULL: step knob (dash_keys_knob) */
	unsigned modes;		/* DASH_KEYS_MODE_* where the keys act */
	enum knob_id knob;	/* the knob the keys step; a lab knob cancels a sweep */
	struct dash_key_help h; /* help line (keys NULL: none) */
	const char *bar;	/* key-bar text, NULL: not on the bar */
	int bar_prio;		/* what a narrow bar drops first (dash-fit.h); 0 never */
};

/* The key table, in the order keys are looked up and help is shown. */
extern const struct dash_keys_cmd dash_keys_table[];
extern const size_t dash_keys_ncmds;

/* The names the help lines give keys that are not one character. */
struct dash_keys_name {
	const char *name;
	int key;
};
extern const struct dash_keys_name dash_keys_names[];
extern const size_t dash_keys_nnames;

/* A knob's key (dash-keys-act.c): one step of knob k (session_knob_step;
 * the refresh interval on the dashboard itself). */
int dash_keys_knob(struct dash *d, struct settings *w, const struct dash_key_ctx *c, enum knob_id k,
		   int arg);

/* The other actions of dash-keys-act.c: the roofline panel, the tour's
 * keys (d->tour_key), the sweep, sorting, reset, help, quit. */
int dash_keys_roofline(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_tour(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_sweep(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_sort(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_reset(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_help_toggle(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			  int arg);
int dash_keys_quit(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);

/* The machine view's keys (dash-machine.c): A shows it (or goes back),
 * its sort column (arg +1 / -1), cursor (arg rows), page (arg pages),
 * first / last row (arg -1 / +1), g groups by cgroup, K shows kernel
 * threads, Enter attaches. */
int dash_keys_machine(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_machine_sort(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			   int arg);
int dash_keys_machine_move(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			   int arg);
int dash_keys_machine_page(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			   int arg);
int dash_keys_machine_end(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			  int arg);
int dash_keys_machine_group(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			    int arg);
int dash_keys_machine_kernel(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			     int arg);
int dash_keys_machine_enter(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			    int arg);

/* Sets the message line (not an error). */
void dash_keys_say(struct dash *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The threads table: arg rows, arg pages, -1 first / +1 last row. */
int dash_keys_cursor(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_page(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_table_end(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
/* The process of the cursor's row; every process. */
int dash_keys_collapse(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_collapse_all(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			   int arg);

/* The replay: pause/play; arg samples to move (the replay pauses), or
 * DASH_KEYS_START / DASH_KEYS_END; arg times real speed. */
#define DASH_KEYS_START (-1000000000)
#define DASH_KEYS_END	1000000000
int dash_keys_replay_pause(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			   int arg);
int dash_keys_replay_seek(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			  int arg);
int dash_keys_replay_speed(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			   int arg);

/* The experiment log (dash-log.c): m marks a row, e shows the log. */
int dash_keys_mark(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_log_view(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);

#endif
