/* dash-keys.c — the dashboard's one key table.
 *
 * Each command names its keys (each with an argument), its action, the
 * modes it acts in, its help line and its key-bar entry with the bar's
 * priority: the help screen, the key bar and the man-page test
 * (test-dash-keys.c) all come from this table, so they cannot drift.  Lab
 * knobs change only the settings asked for (want): the caller applies them
 * and the header shows them with a pending mark until the workload's
 * applied epoch catches up.  In a replay the knobs are inactive and the
 * replay keys move the recorded time instead. */
#include "config.h"

#include "dash-keys.h"
#include "dash-keys-impl.h"

#include <curses.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define DASH_KEYS_SIZE_MIN   256
#define DASH_KEYS_SIZE_STEP  64 /* sizes stay multiples of this */
#define DASH_KEYS_QUOTA_STEP 0.5

#define DASH_KEYS_MAX 6 /* keys per command */

struct dash_keys_cmd {
	struct {
		int key; /* 0 ends the list */
		int arg;
	} k[DASH_KEYS_MAX];
	dash_keys_fn fn;
	unsigned modes;		/* DASH_KEYS_MODE_* where the keys act */
	bool knob;		/* a workload knob: cancels a sweep */
	struct dash_key_help h; /* help line (keys NULL: none) */
	const char *bar;	/* key-bar text, NULL: not on the bar */
	int bar_prio;		/* what a narrow bar drops first (dash-fit.h); 0 never */
};

void dash_keys_say(struct dash *d, const char *fmt, ...)
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

static int dash_keys_kernel(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			    int arg)
{
	(void)arg;
	struct lab_settings t = *w;
	t.kernel = w->kernel == CTL_TRIAD ? CTL_GEMM : CTL_TRIAD;
	if (t.kernel == CTL_TRIAD)
		dash_keys_say(d, "kernel triad: memory-bound, %.0f MiB arrays (o: the roofline)",
			      labview_triad_mib(t.precision));
	else
		dash_keys_say(d, "kernel GEMM n=%d: compute-bound (o: the roofline)", t.size);
	return dash_keys_try(d, w, c, &t);
}

