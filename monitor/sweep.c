/* sweep.c — threadlab --sweep: measure the workload over settings.
 *
 * One lab for the whole sweep.  Order: for each stream count, threads go up,
 * then down for the next stream count, so every step changes exactly one
 * knob; 1 stream x 1 thread, when in the grid, comes first and becomes the
 * baseline (sweep.h).  Each step: apply, wait until every stream applied it
 * and did a GEMM, warm up, then measure the window between two collector
 * snapshots of the lab's tree (helpers' run-queue wait, quota cgroup
 * throttling) and two lab_status_read()s (FLOPs; results since the setting took
 * effect).  The output is checked after every row; waits are cut short by
 * a stop signal or by the reader of a pipe going away. */
#define _GNU_SOURCE
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collector-impl.h"
#include "diagnosis-input.h"
#include "environment-impl.h"
#include "knobs.h"
#include "labview-impl.h"
#include "model-impl.h"
#include "neighbours-impl.h"
#include "procinfo.h"
#include "roofline.h"
#include "sampler.h"
#include "settings-lab.h"
#include "stop.h"
#include "throughput.h"
#include "xalloc.h"
#include "lab-settings.h"
#include "lab-status.h"

void sweep_opts_default(struct sweep_opts *o)
{
	struct settings d = knobs_defaults();
	memset(o, 0, sizeof(*o));
	o->size = d.size;
	o->precision = d.precision;
	o->kernel = d.kernel;
	o->blas = d.blas;
	o->seconds = SWEEP_SECONDS_DEFAULT;
	o->warmup = 1.0;
	o->prep_ms = d.prep_ms;
	o->prefetch = d.prefetch;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int sink_gone(const struct sweep_sink *k)
{
	return k->gone ? k->gone(k->arg) : 0;
}

void sweep_note(void (*note)(void *arg, const char *line), void *arg, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	if (!note)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	note(arg, line);
}

#define sink_note(k, ...) sweep_note((k)->note, (k)->arg, __VA_ARGS__)

/* Sleeps s seconds in steps of 100 ms.  0, -EINTR on a stop signal
 * (stop.h), -EPIPE when the sink's reader has gone. */
static int sleep_s(double s, const struct sweep_sink *k)
{
	double end = now_s() + s;
	for (;;) {
		if (stop_signal)
			return -EINTR;
		if (sink_gone(k))
			return -EPIPE;
		double left = end - now_s();
		if (left <= 0)
			return 0;
		if (left > 0.1)
			left = 0.1;
		struct timespec ts = {0, (long)(left * 1e9)};
		nanosleep(&ts, NULL);
	}
}

static bool is_helper(const struct lab_status *st, pid_t pid)
{
	for (int i = 0; i < st->nslots; i++)
		if (st->stream[i].pid == pid)
			return true;
	return false;
}

/* Reports a write error; -EPIPE stays silent (the reader chose to go). */
static int out_error(const struct sweep_sink *k, int rc)
{
	if (rc == -EIO)
		sink_note(k, "sweep: cannot write the table: %s", strerror(errno ? errno : EIO));
	return rc;
}

static void fill_env(struct sweep_env *e, const struct sweep_opts *o, const struct sysroot *root,
		     const struct budget *b, const struct lab_status *st, double single)
{
	memset(e, 0, sizeof(*e));
	environment_fill(&e->env, root, b, st);
	e->spin = o->spin_off ? "off" : "default";
	e->size = o->size;
	e->precision = o->precision == SETTINGS_DOUBLE ? "double" : "single";
	e->kernel = settings_kernel_name(o->kernel);
	e->seconds = o->seconds;
	e->warmup = o->warmup;
	e->single_gflops = single;
	e->pipeline = o->nloaders > 0;
	e->prep_ms = o->prep_ms;
	e->prefetch = o->prefetch;
}

/* Moves the value 1 to the front of l, keeping the others' order. */
static void one_first(int *l, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (l[i] != 1)
			continue;
		memmove(l + 1, l, i * sizeof(*l));
		l[0] = 1;
		return;
	}
}

static bool has_one(const int *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (l[i] == 1)
			return true;
	return false;
}

