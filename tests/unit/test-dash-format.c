/* test-dash-format.c — the dashboard's rows, bars and chart as pure text. */
#include "config.h"

#include "tl-test.h"

#include <math.h>

#include <string.h>

#include "activity.h"
#include "dash-format.h"
#include "dash-rows.h"
#include "labview-impl.h"
#include "text-safe.h"
#include "tl-dash.h"
#include "tl-rates.h"

/* A running thread on CPU 1 whose split, wait and switches follow cpu. */
static struct model_thread mk_thread(pid_t pid, pid_t tid, const char *name, double cpu)
{
	struct model_thread r = tl_row(pid, tid, name, 'R', cpu);
	r.cpu = 1;
	r.user_pct = cpu * 0.9;
	r.sys_pct = cpu * 0.1;
	r.wait_pct = 100 - cpu;
	r.ivcsw_per_s = cpu * 2;
	return r;
}

/* No byte that a terminal would act on. */
static void assert_no_controls(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fail_msg("control byte 0x%02x in '%s'", *p, s);
		if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fail_msg("UTF-8 C1 in '%s'", s);
	}
}

static void test_fit_and_width(void **state)
{
	(void)state;
	char out[64];
	assert_int_equal(dash_fit_width("abc"), 3);
	assert_int_equal(dash_fit_width("\xe7\xba\xbf"), 2); /* wide CJK */
	dash_fit(out, sizeof(out), "abcdef", 4, true, false);
	assert_string_equal(out, "abcd");
	dash_fit(out, sizeof(out), "ab", 4, true, false);
	assert_string_equal(out, "ab  ");
	dash_fit(out, sizeof(out), "ab", 4, true, true);
	assert_string_equal(out, "  ab");
	/* A wide character that would straddle the edge is left out. */
	dash_fit(out, sizeof(out), "a\xe7\xba\xbf", 2, true, false);
	assert_string_equal(out, "a ");
	assert_int_equal(dash_fit_width(out), 2);
}

static void test_fit_words(void **state)
{
	(void)state;
	char out[128];
	dash_fit_words(out, sizeof(out), "quota needs root: run as root", 80);
	assert_string_equal(out, "quota needs root: run as root");
	/* Cut after a whole word, separators dropped, an ellipsis added. */
	dash_fit_words(out, sizeof(out), "quota needs root: run as root", 19);
	assert_string_equal(out, "quota needs root\u2026");
	dash_fit_words(out, sizeof(out), "alpha | beta | gamma", 15);
	assert_string_equal(out, "alpha | beta\u2026");
	/* One long word: cut at a character. */
	dash_fit_words(out, sizeof(out), "abcdefghij", 5);
	assert_string_equal(out, "abcd\u2026");
	assert_int_equal(dash_fit_width(out), 5);
	text_safe_utf8 = false;
	dash_fit_words(out, sizeof(out), "quota needs root", 12);
	assert_string_equal(out, "quota...");
	text_safe_utf8 = true;
}

static void test_line_shorten_drop_keep(void **state)
{
	(void)state;
	char out[256];
	struct dash_line l;

	dash_line_init(&l, " | ");
	dash_line_add(&l, 0, "first");
	dash_line_add(&l, 1, "second field");
	dash_line_brief(&l, "2nd");
	dash_line_add(&l, 2, "third");
	dash_line_add(&l, 3 | DASH_LINE_KEEP, "every 1s");
	dash_line_brief(&l, "1s");
	dash_line_add(&l, 1 | DASH_LINE_GLUE, "glued");
	dash_line_render(&l, out, sizeof(out), 0);
	assert_string_equal(out, "first | second field | third | every 1s glued");
	dash_line_render(&l, out, sizeof(out), 200);
	assert_string_equal(out, "first | second field | third | every 1s glued");
	/* The least important shortens first ... */
	dash_line_render(&l, out, sizeof(out), 40);
	assert_string_equal(out, "first | second field | third | 1s glued");
	/* ... then goes (unless kept); the freed room brings back full forms. */
	dash_line_render(&l, out, sizeof(out), 33);
	assert_string_equal(out, "first | second field | 1s glued");
	dash_line_render(&l, out, sizeof(out), 20);
	assert_string_equal(out, "first | 2nd | 1s");
	/* Priority 0 is never dropped: a last resort cut at a word. */
	dash_line_render(&l, out, sizeof(out), 6);
	assert_string_equal(out, "first\u2026");
	for (int w = 6; w < 60; w++) {
		dash_line_render(&l, out, sizeof(out), w);
		assert_true(dash_fit_width(out) <= w);
	}
}

