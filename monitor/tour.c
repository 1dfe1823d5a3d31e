/* tour.c — the guided tour's lessons, their measurement and captions.
 *
 * The steps are built for E, the effective CPUs rounded down when the tour
 * starts, so a 2-CPU box and a 64-CPU box both get a sensible sequence
 * (tour.h).  The pipeline and spinning lessons size the loaders' work from
 * the single-thread rate of lesson 1 (a GEMM's time at the lesson's thread
 * count), so that one loader is slower than compute on any machine.
 *
 * Measurement: a window opens once the settings are in effect and the
 * warm-up went by; the lab's counters (FLOPs, batches, input wait, loader
 * CPU, CPU inside GEMM) are differenced over it, and the per-tick figures
 * of the collectors (the helpers' run-queue wait and involuntary switches,
 * throttling, other processes' CPU, pressure) are averaged over its ticks. */
#define _GNU_SOURCE
#include "tour.h"
#include "labview-ref.h"
#include "tour-models.h"
#include "tour-caption.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "knobs-view.h"
#include "knobs.h"
#include "session-impl.h"
#include "throughput.h"
#include "session-lab.h"

/* ---- the steps ----------------------------------------------------------- */

static const char *const lesson_title[TOUR_LESSONS + 1] = {
    "",
    "One thread",
    "Two threads per GEMM",
    "More threads than CPUs",
    "Intra-op against inter-op",
    "A CPU quota below the core count",
    "The input pipeline",
    "Spinning pool threads",
    "Amdahl's law: predict, then measure",
    "A memory-bound kernel and the roofline",
};

static void add_step(struct tour *t, int lesson, enum tour_kind k, const char *what, ...)
    __attribute__((format(printf, 4, 5)));
static void add_step(struct tour *t, int lesson, enum tour_kind k, const char *what, ...)
{
	va_list ap;
	if (t->nsteps >= TOUR_STEPS_MAX)
		return;
	struct tour_step *st = &t->step[t->nsteps++];
	memset(st, 0, sizeof(*st));
	st->lesson = lesson;
	st->kind = k;
	st->title = lesson_title[lesson];
	va_start(ap, what);
	vsnprintf(st->what, sizeof(st->what), what, ap);
	va_end(ap);
}

const struct tour_step *tour_find(const struct tour *t, enum tour_kind k)
{
	for (size_t i = 0; i < t->nsteps; i++)
		if (t->step[i].kind == k && t->step[i].measured)
			return &t->step[i];
	return NULL;
}

/* The single-thread rate known so far, GFLOP/s (lesson 1, else the lab's
 * cache, else a guess that only sizes the loaders' work). */
static double single_rate(const struct tour *t, const struct session *s)
{
	const struct tour_step *one = tour_find(t, TOUR_SINGLE);
	if (one && one->fig.gflops > 0)
		return one->fig.gflops;
	if (s->work.single_thread_gflops > 0)
		return s->work.single_thread_gflops;
	return 30.0;
}

/* A GEMM's time at n with threads, ms: from a step measured at that size
 * and thread count without loaders or quota, else from the single-thread
 * rate. */
static double gemm_ms(const struct tour *t, const struct session *s, int n, int threads)
{
	double r = 0;
	for (size_t i = 0; i < t->nsteps; i++) {
		const struct tour_step *st = &t->step[i];
		if (st->measured && st->set.kernel == SETTINGS_GEMM && st->set.size == n &&
		    st->set.threads == threads && st->set.streams == 1 && st->set.loaders == 0 &&
		    st->set.cpus <= 0)
			r = st->fig.gflops;
	}
	if (r <= 0)
		r = single_rate(t, s) * (threads < t->effective ? threads : t->effective);
	if (!(r > 0) || !isfinite(r))
		return 10.0; /* no rate known yet: a short GEMM's time */
	double ms = 2.0 * n * n * (double)n / (r * 1e9) * 1e3;
	return ms < 1e6 ? ms : 1e6; /* a count lround() can take */
}

