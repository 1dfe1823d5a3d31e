/* test-dash-keys.c — the dashboard's keys, without a terminal; the sweep
 * key's state machine is test-dash-sweep.c's, the layout
 * test-dash-layout.c's. */
#include "config.h"
#include "knobs.h"

#include "tl-test.h"

#include <curses.h>
#include <stdarg.h>
#include <string.h>

#include "dash-keys.h"
#include "dash-machine.h"
#include "tl-dash-keys.h"

static void test_thread_and_stream_keys(void **state)
{
	(void)state;
	struct dash d;
	struct settings w = knobs_defaults();
	tl_dash_fresh(&d);

	int f = dash_keys_handle(&d, &w, &tl_lab_ctx, '+');
	assert_true(f & DASH_KEY_APPLY);
	assert_true(f & DASH_KEY_REDRAW);
	assert_int_equal(w.threads, 2);
	assert_non_null(strstr(d.message, "threads 2"));
	/* = is + (the unshifted key): up, never down. */
	f = dash_keys_handle(&d, &w, &tl_lab_ctx, '=');
	assert_true(f & DASH_KEY_APPLY);
	assert_int_equal(w.threads, 3);
	dash_keys_handle(&d, &w, &tl_lab_ctx, '-');
	dash_keys_handle(&d, &w, &tl_lab_ctx, '-');
	f = dash_keys_handle(&d, &w, &tl_lab_ctx, '-');
	assert_int_equal(w.threads, 1); /* never below 1 */
	assert_false(f & DASH_KEY_APPLY);
	assert_true(f & DASH_KEY_HANDLED);

	assert_true(dash_keys_handle(&d, &w, &tl_lab_ctx, ']') & DASH_KEY_APPLY);
	assert_int_equal(w.streams, 2);
	dash_keys_handle(&d, &w, &tl_lab_ctx, '[');
	assert_int_equal(w.streams, 1);
	assert_false(dash_keys_handle(&d, &w, &tl_lab_ctx, '[') & DASH_KEY_APPLY);

	dash_keys_handle(&d, &w, &tl_lab_ctx, 'd');
	assert_int_equal(w.precision, SETTINGS_DOUBLE);
	dash_keys_handle(&d, &w, &tl_lab_ctx, 'd');
	assert_int_equal(w.precision, SETTINGS_SINGLE);

	dash_keys_handle(&d, &w, &tl_lab_ctx, 'w');
	dash_keys_handle(&d, &w, &tl_lab_ctx, 'w');
	assert_int_equal(w.workers, 2);
	dash_keys_handle(&d, &w, &tl_lab_ctx, 'W');
	assert_int_equal(w.workers, 1);

	assert_true(dash_keys_handle(&d, &w, &tl_lab_ctx, ' ') & DASH_KEY_APPLY);
	assert_true(w.paused);
	dash_keys_handle(&d, &w, &tl_lab_ctx, ' ');
	assert_false(w.paused);
}

static void test_size_keys(void **state)
{
	(void)state;
	struct dash d;
	struct settings w = knobs_defaults();
	tl_dash_fresh(&d);

	assert_int_equal(w.size, 768);
	dash_keys_handle(&d, &w, &tl_lab_ctx, '>');
	assert_int_equal(w.size, 960);
	assert_int_equal(w.size % 64, 0);
	for (int i = 0; i < 20; i++)
		dash_keys_handle(&d, &w, &tl_lab_ctx, '<');
	assert_int_equal(w.size, 256); /* the floor */
	assert_false(dash_keys_handle(&d, &w, &tl_lab_ctx, '<') & DASH_KEY_APPLY);
	/* Upwards it stops where the memory check refuses, with a message. */
	int last = 0;
	for (int i = 0; i < 60 && w.size != last; i++) {
		last = w.size;
		dash_keys_handle(&d, &w, &tl_lab_ctx, '>');
	}
	assert_true(w.size <= SETTINGS_MAX_SIZE);
	char err[256];
	assert_int_equal(knobs_check(&w, err, sizeof(err)), 0);
}