static void test_thread_rows_at_80_and_wider(void **state)
{
	(void)state;
	char head[512], row[512];
	struct dash_cols c;
	struct model_thread r = mk_thread(100, 101, "gemm0.w1", 99.5);
	int widths[] = {80, 100, 120, 200};

	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		dash_format_cols(widths[i], false, &c);
		dash_format_thread_head(head, sizeof(head), &c, THREAD_FIELD_CPU_PCT);
		dash_format_thread_row(row, sizeof(row), &c, &r, LABVIEW_MARK_ACTIVE);
		assert_true(dash_fit_width(head) <= widths[i]);
		assert_true(dash_fit_width(row) <= widths[i]);
		/* Columns line up: the CPU% value ends where its head ends. */
		const char *h = strstr(head, "CPU%");
		const char *v = strstr(row, "99.5");
		assert_non_null(h);
		assert_non_null(v);
		assert_int_equal(h - head + 4, v - row + 4);
		assert_non_null(strstr(row, "gemm0.w1"));
		assert_non_null(strstr(row, "active"));
		assert_non_null(strstr(head, "WAIT%"));
		assert_non_null(strstr(head, "IVCS/s"));
	}
	dash_format_cols(80, false, &c);
	assert_false(c.pid);
	assert_true(c.name_w >= 15);
	dash_format_cols(120, false, &c);
	assert_true(c.pid);
	assert_true(c.vcsw);
	dash_format_thread_head(head, sizeof(head), &c, THREAD_FIELD_CPU_PCT);
	assert_non_null(strstr(head, "VCS/s"));
	assert_non_null(strstr(head, "PID"));
	/* The sort column is marked. */
	assert_non_null(strstr(head, "*CPU%"));
	dash_format_thread_head(head, sizeof(head), &c, THREAD_FIELD_WAIT_PCT);
	assert_non_null(strstr(head, "*WAIT%"));
	assert_null(strstr(head, "*CPU%"));
}

/* With run-queue latency the P99 and MAX columns fit at 80 columns even
 * grouped (PID shown), in place of the USR%/SYS% split; P50 and the split
 * come back when there is room; values line up under their heads, and a
 * thread that did not wait shows "-". */