struct sweep_ctx {
	const struct sweep_opts *o;
	const struct sweep_sink *k;
	struct lab *lab;
	struct sampler *smp;
	struct settings set;
	double single, effective; /* single: the baseline, GFLOP/s */
	bool baseline_row;	  /* single becomes the 1 x 1 row's GFLOP/s */
	struct lab_status *a, *b;
	struct snapshot sa, sb;
	struct snapshot_rates rates;
	bool first;
	unsigned restarts;	      /* helper restarts reported so far */
	struct labview *view;	      /* sink->sample: the window's figures */
	const struct sysroot *root;   /* for a new anchor's sampler */
	struct workload_report *work; /* sink->sample: what it hands over */
	struct model_sample model;    /* sink->sample: the window as the faces read it */
	const struct budget *budget;
	struct diagnosis *diag;	 /* the window's, for the row's verdict */
	struct neighbours neigh; /* the rest of the machine over the window (contended) */
};

/* The window's verdict: the lab's threads against its budget and the rest
 * of the machine, sampled at the window's two ends. */
static enum verdict sweep_verdict(struct sweep_ctx *c, double now)
{
	struct machine_view machine;
	neighbours_tick(&c->neigh, c->root, &c->sb.threads, now);
	const struct thread_set *tl = &c->sb.threads;
	pid_t *pids = xmalloc((tl->n + 1) * sizeof(*pids));
	size_t n = 0;
	for (size_t i = 0; i < tl->n; i++)
		if (n == 0 || pids[n - 1] != tl->v[i].pid)
			pids[n++] = tl->v[i].pid;
	uint8_t any[MACHINE_SET_BYTES] = {0};
	double psi = c->sb.psi_system.available ? c->sb.psi_system.some_avg10 : -1;
	neighbours_view(&c->neigh, lab_root_pid(c->lab), pids, n, getpid(), any, psi, &machine);
	free(pids);
	struct diag_input in = {.target = lab_root_pid(c->lab),
				.budget = c->budget,
				.rates = &c->rates,
				.lab = &c->set,
				.machine = machine.valid ? &machine : NULL,
				.prev = VERDICT_N};
	diagnosis_make(&in, c->diag);
	return c->diag->verdict;
}

/* A helper restarted during the sweep: its row is suspect; say so. */
static void note_restarts(struct sweep_ctx *c, int streams, int threads)
{
	if (c->b->restarts == c->restarts)
		return;
	c->restarts = c->b->restarts;
	for (int i = 0; i < c->b->nslots; i++)
		if (c->b->stream[i].last_failure[0])
			sink_note(c->k,
				  "sweep at %d stream(s) x %d thread(s): stream %d: %s, "
				  "restarted (%u in all)",
				  streams, threads, i, c->b->stream[i].last_failure,
				  c->b->stream[i].restarts);
}

/* The anchor ended (killed): said as such, and the workload restarted on
 * the same settings and quota (lab_recover), the sampler moved to the new
 * anchor.  Returns 1 after a restart, else < 0: the sweep cannot go on. */
static int sweep_anchor(struct sweep_ctx *c, int streams, int threads)
{
	char m[512];
	int rc = lab_recover(c->lab, m, sizeof(m));
	if (m[0])
		sink_note(c->k, "sweep at %d stream(s) x %d thread(s): %s", streams, threads, m);
	if (rc <= 0)
		return rc < 0 ? rc : -ESRCH;
	struct sampler *next = sampler_new(c->root, lab_root_pid(c->lab), true);
	if (!next)
		return -ESRCH;
	sampler_free(c->smp);
	c->smp = next;
	lab_status_read(c->lab, c->a);
	if (c->a->quota_dir[0])
		sampler_set_cgroup_override(c->smp, c->a->quota_dir, c->a->quota_version);
	c->restarts = c->a->restarts;
	return 1;
}

static int sweep_step_once(struct sweep_ctx *c, int loaders, int streams, int threads);

/* One setting, measured again when the anchor was killed under it (once). */
static int sweep_step(struct sweep_ctx *c, int loaders, int streams, int threads)
{
	int rc = sweep_step_once(c, loaders, streams, threads);
	if (rc == -ECHILD && sweep_anchor(c, streams, threads) == 1)
		rc = sweep_step_once(c, loaders, streams, threads);
	if (rc == -ECHILD) /* killed again: the row is left out, the note says why */
		rc = sweep_anchor(c, streams, threads) == 1 ? 0 : -ESRCH;
	return rc;
}

