/* test-dash-draw.c — the panels drawn into an off-screen window and read
 * back: where the text lands at 80x24 and larger, and that small windows
 * get the notice instead of a crash. */
#include "config.h"
#include "knobs.h"
#include "session-impl.h"

#include "tl-test.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "dash-layout.h"
#include "dash-paint.h"
#include "dash-panels.h"
#include "text-safe.h"
#include "tl-dash.h"
#include "tl-rates.h"

struct fixture {
	struct session s;
	struct session_impl impl; /* s.impl: the sample its model is made from (draw) */
	struct dash d;
	struct thread_rate rates[4];
	struct thread_sample samples[4];
};

static SCREEN *screen;
static FILE *out_f, *in_f;

static int group_setup(void **state)
{
	tl_setup_utf8(state);
	setenv("TERM", "xterm-256color", 1);
	out_f = fopen("/dev/null", "w");
	in_f = fopen("/dev/null", "r");
	if (!out_f || !in_f)
		return -1;
	screen = newterm("xterm-256color", out_f, in_f);
	return screen ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	endwin();
	delscreen(screen);
	fclose(out_f);
	fclose(in_f);
	return 0;
}

/* A lab session as if two ticks had run: 2 threads on 2 CPUs. */
static struct fixture *fixture_lab(void)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct session *s = &f->s;

	s->impl = &f->impl;
	s->kind = SESSION_LAB;
	s->target = 50;
	s->want = knobs_defaults();
	s->want.threads = 2;
	settings_to_lab(&s->want, &s->impl->lab_status.settings);
	s->impl->lab_status.applied = true;
	s->impl->lab_status.anchor_pid = 50;
	s->impl->lab_status.stream[0].state = CTL_STREAM_RUNNING;
	s->impl->lab_status.stream[0].pid = 100;
	s->impl->lab_status.stream[0].threads = 2;
	s->impl->lab_status.stream[0].size = 768;
	s->impl->cur.budget.online = 2;
	s->impl->cur.budget.affinity = 2;
	s->impl->cur.budget.cpuset = 2;
	s->impl->cur.budget.quota.cpus = -1;
	s->impl->cur.budget.quota.controller = true;
	s->impl->cur.budget.effective = 2;
	s->impl->cur.budget.binding = BUDGET_ONLINE;
	s->impl->cur.cpus.n = 2;
	s->impl->cur.cpus.id[1] = 1;
	s->impl->cur.cpus.busy_pct[0] = 100;
	s->impl->cur.cpus.busy_pct[1] = 50;
	s->have_rates = true;
	s->impl->rates.throttle.valid = true;
	f->rates[0] = tl_rate(100, 100, "gemm0", 'R', 99);
	f->rates[1] = tl_rate(100, 101, "gemm0.w1", 'R', 98);
	f->rates[2] = tl_rate(100, 102, "gemm0.p2", 'S', 1);
	f->rates[3] = tl_rate(50, 50, "tl-anchor", 'S', 0);
	s->impl->rates.threads = f->rates;
	s->impl->rates.nthreads = 4;
	s->impl->rates.runnable = 2;
	s->runnable_mean = 2.0;
	s->work.gflops = 207.5;
	s->work.single_thread_gflops = 104;
	s->work.ideal_gflops = 208;
	s->work.ceiling_gflops = 208;
	s->work.steady_gflops = 207;
	s->work.results_checked = true;
	s->work.results_equal = true;
	s->work.epoch_results_checked = true;
	s->work.epoch_results_equal = true;
	s->work.streams = 1;
	s->work.nstreams = 1;
	s->work.stream[0].state = "running";
	s->work.stream[0].wanted = true;
	s->work.stream[0].pid = 100;
	s->work.stream[0].gflops = 207.5;
	s->work.stream[0].useful_cpus = s->work.useful_cpus = 1.96;
	s->work.stream[0].cpu_cpus = s->work.cpu_cpus = 2.0;
	labview_init(&s->view);
	for (int i = 0; i < 40; i++)
		s->view.history[s->view.nhistory++] = i < 20 ? 104 : 207;
	struct labview_point p1 = {1, 1, 768, 0, 104, 2, 2, 0, 0, 0, false},
			     p2 = {1, 2, 768, 0, 207, 2, 2, 0, 0, 0, false};
	s->view.effective = 2;
	s->view.points[s->view.npoints++] = p1;
	s->view.points[s->view.npoints++] = p2;
	memset(&f->d, 0, sizeof(f->d));
	f->d.interval = 1;
	f->d.utf8 = false;
	snprintf(f->d.message, sizeof(f->d.message), "intra-op threads 2");
	return f;
}

