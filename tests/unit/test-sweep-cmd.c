/* test-sweep-cmd.c — the experiment log's rows (explog.h) and the command
 * sweep's settings, environments, best setting, log rows and JSON document
 * (sweep-cmd.h): pure code and real files. */
#include "tl-test.h"

#include "knobs.h"

#include <json-c/json.h>
#include <math.h>

#include "explog-out.h"
#include "explog.h"
#include "explog-load.h"
#include "sweep-cmd-out.h"
#include "sweep-cmd.h"

static void row(struct explog *l, double rate, int threads, int streams)
{
	struct settings s = knobs_defaults();
	struct explog_row r;
	memset(&r, 0, sizeof(r));
	s.threads = threads;
	s.streams = streams;
	r.nknobs = explog_lab_knobs(&s, r.knob, EXPLOG_KNOBS);
	r.rate = rate;
	explog_add(l, &r);
}

static void test_explog(void **state)
{
	(void)state;
	static struct explog l;
	char w[256];
	row(&l, 80, 1, 1);
	row(&l, 150, 2, 1);
	row(&l, 120, 3, 2);
	assert_string_equal(l.row[0].knob[0].name, "threads");
	assert_string_equal(l.row[1].knob[0].value, "2");
	assert_near(explog_ratio(&l, 0), 1.0, 1e-12);
	assert_near(explog_ratio(&l, 1), 150.0 / 80, 1e-12);
	assert_string_equal(explog_warning(&l, 1, w, sizeof(w)), "");
	assert_string_equal(explog_warning(&l, 2, w, sizeof(w)),
			    "2 knobs changed at once: threads and streams");
	/* A sweep's way: each row one knob from the first (1x1): 1x2 after
	 * 2x1 is two knobs from the row before it, one from the first. */
	static struct explog sw;
	row(&sw, 80, 1, 1);
	row(&sw, 150, 2, 1);
	row(&sw, 140, 1, 2);
	assert_string_equal(explog_warning(&sw, 1, w, sizeof(w)), "");
	assert_string_equal(explog_warning(&sw, 2, w, sizeof(w)), "");
	row(&sw, 100, 3, 3);
	assert_string_equal(explog_warning(&sw, 3, w, sizeof(w)),
			    "2 knobs changed at once: threads and streams");
	/* A knob only one side has counts as changed. */
	struct explog_row a = {.nknobs = 2}, b = {.nknobs = 2};
	snprintf(a.knob[0].name, 40, "OMP_NUM_THREADS");
	snprintf(a.knob[0].value, 72, "1");
	snprintf(a.knob[1].name, 40, "loaders");
	snprintf(a.knob[1].value, 72, "2");
	b = a;
	snprintf(b.knob[0].value, 72, "2");
	snprintf(b.knob[1].name, 40, "prefetch");
	char names[256];
	assert_int_equal(explog_changed(&a, &b, names, sizeof(names)), 3);
	assert_string_equal(names, "OMP_NUM_THREADS, loaders and prefetch");
}

