/* test-tour-models.c — the tour's lessons 8 and 9 (monitor/tour-models.c)
 * from figures set by hand: the Amdahl prediction is the fit of lessons
 * 1-3 evaluated at the new thread count, the error is measured against it,
 * the triad reads memory-bound and its caption says "still scales" or
 * "flattens" as the figures say; every number of each caption is on the
 * figures line beside it (the rule test-tour.sh checks on screen). */
#include "tl-test.h"

#include "knobs.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "amdahl.h"
#include "session.h"
#include "tour.h"
#include "tour-models.h"
#include "tour-caption.h"

static struct session sess;
static struct tour tour;

static struct tour_step *step(size_t i, enum tour_kind k, int lesson, int threads, double gflops)
{
	struct tour_step *st = &tour.step[i];
	memset(st, 0, sizeof(*st));
	st->kind = k;
	st->lesson = lesson;
	st->set = knobs_defaults();
	st->set.threads = threads;
	st->fig.gflops = gflops;
	st->fig.effective = 2;
	st->fig.speedup = gflops / 50.0;
	st->fig.single_gflops = 50;
	st->measured = true;
	if (tour.nsteps < i + 1)
		tour.nsteps = i + 1;
	return st;
}

/* Every number of text is a number of line (the figures) or of extra. */
static void numbers_on(const char *text, const char *line, const char *extra)
{
	for (const char *p = text; *p; p++) {
		if (!isdigit((unsigned char)*p) ||
		    (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '_')))
			continue;
		size_t n = strspn(p, "0123456789.");
		while (n && p[n - 1] == '.')
			n--;
		char num[32];
		snprintf(num, sizeof(num), "%.*s", (int)n, p);
		bool found = false;
		for (const char *h = line; (h = strstr(h, num)); h++)
			if ((h == line || !isdigit((unsigned char)h[-1])) &&
			    !isdigit((unsigned char)h[n]))
				found = true;
		if (extra && strstr(extra, num))
			found = true;
		if (!found)
			fail_msg("%s of the caption is not on its figures line:\n%s\n%s", num, text,
				 line);
		p += n - 1;
	}
}

static void test_amdahl_lesson(void **state)
{
	(void)state;
	memset(&tour, 0, sizeof(tour));
	tour.effective = 2;
	step(0, TOUR_SINGLE, 1, 1, 50);
	step(1, TOUR_TWO, 2, 2, 95);
	step(2, TOUR_OVER, 3, 4, 90);
	struct tour_step *am = step(3, TOUR_AMDAHL, 8, 3, 0);
	am->measured = false;
	tour_models_predict(&tour, am);
	/* The fit of the same three points, by amdahl.c directly. */
	struct amdahl_set set;
	amdahl_set_init(&set);
	amdahl_set_add(&set, 1, 1, false);
	amdahl_set_add(&set, 2, 95 / 50.0, false);
	amdahl_set_add(&set, 4, 90 / 50.0, false);
	struct amdahl_fit fit;
	assert_int_equal(amdahl_fit(&set, 2, &fit), 0);
	/* lesson 3's 4 threads outnumber the 2 CPUs: counted, not fitted */
	assert_int_equal(am->pre.fit_points, 2);
	assert_int_equal(am->pre.fit_beyond, 1);
	assert_int_equal(am->pre.fit_busy, 0);
	assert_near(am->pre.fit_s, fit.serial_fraction, 1e-12);
	assert_near(am->pre.predicted, amdahl_speedup(fit.serial_fraction, 3, 2), 1e-12);
	/* Then the window: 88 GFLOP/s, 1.76x. */
	am->fig.gflops = 88;
	am->fig.speedup = 88 / 50.0;
	am->fig.effective = 2;
	tour_models_figures(&tour, &sess, am);
	am->measured = true;
	double p = am->pre.predicted;
	assert_near(am->fig.pred_err_pct, 100 * (1.76 - p) / p, 1e-9);
	char cap[TOUR_CAPTION_LEN], line[2048];
	tour_caption(&tour, 3, cap, sizeof(cap));
	tour_caption_figures_text(&tour, 3, line, sizeof(line));
	assert_non_null(strstr(cap, "serial fraction"));
	assert_non_null(strstr(cap, "88.0 GFLOP/s"));
	assert_non_null(strstr(line, "Amdahl fit of 2 steps (1 left out): serial "));
	assert_non_null(strstr(cap, "Fitted to lessons one to three (1 left out: more threads "
				    "than CPUs), Amdahl's law gives"));
	numbers_on(cap, line, "3 threads");
	/* The step compared with, and which of the two was faster (it said
	 * "the faster" of the earlier one, whichever it was). */
	tour_caption_figures_text(&tour, 2, line, sizeof(line));
	assert_non_null(strstr(line, ": 95.0 GFLOP/s (that step faster by 6%)"));
	tour.step[2].fig.gflops = 120;
	tour_caption_figures_text(&tour, 2, line, sizeof(line));
	assert_non_null(strstr(line, ": 95.0 GFLOP/s (this one faster by 26%)"));
	tour.step[2].fig.gflops = 90;
	/* A lesson measured beside other processes says so once, in its own
	 * words or these, with the numbers its figures line shows. */
	am->fig.other_cpus = 0.9;
	am->fig.psi_some = 40;
	tour_caption(&tour, 3, cap, sizeof(cap));
	tour_caption_figures_text(&tour, 3, line, sizeof(line));
	assert_non_null(strstr(cap, "Other processes used 0.9 CPUs meanwhile (PSI some 40%)"));
	numbers_on(cap, line, "3 threads");
	tour.step[0].fig.other_cpus = 0.9;
	tour.step[0].fig.psi_some = 40;
	tour_caption(&tour, 0, cap, sizeof(cap));
	const char *once = strstr(cap, "ther processes used");
	assert_non_null(once);
	assert_null(strstr(once + 1, "ther processes used"));
	am->fig.other_cpus = am->fig.psi_some = tour.step[0].fig.other_cpus = 0;
	tour.step[0].fig.psi_some = 0;
	/* PSI alone (the lab's own threads waiting, or the step before) is
	 * no other process: no "figures read low" with others at 0.02 CPUs
	 * (12 of 15 captions said so on a quiet box). */
	am->fig.other_cpus = 0.02;
	am->fig.psi_some = 43;
	tour_caption(&tour, 3, cap, sizeof(cap));
	assert_null(strstr(cap, "ther processes used"));
	assert_null(strstr(cap, "read low"));
	am->fig.other_cpus = am->fig.psi_some = 0;
	/* Lesson 2 measured beside others (it read 0.58x): left out of the
	 * fit, not taken for a serial fraction of 1; nothing is left to fit,
	 * and the caption says why with the count its figures line shows. */
	tour.step[1].fig.other_cpus = 0.9;
	tour.step[1].fig.gflops = 29;
	tour_models_predict(&tour, am);
	assert_true(am->pre.fit_s < 0);
	assert_int_equal(am->pre.fit_busy, 1);
	assert_int_equal(am->pre.fit_beyond, 1);
	tour_models_figures(&tour, &sess, am);
	tour_caption(&tour, 3, cap, sizeof(cap));
	tour_caption_figures_text(&tour, 3, line, sizeof(line));
	assert_non_null(strstr(cap, "No prediction: 2 of lessons one to three left out (more "
				    "threads than CPUs, or other processes using CPUs meanwhile)"));
	assert_non_null(strstr(line, "Amdahl fit: none (2 left out)"));
	numbers_on(cap, line, "3 threads");
	tour.step[1].fig.other_cpus = 0;
	tour.step[1].fig.gflops = 95;
	/* Lesson 1 slowed by others: every speedup divides by its low rate,
	 * so every lesson is left out. */
	tour.step[0].fig.other_cpus = 0.9;
	tour_models_predict(&tour, am);
	assert_true(am->pre.fit_s < 0);
	assert_int_equal(am->pre.fit_busy, 3);
	tour.step[0].fig.other_cpus = 0;
	tour_models_predict(&tour, am);
	tour_models_figures(&tour, &sess, am);
	/* Nothing to fit without lesson 1. */
	tour.step[0].measured = false;
	tour_models_predict(&tour, am);
	assert_true(am->pre.fit_s < 0);
}

