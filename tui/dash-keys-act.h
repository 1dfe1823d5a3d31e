/* dash-keys-act.h — what the dashboard's own keys do (dash-keys-act.c):
 * the key table's actions for knobs, sorting, the roofline, the sweep, the
 * tour, help and quitting.  Each takes the key's context and argument and
 * returns DASH_KEY_* flags (dash-keys-impl.h). */
#ifndef THREADLAB_DASH_KEYS_ACT_H
#define THREADLAB_DASH_KEYS_ACT_H

#include "dash-keys-impl.h"

/* A knob's key (dash-keys-act.c): one step of knob k (session_knob_step;
 * the refresh interval on the dashboard itself). */
int dash_keys_act_knob(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
		       enum knob_id k, int arg);
/* The other actions of dash-keys-act.c: the roofline panel, the tour's
 * keys (d->tour_key), the sweep, sorting, reset, help, quit. */
int dash_keys_act_roofline(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			   int arg);
int dash_keys_act_tour(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_act_sweep(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_act_sort(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_act_reset(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_act_help_toggle(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			      int arg);
int dash_keys_act_quit(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
/* Sets the message line (not an error). */
void dash_keys_act_say(struct dash *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