static void test_quota_keys(void **state)
{
	(void)state;
	struct dash d;
	struct settings w = knobs_defaults();
	tl_dash_fresh(&d);

	/* } from no quota gives half a CPU; { from there lifts it. */
	assert_true(dash_keys_handle(&d, &w, &tl_lab_ctx, '}') & DASH_KEY_APPLY);
	assert_true(w.cpus > 0.49 && w.cpus < 0.51);
	dash_keys_handle(&d, &w, &tl_lab_ctx, '}');
	assert_true(w.cpus > 0.99 && w.cpus < 1.01);
	dash_keys_handle(&d, &w, &tl_lab_ctx, '{');
	dash_keys_handle(&d, &w, &tl_lab_ctx, '{');
	assert_true(w.cpus <= 0);
	assert_non_null(strstr(d.message, "removed"));
	/* { from no quota starts half a CPU below the online count. */
	w.cpus = 0;
	dash_keys_handle(&d, &w, &tl_lab_ctx, '{');
	assert_true(w.cpus > 1.49 && w.cpus < 1.51);
	/* Not above the online count. */
	dash_keys_handle(&d, &w, &tl_lab_ctx, '}');
	int f = dash_keys_handle(&d, &w, &tl_lab_ctx, '}');
	assert_false(f & DASH_KEY_APPLY);
	assert_true(w.cpus > 1.99 && w.cpus < 2.01);
	dash_keys_handle(&d, &w, &tl_lab_ctx, 'u');
	assert_true(w.cpus <= 0);
	assert_false(dash_keys_handle(&d, &w, &tl_lab_ctx, 'u') & DASH_KEY_APPLY);
}

static void test_view_keys(void **state)
{
	(void)state;
	struct dash d;
	struct settings w = knobs_defaults();
	tl_dash_fresh(&d);

	assert_int_equal(d.sort, THREAD_FIELD_CPU_PCT);
	dash_keys_handle(&d, &w, &tl_lab_ctx, '\t');
	assert_int_equal(d.sort, THREAD_FIELD_WAIT_PCT);
	dash_keys_handle(&d, &w, &tl_lab_ctx, KEY_F(6));
	assert_int_equal(d.sort, THREAD_FIELD_IVCSW);
	dash_keys_handle(&d, &w, &tl_lab_ctx, KEY_BTAB);
	assert_int_equal(d.sort, THREAD_FIELD_WAIT_PCT);

	assert_true(dash_keys_handle(&d, &w, &tl_lab_ctx, 'r') & DASH_KEY_RESET);

	assert_true(dash_keys_handle(&d, &w, &tl_lab_ctx, 'i') & DASH_KEY_RETIME);
	assert_true(d.interval > 0.49 && d.interval < 0.51);
	dash_keys_handle(&d, &w, &tl_lab_ctx, 'I');
	dash_keys_handle(&d, &w, &tl_lab_ctx, 'I');
	assert_true(d.interval > 1.99 && d.interval < 2.01);

	dash_keys_handle(&d, &w, &tl_lab_ctx, '?');
	assert_true(d.help);
	/* Any key closes the help without acting. */
	int f = dash_keys_handle(&d, &w, &tl_lab_ctx, '+');
	assert_false(d.help);
	assert_false(f & DASH_KEY_APPLY);
	/* F1 then q: the help says any key closes it, so q closes it too. */
	dash_keys_handle(&d, &w, &tl_lab_ctx, KEY_F(1));
	assert_true(d.help);
	f = dash_keys_handle(&d, &w, &tl_lab_ctx, 'q');
	assert_false(f & DASH_KEY_QUIT);
	assert_false(d.quit);
	assert_false(d.help);
	assert_true(dash_keys_handle(&d, &w, &tl_lab_ctx, KEY_F(10)) & DASH_KEY_QUIT);
	assert_true(d.quit);
	assert_int_equal(dash_keys_handle(&d, &w, &tl_lab_ctx, 'Z'), 0);
}

static void test_attach_mode_refuses_lab_keys(void **state)
{
	(void)state;
	struct dash d;
	struct settings w = knobs_defaults();
	struct dash_key_ctx c = tl_lab_ctx;
	c.lab = false;
	tl_dash_fresh(&d);

	int f = dash_keys_handle(&d, &w, &c, '+');
	assert_true(f & DASH_KEY_HANDLED);
	assert_false(f & DASH_KEY_APPLY);
	assert_int_equal(w.threads, 1);
	assert_non_null(strstr(d.message, "no workload"));
	assert_false(dash_keys_handle(&d, &w, &c, 's') & DASH_KEY_APPLY);
	/* Sorting and quitting still work. */
	dash_keys_handle(&d, &w, &c, '\t');
	assert_int_equal(d.sort, THREAD_FIELD_WAIT_PCT);
}