/* --log: rows written as JSON Lines read back the same. */
static void test_explog_round_trip(void **state)
{
	(void)state;
	static struct explog a, b;
	char path[] = "/tmp/tl-log-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	struct env_record e;
	memset(&e, 0, sizeof(e));
	row(&a, 80, 1, 1);
	row(&a, -1, 2, 1);
	a.row[0].unit = "GFLOP/s";
	a.row[0].verdict = VERDICT_THROTTLED;
	a.row[0].throttled_pct = 37.5;
	a.row[0].cpu = 1.5;
	a.row[1].verdict = VERDICT_N;
	a.row[1].throttled_pct = -1;
	snprintf(a.row[1].note, sizeof(a.row[1].note), "quote \" tab\t \x1b[2J end");
	for (size_t i = 0; i < a.n; i++)
		assert_int_equal(explog_out_json(f, &a, i, &e), 0);
	fputs("not json\n", f);
	fclose(f);
	size_t skipped = 9;
	assert_int_equal(explog_load(&b, path, &skipped), 2);
	assert_int_equal(skipped, 1);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(b.row[i].nknobs, a.row[i].nknobs);
		for (size_t k = 0; k < a.row[i].nknobs; k++) {
			assert_string_equal(b.row[i].knob[k].name, a.row[i].knob[k].name);
			assert_string_equal(b.row[i].knob[k].value, a.row[i].knob[k].value);
		}
		assert_string_equal(b.row[i].note, a.row[i].note);
		assert_int_equal(b.row[i].verdict, a.row[i].verdict);
		assert_near(b.row[i].rate, a.row[i].rate, 1e-3);
		assert_near(b.row[i].throttled_pct, a.row[i].throttled_pct, 1e-2);
	}
	assert_string_equal(b.row[0].unit, "GFLOP/s");
	assert_near(b.row[0].cpu, 1.5, 1e-3);
	unlink(path);
	assert_int_equal(explog_load(&b, path, &skipped), 0); /* no file: no rows */
}

static void test_sweep_settings(void **state)
{
	(void)state;
	struct sweep_cmd_opts o;
	char err[256];
	unsigned char v[64][SWEEP_CMD_KNOBS];
	sweep_cmd_opts_default(&o);
	assert_int_equal(sweep_cmd_add_knob(&o, "OMP_NUM_THREADS=1,2,4", err, sizeof(err)), 0);
	assert_int_equal(sweep_cmd_add_knob(&o, "WORKERS=0,2", err, sizeof(err)), 0);
	assert_int_equal(o.knob[0].nvalues, 3);
	/* One knob at a time from the baseline. */
	assert_int_equal(sweep_cmd_settings(&o, v, 64), 4);
	assert_int_equal(v[0][0], 0);
	assert_int_equal(v[0][1], 0);
	assert_int_equal(v[1][0], 1);
	assert_int_equal(v[2][0], 2);
	assert_int_equal(v[3][0], 0);
	assert_int_equal(v[3][1], 1);
	o.grid = true;
	assert_int_equal(sweep_cmd_settings(&o, v, 64), 6);
	assert_int_equal(v[5][0], 2);
	assert_int_equal(v[5][1], 1);
	static const char *const bad[] = {
	    "NOEQUALS", "=1,2", "1X=1", "A B=1", "X=", "X=1,,2", "OMP_NUM_THREADS=3"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(sweep_cmd_add_knob(&o, bad[i], err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "--env"));
		assert_null(strchr(err, '\n'));
	}
}

/* Every setting runs with its own values: each knob's NAME=VALUE once, the
 * setting's (not the baseline's), threadlab's own definition gone. */
static void test_sweep_environ(void **state)
{
	(void)state;
	struct sweep_cmd_opts o;
	char err[256];
	unsigned char v[64][SWEEP_CMD_KNOBS];
	sweep_cmd_opts_default(&o);
	setenv("OMP_NUM_THREADS", "99", 1);
	assert_int_equal(sweep_cmd_add_knob(&o, "OMP_NUM_THREADS=1,2,4", err, sizeof(err)), 0);
	assert_int_equal(sweep_cmd_add_knob(&o, "MODE=a,b", err, sizeof(err)), 0);
	size_t n = sweep_cmd_settings(&o, v, 64);
	assert_int_equal(n, 4);
	static const char *const want[4][2] = {{"1", "a"}, {"2", "a"}, {"4", "a"}, {"1", "b"}};
	for (size_t i = 0; i < n; i++) {
		char **e = sweep_cmd_environ(&o, v[i]);
		int seen[2] = {0, 0};
		for (char **p = e; *p; p++)
			for (size_t k = 0; k < 2; k++) {
				size_t l = strlen(o.knob[k].name);
				if (strncmp(*p, o.knob[k].name, l) != 0 || (*p)[l] != '=')
					continue;
				seen[k]++;
				if (strcmp(*p + l + 1, want[i][k]) != 0)
					fail_msg("setting %zu runs with %s, want %s=%s", i, *p,
						 o.knob[k].name, want[i][k]);
			}
		assert_int_equal(seen[0], 1);
		assert_int_equal(seen[1], 1);
		assert_non_null(getenv("PATH") ? e[0] : NULL);
		sweep_cmd_environ_free(e, o.nknobs);
	}
	unsetenv("OMP_NUM_THREADS");
}