/* The settings of step i, from the user's base and what was measured. */
static struct settings step_settings(const struct tour *t, const struct session *s, size_t i)
{
	const struct tour_step *st = &t->step[i];
	/* The knob table's defaults, but the user's size, precision and
	 * batch cost; a count within the knob table's range. */
	struct settings w = knobs_defaults();
	int e = t->effective;
	w.size = t->saved.size;
	w.precision = t->saved.precision;
	w.prep_ms = t->saved.prep_ms;
	switch (st->kind) {
	case TOUR_SINGLE:
		break;
	case TOUR_TWO:
		w.threads = 2;
		break;
	case TOUR_OVER:
		w.threads = knobs_view_clamp(KNOB_THREADS, 2 * e > e + 2 ? 2 * e : e + 2, 2);
		break;
	case TOUR_INTRA:
		w.size = 256;
		w.threads = knobs_view_clamp(KNOB_THREADS, e, 1);
		break;
	case TOUR_INTER:
		w.size = 256;
		w.streams = knobs_view_clamp(KNOB_STREAMS, e, 1);
		w.threads = knobs_view_clamp(KNOB_THREADS, e / w.streams, 1);
		break;
	case TOUR_QUOTA:
		w.threads = knobs_view_clamp(KNOB_THREADS, e, 1);
		w.cpus = e >= 2 ? floor(e / 2.0) : 0.5;
		break;
	case TOUR_INPUT_BOUND:
	case TOUR_MORE_LOADERS:
	case TOUR_STEAL:
		/* A batch costs three GEMMs of one thread: one loader feeds a
		 * third of them, so the lesson stays input-bound even when the
		 * GEMMs run slower than the best single-thread rate.  The last
		 * step gives compute every CPU, so the loaders' CPU must come out
		 * of it. */
		w.threads = st->kind == TOUR_STEAL ? knobs_view_clamp(KNOB_THREADS, e, 1) : 1;
		w.prep_ms =
		    knobs_view_clamp(KNOB_PREP_MS, (int)lround(3.0 * gemm_ms(t, s, w.size, 1)), 1);
		w.loaders = st->kind == TOUR_INPUT_BOUND ? 1 : 2;
		break;
	case TOUR_SPIN_PTHREADS:
	case TOUR_SPIN_OPENMP:
	case TOUR_SPIN_PASSIVE:
		/* The GEMM waits for input about half the time: the pool idles. */
		w.threads = knobs_view_clamp(KNOB_THREADS, e < 2 ? 2 : e, 2);
		w.loaders = 1;
		w.prep_ms = knobs_view_clamp(
		    KNOB_PREP_MS, (int)lround(2.0 * gemm_ms(t, s, w.size, w.threads)), 1);
		if (st->kind != TOUR_SPIN_PTHREADS && t->have_openmp)
			w.blas = SETTINGS_BLAS_OPENMP;
		w.spin_off = st->kind == TOUR_SPIN_PASSIVE;
		break;
	case TOUR_AMDAHL:
		/* A thread count lessons 1-3 did not measure. */
		w.threads = knobs_view_clamp(KNOB_THREADS, e > 2 ? e : 3, 1);
		break;
	case TOUR_TRIAD_ONE:
	case TOUR_TRIAD_ALL:
		w.kernel = SETTINGS_TRIAD;
		w.threads = st->kind == TOUR_TRIAD_ONE
				? 1
				: knobs_view_clamp(KNOB_THREADS, e < 2 ? 2 : e, 2);
		break;
	}
	return w;
}