static void test_latency_columns(void **state)
{
	(void)state;
	char head[512], row[512];
	struct dash_cols c;
	struct model_thread r = mk_thread(100, 101, "lt-busy", 15.5);
	r.latency.events = 40;
	r.latency.p50_s = 9.2e-3;
	r.latency.p99_s = 27.9e-3;
	r.latency.max_s = 128.4e-3;
	struct model_thread idle = mk_thread(100, 102, "lt-wake", 0);
	struct {
		int width;
		bool tree, p50, split;
	} cases[] = {{80, true, false, false},
		     {80, false, true, false},
		     {100, true, true, true},
		     {120, false, true, true}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dash_format_cols_lat(cases[i].width, cases[i].tree, true, &c);
		assert_true(c.lat);
		assert_int_equal(c.p50, cases[i].p50);
		assert_int_equal(c.split, cases[i].split);
		dash_format_thread_head(head, sizeof(head), &c, THREAD_FIELD_LATENCY);
		dash_format_thread_row(row, sizeof(row), &c, &r, LABVIEW_MARK_NONE);
		assert_true(dash_fit_width(head) <= cases[i].width);
		assert_true(dash_fit_width(row) <= cases[i].width);
		const char *h = strstr(head, "*P99"), *v = strstr(row, " 27.9");
		assert_non_null(h);
		assert_non_null(v);
		assert_int_equal(h - head + 4, v - row + 5);
		h = strstr(head, "MAX");
		v = strstr(row, " 128");
		assert_int_equal(h - head + 3, v - row + 4);
		assert_true((strstr(head, "P50") != NULL) == cases[i].p50);
		assert_true((strstr(head, "USR%") != NULL) == cases[i].split);
		if (c.vcsw) { /* VCS/s ends where its values end, and so does all after it */
			h = strstr(head, " VCS/s");
			v = strstr(row, "       0 ");
			assert_int_equal(h - head + 6, v - row + 8);
		}
		dash_format_thread_row(row, sizeof(row), &c, &idle, LABVIEW_MARK_NONE);
		assert_non_null(strstr(row, "     -      - "));
		/* the longest marks are whole within the width (at 80 columns
		 * they were cut to "parke" and "activ") */
		static const enum labview_mark longest[] = {
		    LABVIEW_MARK_PARKED, LABVIEW_MARK_ACTIVE, LABVIEW_MARK_ANCHOR};
		for (size_t k = 0; k < 3; k++) {
			dash_format_thread_row(row, sizeof(row), &c, &idle, longest[k]);
			const char *name = labview_mark_name(longest[k]);
			size_t rl = strlen(row), nl = strlen(name);
			assert_true(dash_fit_width(row) <= cases[i].width);
			assert_true(rl >= nl && strcmp(row + rl - nl, name) == 0);
		}
	}
	/* without latency the table is as it was */
	dash_format_cols_lat(80, true, false, &c);
	assert_false(c.lat);
	assert_true(c.split);
	dash_format_thread_head(head, sizeof(head), &c, THREAD_FIELD_CPU_PCT);
	assert_null(strstr(head, "P99"));
	assert_string_equal(dash_format_sort_name(THREAD_FIELD_LATENCY), "P99");
}

/* A process row ends with its mean runnable threads, in the form the row
 * has room for: at 80 columns in a tree "2.0 run" was cut to "2.0 ru". */
static void test_process_tail(void **state)
{
	(void)state;
	char row[512];
	struct dash_cols c;
	struct model_thread p = mk_thread(4242, 4242, "- forker(1)", 1.0);
	p.state = 0;
	p.cpu = -1;
	static const struct {
		int width;
		bool tree;
		const char *tail;
	} cases[] = {{120, true, "2.0 run"}, {80, false, "2.0 run"}, {80, true, "2.0r"}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dash_format_cols(cases[i].width, cases[i].tree, &c);
		dash_format_thread_row(row, sizeof(row), &c, &p, LABVIEW_MARK_NONE);
		dash_format_process_tail(row, sizeof(row), &c, 2.0);
		size_t rl = strlen(row), tl = strlen(cases[i].tail);
		if (dash_fit_width(row) > cases[i].width || rl < tl ||
		    strcmp(row + rl - tl, cases[i].tail) != 0 || row[rl - tl - 1] != ' ')
			fail_msg("width %d: '%s', want it to end in ' %s'", cases[i].width, row,
				 cases[i].tail);
	}
	/* no room at all: nothing added, the width kept */
	dash_format_cols(80, true, &c);
	c.width = (int)dash_fit_width(row);
	dash_format_thread_row(row, sizeof(row), &c, &p, LABVIEW_MARK_NONE);
	c.width = (int)dash_fit_width(row) + 2;
	dash_format_process_tail(row, sizeof(row), &c, 12.5);
	assert_true(dash_fit_width(row) <= c.width);
	assert_null(strstr(row, "12.5"));
}

