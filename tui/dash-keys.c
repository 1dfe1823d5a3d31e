/* dash-keys.c — the dashboard's keys looked up in the key table
 * (dash-keys-table.c): the command a key runs in a mode, the help lines and
 * the key bar.  Lab knobs change only the settings asked for (want): the
 * caller applies them and the header shows them with a pending mark until
 * the workload's applied epoch catches up.  In a replay the knobs are
 * inactive and the replay keys move the recorded time instead. */
#include "config.h"

#include "dash-keys.h"
#include "dash-keys-impl.h"
#include "dash-keys-table.h"
#include "dash-keys-act.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#define DASH_KEYS_LINES 64 /* help lines at most */

/* The key a help-line name stands for; -1 for none. */
static int dash_keys_code(const char *name)
{
	if (name[0] && !name[1])
		return (unsigned char)name[0];
	for (size_t i = 0; i < dash_keys_table_nnames; i++)
		if (strcmp(dash_keys_table_names[i].name, name) == 0)
			return dash_keys_table_names[i].key;
	return -1;
}

/* Whether command e acts in mode.  While the tour runs it owns the lab's
 * keys: only its own and those that also act outside the lab remain. */
static bool dash_keys_acts(const struct dash_keys_cmd *e, unsigned mode)
{
	if (!(e->modes & mode))
		return false;
	return !(mode & DASH_KEYS_MODE_TOUR) || (e->modes & ~DASH_KEYS_MODE_LAB);
}

/* The command that acts on key in mode (the first in the table), its
 * argument in *arg; NULL for none. */
static const struct dash_keys_cmd *dash_keys_find(unsigned mode, int key, int *arg)
{
	for (size_t i = 0; i < dash_keys_table_ncmds; i++) {
		const struct dash_keys_cmd *e = &dash_keys_table[i];
		if (!dash_keys_acts(e, mode))
			continue;
		for (int k = 0; k < DASH_KEYS_MAX && e->k[k].key; k++)
			if (e->k[k].key == key) {
				*arg = e->k[k].arg;
				return e;
			}
	}
	return NULL;
}

/* The help line a command belongs to: its own, or the nearest above it
 * (a command without one, such as d, shares the line of > <). */
static size_t dash_keys_line_of(const struct dash_keys_cmd *e)
{
	size_t i = (size_t)(e - dash_keys_table);
	while (i > 0 && !dash_keys_table[i].h.keys)
		i--;
	return i;
}

/* what with each "{option}" the step figure of that knob (knobs_rule_words). */
static void dash_keys_what(const char *what, char *out, size_t cap)
{
	size_t n = 0;
	while (*what && n + 1 < cap) {
		const char *end = what[0] == '{' ? strchr(what, '}') : NULL;
		char name[32];
		if (end && (size_t)(end - what) < sizeof(name)) {
			snprintf(name, sizeof(name), "%.*s", (int)(end - what - 1), what + 1);
			n += knobs_rule_words(knobs_of_option(name), out + n, cap - n);
			what = end + 1;
		} else {
			out[n++] = *what++;
		}
	}
	out[n] = '\0';
}

const struct dash_key_help *dash_keys_help(unsigned mode, size_t *n)
{
	static struct dash_key_help lines[DASH_KEYS_LINES];
	static char names[DASH_KEYS_LINES][48];
	static char whats[DASH_KEYS_LINES][256];
	size_t k = 0;
	for (size_t i = 0; i < dash_keys_table_ncmds && k < DASH_KEYS_LINES; i++) {
		const struct dash_keys_cmd *e = &dash_keys_table[i];
		if (!e->h.keys || (mode && !dash_keys_acts(e, mode)))
			continue;
		/* Only the names that reach this line's commands in this mode. */
		char buf[48], *save = NULL;
		size_t len = 0;
		snprintf(buf, sizeof(buf), "%s", e->h.keys);
		names[k][0] = '\0';
		for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			int arg, code = dash_keys_code(t);
			const struct dash_keys_cmd *to =
			    code < 0 ? NULL : dash_keys_find(mode, code, &arg);
			if (mode && (!to || dash_keys_line_of(to) != i))
				continue;
			int w = snprintf(names[k] + len, sizeof(names[k]) - len, "%s%s",
					 len ? " " : "", t);
			if (w > 0 && len + (size_t)w < sizeof(names[k]))
				len += (size_t)w;
		}
		if (!len)
			continue;
		lines[k] = e->h;
		lines[k].keys = names[k];
		dash_keys_what(e->h.what, whats[k], sizeof(whats[k]));
		lines[k].what = whats[k];
		k++;
	}
	*n = k;
	return lines;
}

