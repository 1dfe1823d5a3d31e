/* dash.c — the dashboard's terminal and its one loop.
 *
 * The loop: wait for input with ppoll() on stdin (and on the job's output
 * with --progress, read as it comes) until the next sample is
 * due (or 100 ms while a setting is pending), sample when due, handle every
 * key that is waiting, redraw once if anything changed.  Redrawing goes
 * through wnoutrefresh/doupdate, so ncurses sends only what changed; with
 * nothing to do the process sleeps in ppoll.
 *
 * The terminal, its restoring on signals and the wait are dash-term.c's.
 *
 * A workload failure (a helper the lab restarted, or one that failed for
 * good: workload_report.error) goes on the message line, highlighted, once
 * per event.  When the target exits the sampling stops and the last view
 * stays; the message line says so. */
#include "config.h"

#include "dash.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "dash-keys-act.h"
#include "dash-keys.h"
#include "dash-layout.h"
#include "dash-machine.h"
#include "dash-paint.h"
#include "dash-panels.h"
#include "dash-table.h"
#include "dash-term.h"
#include "knobs.h"
#include "options.h"
#include "export.h"
#include "record.h"
#include "session.h"
#include "session-roofline.h"
#include "session-replay.h"
#include "session-progress.h"
#include "session-lab.h"
#include "text-safe.h"
#include "tour-out.h"
#include "tour.h"
#include "xalloc.h"

#define DASH_PENDING_POLL 0.1 /* s between lab reads while a change is pending */

static double dash_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void dash_init(struct dash *d, const struct dash_config *c)
{
	memset(d, 0, sizeof(*d));
	double lo, hi;
	knobs_key_range(KNOB_INTERVAL, &lo, &hi);
	d->interval = c && c->interval > 0 ? c->interval : knobs_get(KNOB_INTERVAL)->def;
	double asked = d->interval;
	d->interval = d->interval < lo ? lo : d->interval > hi ? hi : d->interval;
	if (d->interval != asked)
		snprintf(d->message, sizeof(d->message),
			 "the dashboard refreshes every %g to %g s: -i %g became %g s", lo, hi,
			 asked, d->interval);
	d->sort = thread_field_sort_next(THREAD_FIELD_N, +1, false);
	d->utf8 = text_safe_utf8;
}

int dash_check_terminal(char *err, size_t errlen)
{
	const char *term = getenv("TERM");
	const char *hint = "use --batch for text output (e.g. threadlab --batch -c 5)";
	int errret = 0;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errlen, "the dashboard needs a terminal on stdin and stdout; %s",
			 hint);
		return EXIT_NO_TTY;
	}
	if (!term || !term[0] || strcmp(term, "dumb") == 0) {
		snprintf(err, errlen, "the dashboard needs a capable terminal (TERM is %s); %s",
			 term && term[0] ? "dumb" : "not set", hint);
		return EXIT_NO_TTY;
	}
	if (setupterm(term, STDOUT_FILENO, &errret) != OK) {
		snprintf(err, errlen, "terminal type '%.64s' is unknown to terminfo; %s", term,
			 hint);
		return EXIT_NO_TTY;
	}
	del_curterm(cur_term);
	return EXIT_OK;
}

static bool dash_tour_on(const struct dash *d)
{
	return d->tour && tour_active(d->tour);
}

/* The panels for this screen, with the tour's caption rows when it runs. */
static void dash_layout(WINDOW *w, const struct dash *d, const struct session *s,
			struct dash_layout *l)
{
	int rows, cols;
	getmaxyx(w, rows, cols);
	dash_layout_compute(rows, cols, s->kind == SESSION_LAB, s->model.cpus.n, l);
	if (s->progress.on)
		dash_layout_progress(l);
	if (dash_tour_on(d))
		dash_layout_caption(l, dash_panels_caption_rows(d, cols));
}

/* The threads table's height on this screen. */
static int dash_table_height(WINDOW *w, const struct dash *d, const struct session *s)
{
	struct dash_layout l;
	dash_layout(w, d, s, &l);
	return l.threads.h;
}

