/* dash-keys-impl.h — what the key table (dash-keys.c) and its actions
 * (dash-keys-move.c) share; not for other files.
 *
 * An action gets the dashboard, the settings asked for, the key's context
 * and the key's argument, and returns DASH_KEY_* flags. */
#ifndef THREADLAB_DASH_KEYS_IMPL_H
#define THREADLAB_DASH_KEYS_IMPL_H

#include "dash-keys.h"

typedef int (*dash_keys_fn)(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			    int arg);

/* Sets the message line (not an error). */
void dash_keys_say(struct dash *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The threads table: arg rows, arg pages, -1 first / +1 last row. */
int dash_keys_cursor(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_page(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_table_end(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			int arg);
/* The process of the cursor's row; every process. */
int dash_keys_collapse(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
		       int arg);
int dash_keys_collapse_all(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			   int arg);

/* The replay: pause/play; arg samples to move (the replay pauses), or
 * DASH_KEYS_START / DASH_KEYS_END; arg times real speed. */
#define DASH_KEYS_START (-1000000000)
#define DASH_KEYS_END	1000000000
int dash_keys_replay_pause(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			   int arg);
int dash_keys_replay_seek(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			  int arg);
int dash_keys_replay_speed(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			   int arg);

/* The experiment log (dash-log.c): m marks a row, e shows the log. */
int dash_keys_mark(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_log_view(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
		       int arg);

#endif