static void tour_build(struct tour *t)
{
	t->nsteps = 0;
	add_step(t, 1, TOUR_SINGLE, "1 stream x 1 thread");
	add_step(t, 2, TOUR_TWO, "2 threads per GEMM");
	add_step(t, 3, TOUR_OVER, "threads beyond the effective CPUs");
	/* The same E threads as one stream, then as E streams (tour_start). */
	int e = t->effective;
	add_step(t, 4, TOUR_INTRA, "n=256: 1 stream x %d thread%s", e, e == 1 ? "" : "s");
	add_step(t, 4, TOUR_INTER, "n=256: %d stream%s x 1 thread", e, e == 1 ? "" : "s");
	add_step(t, 5, TOUR_QUOTA, "a quota of half the CPUs");
	add_step(t, 6, TOUR_INPUT_BOUND, "1 loader, a batch costs 3 GEMMs");
	add_step(t, 6, TOUR_MORE_LOADERS, "2 loaders");
	add_step(t, 6, TOUR_STEAL, "2 loaders, compute on every CPU");
	add_step(t, 7, TOUR_SPIN_PTHREADS, "pthreads build, default spin");
	add_step(t, 7, TOUR_SPIN_OPENMP, "OpenMP build, default wait policy");
	add_step(t, 7, TOUR_SPIN_PASSIVE, "OpenMP build, OMP_WAIT_POLICY=PASSIVE");
	add_step(t, 8, TOUR_AMDAHL, "predicted from lessons 1-3, then %d threads", e > 2 ? e : 3);
	add_step(t, 9, TOUR_TRIAD_ONE, "the triad, 1 thread");
	add_step(t, 9, TOUR_TRIAD_ALL, "the triad, %d threads", e < 2 ? 2 : e);
}

/* ---- moving through the steps ------------------------------------------- */

static void acc_begin(struct tour *t, const struct session *s, double now)
{
	const struct lab_status *st = &s->impl->lab_status;
	memset(&t->acc, 0, sizeof(t->acc));
	t->acc.t0 = now;
	t->acc.flops = st->flops;
	t->acc.batches = st->batches;
	t->acc.input_wait_ns = st->input_wait_ns;
	t->acc.loader_cpu_ns = st->loader_cpu_ns;
	for (int i = 0; i < st->nslots; i++)
		t->acc.busy_cpu_ns += st->stream[i].busy_cpu_ns;
}

static void begin_step(struct tour *t, struct session *s, size_t i, double now)
{
	t->cur = i;
	struct tour_step *st = &t->step[i];
	st->set = step_settings(t, s, i);
	st->measured = st->failed = false;
	st->caption[0] = '\0';
	if (st->kind == TOUR_AMDAHL)
		tour_models_predict(t, st);
	s->want = st->set;
	session_lab_apply(s);
	t->state = TOUR_SETTLING;
	t->t_state = now;
	t->acc.t0 = -1; /* not settled yet */
}

void tour_start(struct tour *t, struct session *s, double step_s, double hold_s, double now)
{
	memset(t, 0, sizeof(*t));
	t->step_s = step_s > 0 ? step_s : 6.0;
	t->warmup_s = fmax(0.5, fmin(1.5, t->step_s / 2));
	t->hold_s = hold_s;
	t->saved = s->want;
	/* The machine's budget, not the lab's own quota (the steps set their
	 * own): threadlab itself never runs in the lab's quota cgroup. */
	struct model_budget self;
	double e = s->impl->cur.budget.effective;
	char why[256];
	if (session_budget(s->cfg.root, 0, &self, why, sizeof(why)) == EXIT_OK)
		e = self.effective;
	t->effective = e >= 1 ? (int)floor(e + 1e-6) : 1;
	t->have_openmp = settings_blas_dir(SETTINGS_BLAS_OPENMP) != NULL;
	s->single_ref = 0;
	tour_build(t);
	begin_step(t, s, 0, now);
}

bool tour_active(const struct tour *t)
{
	return t->state != TOUR_OFF;
}

bool tour_running(const struct tour *t)
{
	return t->state != TOUR_OFF && t->state != TOUR_DONE;
}

void tour_stop(struct tour *t, struct session *s)
{
	if (t->state == TOUR_OFF)
		return;
	s->want = t->saved;
	s->single_ref = 0;
	session_lab_apply(s);
	t->state = TOUR_OFF;
}

bool tour_next(struct tour *t, struct session *s, double now)
{
	if (t->state == TOUR_OFF || t->cur + 1 >= t->nsteps)
		return false;
	begin_step(t, s, t->cur + 1, now);
	return true;
}