static struct sweep_cmd_row sweep_row(size_t i, double rate, double spread)
{
	struct sweep_cmd_row r;
	memset(&r, 0, sizeof(r));
	r.index = i;
	r.rate = rate;
	r.rate_spread = spread;
	return r;
}

/* The best setting and whether it beats the next beyond the spread. */
static void test_sweep_best(void **state)
{
	(void)state;
	struct sweep_cmd_best b;
	char line[512];
	/* Repeats: 130 against 100, spreads 10 and 20: beyond. */
	struct sweep_cmd_row r[4] = {sweep_row(0, 100, 20), sweep_row(1, 130, 10),
				     sweep_row(2, NAN, NAN), sweep_row(3, 90, 5)};
	sweep_cmd_best(r, 4, &b);
	assert_ptr_equal(b.best, &r[1]);
	assert_ptr_equal(b.next, &r[0]);
	assert_near(b.margin, 30, 1e-9);
	assert_near(b.spread, 20, 1e-9);
	assert_int_equal(b.beyond, 1);
	sweep_cmd_out_best_text(line, sizeof(line), &b, 3, true);
	assert_non_null(strstr(line, "beyond the spread"));
	/* Within the spread: no clear winner. */
	r[0].rate_spread = 35;
	sweep_cmd_best(r, 4, &b);
	assert_int_equal(b.beyond, 0);
	sweep_cmd_out_best_text(line, sizeof(line), &b, 3, true);
	assert_non_null(strstr(line, "no clear winner"));
	/* One run each: no spread, cannot tell; the best still named. */
	for (size_t i = 0; i < 4; i++)
		r[i].rate_spread = NAN;
	sweep_cmd_best(r, 4, &b);
	assert_ptr_equal(b.best, &r[1]);
	assert_int_equal(b.beyond, -1);
	sweep_cmd_out_best_text(line, sizeof(line), &b, 1, true);
	assert_non_null(strstr(line, "--repeat"));
	/* The first row best (the best found before the next is). */
	r[0].rate = 200;
	sweep_cmd_best(r, 4, &b);
	assert_ptr_equal(b.best, &r[0]);
	assert_ptr_equal(b.next, &r[1]);
	/* No rate at all. */
	struct sweep_cmd_row none[2] = {sweep_row(0, NAN, NAN), sweep_row(1, NAN, NAN)};
	sweep_cmd_best(none, 2, &b);
	assert_null(b.best);
	sweep_cmd_out_best_text(line, sizeof(line), &b, 1, true);
	assert_non_null(strstr(line, "best: none (no setting's output matched --progress"));
	sweep_cmd_out_best_text(line, sizeof(line), &b, 1, false);
	assert_non_null(strstr(line, "--progress REGEX reads one"));
	/* Interrupted before any setting ended (it said --progress reads one
	 * although --progress was given). */
	sweep_cmd_best(none, 0, &b);
	sweep_cmd_out_best_text(line, sizeof(line), &b, 1, true);
	assert_string_equal(line, "best: none (no setting ran to its end)");
}