static void dash_draw(WINDOW *w, struct dash *d, struct session *s)
{
	struct dash_layout l;
	pid_t tids[256];
	long nrows;
	pid_t cursor;

	d->now = dash_now();
	if (d->machine_view) {
		dash_machine_draw(w, d, d->machine);
		return;
	}
	dash_layout(w, d, s, &l);
	dash_panels_draw(w, &l, d, s);
	wnoutrefresh(w);
	doupdate();
	/* The threads on screen get their state and CPU read every tick. */
	size_t n = dash_table_visible(s, d, l.threads.h, tids, 256, &nrows, &cursor);
	session_show_threads(s, tids, n);
}

/* The session's newest message onto the message line, once. */
static void dash_news(struct dash *d, const struct session *s)
{
	if (s->message_seq == d->message_seq)
		return;
	d->message_seq = s->message_seq;
	if (!s->message[0])
		return;
	snprintf(d->message, sizeof(d->message), "%s", s->message);
	d->message_bad = s->message_bad;
}

/* Applies s->want; the session says what happened. */
static void dash_apply(struct dash *d, struct session *s)
{
	session_lab_apply(s);
	dash_news(d, s);
}

/* One sample, then the sweep's next step. */
static void dash_tick(struct dash *d, struct session *s, double now)
{
	int rc = session_tick(s);
	dash_news(d, s);
	dash_log_tick(d, s);
	if (d->replay.on) {
		if (rc == -ENODATA && !d->replay.paused) {
			d->replay.paused = true;
			snprintf(d->message, sizeof(d->message),
				 "end of the recording: g or Home plays it again");
			d->message_bad = false;
		}
		return;
	}
	if (d->export && rc == 0)
		export_session(d->export, s);
	if (d->record && s->have_rates && rc == 0) {
		int w =
		    record_sample(d->record, &s->model, s->kind == SESSION_LAB ? &s->work : NULL,
				  s->have_diag ? &s->diag : NULL);
		if (w < 0) {
			snprintf(d->message, sizeof(d->message),
				 "cannot write the recording: %s; recording stops", strerror(-w));
			snprintf(d->record_error, sizeof(d->record_error),
				 "cannot write the recording: %s; it stopped there", strerror(-w));
			d->message_bad = true;
			record_close(d->record);
			d->record = NULL;
		}
	}
	if (s->kind == SESSION_LAUNCH && !d->status[0])
		session_child_status(s, d->status, sizeof(d->status));
	if (dash_tour_on(d) && rc == 0) {
		size_t cur = d->tour->cur;
		if (tour_tick(d->tour, s, now) && d->tour_notes &&
		    tour_out_step(d->tour_notes, FORMAT_JSON, d->tour, cur) < 0) {
			snprintf(d->message, sizeof(d->message),
				 "cannot write the tour notes: %s; notes stop", strerror(errno));
			d->message_bad = true;
			fclose(d->tour_notes);
			d->tour_notes = NULL;
		}
	}
	int r = session_sweep_tick(s, now);
	if (r & SESSION_SWEEP_APPLY)
		dash_apply(d, s);
	if (r & SESSION_SWEEP_DONE)
		snprintf(d->message, sizeof(d->message), "sweep done: threads 1..%d in the chart%s",
			 s->sweep.t_max, s->sweep.skipped ? " (some steps timed out)" : "");
}

/* Seconds between ticks: the refresh interval live; in a replay the
 * recorded interval over the speed. */
static double dash_period(const struct dash *d, const struct session *s)
{
	if (!d->replay.on)
		return d->interval;
	double dt = s->model.dt > 0.01 ? s->model.dt : 1.0;
	return dt / (d->replay.speed > 0 ? d->replay.speed : 1);
}

static int dash_key_ctx_online(const struct session *s)
{
	return s->model.budget.online > 0 ? s->model.budget.online : 1;
}