static void test_help_lists_every_key(void **state)
{
	(void)state;
	size_t n;
	const struct dash_key_help *h = dash_keys_help(0, &n);
	const char *want[] = {"+ -", "] [",    "> < d", "w W", "} { u",	 "l L x X f F",
			      "b B", "t",      "space", "s",   "Tab F6", "r",
			      "i I", "F1 h ?", "F10 q", "n",   "p",	 "q"};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		bool found = false;
		for (size_t j = 0; j < n; j++)
			found = found || strcmp(h[j].keys, want[i]) == 0;
		if (!found)
			fail_msg("help misses %s", want[i]);
	}
	char bar[256];
	dash_keys_bar(bar, sizeof(bar), 200, DASH_KEYS_MODE_LAB);
	assert_non_null(strstr(bar, "q quit"));
	assert_non_null(strstr(bar, "+- threads"));
	dash_keys_bar(bar, sizeof(bar), 80, DASH_KEYS_MODE_ATTACH);
	assert_null(strstr(bar, "threads"));
	/* The tour's bar: its own keys, q leaves it; no knob. */
	dash_keys_bar(bar, sizeof(bar), 200, DASH_KEYS_MODE_LAB | DASH_KEYS_MODE_TOUR);
	assert_non_null(strstr(bar, "n next"));
	assert_non_null(strstr(bar, "q leave tour"));
	assert_null(strstr(bar, "threads"));
	assert_null(strstr(bar, "q quit"));
}

/* While the tour runs its keys win and the knobs refuse with a message. */
static void test_tour_keys(void **state)
{
	(void)state;
	struct dash d;
	dash_init(&d, NULL);
	struct settings w = knobs_defaults();
	struct dash_key_ctx c = {.lab = true, .tour = true, .online = 2, .effective = 2};
	int f = dash_keys_handle(&d, &w, &c, 'n');
	assert_true(f & DASH_KEY_TOUR);
	assert_int_equal(d.tour_key, 'n');
	f = dash_keys_handle(&d, &w, &c, 'q');
	assert_true((f & DASH_KEY_TOUR) && !(f & DASH_KEY_QUIT));
	f = dash_keys_handle(&d, &w, &c, ' ');
	assert_true((f & DASH_KEY_TOUR) && !(f & DASH_KEY_APPLY));
	assert_int_equal(d.tour_key, ' ');
	f = dash_keys_handle(&d, &w, &c, '+');
	assert_false(f & DASH_KEY_APPLY);
	assert_int_equal(w.threads, 1);
	assert_non_null(strstr(d.message, "the tour sets the knobs"));
	f = dash_keys_handle(&d, &w, &c, KEY_F(10));
	assert_true(f & DASH_KEY_QUIT);
	/* Outside the tour: t starts it, n says what it is for, l adds a loader. */
	c.tour = false;
	f = dash_keys_handle(&d, &w, &c, 't');
	assert_true(f & DASH_KEY_TOUR);
	assert_int_equal(d.tour_key, 't');
	f = dash_keys_handle(&d, &w, &c, 'n');
	assert_false(f & DASH_KEY_TOUR);
	assert_non_null(strstr(d.message, "tour"));
	f = dash_keys_handle(&d, &w, &c, 'l');
	assert_true(f & DASH_KEY_APPLY);
	assert_int_equal(w.loaders, 1);
	f = dash_keys_handle(&d, &w, &c, 'x');
	assert_int_equal(w.prep_ms, 30);
	f = dash_keys_handle(&d, &w, &c, 'X');
	assert_int_equal(w.prep_ms, 20);
	f = dash_keys_handle(&d, &w, &c, 'F');
	assert_int_equal(w.prefetch, 1);
	f = dash_keys_handle(&d, &w, &c, 'F');
	assert_int_equal(w.prefetch, 1); /* bounded */
	f = dash_keys_handle(&d, &w, &c, 'B');
	assert_true(w.spin_off);
	if (settings_blas_parse("openmp", &w.blas) == 0) {
		w.blas = SETTINGS_BLAS_PTHREADS;
		f = dash_keys_handle(&d, &w, &c, 'b');
		/* Refused with a message when the OpenMP build is missing. */
		assert_true(w.blas == SETTINGS_BLAS_OPENMP || strstr(d.message, "not installed"));
	}
}

/* The bold words of the man page's KEYS section: .B lines whole, the
 * odd-numbered arguments of .BR lines ("\-" read as "-"). */