static void triad_case(double gflops_all, double memory_roof, const char *says)
{
	memset(&tour, 0, sizeof(tour));
	tour.effective = 2;
	step(0, TOUR_SINGLE, 1, 1, 50);
	step(1, TOUR_TWO, 2, 2, 95);
	struct tour_step *t1 = step(2, TOUR_TRIAD_ONE, 9, 1, 1.0);
	t1->set.kernel = SETTINGS_TRIAD;
	roofline_make(&sess.work.roofline, SETTINGS_TRIAD, 0, 4, 50, 2, memory_roof, 1.0);
	tour_models_figures(&tour, &sess, t1);
	assert_near(t1->fig.gbs, 6.0, 1e-12); /* 1 GFLOP/s at 1/6 FLOP/B */
	assert_string_equal(t1->fig.bound, "memory");
	char cap[TOUR_CAPTION_LEN], line[2048];
	tour_caption(&tour, 2, cap, sizeof(cap));
	tour_caption_figures_text(&tour, 2, line, sizeof(line));
	assert_non_null(strstr(cap, "memory-bound"));
	numbers_on(cap, line, NULL);
	struct tour_step *ta = step(3, TOUR_TRIAD_ALL, 9, 2, gflops_all);
	ta->set.kernel = SETTINGS_TRIAD;
	roofline_make(&sess.work.roofline, SETTINGS_TRIAD, 0, 4, 50, 2, memory_roof, gflops_all);
	tour_models_figures(&tour, &sess, ta);
	assert_near(ta->fig.triad_speedup, gflops_all, 1e-12);
	assert_near(ta->fig.gemm_speedup, 1.9, 1e-12);
	tour_caption(&tour, 3, cap, sizeof(cap));
	tour_caption_figures_text(&tour, 3, line, sizeof(line));
	assert_non_null(strstr(cap, says));
	numbers_on(cap, line, "2 threads");
}

static void test_triad_lesson(void **state)
{
	(void)state;
	triad_case(1.9, 14, "still scales");   /* 11.4 of 14 GB/s, 1.9x: it scales */
	triad_case(1.1, 7, "flattens at the"); /* 6.6 of 7 GB/s, 1.1x */
	triad_case(1.1, 20, "neither scales"); /* 6.6 of 20 GB/s, 1.1x */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_amdahl_lesson),
	    cmocka_unit_test(test_triad_lesson),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