size_t dash_keys_bar(char *out, size_t cap, int width, unsigned mode)
{
	struct dash_line l;

	dash_line_init(&l, "  ");
	/* Screen order: help first, quit last, the rest as in the table. */
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < dash_keys_table_ncmds; i++) {
			const struct dash_keys_cmd *e = &dash_keys_table[i];
			bool help = e->fn == dash_keys_act_help_toggle,
			     quit = e->fn == dash_keys_act_quit;
			bool tour = e->modes == DASH_KEYS_MODE_TOUR; /* the tour's own */
			/* The tour shows its own keys; q leaves it (last). */
			if ((mode & DASH_KEYS_MODE_TOUR) && !help)
				quit = tour && e->k[0].key == 'q';
			if (!e->bar || !(e->modes & mode) || (pass == 0) != help ||
			    (pass == 2) != quit)
				continue;
			if ((mode & DASH_KEYS_MODE_TOUR) && !help && !tour)
				continue;
			dash_line_add(&l, e->bar_prio, "%s", e->bar);
		}
	return dash_line_render(&l, out, cap, width);
}

unsigned dash_keys_mode(const struct dash_key_ctx *c)
{
	return c->machine  ? DASH_KEYS_MODE_MACHINE
	       : c->replay ? DASH_KEYS_MODE_REPLAY
	       : c->lab	   ? DASH_KEYS_MODE_LAB | (c->tour ? DASH_KEYS_MODE_TOUR : 0)
			   : DASH_KEYS_MODE_ATTACH;
}

int dash_keys_handle(struct dash *d, struct settings *want, const struct dash_key_ctx *c, int key)
{
	if (key == ERR)
		return 0;
	if (d->help) {
		/* Any key closes the help, as it says (q and F10 too). */
		d->help = false;
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	unsigned mode = dash_keys_mode(c);
	int arg = 0;
	const struct dash_keys_cmd *e = dash_keys_find(mode, key, &arg);
	if (e) {
		int extra = 0;
		const struct knob *k = knobs_get(e->knob);
		if (k && (k->flags & KNOB_LAB) && c->session)
			extra = session_sweep_cancel(c->session, true) ? DASH_KEY_APPLY : 0;
		if (!e->fn)
			return dash_keys_act_knob(d, want, c, e->knob, arg) | extra;
		return e->fn(d, want, c, arg) | extra;
	}
	/* A key of another mode: say where it works. */
	const struct dash_keys_cmd *other = NULL;
	for (size_t i = 0; i < dash_keys_table_ncmds && !other; i++)
		for (int k = 0; k < DASH_KEYS_MAX && dash_keys_table[i].k[k].key; k++)
			if (dash_keys_table[i].k[k].key == key)
				other = &dash_keys_table[i];
	if (!other)
		return 0;
	if ((mode & DASH_KEYS_MODE_TOUR) && (other->modes & DASH_KEYS_MODE_LAB))
		dash_keys_act_say(
		    d, "the tour sets the knobs: q leaves it, then they are yours again");
	else if (other->modes == DASH_KEYS_MODE_TOUR)
		dash_keys_act_say(d, "that key moves the guided tour (t starts it in the lab)");
	else if (mode == DASH_KEYS_MODE_REPLAY)
		dash_keys_act_say(d, "a replay: the workload keys are inactive");
	else if (other->modes & DASH_KEYS_MODE_LAB)
		dash_keys_act_say(d, "no workload here: lab keys work without -p / --");
	else
		dash_keys_act_say(d, "that key works in a replay (--replay FILE)");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}
