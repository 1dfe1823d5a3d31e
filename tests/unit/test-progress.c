/* test-progress.c — the job's progress counter (progress.h), the file
 * follower (tail.h) and the files --progress-file and --log refuse: pure
 * code and real files.  The experiment log's rows and the command sweep are
 * test-sweep-cmd.c's. */
#include "tl-test.h"

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <time.h>

#include "explog.h"
#include "explog-load.h"
#include "progress.h"
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
	printf("# %lu matched, %lu skipped (%lu for want of room): %s\n", p.matches, p.skipped,
	       p.skipped_full, p.note);
	assert_true(p.skipped > 0 && p.matches > 0);
	assert_int_equal(p.matches + p.skipped, n);
	/* each kind said once, naming its own reason */
	unsigned kinds = (p.skipped_full > 0) + (p.skipped > p.skipped_full);
	assert_int_equal(p.note_seq, kinds);
	assert_non_null(strstr(p.note, "not counted"));
	if (p.skipped_full > 0)
		assert_non_null(strstr(p.note, "queue was full"));
	if (p.skipped > p.skipped_full)
		assert_non_null(strstr(p.note, "not matched within 50 ms"));
	progress_feed(&p, buf, len);
	assert_true(progress_settle(&p, 10));
	assert_int_equal(p.matches + p.skipped, 2 * n);
	assert_int_equal(p.note_seq, (p.skipped_full > 0) + (p.skipped > p.skipped_full));
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
	assert_non_null(strstr(p.note, "not counted"));
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
	/* a kernel file: read anew each time, never appended to */
	assert_int_equal(tail_check("/proc/self/status"), -ENOTSUP);
	assert_int_equal(tail_check("/sys/devices/system/cpu/online"), -ENOTSUP);
	assert_int_equal(explog_load_check(path, err, sizeof(err)),
			 0); /* created on the first row */
	assert_int_equal(explog_load_check(dir, err, sizeof(err)), -EISDIR);
	assert_non_null(strstr(err, "directory"));
	append(path, "w", "");
	assert_int_equal(tail_check(path), 0);
	assert_int_equal(explog_load_check(path, err, sizeof(err)), 0); /* empty */
	append(
	    path, "w",
	    "{\"threadlab_recording\":1,\"mode\":\"lab\"}\n{\"time\":\"2026-12-01T00:00:00Z\"}\n");
	assert_int_equal(explog_load_check(path, err, sizeof(err)), -EINVAL);
	printf("# %s\n", err);
	assert_non_null(strstr(err, "not an experiment log"));
	append(path, "w", "hello\n");
	assert_int_equal(explog_load_check(path, err, sizeof(err)), -EINVAL);
	/* a log an earlier run wrote, with a torn line after its row */
	append(path, "w", "{\"setting\":{\"threads\":\"2\"},\"rate\":1e999,\"cpu\":-3}\n{\"sett");
	assert_int_equal(explog_load_check(path, err, sizeof(err)), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plain_match),	    cmocka_unit_test(test_cumulative_and_tqdm),
	    cmocka_unit_test(test_rates),	    cmocka_unit_test(test_tail_rotation),
	    cmocka_unit_test(test_hostile_numbers), cmocka_unit_test(test_bounded_cost),
	    cmocka_unit_test(test_budget),	    cmocka_unit_test(test_tick_not_held),
	    cmocka_unit_test(test_files_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