/* What each thread does: an ACT column from 84 columns, the short form
 * in MARK below that (when the row has no mark), "-" when unknown. */
static void test_activity_column(void **state)
{
	(void)state;
	char head[512], row[512];
	struct dash_cols c;
	struct model_thread r = mk_thread(100, 101, "gomp", 99.5);
	r.activity = ACTIVITY_SPIN;
	int widths[] = {84, 120, 200};
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		dash_format_cols(widths[i], false, &c);
		dash_format_thread_head(head, sizeof(head), &c, THREAD_FIELD_CPU_PCT);
		dash_format_thread_row(row, sizeof(row), &c, &r, LABVIEW_MARK_NONE);
		assert_true(dash_fit_width(row) <= widths[i]);
		const char *h = strstr(head, "ACT "), *v = strstr(row, "spin ");
		assert_non_null(h);
		assert_non_null(v);
		assert_int_equal(h - head, v - row); /* under its head */
		r.activity = ACTIVITY_INPUT_WAIT;
		dash_format_thread_row(row, sizeof(row), &c, &r, LABVIEW_MARK_NONE);
		assert_non_null(strstr(row, "input-wait"));
		r.activity = ACTIVITY_NONE;
		dash_format_thread_row(row, sizeof(row), &c, &r, LABVIEW_MARK_NONE);
		assert_int_equal(strstr(row, "- ") - row, h - head);
		r.activity = ACTIVITY_SPIN;
	}
	dash_format_cols(80, false, &c);
	dash_format_thread_head(head, sizeof(head), &c, THREAD_FIELD_CPU_PCT);
	assert_null(strstr(head, "ACT"));
	r.activity = ACTIVITY_WAITING_CPU;
	dash_format_thread_row(row, sizeof(row), &c, &r, LABVIEW_MARK_NONE);
	assert_true(dash_fit_width(row) <= 80);
	size_t n = strlen(row);
	assert_true(n >= 4 && strcmp(row + n - 4, "wcpu") == 0);
	/* a lab mark keeps its place */
	dash_format_thread_row(row, sizeof(row), &c, &r, LABVIEW_MARK_ACTIVE);
	assert_non_null(strstr(row, "active"));
	assert_null(strstr(row, "wcpu"));
}

static void test_hostile_names_made_safe(void **state)
{
	(void)state;
	static const char *const hostile[] = {
	    "\x1b[31mRED\x07", /* SGR and BEL */
	    "a\x9b"
	    "2Jb", /* raw C1 CSI */
	    "x\xc2\x9b"
	    "31my",		    /* UTF-8 encoded C1 */
	    "\xff\xfe\x1b]0;t\x07", /* invalid UTF-8 and an OSC title */
	    "tab\there\nnewline",   /* C0 */
	    "\xe7\xba\xbf\xe7\xba\xbf\xe7\xba\xbf\xe7\xba\xbf\xe7\xba\xbf", /* wide */
	};
	char plain[512], row[512];
	struct dash_cols c;
	struct model_thread p = mk_thread(1, 2, "plain", 1);

	dash_format_cols(80, false, &c);
	dash_format_thread_row(plain, sizeof(plain), &c, &p, LABVIEW_MARK_NONE);
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		struct model_thread r = mk_thread(1, 2, hostile[i], 1);
		dash_format_thread_row(row, sizeof(row), &c, &r, LABVIEW_MARK_NONE);
		assert_no_controls(row);
		for (const char *q = row; *q; q++)
			assert_int_not_equal((unsigned char)*q, 0x9b);
		/* Same columns as a plain name: nothing shifted. */
		assert_int_equal(dash_fit_width(row), dash_fit_width(plain));
	}
	struct model_thread r = mk_thread(1, 2, hostile[0], 1);
	dash_format_thread_row(row, sizeof(row), &c, &r, LABVIEW_MARK_NONE);
	assert_non_null(strstr(row, "\xef\xbf\xbd[31mRED\xef\xbf\xbd"));
	/* A header with a hostile command line is safe too. */
	struct dash_header h = {
	    .mode = "command", .pid = 7, .target = "evil\x1b[2J", .interval = 1};
	dash_rows_header(row, sizeof(row), 80, &h);
	assert_no_controls(row);
	assert_non_null(strstr(row, "[2J"));
}

