/* test-progress.c — the job's progress counter (progress.h), the file
 * follower (tail.h), the experiment log's rows (explog.h) and the command
 * sweep's settings (sweep-cmd.h): pure code and real files. */
#include "tl-test.h"

#include <json-c/json.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <time.h>

#include "explog-out.h"
#include "explog.h"
#include "progress.h"
#include "sweep-cmd-out.h"
#include "sweep-cmd.h"
#include "tail.h"

static void feed(struct progress *p, const char *s)
{
	progress_feed(p, s, strlen(s));
}

static void test_plain_match(void **state)
{
	(void)state;
	struct progress p;
	char err[256];
	assert_int_equal(progress_init(&p, "^batch done", false, err, sizeof(err)), 0);
	feed(&p, "batch done\nsomething else\nbatch done\nbatch do");
	assert_near(p.count, 2, 0);
	assert_string_equal(p.last_line, "batch done"); /* the partial line is not yet one */
	feed(&p, "ne\n");
	assert_near(p.count, 3, 0);
	assert_int_equal(p.matches, 3);
	progress_free(&p);
	assert_int_equal(progress_init(&p, "step (", false, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--progress 'step ('"));
}

static void test_cumulative_and_tqdm(void **state)
{
	(void)state;
	struct progress p;
	char err[256];
	progress_init(&p, "([0-9]+)/[0-9]+ \\[", false, err, sizeof(err));
	/* tqdm: carriage returns, no newline until the end. */
	feed(&p, "\r  0%|          | 0/100 [00:00<?, ?it/s]\r 10%|#         | 10/100 [00:01<00:09, "
		 "9.9it/s]\r 25%|##        | 25/100 [00:02");
	assert_near(p.count, 10, 0);
	feed(&p, "<00:06, 12.1it/s]");
	progress_flush(&p);
	assert_near(p.count, 25, 0);
	assert_non_null(strstr(p.last_line, "25/100"));
	/* A second epoch starts over: counted on top. */
	feed(&p, "\r  5/100 [00:00\r 40/100 [00:03\r 38/100 [00:03\n");
	assert_near(p.count, 25 + 40, 0);
	progress_free(&p);
}

static void test_rates(void **state)
{
	(void)state;
	struct progress p;
	char err[256], line[64];
	progress_init(&p, "step ([0-9]+)", false, err, sizeof(err));
	progress_tick(&p, 100.0);
	assert_true(p.rate < 0);
	/* 50 steps/s for 4 s, then 10 steps/s for 12 s. */
	long n = 0;
	for (int t = 1; t <= 16; t++) {
		for (int k = 0; k < (t <= 4 ? 50 : 10); k++) {
			snprintf(line, sizeof(line), "step %ld\n", ++n);
			feed(&p, line);
		}
		progress_tick(&p, 100.0 + t);
	}
	assert_near(p.rate, 10, 1e-9);
	assert_near(p.steady_rate, 10, 1e-9);
	progress_restart(&p);
	assert_true(p.steady_rate < 0);
	progress_free(&p);

	/* A printed rate is integrated. */
	progress_init(&p, "([0-9.]+)it/s", true, err, sizeof(err));
	for (int t = 0; t <= 5; t++) {
		feed(&p, "\r 40.0it/s");
		progress_tick(&p, 10.0 + t);
	}
	assert_near(p.count, 200, 1e-9);
	assert_near(p.rate, 40, 1e-9);
	/* A group that is not a number is not a step. */
	feed(&p, "\rabcit/s\r");
	assert_int_equal(p.matches, 6);
	progress_free(&p);
}

/* Numbers from the job's output are checked once, as they enter: text
 * that is not a number and numbers out of range for a count or a rate are
 * not counted, and each kind is said once, naming the first such text. */
static void test_hostile_numbers(void **state)
{
	(void)state;
	struct progress p;
	char err[256];
	progress_init(&p, "([0-9a-z.e+]+)it/s", true, err, sizeof(err));
	feed(&p, "10it/s\n");
	progress_tick(&p, 1.0);
	feed(&p, "1e308it/s\ninfit/s\n1e10it/s\n");
	assert_int_equal(p.out_of_range, 3);
	assert_int_equal(p.note_seq, 1);
	assert_non_null(strstr(p.note, "'1e308'"));
	assert_non_null(strstr(p.note, "out of range"));
	feed(&p, "nanit/s\nabcit/s\n");
	assert_int_equal(p.not_number, 2);
	assert_int_equal(p.note_seq, 2);
	assert_non_null(strstr(p.note, "'nan'"));
	assert_non_null(strstr(p.note, "not a number"));
	progress_tick(&p, 2.0);
	assert_near(p.count, 10, 1e-9); /* the last good rate, integrated */
	assert_true(isfinite(p.rate));
	progress_free(&p);

	progress_init(&p, "step ([0-9e.]+)", false, err, sizeof(err));
	feed(&p, "step 5\nstep 1e300\nstep 1e16\nstep 7\n");
	assert_near(p.count, 7, 0);
	assert_int_equal(p.out_of_range, 2);
	assert_int_equal(p.note_seq, 1);
	progress_free(&p);
	/* a group that never captures: neither a zero nor a line counted,
	 * said once, here and through the matcher thread */
	for (int threaded = 0; threaded < 2; threaded++) {
		progress_init(&p, "^step( ([0-9]+))?", false, err, sizeof(err));
		if (threaded)
			assert_int_equal(progress_match_start(&p, 0), 0);
		feed(&p, "step\nstep\nstep x\n");
		assert_true(progress_settle(&p, 10));
		assert_int_equal(p.no_group, 3);
		assert_int_equal(p.matches, 0);
		assert_near(p.count, 0, 0);
		assert_int_equal(p.note_seq, 1);
		assert_non_null(strstr(p.note, "'step'"));
		assert_non_null(strstr(p.note, "no group taking part"));
		feed(&p, "step 4\nstep\n");
		assert_true(progress_settle(&p, 10));
		assert_near(p.count, 4, 0);
		assert_int_equal(p.no_group, 4);
		assert_int_equal(p.note_seq, 1); /* once */
		progress_free(&p);
	}
	/* an expression without groups still counts lines */
	progress_init(&p, "^step", false, err, sizeof(err));
	feed(&p, "step\nstep 9\n");
	assert_near(p.count, 2, 0);
	assert_int_equal(p.no_group, 0);
	progress_free(&p);
}

/* Matching cost is bounded where it can be, from the expression's text:
 * what glibc's regexec took seconds for on one 511-byte line (a
 * backreference; nested counted repetitions) is refused when compiled,
 * saying why; the syntax is POSIX egrep's, leftmost-longest, with \d and
 * \s as documented, byte by byte. */
static void test_bounded_cost(void **state)
{
	(void)state;
	struct progress p;
	char err[256];
	assert_int_equal(progress_init(&p, "(a*)*\\1b", false, err, sizeof(err)), -EINVAL);
	printf("# %s\n", err);
	assert_non_null(strstr(err, "--progress '(a*)*\\1b'"));
	assert_non_null(strstr(err, "backreference"));
	assert_int_equal(progress_init(&p, "(a{1,255}){1,255}b", false, err, sizeof(err)), -EINVAL);
	printf("# %s\n", err);
	assert_non_null(strstr(err, "cost per line"));
	assert_non_null(strstr(err, "65025"));
	/* the slowest kind of expression still taken: a line it has seen
	 * before is quick, a new one can take a second (test_tick_not_held) */
	assert_int_equal(progress_init(&p, "(.{1,190}a){1,5}x", false, err, sizeof(err)), 0);
	char line[512];
	memset(line, 'a', 510);
	line[510] = '\n';
	double t0 = tl_now_s();
	for (int i = 0; i < 100; i++)
		progress_feed(&p, line, 511);
	printf("# the same 511-byte line 100 times: %.1f ms a line\n", (tl_now_s() - t0) * 10);
	assert_int_equal(p.matches, 0);
	progress_free(&p);
	/* POSIX classes, \d and \s, leftmost-longest alternation */
	assert_int_equal(
	    progress_init(&p, "[[:digit:]]+\\s+steps? (\\d+)", false, err, sizeof(err)), 0);
	feed(&p, "12  steps 40\nd steps 41\n");
	assert_near(p.count, 40, 0);
	progress_free(&p);
	assert_int_equal(progress_init(&p, "x(1|12)", false, err, sizeof(err)), 0);
	feed(&p, "x12\n");
	assert_near(p.count, 12, 0); /* the longest, not the first alternative */
	progress_free(&p);
	/* bytes that are not UTF-8 are matched around, not a failure; '.'
	 * is one byte whatever the locale (threadlab runs in the user's) */
	assert_non_null(setlocale(LC_ALL, "C.UTF-8"));
	assert_int_equal(progress_init(&p, "^ok|^\xc3.x", false, err, sizeof(err)), 0);
	feed(&p, "ok \xff\xfe\n\xc3(ok\n\xc3\xa9x\n");
	assert_near(p.count, 2, 0);
	progress_free(&p);
	setlocale(LC_ALL, "C");
}

/* A job printing faster than the expression matches: lines go to the
 * matcher thread through a bounded queue; a line it has no room for, or
 * reaches after the budget, is skipped, counted and said once. */
static void test_budget(void **state)
{
	(void)state;
	struct progress p;
	char err[256];
	assert_int_equal(progress_init(&p, "^step", false, err, sizeof(err)), 0);
	assert_int_equal(progress_match_start(&p, 0.05), 0);
	size_t n = 400000, len = n * 5;
	char *buf = malloc(len);
	for (size_t i = 0; i < n; i++)
		memcpy(buf + 5 * i, "step\n", 5);
	progress_feed(&p, buf, len);
	assert_true(progress_settle(&p, 10));
	printf("# %lu matched, %lu skipped\n", p.matches, p.skipped);
	assert_true(p.skipped > 0 && p.matches > 0);
	assert_int_equal(p.matches + p.skipped, n);
	assert_int_equal(p.note_seq, 1);
	assert_non_null(strstr(p.note, "not counted"));
	progress_feed(&p, buf, len);
	assert_true(progress_settle(&p, 10));
	assert_int_equal(p.matches + p.skipped, 2 * n);
	assert_int_equal(p.note_seq, 1); /* once */
	progress_free(&p);
	/* without a budget, lines the queue has room for all count, in order */
	assert_int_equal(progress_init(&p, "step ([0-9]+)", false, err, sizeof(err)), 0);
	assert_int_equal(progress_match_start(&p, 0), 0);
	char line[32];
	for (int i = 1; i <= 20000; i++) {
		int k = snprintf(line, sizeof(line), "step %d\n", i);
		progress_feed(&p, line, (size_t)k);
		if (i % 1000 == 0)
			assert_true(progress_settle(&p, 10));
	}
	assert_int_equal(p.matches, 20000);
	assert_int_equal(p.skipped, 0);
	assert_near(p.count, 20000, 0); /* a count that went down would be a new run */
	free(buf);
	progress_free(&p);
}

/* 510 bytes of a and b from seed, a newline after: each such line costs
 * glibc about a second on a fresh '(.{1,190}a){1,5}x'. */
static void ab_line(char *line, uint32_t seed)
{
	tl_ab_text(line, 510, seed);
	line[510] = '\n';
}

/* An expression that is accepted but slow on some lines cannot hold a
 * tick: feeding and ticking take a small part of what one match takes
 * over the same while (a loaded machine slows both), and ending does not
 * wait for the match in progress. */
static void test_tick_not_held(void **state)
{
	(void)state;
	const char *re = "(.{1,190}a){1,5}x";
	struct progress p;
	char err[256], line[512];
	/* what one line costs, matched here */
	assert_int_equal(progress_init(&p, re, false, err, sizeof(err)), 0);
	ab_line(line, 1);
	double t0 = tl_now_s();
	progress_feed(&p, line, 511);
	double one = tl_now_s() - t0;
	progress_free(&p);
	printf("# one line matched in the caller: %.0f ms\n", one * 1e3);
	assert_true(one > 0.05);

	assert_int_equal(progress_init(&p, re, false, err, sizeof(err)), 0);
	assert_int_equal(progress_match_start(&p, 0.2), 0);
	/* 3 s at least, until the matcher has finished a slow match and
	 * skipped some (on a loaded machine its nice +10 may wait long for
	 * the CPU: 90 s at most) */
	double worst = 0, start = tl_now_s();
	for (uint32_t seed = 2;
	     tl_now_s() < start + 3 ||
	     ((p.skipped == 0 || matcher_longest(p.matcher) <= 0.05) && tl_now_s() < start + 90);
	     seed++) {
		ab_line(line, seed);
		t0 = tl_now_s();
		progress_feed(&p, line, 511);
		progress_tick(&p, tl_now_s());
		double dt = tl_now_s() - t0;
		worst = dt > worst ? dt : worst;
		tl_sleep_ms(20);
	}
	printf("# %.0f s of such lines: the slowest feed and tick %.2f ms; %lu matched, %lu "
	       "skipped, the slowest match %.0f ms\n",
	       tl_now_s() - start, worst * 1e3, p.matches + p.not_number, p.skipped,
	       matcher_longest(p.matcher) * 1e3);
	double longest = matcher_longest(p.matcher);
	assert_true(longest > 0.05);
	assert_true(worst < longest / 4);
	assert_true(p.skipped > 0);
	assert_non_null(strstr(p.note, "faster than they match"));
	progress_free(&p);
	/* a match in progress (the expression new, so the line is slow):
	 * ending returns at once */
	assert_int_equal(progress_init(&p, re, false, err, sizeof(err)), 0);
	assert_int_equal(progress_match_start(&p, 0.2), 0);
	ab_line(line, 1);
	progress_feed(&p, line, 511);
	for (int i = 0; i < 200 && !matcher_busy(p.matcher); i++)
		tl_sleep_ms(5);
	tl_sleep_ms(20);
	assert_true(matcher_busy(p.matcher));
	t0 = tl_now_s();
	progress_free(&p);
	double stop = tl_now_s() - t0;
	printf("# ended during a match in %.2f ms\n", stop * 1e3);
	assert_true(stop < longest / 4);
}

static void append(const char *path, const char *mode, const char *text)
{
	FILE *f = fopen(path, mode);
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* --log and --progress-file are refused up front when they cannot be what
 * they are for: a directory, a missing file to follow, a file that is not
 * an experiment log (a recording would get rows appended). */
static void test_files_refused(void **state)
{
	(void)state;
	char dir[] = "/tmp/tl-test-files-XXXXXX", path[256], err[512];
	assert_non_null(mkdtemp(dir));
	assert_int_equal(tail_check(dir), -EISDIR);
	snprintf(path, sizeof(path), "%s/missing.log", dir);
	assert_int_equal(tail_check(path), -ENOENT);
	assert_int_equal(tail_check("/dev/null"), -EINVAL);
	assert_int_equal(explog_check(path, err, sizeof(err)), 0); /* created on the first row */
	assert_int_equal(explog_check(dir, err, sizeof(err)), -EISDIR);
	assert_non_null(strstr(err, "directory"));
	append(path, "w", "");
	assert_int_equal(tail_check(path), 0);
	assert_int_equal(explog_check(path, err, sizeof(err)), 0); /* empty */
	append(
	    path, "w",
	    "{\"threadlab_recording\":1,\"mode\":\"lab\"}\n{\"time\":\"2026-12-01T00:00:00Z\"}\n");
	assert_int_equal(explog_check(path, err, sizeof(err)), -EINVAL);
	printf("# %s\n", err);
	assert_non_null(strstr(err, "not an experiment log"));
	append(path, "w", "hello\n");
	assert_int_equal(explog_check(path, err, sizeof(err)), -EINVAL);
	/* a log an earlier run wrote, with a torn line after its row */
	append(path, "w", "{\"setting\":{\"threads\":\"2\"},\"rate\":1e999,\"cpu\":-3}\n{\"sett");
	assert_int_equal(explog_check(path, err, sizeof(err)), 0);
	struct explog l;
	memset(&l, 0, sizeof(l));
	size_t skipped;
	assert_int_equal(explog_load(&l, path, &skipped), 1);
	assert_int_equal(skipped, 1);
	assert_true(l.row[0].rate < 0); /* 1e999 is no rate: unknown */
	assert_true(l.row[0].cpu == 0);
	unlink(path);
	rmdir(dir);
}

static void test_tail_rotation(void **state)
{
	(void)state;
	char dir[] = "/tmp/tl-tail-XXXXXX", path[64], old[80], buf[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/log", dir);
	snprintf(old, sizeof(old), "%s/log.1", dir);
	struct tail t;
	tail_open(&t, path); /* not there yet */
	assert_int_equal(tail_read(&t, buf, sizeof(buf)), 0);
	append(path, "w", "one\n");
	size_t n = tail_read(&t, buf, sizeof(buf));
	assert_int_equal(n, 4);
	append(path, "a", "two\n");
	assert_int_equal(tail_read(&t, buf, sizeof(buf)), 4);
	assert_memory_equal(buf, "two\n", 4);
	/* Rotated: the rest of the old file, then the new from its start. */
	append(path, "a", "three\n");
	assert_int_equal(rename(path, old), 0);
	append(path, "w", "four\n");
	n = tail_read(&t, buf, sizeof(buf));
	assert_int_equal(n, 6);
	assert_memory_equal(buf, "three\n", 6);
	n = tail_read(&t, buf, sizeof(buf));
	assert_int_equal(n, 5);
	assert_memory_equal(buf, "four\n", 5);
	/* Truncated: read again from the start. */
	append(path, "w", "5\n");
	n = tail_read(&t, buf, sizeof(buf));
	assert_int_equal(n, 2);
	assert_memory_equal(buf, "5\n", 2);
	tail_close(&t);
	/* Opened on an existing file: only what comes after counts. */
	tail_open(&t, path);
	assert_int_equal(tail_read(&t, buf, sizeof(buf)), 0);
	tail_close(&t);
	unlink(path);
	unlink(old);
	rmdir(dir);
}

static void row(struct explog *l, double rate, int threads, int streams)
{
	struct lab_settings s = lab_settings_default();
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
	sweep_cmd_out_best_text(line, sizeof(line), &b, 3);
	assert_non_null(strstr(line, "beyond the spread"));
	/* Within the spread: no clear winner. */
	r[0].rate_spread = 35;
	sweep_cmd_best(r, 4, &b);
	assert_int_equal(b.beyond, 0);
	sweep_cmd_out_best_text(line, sizeof(line), &b, 3);
	assert_non_null(strstr(line, "no clear winner"));
	/* One run each: no spread, cannot tell; the best still named. */
	for (size_t i = 0; i < 4; i++)
		r[i].rate_spread = NAN;
	sweep_cmd_best(r, 4, &b);
	assert_ptr_equal(b.best, &r[1]);
	assert_int_equal(b.beyond, -1);
	sweep_cmd_out_best_text(line, sizeof(line), &b, 1);
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
	sweep_cmd_out_best_text(line, sizeof(line), &b, 1);
	assert_non_null(strstr(line, "best: none"));
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
	assert_int_equal(sweep_cmd_add_knob(&o, "X=a,b", err, sizeof(err)), 0);
	o.seconds = 0.2;
	o.warmup = 0;
	o.command = cmd;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(sweep_cmd_out_run(&o, f, FORMAT_JSON, NULL), 0);
	fclose(f);
	json_object *d = json_tokener_parse(buf);
	if (!d)
		fail_msg("not one JSON document: %s", buf);
	json_object *rows, *best;
	assert_true(json_object_object_get_ex(d, "rows", &rows));
	assert_int_equal(json_object_array_length(rows), 2);
	assert_true(json_object_object_get_ex(d, "best", &best));
	assert_null(best);
	assert_true(json_object_object_get_ex(d, "environment", &best));
	json_object_put(d);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plain_match),
	    cmocka_unit_test(test_cumulative_and_tqdm),
	    cmocka_unit_test(test_rates),
	    cmocka_unit_test(test_tail_rotation),
	    cmocka_unit_test(test_explog),
	    cmocka_unit_test(test_explog_round_trip),
	    cmocka_unit_test(test_sweep_settings),
	    cmocka_unit_test(test_hostile_numbers),
	    cmocka_unit_test(test_bounded_cost),
	    cmocka_unit_test(test_budget),
	    cmocka_unit_test(test_tick_not_held),
	    cmocka_unit_test(test_files_refused),
	    cmocka_unit_test(test_sweep_environ),
	    cmocka_unit_test(test_sweep_best),
	    cmocka_unit_test(test_sweep_log_row),
	    cmocka_unit_test(test_sweep_json_document),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