/* A sweep row as an experiment-log row: wait from the runnable share. */
static void test_sweep_log_row(void **state)
{
	(void)state;
	struct sweep_cmd_row s = sweep_row(1, 50, NAN);
	static const char *name = "OMP_NUM_THREADS", *value = "2";
	s.name[0] = name;
	s.value[0] = value;
	s.nknobs = 1;
	s.runs = 1;
	s.cpu_pct = 150;
	s.runnable_mean = 2;
	s.wait_pct = 25;
	s.throttled_pct = -1;
	s.verdict = VERDICT_FINE;
	snprintf(s.status, sizeof(s.status), "stopped (SIGTERM)");
	struct explog_row e;
	explog_row_of_sweep(&s, true, &e);
	assert_int_equal(e.nknobs, 1);
	assert_string_equal(e.knob[0].name, "OMP_NUM_THREADS");
	assert_string_equal(e.knob[0].value, "2");
	assert_string_equal(e.unit, "steps/s");
	assert_near(e.rate, 50, 1e-9);
	assert_near(e.cpu, 1.5, 1e-9);
	assert_near(e.wait, 0.5, 1e-9);
	assert_int_equal(e.verdict, VERDICT_FINE);
	explog_row_of_sweep(&s, false, &e);
	assert_null(e.unit);
	assert_true(e.rate < 0);
}

/* A command sweep's JSON is one document whatever its rows: here a command
 * that ends at once, no progress, so no best setting (best null). */
static void test_sweep_json_document(void **state)
{
	(void)state;
	struct sweep_cmd_opts o;
	char err[256], *buf = NULL;
	size_t len = 0;
	static char t[] = "true";
	static char *cmd[] = {t, NULL};
	sweep_cmd_opts_default(&o);
	assert_int_equal(sweep_cmd_add_knob(&o, "OMP_NUM_THREADS=1,2", err, sizeof(err)), 0);
	o.seconds = 0.2;
	o.warmup = 0;
	o.command = cmd;
	char log[] = "/tmp/tl-sweep-log-XXXXXX";
	int fd = mkstemp(log);
	assert_true(fd >= 0);
	close(fd);
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(sweep_cmd_out_run(&o, f, FORMAT_JSON, log), 0);
	fclose(f);
	json_object *d = json_tokener_parse(buf);
	if (!d)
		fail_msg("not one JSON document: %s", buf);
	json_object *rows, *best;
	assert_true(json_object_object_get_ex(d, "rows", &rows));
	assert_int_equal(json_object_array_length(rows), 2);
	/* `true` ends before its environment is read, before any window:
	 * each row, and each row of the log, says OMP_NUM_THREADS was unreadable (not the
	 * footer's "per row", not an empty record) */
	FILE *lf = fopen(log, "r");
	assert_non_null(lf);
	char line[8192];
	size_t nlog = 0;
	for (; fgets(line, sizeof(line), lf); nlog++) {
		json_object *l = json_tokener_parse(line), *env, *x;
		assert_non_null(l);
		assert_true(json_object_object_get_ex(l, "environment", &env));
		assert_true(json_object_object_get_ex(env, "OMP_NUM_THREADS", &x));
		assert_string_equal(json_object_get_string(x), "unreadable");
		json_object_put(l);
	}
	fclose(lf);
	unlink(log);
	assert_int_equal(nlog, 2);
	for (size_t i = 0; i < 2; i++) {
		json_object *env;
		assert_true(json_object_object_get_ex(json_object_array_get_idx(rows, i),
						       "environment", &env));
		assert_string_equal(json_object_get_string(env), "unreadable");
	}
	assert_true(json_object_object_get_ex(d, "best", &best));
	assert_null(best);
	assert_true(json_object_object_get_ex(d, "environment", &best));
	json_object_put(d);
	free(buf);
}

/* The row loop runs each setting with its own values: a command that
 * sleeps, three values of X, and each row's environment (read from the
 * command's /proc/PID/environ) holds the value the row names.  A loop that
 * ran every row with the first setting fails here, not only in a live
 * script. */
struct rows_seen {
	size_t n;
	char value[4][64], seen[4][64];
	bool set[4];
	int env_error[4];
};

