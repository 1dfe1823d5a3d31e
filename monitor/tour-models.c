/* tour-models.c — the tour's lessons on the two models (tour.h): Amdahl's
 * law fitted to lessons 1-3 and tested on one thread count they did not
 * measure (8), and the roofline seen from the triad at one thread and on
 * every CPU beside GEMM's two-thread speedup (9).
 *
 * As elsewhere in the tour a caption quotes only figures of the figures
 * line beside it (tour_models_figures_text adds the models' figures to
 * it), and says what was measured where it contradicts the lesson: a
 * prediction far off is put down to the box when others used CPUs, and the
 * triad that still scales is said to scale. */
#define _GNU_SOURCE
#include "tour.h"
#include "tour-models.h"
#include "tour-impl.h"
#include "tour-caption.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "amdahl.h"


void tour_models_predict(const struct tour *t, struct tour_step *st)
{
	struct tour_figures *p = &st->pre;
	memset(p, 0, sizeof(*p));
	p->fit_s = -1;
	const struct tour_step *one = tour_find(t, TOUR_SINGLE);
	if (!one || one->fig.gflops <= 0)
		return;
	struct amdahl_set set;
	amdahl_set_init(&set);
	double cpus = 0;
	for (size_t i = 0; i < t->nsteps; i++) {
		const struct tour_step *o = &t->step[i];
		const struct settings *w = &o->set;
		if (!o->measured || o == st || w->kernel != SETTINGS_GEMM ||
		    w->size != one->set.size || w->streams != 1 || w->loaders || w->cpus > 0 ||
		    w->blas != SETTINGS_BLAS_PTHREADS)
			continue;
		/* A lesson others slowed measured the box, not the workload
		 * (its caption said its figures read low): left out, as the
		 * sweep leaves out a contended row; every lesson when lesson 1,
		 * the rate each speedup divides by, was slowed. */
		amdahl_set_add(&set, w->threads, o->fig.gflops / one->fig.gflops,
			       tour_caption_busy(&o->fig) || tour_caption_busy(&one->fig));
		cpus = o->fig.effective;
	}
	struct amdahl_fit fit;
	int rc = amdahl_fit(&set, cpus > 0 ? cpus : t->effective, &fit);
	p->fit_points = fit.points_used;
	p->fit_busy = fit.points_excluded;
	p->fit_beyond = fit.points_beyond;
	if (rc < 0)
		return;
	p->fit_s = fit.serial_fraction;
	p->predicted = amdahl_speedup(fit.serial_fraction, st->set.threads, fit.cpus);
}

void tour_models_figures(const struct tour *t, const struct session *s, struct tour_step *st)
{
	struct tour_figures *f = &st->fig;
	const struct roofline *r = &s->work.roofline;
	f->fit_s = -1;
	f->gemm_speedup = f->triad_speedup = -1;
	if (st->kind == TOUR_AMDAHL) {
		f->fit_s = st->pre.fit_s;
		f->fit_points = st->pre.fit_points;
		f->fit_busy = st->pre.fit_busy;
		f->fit_beyond = st->pre.fit_beyond;
		f->predicted = st->pre.predicted;
		if (f->fit_s >= 0 && f->predicted > 0)
			f->pred_err_pct = 100.0 * (f->speedup - f->predicted) / f->predicted;
		return;
	}
	if (st->kind != TOUR_TRIAD_ONE && st->kind != TOUR_TRIAD_ALL)
		return;
	f->intensity = r->intensity;
	f->gbs = r->intensity > 0 ? f->gflops / r->intensity : 0;
	f->ridge = r->ridge;
	f->memory_roof = r->memory_roof;
	f->compute_roof = r->compute_roof;
	f->bound = roofline_bound_name(r->bound);
	const struct tour_step *one = tour_find(t, TOUR_SINGLE), *two = tour_find(t, TOUR_TWO);
	if (one && two && one->fig.gflops > 0)
		f->gemm_speedup = two->fig.gflops / one->fig.gflops;
	const struct tour_step *t1 = tour_find(t, TOUR_TRIAD_ONE);
	if (st->kind == TOUR_TRIAD_ALL && t1 && t1->fig.gflops > 0)
		f->triad_speedup = f->gflops / t1->fig.gflops;
}

/* Why lessons were left out of the fit, in words. */
static const char *tour_models_why_out(const struct tour_figures *f)
{
	if (f->fit_busy && f->fit_beyond)
		return "more threads than CPUs, or other processes using CPUs meanwhile";
	return f->fit_busy ? "other processes used CPUs meanwhile" : "more threads than CPUs";
}

