/* labview.c — smoothed, steady-state and per-setting throughput.
 *
 * The steady-state window restarts whenever the settings epoch that every
 * wanted stream has applied changes; once it is long enough its average is
 * the figure for the (streams, threads, size, precision) in effect, and
 * that goes into the scaling chart (replacing an older figure for the same
 * setting). */
#include "config.h"

#include "labview-impl.h"
#include "lab-status.h"

#include "settings-lab.h"
#include "lab-find.h"
#include "labview-ref.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define LABVIEW_TAU_S	     1.5 /* smoothing time constant */
#define LABVIEW_WARMUP_S     0.5 /* skipped after a change took effect */
#define LABVIEW_MIN_WINDOW_S 1.0

void labview_init(struct labview *v)
{
	memset(v, 0, sizeof(*v));
	rate_cache_init(&v->single);
	throughput_ewma_init(&v->ewma, LABVIEW_TAU_S);
	throughput_steady_init(&v->steady, LABVIEW_WARMUP_S);
	v->last_t = -1;
	v->other_cpus = -1;
	v->quiet_since = -1;
}

void labview_reset(struct labview *v)
{
	/* History and chart go; the counters' baselines and the measured
	 * rates stay, or the next interval would read as no work done. */
	struct labview keep = *v;
	labview_init(v);
	v->last_t = keep.last_t;
	v->last_flops = keep.last_flops;
	memcpy(v->last_stream_flops, keep.last_stream_flops, sizeof(v->last_stream_flops));
	memcpy(v->last_stream_busy, keep.last_stream_busy, sizeof(v->last_stream_busy));
	memcpy(v->last_stream_pid, keep.last_stream_pid, sizeof(v->last_stream_pid));
	v->single = keep.single;
	memcpy(v->ref, keep.ref, sizeof(v->ref));
	v->now = keep.now;
	v->other_cpus = keep.other_cpus;
	v->quiet_since = keep.quiet_since;
	v->effective = keep.effective;
	v->workers = keep.workers;
}

bool labview_point_current(const struct labview *v, const struct labview_point *p, int size,
			   int precision)
{
	return p->size == size && p->precision == precision && p->workers == v->workers &&
	       fabs(p->effective - v->effective) < 0.005 &&
	       (p->loaders == 0 || p->prep_ms == v->prep_ms);
}

const struct labview_point *labview_point_find(const struct labview *v, int streams, int threads,
					       int loaders, int size, int precision)
{
	for (size_t i = 0; i < v->npoints; i++) {
		const struct labview_point *p = &v->points[i];
		if (p->streams == streams && p->threads == threads && p->loaders == loaders &&
		    labview_point_current(v, p, size, precision))
			return p;
	}
	return NULL;
}

void labview_point_mark(struct labview *v, const struct settings *s, bool left_out)
{
	struct labview_point *p = (struct labview_point *)labview_point_find(
	    v, s->streams, s->threads, s->loaders, settings_rate_key(s), (int)s->precision);
	if (p)
		p->left_out = left_out;
}

static void labview_record(struct labview *v, const struct settings *s, double gflops,
			   double seconds)
{
	struct labview_point *p = (struct labview_point *)labview_point_find(
	    v, s->streams, s->threads, s->loaders, settings_rate_key(s), (int)s->precision);
	if (!p) {
		if (v->npoints == LABVIEW_POINTS)
			memmove(v->points, v->points + 1, sizeof(v->points[0]) * --v->npoints);
		p = &v->points[v->npoints++];
	}
	p->streams = s->streams;
	p->threads = s->threads;
	p->size = settings_rate_key(s); /* the triad's points apart from every GEMM's */
	p->precision = (int)s->precision;
	p->gflops = gflops;
	p->seconds = seconds;
	p->effective = v->effective;
	p->workers = v->workers;
	p->loaders = s->loaders;
	p->prep_ms = s->loaders ? s->prep_ms : 0;
}

/* The oldest epoch every wanted stream has applied: the settings that are
 * really in effect everywhere. */
static const char *labview_state_name(enum ctl_stream_state st)
{
	switch (st) {
	case CTL_STREAM_STARTING:
		return "starting";
	case CTL_STREAM_RUNNING:
		return "running";
	case CTL_STREAM_PAUSED:
		return "paused";
	case CTL_STREAM_FAILED:
		return "failed";
	case CTL_STREAM_EXITED:
		return "exited";
	default:
		return "off";
	}
}