static size_t man_key_words(char words[][32], size_t cap)
{
	char path[4200], line[512];
	snprintf(path, sizeof(path), "%s/man/threadlab.1",
		 getenv("THREADLAB_SRCDIR") ? getenv("THREADLAB_SRCDIR") : ".");
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = 0;
	bool in = false;
	while (fgets(line, sizeof(line), f) && n < cap) {
		if (strncmp(line, ".SH", 3) == 0) {
			in = strstr(line, "KEYS") != NULL;
			continue;
		}
		bool b = strncmp(line, ".B ", 3) == 0, br = strncmp(line, ".BR ", 4) == 0;
		if (!in || (!b && !br))
			continue;
		/* Arguments: words, or "quoted strings" taken whole. */
		char *p = line + (b ? 3 : 4);
		for (int arg = 0; *p && n < cap; arg++) {
			while (*p == ' ')
				p++;
			if (!*p || *p == '\n')
				break;
			char buf[128];
			size_t k = 0;
			if (*p == '"') {
				for (p++; *p && *p != '"' && k + 1 < sizeof(buf); p++)
					buf[k++] = *p;
				if (*p == '"')
					p++;
			} else {
				for (; *p && *p != ' ' && *p != '\n' && k + 1 < sizeof(buf); p++)
					buf[k++] = *p;
			}
			buf[k] = '\0';
			if (br && arg % 2)
				continue; /* roman */
			/* Unescape and split into words. */
			for (char *save = NULL, *w = strtok_r(buf, " ", &save); w && n < cap;
			     w = strtok_r(NULL, " ", &save)) {
				size_t o = 0;
				for (const char *c = w; *c && o + 1 < 32; c++)
					if (!(c[0] == '\\' && c[1] == '-'))
						words[n][o++] = *c;
				words[n][o] = '\0';
				if (o)
					n++;
			}
			if (b)
				break; /* .B: the rest of the line is one bold run */
		}
	}
	fclose(f);
	return n;
}

/* Every key of the key table is named in bold in the man page's KEYS
 * section: the page cannot fall behind the table. */
static void test_man_page_lists_every_key(void **state)
{
	(void)state;
	static char words[256][32];
	size_t nw = man_key_words(words, 256), n;
	assert_true(nw > 20);
	const struct dash_key_help *h = dash_keys_help(0, &n);
	for (size_t i = 0; i < n; i++) {
		char keys[64];
		snprintf(keys, sizeof(keys), "%s", h[i].keys);
		for (char *save = NULL, *k = strtok_r(keys, " ", &save); k;
		     k = strtok_r(NULL, " ", &save)) {
			bool found = false;
			for (size_t j = 0; j < nw && !found; j++)
				found = strcmp(words[j], k) == 0;
			if (!found)
				fail_msg("man page KEYS misses %s (%s)", k, h[i].what);
		}
	}
}

/* The key names in backquotes in the first column of the key tables of
 * docs/dashboard.md's "## Keys" section, each once. */
static size_t doc_key_words(const char *doc, char words[][32], size_t cap)
{
	const char *sec = strstr(doc, "\n## Keys\n");
	assert_non_null(sec);
	const char *end = strstr(sec + 1, "\n## ");
	if (!end)
		end = sec + strlen(sec);
	size_t n = 0;
	for (const char *l = sec + 1; l && l < end; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, "| `", 3) != 0)
			continue; /* not a table row with keys */
		const char *cell_end = strchr(l + 1, '|');
		for (const char *p = strchr(l, '`'); p && p < cell_end && n < cap;) {
			const char *q = strchr(p + 1, '`');
			assert_non_null(q);
			size_t len = (size_t)(q - p - 1);
			assert_true(len > 0 && len < 32);
			memcpy(words[n], p + 1, len);
			words[n][len] = '\0';
			bool seen = false;
			for (size_t j = 0; j < n && !seen; j++)
				seen = strcmp(words[j], words[n]) == 0;
			if (!seen)
				n++;
			p = strchr(q + 1, '`');
		}
	}
	return n;
}

/* docs/dashboard.md lists the key table both ways: every key name of the
 * help (all modes) is in its key tables, and every key there is one of the
 * table's (a key the dashboard dropped or renamed fails here too). */