/* Row y of w as text (multibyte), trailing spaces kept. */
static const char *row_text(WINDOW *w, int y)
{
	static char buf[2048];
	int n = mvwinnstr(w, y, 0, buf, (int)sizeof(buf) - 1);
	if (n < 0)
		buf[0] = '\0';
	return buf;
}

/* The first row holding needle, or -1. */
static int find_row(WINDOW *w, const char *needle)
{
	int rows = getmaxy(w);
	for (int y = 0; y < rows; y++)
		if (strstr(row_text(w, y), needle))
			return y;
	return -1;
}

/* The fixture's free: its model's rows. */
static void fixture_free(struct fixture *f)
{
	model_sample_free(&f->s.model);
	free(f);
}

static void draw(WINDOW *w, struct fixture *f)
{
	struct dash_layout l;
	/* The model of the sample as the session's tick makes it. */
	model_sample_fill(&f->s.model, &f->impl.cur, &f->impl.rates, f->s.have_rates);
	dash_layout_compute(getmaxy(w), getmaxx(w), f->s.kind == SESSION_LAB, f->s.model.cpus.n,
			    &l);
	dash_panels_draw(w, &l, &f->d, &f->s);
}

static void test_lab_80x24(void **state)
{
	(void)state;
	struct fixture *f = fixture_lab();
	WINDOW *w = newwin(24, 80, 0, 0);
	assert_non_null(w);
	draw(w, f);

	assert_int_equal(find_row(w, "threadlab lab"), 0);
	assert_non_null(strstr(row_text(w, 0), "thr 2 | str 1 | wrk 0 | quota none | every 1s"));
	assert_int_equal(find_row(w, "budget: online 2"), 1);
	assert_non_null(strstr(row_text(w, 1), "| effective 2.00 (online binds)"));
	assert_int_equal(find_row(w, "run-queue wait"), 2);
	assert_non_null(strstr(row_text(w, 2), "s/s | throttled 0.00 s/s (0%) | PSI"));
	assert_int_equal(find_row(w, "GFLOP/s 207.5"), 3);
	assert_non_null(strstr(row_text(w, 3), "ceiling 208.0"));
	/* Useful CPU next to what /proc shows: the difference is spin. */
	assert_int_equal(find_row(w, "work 1.96 of 2.00 CPUs busy (0.04 spin/overhead)"), 4);
	assert_int_equal(find_row(w, "history"), 5);
	assert_non_null(strstr(row_text(w, 5), "steady 207.0 | 1 thread 104.0"));
	assert_int_equal(find_row(w, "Scaling n=768"), 6);
	int r1 = find_row(w, "  1x1 ");
	int r2 = find_row(w, "  1x2 ");
	assert_int_equal(r1, 7);
	assert_int_equal(r2, 8);
	/* The 2-thread bar is longer than the 1-thread bar. */
	const char *b1 = row_text(w, r1);
	size_t hashes1 = strspn(b1 + 8, "#"); /* after the 7-column label and a space */
	const char *b2 = row_text(w, r2);
	size_t hashes2 = strspn(b2 + 8, "#");
	assert_true(hashes2 > hashes1 + 10);
	assert_non_null(strstr(row_text(w, 12), "cpu0"));
	assert_non_null(strstr(row_text(w, 12), "cpu1"));
	/* The workload's verdict, just above its threads. */
	assert_int_equal(find_row(w, "diagnosis:"), 13);
	int head = find_row(w, "NAME");
	assert_int_equal(head, 14);
	/* Sorted by CPU %: the driver first, the anchor last. */
	assert_non_null(strstr(row_text(w, 15), "gemm0 "));
	assert_non_null(strstr(row_text(w, 15), "active"));
	assert_non_null(strstr(row_text(w, 16), "gemm0.w1"));
	assert_non_null(strstr(row_text(w, 17), "parked"));
	assert_non_null(strstr(row_text(w, 18), "anchor"));
	assert_int_equal(find_row(w, "runnable 2.00 of 4 threads"), 21);
	assert_int_equal(find_row(w, "F1 help"), 22);
	assert_non_null(strstr(row_text(w, 22), "q quit"));
	assert_int_equal(find_row(w, "intra-op threads 2"), 23);
	assert_int_equal(find_row(w, "too small"), -1);

	/* A pending change shows its mark at once. */
	f->s.want.threads = 3;
	draw(w, f);
	assert_non_null(strstr(row_text(w, 0), "thr 3*"));
	delwin(w);
	fixture_free(f);
}