static void test_sorting(void **state)
{
	(void)state;
	struct model_thread v[4] = {mk_thread(1, 40, "b", 10), mk_thread(1, 30, "a", 50),
				    mk_thread(1, 20, "c", 30), mk_thread(1, 10, "d", 50)};
	size_t idx[4];

	dash_format_order(v, 4, THREAD_FIELD_CPU_PCT, NULL, idx);
	assert_int_equal(v[idx[0]].tid, 10); /* 50 %, lower TID first */
	assert_int_equal(v[idx[1]].tid, 30);
	assert_int_equal(v[idx[2]].tid, 20);
	assert_int_equal(v[idx[3]].tid, 40);
	dash_format_order(v, 4, THREAD_FIELD_TID, NULL, idx);
	assert_int_equal(v[idx[0]].tid, 10);
	assert_int_equal(v[idx[3]].tid, 40);
	dash_format_order(v, 4, THREAD_FIELD_NAME, NULL, idx);
	assert_string_equal(v[idx[0]].name, "a");
	assert_string_equal(v[idx[3]].name, "d");
	dash_format_order(v, 4, THREAD_FIELD_WAIT_PCT, NULL, idx);
	assert_int_equal(v[idx[0]].tid, 40); /* wait 90 % */
	dash_format_order(v, 4, THREAD_FIELD_IVCSW, NULL, idx);
	assert_int_equal(v[idx[0]].tid, 10);
	assert_string_equal(dash_format_sort_name(THREAD_FIELD_IVCSW), "IVCS/s");
}

static void test_parked_and_active(void **state)
{
	(void)state;
	struct lab_status st;
	memset(&st, 0, sizeof(st));
	st.settings.streams = 1;
	st.settings.threads = 2;
	st.anchor_pid = 50;
	st.stream[0].pid = 100;
	st.stream[0].state = CTL_STREAM_RUNNING;
	st.stream[0].threads = 2;
	st.stream[1].pid = 200;
	st.stream[1].state = CTL_STREAM_PAUSED;
	st.nworkers = 1;
	st.worker_pid[0] = 300;

	struct model_thread drv = mk_thread(100, 100, "gemm0", 99);
	struct model_thread w1 = mk_thread(100, 101, "gemm0.w1", 99);
	struct model_thread p2 = mk_thread(100, 102, "gemm0.p2", 0);
	struct model_thread s1 = mk_thread(200, 200, "gemm1", 0);
	struct model_thread s1w = mk_thread(200, 201, "gemm1.w1", 0);
	struct model_thread wk = mk_thread(300, 300, "tl-burn0", 100);
	struct model_thread an = mk_thread(50, 50, "tl-anchor", 0);
	struct model_thread other = mk_thread(400, 400, "bash", 0);

	assert_int_equal(labview_mark(drv.pid, drv.name, drv.name_len, &st), LABVIEW_MARK_ACTIVE);
	assert_int_equal(labview_mark(w1.pid, w1.name, w1.name_len, &st), LABVIEW_MARK_ACTIVE);
	assert_int_equal(labview_mark(p2.pid, p2.name, p2.name_len, &st), LABVIEW_MARK_PARKED);
	assert_int_equal(labview_mark(s1.pid, s1.name, s1.name_len, &st), LABVIEW_MARK_PARKED);
	assert_int_equal(labview_mark(s1w.pid, s1w.name, s1w.name_len, &st), LABVIEW_MARK_PARKED);
	assert_int_equal(labview_mark(wk.pid, wk.name, wk.name_len, &st), LABVIEW_MARK_WORKER);
	assert_int_equal(labview_mark(an.pid, an.name, an.name_len, &st), LABVIEW_MARK_ANCHOR);
	assert_int_equal(labview_mark(other.pid, other.name, other.name_len, &st),
			 LABVIEW_MARK_NONE);
	assert_int_equal(labview_mark(drv.pid, drv.name, drv.name_len, NULL), LABVIEW_MARK_NONE);
	st.settings.streams = 2;
	assert_int_equal(labview_mark(s1w.pid, s1w.name, s1w.name_len, &st), LABVIEW_MARK_ACTIVE);
	st.settings.paused = true;
	assert_int_equal(labview_mark(w1.pid, w1.name, w1.name_len, &st), LABVIEW_MARK_PAUSED);
	/* A name that merely looks like ours is not parsed past its end. */
	struct model_thread fake = mk_thread(400, 401, "gemm0.x1", 0);
	st.settings.paused = false;
	assert_int_equal(labview_mark(fake.pid, fake.name, fake.name_len, &st), LABVIEW_MARK_NONE);
	assert_string_equal(labview_mark_name(LABVIEW_MARK_PARKED), "parked");
}