/* The tour's keys: t starts it; n, p, space and q while it runs. */
static void dash_tour_key(struct dash *d, struct session *s, double now)
{
	struct tour *t = d->tour;
	switch (d->tour_key) {
	case 't':
		if (tour_running(t)) {
			snprintf(d->message, sizeof(d->message),
				 "the tour runs: n, p and space move it, q leaves it");
			break;
		}
		session_sweep_cancel(s, true);
		tour_start(t, s, d->tour_step, d->tour_step, now);
		snprintf(d->message, sizeof(d->message),
			 "the tour: n next, p back, space holds, q leaves it");
		break;
	case 'n':
		if (!tour_next(t, s, now))
			snprintf(d->message, sizeof(d->message), "this is the last step: q leaves");
		break;
	case 'p':
		if (!tour_prev(t, s, now))
			snprintf(d->message, sizeof(d->message), "this is the first step");
		break;
	case ' ':
		t->paused = !t->paused;
		snprintf(d->message, sizeof(d->message), "%s",
			 t->paused ? "tour held: space goes on" : "tour goes on");
		break;
	case 'q':
		tour_stop(t, s);
		snprintf(d->message, sizeof(d->message), "tour left: your settings are back");
		break;
	}
	d->message_bad = false;
	dash_news(d, s);
}

/* Handles every key waiting; returns true to redraw. */
static bool dash_input(struct dash *d, struct session *s, double *next_sample)
{
	bool dirty = false;
	int ch;

	while ((ch = wgetch(stdscr)) != ERR) {
		if (ch == KEY_RESIZE) {
			dirty = true;
			continue;
		}
		/* Behind the "too small" notice nothing but quitting is shown,
		 * so nothing else may act unseen. */
		if ((getmaxy(stdscr) < DASH_MIN_ROWS || getmaxx(stdscr) < DASH_MIN_COLS) &&
		    ch != 'q' && ch != KEY_F(10))
			continue;
		int pf = dash_log_prompt_key(d, s, ch);
		if (pf) {
			dirty |= (pf & DASH_KEY_REDRAW) != 0;
			continue;
		}
		long nrows = 0;
		pid_t cursor = 0;
		pid_t none[1];
		int h = dash_table_height(stdscr, d, s);
		dash_table_visible(s, d, h, none, 0, &nrows, &cursor);
		struct dash_key_ctx c = {
		    .machine = d->machine_view,
		    .table_rows = nrows,
		    .table_body = dash_table_body_of(s, h),
		    .table_cursor_pid = cursor,
		    .lab = session_lab_live(s),
		    .replay = d->replay.on,
		    .tour = d->tour && tour_running(d->tour),
		    .replay_pos = s->replay_pos,
		    .replay_count = s->replay_count,
		    .online = dash_key_ctx_online(s),
		    .effective = s->model.budget.effective > 0 ? s->model.budget.effective : 1,
		    .now = dash_now(),
		    .session = s,
		};
		int f = dash_keys_handle(d, &s->want, &c, ch);
		if (f & DASH_KEY_ROOFS)
			session_roofline_roofs(s);
		if (f & DASH_KEY_APPLY)
			dash_apply(d, s);
		if (f & DASH_KEY_RESET)
			labview_reset(&s->view);
		if (f & DASH_KEY_SEEK &&
		    session_replay_seek(s, d->replay.target, d->replay.dir) != d->replay.target)
			dash_keys_act_say(d, "sample %ld of %ld: line %ld does not read (skipped)",
					  s->replay_pos + 1, s->replay_count, d->replay.target + 1);
		if (f & DASH_KEY_TOUR)
			dash_tour_key(d, s, c.now);
		if (f & DASH_KEY_RETIME)
			*next_sample = c.now + dash_period(d, s);
		if (f & DASH_KEY_REDRAW)
			dirty = true;
		if (f & DASH_KEY_QUIT)
			break;
	}
	return dirty;
}

/* Whether ticks are due at all: a live target still there, or a replay
 * that plays. */
static bool dash_running(const struct dash *d, const struct session *s)
{
	return d->replay.on ? !d->replay.paused : !s->target_gone;
}