static void test_docs_list_every_key_both_ways(void **state)
{
	(void)state;
	char *doc = tl_slurp_src("docs/dashboard.md");
	static char words[256][32];
	size_t nw = doc_key_words(doc, words, 256), n;
	free(doc);
	assert_true(nw > 20);
	const struct dash_key_help *h = dash_keys_help(0, &n);
	static char names[256][32];
	size_t nn = 0;
	for (size_t i = 0; i < n; i++) {
		char keys[64];
		snprintf(keys, sizeof(keys), "%s", h[i].keys);
		for (char *save = NULL, *k = strtok_r(keys, " ", &save); k && nn < 256;
		     k = strtok_r(NULL, " ", &save))
			snprintf(names[nn++], sizeof(names[0]), "%s", k);
	}
	for (size_t i = 0; i < nn; i++) {
		bool found = false;
		for (size_t j = 0; j < nw && !found; j++)
			found = strcmp(words[j], names[i]) == 0;
		if (!found)
			fail_msg("docs/dashboard.md, Keys, misses the key %s", names[i]);
	}
	for (size_t j = 0; j < nw; j++) {
		bool found = false;
		for (size_t i = 0; i < nn && !found; i++)
			found = strcmp(words[j], names[i]) == 0;
		if (!found)
			fail_msg("docs/dashboard.md, Keys, lists %s, which the key table has not",
				 words[j]);
	}
}

/* In a replay the knobs are inactive and the replay keys move the time. */
static void test_replay_keys(void **state)
{
	(void)state;
	struct dash d;
	struct settings w = knobs_defaults();
	struct dash_key_ctx c = tl_lab_ctx;
	c.replay = true;
	c.replay_pos = 5;
	c.replay_count = 10;
	tl_dash_fresh(&d);
	d.replay.on = true;
	d.replay.speed = 1;
	int f = dash_keys_handle(&d, &w, &c, '+');
	assert_false(f & DASH_KEY_APPLY);
	assert_int_equal(w.threads, 1);
	assert_non_null(strstr(d.message, "inactive"));
	f = dash_keys_handle(&d, &w, &c, ' ');
	assert_true(d.replay.paused);
	assert_false(f & DASH_KEY_APPLY);
	f = dash_keys_handle(&d, &w, &c, KEY_RIGHT);
	assert_true(f & DASH_KEY_SEEK);
	assert_int_equal(d.replay.target, 6);
	f = dash_keys_handle(&d, &w, &c, ',');
	assert_int_equal(d.replay.target, 4);
	f = dash_keys_handle(&d, &w, &c, 'G');
	assert_int_equal(d.replay.target, 9);
	f = dash_keys_handle(&d, &w, &c, KEY_HOME);
	assert_int_equal(d.replay.target, 0);
	c.replay_pos = 0;
	f = dash_keys_handle(&d, &w, &c, KEY_LEFT); /* already at the start */
	assert_false(f & DASH_KEY_SEEK);
	dash_keys_handle(&d, &w, &c, '4');
	assert_int_equal(d.replay.speed, 4);
	/* Replay keys say where they work outside a replay. */
	tl_dash_fresh(&d);
	f = dash_keys_handle(&d, &w, &tl_lab_ctx, 'G');
	assert_false(f & DASH_KEY_SEEK);
	assert_non_null(strstr(d.message, "replay"));
	char bar[256];
	dash_keys_bar(bar, sizeof(bar), 200, DASH_KEYS_MODE_REPLAY);
	assert_non_null(strstr(bar, "1248 speed"));
	assert_null(strstr(bar, "threads"));
}

/* The key names of the help screen, as a user presses them (this test's
 * own table: a name the dashboard maps to the wrong key fails here). */
static int key_of(const char *name)
{
	static const struct {
		const char *name;
		int key;
	} names[] = {{"space", ' '},	   {"Tab", '\t'},	{"F6", KEY_F(6)},
		     {"Right", KEY_RIGHT}, {"Left", KEY_LEFT},	{"Up", KEY_UP},
		     {"Down", KEY_DOWN},   {"PgUp", KEY_PPAGE}, {"PgDn", KEY_NPAGE},
		     {"Home", KEY_HOME},   {"End", KEY_END},	{"Enter", '\r'},
		     {"F1", KEY_F(1)},	   {"F10", KEY_F(10)}};
	if (name[0] && !name[1])
		return (unsigned char)name[0];
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i].name, name) == 0)
			return names[i].key;
	fail_msg("the help names a key this test does not know: %s", name);
	return -1;
}

