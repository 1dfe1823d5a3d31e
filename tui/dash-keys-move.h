/* dash-keys-move.h — the keys that move around (dash-keys-move.c): the
 * threads table's cursor, pages and collapsed processes, and the replay's
 * time and speed.  Each returns DASH_KEY_* flags (dash-keys-impl.h). */
#ifndef THREADLAB_DASH_KEYS_MOVE_H
#define THREADLAB_DASH_KEYS_MOVE_H

#include "dash-keys-impl.h"

/* The threads table: arg rows, arg pages, -1 first / +1 last row. */
int dash_keys_move_cursor(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			  int arg);
int dash_keys_move_page(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_keys_move_table_end(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			     int arg);
/* The process of the cursor's row; every process. */
int dash_keys_move_collapse(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			    int arg);
int dash_keys_move_collapse_all(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
				int arg);
/* The replay: pause/play; arg samples to move (the replay pauses), or
 * DASH_KEYS_START / DASH_KEYS_END; arg times real speed. */
#define DASH_KEYS_START (-1000000000)
#define DASH_KEYS_END	1000000000
int dash_keys_move_replay_pause(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
				int arg);
int dash_keys_move_replay_seek(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			       int arg);
int dash_keys_move_replay_speed(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
				int arg);

#endif