/* Whole words that a row may end with in the fixture's screens: a row
 * ending in anything else at the window's edge was cut. */
static void assert_no_row_cut(WINDOW *w)
{
	int rows = getmaxy(w), cols = getmaxx(w);
	for (int y = 0; y < rows; y++) {
		const char *t = row_text(w, y);
		if (strstr(t, "\u2026") || strstr(t, "..."))
			fail_msg("row %d cut at %d columns: '%s'", y, cols, t);
	}
}

static void test_no_row_cut_mid_word(void **state)
{
	(void)state;
	int sizes[][2] = {{24, 80}, {30, 100}, {40, 120}, {50, 200}};
	for (int streams = 1; streams <= 2; streams++) {
		struct fixture *f = fixture_lab();
		struct session *s = &f->s;
		/* A busy lab: 2 streams under a quota, throttled, pending. */
		if (streams == 2) {
			s->want.streams = 2;
			s->want.cpus = 1.5;
			s->want.workers = 1;
			s->work.streams = s->work.nstreams = 2;
			s->work.stream[1] = s->work.stream[0];
			s->work.stream[1].stream = 1;
			s->work.stream[1].gflops = 85.2;
			s->impl->cur.budget.quota.cpus = 1.5;
			s->impl->cur.budget.effective = 1.5;
			s->impl->cur.budget.binding = BUDGET_QUOTA;
			s->impl->rates.throttle.valid = true;
			s->impl->rates.throttle.throttled_pct = 98;
			s->impl->rates.throttle.throttled_s_per_s = 0.49;
			s->impl->rates.total_wait_pct = 250;
			s->impl->rates.runnable = 4;
			s->work.results_equal = false;
			s->work.max_diff = 2.4812e-05;
			s->work.epoch_results_equal = false;
			s->work.epoch_max_diff = 2.4812e-05;
			snprintf(
			    f->d.message, sizeof(f->d.message),
			    "quota needs root or a delegated cgroup v2 subtree: run sudo "
			    "threadlab, or systemd-run --user --scope -p Delegate=yes threadlab");
		}
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			WINDOW *w = newwin(sizes[i][0], sizes[i][1], 0, 0);
			dash_paint_cuts = 0;
			draw(w, f);
			/* Every row's text fitted its width before it was drawn. */
			assert_int_equal(dash_paint_cuts, 0);
			if (streams == 1 || sizes[i][1] >= 200)
				assert_no_row_cut(w);
			assert_true(find_row(w, "spin/overhead") > 0 || find_row(w, "spin)") > 0);
			assert_true(find_row(w, "F1 help") == sizes[i][0] - 2);
			if (streams == 2) {
				assert_true(find_row(w, "s0 ") > 0 && find_row(w, " s1 ") > 0);
				assert_true(find_row(w, "throttled 0.49 s/s (98%") == 2);
				assert_true(find_row(w, "quota needs root") == sizes[i][0] - 1);
			}
			delwin(w);
		}
		fixture_free(f);
	}
}

static void test_failure_message_highlighted(void **state)
{
	(void)state;
	struct fixture *f = fixture_lab();
	WINDOW *w = newwin(24, 80, 0, 0);
	snprintf(f->d.message, sizeof(f->d.message),
		 "stream 0: helper killed by signal 9, restarted (restart 1)");
	f->d.message_bad = true;
	if (has_colors() && start_color() == OK) {
		use_default_colors();
		dash_paint_colors_init();
		f->d.color = true;
	}
	draw(w, f);
	assert_int_equal(find_row(w, "helper killed by signal 9, restarted"), 23);
	attr_t bad = dash_paint_attr(&f->d, DASH_ROLE_BAD);
	assert_true((mvwinch(w, 23, 0) & A_ATTRIBUTES) == (bad & A_ATTRIBUTES));
	if (f->d.color) {
		f->d.message_bad = false;
		draw(w, f);
		assert_true((mvwinch(w, 23, 0) & A_ATTRIBUTES) != (bad & A_ATTRIBUTES));
		f->d.message_bad = true;
	}
	/* A stream that failed for good shows on the work row too. */
	f->s.work.stream[0].state = "failed";
	snprintf(f->s.work.error, sizeof(f->s.work.error), "stream 0: helper exited with status 1");
	draw(w, f);
	assert_non_null(strstr(row_text(w, 4), "s0 FAILED"));
	delwin(w);
	fixture_free(f);
}