static int sweep_step_once(struct sweep_ctx *c, int loaders, int streams, int threads)
{
	char msg[512];
	c->set.streams = streams;
	c->set.threads = threads;
	if (loaders >= 0)
		c->set.loaders = loaders;
	struct lab_settings l;
	settings_to_lab(&c->set, &l);
	int rc = lab_apply(c->lab, &l, msg, sizeof(msg));
	if (rc == 0)
		rc = lab_status_wait_ready(c->lab, lab_settings_ready_timeout_ms(&l), msg,
					   sizeof(msg));
	if (rc == -ECHILD)
		return rc; /* the anchor ended: sweep_step says how */
	if (rc < 0) {
		sink_note(c->k, "sweep at %d stream(s) x %d thread(s): %s", streams, threads, msg);
		return rc;
	}
	rc = sleep_s(c->o->warmup, c->k);
	if (rc < 0)
		return rc;
	sampler_sample(c->smp, &c->sa);
	lab_status_read(c->lab, c->a);
	double t0 = now_s();
	neighbours_tick(&c->neigh, c->root, &c->sa.threads, t0);
	if (c->k->sample) {
		labview_init(c->view);
		labview_feed(c->view, c->a, t0, c->effective, c->single, c->work);
	}
	rc = sleep_s(c->o->seconds, c->k);
	if (rc < 0)
		return rc;
	sampler_sample(c->smp, &c->sb);
	if (lab_status_read(c->lab, c->b) < 0) {
		sink_note(c->k, "sweep: the workload's processes have gone");
		return -ESRCH;
	}
	/* Killed in the window: the row would measure a restart, not the setting. */
	if (lab_status_wait_ready(c->lab, 0, msg, sizeof(msg)) == -ECHILD)
		return -ECHILD;
	double t1 = now_s(), dt = t1 - t0;
	snapshot_rates(&c->sa, &c->sb, &c->rates);
	note_restarts(c, streams, threads);
	if (c->k->sample) {
		/* The window as one sample, for a recording of the sweep. */
		labview_feed(c->view, c->b, t1, c->effective, c->single, c->work);
		labview_cpu(c->rates.threads, c->rates.nthreads, c->work);
		model_sample_fill(&c->model, &c->sb, &c->rates, true);
		rc = out_error(c->k, c->k->sample(c->k->arg, &c->model, c->work));
		if (rc < 0)
			return rc;
	}
	struct sweep_row r = {
	    .streams = streams, .threads = threads, .pipeline = loaders >= 0, .loaders = loaders};
	r.gflops = throughput_gflops(throughput_delta(c->a->flops, c->b->flops), dt);
	if (loaders >= 0 && dt > 0) {
		r.batches_per_s = (double)throughput_delta(c->a->batches, c->b->batches) / dt;
		r.input_wait_pct =
		    100.0 * (double)throughput_delta(c->a->input_wait_ns, c->b->input_wait_ns) /
		    (dt * 1e9 * streams);
		r.input_wait_pct = r.input_wait_pct > 100 ? 100 : r.input_wait_pct;
		r.loader_cpu_pct =
		    100.0 * (double)throughput_delta(c->a->loader_cpu_ns, c->b->loader_cpu_ns) /
		    (dt * 1e9);
	}
	if (c->baseline_row && streams == 1 && threads == 1 && r.gflops > 0) {
		c->single = r.gflops;
		c->baseline_row = false; /* set once */
	}
	r.speedup = throughput_speedup(r.gflops, c->single);
	double in = roofline_intensity(c->set.kernel, c->set.size,
				       c->set.precision == SETTINGS_DOUBLE ? 8 : 4);
	r.gbs = in > 0 ? r.gflops / in : 0;
	r.efficiency = throughput_efficiency(
	    r.gflops, throughput_ideal(c->single, (double)streams * threads, c->effective));
	r.ceiling_pct =
	    throughput_ceiling_pct(r.gflops, throughput_ceiling(c->single, c->effective));
	double run = 0, wait = 0;
	for (size_t i = 0; i < c->rates.nthreads; i++) {
		const struct thread_rate *t = &c->rates.threads[i];
		if (t->is_new || !is_helper(c->b, t->pid))
			continue;
		run += t->cpu_pct;
		wait += t->wait_pct;
	}
	r.wait_pct = run + wait > 0 ? 100.0 * wait / (run + wait) : 0;
	r.throttled_pct = -1;
	if (c->b->quota_dir[0] && c->rates.throttle.valid)
		r.throttled_pct = c->rates.throttle.throttled_pct;
	/* Since the setting took effect, not since the helpers started. */
	r.results_equal = c->b->epoch_results_equal && c->b->epoch_checked > 0;
	r.max_diff = c->b->epoch_max_diff;
	r.verdict = sweep_verdict(c, t1);
	r.crowded = c->diag->also_contended;
	c->first = false;
	return out_error(c->k, c->k->row(c->k->arg, &r));
}