bool tour_prev(struct tour *t, struct session *s, double now)
{
	if (t->state == TOUR_OFF || t->cur == 0)
		return false;
	begin_step(t, s, t->cur - 1, now);
	return true;
}

static bool is_helper(const struct lab_status *st, pid_t pid)
{
	for (int i = 0; i < st->nslots && i < SETTINGS_MAX_STREAMS; i++)
		if (st->stream[i].pid == pid && pid > 0)
			return true;
	return false;
}

/* One tick's figures into the window's sums, weighted by the tick's span. */
static void acc_tick(struct tour *t, const struct session *s)
{
	const struct snapshot_rates *r = &s->impl->rates;
	if (!s->have_rates || r->dt <= 0)
		return;
	double dt = r->dt, run = 0, wait = 0, iv = 0;
	int ran = 0;
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct thread_rate *th = &r->threads[i];
		if (th->is_new || !is_helper(&s->impl->lab_status, th->pid))
			continue;
		run += th->cpu_pct;
		wait += th->wait_pct;
		/* Per thread, as the table shows it: of those that ran (parked
		 * pool threads neither run nor switch). */
		if (th->cpu_pct + th->wait_pct >= 1) {
			iv += th->ivcsw_per_s;
			ran++;
		}
	}
	iv = ran > 0 ? iv / ran : 0;
	struct tour_acc *a = &t->acc;
	a->ticks_dt += dt;
	a->run += run * dt;
	a->wait += wait * dt;
	a->ivcsw += iv * dt;
	a->cpu += s->work.cpu_cpus * dt;
	const struct cpu_usage *cu = &s->impl->cur.cpus;
	double other = cu->total_busy_pct / 100.0 * (double)cu->n - r->total_cpu_pct / 100.0;
	a->other += (other > 0 ? other : 0) * dt;
	if (r->throttle.valid && s->impl->lab_status.quota_cpus > 0) {
		a->thr_pct += r->throttle.throttled_pct * dt;
		a->thr_s += r->throttle.throttled_s_per_s * dt;
		a->thr_dt += dt;
	}
	if (s->impl->cur.psi_system.available) {
		a->psi += s->impl->cur.psi_system.some_avg10;
		a->psi_n += 1;
	}
}