#define LABVIEW_SINGLE_CPU_NS 250000000ull /* CPU time one measurement spans */

/* Stream i ran one intra-op thread at the current size and precision:
 * accumulate its FLOPs and CPU time inside GEMM, and every 0.25 s of CPU
 * keep the best rate (noise from other work only ever lowers it). */
static void labview_measure_single(struct labview *v, const struct lab_status *st, int i, bool same)
{
	const struct lab_stream_status *ss = &st->stream[i];
	bool one = same && ss->state == CTL_STREAM_RUNNING && ss->threads == 1 &&
		   ss->kernel == st->settings.kernel &&
		   (ss->kernel == CTL_TRIAD || ss->size == st->settings.size) &&
		   ss->precision == st->settings.precision;
	if (!one) {
		v->acc_flops[i] = v->acc_cpu[i] = 0;
		return;
	}
	v->acc_flops[i] += throughput_delta(v->last_stream_flops[i], ss->flops);
	v->acc_cpu[i] += throughput_delta(v->last_stream_busy[i], ss->busy_cpu_ns);
	if (v->acc_cpu[i] < LABVIEW_SINGLE_CPU_NS)
		return;
	/* FLOPs per ns is GFLOP/s */
	labview_ref_single_put(v, ss->kernel == CTL_TRIAD ? LAB_TRIAD_KEY : ss->size,
			       (int)ss->precision, (double)v->acc_flops[i] / (double)v->acc_cpu[i]);
	v->acc_flops[i] = v->acc_cpu[i] = 0;
}

/* Per-stream GFLOP/s and useful CPUs over the dt seconds since the last
 * feed; a helper that was restarted (new pid, counters back to 0) gets a
 * fresh start rather than a negative rate. */
static void labview_streams(struct labview *v, const struct lab_status *st, double dt,
			    struct workload_report *out)
{
	out->nstreams = st->nslots < SETTINGS_MAX_STREAMS ? st->nslots : SETTINGS_MAX_STREAMS;
	out->useful_cpus = 0;
	for (int i = 0; i < out->nstreams; i++) {
		const struct lab_stream_status *ss = &st->stream[i];
		struct workload_stream_report *r = &out->stream[i];
		memset(r, 0, sizeof(*r));
		r->stream = i;
		r->pid = ss->pid;
		r->state = labview_state_name(ss->state);
		r->wanted = i < st->settings.streams;
		r->threads = ss->threads;
		r->pool = ss->pool;
		bool same = v->last_stream_pid[i] == ss->pid &&
			    ss->flops >= v->last_stream_flops[i] &&
			    ss->busy_cpu_ns >= v->last_stream_busy[i];
		if (same && dt > 0) {
			r->gflops = throughput_gflops(ss->flops - v->last_stream_flops[i], dt);
			r->useful_cpus =
			    (double)(ss->busy_cpu_ns - v->last_stream_busy[i]) / 1e9 / dt;
		}
		labview_measure_single(v, st, i, same);
		out->useful_cpus += r->useful_cpus;
		v->last_stream_pid[i] = ss->pid;
		v->last_stream_flops[i] = ss->flops;
		v->last_stream_busy[i] = ss->busy_cpu_ns;
		if (ss->state == CTL_STREAM_FAILED && !out->error[0])
			snprintf(out->error, sizeof(out->error), "stream %d: %s", i, ss->error);
	}
}

