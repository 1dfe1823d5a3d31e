/* test-pattern.c — an expression's cost judged from its text
 * (pattern-cost.h), the expressions glibc compiles (pattern.h) and the
 * matcher thread (matcher.h): its order, its bounded queue, its budget,
 * and a stop that does not wait for a match. */
#include "tl-test.h"

#include "matcher.h"
#include "pattern-cost.h"
#include "pattern.h"

/* Refused, each with a reason naming the construct. */
static void test_refused(void **state)
{
	(void)state;
	static const struct {
		const char *re, *why;
	} bad[] = {
	    {"(a*)*\\1b", "backreferences are not supported: the cost of \\1"},
	    {"(x)\\9", "the cost of \\9 per line"},
	    {"(a{1,255}){1,255}b", "{1,255} over {1,255} repeats 65025 times, past 1000"},
	    {"((a{10}){10}){11}", "{11} over {10} repeats 1100 times"},
	    {"a{1001}", "{1001} repeats 1001 times, past 1000"},
	    {"(ab{2,}){501}", "{501} over {2,} repeats 1002 times"},
	    {"(abc){1,500}", "(abc){1,500} copies out to 3000 nodes, past 2000"},
	    {"((a*)+){1,51}b", "((a*)+){1,51} holds 51 loops over what can match nothing"},
	    {"((a?)*){60}", "holds 60 loops"},
	    {"((a|)*){60}", "holds 60 loops"},
	    {"((^)*){60}", "holds 60 loops"},
	    {"((\\b)+){60}", "holds 60 loops"},
	    {"(()*){60}", "holds 60 loops"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pattern_cost c;
		char why[256] = "";
		int rc = pattern_cost_check(bad[i].re, &c, why, sizeof(why));
		if (rc != -EINVAL || !strstr(why, bad[i].why)) {
			print_error("'%s': %d '%s', wanted '%s'\n", bad[i].re, rc, why, bad[i].why);
			fail();
		}
		assert_null(strchr(why, '\n'));
	}
	/* 2000 nodes past the limit, in text without any count */
	char big[2100];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	struct pattern_cost c;
	char why[256];
	assert_int_equal(pattern_cost_check(big, &c, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "the expression copies out to 2099 nodes"));
	/* groups nested past the depth regcomp parses by recursion */
	char deep[200];
	memset(deep, '(', 100);
	memset(deep + 100, ')', 99);
	deep[199] = '\0';
	assert_int_equal(pattern_cost_check(deep, &c, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "nested past 64"));
}

/* Accepted, with what they cost: brackets and escapes read as glibc
 * reads them (a '\' or '(' in a bracket is plain, "[]" starts one with a
 * ']'), counts multiplied only when nested. */
static void test_accepted(void **state)
{
	(void)state;
	static const struct {
		const char *re;
		long nodes, repeat, empty_loops;
	} ok[] = {
	    {"step ([0-9]+)", 9, 1, 0},
	    {"[\\1]", 1, 1, 0},		  /* '\' and '1', not a backreference */
	    {"[]\\1(]{3}", 6, 3, 0},	  /* ']' '\' '1' '(' */
	    {"[[:digit:]\\]x", 2, 1, 0},  /* the bracket ends at the first ']' */
	    {"[^]a]{2}(b)", 4 + 3, 2, 0}, /* ']' first after '^' is plain */
	    {"[[.].][=a=]]{4}", 8, 4, 0}, /* collating elements and classes */
	    {"a{1000}", 2000, 1000, 0},	  /* at the limits */
	    {"(a{10}){10}", 10 * 22 + 10, 100, 0},
	    {"a{2}b{3}c{4}", 4 + 6 + 8, 4, 0}, /* side by side: not multiplied */
	    {"x{,5}y{3,}", 10 + 8, 5, 0},
	    {"((a*)+){1,50}b", 401, 50, 50},
	    {"(a*)*", 5, 1, 1},
	    {"(a+)+", 5, 1, 0},	 /* its operand cannot match nothing */
	    {"a\\{2}", 4, 1, 0}, /* an escaped brace is a character */
	    {"a{x}|)", 6, 1, 0}, /* not a count; a lone ')' is itself */
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct pattern_cost c = {0};
		char why[256] = "";
		int rc = pattern_cost_check(ok[i].re, &c, why, sizeof(why));
		if (rc != 0 || c.nodes != ok[i].nodes || c.repeat != ok[i].repeat ||
		    c.empty_loops != ok[i].empty_loops) {
			print_error("'%s': %d '%s' nodes %ld repeat %ld loops %ld\n", ok[i].re, rc,
				    why, c.nodes, c.repeat, c.empty_loops);
			fail();
		}
	}
	assert_int_equal(pattern_cost_bracket("[abc]x"), 5);
	assert_int_equal(pattern_cost_bracket("[]]"), 3);
	assert_int_equal(pattern_cost_bracket("[^]]"), 4);
	assert_int_equal(pattern_cost_bracket("[[:alpha:]]"), 11);
	assert_int_equal(pattern_cost_bracket("[[:alpha]"), 0);
	assert_int_equal(pattern_cost_bracket("[abc"), 0);
}

/* What glibc compiles: \d outside brackets is a digit, inside it is '\'
 * or 'd'; regcomp's own refusals keep their message. */
static void test_compile(void **state)
{
	(void)state;
	char err[256];
	struct pattern_span m[3];
	struct pattern *p = pattern_compile("--match", "(\\d+)-\\D[\\d]", err, sizeof(err));
	assert_non_null(p);
	assert_int_equal(pattern_groups(p), 1);
	const char *t = "ab 42-xd";
	assert_true(pattern_match(p, t, strlen(t), m, 2));
	assert_int_equal(m[1].so, 3);
	assert_int_equal(m[1].eo, 5);
	assert_false(pattern_match(p, "42-x7", 5, NULL, 0));
	pattern_free(p);
	assert_null(pattern_compile("--match", "a{2,1}", err, sizeof(err)));
	assert_non_null(strstr(err, "--match 'a{2,1}': "));
	assert_null(pattern_compile("--progress", "(a*)*\\1", err, sizeof(err)));
	assert_non_null(strstr(err, "--progress '(a*)*\\1': backreferences"));
}

static int match_fn(const struct pattern *re, const char *text, size_t len,
		    struct matcher_result *r)
{
	r->value = (int)len;
	return pattern_match(re, text, len, NULL, 0);
}

/* Answers come in the order put, a full queue says so at once, a text
 * that waited past the budget is answered late without a match. */
static void test_matcher_queue(void **state)
{
	(void)state;
	char err[256];
	struct pattern *re = pattern_compile("--match", "^y", err, sizeof(err));
	struct matcher *m = matcher_start(re, match_fn, 4096, 100, 0);
	assert_non_null(m);
	size_t put = 0;
	char text[100], no[100];
	memset(text, 'y', sizeof(text));
	memset(no, 'n', sizeof(no));
	/* the ring wraps many times over; answers stay in order */
	for (int round = 0; round < 50; round++) {
		for (int k = 0; k < 20; k++)
			if (matcher_put(m, put, (put % 3) ? text : no, (put % 7) * 13,
					tl_now_s()) == 0)
				put++;
		struct matcher_result r;
		double end = tl_now_s() + 5;
		size_t got = put - matcher_pending(m);
		while (matcher_pending(m) > 0 && tl_now_s() < end) {
			if (!matcher_take(m, &r, NULL, NULL))
				continue;
			assert_int_equal(r.tag, got);
			assert_int_equal(r.value, (got % 7) * 13);
			assert_int_equal(r.status, (got % 3) && (got % 7) ? 1 : 0);
			got++;
		}
		assert_int_equal(matcher_pending(m), 0);
	}
	assert_true(put > 500);
	matcher_stop(m);

	/* a budget already passed when put: late, not matched */
	re = pattern_compile("--match", "^y", err, sizeof(err));
	m = matcher_start(re, match_fn, 4096, 100, 0.05);
	assert_int_equal(matcher_put(m, 1, "y", 1, tl_now_s() - 1), 0);
	assert_int_equal(matcher_put(m, 2, "y", 1, tl_now_s()), 0);
	struct matcher_result r;
	double end = tl_now_s() + 5;
	while (!matcher_take(m, &r, NULL, NULL) && tl_now_s() < end)
		;
	assert_int_equal(r.tag, 1);
	assert_int_equal(r.status, MATCHER_LATE);
	while (!matcher_take(m, &r, NULL, NULL) && tl_now_s() < end)
		;
	assert_int_equal(r.tag, 2);
	assert_int_equal(r.status, 1);
	matcher_stop(m);
}

/* A match that takes a second holds neither the owner's puts (a full
 * queue is refused at once) nor its stop. */
static void test_matcher_slow(void **state)
{
	(void)state;
	char err[256], line[511];
	tl_ab_text(line, sizeof(line) - 1, 1);
	line[sizeof(line) - 1] = '\0';
	struct pattern *re = pattern_compile("--match", "(.{1,190}a){1,5}x", err, sizeof(err));
	assert_non_null(re);
	double t0 = tl_now_s();
	assert_false(pattern_match(re, line, sizeof(line) - 1, NULL, 0));
	double one = tl_now_s() - t0;
	printf("# one line: %.0f ms\n", one * 1e3);
	pattern_free(re);
	assert_true(one > 0.05);

	re = pattern_compile("--match", "(.{1,190}a){1,5}x", err, sizeof(err));
	struct matcher *m = matcher_start(re, match_fn, 4096, sizeof(line), 0);
	assert_int_equal(matcher_put(m, 0, line, sizeof(line) - 1, tl_now_s()), 0);
	for (int i = 0; i < 200 && !matcher_busy(m); i++)
		tl_sleep_ms(5);
	assert_true(matcher_busy(m));
	double worst = 0;
	int full = 0;
	for (int i = 0; i < 100; i++) {
		t0 = tl_now_s();
		full += matcher_put(m, 1, line, sizeof(line) - 1, tl_now_s()) == -EAGAIN;
		double dt = tl_now_s() - t0;
		worst = dt > worst ? dt : worst;
	}
	assert_true(full > 90); /* 4 KiB holds a few such lines */
	assert_true(worst < one / 10);
	t0 = tl_now_s();
	matcher_stop(m);
	double stop = tl_now_s() - t0;
	printf("# puts at most %.3f ms, the stop %.3f ms, during a match of about %.0f ms\n",
	       worst * 1e3, stop * 1e3, one * 1e3);
	assert_true(stop < one / 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_refused),	 cmocka_unit_test(test_accepted),
	    cmocka_unit_test(test_compile),	 cmocka_unit_test(test_matcher_queue),
	    cmocka_unit_test(test_matcher_slow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