static void acc_end(struct tour *t, const struct session *s, double now, struct tour_figures *f)
{
	const struct lab_status *st = &s->impl->lab_status;
	const struct tour_acc *a = &t->acc;
	const struct settings *w = &t->step[t->cur].set;
	double dt = now - a->t0, tdt = a->ticks_dt > 0 ? a->ticks_dt : 1;
	memset(f, 0, sizeof(*f));
	f->seconds = dt;
	if (dt <= 0)
		return;
	f->gflops = throughput_gflops(throughput_delta(a->flops, st->flops), dt);
	const struct tour_step *one = tour_find(t, TOUR_SINGLE);
	f->single_gflops = one ? one->fig.gflops : single_rate(t, s);
	/* Speedups are to one thread at the same n and kernel: at another the
	 * lab's own reading there, or none (not lesson 1's n=768 rate). */
	if (one && (settings_rate_key(w) != settings_rate_key(&one->set) ||
		    w->precision != one->set.precision))
		f->single_gflops = s->work.single_thread_gflops;
	/* The triad's one-thread lesson is its own reference, and the
	 * triad on every CPU divides by it, as its caption does. */
	enum tour_kind kind = t->step[t->cur].kind;
	const struct tour_step *t1 = tour_find(t, TOUR_TRIAD_ONE);
	if (kind == TOUR_SINGLE || kind == TOUR_TRIAD_ONE)
		f->single_gflops = f->gflops;
	else if (kind == TOUR_TRIAD_ALL && t1 && t1->measured && t1->fig.gflops > 0)
		f->single_gflops = t1->fig.gflops;
	/* The lab's own best one-thread reading at this n (its calibration),
	 * not the reference the tour feeds the header (lesson 1's). */
	f->best_single = labview_ref_single(&s->view, settings_rate_key(w), (int)w->precision);
	f->effective = s->impl->cur.budget.effective;
	f->online = s->impl->cur.budget.online;
	f->affinity = s->impl->cur.budget.affinity;
	f->speedup = throughput_speedup(f->gflops, f->single_gflops);
	f->ideal_gflops =
	    throughput_ideal(f->single_gflops, (double)w->threads * w->streams, f->effective);
	f->ceiling_gflops = throughput_ceiling(f->single_gflops, f->effective);
	f->ceiling_pct = throughput_ceiling_pct(f->gflops, f->ceiling_gflops);
	f->wait_pct = a->run + a->wait > 0 ? 100.0 * a->wait / (a->run + a->wait) : 0;
	f->ivcsw_per_s = a->ivcsw / tdt;
	f->throttled_pct = a->thr_dt > 0 ? a->thr_pct / a->thr_dt : -1;
	f->throttled_s = a->thr_dt > 0 ? a->thr_s / a->thr_dt : 0;
	f->batches_per_s = (double)throughput_delta(a->batches, st->batches) / dt;
	f->input_wait_pct =
	    w->loaders > 0 ? 100.0 * (double)throughput_delta(a->input_wait_ns, st->input_wait_ns) /
				 (dt * 1e9 * (w->streams > 0 ? w->streams : 1))
			   : 0;
	f->input_wait_pct = f->input_wait_pct > 100 ? 100 : f->input_wait_pct;
	f->loader_cpu_pct =
	    100.0 * (double)throughput_delta(a->loader_cpu_ns, st->loader_cpu_ns) / (dt * 1e9);
	uint64_t busy = 0;
	for (int i = 0; i < st->nslots; i++)
		busy += st->stream[i].busy_cpu_ns;
	f->useful_cpus = (double)(busy - a->busy_cpu_ns) / (dt * 1e9);
	f->cpu_cpus = a->cpu / tdt;
	if (f->useful_cpus > f->cpu_cpus)
		f->useful_cpus = f->cpu_cpus;
	f->spin_cpus = f->cpu_cpus - f->useful_cpus;
	f->other_cpus = a->other / tdt;
	f->psi_some = a->psi_n > 0 ? a->psi / a->psi_n : -1;
	f->results_checked = st->epoch_checked > 0;
	f->results_equal = st->epoch_results_equal;
	f->max_diff = st->epoch_max_diff;
	f->variant = st->blas_variant ? st->blas_variant : "";
}

/* The step could not be measured: its caption says why. */
static void step_fail(struct tour *t, struct session *s, const char *why)
{
	struct tour_step *st = &t->step[t->cur];
	st->failed = true;
	st->measured = false;
	char what[sizeof(st->what)];
	memcpy(what, st->what, sizeof(what));
	snprintf(st->caption, sizeof(st->caption), "%s: this step was skipped (%s).", what, why);
	(void)s;
}

static void advance(struct tour *t, struct session *s, double now)
{
	if (t->cur + 1 < t->nsteps) {
		begin_step(t, s, t->cur + 1, now);
		return;
	}
	/* Past the last step: the user's settings come back. */
	s->want = t->saved;
	s->single_ref = 0;
	session_lab_apply(s);
	t->state = TOUR_DONE;
	t->t_state = now;
}