/* o: the roofline panel; its first opening measures what it lacks. */
static int dash_keys_roofline(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			      int arg)
{
	(void)w, (void)arg;
	d->roof_view = !d->roof_view;
	bool lacks = c->session && c->session->work.roofline.bound == ROOFLINE_UNKNOWN;
	if (d->roof_view && lacks)
		dash_keys_say(d, "measuring the roofs (a few seconds)...");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | (d->roof_view && lacks ? DASH_KEY_ROOFS : 0);
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

static int dash_keys_loaders(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			     int arg)
{
	struct lab_settings t = *w;
	t.loaders += arg;
	if (t.loaders < 0 || t.loaders > CTL_MAX_LOADERS) {
		dash_keys_say(d, "input-pipeline loaders stay within 0..%d", CTL_MAX_LOADERS);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	if (t.loaders == 0)
		dash_keys_say(d, "no input pipeline: GEMMs need no batches");
	else
		dash_keys_say(d, "loaders %d, %d ms of CPU per batch", t.loaders, t.prep_ms);
	return dash_keys_try(d, w, c, &t);
}

/* x / X: the CPU a batch costs, x1.5 up or down (1 ms steps below 3). */
static int dash_keys_prep(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			  int arg)
{
	struct lab_settings t = *w;
	if (arg > 0)
		t.prep_ms = w->prep_ms < 2 ? w->prep_ms + 1 : (int)lround(w->prep_ms * 1.5);
	else
		t.prep_ms = w->prep_ms <= 2 ? w->prep_ms - 1 : (int)lround(w->prep_ms / 1.5);
	if (t.prep_ms < 0 || t.prep_ms > CTL_MAX_PREP_MS) {
		dash_keys_say(d, "batch preparation stays within 0..%d ms", CTL_MAX_PREP_MS);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	dash_keys_say(d, "%d ms of CPU per batch%s", t.prep_ms,
		      t.loaders ? "" : " (no loaders yet: l adds one)");
	return dash_keys_try(d, w, c, &t);
}

static int dash_keys_prefetch(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			      int arg)
{
	struct lab_settings t = *w;
	t.prefetch += arg;
	if (t.prefetch < 1 || t.prefetch > CTL_MAX_PREFETCH) {
		dash_keys_say(d, "prefetch stays within 1..%d batches per loader",
			      CTL_MAX_PREFETCH);
		return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
	}
	dash_keys_say(d, "prefetch %d batches per loader", t.prefetch);
	return dash_keys_try(d, w, c, &t);
}

static int dash_keys_blas(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			  int arg)
{
	(void)arg;
	struct lab_settings t = *w;
	t.blas = w->blas == LAB_BLAS_OPENMP ? LAB_BLAS_PTHREADS : LAB_BLAS_OPENMP;
	dash_keys_say(d, "the %s build of OpenBLAS: the helpers restart",
		      labview_blas_name(t.blas));
	return dash_keys_try(d, w, c, &t);
}

static int dash_keys_spin(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			  int arg)
{
	(void)arg;
	struct lab_settings t = *w;
	t.spin_off = !w->spin_off;
	dash_keys_say(d, "%s: the helpers restart",
		      t.spin_off ? "spin off (OPENBLAS_THREAD_TIMEOUT=1, OMP_WAIT_POLICY=PASSIVE)"
				 : "spin default");
	return dash_keys_try(d, w, c, &t);
}

/* The tour's keys: dash.c acts on d->tour_key. */
static int dash_keys_tour(struct dash *d, struct lab_settings *w, const struct dash_key_ctx *c,
			  int arg)
{
	(void)w, (void)c;
	d->tour_key = arg;
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW | DASH_KEY_TOUR;
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
	(void)w;
	d->sort = (enum dash_sort)(((int)d->sort + arg + DASH_NSORT) % DASH_NSORT);
	/* P99 sorts only where latency is measured (the BPF collector). */
	if (d->sort == DASH_SORT_P99 && !(c->session && c->session->rates.lat_on))
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

#define LAB    DASH_KEYS_MODE_LAB
#define LIVE   (DASH_KEYS_MODE_LAB | DASH_KEYS_MODE_ATTACH)
#define RPL    DASH_KEYS_MODE_REPLAY
#define ALL    (LIVE | RPL)
#define ATTACH DASH_KEYS_MODE_ATTACH
#define TOUR   DASH_KEYS_MODE_TOUR

static const struct dash_keys_cmd dash_keys_table[] = {
    /* The tour's keys first: while it runs they win over the lab's. */
    {{{'n', 'n'}}, dash_keys_tour, TOUR, false, {"n", "tour: the next step", TOUR}, "n next", 1},
    {{{'p', 'p'}},
     dash_keys_tour,
     TOUR,
     false,
     {"p", "tour: the previous step (measured again)", TOUR},
     "p back",
     1},
    {{{' ', ' '}},
     dash_keys_tour,
     TOUR,
     false,
     {"space", "tour: hold the caption / go on", TOUR},
     "spc hold",
     1},
    {{{'q', 'q'}},
     dash_keys_tour,
     TOUR,
     false,
     {"q", "tour: leave it, your settings come back (F10 quits)", TOUR},
     "q leave tour",
     0},
    {{{'+', +1}, {'=', +1}, {'-', -1}},
     dash_keys_threads,
     LAB,
     true,
     {"+ -", "intra-op threads (OpenBLAS threads per GEMM) up / down; = works as +", LAB},
     "+- threads",
     1},
    {{{']', +1}, {'[', -1}},
     dash_keys_streams,
     LAB,
     true,
     {"] [", "inter-op streams (GEMMs at the same time) up / down", LAB},
     "][ streams",
     1},
    {{{'>', +1}, {'<', -1}},
     dash_keys_size,
     LAB,
     true,
     {"> < d", "matrix size n up / down (x1.25); d: single / double precision", LAB},
     ">< size",
     3},
    {{{'d', 0}}, dash_keys_precision, LAB, true, {NULL, NULL, 0}, "d prec", 3},
    {{{'k', 0}},
     dash_keys_kernel,
     LAB,
     true,
     {"k o", "kernel GEMM / triad (memory-bound); o: the roofline panel", LAB},
     "k kernel",
     2},
    {{{'o', 0}}, dash_keys_roofline, LAB, false, {NULL, NULL, 0}, "o roofline", 3},
    {{{'w', +1}, {'W', -1}},
     dash_keys_workers,
     LAB,
     true,
     {"w W", "add / remove a background CPU worker", LAB},
     "wW worker",
     2},
    {{{'}', +1}, {'{', -1}},
     dash_keys_quota,
     LAB,
     true,
     {"} { u", "CPU quota up / down by 0.5 CPU (down to 0 lifts it); u: none", LAB},
     "}{u quota",
     2},
    {{{'u', 0}}, dash_keys_quota, LAB, true, {NULL, NULL, 0}, NULL, 0},
    {{{'l', +1}, {'L', -1}},
     dash_keys_loaders,
     LAB,
     true,
     {"l L x X f F", "pipeline: loaders, CPU per batch (x1.5), prefetch up / down", LAB},
     "lL loader",
     2},
    {{{'x', +1}, {'X', -1}}, dash_keys_prep, LAB, true, {NULL, NULL, 0}, "xX prep", 3},
    {{{'f', +1}, {'F', -1}}, dash_keys_prefetch, LAB, true, {NULL, NULL, 0}, NULL, 0},
    {{{'b', 0}},
     dash_keys_blas,
     LAB,
     true,
     {"b B", "OpenBLAS build pthreads / OpenMP; spin on / off (restarts helpers)", LAB},
     "b blas",
     3},
    {{{'B', 0}}, dash_keys_spin, LAB, true, {NULL, NULL, 0}, NULL, 0},
    {{{'t', 't'}},
     dash_keys_tour,
     LAB,
     false,
     {"t", "the guided tour: lessons with captions from live numbers", LAB},
     "t tour",
     1},
    {{{' ', 0}},
     dash_keys_pause,
     LAB,
     true,
     {"space", "pause / resume the workload", LAB},
     "spc pause",
     2},
    {{{' ', 0}},
     dash_keys_replay_pause,
     RPL,
     false,
     {"space", "pause / play the replay", RPL},
     "spc pause",
     1},
    {{{KEY_RIGHT, +1}, {'.', +1}, {'>', +1}, {KEY_LEFT, -1}, {',', -1}, {'<', -1}},
     dash_keys_replay_seek,
     RPL,
     false,
     {"Right Left . , > <", "one sample forward / back (pauses the replay)", RPL},
     "<> step",
     1},
    {{{KEY_HOME, DASH_KEYS_START},
      {'g', DASH_KEYS_START},
      {KEY_END, DASH_KEYS_END},
      {'G', DASH_KEYS_END}},
     dash_keys_replay_seek,
     RPL,
     false,
     {"Home End g G", "jump to the start / end of the recording", RPL},
     "g/G start/end",
     2},
    {{{'1', 1}, {'2', 2}, {'4', 4}, {'8', 8}},
     dash_keys_replay_speed,
     RPL,
     false,
     {"1 2 4 8", "replay speed 1x, 2x, 4x, 8x", RPL},
     "1248 speed",
     2},
    {{{'s', 0}},
     dash_keys_sweep,
     LAB,
     false,
     {"s", "sweep threads 1..2x effective CPUs into the chart (s again stops)", LAB},
     "s sweep",
     1},
    {{{'\t', +1}, {KEY_F(6), +1}, {KEY_BTAB, -1}},
     dash_keys_sort,
     ALL,
     false,
     {"Tab F6", "sort the threads table by the next column (Shift-Tab: previous)", ALL},
     "Tab sort",
     2},
    {{{KEY_UP, -1}, {KEY_DOWN, +1}},
     dash_keys_cursor,
     ALL,
     false,
     {"Up Down", "move the cursor in the threads table", ALL},
     NULL,
     0},
    {{{KEY_PPAGE, -1}, {KEY_NPAGE, +1}},
     dash_keys_page,
     ALL,
     false,
     {"PgUp PgDn", "scroll the threads table by a page", ALL},
     NULL,
     0},
    {{{KEY_HOME, -1}, {KEY_END, +1}},
     dash_keys_table_end,
     LIVE,
     false,
     {"Home End", "the first / last row of the threads table", LIVE},
     NULL,
     0},
    {{{'\n', 0}, {'\r', 0}, {KEY_ENTER, 0}},
     dash_keys_collapse,
     ATTACH | RPL,
     false,
     {"Enter", "collapse / expand the process under the cursor to its totals", ATTACH | RPL},
     NULL,
     0},
    {{{'c', 0}},
     dash_keys_collapse_all,
     ATTACH | RPL,
     false,
     {"c", "collapse / expand every process of the threads table", ATTACH | RPL},
     "c collapse",
     3},
    {{{'m', 0}},
     dash_keys_mark,
     LIVE,
     false,
     {"m", "mark this setting in the experiment log (attached: type a note)", LIVE},
     "m mark",
     3},
    {{{'e', 0}},
     dash_keys_log_view,
     LIVE,
     false,
     {"e", "show / hide the experiment log: ratios to the first row, knob warnings", LIVE},
     "e log",
     3},
    {{{'r', 0}},
     dash_keys_reset,
     LAB,
     false,
     {"r", "reset the throughput history and the chart", LAB},
     NULL,
     0},
    {{{'i', -1}, {'I', +1}},
     dash_keys_interval,
     LIVE,
     false,
     {"i I", "refresh faster / slower", LIVE},
     "iI refresh",
     3},
    {{{KEY_F(1), 0}, {'h', 0}, {'?', 0}},
     dash_keys_help_toggle,
     ALL,
     false,
     {"F1 h ?", "this help (any key closes it)", ALL},
     "F1 help",
     0},
    {{{KEY_F(10), 0}, {'q', 0}},
     dash_keys_quit,
     LAB | TOUR,
     false,
     {"F10 q", "quit (stops the workload and removes its cgroup)", LAB | TOUR},
     "q quit",
     0},
    {{{KEY_F(10), 0}, {'q', 0}},
     dash_keys_quit,
     ATTACH,
     false,
     {"F10 q", "quit (a command started with -- is stopped; a -p process runs on)", ATTACH},
     "q quit",
     0},
    {{{KEY_F(10), 0}, {'q', 0}},
     dash_keys_quit,
     RPL,
     false,
     {"F10 q", "quit the replay", RPL},
     "q quit",
     0},
};

#undef LAB
#undef LIVE
#undef RPL
#undef ALL
#undef ATTACH
#undef TOUR

#define DASH_KEYS_NCMDS (sizeof(dash_keys_table) / sizeof(dash_keys_table[0]))

/* The names the help lines give keys that are not one character. */
static const struct {
	const char *name;
	int key;
} dash_keys_names[] = {
    {"space", ' '},	 {"Tab", '\t'},	     {"F6", KEY_F(6)},	 {"Right", KEY_RIGHT},
    {"Left", KEY_LEFT},	 {"Up", KEY_UP},     {"Down", KEY_DOWN}, {"PgUp", KEY_PPAGE},
    {"PgDn", KEY_NPAGE}, {"Home", KEY_HOME}, {"End", KEY_END},	 {"Enter", '\n'},
    {"F1", KEY_F(1)},	 {"F10", KEY_F(10)},
};

/* The key a help-line name stands for; -1 for none. */
static int dash_keys_code(const char *name)
{
	if (name[0] && !name[1])
		return (unsigned char)name[0];
	for (size_t i = 0; i < sizeof(dash_keys_names) / sizeof(dash_keys_names[0]); i++)
		if (strcmp(dash_keys_names[i].name, name) == 0)
			return dash_keys_names[i].key;
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
	for (size_t i = 0; i < DASH_KEYS_NCMDS; i++) {
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

const struct dash_key_help *dash_keys_help(unsigned mode, size_t *n)
{
	static struct dash_key_help lines[DASH_KEYS_NCMDS];
	static char names[DASH_KEYS_NCMDS][48];
	size_t k = 0;
	for (size_t i = 0; i < DASH_KEYS_NCMDS; i++) {
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
		for (size_t i = 0; i < DASH_KEYS_NCMDS; i++) {
			const struct dash_keys_cmd *e = &dash_keys_table[i];
			bool help = e->fn == dash_keys_help_toggle, quit = e->fn == dash_keys_quit;
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
	return c->replay ? DASH_KEYS_MODE_REPLAY
	       : c->lab	 ? DASH_KEYS_MODE_LAB | (c->tour ? DASH_KEYS_MODE_TOUR : 0)
			 : DASH_KEYS_MODE_ATTACH;
}

int dash_keys_handle(struct dash *d, struct lab_settings *want, const struct dash_key_ctx *c,
		     int key)
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
		if (e->knob && d->sweep.active)
			extra = dash_sweep_cancel(&d->sweep, want, true) ? DASH_KEY_APPLY : 0;
		return e->fn(d, want, c, arg) | extra;
	}
	/* A key of another mode: say where it works. */
	const struct dash_keys_cmd *other = NULL;
	for (size_t i = 0; i < DASH_KEYS_NCMDS && !other; i++)
		for (int k = 0; k < DASH_KEYS_MAX && dash_keys_table[i].k[k].key; k++)
			if (dash_keys_table[i].k[k].key == key)
				other = &dash_keys_table[i];
	if (!other)
		return 0;
	if ((mode & DASH_KEYS_MODE_TOUR) && (other->modes & DASH_KEYS_MODE_LAB))
		dash_keys_say(d, "the tour sets the knobs: q leaves it, then they are yours again");
	else if (other->modes == DASH_KEYS_MODE_TOUR)
		dash_keys_say(d, "that key moves the guided tour (t starts it in the lab)");
	else if (mode == DASH_KEYS_MODE_REPLAY)
		dash_keys_say(d, "a replay: the workload keys are inactive");
	else if (other->modes & DASH_KEYS_MODE_LAB)
		dash_keys_say(d, "no workload here: lab keys work without -p / --");
	else
		dash_keys_say(d, "that key works in a replay (--replay FILE)");
	return DASH_KEY_HANDLED | DASH_KEY_REDRAW;
}