static void test_lab_large_uses_space(void **state)
{
	(void)state;
	struct fixture *f = fixture_lab();
	f->s.impl->cur.cpus.n = 16;
	for (int i = 0; i < 16; i++)
		f->s.impl->cur.cpus.id[i] = i;
	WINDOW *w = newwin(50, 160, 0, 0);
	draw(w, f);
	int chart = find_row(w, "Scaling");
	int cpu = find_row(w, "cpu0");
	assert_true(chart > 0);
	assert_int_equal(cpu, chart); /* side by side */
	assert_true(find_row(w, "cpu15") > 0);
	/* Below the bars, the Amdahl fit of the two points: 207 of 2 x 104. */
	int fit = find_row(w, "Amdahl s="); /* (the title's legend names "Amdahl fit" too) */
	if (fit < 0)
		fit = find_row(w, "Amdahl fit:");
	printf("# %s\n", row_text(w, fit));
	assert_true(fit > chart + 2);
	assert_true(strstr(row_text(w, fit), "s=0.00") ||
		    strstr(row_text(w, fit), "serial fraction 0.00"));
	assert_non_null(strstr(row_text(w, find_row(w, "NAME")), "VCS/s"));
	assert_int_equal(find_row(w, "F1 help"), 48);
	delwin(w);
	/* 120 x 40: the chart beside the CPUs is narrower than any one line
	 * of the caption; it wraps onto the free rows below the bars rather
	 * than leave the fit's marks without its figures. */
	w = newwin(40, 120, 0, 0);
	draw(w, f);
	fit = find_row(w, "Amdahl s=");
	if (fit < 0)
		fit = find_row(w, "Amdahl fit:");
	assert_true(fit > 0);
	printf("# 120x40: %s\n#         %s\n", row_text(w, fit), row_text(w, fit + 1));
	assert_true(strstr(row_text(w, fit), "s=0.00") ||
		    strstr(row_text(w, fit), "serial fraction 0.00"));
	delwin(w);
	fixture_free(f);
}

static void test_utf8_sparkline_cells(void **state)
{
	(void)state;
	struct fixture *f = fixture_lab();
	f->d.utf8 = true;
	WINDOW *w = newwin(24, 80, 0, 0);
	draw(w, f);
	cchar_t cc;
	wchar_t wc[CCHARW_MAX + 1];
	attr_t a;
	short pair;
	/* The newest history value sits just left of " steady 207.0 ...". */
	const char *row = row_text(w, 5);
	const char *tail = strstr(row, " steady");
	assert_non_null(tail);
	/* Count columns up to tail: mvwinnstr gave multibyte text. */
	char prefix[2048];
	snprintf(prefix, sizeof(prefix), "%.*s", (int)(tail - row), row);
	int x = dash_fit_width(prefix) - 1;
	assert_int_equal(mvwin_wch(w, 5, x, &cc), OK);
	getcchar(&cc, wc, &a, &pair, NULL);
	assert_int_equal(wc[0], 0x2588); /* full block: at the ceiling */
	delwin(w);
	fixture_free(f);
}