static void test_bar_ascii_and_marks(void **state)
{
	(void)state;
	char out[256];
	dash_format_bar(out, sizeof(out), 10, 50, 100, 0, 0, false);
	assert_string_equal(out, "#####     ");
	dash_format_bar(out, sizeof(out), 10, 50, 100, 80, 100, false);
	assert_string_equal(out, "#####   :|");
	dash_format_bar(out, sizeof(out), 10, 100, 100, 0, 0, false);
	assert_string_equal(out, "##########");
	dash_format_bar(out, sizeof(out), 10, 250, 100, 0, 0, false); /* clipped */
	assert_string_equal(out, "##########");
	dash_format_bar(out, sizeof(out), 10, 0, 100, 30, 0, false);
	assert_string_equal(out, "   :      ");
	/* A mark beyond the scale is not drawn. */
	dash_format_bar(out, sizeof(out), 10, 10, 100, 0, 150, false);
	assert_string_equal(out, "#         ");
}

static void test_bar_utf8(void **state)
{
	(void)state;
	char out[256];
	/* 5.5 cells: five full blocks and a half block. */
	dash_format_bar(out, sizeof(out), 10, 55, 100, 0, 0, true);
	assert_string_equal(out, "\u2588\u2588\u2588\u2588\u2588\u258c    ");
	assert_int_equal(dash_fit_width(out), 10);
	dash_format_bar(out, sizeof(out), 10, 20, 100, 50, 90, true);
	assert_string_equal(out, "\u2588\u2588   \u250a   \u2502");
	assert_int_equal(dash_fit_width(out), 10);
}

static void test_sparkline(void **state)
{
	(void)state;
	char out[256];
	double v[] = {0, 25, 50, 100};

	dash_format_sparkline(out, sizeof(out), 6, v, 4, 100, false);
	assert_string_equal(out, "   :=@");
	dash_format_sparkline(out, sizeof(out), 4, v, 4, 100, true);
	assert_string_equal(out, " \u2582\u2584\u2588");
	/* Only the newest values that fit. */
	dash_format_sparkline(out, sizeof(out), 2, v, 4, 100, false);
	assert_string_equal(out, "=@");
	/* max <= 0: scaled to the largest value. */
	dash_format_sparkline(out, sizeof(out), 2, v, 4, 0, true);
	assert_string_equal(out, "\u2584\u2588");
	/* A tiny rate still shows. */
	double tiny[] = {0.01};
	dash_format_sparkline(out, sizeof(out), 1, tiny, 1, 100, false);
	assert_string_equal(out, ".");
	dash_format_sparkline(out, sizeof(out), 30, v, 4, 100, true);
	assert_int_equal(dash_fit_width(out), 30);
}

