/* test-knobs.c — the knob table (monitor/knobs.h) holds against what the
 * program does: a step past a knob's end is refused with the table's
 * words and changes nothing, a fresh session, sweep and dashboard start at
 * the table's defaults, and the dashboard's knob keys (the key table,
 * tui/dash-keys-table.c) step the knob the table names for them, the way
 * its step rule says. */
#include "config.h"

#include "tl-test.h"

#include <math.h>

#include "dash-keys-impl.h"
#include "dash-keys-table.h"
#include "knobs.h"
#include "options.h"
#include "options-table.h"
#include "options-usage.h"
#include "session-knob.h"
#include "session.h"
#include "sweep.h"
#include "tl-dash-keys.h"

#define ONLINE 2 /* tl_lab_ctx's online CPUs: the quota keys' top */

/* A value of knob k from which one step either way stays in range. */
static double mid_value(enum knob_id k)
{
	const struct knob *e = knobs_get(k);
	switch (e->rule) {
	case KNOB_QUOTA:
		return 1.0;
	case KNOB_GROW:
		return e->def;
	case KNOB_TOGGLE:
		return e->def;
	case KNOB_LIST:
		return e->def;
	case KNOB_PREP:
		return e->min + 10;
	case KNOB_ADD:
		break;
	}
	return e->min + e->step;
}

static void test_every_knob_is_whole(void **state)
{
	(void)state;
	int lab = 0;
	for (int k = KNOB_NONE + 1; k < KNOB_COUNT; k++) {
		const struct knob *e = knobs_get((enum knob_id)k);
		assert_non_null(e);
		assert_non_null(e->name);
		assert_non_null(e->option);
		assert_non_null(e->label);
		assert_non_null(e->help);
		assert_non_null(e->noun);
		assert_non_null(e->unit);
		assert_true(e->up_key != 0);
		assert_true(e->min <= e->def || (k == KNOB_CPUS && e->def == 0));
		assert_true(e->def <= e->max);
		if (e->rule != KNOB_TOGGLE && e->rule != KNOB_QUOTA)
			assert_non_null(e->within);
		lab += (e->flags & KNOB_LAB) != 0;
	}
	assert_null(knobs_get(KNOB_NONE));
	assert_null(knobs_get(KNOB_COUNT));
	assert_int_equal(lab, KNOB_COUNT - 2); /* all but the interval (and NONE) */
}

/* A step past either end of each stepped lab knob is refused, with the
 * table's refusal, and *want stays as it was. */