static void test_attach_hostile_name(void **state)
{
	(void)state;
	struct fixture *f = fixture_lab();
	struct session *s = &f->s;
	s->kind = SESSION_ATTACH;
	s->target = 4242;
	f->rates[0] = tl_rate(4242, 4242, "\x1b[31mRED\x07\x9b", 'S', 10);
	f->rates[1] = tl_rate(4242, 4243, "\xff\x1b]0;pwn\x07", 'S', 5);
	s->impl->rates.nthreads = 2;
	f->samples[0].tid = 4242;
	memcpy(f->samples[0].name, "\x1b[2Jx", 5);
	f->samples[0].name_len = 5;
	s->impl->cur.threads.v = f->samples;
	s->impl->cur.threads.n = 1;
	f->d.message[0] = '\0';
	WINDOW *w = newwin(24, 80, 0, 0);
	draw(w, f);
	assert_int_equal(find_row(w, "GFLOP/s"), -1);
	assert_int_equal(find_row(w, "Scaling"), -1);
	assert_true(find_row(w, "threadlab attach 4242") == 0);
	/* ncurses itself would show ESC as "^[" and BEL as "^G", so finding the
	 * text after them proves nothing: the cell must hold the replacement
	 * character (U+FFFD in this UTF-8 locale, '?' otherwise), never '^'. */
	const char *rep = text_safe_utf8 ? "\xef\xbf\xbd" : "?";
	char want[64];
	snprintf(want, sizeof(want), "%s[2Jx", rep);
	assert_true(find_row(w, want) == 0);
	snprintf(want, sizeof(want), "%s[31mRED%s%s", rep, rep, rep);
	assert_true(find_row(w, want) > 0);
	snprintf(want, sizeof(want), "%s%s]0;pwn%s", rep, rep, rep);
	assert_true(find_row(w, want) > 0);
	assert_int_equal(find_row(w, "^["), -1);
	assert_int_equal(find_row(w, "^G"), -1);
	for (int y = 0; y < 24; y++)
		for (const unsigned char *p = (const unsigned char *)row_text(w, y); *p; p++)
			if (*p < 0x20 || *p == 0x7f || *p == 0x9b)
				fail_msg("raw control 0x%02x on row %d", *p, y);
	assert_int_equal(find_row(w, "active"), -1); /* no lab marks when attached */
	/* The target exited: say so, keep the view. */
	s->target_gone = true;
	draw(w, f);
	assert_true(find_row(w, "exited: last view kept") == 23);
	assert_non_null(strstr(row_text(w, 0), "EXITED"));
	assert_true(find_row(w, "[31mRED") > 0);
	s->kind = SESSION_LAUNCH;
	snprintf(f->d.status, sizeof(f->d.status), "exited with status 3");
	draw(w, f);
	assert_true(find_row(w, "command exited with status 3") == 23);
	delwin(w);
	fixture_free(f);
}

/* The diagnosis of an attached target whose first suggestion is longer
 * than a row: it wraps onto the next rows, whole, instead of being cut at
 * its figures (at 120 columns a cut fell right at the number). */
static void test_suggestion_wraps(void **state)
{
	(void)state;
	static const char sug[] =
	    "set OMP_NUM_THREADS=2 before the program starts, or call omp_set_num_threads(2) "
	    "in the program (the code sets 4 now): 2.00 runnable threads on 2.00 CPUs, a factor "
	    "of 1.00, instead of 4.00 runnable threads (a factor of 2.00) waiting 0.50 s/s";
	static const char action[] =
	    "Try: set OMP_NUM_THREADS=2 before the program starts, or call "
	    "omp_set_num_threads(2) in the program (the code sets 4 now)";
	int sizes[][2] = {{40, 120}, {24, 80}, {50, 200}};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct fixture *f = fixture_lab();
		struct session *s = &f->s;
		s->kind = SESSION_ATTACH;
		s->target = 4242;
		f->d.message[0] = '\0';
		s->have_diag = true;
		s->diag.verdict = VERDICT_OVERSUBSCRIBED;
		s->diag.factor = 2;
		snprintf(s->diag.headline, sizeof(s->diag.headline),
			 "oversubscribed 2.0x: 4.0 runnable threads on 2.00 CPUs");
		snprintf(s->diag.suggestions[0], sizeof(s->diag.suggestions[0]), "%s", sug);
		s->diag.nsuggestions = 1;
		int rows = sizes[k][0], cols = sizes[k][1];
		WINDOW *w = newwin(rows, cols, 0, 0);
		draw(w, f);
		int y = find_row(w, "Try: set OMP_NUM_THREADS=2");
		assert_true(y > 0);
		/* The rows from "Try:" on, trimmed and joined by one space, hold
		 * the whole suggestion. */
		char joined[2048] = "";
		for (int r = y; r < rows && strlen(joined) < sizeof(sug) + 8; r++) {
			char t[2048];
			snprintf(t, sizeof(t), "%s", row_text(w, r));
			size_t n = strlen(t);
			while (n && t[n - 1] == ' ')
				t[--n] = '\0';
			const char *b = t;
			while (*b == ' ')
				b++;
			size_t o = strlen(joined);
			snprintf(joined + o, sizeof(joined) - o, "%s%s", o ? " " : "", b);
		}
		/* 80x24 gives the verdict 3 rows: the predicted figures go,
		 * the action is whole and nothing is cut. */
		const char *want = rows >= 40 ? sug : action;
		if (!strstr(joined, want))
			fail_msg("at %dx%d the suggestion was cut: '%s'", cols, rows, joined);
		if (rows < 40 && strstr(joined, "2.00 runnable"))
			fail_msg("at %dx%d a prediction cut short: '%s'", cols, rows, joined);
		for (int r = 0; r < rows; r++)
			if (strstr(row_text(w, r), "\u2026"))
				fail_msg("at %dx%d row %d cut: '%s'", cols, rows, r,
					 row_text(w, r));
		/* the next row carries on, indented */
		assert_true(strncmp(row_text(w, y + 1), "     ", 5) == 0 &&
			    row_text(w, y + 1)[5] != ' ');
		delwin(w);
		fixture_free(f);
	}
}

