/* dash-machine-run.c — the machine view's keys (the key table's MACH rows)
 * and threadlab --all on the terminal: the view alone, and the attach
 * screens Enter opens from it (dash-machine.h). */
#include "config.h"

#include "dash-machine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dash-keys-impl.h"
#include "dash-machine-run.h"
#include "dash-keys-act.h"
#include "dash-keys.h"
#include "dash-term.h"
#include "face.h"
#include "session.h"
#include "stop.h"
#include "xalloc.h"

/* ---- the view alone: threadlab --all --------------------------------------------- */

/* Handles every key waiting; true to redraw. */
static bool dm_input(struct dash *d)
{
	bool dirty = false;
	int ch;
	while ((ch = wgetch(stdscr)) != ERR) {
		if (ch == KEY_RESIZE) {
			dirty = true;
			continue;
		}
		struct dash_key_ctx c = {.machine = true, .now = stop_now(), .online = 1, .effective = 1};
		int f = dash_keys_handle(d, NULL, &c, ch);
		if (f & DASH_KEY_REDRAW)
			dirty = true;
		if (f & DASH_KEY_QUIT)
			break;
	}
	return dirty;
}

/* The view until q (0 in *enter) or Enter on a process (its PID). */
static int dm_run(struct dash_machine *m, const struct dash_config *c, char *message,
		  pid_t *enter)
{
	struct dash d;
	dash_init(&d, c);
	d.machine = m;
	d.machine_view = true;
	d.machine_only = true;
	if (message[0])
		snprintf(d.message, sizeof(d.message), "%s", message);
	m->enter = 0;
	SCREEN *scr = dash_term_open(&d, c);
	if (!scr)
		return EXIT_NO_TTY;
	bool dirty = true;
	int rc = EXIT_OK;
	while (!d.quit && !stop_signal && !m->enter) {
		if (dash_machine_tick(m, &d, stop_now()))
			dirty = true;
		if (dirty)
			dash_machine_draw(stdscr, &d, m);
		dirty = false;
		struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
		int r = dash_term_wait(&pfd, 1, (int)(dash_machine_due(m, stop_now()) * 1000 + 0.999));
		if (r < 0 && errno != EINTR) {
			rc = EXIT_RUNTIME;
			break;
		}
		if (r > 0 && dash_term_gone(pfd.revents))
			break; /* the terminal went away */
		dirty = dm_input(&d);
	}
	dash_term_close(scr);
	*enter = d.quit ? 0 : m->enter;
	return rc;
}

/* The attach screen of pid, until A (back: true) or q. */
static int dm_attach(const struct options *o, const struct dash_machine *m, pid_t pid, bool *back,
		     char *message, size_t cap)
{
	struct session s;
	struct session_config sc;
	char err[512];
	options_session_config(o, &sc);
	sc.pid = pid;
	sc.tree = dash_machine_has_children(m, pid);
	/* The view's reader, warm: the attach screen is up without reading
	 * every thread of the machine again (the view does not tick meanwhile). */
	sc.machine_from = ranking_machine(&m->k);
	*back = true;
	if (session_start(&s, &sc, err, sizeof(err)) != EXIT_OK) {
		session_stop(&s);
		snprintf(message, cap, "cannot attach to pid %d: %.200s", (int)pid, err);
		return EXIT_OK;
	}
	*back = false;
	struct dash_config dc = {.interval = o->interval_set ? o->interval : 0,
				 .no_color = o->no_color,
				 .back = back};
	int rc = dash_run(&s, &dc);
	session_stop(&s);
	message[0] = '\0';
	return rc;
}

int dash_machine_run_main(const struct options *o)
{
	char err[512], message[DASH_MESSAGE_LEN] = "";
	struct dash_machine m;
	stop_install(NULL);
	if (dash_machine_open(&m, o->interval_set ? o->interval : 1.0, o->kernel_threads, stop_now(),
			      err, sizeof(err)) < 0) {
		face_say(err);
		return EXIT_RUNTIME;
	}
	struct dash_config dc = {.no_color = o->no_color};
	int rc = EXIT_OK;
	while (!stop_signal) {
		pid_t enter = 0;
		rc = dm_run(&m, &dc, message, &enter);
		if (rc != EXIT_OK || !enter || stop_signal)
			break;
		bool back = false;
		rc = dm_attach(o, &m, enter, &back, message, sizeof(message));
		if (rc != EXIT_OK || !back)
			break;
		/* The rows it shows are new: the ranking goes on from its last tick. */
	}
	dash_machine_free(&m);
	return rc;
}

/* ---- keys (the key table's MACH rows) -------------------------------------------- */

int dash_machine_run_key(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg)
{
	(void)w, (void)arg;
	if (d->back && !c->machine) {
		/* An attach screen opened from threadlab --all: back to it. */
		*d->back = true;
		d->quit = true;
		return DASH_KEY_HANDLED | DASH_KEY_QUIT;
	}
	if (d->machine_view) {
		if (d->machine_only) {
			dash_keys_act_say(
			    d, "this is threadlab --all: Enter attaches to a process, q quits");
			return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
		}
		d->machine_view = false;
		dash_keys_act_say(d, "back from the machine view");
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	if (!d->machine) {
		char err[256];
		struct dash_machine *m = xcalloc(1, sizeof(*m));
		if (dash_machine_open(m, d->interval, false, c->now, err, sizeof(err)) < 0) {
			free(m);
			dash_keys_act_say(d, "no machine view: %s", err);
			d->message_bad = true;
			return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
		}
		d->machine = m;
	}
	d->machine_view = true;
	dash_keys_act_say(d, "the machine view: A goes back");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_machine_run_key_sort(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			      int arg)
{
	(void)w, (void)c;
	dash_machine_sort_step(d->machine, arg);
	dash_keys_act_say(d, "processes sorted by %s", dash_machine_sort_name(d->machine->sort));
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_machine_run_key_move(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			      int arg)
{
	(void)w, (void)c;
	dash_machine_move(d->machine, arg);
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_machine_run_key_page(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			      int arg)
{
	(void)w, (void)c;
	int page = d->machine->body > 1 ? d->machine->body - 1 : 1;
	dash_machine_move(d->machine, arg * page);
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_machine_run_key_end(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			     int arg)
{
	(void)w, (void)c;
	dash_machine_move(d->machine, arg < 0 ? -(int)d->machine->nitems : (int)d->machine->nitems);
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_machine_run_key_group(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			       int arg)
{
	(void)w, (void)c, (void)arg;
	dash_machine_group(d->machine);
	dash_keys_act_say(
	    d, "%s", d->machine->group ? "grouped by cgroup: g ungroups" : "one row per process");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_machine_run_key_kernel(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
				int arg)
{
	(void)w, (void)c, (void)arg;
	d->machine->k.kernel = !d->machine->k.kernel;
	dash_keys_act_say(d, "%s",
			  d->machine->k.kernel ? "kernel threads shown from the next ranking"
					       : "kernel threads hidden from the next ranking");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_machine_run_key_enter(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			       int arg)
{
	(void)w, (void)c, (void)arg;
	pid_t pid = dash_machine_cursor_pid(d->machine);
	if (!d->machine_only)
		dash_keys_act_say(d, "Enter attaches from threadlab --all; here A goes back");
	else if (!pid)
		dash_keys_act_say(d, "Enter on a process (not a cgroup's line) attaches to it");
	else
		d->machine->enter = pid;
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}