/* Charts survive what no figure should be: +Inf, NaN, 1e308, a scale of
 * +Inf or NaN; every row keeps its width (the sparkline used to index
 * its table with (int)(inf/inf*8) and die). */
static void test_non_finite_charts(void **state)
{
	(void)state;
	char out[512];
	double v[] = {INFINITY, NAN, 1e308, -INFINITY, 50, -1e308, 100};
	double maxes[] = {INFINITY, NAN, 1e308, 0, -1, 100};
	for (size_t m = 0; m < sizeof(maxes) / sizeof(maxes[0]); m++) {
		for (int utf8 = 0; utf8 < 2; utf8++) {
			dash_format_sparkline(out, sizeof(out), 7, v, 7, maxes[m], utf8);
			assert_int_equal(dash_fit_width(out), 7);
			for (size_t i = 0; i < 7; i++) {
				dash_format_bar(out, sizeof(out), 10, v[i], maxes[m],
						v[(i + 1) % 7], v[(i + 2) % 7], utf8);
				assert_int_equal(dash_fit_width(out), 10);
			}
		}
	}
	/* +Inf and past the scale at the top, NaN and below 0 blank */
	dash_format_sparkline(out, sizeof(out), 7, v, 7, 100, false);
	assert_string_equal(out, "@ @ = @");
	dash_format_sparkline(out, sizeof(out), 7, v, 7, INFINITY, false);
	assert_string_equal(out, "@ @ . ."); /* scaled to the largest finite point */
	dash_format_bar(out, sizeof(out), 4, NAN, 100, 0, 0, false);
	assert_string_equal(out, "    ");
	dash_format_bar(out, sizeof(out), 4, INFINITY, 100, 0, 0, false);
	assert_string_equal(out, "####");
	dash_format_cpu(out, sizeof(out), 20, 0, NAN, false);
	assert_int_equal(dash_fit_width(out), 20);
}