/* A replayed suggestion that names a pid says the pid is the recording's;
 * live, or naming none, it is a plain "Try:". */
static void test_replay_pid_caveat(void **state)
{
	(void)state;
	static const char *const sug[] = {
	    "stop, renice (every thread: renice -n 10 -p $(ls /proc/28522/task)) or move that",
	    "set OMP_NUM_THREADS=2 before the program starts"};
	for (int replay = 0; replay <= 1; replay++)
		for (size_t k = 0; k < 2; k++) {
			struct fixture *f = fixture_lab();
			struct session *s = &f->s;
			s->kind = SESSION_ATTACH;
			s->target = 4242;
			f->d.message[0] = '\0';
			f->d.replay.on = replay;
			s->have_diag = true;
			s->diag.verdict = VERDICT_CONTENDED;
			snprintf(s->diag.headline, sizeof(s->diag.headline),
				 "contended: others took 1.0 CPUs");
			snprintf(s->diag.suggestions[0], sizeof(s->diag.suggestions[0]), "%s",
				 sug[k]);
			s->diag.nsuggestions = 1;
			WINDOW *w = newwin(40, 160, 0, 0);
			draw(w, f);
			char want[256];
			snprintf(want, sizeof(want), "%s %.20s",
				 replay && k == 0 ? "Try (PIDs as recorded):" : "Try:", sug[k]);
			if (find_row(w, want) < 0)
				fail_msg("replay %d, suggestion %zu: no row '%s'", replay, k, want);
			delwin(w);
			fixture_free(f);
		}
}

static void test_small_sizes(void **state)
{
	(void)state;
	struct fixture *f = fixture_lab();
	int sizes[][2] = {{12, 50}, {23, 80}, {24, 79}, {3, 10}, {1, 1}, {2, 200}};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		WINDOW *w = newwin(sizes[i][0], sizes[i][1], 0, 0);
		assert_non_null(w);
		draw(w, f);
		if (sizes[i][1] >= 40 && sizes[i][0] >= 2)
			assert_true(find_row(w, "terminal too small") >= 0);
		assert_int_equal(find_row(w, "GFLOP/s"), -1);
		delwin(w);
	}
	fixture_free(f);
}

static void test_help_screen(void **state)
{
	(void)state;
	struct fixture *f = fixture_lab();
	f->d.help = true;
	WINDOW *w = newwin(24, 80, 0, 0);
	draw(w, f);
	assert_int_equal(find_row(w, "threadlab keys"), 0);
	assert_true(find_row(w, "intra-op threads") > 0);
	assert_true(find_row(w, "F10 q") > 0);
	assert_int_equal(find_row(w, "GFLOP/s"), -1);
	f->s.kind = SESSION_ATTACH;
	draw(w, f);
	assert_int_equal(find_row(w, "intra-op threads"), -1);
	assert_true(find_row(w, "F10 q") > 0);
	delwin(w);
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lab_80x24),
	    cmocka_unit_test(test_no_row_cut_mid_word),
	    cmocka_unit_test(test_failure_message_highlighted),
	    cmocka_unit_test(test_lab_large_uses_space),
	    cmocka_unit_test(test_utf8_sparkline_cells),
	    cmocka_unit_test(test_attach_hostile_name),
	    cmocka_unit_test(test_suggestion_wraps),
	    cmocka_unit_test(test_replay_pid_caveat),
	    cmocka_unit_test(test_small_sizes),
	    cmocka_unit_test(test_help_screen),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