bool tour_tick(struct tour *t, struct session *s, double now)
{
	struct tour_step *st = &t->step[t->cur];
	bool applied = session_lab_pending(s) == 0 && s->impl->lab_status.applied;
	switch (t->state) {
	case TOUR_OFF:
	case TOUR_DONE:
		return false;
	case TOUR_SETTLING:
		if (s->work.error[0] || now - t->t_state > TOUR_SETTLE_S) {
			step_fail(t, s,
				  s->work.error[0]
				      ? s->work.error
				      : "the workload did not apply the settings in time");
			t->state = TOUR_SHOWING;
			t->t_state = now;
			t->finished++;
			return true;
		}
		if (!applied) {
			t->acc.t0 = -1;
			return false;
		}
		if (t->acc.t0 < 0)
			t->acc.t0 = now; /* settled: the warm-up starts */
		if (now - t->acc.t0 >= t->warmup_s) {
			acc_begin(t, s, now);
			t->state = TOUR_MEASURING;
			t->t_state = now;
		}
		return false;
	case TOUR_MEASURING:
		if (!applied) { /* something changed the settings: start over */
			t->state = TOUR_SETTLING;
			t->acc.t0 = -1;
			return false;
		}
		acc_tick(t, s);
		if (now - t->acc.t0 < t->step_s)
			return false;
		acc_end(t, s, now, &st->fig);
		tour_models_figures(t, s, st);
		st->measured = true;
		/* The screen's ideal and ceiling use the rate this lesson
		 * measured, under the conditions of the tour: its captions and
		 * the header then quote one reference. */
		if (st->kind == TOUR_SINGLE && st->fig.gflops > 0) {
			s->single_ref = st->fig.gflops;
			s->single_ref_key = settings_rate_key(&st->set);
			s->single_ref_precision = (int)st->set.precision;
		}
		tour_caption(t, t->cur, st->caption, sizeof(st->caption));
		t->state = TOUR_SHOWING;
		t->t_state = now;
		t->finished++;
		return true;
	case TOUR_SHOWING:
		if (!t->paused && now - t->t_state >= t->hold_s)
			advance(t, s, now);
		return false;
	}
	return false;
}

size_t tour_status(const struct tour *t, double now, char *out, size_t cap)
{
	const struct tour_step *st = &t->step[t->cur];
	int n = 0;
	switch (t->state) {
	case TOUR_OFF:
		n = snprintf(out, cap, "tour off");
		break;
	case TOUR_DONE:
		n = snprintf(out, cap, "tour done: your settings are back (t starts it again)");
		break;
	case TOUR_SETTLING:
		n = snprintf(out, cap, "tour %d/%d %s: step %zu/%zu, %s: setting up", st->lesson,
			     TOUR_LESSONS, st->title, t->cur + 1, t->nsteps, st->what);
		break;
	case TOUR_MEASURING:
		n = snprintf(out, cap, "tour %d/%d %s: step %zu/%zu, %s: measuring %.1f of %.1f s",
			     st->lesson, TOUR_LESSONS, st->title, t->cur + 1, t->nsteps, st->what,
			     fmin(now - t->acc.t0, t->step_s), t->step_s);
		break;
	case TOUR_SHOWING:
		if (t->paused)
			n = snprintf(out, cap, "tour %d/%d %s: step %zu/%zu PAUSED (space goes on)",
				     st->lesson, TOUR_LESSONS, st->title, t->cur + 1, t->nsteps);
		else
			n = snprintf(out, cap, "tour %d/%d %s: step %zu/%zu, %s: next in %.0f s",
				     st->lesson, TOUR_LESSONS, st->title, t->cur + 1, t->nsteps,
				     st->what, fmax(0, t->hold_s - (now - t->t_state)));
		break;
	}
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

size_t tour_settings_text(const struct settings *s, char *out, size_t cap)
{
	char quota[32] = "none";
	if (s->cpus > 0)
		snprintf(quota, sizeof(quota), "%.2f CPUs", s->cpus);
	char what[32];
	if (s->kernel == SETTINGS_TRIAD)
		snprintf(what, sizeof(what), "triad");
	else
		snprintf(what, sizeof(what), "%s=%d", knobs_get(KNOB_SIZE)->label, s->size);
#define N(k) knobs_get(k)->label
	int n =
	    snprintf(out, cap, "%s %d, %s %d, %s %s, %s %s, %s %d (%d ms, %s %d), %s, %s %s",
		     N(KNOB_THREADS), s->threads, N(KNOB_STREAMS), s->streams, what,
		     s->precision == SETTINGS_DOUBLE ? "double" : "single", N(KNOB_CPUS), quota,
		     N(KNOB_LOADERS), s->loaders, s->prep_ms, N(KNOB_PREFETCH), s->prefetch,
		     settings_blas_name(s->blas), N(KNOB_SPIN), s->spin_off ? "off" : "default");
#undef N
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}
