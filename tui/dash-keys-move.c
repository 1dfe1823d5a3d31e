/* dash-keys-move.c — the keys that move around: the threads table's cursor,
 * pages and collapsed processes, and the replay's time and speed.  The key
 * table (dash-keys-table.c) binds them. */
#include "config.h"

#include "dash-keys.h"
#include "dash-keys-impl.h"
#include "dash-keys-move.h"
#include "dash-keys-act.h"

/* ---- the threads table -------------------------------------------------------- */

static int dash_keys_table_moved(struct dash *d, const struct dash_key_ctx *c)
{
	d->table.cursor_on = true;
	long last = c->table_rows > 0 ? c->table_rows - 1 : 0;
	if (d->table.cursor > last)
		d->table.cursor = (int)last;
	if (d->table.cursor < 0)
		d->table.cursor = 0;
	/* Keep the top where the cursor can be seen (dash_table_first
	 * finishes the job when drawing). */
	int page = c->table_body > 1 ? c->table_body - 1 : 1;
	if (d->table.cursor < d->table.top)
		d->table.top = d->table.cursor;
	if (d->table.cursor >= d->table.top + page)
		d->table.top = d->table.cursor - page + 1;
	/* Never past the last page (it needs no "more" row): else PgUp from
	 * End would start from a top that was never shown. */
	long last_top = c->table_rows - (c->table_body > 0 ? c->table_body : 1);
	if (d->table.top > last_top)
		d->table.top = last_top > 0 ? (int)last_top : 0;
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

/* arg: rows to move the cursor by. */
int dash_keys_move_cursor(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg)
{
	(void)w;
	if (!d->table.cursor_on)
		d->table.cursor = d->table.top - (arg > 0 ? 1 : 0);
	d->table.cursor += arg;
	return dash_keys_table_moved(d, c);
}

/* arg: pages to scroll by. */
int dash_keys_move_page(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg)
{
	(void)w;
	int page = c->table_body > 1 ? c->table_body - 1 : 1;
	if (!d->table.cursor_on)
		d->table.cursor = d->table.top;
	d->table.cursor += arg * page;
	d->table.top += arg * page;
	if (d->table.top < 0)
		d->table.top = 0;
	return dash_keys_table_moved(d, c);
}

/* arg -1: the first row, +1: the last. */
int dash_keys_move_table_end(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			     int arg)
{
	(void)w;
	d->table.cursor = arg < 0 ? 0 : (int)(c->table_rows > 0 ? c->table_rows - 1 : 0);
	d->table.top = arg < 0 ? 0 : d->table.cursor;
	return dash_keys_table_moved(d, c);
}

/* Collapses or expands the process of the cursor's row. */
int dash_keys_move_collapse(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			    int arg)
{
	(void)w, (void)arg;
	struct dash_table_state *t = &d->table;
	pid_t pid = c->table_cursor_pid;
	if (pid <= 0) {
		dash_keys_act_say(d, "move the cursor (Up, Down) onto a process first");
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	for (size_t i = 0; i < t->ncollapsed; i++)
		if (t->collapsed[i] == pid) {
			t->collapsed[i] = t->collapsed[--t->ncollapsed];
			dash_keys_act_say(d, "process %d expanded", (int)pid);
			return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
		}
	if (t->ncollapsed < DASH_COLLAPSED_MAX)
		t->collapsed[t->ncollapsed++] = pid;
	dash_keys_act_say(d, "process %d collapsed to its totals", (int)pid);
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_keys_move_collapse_all(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
				int arg)
{
	(void)w, (void)c, (void)arg;
	d->table.collapse_all = !d->table.collapse_all;
	d->table.ncollapsed = 0;
	d->table.top = 0;
	dash_keys_act_say(d, "%s",
			  d->table.collapse_all ? "every process collapsed to its totals"
						: "every process expanded");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

/* ---- replay --------------------------------------------------------------- */

int dash_keys_move_replay_pause(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
				int arg)
{
	(void)w, (void)c, (void)arg;
	d->replay.paused = !d->replay.paused;
	dash_keys_act_say(d, "replay %s", d->replay.paused ? "paused" : "playing");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_RETIME;
}

int dash_keys_move_replay_seek(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			       int arg)
{
	(void)w;
	long last = c->replay_count > 0 ? c->replay_count - 1 : 0;
	long to = arg == DASH_KEYS_START ? 0 : arg == DASH_KEYS_END ? last : c->replay_pos + arg;
	to = to < 0 ? 0 : to > last ? last : to;
	if (arg != DASH_KEYS_START && arg != DASH_KEYS_END)
		d->replay.paused = true;
	if (to == c->replay_pos) {
		dash_keys_act_say(d, "%s of the recording (sample %ld of %ld)",
				  to == 0 ? "at the start" : "at the end", to + 1, c->replay_count);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	d->replay.target = to;
	d->replay.dir = arg == DASH_KEYS_END || (arg != DASH_KEYS_START && arg < 0) ? -1 : 1;
	dash_keys_act_say(d, "sample %ld of %ld%s", to + 1, c->replay_count,
			  d->replay.paused ? " (paused: space plays)" : "");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_SEEK | DASH_KEY_RETIME;
}

int dash_keys_move_replay_speed(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
				int arg)
{
	(void)w, (void)c;
	d->replay.speed = arg;
	dash_keys_act_say(d, "replay at %dx", arg);
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_RETIME;
}