static void test_chart_rows(void **state)
{
	(void)state;
	char out[512];
	struct labview v;
	memset(&v, 0, sizeof(v));
	v.effective = 2;
	struct labview_point pts[] = {
	    {1, 1, 768, 0, 104, 2, 2, 0, 0, 0, false},
	    {1, 2, 768, 0, 208, 2, 2, 0, 0, 0, false},
	    {1, 3, 768, 0, 150, 2, 2, 0, 0, 0, false},
	    {1, 4, 1024, 0, 900, 2, 2, 0, 0, 0, false},	 /* another size: not on this chart */
	    {1, 5, 768, 0, 900, 2, 1.5, 0, 0, 0, false}, /* another budget: not on this chart */
	    {1, 6, 768, 0, 900, 2, 2, 1, 0, 0, false},	 /* measured beside a worker: not either */
	};
	memcpy(v.points, pts, sizeof(pts));
	v.npoints = 6;
	assert_true(labview_point_current(&v, &v.points[0], 768, 0));
	assert_false(labview_point_current(&v, &v.points[4], 768, 0));
	assert_false(labview_point_current(&v, &v.points[5], 768, 0));

	/* single 104 on 2 CPUs: ceiling 208, the scale 5 % above it. */
	double scale = dash_format_chart_scale(&v, 768, 0, 104, 2);
	assert_true(scale > 218 && scale < 219);
	for (int width = 80; width <= 160; width += 40) {
		dash_format_chart_row(out, sizeof(out), width, &v.points[1], 104, 2, scale, NAN,
				      false);
		assert_int_equal(dash_fit_width(out), width);
		assert_non_null(strstr(out, "1x2"));
		assert_non_null(strstr(out, " 208.0  100%"));
		dash_format_chart_row(out, sizeof(out), width, &v.points[2], 104, 2, scale, NAN,
				      true);
		assert_int_equal(dash_fit_width(out), width);
		assert_non_null(strstr(out, "72%")); /* 150 of ideal 208 */
	}
	/* ASCII: the 1x1 bar reaches half the ceiling, the ideal mark there,
	 * the ceiling mark further right. */
	dash_format_chart_row(out, sizeof(out), 80, &v.points[0], 104, 2, scale, NAN, false);
	const char *ideal = strchr(out, ':');
	const char *ceil = strchr(out, '|');
	assert_non_null(ideal);
	assert_non_null(ceil);
	assert_true(ideal < ceil);
	assert_true(ideal[-1] == '#');
	/* The Amdahl fit's mark: at 180, past the 1x3 bar (150), short of the
	 * ceiling (208, where its ideal is too); a point left out of the fit
	 * is starred: 1x3 for its 3 threads on 2 CPUs, 1x2 when contended. */
	dash_format_chart_row(out, sizeof(out), 80, &v.points[2], 104, 2, scale, 180, false);
	const char *mark = strchr(out, 'o');
	assert_non_null(mark);
	assert_true(mark > strrchr(out, '#') && mark < strchr(out, '|'));
	assert_non_null(strstr(out, "1x3*"));
	dash_format_chart_row(out, sizeof(out), 80, &v.points[1], 104, 2, scale, NAN, false);
	assert_null(strchr(out, '*'));
	v.points[1].left_out = true;
	dash_format_chart_row(out, sizeof(out), 80, &v.points[1], 104, 2, scale, NAN, false);
	assert_non_null(strstr(out, "1x2*"));
	assert_null(strchr(out, 'o'));
	assert_int_equal(dash_fit_width(out), 80);
	v.points[1].left_out = false;
	/* Unknown single-thread rate: no marks, value still shown. */
	dash_format_chart_row(out, sizeof(out), 80, &v.points[0], -1, 2, 200, NAN, false);
	assert_null(strchr(out, '|'));
	assert_non_null(strstr(out, "104.0     ?"));
	/* Loaders are a dimension: a point per loader count, labelled, on the
	 * chart as long as the batch cost is the one in effect. */
	struct labview_point lp = {1, 1, 768, 0, 60, 2, 2, 0, 3, 20, false};
	v.prep_ms = 20;
	assert_true(labview_point_current(&v, &lp, 768, 0));
	dash_format_chart_row(out, sizeof(out), 80, &lp, 104, 2, scale, NAN, false);
	assert_int_equal(dash_fit_width(out), 80);
	assert_non_null(strstr(out, " 1x1 L3 "));
	v.prep_ms = 40;
	assert_false(labview_point_current(&v, &lp, 768, 0));
	assert_true(labview_point_current(&v, &v.points[0], 768, 0)); /* no loaders: any cost */
}

static void test_cpu_bar(void **state)
{
	(void)state;
	char out[256];
	dash_format_cpu(out, sizeof(out), 25, 3, 50, false);
	assert_int_equal(dash_fit_width(out), 25);
	assert_non_null(strstr(out, "cpu3"));
	assert_non_null(strstr(out, " 50%"));
	assert_non_null(strstr(out, "#######"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fit_and_width),
	    cmocka_unit_test(test_fit_words),
	    cmocka_unit_test(test_line_shorten_drop_keep),
	    cmocka_unit_test(test_thread_rows_at_80_and_wider),
	    cmocka_unit_test(test_latency_columns),
	    cmocka_unit_test(test_process_tail),
	    cmocka_unit_test(test_activity_column),
	    cmocka_unit_test(test_hostile_names_made_safe),
	    cmocka_unit_test(test_sorting),
	    cmocka_unit_test(test_parked_and_active),
	    cmocka_unit_test(test_bar_ascii_and_marks),
	    cmocka_unit_test(test_bar_utf8),
	    cmocka_unit_test(test_sparkline),
	    cmocka_unit_test(test_non_finite_charts),
	    cmocka_unit_test(test_chart_rows),
	    cmocka_unit_test(test_cpu_bar),
	};
	return cmocka_run_group_tests(tests, tl_setup_utf8, NULL);
}