static int sweep_check(const struct sweep_opts *o, const struct sweep_sink *k, struct settings *s)
{
	char err[512];
	*s = knobs_defaults();
	s->size = o->size;
	s->precision = o->precision;
	s->kernel = o->kernel;
	s->cpus = o->cpus;
	s->workers = o->workers;
	s->spin_off = o->spin_off;
	s->blas = o->blas;
	s->prep_ms = o->prep_ms;
	s->prefetch = o->prefetch;
	for (size_t i = 0; i < o->nloaders; i++)
		s->loaders = o->loaders[i] > s->loaders ? o->loaders[i] : s->loaders;
	int smax = 1, tmax = 1;
	for (size_t i = 0; i < o->nstreams; i++)
		smax = o->streams[i] > smax ? o->streams[i] : smax;
	for (size_t i = 0; i < o->nthreads; i++)
		tmax = o->threads[i] > tmax ? o->threads[i] : tmax;
	s->streams = smax;
	s->threads = tmax;
	struct lab_settings l;
	settings_to_lab(s, &l);
	int rc = knobs_check(s, err, sizeof(err));
	if (rc == 0)
		rc = lab_settings_check(&l, err, sizeof(err));
	if (rc == 0) {
		struct sysroot live;
		if (sysroot_open(&live, "/") == 0) {
			rc = lab_settings_check_mem(&l, procinfo_mem_available(&live), err,
						    sizeof(err));
			if (rc == 0)
				rc = lab_settings_check_rlimits(&l, err, sizeof(err));
			sysroot_close(&live);
		}
	}
	for (size_t i = 0; rc == 0 && i < o->nstreams; i++) {
		rc = knobs_check_value(KNOB_STREAMS, o->streams[i], err, sizeof(err));
	}
	for (size_t i = 0; rc == 0 && i < o->nthreads; i++) {
		rc = knobs_check_value(KNOB_THREADS, o->threads[i], err, sizeof(err));
	}
	if (rc == 0 && (o->seconds <= 0 || o->warmup < 0)) {
		snprintf(err, sizeof(err), "--seconds must be above 0");
		rc = -EINVAL;
	}
	if (rc < 0)
		sink_note(k, "sweep: %s", err);
	s->streams = o->nstreams ? o->streams[0] : 1;
	s->threads = o->nthreads ? o->threads[0] : 1;
	s->loaders = o->nloaders ? o->loaders[0] : 0;
	return rc;
}

