/* tour-caption.c — the tour's captions and the figures line beside them
 * (tour.h).
 *
 * A caption is written once, from the figures its step measured, and quotes
 * only those figures (or the settings and budget the screen shows): the
 * dashboard prints the same figures on the line above it
 * (tour_caption_figures_text), so every number of a caption is on the screen beside
 * it.  Where a figure contradicts the lesson the caption names the
 * evidence instead of the lesson's claim. */
#define _GNU_SOURCE
#include "tour.h"
#include "tour-models.h"
#include "tour-impl.h"
#include "tour-caption.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const struct tour_step *tour_caption_compared(const struct tour *t, const struct tour_step *st)
{
	switch (st->kind) {
	case TOUR_OVER:
		return tour_find(t, TOUR_TWO);
	case TOUR_INTER:
		return tour_find(t, TOUR_INTRA);
	case TOUR_MORE_LOADERS:
		return tour_find(t, TOUR_INPUT_BOUND);
	case TOUR_SPIN_OPENMP:
		return tour_find(t, TOUR_SPIN_PTHREADS);
	case TOUR_SPIN_PASSIVE:
		return tour_find(t, TOUR_SPIN_OPENMP);
	case TOUR_TRIAD_ALL:
		return tour_find(t, TOUR_TRIAD_ONE);
	case TOUR_QUOTA:
	case TOUR_STEAL: {
		/* The same compute alone: no quota, no loaders, one stream. */
		const struct tour_step *same = NULL;
		for (size_t i = 0; i < t->nsteps; i++)
			if (t->step[i].measured && t->step[i].set.cpus <= 0 &&
			    t->step[i].set.kernel == SETTINGS_GEMM &&
			    t->step[i].set.threads == st->set.threads &&
			    t->step[i].set.streams == 1 && t->step[i].set.loaders == 0 &&
			    t->step[i].set.size == st->set.size)
				same = &t->step[i];
		return same;
	}
	default:
		return NULL;
	}
}

/* CPUs left for the loaders while compute runs one thread. */
static int tour_spare(const struct tour *t)
{
	return t->effective > 1 ? t->effective - 1 : 0;
}