/* The input pipeline over the interval dt (0: the first feed). */
static void labview_pipeline(struct labview *v, const struct lab_status *st, double dt,
			     struct workload_report *out)
{
	struct settings set;
	settings_from_lab(&st->settings, &set);
	const struct settings *s = &set;
	out->blas = settings_blas_name(s->blas);
	out->blas_switching = st->blas_switching;
	out->loaders = s->loaders;
	out->prep_ms = s->prep_ms;
	out->prefetch = s->prefetch;
	out->loader_restarts = st->loader_restarts;
	for (int k = 0; k < SETTINGS_MAX_LOADERS; k++)
		if (st->loader[k].pid > 0)
			out->loader_pids[out->nloader_pids++] = st->loader[k].pid;
	bool grew = st->batches >= v->last_batches && st->input_wait_ns >= v->last_input_wait &&
		    st->loader_cpu_ns >= v->last_loader_cpu;
	if (dt > 0 && grew && s->loaders > 0) {
		out->batches_per_s = (double)(st->batches - v->last_batches) / dt;
		double w = 100.0 * (double)(st->input_wait_ns - v->last_input_wait) /
			   (dt * 1e9 * (s->streams > 0 ? s->streams : 1));
		out->input_wait_pct = s->paused ? 0 : w > 100 ? 100 : w;
		double l = 100.0 * (double)(st->loader_cpu_ns - v->last_loader_cpu) / (dt * 1e9);
		/* Each loader is one thread: counters read a few ms apart
		 * cannot make it more than one CPU. */
		out->loader_cpu_pct = l > 100.0 * s->loaders ? 100.0 * s->loaders : l;
	}
	v->last_batches = st->batches;
	v->last_input_wait = st->input_wait_ns;
	v->last_loader_cpu = st->loader_cpu_ns;
}

/* The kernel's point against the roofs (roofline.h): its GB/s beside its
 * GFLOP/s and, once both roofs are measured, whether it is compute- or
 * memory-bound.  single: a GEMM rate the caller measured (<= 0: the view's). */
static void labview_roofline(struct labview *v, const struct settings *s, double effective,
			     double single, struct workload_report *out)
{
	int elem = s->precision == SETTINGS_DOUBLE ? 8 : 4;
	if (single <= 0)
		single = labview_ref_single_gemm(v, s->size, (int)s->precision);
	double point = out->steady_gflops >= 0 ? out->steady_gflops : out->gflops;
	/* A steady triad is a bandwidth measured in passing: a busy box only
	 * lowers one, so the roof is the best seen (the start-up measurement
	 * may have run on a crowded box). */
	if (s->kernel == SETTINGS_TRIAD && out->steady_gflops > 0 && v->memory_gbs > 0)
		labview_ref_memory_put(v, out->steady_gflops * 1.5 * elem);
	roofline_make(&out->roofline, s->kernel, s->size, elem, single, effective, v->memory_gbs,
		      s->paused ? -1 : point);
	double i = out->roofline.intensity;
	out->gbs = i > 0 ? out->gflops / i : 0;
}

/* The counters and the epoch as st has them. */
static void labview_totals(const struct lab_status *st, struct workload_report *out)
{
	struct workload_counters *c = &out->totals;
	out->epoch = st->epoch;
	out->applied = st->applied;
	c->nslots = st->nslots;
	for (int i = 0; i < st->nslots && i < SETTINGS_MAX_STREAMS; i++) {
		c->flops[i] = st->stream[i].flops;
		c->gemms[i] = st->stream[i].gemms;
	}
	c->batches = st->batches;
	c->input_wait_ns = st->input_wait_ns;
	c->loader_cpu_ns = st->loader_cpu_ns;
}

static uint64_t labview_applied_epoch(const struct lab_status *st)
{
	uint64_t e = UINT64_MAX;
	for (int i = 0; i < st->settings.streams && i < SETTINGS_MAX_STREAMS; i++)
		if (st->stream[i].applied_epoch < e)
			e = st->stream[i].applied_epoch;
	return e == UINT64_MAX ? 0 : e;
}