static void cap_amdahl(struct tour_text *x, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	int out = f->fit_busy + f->fit_beyond;
	if (f->fit_s < 0) {
		if (out)
			tour_caption_say(x,
					 "%d threads: %.1f GFLOP/s, %.2fx one thread. No prediction: "
					 "%d of lessons one to three left out (%s) left nothing "
					 "above one thread to fit.",
					 st->set.threads, f->gflops, f->speedup, out,
					 tour_models_why_out(f));
		else
			tour_caption_say(x,
					 "%d threads: %.1f GFLOP/s, %.2fx one thread. No prediction: "
					 "lessons one to three were not all measured, so there was "
					 "nothing to fit.",
					 st->set.threads, f->gflops, f->speedup);
		return;
	}
	tour_caption_say(x, "Fitted to lessons one to three");
	if (out)
		tour_caption_say(x, " (%d left out: %s)", out, tour_models_why_out(f));
	tour_caption_say(
	    x,
	    ", Amdahl's law gives a serial fraction of %.3f and predicted %.2fx at %d threads on "
	    "%.2f CPUs. Measured: %.1f GFLOP/s, %.2fx, %+.0f%% off the prediction.",
	    f->fit_s, f->predicted, st->set.threads, f->effective, f->gflops, f->speedup,
	    f->pred_err_pct);
	if (fabs(f->pred_err_pct) <= 10)
		tour_caption_say(
		    x, " Close: the law, capped at the CPUs, describes this workload; more threads "
		       "than CPUs add nothing it does not foresee.");
	else if (f->other_cpus >= 0.2)
		tour_caption_say(
		    x,
		    " Far off, and other processes used %.1f CPUs meanwhile: the law knows only "
		    "this workload, not the box's neighbours.",
		    f->other_cpus);
	else
		tour_caption_say(
		    x, " Far off with nothing else on screen to blame: the law leaves out what "
		       "threads cost beyond the CPUs (switching, caches).");
}

static void cap_triad(struct tour_text *x, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	if (st->kind == TOUR_TRIAD_ONE) {
		tour_caption_say(
		    x,
		    "The triad, a += s x b over arrays far larger than the caches: %.1f GFLOP/s "
		    "moving %.1f GB/s.",
		    f->gflops, f->gbs);
		if (f->ridge > 0)
			tour_caption_say(
			    x,
			    " At %.3f FLOP/B it sits far below the ridge at %.2f FLOP/B (the %.1f "
			    "GFLOP/s compute roof over the %.1f GB/s memory roof): %s-bound. It "
			    "waits "
			    "on memory, not on arithmetic.",
			    f->intensity, f->ridge, f->compute_roof, f->memory_roof, f->bound);
		else
			tour_caption_say(
			    x, " At %.3f FLOP/B; the roofs were not both measured, so no bound.",
			    f->intensity);
		return;
	}
	tour_caption_say(x, "The triad on %d threads: %.1f GFLOP/s, %.1f GB/s", st->set.threads,
			 f->gflops, f->gbs);
	if (f->triad_speedup > 0)
		tour_caption_say(x, ", %.2fx its one thread", f->triad_speedup);
	if (f->gemm_speedup > 0)
		tour_caption_say(x, "; GEMM went %.2fx from one thread to two", f->gemm_speedup);
	tour_caption_say(x, ".");
	double ideal = fmin(st->set.threads, f->effective);
	if (f->triad_speedup <= 0 || f->memory_roof <= 0)
		return;
	if (f->triad_speedup >= 0.8 * ideal)
		tour_caption_say(
		    x,
		    " Here the bandwidth still scales: one thread alone does not use up the %.1f "
		    "GB/s this machine gives, so a second thread still helps the triad (on a "
		    "machine with more cores it flattens once the threads fill the bandwidth).",
		    f->memory_roof);
	else if (f->gbs >= 0.7 * f->memory_roof)
		tour_caption_say(
		    x,
		    " It flattens at the bandwidth: %.1f of the %.1f GB/s memory roof. More "
		    "threads "
		    "add arithmetic the triad cannot use; only more bandwidth would help.",
		    f->gbs, f->memory_roof);
	else
		tour_caption_say(
		    x,
		    " It neither scales nor reaches the %.1f GB/s memory roof: other processes "
		    "used %.1f CPUs meanwhile, and they share the memory too.",
		    f->memory_roof, f->other_cpus);
}

void tour_models_caption(const struct tour *t, const struct tour_step *st, char *out, size_t cap)
{
	(void)t;
	struct tour_text x = {out, cap, 0};
	out[0] = '\0';
	if (st->kind == TOUR_AMDAHL)
		cap_amdahl(&x, st);
	else
		cap_triad(&x, st);
}

size_t tour_models_figures_text(const struct tour_step *st, char *out, size_t cap, size_t len)
{
	struct tour_text x = {out, cap, len};
	const struct tour_figures *f = &st->fig;
	int left = f->fit_busy + f->fit_beyond;
	if (st->kind == TOUR_AMDAHL && (f->fit_s >= 0 || left)) {
		if (f->fit_s >= 0)
			tour_caption_say(&x, ", Amdahl fit of %d steps", f->fit_points);
		else
			tour_caption_say(&x, ", Amdahl fit: none");
		if (left)
			tour_caption_say(&x, " (%d left out)", left);
		if (f->fit_s >= 0)
			tour_caption_say(&x, ": serial %.3f, predicted %.2fx (%+.0f%%)", f->fit_s,
					 f->predicted, f->pred_err_pct);
	}
	if (st->kind == TOUR_TRIAD_ONE || st->kind == TOUR_TRIAD_ALL) {
		tour_caption_say(&x, ", %.1f GB/s, %.3f FLOP/B, %s-bound", f->gbs, f->intensity,
				 f->bound);
		if (f->ridge > 0)
			tour_caption_say(&x, " (ridge %.2f; roofs %.1f GFLOP/s, %.1f GB/s)",
					 f->ridge, f->compute_roof, f->memory_roof);
		if (f->triad_speedup > 0)
			tour_caption_say(&x, ", triad %.2fx", f->triad_speedup);
		if (f->gemm_speedup > 0)
			tour_caption_say(&x, ", GEMM 1 to 2 threads %.2fx", f->gemm_speedup);
	}
	return x.len;
}