/* Every key the help of a mode lists acts in that mode: pressed on a fresh
 * dashboard it is handled, and not with a message that it works elsewhere. */
static void test_every_listed_key_acts(void **state)
{
	(void)state;
	static const char *const refusals[] = {"inactive", "no workload", "works in a replay",
					       "moves the guided tour", "the tour sets the knobs"};
	struct dash_key_ctx lab = tl_lab_ctx, attach = tl_lab_ctx, replay = tl_lab_ctx,
			    tour = tl_lab_ctx;
	attach.lab = false;
	attach.table_rows = 5;
	attach.table_body = 3;
	replay.lab = false;
	replay.replay = true;
	replay.replay_pos = 5;
	replay.replay_count = 10;
	tour.tour = true;
	/* The lab's keys act on a lab session (s sweeps its threads). */
	struct session labs;
	memset(&labs, 0, sizeof(labs));
	labs.kind = SESSION_LAB;
	lab.session = tour.session = &labs;
	const struct {
		const char *name;
		const struct dash_key_ctx *c;
		unsigned mode;
	} modes[] = {{"lab", &lab, DASH_KEYS_MODE_LAB},
		     {"attach", &attach, DASH_KEYS_MODE_ATTACH},
		     {"replay", &replay, DASH_KEYS_MODE_REPLAY},
		     {"tour", &tour, DASH_KEYS_MODE_LAB | DASH_KEYS_MODE_TOUR}};
	size_t pressed = 0;
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		assert_int_equal(dash_keys_mode(modes[m].c), modes[m].mode);
		size_t n;
		const struct dash_key_help *h = dash_keys_help(modes[m].mode, &n);
		assert_true(n >= 5);
		for (size_t i = 0; i < n; i++) {
			char keys[64];
			snprintf(keys, sizeof(keys), "%s", h[i].keys);
			for (char *save = NULL, *k = strtok_r(keys, " ", &save); k;
			     k = strtok_r(NULL, " ", &save)) {
				struct dash d;
				struct settings w = knobs_defaults();
				memset(&labs.sweep, 0, sizeof(labs.sweep));
				labs.want = w;
				tl_dash_fresh(&d);
				d.replay.on = modes[m].c->replay;
				d.replay.speed = 1;
				int f = dash_keys_handle(&d, &w, modes[m].c, key_of(k));
				/* A opens the machine view: it reads the machine */
				if (strcmp(k, "A") == 0 && !d.machine_view)
					fail_msg("%s: A does not show the machine view",
						 modes[m].name);
				dash_machine_drop(&d);
				if (!(f & DASH_KEY_HANDLED))
					fail_msg("%s: %s (%s) does nothing", modes[m].name, k,
						 h[i].what);
				for (size_t r = 0; r < sizeof(refusals) / sizeof(refusals[0]); r++)
					if (strstr(d.message, refusals[r]))
						fail_msg("%s: %s (%s) answers \"%s\"",
							 modes[m].name, k, h[i].what, d.message);
				pressed++;
			}
		}
	}
	assert_true(pressed > 40);
}

/* The help of each mode holds only what acts there: no lab line and no
 * lab note in attach or replay; in the tour q leaves it, so quit is F10. */
static void test_help_per_mode(void **state)
{
	(void)state;
	size_t n;
	const struct dash_key_help *h = dash_keys_help(DASH_KEYS_MODE_ATTACH, &n);
	for (size_t i = 0; i < n; i++) {
		assert_null(strstr(h[i].what, "workload"));
		assert_null(strstr(h[i].what, "cgroup"));
		assert_null(strstr(h[i].what, "tour"));
		assert_true(h[i].modes & DASH_KEYS_MODE_ATTACH);
	}
	h = dash_keys_help(DASH_KEYS_MODE_REPLAY, &n);
	bool step = false;
	for (size_t i = 0; i < n; i++) {
		assert_null(strstr(h[i].what, "cgroup"));
		assert_null(strstr(h[i].what, "intra-op"));
		/* the machine view reads the machine now: a replay showed it
		 * as if it were the recording's */
		assert_null(strstr(h[i].what, "machine view"));
		step = step || strcmp(h[i].keys, "Right Left . , > <") == 0;
	}
	assert_true(step);
	h = dash_keys_help(DASH_KEYS_MODE_LAB | DASH_KEYS_MODE_TOUR, &n);
	bool quit = false, leave = false;
	for (size_t i = 0; i < n; i++) {
		assert_null(strstr(h[i].what, "intra-op threads"));
		if (strncmp(h[i].what, "quit", 4) == 0) {
			assert_string_equal(h[i].keys, "F10");
			quit = true;
		}
		leave = leave || strcmp(h[i].keys, "q") == 0;
	}
	assert_true(quit && leave);
	h = dash_keys_help(DASH_KEYS_MODE_LAB, &n);
	bool size = false;
	for (size_t i = 0; i < n; i++) {
		assert_false(strncmp(h[i].what, "tour: ", 6) == 0);
		size = size || strcmp(h[i].keys, "> < d") == 0;
	}
	assert_true(size);
}

