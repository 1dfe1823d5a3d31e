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
	dash_keys_fn fn;	/* the action; NULL: step knob (dash_keys_act_knob) */
	unsigned modes;		/* DASH_KEYS_MODE_* where the keys act */
	enum knob_id knob;	/* the knob the keys step; a lab knob cancels a sweep */
	struct dash_key_help h; /* help line (keys NULL: none) */
	const char *bar;	/* key-bar text, NULL: not on the bar */
	int bar_prio;		/* what a narrow bar drops first (dash-fit.h); 0 never */
};

#endif