void tour_caption_say(struct tour_text *x, const char *fmt, ...)
{
	va_list ap;
	if (x->len + 1 >= x->cap)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(x->p + x->len, x->cap - x->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		x->len = x->len + (size_t)n < x->cap ? x->len + (size_t)n : x->cap - 1;
}

/* Where a figure below expectation may come from, named on screen. */
static void evidence(struct tour_text *x, const struct tour_figures *f)
{
	bool any = false;
	if (f->other_cpus >= 0.2) {
		tour_caption_say(x, " Other processes used %.1f CPUs meanwhile (the per-CPU bars)",
				 f->other_cpus);
		any = true;
	}
	if (f->psi_some >= 5) {
		tour_caption_say(x, "%s CPU pressure (PSI some) was %.0f%%", any ? ";" : " The",
				 f->psi_some);
		any = true;
	}
	if (f->throttled_pct > 1) {
		tour_caption_say(x, "%s throttled in %.0f%% of periods",
				 any ? ";" : " The workload was", f->throttled_pct);
		any = true;
	}
	tour_caption_say(
	    x, any ? ": the machine is shared, so the figure reads low."
		   : " Nothing else on screen explains it: run the step again (p) on a quieter "
		     "machine.");
}

bool tour_caption_busy(const struct tour_figures *f)
{
	return f->other_cpus >= 0.3;
}

static void cap_single(struct tour_text *x, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	tour_caption_say(
	    x,
	    "One intra-op thread, one stream: %.1f GFLOP/s at n=%d %s. This is the "
	    "single-thread rate; the rest of the tour compares with it. The helper keeps %.2f "
	    "CPUs busy, %.2f of them inside GEMM calls.",
	    f->gflops, st->set.size, st->set.precision == SETTINGS_DOUBLE ? "dgemm" : "sgemm",
	    f->cpu_cpus, f->useful_cpus);
	if (f->best_single > 1.15 * f->gflops)
		tour_caption_say(
		    x,
		    " The lab's best 1-thread reading is %.1f GFLOP/s: the machine is busier now",
		    f->best_single);
	if (tour_caption_busy(f))
		tour_caption_say(
		    x,
		    "%s other processes used %.1f CPUs (PSI some %.0f%%), so this rate reads "
		    "low.",
		    f->best_single > 1.15 * f->gflops ? ";" : " Meanwhile", f->other_cpus,
		    f->psi_some > 0 ? f->psi_some : 0);
	else if (f->best_single > 1.15 * f->gflops)
		tour_caption_say(x, ".");
}

static void cap_results(struct tour_text *x, const struct tour_figures *f, int threads)
{
	if (!f->results_checked)
		tour_caption_say(x, " The results were not compared yet.");
	else if (f->results_equal)
		tour_caption_say(
		    x, " The results are bit for bit equal to the 1-thread reference: the thread "
		       "count changes the scheduling, not the mathematics.");
	else
		tour_caption_say(
		    x,
		    " The results differ from the 1-thread reference by at most %.2g: with %d "
		    "threads OpenBLAS adds the partial sums in another order (rounding, not an "
		    "error).",
		    f->max_diff, threads);
}

static void cap_two(struct tour_text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	double ideal = f->effective >= 1.95 ? 2.0 : f->effective > 1 ? f->effective : 1.0;
	(void)t;
	tour_caption_say(x, "Two intra-op threads per GEMM: %.1f GFLOP/s, %.2fx the single thread",
			 f->gflops, f->speedup);
	if (f->effective < 1.5)
		tour_caption_say(
		    x,
		    "; with %.2f effective CPUs the two threads take turns, so no speedup is "
		    "possible here.",
		    f->effective);
	else if (f->speedup >= 0.85 * ideal)
		tour_caption_say(x, " (ideal 2x): the GEMM splits cleanly over two cores.");
	else {
		tour_caption_say(x, ", short of the ideal 2x.");
		evidence(x, f);
	}
	cap_results(x, f, st->set.threads);
}

static void cap_over(struct tour_text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	const struct tour_step *two = tour_find(t, TOUR_TWO);
	tour_caption_say(
	    x,
	    "%d threads on %.2f effective CPUs: %.1f GFLOP/s, %.0f%% of the ceiling %.1f "
	    "(single-thread rate x CPUs)",
	    st->set.threads * st->set.streams, f->effective, f->gflops, f->ceiling_pct,
	    f->ceiling_gflops);
	if (two)
		tour_caption_say(x, ", against %.1f with 2 threads", two->fig.gflops);
	tour_caption_say(
	    x,
	    ". The threads waited %.0f%% of their runnable time in the run queue and each "
	    "was switched out %.0f times a second involuntarily",
	    f->wait_pct, f->ivcsw_per_s);
	if (two && f->gflops > two->fig.gflops * 1.05 && t->effective <= 2)
		tour_caption_say(
		    x, "; this time they were a little faster than 2 threads, within the noise "
		       "of a shared machine.");
	else
		tour_caption_say(x,
				 ": threads beyond the CPUs add waiting and switching, not speed.");
}

static void cap_inter(struct tour_text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	const struct tour_step *intra = tour_find(t, TOUR_INTRA);
	tour_caption_say(x, "n=256, %d stream%s x %d thread%s: %.1f GFLOP/s", st->set.streams,
			 st->set.streams == 1 ? "" : "s", st->set.threads,
			 st->set.threads == 1 ? "" : "s", f->gflops);
	if (!intra) {
		tour_caption_say(x, ".");
		return;
	}
	double a = intra->fig.gflops, b = f->gflops;
	if (intra->set.threads == st->set.threads && intra->set.streams == st->set.streams) {
		tour_caption_say(
		    x, ": with one effective CPU both steps run one thread, so there is nothing "
		       "to split.");
		return;
	}
	tour_caption_say(x, " against %.1f with 1 stream x %d threads: ", a, intra->set.threads);
	if (a <= 0 || fabs(b - a) < 0.05 * a)
		tour_caption_say(x, "about the same here.");
	else if (b > a)
		tour_caption_say(
		    x,
		    "inter-op wins by %.0f%%. Independent small GEMMs need no synchronisation "
		    "between threads, while intra-op threads split little work per call and "
		    "meet at every step.",
		    100.0 * (b - a) / a);
	else
		tour_caption_say(
		    x,
		    "intra-op wins by %.0f%% this time: the streams compete for cache and memory "
		    "bandwidth, or the machine was busy (%.1f CPUs used by others).",
		    100.0 * (a - b) / b, f->other_cpus);
}

static void cap_intra(struct tour_text *x, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	tour_caption_say(
	    x,
	    "n=256, 1 stream x %d thread%s: %.1f GFLOP/s. A small GEMM gives each thread little "
	    "work between synchronisations; the next step runs the same number of threads as "
	    "independent streams.",
	    st->set.threads, st->set.threads == 1 ? "" : "s", f->gflops);
}

static void cap_quota(struct tour_text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	if (f->throttled_pct < 0 && f->effective >= st->set.cpus + 0.5) {
		tour_caption_say(
		    x,
		    "A quota of %.2f CPUs could not be set here (no writable cpu controller: run "
		    "as root on a cgroup v1 or v2 host), so there is nothing to throttle.",
		    st->set.cpus);
		return;
	}
	tour_caption_say(
	    x,
	    "Quota %.2f CPUs: nproc still says %d and os.cpu_count() %d (affinity and online "
	    "CPUs), but the effective budget is %.2f CPUs. ",
	    st->set.cpus, f->affinity, f->online, f->effective);
	if (f->throttled_pct >= 1)
		tour_caption_say(
		    x,
		    "%d threads run in bursts and are throttled in %.0f%% of periods (%.2f s "
		    "per s); %.1f GFLOP/s",
		    st->set.threads, f->throttled_pct, f->throttled_s, f->gflops);
	else
		tour_caption_say(
		    x,
		    "%d threads were hardly throttled (%.0f%% of periods): other processes "
		    "used %.1f CPUs and left them less than the quota; %.1f GFLOP/s",
		    st->set.threads, f->throttled_pct > 0 ? f->throttled_pct : 0, f->other_cpus,
		    f->gflops);
	const struct tour_step *same = tour_caption_compared(t, st);
	if (same)
		tour_caption_say(x, " against %.1f without the quota", same->fig.gflops);
	if (same && f->gflops > 1.05 * same->fig.gflops)
		tour_caption_say(
		    x,
		    "; faster than without it, so the machine was busier during that earlier "
		    "step (%.1f CPUs used by others now)",
		    f->other_cpus);
	tour_caption_say(
	    x, ". A CPU limit is a time budget, not reserved cores: the threads still run on "
	       "every CPU until the period's budget is spent.");
}

static void cap_pipe(struct tour_text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	const struct tour_step *one = tour_find(t, TOUR_INPUT_BOUND);
	double per_cpu = st->set.prep_ms > 0 ? 1000.0 / st->set.prep_ms : 0;
	switch (st->kind) {
	case TOUR_INPUT_BOUND:
		tour_caption_say(
		    x,
		    "One loader spends %d ms of CPU on each batch, about three GEMMs' time: the "
		    "streams waited for input %.0f%% of the time and took %.1f batches/s; %.1f "
		    "GFLOP/s. With a whole CPU the loader makes %.1f batches/s, and it got %.0f%% "
		    "of one.",
		    st->set.prep_ms, f->input_wait_pct, f->batches_per_s, f->gflops, per_cpu,
		    f->loader_cpu_pct);
		if (f->input_wait_pct >= 30)
			tour_caption_say(
			    x, " The job is input-bound: faster loading helps, more threads would "
			       "not.");
		else
			tour_caption_say(
			    x,
			    " The wait is lower than the lesson expects: the GEMMs ran slower than "
			    "the single-thread rate says.");
		if (f->loader_cpu_pct < 80)
			evidence(x, f);
		break;
	case TOUR_MORE_LOADERS:
		tour_caption_say(x, "Two loaders: %.1f batches/s", f->batches_per_s);
		if (one)
			tour_caption_say(
			    x,
			    " (one loader: %.1f), input wait %.0f%% (was %.0f%%), %.1f GFLOP/s "
			    "(was %.1f)",
			    one->fig.batches_per_s, f->input_wait_pct, one->fig.input_wait_pct,
			    f->gflops, one->fig.gflops);
		tour_caption_say(x, "; the loaders use %.0f%% of a CPU.", f->loader_cpu_pct);
		if (one && f->batches_per_s < 0.95 * one->fig.batches_per_s) {
			tour_caption_say(x, " Fewer batches than one loader made.");
			evidence(x, f);
		} else if (tour_spare(t) < 2) {
			tour_caption_say(
			    x,
			    " %d spare CPU%s cannot run two loaders beside the GEMM at full "
			    "speed: the three share the CPUs%s.",
			    tour_spare(t), tour_spare(t) == 1 ? "" : "s",
			    f->input_wait_pct < 15 ? ", yet compute rarely waits now" : "");
		} else if (f->input_wait_pct < 15) {
			tour_caption_say(
			    x, " Compute rarely waits now: the pipeline keeps up (balanced).");
		} else {
			tour_caption_say(x, " Still input-bound.");
		}
		break;
	default: {
		/* Against compute on as many threads without loaders, if measured. */
		const struct tour_step *alone = tour_caption_compared(t, st);
		tour_caption_say(
		    x,
		    "Compute on all %d CPU%s (%d thread%s) beside two loaders: the loaders use "
		    "%.0f%% "
		    "of a CPU, input wait %.0f%%, %.1f GFLOP/s",
		    t->effective, t->effective == 1 ? "" : "s", st->set.threads,
		    st->set.threads == 1 ? "" : "s", f->loader_cpu_pct, f->input_wait_pct,
		    f->gflops);
		if (alone)
			tour_caption_say(x, " against %.1f without loaders", alone->fig.gflops);
		if (alone && f->gflops < alone->fig.gflops * 0.95 && f->input_wait_pct >= 20)
			tour_caption_say(
			    x,
			    ". The GEMMs now wait for input: compute's threads took the CPUs the "
			    "loaders needed, so the loaders fell behind (%.1f batches/s). Loaders "
			    "and "
			    "intra-op threads compete for one budget: raising either past it makes "
			    "the job slower.",
			    f->batches_per_s);
		else if (alone && f->gflops < alone->fig.gflops * 0.95)
			tour_caption_say(
			    x, ". The loaders' CPU came out of compute: when loaders and intra-op "
			       "threads together want more CPUs than the budget, adding either "
			       "makes the job slower.");
		else if (alone)
			tour_caption_say(
			    x,
			    ": no loss this time (the loaders' CPU was small or the machine "
			    "noisy: %.1f CPUs used by others).",
			    f->other_cpus);
		else
			tour_caption_say(x, ".");
		break;
	}
	}
}

static void cap_spin(struct tour_text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	const struct tour_step *pth = tour_find(t, TOUR_SPIN_PTHREADS);
	const struct tour_step *omp = tour_find(t, TOUR_SPIN_OPENMP);
	if (st->kind != TOUR_SPIN_PTHREADS && !t->have_openmp) {
		tour_caption_say(x,
				 "The OpenMP build of OpenBLAS is not installed here (apt install "
				 "libopenblas0-openmp): this step ran the pthreads build again.");
		return;
	}
	switch (st->kind) {
	case TOUR_SPIN_PTHREADS:
		tour_caption_say(
		    x,
		    "%d pool threads, the GEMM waiting for input %.0f%% of the time: the helper's "
		    "threads use %.2f CPUs, %.2f of it real work and %.2f spinning; %.1f GFLOP/s.",
		    st->set.threads, f->input_wait_pct, f->cpu_cpus, f->useful_cpus, f->spin_cpus,
		    f->gflops);
		if (f->spin_cpus >= 0.1)
			tour_caption_say(
			    x, " OpenBLAS's idle pthreads pool spins for a while "
			       "(OPENBLAS_THREAD_TIMEOUT) before it sleeps, burning CPU the loader "
			       "could use.");
		else
			tour_caption_say(
			    x,
			    " Hardly any spin this time: the pool idles only while the GEMM waits "
			    "(%.0f%% here), and spinning threads that lose their CPU to others "
			    "do not show as CPU (%.1f CPUs used by others).",
			    f->input_wait_pct, f->other_cpus);
		break;
	case TOUR_SPIN_OPENMP:
		tour_caption_say(
		    x,
		    "The OpenMP build (%s, libgomp) with the default wait policy: spin %.2f CPUs",
		    f->variant[0] ? f->variant : "?", f->spin_cpus);
		if (pth)
			tour_caption_say(x, " against %.2f on the pthreads build",
					 pth->fig.spin_cpus);
		tour_caption_say(x, "; %.1f GFLOP/s, input wait %.0f%%.", f->gflops,
				 f->input_wait_pct);
		if (pth && f->spin_cpus > pth->fig.spin_cpus + 0.05)
			tour_caption_say(
			    x, " Here libgomp spun more: its threads wait GOMP_SPINCOUNT spins "
			       "after every parallel region, and the pthreads pool's spin was cut "
			       "short.");
		else
			tour_caption_say(
			    x, " libgomp spins only briefly (GOMP_SPINCOUNT) before its threads "
			       "sleep.");
		break;
	default:
		tour_caption_say(
		    x,
		    "OMP_WAIT_POLICY=PASSIVE (--blas-spin off): idle threads sleep at once, spin "
		    "%.2f CPUs",
		    f->spin_cpus);
		if (omp)
			tour_caption_say(x, " (default policy: %.2f)", omp->fig.spin_cpus);
		tour_caption_say(x, "; %.1f GFLOP/s.", f->gflops);
		if (omp && f->spin_cpus > omp->fig.spin_cpus + 0.05)
			tour_caption_say(
			    x, " Passive waiting spun more than the default this time.");
		if (omp && f->spin_cpus > omp->fig.spin_cpus + 0.05)
			evidence(x, f);
		else
			tour_caption_say(
			    x, " Passive waiting costs a wake-up at each call, spinning costs CPU: "
			       "on a full machine the CPU matters more.");
		break;
	}
}

void tour_caption(const struct tour *t, size_t i, char *out, size_t cap)
{
	struct tour_text x = {out, cap, 0};
	const struct tour_step *st = &t->step[i];
	out[0] = '\0';
	switch (st->kind) {
	case TOUR_SINGLE:
		cap_single(&x, st);
		break;
	case TOUR_TWO:
		cap_two(&x, t, st);
		break;
	case TOUR_OVER:
		cap_over(&x, t, st);
		break;
	case TOUR_INTRA:
		cap_intra(&x, st);
		break;
	case TOUR_INTER:
		cap_inter(&x, t, st);
		break;
	case TOUR_QUOTA:
		cap_quota(&x, t, st);
		break;
	case TOUR_INPUT_BOUND:
	case TOUR_MORE_LOADERS:
	case TOUR_STEAL:
		cap_pipe(&x, t, st);
		break;
	case TOUR_SPIN_PTHREADS:
	case TOUR_SPIN_OPENMP:
	case TOUR_SPIN_PASSIVE:
		cap_spin(&x, t, st);
		break;
	case TOUR_AMDAHL:
	case TOUR_TRIAD_ONE:
	case TOUR_TRIAD_ALL:
		tour_models_caption(t, st, out, cap);
		break;
	}
	/* Every lesson measured beside a loaded machine says so, whichever
	 * its own words are (some said it, the others drew conclusions from
	 * figures other processes had lowered). */
	const struct tour_figures *f = &st->fig;
	x.len = strlen(out);
	if (tour_caption_busy(f) && !strstr(out, "ther processes used"))
		tour_caption_say(&x,
				 " Other processes used %.1f CPUs meanwhile (PSI some %.0f%%): "
				 "this step's figures read low.",
				 f->other_cpus > 0 ? f->other_cpus : 0,
				 f->psi_some > 0 ? f->psi_some : 0);
}

size_t tour_caption_figures_text(const struct tour *t, size_t i, char *out, size_t cap)
{
	struct tour_text x = {out, cap, 0};
	const struct tour_step *st = &t->step[i];
	const struct tour_figures *f = &st->fig;
	out[0] = '\0';
	if (!st->measured)
		return 0;
	tour_caption_say(&x, "measured %.1f s: %.1f GFLOP/s", f->seconds, f->gflops);
	if (f->single_gflops > 0) {
		tour_caption_say(&x, ", 1 thread %.1f", f->single_gflops);
		if (f->best_single > 0)
			tour_caption_say(&x, " (best %.1f)", f->best_single);
		tour_caption_say(&x, ", %.2fx, ideal %.1f, ceiling %.1f (%.0f%%), %.2f CPUs",
				 f->speedup, f->ideal_gflops, f->ceiling_gflops, f->ceiling_pct,
				 f->effective);
	} else
		tour_caption_say(&x, ", 1 thread not measured at this size, %.2f CPUs",
				 f->effective);
	tour_caption_say(&x,
			 ", wait %.0f%%, %.0f ivcs/s a thread, CPU %.2f (in %s %.2f, spin %.2f)",
			 f->wait_pct, f->ivcsw_per_s, f->cpu_cpus,
			 st->set.kernel == SETTINGS_TRIAD ? "the triad" : "GEMM", f->useful_cpus,
			 f->spin_cpus);
	tour_caption_say(&x, ", others %.1f CPUs", f->other_cpus);
	if (f->psi_some >= 0)
		tour_caption_say(&x, ", PSI %.0f%%", f->psi_some);
	if (f->throttled_pct >= 0)
		tour_caption_say(&x, ", throttled %.0f%% (%.2f s/s)", f->throttled_pct,
				 f->throttled_s);
	if (st->set.loaders > 0)
		tour_caption_say(
		    &x,
		    ", %d ms a batch, %.1f batches/s (%.1f with a whole CPU), input wait %.0f%%, "
		    "loaders %.0f%%",
		    st->set.prep_ms, f->batches_per_s,
		    st->set.prep_ms > 0 ? 1000.0 / st->set.prep_ms : 0, f->input_wait_pct,
		    f->loader_cpu_pct);
	if (!f->results_equal && f->results_checked)
		tour_caption_say(&x, ", results differ by %.2g", f->max_diff);
	x.len = tour_models_figures_text(st, out, cap, x.len);
	/* The earlier step the caption compares with, and its figures. */
	const struct tour_step *c = tour_caption_compared(t, st);
	if (c) {
		const struct tour_figures *g = &c->fig;
		double hi = fmax(f->gflops, g->gflops), lo = fmin(f->gflops, g->gflops);
		tour_caption_say(&x, "; step %zu (%s): %.1f GFLOP/s", (size_t)(c - t->step) + 1,
				 c->what, g->gflops);
		/* the words say which of the two was faster */
		if (lo > 0)
			tour_caption_say(&x, " (%s by %.0f%%)",
					 g->gflops > f->gflops ? "that step faster" : "this one faster",
					 100.0 * (hi - lo) / lo);
		tour_caption_say(&x, ", spin %.2f, others %.1f CPUs", g->spin_cpus,
				 g->other_cpus > 0 ? g->other_cpus : 0);
		if (c->set.loaders > 0)
			tour_caption_say(&x, ", %.1f batches/s, input wait %.0f%%",
					 g->batches_per_s, g->input_wait_pct);
	}
	return x.len;
}