/* The line of text (named where) that starts with start holds the words
 * fmt makes, else a failure naming both. */
static void says(const char *where, const char *text, const char *start, const char *fmt, ...)
{
	char want[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	const char *l = strstr(text, start);
	if (!l)
		fail_msg("%s has no line starting %s", where, start);
	int len = (int)strcspn(l, "\n");
	const char *hit = strstr(l, want);
	if (!hit || hit > l + len)
		fail_msg("%s says \"%.*s\", not \"%s\" as the knob table", where, len, l, want);
}

/* The knobs' step figures are the knob table's wherever they are written:
 * the help screen (made from it), docs/dashboard.md's key table and the man
 * page's KEYS.  A drift of either side fails here. */
static void test_knob_figures_are_the_tables(void **state)
{
	(void)state;
	const struct knob *size = knobs_get(KNOB_SIZE), *prep = knobs_get(KNOB_PREP_MS),
			  *cpus = knobs_get(KNOB_CPUS);
	char list[128] = "", help[4096] = "";
	double lo, hi;
	knobs_key_range(KNOB_INTERVAL, &lo, &hi);
	for (size_t i = 0, n = 0; i < knobs_nintervals; i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%g", i ? ", " : "",
				      knobs_intervals[i]);
	size_t n, len = 0;
	const struct dash_key_help *h = dash_keys_help(0, &n);
	for (size_t i = 0; i < n && len < sizeof(help); i++) {
		assert_null(strchr(h[i].what, '{'));
		len += (size_t)snprintf(help + len, sizeof(help) - len, "%s  %s\n", h[i].keys,
					h[i].what);
	}
	says("the help", help, "> < d", "(x%g)", size->factor);
	says("the help", help, "} { u", "by %g CPU", cpus->step);
	says("the help", help, "l L x X", "(x%g)", prep->factor);
	char *doc = tl_slurp_src("docs/dashboard.md");
	says("docs/dashboard.md", doc, "| `>` / `<`", "\xc3\x97%g up / down, multiples of %g, from %g",
	     size->factor, size->step, size->key_min);
	says("docs/dashboard.md", doc, "| `}` / `{`", "by %g CPU: `}` with no quota starts at %g",
	     cpus->step, cpus->step);
	says("docs/dashboard.md", doc, "| `}` / `{`", "starts at online \xe2\x88\x92 %g", cpus->step);
	says("docs/dashboard.md", doc, "| `x` / `X`", "\xc3\x97%g up / down", prep->factor);
	says("docs/dashboard.md", doc, "| `i` / `I`", "(%s s;", list);
	free(doc);
	char *man = tl_slurp_src("man/threadlab.1");
	says("the man page", man, "CPU quota up / down", "by %g CPU.", cpus->step);
	says("the man page", man, "CPU per batch a loader spends", "(x%g)", prep->factor);
	says("the man page", man, "Refresh faster / slower", "(%g to %g seconds)", lo, hi);
	free(man);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_thread_and_stream_keys),
	    cmocka_unit_test(test_size_keys),
	    cmocka_unit_test(test_quota_keys),
	    cmocka_unit_test(test_view_keys),
	    cmocka_unit_test(test_attach_mode_refuses_lab_keys),
	    cmocka_unit_test(test_help_lists_every_key),
	    cmocka_unit_test(test_tour_keys),
	    cmocka_unit_test(test_man_page_lists_every_key),
	    cmocka_unit_test(test_docs_list_every_key_both_ways),
	    cmocka_unit_test(test_replay_keys),
	    cmocka_unit_test(test_every_listed_key_acts),
	    cmocka_unit_test(test_help_per_mode),
	    cmocka_unit_test(test_knob_figures_are_the_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
