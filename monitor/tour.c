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

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "throughput.h"

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
};

static void add_step(struct tour *t, int lesson, enum tour_kind k, const char *what)
{
	if (t->nsteps >= TOUR_STEPS_MAX)
		return;
	struct tour_step *st = &t->step[t->nsteps++];
	memset(st, 0, sizeof(*st));
	st->lesson = lesson;
	st->kind = k;
	st->title = lesson_title[lesson];
	st->what = what;
}

static const struct tour_step *find(const struct tour *t, enum tour_kind k)
{
	for (size_t i = 0; i < t->nsteps; i++)
		if (t->step[i].kind == k && t->step[i].measured)
			return &t->step[i];
	return NULL;
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The single-thread rate known so far, GFLOP/s (lesson 1, else the lab's
 * cache, else a guess that only sizes the loaders' work). */
static double single_rate(const struct tour *t, const struct session *s)
{
	const struct tour_step *one = find(t, TOUR_SINGLE);
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
		if (st->measured && st->set.size == n && st->set.threads == threads &&
		    st->set.streams == 1 && st->set.loaders == 0 && st->set.cpus <= 0)
			r = st->fig.gflops;
	}
	if (r <= 0)
		r = single_rate(t, s) * (threads < t->effective ? threads : t->effective);
	return 2.0 * n * n * (double)n / (r * 1e9) * 1e3;
}

/* CPUs left for the loaders while compute runs one thread. */
static int spare_cpus(const struct tour *t)
{
	return t->effective > 1 ? t->effective - 1 : 0;
}

/* The settings of step i, from the user's base and what was measured. */
static struct lab_settings step_settings(const struct tour *t, const struct session *s, size_t i)
{
	const struct tour_step *st = &t->step[i];
	struct lab_settings w = t->saved;
	int e = t->effective;
	w.paused = false;
	w.workers = 0;
	w.cpus = 0;
	w.loaders = 0;
	w.streams = 1;
	w.threads = 1;
	w.blas = LAB_BLAS_PTHREADS;
	w.spin_off = false;
	w.prefetch = 2;
	switch (st->kind) {
	case TOUR_SINGLE:
		break;
	case TOUR_TWO:
		w.threads = 2;
		break;
	case TOUR_OVER:
		w.threads = clampi(2 * e > e + 2 ? 2 * e : e + 2, 2, CTL_MAX_THREADS);
		break;
	case TOUR_INTRA:
		w.size = 256;
		w.threads = clampi(e, 1, CTL_MAX_THREADS);
		break;
	case TOUR_INTER:
		w.size = 256;
		w.streams = clampi(e, 1, CTL_MAX_STREAMS);
		w.threads = clampi(e / w.streams, 1, CTL_MAX_THREADS);
		break;
	case TOUR_QUOTA:
		w.threads = clampi(e, 1, CTL_MAX_THREADS);
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
		w.threads = st->kind == TOUR_STEAL ? clampi(e, 1, CTL_MAX_THREADS) : 1;
		w.prep_ms = clampi((int)lround(3.0 * gemm_ms(t, s, w.size, 1)), 1, CTL_MAX_PREP_MS);
		w.loaders = st->kind == TOUR_INPUT_BOUND ? 1 : 2;
		break;
	case TOUR_SPIN_PTHREADS:
	case TOUR_SPIN_OPENMP:
	case TOUR_SPIN_PASSIVE:
		/* The GEMM waits for input about half the time: the pool idles. */
		w.threads = clampi(e < 2 ? 2 : e, 2, CTL_MAX_THREADS);
		w.loaders = 1;
		w.prep_ms =
		    clampi((int)lround(2.0 * gemm_ms(t, s, w.size, w.threads)), 1, CTL_MAX_PREP_MS);
		if (st->kind != TOUR_SPIN_PTHREADS && t->have_openmp)
			w.blas = LAB_BLAS_OPENMP;
		w.spin_off = st->kind == TOUR_SPIN_PASSIVE;
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
	add_step(t, 4, TOUR_INTRA, "n=256: 1 stream x E threads");
	add_step(t, 4, TOUR_INTER, "n=256: E streams x 1 thread");
	add_step(t, 5, TOUR_QUOTA, "a quota of half the CPUs");
	add_step(t, 6, TOUR_INPUT_BOUND, "1 loader, a batch costs 3 GEMMs");
	add_step(t, 6, TOUR_MORE_LOADERS, "2 loaders");
	add_step(t, 6, TOUR_STEAL, "2 loaders, compute on every CPU");
	add_step(t, 7, TOUR_SPIN_PTHREADS, "pthreads build, default spin");
	add_step(t, 7, TOUR_SPIN_OPENMP, "OpenMP build, default wait policy");
	add_step(t, 7, TOUR_SPIN_PASSIVE, "OpenMP build, OMP_WAIT_POLICY=PASSIVE");
}

/* ---- moving through the steps ------------------------------------------- */

static void acc_begin(struct tour *t, const struct session *s, double now)
{
	const struct lab_status *st = &s->lab_status;
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
	s->want = st->set;
	session_apply(s);
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
	struct budget self;
	double e = s->cur.budget.effective;
	char why[256];
	if (session_budget(s->cfg.root, 0, &self, why, sizeof(why)) == EXIT_OK)
		e = self.effective;
	t->effective = e >= 1 ? (int)floor(e + 1e-6) : 1;
	t->have_openmp = lab_blas_dir(LAB_BLAS_OPENMP) != NULL;
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
	session_apply(s);
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
	for (int i = 0; i < st->nslots && i < CTL_MAX_STREAMS; i++)
		if (st->stream[i].pid == pid && pid > 0)
			return true;
	return false;
}

/* One tick's figures into the window's sums, weighted by the tick's span. */
static void acc_tick(struct tour *t, const struct session *s)
{
	const struct snapshot_rates *r = &s->rates;
	if (!s->have_rates || r->dt <= 0)
		return;
	double dt = r->dt, run = 0, wait = 0, iv = 0;
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct thread_rate *th = &r->threads[i];
		if (th->is_new || !is_helper(&s->lab_status, th->pid))
			continue;
		run += th->cpu_pct;
		wait += th->wait_pct;
		iv += th->ivcsw_per_s;
	}
	struct tour_acc *a = &t->acc;
	a->ticks_dt += dt;
	a->run += run * dt;
	a->wait += wait * dt;
	a->ivcsw += iv * dt;
	a->cpu += s->work.cpu_cpus * dt;
	const struct cpu_usage *cu = &s->cur.cpus;
	double other = cu->total_busy_pct / 100.0 * (double)cu->n - r->total_cpu_pct / 100.0;
	a->other += (other > 0 ? other : 0) * dt;
	if (r->throttle.valid && s->lab_status.quota_cpus > 0) {
		a->thr_pct += r->throttle.throttled_pct * dt;
		a->thr_s += r->throttle.throttled_s_per_s * dt;
		a->thr_dt += dt;
	}
	if (s->cur.psi_system.available) {
		a->psi += s->cur.psi_system.some_avg10;
		a->psi_n += 1;
	}
}

static void acc_end(struct tour *t, const struct session *s, double now, struct tour_figures *f)
{
	const struct lab_status *st = &s->lab_status;
	const struct tour_acc *a = &t->acc;
	const struct lab_settings *w = &t->step[t->cur].set;
	double dt = now - a->t0, tdt = a->ticks_dt > 0 ? a->ticks_dt : 1;
	memset(f, 0, sizeof(*f));
	f->seconds = dt;
	if (dt <= 0)
		return;
	f->gflops = throughput_gflops(st->flops - a->flops, dt);
	const struct tour_step *one = find(t, TOUR_SINGLE);
	f->single_gflops = one ? one->fig.gflops : single_rate(t, s);
	if (t->step[t->cur].kind == TOUR_SINGLE)
		f->single_gflops = f->gflops;
	f->best_single = s->work.single_thread_gflops;
	f->effective = s->cur.budget.effective;
	f->online = s->cur.budget.online;
	f->affinity = s->cur.budget.affinity;
	f->speedup = throughput_speedup(f->gflops, f->single_gflops);
	f->ideal_gflops =
	    throughput_ideal(f->single_gflops, (double)w->threads * w->streams, f->effective);
	f->ceiling_gflops = throughput_ceiling(f->single_gflops, f->effective);
	f->ceiling_pct = throughput_ceiling_pct(f->gflops, f->ceiling_gflops);
	f->wait_pct = a->run + a->wait > 0 ? 100.0 * a->wait / (a->run + a->wait) : 0;
	f->ivcsw_per_s = a->ivcsw / tdt;
	f->throttled_pct = a->thr_dt > 0 ? a->thr_pct / a->thr_dt : -1;
	f->throttled_s = a->thr_dt > 0 ? a->thr_s / a->thr_dt : 0;
	f->batches_per_s = (double)(st->batches - a->batches) / dt;
	f->input_wait_pct = w->loaders > 0
				? 100.0 * (double)(st->input_wait_ns - a->input_wait_ns) /
				      (dt * 1e9 * (w->streams > 0 ? w->streams : 1))
				: 0;
	f->input_wait_pct = f->input_wait_pct > 100 ? 100 : f->input_wait_pct;
	f->loader_cpu_pct = 100.0 * (double)(st->loader_cpu_ns - a->loader_cpu_ns) / (dt * 1e9);
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
	snprintf(st->caption, sizeof(st->caption), "%s: this step was skipped (%s).", st->what,
		 why);
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
	session_apply(s);
	t->state = TOUR_DONE;
	t->t_state = now;
}

bool tour_tick(struct tour *t, struct session *s, double now)
{
	struct tour_step *st = &t->step[t->cur];
	bool applied = session_pending(s) == 0 && s->lab_status.applied;
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
		st->measured = true;
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
			n = snprintf(out, cap, "tour %d/%d %s: step %zu/%zu, next in %.0f s",
				     st->lesson, TOUR_LESSONS, st->title, t->cur + 1, t->nsteps,
				     fmax(0, t->hold_s - (now - t->t_state)));
		break;
	}
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

size_t tour_settings_text(const struct lab_settings *s, char *out, size_t cap)
{
	char quota[32] = "none";
	if (s->cpus > 0)
		snprintf(quota, sizeof(quota), "%.2f CPUs", s->cpus);
	int n = snprintf(out, cap,
			 "threads %d, streams %d, n=%d %s, quota %s, loaders %d (%d ms, prefetch "
			 "%d), %s, spin %s",
			 s->threads, s->streams, s->size,
			 s->precision == CTL_DOUBLE ? "double" : "single", quota, s->loaders,
			 s->prep_ms, s->prefetch, lab_blas_name(s->blas),
			 s->spin_off ? "off" : "default");
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

/* ---- captions -------------------------------------------------------------- */

struct text {
	char *p;
	size_t cap, len;
};

static void say(struct text *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct text *x, const char *fmt, ...)
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
static void evidence(struct text *x, const struct tour_figures *f)
{
	bool any = false;
	if (f->other_cpus >= 0.2) {
		say(x, " Other processes used %.1f CPUs meanwhile (the per-CPU bars)",
		    f->other_cpus);
		any = true;
	}
	if (f->psi_some >= 5) {
		say(x, "%s CPU pressure (PSI some) was %.0f%%", any ? ";" : " The", f->psi_some);
		any = true;
	}
	if (f->throttled_pct > 1) {
		say(x, "%s throttled in %.0f%% of periods", any ? ";" : " The workload was",
		    f->throttled_pct);
		any = true;
	}
	say(x, any ? ": the machine is shared, so the figure reads low."
		   : " Nothing else on screen explains it: run the step again (p) on a quieter "
		     "machine.");
}

static void cap_single(struct text *x, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	say(x,
	    "One intra-op thread, one stream: %.1f GFLOP/s at n=%d %s. This is the "
	    "single-thread rate; the rest of the tour compares with it. The helper keeps %.2f "
	    "CPUs busy, %.2f of them inside GEMM calls.",
	    f->gflops, st->set.size, st->set.precision == CTL_DOUBLE ? "dgemm" : "sgemm",
	    f->cpu_cpus, f->useful_cpus);
	if (f->best_single > 1.15 * f->gflops)
		say(x,
		    " The lab's best 1-thread reading is %.1f GFLOP/s: the machine is busier now",
		    f->best_single);
	if (f->other_cpus >= 0.3 || f->psi_some >= 10)
		say(x,
		    "%s other processes used %.1f CPUs (PSI some %.0f%%), so this rate reads "
		    "low.",
		    f->best_single > 1.15 * f->gflops ? ";" : " Meanwhile", f->other_cpus,
		    f->psi_some > 0 ? f->psi_some : 0);
	else if (f->best_single > 1.15 * f->gflops)
		say(x, ".");
}

static void cap_results(struct text *x, const struct tour_figures *f, int threads)
{
	if (!f->results_checked)
		say(x, " The results were not compared yet.");
	else if (f->results_equal)
		say(x, " The results are bit for bit equal to the 1-thread reference: the thread "
		       "count changes the scheduling, not the mathematics.");
	else
		say(x,
		    " The results differ from the 1-thread reference by at most %.2g: with %d "
		    "threads OpenBLAS adds the partial sums in another order (rounding, not an "
		    "error).",
		    f->max_diff, threads);
}

static void cap_two(struct text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	double ideal = f->effective >= 1.95 ? 2.0 : f->effective > 1 ? f->effective : 1.0;
	(void)t;
	say(x, "Two intra-op threads per GEMM: %.1f GFLOP/s, %.2fx the single thread", f->gflops,
	    f->speedup);
	if (f->effective < 1.5)
		say(x,
		    "; with %.2f effective CPUs the two threads take turns, so no speedup is "
		    "possible here.",
		    f->effective);
	else if (f->speedup >= 0.85 * ideal)
		say(x, " (ideal 2x): the GEMM splits cleanly over two cores.");
	else {
		say(x, ", short of the ideal 2x.");
		evidence(x, f);
	}
	cap_results(x, f, st->set.threads);
}

static void cap_over(struct text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	const struct tour_step *two = find(t, TOUR_TWO);
	say(x,
	    "%d threads on %.2f effective CPUs: %.1f GFLOP/s, %.0f%% of the ceiling %.1f "
	    "(single-thread rate x CPUs)",
	    st->set.threads * st->set.streams, f->effective, f->gflops, f->ceiling_pct,
	    f->ceiling_gflops);
	if (two)
		say(x, ", against %.1f with 2 threads", two->fig.gflops);
	say(x,
	    ". The threads waited %.0f%% of their runnable time in the run queue and were "
	    "switched out %.0f times a second involuntarily",
	    f->wait_pct, f->ivcsw_per_s);
	if (two && f->gflops > two->fig.gflops * 1.05 && t->effective <= 2)
		say(x, "; this time they were a little faster than 2 threads, within the noise "
		       "of a shared machine.");
	else
		say(x, ": threads beyond the CPUs add waiting and switching, not speed.");
}

static void cap_inter(struct text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	const struct tour_step *intra = find(t, TOUR_INTRA);
	say(x, "n=256, %d stream%s x %d thread%s: %.1f GFLOP/s", st->set.streams,
	    st->set.streams == 1 ? "" : "s", st->set.threads, st->set.threads == 1 ? "" : "s",
	    f->gflops);
	if (!intra) {
		say(x, ".");
		return;
	}
	double a = intra->fig.gflops, b = f->gflops;
	if (intra->set.threads == st->set.threads && intra->set.streams == st->set.streams) {
		say(x, ": with one effective CPU both steps run one thread, so there is nothing "
		       "to split.");
		return;
	}
	say(x, " against %.1f with 1 stream x %d threads: ", a, intra->set.threads);
	if (a <= 0 || fabs(b - a) < 0.05 * a)
		say(x, "about the same here.");
	else if (b > a)
		say(x,
		    "inter-op wins by %.0f%%. Independent small GEMMs need no synchronisation "
		    "between threads, while intra-op threads split little work per call and "
		    "meet at every step.",
		    100.0 * (b - a) / a);
	else
		say(x,
		    "intra-op wins by %.0f%% this time: the streams compete for cache and memory "
		    "bandwidth, or the machine was busy (%.1f CPUs used by others).",
		    100.0 * (a - b) / b, f->other_cpus);
}

static void cap_intra(struct text *x, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	say(x,
	    "n=256, 1 stream x %d thread%s: %.1f GFLOP/s. A small GEMM gives each thread little "
	    "work between synchronisations; the next step runs the same number of threads as "
	    "independent streams.",
	    st->set.threads, st->set.threads == 1 ? "" : "s", f->gflops);
}

static void cap_quota(struct text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	if (f->throttled_pct < 0 && f->effective >= st->set.cpus + 0.5) {
		say(x,
		    "A quota of %.2f CPUs could not be set here (no writable cpu controller: run "
		    "as root on a cgroup v1 or v2 host), so there is nothing to throttle.",
		    st->set.cpus);
		return;
	}
	say(x,
	    "Quota %.2f CPUs: nproc still says %d and os.cpu_count() %d (affinity and online "
	    "CPUs), but the effective budget is %.2f CPUs. ",
	    st->set.cpus, f->affinity, f->online, f->effective);
	if (f->throttled_pct >= 1)
		say(x,
		    "%d threads run in bursts and are throttled in %.0f%% of periods (%.2f s "
		    "per s); %.1f GFLOP/s",
		    st->set.threads, f->throttled_pct, f->throttled_s, f->gflops);
	else
		say(x,
		    "%d threads were hardly throttled (%.0f%% of periods): other processes "
		    "used %.1f CPUs and left them less than the quota; %.1f GFLOP/s",
		    st->set.threads, f->throttled_pct > 0 ? f->throttled_pct : 0, f->other_cpus,
		    f->gflops);
	const struct tour_step *same = NULL;
	for (size_t i = 0; i < t->nsteps; i++)
		if (t->step[i].measured && t->step[i].set.cpus <= 0 &&
		    t->step[i].set.threads == st->set.threads && t->step[i].set.streams == 1 &&
		    t->step[i].set.loaders == 0 && t->step[i].set.size == st->set.size)
			same = &t->step[i];
	if (same)
		say(x, " against %.1f without the quota", same->fig.gflops);
	if (same && f->gflops > 1.05 * same->fig.gflops)
		say(x,
		    "; faster than without it, so the machine was busier during that earlier "
		    "step (%.1f CPUs used by others now)",
		    f->other_cpus);
	say(x, ". A CPU limit is a time budget, not reserved cores: the threads still run on "
	       "every CPU until the period's budget is spent.");
}

static void cap_pipe(struct text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	const struct tour_step *one = find(t, TOUR_INPUT_BOUND);
	double per_cpu = st->set.prep_ms > 0 ? 1000.0 / st->set.prep_ms : 0;
	switch (st->kind) {
	case TOUR_INPUT_BOUND:
		say(x,
		    "One loader spends %d ms of CPU on each batch, about three GEMMs' time: the "
		    "streams waited for input %.0f%% of the time and took %.1f batches/s; %.1f "
		    "GFLOP/s. With a whole CPU the loader makes %.1f batches/s, and it got %.0f%% "
		    "of one.",
		    st->set.prep_ms, f->input_wait_pct, f->batches_per_s, f->gflops, per_cpu,
		    f->loader_cpu_pct);
		if (f->input_wait_pct >= 30)
			say(x, " The job is input-bound: faster loading helps, more threads would "
			       "not.");
		else
			say(x,
			    " The wait is lower than the lesson expects: the GEMMs ran slower than "
			    "the single-thread rate says.");
		if (f->loader_cpu_pct < 80)
			evidence(x, f);
		break;
	case TOUR_MORE_LOADERS:
		say(x, "Two loaders: %.1f batches/s", f->batches_per_s);
		if (one)
			say(x,
			    " (one loader: %.1f), input wait %.0f%% (was %.0f%%), %.1f GFLOP/s "
			    "(was %.1f)",
			    one->fig.batches_per_s, f->input_wait_pct, one->fig.input_wait_pct,
			    f->gflops, one->fig.gflops);
		say(x, "; the loaders use %.0f%% of a CPU.", f->loader_cpu_pct);
		if (one && f->batches_per_s < 0.95 * one->fig.batches_per_s) {
			say(x, " Fewer batches than one loader made:");
			evidence(x, f);
		} else if (spare_cpus(t) < 2) {
			say(x,
			    " %d spare CPU%s cannot run two loaders beside the GEMM at full "
			    "speed: the three share the CPUs%s.",
			    spare_cpus(t), spare_cpus(t) == 1 ? "" : "s",
			    f->input_wait_pct < 15 ? ", yet compute rarely waits now" : "");
		} else if (f->input_wait_pct < 15) {
			say(x, " Compute rarely waits now: the pipeline keeps up (balanced).");
		} else {
			say(x, " Still input-bound.");
		}
		break;
	default: {
		/* Against compute on as many threads without loaders, if measured. */
		const struct tour_step *alone = NULL;
		for (size_t i = 0; i < t->nsteps; i++)
			if (t->step[i].measured && t->step[i].set.loaders == 0 &&
			    t->step[i].set.cpus <= 0 && t->step[i].set.streams == 1 &&
			    t->step[i].set.threads == st->set.threads &&
			    t->step[i].set.size == st->set.size)
				alone = &t->step[i];
		say(x,
		    "Compute on all %d CPU%s (%d thread%s) beside two loaders: the loaders use "
		    "%.0f%% "
		    "of a CPU, input wait %.0f%%, %.1f GFLOP/s",
		    t->effective, t->effective == 1 ? "" : "s", st->set.threads,
		    st->set.threads == 1 ? "" : "s", f->loader_cpu_pct, f->input_wait_pct,
		    f->gflops);
		if (alone)
			say(x, " against %.1f without loaders", alone->fig.gflops);
		if (alone && f->gflops < alone->fig.gflops * 0.95 && f->input_wait_pct >= 20)
			say(x,
			    ". The GEMMs now wait for input: compute's threads took the CPUs the "
			    "loaders needed, so the loaders fell behind (%.1f batches/s). Loaders "
			    "and "
			    "intra-op threads compete for one budget: raising either past it makes "
			    "the job slower.",
			    f->batches_per_s);
		else if (alone && f->gflops < alone->fig.gflops * 0.95)
			say(x, ". The loaders' CPU came out of compute: when loaders and intra-op "
			       "threads together want more CPUs than the budget, adding either "
			       "makes the job slower.");
		else if (alone)
			say(x,
			    ": no loss this time (the loaders' CPU was small or the machine "
			    "noisy: %.1f CPUs used by others).",
			    f->other_cpus);
		else
			say(x, ".");
		break;
	}
	}
}

static void cap_spin(struct text *x, const struct tour *t, const struct tour_step *st)
{
	const struct tour_figures *f = &st->fig;
	const struct tour_step *pth = find(t, TOUR_SPIN_PTHREADS);
	const struct tour_step *omp = find(t, TOUR_SPIN_OPENMP);
	if (st->kind != TOUR_SPIN_PTHREADS && !t->have_openmp) {
		say(x, "The OpenMP build of OpenBLAS is not installed here (apt install "
		       "libopenblas0-openmp): this step ran the pthreads build again.");
		return;
	}
	switch (st->kind) {
	case TOUR_SPIN_PTHREADS:
		say(x,
		    "%d pool threads, the GEMM waiting for input %.0f%% of the time: the helper's "
		    "threads use %.2f CPUs, %.2f of it real work and %.2f spinning; %.1f GFLOP/s.",
		    st->set.threads, f->input_wait_pct, f->cpu_cpus, f->useful_cpus, f->spin_cpus,
		    f->gflops);
		if (f->spin_cpus >= 0.1)
			say(x, " OpenBLAS's idle pthreads pool spins for a while "
			       "(OPENBLAS_THREAD_TIMEOUT) before it sleeps, burning CPU the loader "
			       "could use.");
		else
			say(x,
			    " Hardly any spin this time: the pool idles only while the GEMM waits "
			    "(%.0f%% here), and spinning threads that lose their CPU to others "
			    "do not show as CPU (%.1f CPUs used by others).",
			    f->input_wait_pct, f->other_cpus);
		break;
	case TOUR_SPIN_OPENMP:
		say(x,
		    "The OpenMP build (%s, libgomp) with the default wait policy: spin %.2f CPUs",
		    f->variant[0] ? f->variant : "?", f->spin_cpus);
		if (pth)
			say(x, " against %.2f on the pthreads build", pth->fig.spin_cpus);
		say(x, "; %.1f GFLOP/s, input wait %.0f%%.", f->gflops, f->input_wait_pct);
		if (pth && f->spin_cpus > pth->fig.spin_cpus + 0.05)
			say(x, " Here libgomp spun more: its threads wait GOMP_SPINCOUNT spins "
			       "after every parallel region, and the pthreads pool's spin was cut "
			       "short.");
		else
			say(x, " libgomp spins only briefly (GOMP_SPINCOUNT) before its threads "
			       "sleep.");
		break;
	default:
		say(x,
		    "OMP_WAIT_POLICY=PASSIVE (--blas-spin off): idle threads sleep at once, spin "
		    "%.2f CPUs",
		    f->spin_cpus);
		if (omp)
			say(x, " (default policy: %.2f)", omp->fig.spin_cpus);
		say(x, "; %.1f GFLOP/s.", f->gflops);
		if (omp && f->spin_cpus > omp->fig.spin_cpus + 0.05)
			say(x, " Passive waiting spun more than the default this time, which "
			       "only noise explains:");
		if (omp && f->spin_cpus > omp->fig.spin_cpus + 0.05)
			evidence(x, f);
		else
			say(x, " Passive waiting costs a wake-up at each call, spinning costs CPU: "
			       "on a full machine the CPU matters more.");
		break;
	}
}

void tour_caption(const struct tour *t, size_t i, char *out, size_t cap)
{
	struct text x = {out, cap, 0};
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
	}
}