void labview_feed(struct labview *v, const struct lab_status *st, double t, double effective,
		  double single, struct workload_report *out)
{
	struct settings set;
	settings_from_lab(&st->settings, &set);
	const struct settings *s = &set;
	v->effective = effective;
	v->workers = s->workers;

	double dt = v->last_t >= 0 ? t - v->last_t : 0;
	uint64_t applied = st->applied ? labview_applied_epoch(st) : 0;
	/* A stream that failed adds nothing from that moment: the smoothed
	 * figure starts over rather than decaying from what it did before. */
	uint32_t failed = 0;
	for (int i = 0; i < st->nslots && i < SETTINGS_MAX_STREAMS; i++)
		if (st->stream[i].state == CTL_STREAM_FAILED)
			failed |= 1u << i;
	if (failed != v->failed_mask) {
		throughput_ewma_init(&v->ewma, LABVIEW_TAU_S);
		v->failed_mask = failed;
	}
	if (applied && applied != v->ewma_epoch) {
		/* A new setting is in effect: the smoothed figure starts over
		 * from its first interval instead of drifting from the old one. */
		throughput_ewma_init(&v->ewma, LABVIEW_TAU_S);
		v->ewma_epoch = applied;
	}
	bool interval = v->last_t >= 0 && st->flops >= v->last_flops;
	if (interval)
		v->gflops = throughput_ewma_update(&v->ewma, st->flops - v->last_flops, dt);
	v->last_t = t;
	v->last_flops = st->flops;

	uint64_t epoch = st->applied ? labview_applied_epoch(st) : 0;
	double steady = -1;
	if (epoch && !s->paused) {
		throughput_steady_update(&v->steady, t, epoch, st->flops);
		if (throughput_steady_gflops(&v->steady, LABVIEW_MIN_WINDOW_S, &steady) < 0)
			steady = -1;
	}

	memset(out, 0, sizeof(*out));
	out->interval = interval ? dt : 0;
	out->steady_seconds = steady >= 0 ? throughput_steady_seconds(&v->steady) : 0;
	out->threads = s->threads;
	out->streams = s->streams;
	out->size = s->size;
	out->workers = s->workers;
	out->precision = s->precision == SETTINGS_DOUBLE ? "double" : "single";
	out->kernel = settings_kernel_name(s->kernel);
	out->length = s->kernel == SETTINGS_TRIAD ? settings_triad_length(s->precision) : 0;
	out->cpus = st->quota_cpus;
	out->paused = s->paused;
	out->spin_off = s->spin_off;
	out->gflops = s->paused ? 0 : v->gflops;
	out->steady_gflops = steady;
	/* Per-stream figures first: they may measure the single-thread rate. */
	labview_streams(v, st, dt, out);
	bool given = single > 0; /* measured now by the caller (the tour) */
	int key = settings_rate_key(s);
	if (!given)
		single = labview_ref_single(v, key, (int)s->precision);
	out->single_thread_gflops = single > 0 ? single : -1;
	labview_ref_single_report(v, key, (int)s->precision, out);
	if (given)
		out->single_age_s = out->single_other_cpus = -1, out->single_stale = false;
	if (single > 0) {
		out->ideal_gflops =
		    throughput_ideal(single, (double)s->threads * s->streams, effective);
		out->ceiling_gflops = throughput_ceiling(single, effective);
	}
	labview_roofline(v, s, effective, given && s->kernel == SETTINGS_GEMM ? single : 0, out);
	out->blas_config = st->blas_config;
	out->blas_core = st->blas_core;
	out->blas_variant = st->blas_variant ? st->blas_variant : "";
	out->epoch_results_checked = st->epoch_checked > 0;
	out->epoch_results_equal = st->epoch_results_equal;
	out->epoch_max_diff = st->epoch_max_diff;
	out->results_checked = st->checked > 0;
	out->results_equal = st->results_equal;
	out->max_diff = st->max_diff;
	for (size_t i = 0; i < st->npids && out->npids < LABVIEW_PIDS_MAX; i++)
		out->pids[out->npids++] = st->pids[i];
	out->anchor_pid = st->anchor_pid;
	for (int i = 0; i < st->nworkers && i < SETTINGS_MAX_WORKERS; i++)
		out->worker_pids[out->nworkers_pids++] = st->worker_pid[i];
	labview_pipeline(v, st, interval ? dt : 0, out);
	labview_totals(st, out);
	labview_note(v, out, effective);
}

void labview_note(struct labview *v, const struct workload_report *w, double effective)
{
	v->effective = effective;
	v->workers = w->workers;
	v->prep_ms = w->prep_ms;
	if (w->interval > 0) {
		if (v->nhistory == LABVIEW_HISTORY)
			memmove(v->history, v->history + 1, sizeof(v->history[0]) * --v->nhistory);
		v->history[v->nhistory++] = w->paused ? 0 : w->gflops;
	}
	if (w->steady_gflops >= 0 && !w->paused) {
		struct settings s = {
		    .threads = w->threads,
		    .streams = w->streams,
		    .size = w->size,
		    .precision =
			strcmp(w->precision, "double") == 0 ? SETTINGS_DOUBLE : SETTINGS_SINGLE,
		    .loaders = w->loaders,
		    .prep_ms = w->prep_ms,
		    /* the triad's points apart from the GEMM's of the same n */
		    .kernel = w->kernel && strcmp(w->kernel, settings_kernel_name(SETTINGS_TRIAD)) == 0
				  ? SETTINGS_TRIAD
				  : SETTINGS_GEMM,
		};
		labview_record(v, &s, w->steady_gflops, w->steady_seconds);
	}
}

