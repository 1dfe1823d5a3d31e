/* dash-keys-act.c — what the dashboard's keys do (dash-keys-impl.h): a
 * knob's step through the monitor (session_knob_step checks and changes
 * want once), and the keys of the dashboard itself.  The movement and
 * replay keys are dash-keys-move.c's, the experiment log's dash-log.c's. */
#include "config.h"

#include "dash-keys-impl.h"
#include "dash-keys-act.h"

#include <stdarg.h>
#include <stdio.h>

#include "session-knob.h"

void dash_keys_act_say(struct dash *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->message, sizeof(d->message), fmt, ap);
	va_end(ap);
	d->message_bad = false;
}

/* The refresh interval is the dashboard's: the table's list, here. */
static int dash_keys_interval(struct dash *d, int arg)
{
	char msg[DASH_MESSAGE_LEN];
	double next;
	if (knobs_step(KNOB_INTERVAL, d->interval, arg, 0, &next, msg, sizeof(msg)) < 0) {
		dash_keys_act_say(d, "%s", msg);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	d->interval = next;
	dash_keys_act_say(d, "refresh every %g s", next);
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_RETIME;
}

int dash_keys_act_knob(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
		       enum knob_id k, int arg)
{
	if (k == KNOB_INTERVAL)
		return dash_keys_interval(d, arg);
	char msg[DASH_MESSAGE_LEN];
	int changed = session_knob_step(c->session, w, k, arg, c->online, msg, sizeof(msg));
	dash_keys_act_say(d, "%s", msg);
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | (changed ? DASH_KEY_APPLY : 0);
}

/* o: the roofline panel; its first opening measures what it lacks. */
int dash_keys_act_roofline(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			   int arg)
{
	(void)w, (void)arg;
	d->roof_view = !d->roof_view;
	bool lacks = c->session && c->session->work.roofline.bound == ROOFLINE_UNKNOWN;
	if (d->roof_view && lacks)
		dash_keys_act_say(d, "measuring the roofs (a few seconds)...");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | (d->roof_view && lacks ? DASH_KEY_ROOFS : 0);
}

/* The tour's keys: dash.c acts on d->tour_key. */
int dash_keys_act_tour(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg)
{
	(void)w, (void)c;
	d->tour_key = arg;
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_TOUR;
}

int dash_keys_act_sweep(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg)
{
	(void)w, (void)arg;
	struct session *s = c->session;
	if (s && s->sweep.active) {
		dash_keys_act_say(d, "sweep stopped");
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW |
		       (session_sweep_cancel(s, true) ? DASH_KEY_APPLY : 0);
	}
	if (s && s->want.paused) {
		dash_keys_act_say(d, "paused: press space first, then s");
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	if (!s || !session_sweep_start(s, c->effective, c->now)) {
		dash_keys_act_say(d, "no workload here to sweep");
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	dash_keys_act_say(d, "sweep: threads 1..%d, %.0f s steady each; s stops it", s->sweep.t_max,
			  SESSION_SWEEP_WINDOW);
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_APPLY;
}

int dash_keys_act_sort(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg)
{
	(void)w;
	d->sort = thread_field_sort_next(d->sort, arg, c->session && c->session->model.lat_on);
	dash_keys_act_say(d, "threads sorted by %s", dash_format_sort_name(d->sort));
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_keys_act_reset(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg)
{
	(void)w, (void)c, (void)arg;
	dash_keys_act_say(d, "history and chart cleared");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_RESET;
}

int dash_keys_act_help_toggle(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			      int arg)
{
	(void)w, (void)c, (void)arg;
	d->help = !d->help;
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

int dash_keys_act_quit(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg)
{
	(void)w, (void)c, (void)arg;
	d->quit = true;
	return DASH_KEY_HANDLED | DASH_KEY_QUIT;
}