static int seen_begin(void *arg, const struct sweep_cmd_env *env)
{
	(void)arg;
	(void)env;
	return 0;
}

static int seen_row(void *arg, const struct sweep_cmd_row *r)
{
	struct rows_seen *w = arg;
	if (w->n >= 4)
		return -EIO;
	snprintf(w->value[w->n], sizeof(w->value[0]), "%s", r->value[0]);
	snprintf(w->seen[w->n], sizeof(w->seen[0]), "%s", r->env[0].value);
	w->set[w->n] = r->nenv > 0 && strcmp(r->env[0].name, "TL_SWEEP_X") == 0 && r->env[0].set;
	w->env_error[w->n] = r->env_error;
	w->n++;
	return 0;
}

static int seen_end(void *arg)
{
	(void)arg;
	return 0;
}

static void test_sweep_rows_run_their_setting(void **state)
{
	(void)state;
	struct sweep_cmd_opts o;
	struct rows_seen w;
	char err[256];
	static char sl[] = "sleep", secs[] = "30";
	static char *cmd[] = {sl, secs, NULL};
	memset(&w, 0, sizeof(w));
	sweep_cmd_opts_default(&o);
	assert_int_equal(sweep_cmd_add_knob(&o, "TL_SWEEP_X=first,second,third", err, sizeof(err)),
			 0);
	o.seconds = 0.3;
	o.warmup = 0;
	o.command = cmd;
	struct sweep_cmd_sink k = {
	    .arg = &w, .begin = seen_begin, .row = seen_row, .end = seen_end};
	assert_int_equal(sweep_cmd_run(&o, &k), 0);
	assert_int_equal(w.n, 3);
	static const char *want[] = {"first", "second", "third"};
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(w.value[i], want[i]);
		assert_int_equal(w.env_error[i], 0);
		assert_true(w.set[i]);
		assert_string_equal(w.seen[i], want[i]);
	}
}

/* With --repeat, a row's environment is the one a run read: a command
 * whose second run ends before it is read (its first run sleeps) keeps
 * the first run's, not "unreadable". */
static void test_sweep_repeat_environment(void **state)
{
	(void)state;
	struct sweep_cmd_opts o;
	struct rows_seen w;
	char err[256], dir[] = "/tmp/tl-repeat-XXXXXX", script[512];
	assert_non_null(mkdtemp(dir));
	snprintf(script, sizeof(script), "[ -e %s/ran ] && exit 0; : >%s/ran; exec sleep 30", dir,
		 dir);
	static char sh[] = "sh", c[] = "-c";
	char *cmd[] = {sh, c, script, NULL};
	memset(&w, 0, sizeof(w));
	sweep_cmd_opts_default(&o);
	assert_int_equal(sweep_cmd_add_knob(&o, "TL_SWEEP_X=only", err, sizeof(err)), 0);
	o.seconds = 0.3;
	o.warmup = 0;
	o.repeat = 2;
	o.command = cmd;
	struct sweep_cmd_sink k = {
	    .arg = &w, .begin = seen_begin, .row = seen_row, .end = seen_end};
	assert_int_equal(sweep_cmd_run(&o, &k), 0);
	char ran[600];
	snprintf(ran, sizeof(ran), "%s/ran", dir);
	unlink(ran);
	rmdir(dir);
	assert_int_equal(w.n, 1);
	assert_int_equal(w.env_error[0], 0);
	assert_true(w.set[0]);
	assert_string_equal(w.seen[0], "only");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_explog),
	    cmocka_unit_test(test_explog_round_trip),
	    cmocka_unit_test(test_sweep_settings),
	    cmocka_unit_test(test_sweep_environ),
	    cmocka_unit_test(test_sweep_best),
	    cmocka_unit_test(test_sweep_log_row),
	    cmocka_unit_test(test_sweep_repeat_environment),
	    cmocka_unit_test(test_sweep_json_document),
	    cmocka_unit_test(test_sweep_rows_run_their_setting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
