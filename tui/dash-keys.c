/* dash-keys.c — key → action table of the dashboard.
 *
 * Each entry names a key, an action and its argument; the help screen is
 * written from the entries that carry help text, so the two cannot drift.
 * Lab knobs change only the settings asked for (want): the caller applies
 * them and the header shows them with a pending mark until the workload's
 * applied epoch catches up. */
#include "config.h"

#include "dash-keys.h"

#include <curses.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define DASH_KEYS_SIZE_MIN   256
#define DASH_KEYS_SIZE_STEP  64 /* sizes stay multiples of this */
#define DASH_KEYS_QUOTA_STEP 0.5

typedef int (*dash_keys_fn)(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			    int arg);

struct dash_keys_entry {
	int key;
	dash_keys_fn fn;
	int arg;
	bool lab; /* a workload knob: absent in attach mode, cancels a sweep */
};

static void dash_keys_say(struct dash *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void dash_keys_say(struct dash *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->message, sizeof(d->message), fmt, ap);
	va_end(ap);
	d->message_bad = false;
}

/* Accepts *t as the new settings when the lab's checks agree. */
static int dash_keys_try(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			 const struct lab_settings *t)
{
	char err[DASH_MESSAGE_LEN];

	if (session_check_settings(c->session, t, err, sizeof(err)) < 0) {
		dash_keys_say(d, "%s", err);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	*w = *t;
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_APPLY;
}

static int dash_keys_threads(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			     int arg)
{
	struct lab_settings t = *w;
	t.threads += arg;
	if (t.threads < 1 || t.threads > CTL_MAX_THREADS) {
		dash_keys_say(d, "intra-op threads stay within 1..%d", CTL_MAX_THREADS);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	dash_keys_say(d, "intra-op threads %d", t.threads);
	return dash_keys_try(d, w, c, &t);
}

static int dash_keys_streams(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			     int arg)
{
	struct lab_settings t = *w;
	t.streams += arg;
	if (t.streams < 1 || t.streams > CTL_MAX_STREAMS) {
		dash_keys_say(d, "inter-op streams stay within 1..%d", CTL_MAX_STREAMS);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	dash_keys_say(d, "inter-op streams %d", t.streams);
	return dash_keys_try(d, w, c, &t);
}

static int dash_keys_size(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			  int arg)
{
	struct lab_settings t = *w;
	const int step = DASH_KEYS_SIZE_STEP;
	if (arg > 0) {
		t.size = ((int)ceil(w->size * 1.25) + step - 1) / step * step;
		if (t.size < DASH_KEYS_SIZE_MIN)
			t.size = DASH_KEYS_SIZE_MIN;
		if (t.size > LAB_MAX_SIZE)
			t.size = LAB_MAX_SIZE;
	} else {
		t.size = (int)floor(w->size / 1.25) / step * step;
		if (t.size < DASH_KEYS_SIZE_MIN)
			t.size = DASH_KEYS_SIZE_MIN;
		/* Started below the key range (--size 128): down never grows. */
		if (t.size > w->size)
			t.size = w->size;
	}
	if (t.size == w->size) {
		dash_keys_say(d, "matrix size stays within %d..%d", DASH_KEYS_SIZE_MIN,
			      LAB_MAX_SIZE);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	dash_keys_say(d, "matrix size n=%d", t.size);
	return dash_keys_try(d, w, c, &t);
}

static int dash_keys_precision(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			       int arg)
{
	(void)arg;
	struct lab_settings t = *w;
	t.precision = w->precision == CTL_DOUBLE ? CTL_SINGLE : CTL_DOUBLE;
	dash_keys_say(d, "precision %s",
		      t.precision == CTL_DOUBLE ? "double (dgemm)" : "single (sgemm)");
	return dash_keys_try(d, w, c, &t);
}

static int dash_keys_workers(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			     int arg)
{
	struct lab_settings t = *w;
	t.workers += arg;
	if (t.workers < 0 || t.workers > LAB_MAX_WORKERS) {
		dash_keys_say(d, "background workers stay within 0..%d", LAB_MAX_WORKERS);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	dash_keys_say(d, "background workers %d", t.workers);
	return dash_keys_try(d, w, c, &t);
}

/* arg: +1 up, -1 down, 0 none.  Up from no quota starts at 0.5 CPU; down
 * from no quota starts half a CPU below the online count; down to 0 lifts
 * the quota. */
static int dash_keys_quota(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			   int arg)
{
	struct lab_settings t = *w;
	double step = DASH_KEYS_QUOTA_STEP;
	double top = c->online > 0 ? c->online : 1;

	if (arg == 0)
		t.cpus = 0;
	else if (w->cpus <= 0)
		t.cpus = arg > 0 ? step : top - step;
	else
		t.cpus = w->cpus + arg * step;
	if (t.cpus > top + 1e-9) {
		dash_keys_say(d, "quota is at the online CPU count (%g); u removes it", top);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	if (t.cpus < step - 1e-9)
		t.cpus = 0;
	if (t.cpus <= 0 && w->cpus <= 0) {
		dash_keys_say(d, "no quota to remove");
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	if (t.cpus > 0)
		dash_keys_say(d, "quota %.1f CPUs", t.cpus);
	else
		dash_keys_say(d, "quota removed");
	return dash_keys_try(d, w, c, &t);
}

static int dash_keys_pause(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			   int arg)
{
	(void)c, (void)arg;
	w->paused = !w->paused;
	dash_keys_say(d, "%s", w->paused ? "paused" : "running");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_APPLY;
}

static int dash_keys_sweep(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			   int arg)
{
	(void)arg;
	if (d->sweep.active) {
		dash_keys_say(d, "sweep stopped");
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW |
		       (dash_sweep_cancel(&d->sweep, w, true) ? DASH_KEY_APPLY : 0);
	}
	if (w->paused) {
		dash_keys_say(d, "paused: press space first, then s");
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	dash_sweep_start(&d->sweep, w, c->effective, c->now);
	dash_keys_say(d, "sweep: threads 1..%d, %.0f s steady each; s stops it", d->sweep.t_max,
		      DASH_SWEEP_WINDOW);
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_APPLY;
}

static int dash_keys_sort(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			  int arg)
{
	(void)w, (void)c;
	d->sort = (enum dash_sort)(((int)d->sort + arg + DASH_NSORT) % DASH_NSORT);
	dash_keys_say(d, "threads sorted by %s", dash_format_sort_name(d->sort));
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

static int dash_keys_reset(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			   int arg)
{
	(void)w, (void)c, (void)arg;
	dash_keys_say(d, "history and chart cleared");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_RESET;
}

static int dash_keys_help_toggle(struct dash *d, struct lab_settings *w,
				 const struct dash_key_ctx *c, int arg)
{
	(void)w, (void)c, (void)arg;
	d->help = !d->help;
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}

static int dash_keys_quit(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			  int arg)
{
	(void)w, (void)c, (void)arg;
	d->quit = true;
	return DASH_KEY_HANDLED | DASH_KEY_QUIT;
}

static const double dash_keys_intervals[] = {0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10};
#define DASH_KEYS_NINTERVALS (sizeof(dash_keys_intervals) / sizeof(dash_keys_intervals[0]))

/* arg -1: shorter interval (faster refresh), +1: longer. */
static int dash_keys_interval(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			      int arg)
{
	(void)w, (void)c;
	double next = d->interval;
	if (arg < 0) {
		for (size_t i = DASH_KEYS_NINTERVALS; i-- > 0;)
			if (dash_keys_intervals[i] < d->interval - 1e-9) {
				next = dash_keys_intervals[i];
				break;
			}
	} else {
		for (size_t i = 0; i < DASH_KEYS_NINTERVALS; i++)
			if (dash_keys_intervals[i] > d->interval + 1e-9) {
				next = dash_keys_intervals[i];
				break;
			}
	}
	if (next == d->interval) {
		dash_keys_say(d, "refresh interval stays within %g..%g s", DASH_INTERVAL_MIN,
			      DASH_INTERVAL_MAX);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	d->interval = next;
	dash_keys_say(d, "refresh every %g s", next);
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_RETIME;
}

static const struct dash_keys_entry dash_keys_table[] = {
    {'+', dash_keys_threads, +1, true},	    {'=', dash_keys_threads, +1, true},
    {'-', dash_keys_threads, -1, true},	    {']', dash_keys_streams, +1, true},
    {'[', dash_keys_streams, -1, true},	    {'>', dash_keys_size, +1, true},
    {'<', dash_keys_size, -1, true},	    {'d', dash_keys_precision, 0, true},
    {'w', dash_keys_workers, +1, true},	    {'W', dash_keys_workers, -1, true},
    {'}', dash_keys_quota, +1, true},	    {'{', dash_keys_quota, -1, true},
    {'u', dash_keys_quota, 0, true},	    {' ', dash_keys_pause, 0, true},
    {'s', dash_keys_sweep, 0, false},	    {'\t', dash_keys_sort, +1, false},
    {KEY_F(6), dash_keys_sort, +1, false},  {KEY_BTAB, dash_keys_sort, -1, false},
    {'r', dash_keys_reset, 0, false},	    {KEY_F(1), dash_keys_help_toggle, 0, false},
    {'h', dash_keys_help_toggle, 0, false}, {'?', dash_keys_help_toggle, 0, false},
    {KEY_F(10), dash_keys_quit, 0, false},  {'q', dash_keys_quit, 0, false},
    {'i', dash_keys_interval, -1, false},   {'I', dash_keys_interval, +1, false},
};

static const struct dash_key_help dash_keys_helps[] = {
    {"+ -", "intra-op threads (OpenBLAS threads per GEMM) up / down; = works as +", true},
    {"] [", "inter-op streams (GEMMs at the same time) up / down", true},
    {"> <", "matrix size n up / down (x1.25, 256 up to what fits in memory)", true},
    {"d", "single / double precision (sgemm / dgemm)", true},
    {"w W", "add / remove a background CPU worker", true},
    {"} {", "CPU quota up / down by 0.5 CPU (down to 0 lifts it)", true},
    {"u", "no CPU quota", true},
    {"space", "pause / resume the workload", true},
    {"s", "sweep thread counts 1..2x effective CPUs into the chart (s again stops)", true},
    {"Tab F6", "sort the threads table by the next column (Shift-Tab: previous)", false},
    {"r", "reset the throughput history and the chart", true},
    {"i I", "refresh faster / slower", false},
    {"F1 h ?", "this help (any key closes it)", false},
    {"F10 q", "quit (stops the workload and removes its cgroup)", false},
};

const struct dash_key_help *dash_keys_help(size_t *n)
{
	*n = sizeof(dash_keys_helps) / sizeof(dash_keys_helps[0]);
	return dash_keys_helps;
}

/* The key bar's entries in screen order; prio: what goes first when the
 * bar is too wide (dash-fit.h), 0 never. */
static const struct {
	const char *text;
	int prio;
	bool lab;
} dash_keys_bar_entries[] = {
    {"F1 help", 0, false},  {"+- threads", 1, true},  {"][ streams", 1, true},
    {">< size", 3, true},   {"d prec", 3, true},      {"wW worker", 2, true},
    {"}{u quota", 2, true}, {"spc pause", 2, true},   {"s sweep", 1, true},
    {"Tab sort", 2, false}, {"iI refresh", 3, false}, {"q quit", 0, false},
};

size_t dash_keys_bar(char *out, size_t cap, int width, bool lab)
{
	struct dash_line l;

	dash_line_init(&l, "  ");
	for (size_t i = 0; i < sizeof(dash_keys_bar_entries) / sizeof(dash_keys_bar_entries[0]);
	     i++)
		if (lab || !dash_keys_bar_entries[i].lab)
			dash_line_add(&l, dash_keys_bar_entries[i].prio, "%s",
				      dash_keys_bar_entries[i].text);
	return dash_line_render(&l, out, cap, width);
}

int dash_keys_handle(struct dash *d, struct lab_settings *want, const struct dash_key_ctx *c,
		     int key)
{
	if (key == ERR)
		return 0;
	if (d->help) {
		/* Any key closes the help; q and F10 still quit. */
		if (key == 'q' || key == KEY_F(10))
			return dash_keys_quit(d, want, c, 0);
		d->help = false;
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	for (size_t i = 0; i < sizeof(dash_keys_table) / sizeof(dash_keys_table[0]); i++) {
		const struct dash_keys_entry *e = &dash_keys_table[i];
		if (e->key != key)
			continue;
		if ((e->lab || e->fn == dash_keys_sweep || e->fn == dash_keys_reset) && !c->lab) {
			dash_keys_say(d, "no workload here: lab keys work without -p / --");
			return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
		}
		int extra = 0;
		if (e->lab && d->sweep.active) {
			extra = dash_sweep_cancel(&d->sweep, want, true) ? DASH_KEY_APPLY : 0;
		}
		return e->fn(d, want, c, e->arg) | extra;
	}
	return 0;
}