static int dash_loop(struct dash *d, struct session *s)
{
	/* A replay shows its first sample at once; the next comes after it. */
	double next_sample = dash_now() + (d->replay.on ? dash_period(d, s) : 0);
	double next_poll = 0;
	bool dirty = true;
	unsigned last_pending = session_lab_pending(s);
	double next_output = 0;

	while (!d->quit && !stop_signal) {
		double now = dash_now();
		if (dash_running(d, s) && now >= next_sample) {
			dash_tick(d, s, now);
			double period = dash_period(d, s);
			next_sample += period;
			if (next_sample <= now)
				next_sample = now + period;
			dirty = true;
		}
		bool pending = session_lab_pending(s) != 0;
		if (pending && now >= next_poll) {
			/* Read the workload only: the pending mark clears within 100 ms. */
			unsigned p = session_lab_poll(s);
			next_poll = now + DASH_PENDING_POLL;
			if (p != last_pending)
				dirty = true;
			last_pending = p;
			pending = p != 0;
		}
		if (d->machine_view && dash_machine_tick(d->machine, d, now))
			dirty = true;
		if (dirty) {
			dash_draw(stdscr, d, s);
			dirty = false;
		}
		int timeout = -1;
		if (dash_running(d, s)) {
			double wait = next_sample - dash_now();
			if (pending && wait > DASH_PENDING_POLL)
				wait = DASH_PENDING_POLL;
			timeout = wait <= 0 ? 0 : (int)(wait * 1000.0 + 0.999);
		}
		if (d->machine_view) {
			int due = (int)(dash_machine_due(d->machine, dash_now()) * 1000.0 + 0.999);
			if (timeout < 0 || due < timeout)
				timeout = due;
		}
		/* The job's output (--progress) is read as it comes, at most
		 * every 50 ms (a chatty job must not keep the loop awake). */
		struct pollfd pfd[2] = {
		    {.fd = STDIN_FILENO, .events = POLLIN},
		    {.fd = dash_now() >= next_output ? session_progress_output_fd(s) : -1,
		     .events = POLLIN}};
		if (pfd[1].fd < 0 && session_progress_output_fd(s) >= 0 && timeout > 50)
			timeout = 50;
		int r = dash_term_wait(pfd, pfd[1].fd >= 0 ? 2 : 1, timeout);
		if (r > 0 && pfd[1].fd >= 0 && pfd[1].revents) {
			session_progress_drain_output(s);
			next_output = dash_now() + 0.05;
			if (!pfd[0].revents)
				continue;
		}
		if (r < 0 && errno != EINTR)
			return EXIT_RUNTIME;
		if (r > 0 && dash_term_gone(pfd[0].revents))
			break; /* the terminal went away */
		/* EINTR may be SIGWINCH: wgetch then gives KEY_RESIZE. */
		if (dash_input(d, s, &next_sample))
			dirty = true;
	}
	return EXIT_OK;
}

int dash_run(struct session *s, const struct dash_config *c)
{
	struct dash d;

	dash_init(&d, c);
	d.record = c ? c->record : NULL;
	d.back = c ? c->back : NULL;
	d.export = c ? c->export : NULL;
	d.log.file = c ? c->log_file : NULL;
	if (c && c->log_path)
		dash_log_load(&d, c->log_path);
	if (c && c->message)
		snprintf(d.message, sizeof(d.message), "%s", c->message);
	d.replay.on = session_replaying(s);
	d.replay.speed = 1;
	d.tour = xcalloc(1, sizeof(*d.tour));
	d.tour_step = c && c->tour_step > 0 ? c->tour_step : OPTIONS_TOUR_STEP_DEFAULT;
	d.tour_notes = c ? c->tour_notes : NULL;
	if (c && c->tour && session_lab_live(s))
		tour_start(d.tour, s, d.tour_step, d.tour_step, dash_now());
	d.message_seq = s->message_seq;
	if (s->message[0]) {
		snprintf(d.message, sizeof(d.message), "%s", s->message);
		d.message_bad = s->message_bad;
	}
	SCREEN *scr = dash_term_open(&d, c);
	if (!scr)
		return EXIT_NO_TTY;
	int status = dash_loop(&d, s);
	free(d.tour); /* the lab stops with the session: nothing to put back */
	dash_machine_drop(&d);
	if (d.tour_notes && fclose(d.tour_notes) != 0)
		status = status == EXIT_OK ? EXIT_RUNTIME : status;
	dash_term_close(scr);
	if (d.record && record_close(d.record) < 0)
		snprintf(d.record_error, sizeof(d.record_error), "cannot close the recording");
	/* Said again once the screen is gone, and the exit tells it. */
	if (d.record_error[0]) {
		fprintf(stderr, "threadlab: %s (exit status 1)\n", d.record_error);
		status = status == EXIT_OK ? EXIT_RUNTIME : status;
	}
	return status;
}