static void test_ends_are_refused(void **state)
{
	(void)state;
	char msg[256], want_msg[256];
	for (int i = KNOB_NONE + 1; i < KNOB_COUNT; i++) {
		enum knob_id k = (enum knob_id)i;
		const struct knob *e = knobs_get(k);
		if (!(e->flags & KNOB_LAB) || e->rule == KNOB_TOGGLE || e->rule == KNOB_QUOTA)
			continue;
		double lo = e->rule == KNOB_GROW ? e->key_min : e->min;
		for (int dir = -1; dir <= 1; dir += 2) {
			struct settings w = knobs_defaults();
			knobs_set(&w, k, dir > 0 ? e->max : lo);
			struct settings before = w;
			assert_int_equal(
			    session_knob_step(NULL, &w, k, dir, ONLINE, msg, sizeof(msg)), 0);
			assert_memory_equal(&w, &before, sizeof(w));
			knobs_refusal(k, want_msg, sizeof(want_msg));
			assert_string_equal(msg, want_msg);
			assert_non_null(strstr(msg, e->within));
			char range[64];
			snprintf(range, sizeof(range), "%g..%g", lo, e->max);
			assert_non_null(strstr(msg, range));
		}
		/* One step in from the end is taken. */
		struct settings w = knobs_defaults();
		knobs_set(&w, k, e->max);
		assert_int_equal(session_knob_step(NULL, &w, k, -1, ONLINE, msg, sizeof(msg)), 1);
		assert_true(knobs_value(&w, k) < e->max);
	}
	/* The quota stops at the online CPUs, and none cannot be removed. */
	struct settings w = knobs_defaults();
	w.cpus = ONLINE;
	assert_int_equal(session_knob_step(NULL, &w, KNOB_CPUS, +1, ONLINE, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "online CPU count (2)"));
	assert_true(w.cpus == ONLINE);
	w.cpus = 0;
	assert_int_equal(session_knob_step(NULL, &w, KNOB_CPUS, 0, ONLINE, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "no quota to remove");
	/* The refresh interval stops at its list's ends, the keys' range,
	 * inside the knob's (the command line's -i 0.01 to 3600). */
	const struct knob *iv = knobs_get(KNOB_INTERVAL);
	double next = -1, lo, hi;
	knobs_key_range(KNOB_INTERVAL, &lo, &hi);
	assert_true(lo == 0.1 && hi == 10);
	assert_true(iv->min == 0.01 && iv->max == 3600);
	assert_int_equal(knobs_step(KNOB_INTERVAL, hi, +1, 0, &next, msg, sizeof(msg)), -ERANGE);
	assert_string_equal(msg, "refresh interval stays within 0.1..10 s");
	assert_int_equal(knobs_step(KNOB_INTERVAL, lo, -1, 0, &next, msg, sizeof(msg)), -ERANGE);
	assert_true(next == -1);
	for (size_t i = 0; i < knobs_nintervals; i++)
		assert_true(knobs_intervals[i] >= iv->min && knobs_intervals[i] <= iv->max);
	/* Below the list (-i 0.05) the shorter key stays, the longer one
	 * goes to the list's first. */
	assert_int_equal(knobs_step(KNOB_INTERVAL, 0.05, -1, 0, &next, msg, sizeof(msg)), -ERANGE);
	assert_int_equal(knobs_step(KNOB_INTERVAL, 0.05, +1, 0, &next, msg, sizeof(msg)), 0);
	assert_true(next == 0.1);
}

/* The range check refuses just outside each end and takes the ends, with
 * the option's name in its message. */
static void test_range_check(void **state)
{
	(void)state;
	char err[256];
	for (int i = KNOB_NONE + 1; i < KNOB_COUNT; i++) {
		enum knob_id k = (enum knob_id)i;
		const struct knob *e = knobs_get(k);
		double below = e->rule == KNOB_TOGGLE ? e->min - 1 : e->min - 1e-3;
		if (k == KNOB_CPUS)
			below = e->min / 2; /* 0 is none: in range */
		assert_int_equal(knobs_check_value(k, e->min, err, sizeof(err)), 0);
		assert_int_equal(knobs_check_value(k, e->max, err, sizeof(err)), 0);
		assert_int_equal(knobs_check_value(k, below, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, e->option));
		assert_int_equal(knobs_check_value(k, e->max + 1, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, e->option));
	}
	struct settings s = knobs_defaults();
	assert_int_equal(knobs_check(&s, err, sizeof(err)), 0);
	s.threads = 0;
	assert_int_equal(knobs_check(&s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "threads 0: give 1 to 64 intra-op threads per stream");
	s = knobs_defaults();
	s.size = 16384;
	assert_int_equal(session_knob_check_settings(NULL, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "from 64 to 4096"));
	s = knobs_defaults();
	s.cpus = NAN;
	assert_int_equal(knobs_check(&s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "cpus: give a quota in CPUs such as 1.5 (or none)");
	s.cpus = 0.005;
	assert_int_equal(knobs_check(&s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "cpus 0.005: the smallest quota is 0.01 CPUs");
}

/* A fresh session, sweep and dashboard start at the table's defaults. */
static void test_defaults(void **state)
{
	(void)state;
	struct session_config c;
	session_config_default(&c);
	struct sweep_opts o;
	sweep_opts_default(&o);
	for (int i = KNOB_NONE + 1; i < KNOB_COUNT; i++) {
		enum knob_id k = (enum knob_id)i;
		const struct knob *e = knobs_get(k);
		if (e->flags & KNOB_LAB)
			assert_true(knobs_value(&c.lab, k) == e->def);
	}
	assert_int_equal(c.lab.threads, 1);
	assert_int_equal(c.lab.size, 768);
	assert_int_equal(c.lab.prep_ms, 20);
	assert_int_equal(c.lab.prefetch, 2);
	assert_true(o.size == knobs_get(KNOB_SIZE)->def);
	assert_true(o.prep_ms == knobs_get(KNOB_PREP_MS)->def);
	assert_true(o.prefetch == knobs_get(KNOB_PREFETCH)->def);
	assert_true(o.precision == (enum settings_precision)knobs_get(KNOB_PRECISION)->def);
	struct dash d;
	dash_init(&d, NULL);
	assert_true(d.interval == knobs_get(KNOB_INTERVAL)->def);
	/* A -i beyond the range is clamped to the table's end, and said. */
	struct dash_config dc = {.interval = 60};
	dash_init(&d, &dc);
	assert_true(d.interval == 10);
	assert_non_null(strstr(d.message, "0.1 to 10 s"));
}

/* Every key of a knob row steps that knob as its rule says, and nothing
 * else; every knob's keys in the table are rows of that knob. */
/* What --help appends to a knob option's help line: its range where a key
 * adds or grows it, and its default as the experiment log writes it. */
static void test_describe(void **state)
{
	(void)state;
	char buf[128];
	assert_int_equal(knobs_describe(KNOB_NONE, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	knobs_describe(KNOB_THREADS, buf, sizeof(buf));
	assert_string_equal(buf, ", 1-64; default 1");
	knobs_describe(KNOB_SIZE, buf, sizeof(buf));
	assert_string_equal(buf, ", 64-4096; default 768");
	knobs_describe(KNOB_PRECISION, buf, sizeof(buf));
	assert_string_equal(buf, "; default single");
	knobs_describe(KNOB_CPUS, buf, sizeof(buf));
	assert_string_equal(buf, "; default none");
	knobs_describe(KNOB_INTERVAL, buf, sizeof(buf));
	assert_string_equal(buf, ", 0.01-3600; default 1");
	/* Cut to the room given, still a string. */
	assert_int_equal(knobs_describe(KNOB_THREADS, buf, 6), 5);
	assert_string_equal(buf, ", 1-6");
}

/* A knob option's help line in --help is the knob table's help, then
 * knobs_describe: the option table writes none of its own. */
static void test_help_is_the_knobs(void **state)
{
	(void)state;
	char *text = NULL, joined[16384];
	size_t len = 0, j = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	options_usage(f);
	fclose(f);
	/* Continuation lines (from column 25) joined to their option's. */
	for (size_t i = 0; i < len && j + 1 < sizeof(joined); i++) {
		if (text[i] == '\n' && strncmp(text + i + 1, "                        ", 24) == 0) {
			joined[j++] = ' ';
			i += 24;
		} else {
			joined[j++] = text[i];
		}
	}
	joined[j] = '\0';
	free(text);
	int knobs = 0;
	for (size_t i = 0; i < options_table_count(); i++) {
		const struct options_entry *e = options_table_at(i);
		enum knob_id k = knobs_of_option(e->name);
		if (k == KNOB_NONE)
			continue;
		knobs++;
		assert_null(e->help);
		char want[512], tail[64];
		knobs_describe(k, tail, sizeof(tail));
		snprintf(want, sizeof(want), "  %s%s\n", knobs_get(k)->help, tail);
		if (!strstr(joined, want))
			fail_msg("--help has no line ending \"%s\"", want);
	}
	assert_true(knobs >= 12);
}

static void test_keys_match_the_table(void **state)
{
	(void)state;
	int knob_keys = 0;
	for (size_t r = 0; r < dash_keys_table_ncmds; r++) {
		const struct dash_keys_cmd *e = &dash_keys_table[r];
		if (e->knob == KNOB_NONE)
			continue;
		assert_null(e->fn);
		assert_true(e->modes & (DASH_KEYS_MODE_LAB | DASH_KEYS_MODE_ATTACH));
		for (int i = 0; i < DASH_KEYS_MAX && e->k[i].key; i++) {
			int key = e->k[i].key, arg = e->k[i].arg, dir;
			enum knob_id k = e->knob;
			/* The table's own keys map back to this row, same way. */
			enum knob_id of = knobs_of_key(key, &dir);
			if (of != KNOB_NONE) {
				assert_int_equal(of, k);
				assert_int_equal(dir, arg);
			}
			knob_keys++;
			struct dash d;
			tl_dash_fresh(&d);
			struct settings w = knobs_defaults(), before;
			double cur = mid_value(k), want;
			char msg[256];
			if (k == KNOB_INTERVAL)
				d.interval = cur;
			else
				knobs_set(&w, k, cur);
			before = w;
			assert_int_equal(knobs_step(k, cur, arg, ONLINE, &want, msg, sizeof(msg)),
					 0);
			int f = dash_keys_handle(&d, &w, &tl_lab_ctx, key);
			assert_true(f & DASH_KEY_HANDLED);
			if (k == KNOB_INTERVAL) {
				assert_true(fabs(d.interval - want) < 1e-9);
				assert_true(f & DASH_KEY_RETIME);
				continue;
			}
			/* The key is one session_knob_step: the same result, the
			 * same words. */
			struct settings same = before;
			int ch = session_knob_step(NULL, &same, k, arg, ONLINE, msg, sizeof(msg));
			assert_string_equal(d.message, msg);
			assert_memory_equal(&w, &same, sizeof(w));
			if (k == KNOB_BLAS && !settings_blas_dir(SETTINGS_BLAS_OPENMP)) {
				assert_int_equal(ch, 0); /* the build is missing: refused */
				assert_false(f & DASH_KEY_APPLY);
				continue;
			}
			assert_int_equal(ch, 1);
			assert_true(f & DASH_KEY_APPLY);
			assert_true(fabs(knobs_value(&w, k) - want) < 1e-9);
			knobs_set(&before, k, want);
			assert_memory_equal(&w, &before, sizeof(w));
		}
	}
	/* Each knob's keys are in the key table, as rows of that knob. */
	for (int i = KNOB_NONE + 1; i < KNOB_COUNT; i++) {
		const struct knob *e = knobs_get((enum knob_id)i);
		int keys[2] = {e->up_key, e->down_key}, found = 0;
		for (int j = 0; j < 2; j++) {
			if (!keys[j])
				continue;
			for (size_t r = 0; r < dash_keys_table_ncmds; r++)
				for (int x = 0; x < DASH_KEYS_MAX && dash_keys_table[r].k[x].key;
				     x++)
					found += dash_keys_table[r].k[x].key == keys[j] &&
						 dash_keys_table[r].knob == (enum knob_id)i;
			assert_true(found > 0);
			found = 0;
		}
	}
	assert_true(knob_keys >= 2 * (KNOB_COUNT - 1) - 5); /* toggles have one key */
}

/* A recording reads every thread at every interval, as batch does; the
 * dashboard and --headless otherwise read the threads off the screen once
 * a second (a recording at -i 0.5 repeated each figure twice). */
static void test_record_reads_every_thread(void **state)
{
	(void)state;
	static char a0[] = "threadlab", a1[] = "--headless", a2[] = "--serve", a3[] = "0",
		    a4[] = "--record", a5[] = "/tmp/tl-unused.jsonl";
	char *with[] = {a0, a1, a2, a3, a4, a5, NULL};
	char *without[] = {a0, a1, a2, a3, NULL};
	struct options o;
	struct session_config c;
	char err[256] = "";
	if (options_parse(4, without, &o, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	options_session_config(&o, &c);
	assert_near(c.detail_period, 1.0, 0);
	if (options_parse(6, with, &o, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	options_session_config(&o, &c);
	assert_near(c.detail_period, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_record_reads_every_thread),
	    cmocka_unit_test(test_every_knob_is_whole),	 cmocka_unit_test(test_ends_are_refused),
	    cmocka_unit_test(test_range_check),		 cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_keys_match_the_table), cmocka_unit_test(test_describe),
	    cmocka_unit_test(test_help_is_the_knobs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