int sweep_run(const struct sweep_opts *o, const struct sweep_sink *k)
{
	struct sweep_ctx c = {.o = o, .k = k, .first = true};
	int rc = sweep_check(o, k, &c.set);
	if (rc < 0)
		return rc;
	char err[512];
	struct lab_settings first;
	settings_to_lab(&c.set, &first);
	c.lab = lab_start(&first, err, sizeof(err));
	if (!c.lab) {
		int e = errno;
		sink_note(k, "sweep: %s", err);
		return -e;
	}
	if (lab_status_wait_ready(c.lab, lab_settings_ready_timeout_ms(&first), err, sizeof(err)) <
	    0) {
		sink_note(k, "sweep: %s", err);
		lab_stop(c.lab);
		return -EIO;
	}
	c.a = xmalloc(sizeof(*c.a));
	c.b = xmalloc(sizeof(*c.b));
	c.view = xmalloc(sizeof(*c.view));
	c.work = xmalloc(sizeof(*c.work));
	c.diag = xmalloc(sizeof(*c.diag));
	neighbours_init(&c.neigh, 0);
	snapshot_init(&c.sa);
	snapshot_init(&c.sb);
	snapshot_rates_init(&c.rates);
	model_sample_init(&c.model);
	struct sysroot root = {.fd = -1};
	struct budget budget;
	c.budget = &budget;
	rc = sysroot_open(&root, "/");
	if (rc == 0)
		rc = budget_read(&root, lab_root_pid(c.lab), &budget);
	c.smp = rc == 0 ? sampler_new(&root, lab_root_pid(c.lab), true) : NULL;
	collector_attach(c.smp, true);
	c.root = &root;
	if (!c.smp) {
		sink_note(k, "sweep: cannot monitor the workload: %s",
			  strerror(rc < 0 ? -rc : errno));
		rc = rc < 0 ? rc : -errno;
		goto out;
	}
	lab_status_read(c.lab, c.a);
	if (c.a->quota_error[0])
		sink_note(k, "%s", c.a->quota_error);
	if (c.a->quota_dir[0])
		sampler_set_cgroup_override(c.smp, c.a->quota_dir, c.a->quota_version);
	c.effective = budget.effective;
	struct settings key = {.kernel = o->kernel, .size = o->size};
	double cal = lab_status_single_rate(c.lab, settings_rate_key(&key), first.precision);
	c.single = cal;
	lab_status_read(c.lab, c.a);
	c.restarts = c.a->restarts;

	int tl[SWEEP_LIST_MAX], sl[SWEEP_LIST_MAX];
	size_t nt = o->nthreads, ns = o->nstreams;
	memcpy(tl, o->threads, sizeof(tl));
	memcpy(sl, o->streams, sizeof(sl));
	if (!nt) {
		int tmax = (int)ceil(2 * c.effective);
		tmax = tmax < 2 ? 2 : tmax > SWEEP_LIST_MAX ? SWEEP_LIST_MAX : tmax;
		for (int i = 0; i < tmax; i++)
			tl[i] = i + 1;
		nt = (size_t)tmax;
	}
	if (!ns) {
		sl[0] = 1;
		ns = 1;
	}
	c.baseline_row = has_one(tl, nt) && has_one(sl, ns);
	if (c.baseline_row) {
		one_first(tl, nt);
		one_first(sl, ns);
	}
	struct sweep_env env;
	fill_env(&env, o, &root, &budget, c.a, cal);
	env.baseline_row = c.baseline_row;
	rc = out_error(k, k->begin(k->arg, &env));

	/* Loaders outermost; streams and threads zig-zag so that each step
	 * changes one knob (the grid runs backwards for every other loader
	 * count). */
	size_t nl = o->nloaders ? o->nloaders : 1;
	size_t done = 0, total = nl * ns * nt;
	for (size_t l = 0; rc == 0 && l < nl; l++)
		for (size_t i = 0; rc == 0 && i < ns; i++)
			for (size_t j = 0; rc == 0 && j < nt; j++) {
				size_t g = l % 2 ? ns * nt - 1 - (i * nt + j) : i * nt + j;
				size_t gi = g / nt, gj = g % nt;
				rc = stop_signal ? -EINTR : sink_gone(k) ? -EPIPE : 0;
				if (rc == 0)
					rc = sweep_step(&c, o->nloaders ? o->loaders[l] : -1,
							sl[gi], tl[gi % 2 ? nt - 1 - gj : gj]);
				done += rc == 0;
			}
	if (rc == -EINTR)
		sink_note(k, "sweep interrupted after %zu of %zu settings", done, total);
	if (rc == 0 || rc == -EINTR) {
		int w = out_error(k, k->end(k->arg, c.single));
		rc = rc == 0 ? w : rc;
	}
out:
	if (c.smp)
		sampler_free(c.smp);
	if (root.fd >= 0)
		sysroot_close(&root);
	snapshot_free(&c.sa);
	snapshot_free(&c.sb);
	snapshot_rates_free(&c.rates);
	model_sample_free(&c.model);
	free(c.a);
	free(c.b);
	free(c.view);
	free(c.work);
	free(c.diag);
	neighbours_free(&c.neigh);
	lab_stop(c.lab);
	return rc;
}