void labview_cpu(const struct thread_rate *threads, size_t n, struct workload_report *out)
{
	out->cpu_cpus = 0;
	for (int i = 0; i < out->nstreams; i++) {
		struct workload_stream_report *r = &out->stream[i];
		r->cpu_cpus = 0;
		for (size_t k = 0; k < n; k++)
			if (r->pid > 0 && threads[k].pid == r->pid)
				r->cpu_cpus += threads[k].cpu_pct / 100.0;
		/* The two come from intervals a few ms apart; useful work cannot
		 * exceed the CPU time it ran on. */
		if (r->useful_cpus > r->cpu_cpus) {
			out->useful_cpus -= r->useful_cpus - r->cpu_cpus;
			r->useful_cpus = r->cpu_cpus;
		}
		out->cpu_cpus += r->cpu_cpus;
	}
}

int labview_programs_dir(char *out, size_t cap, const char **how)
{
	return lab_find_programs_dir(out, cap, how);
}

const char *labview_programs_configured_dir(void)
{
	return lab_find_programs_configured_dir();
}

/* ---- what a thread is to the lab --------------------------------------- */

const char *labview_mark_name(enum labview_mark m)
{
	static const char *const names[] = {
	    [LABVIEW_MARK_NONE] = "",	      [LABVIEW_MARK_ACTIVE] = "active",
	    [LABVIEW_MARK_PARKED] = "parked", [LABVIEW_MARK_PAUSED] = "paused",
	    [LABVIEW_MARK_LOADER] = "loader", [LABVIEW_MARK_WORKER] = "worker",
	    [LABVIEW_MARK_ANCHOR] = "anchor",
	};
	return m <= LABVIEW_MARK_LOADER ? names[m] : "";
}

/* Parses "gemmI", "gemmI.wK" or "gemmI.pK".  Returns the stream index or
 * -1; *parked tells a .p name. */
static int labview_gemm_name(const char *name, size_t len, bool *parked)
{
	char buf[TASK_NAME_MAX];
	unsigned stream, k;
	char kind, extra;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	*parked = false;
	if (sscanf(buf, "gemm%u.%c%u%c", &stream, &kind, &k, &extra) == 3) {
		if (kind != 'w' && kind != 'p')
			return -1;
		*parked = kind == 'p';
		return (int)stream;
	}
	if (sscanf(buf, "gemm%u%c", &stream, &extra) == 1)
		return (int)stream;
	return -1;
}

enum labview_mark labview_mark(pid_t pid, const char *name, size_t name_len,
			       const struct lab_status *st)
{
	bool parked;
	int stream = -1;

	if (!st)
		return LABVIEW_MARK_NONE;
	if (st->anchor_pid > 0 && pid == st->anchor_pid)
		return LABVIEW_MARK_ANCHOR;
	for (int i = 0; i < st->nworkers && i < SETTINGS_MAX_WORKERS; i++)
		if (st->worker_pid[i] == pid)
			return LABVIEW_MARK_WORKER;
	for (int k = 0; k < SETTINGS_MAX_LOADERS; k++)
		if (st->loader[k].pid > 0 && st->loader[k].pid == pid)
			return LABVIEW_MARK_LOADER;
	for (int i = 0; i < SETTINGS_MAX_STREAMS; i++)
		if (st->stream[i].pid > 0 && st->stream[i].pid == pid)
			stream = i;
	int named = labview_gemm_name(name, name_len, &parked);
	if (stream < 0)
		stream = named;
	if (stream < 0)
		return LABVIEW_MARK_NONE;
	if (st->settings.paused)
		return LABVIEW_MARK_PAUSED;
	if (stream >= st->settings.streams || (named >= 0 && parked))
		return LABVIEW_MARK_PARKED;
	return LABVIEW_MARK_ACTIVE;
}
