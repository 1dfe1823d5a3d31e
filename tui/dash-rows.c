/* dash-rows.c — the dashboard's one-line panels as fitted text.
 *
 * Each row is a dash_line of fields (dash-fit.h) whose priorities say what
 * a narrow terminal gives up first: the refresh interval's label before the
 * thread counts, the PSI wording before the throttling figures, per-stream
 * CPU before per-stream GFLOP/s.  At 80 columns every row keeps its key
 * figures with short labels; from about 120 columns the full wording and
 * the extra fields (budget note, pressure hint, spin setting) appear. */
#include "config.h"

#include "dash-format.h"
#include "dash-rows.h"
#include "session-lab.h"

#include "demand.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text-safe.h"
#include "throughput.h"

/* The first word of a safe command line, with "…" when more follows. */
static void dash_rows_first_word(const char *safe, char *out, size_t cap)
{
	size_t n = strcspn(safe, " ");

	if (safe[n] == '\0')
		snprintf(out, cap, "%s", safe);
	else
		snprintf(out, cap, "%.*s%s", (int)n, safe, text_safe_utf8 ? "\u2026" : "...");
}

size_t dash_rows_header(char *out, size_t cap, int width, const struct dash_header *h)
{
	struct dash_line l;
	char safe[512], word[512];

	dash_line_init(&l, " | ");
	if (h->replay) {
		/* What was recorded, when, and where the replay stands. */
		dash_line_add(&l, 0, "threadlab replay %s", h->mode);
		dash_line_brief(&l, "replay %s", h->mode);
		dash_line_add(&l, 0, "%s", h->replay);
		dash_line_brief(&l, "%s", h->replay + 11); /* the time alone, with "UTC" */
		dash_line_add(&l, 1 | DASH_LINE_KEEP, "sample %ld/%ld", h->replay_pos + 1,
			      h->replay_count);
		dash_line_brief(&l, "%ld/%ld", h->replay_pos + 1, h->replay_count);
		dash_line_add(&l, 0, "%dx%s", h->replay_speed, h->replay_paused ? " PAUSED" : "");
	} else {
		dash_line_add(&l, 0, "threadlab %s", h->mode);
		if (h->want)
			dash_line_brief(&l, "%s", h->mode); /* "lab": the last thing to go */
	}
	if (h->want) {
		const struct settings *w = h->want;
		unsigned p = h->pending;
#define DASH_STAR(bit) ((p & (bit)) ? "*" : "")
		bool dbl = w->precision == SETTINGS_DOUBLE;
		if (w->kernel == SETTINGS_TRIAD)
			dash_line_add(&l, 0, "%s%s%s %.0f MiB", dbl ? "dtriad" : "striad",
				      DASH_STAR(SESSION_PEND_PRECISION),
				      DASH_STAR(SESSION_PEND_KERNEL),
				      settings_triad_mib(w->precision));
		else
			dash_line_add(&l, 0, "%s%s%s n=%d%s", dbl ? "dgemm" : "sgemm",
				      DASH_STAR(SESSION_PEND_PRECISION),
				      DASH_STAR(SESSION_PEND_KERNEL), w->size,
				      DASH_STAR(SESSION_PEND_SIZE));
		dash_line_add(&l, 1 | DASH_LINE_KEEP, "threads %d%s", w->threads,
			      DASH_STAR(SESSION_PEND_THREADS));
		dash_line_brief(&l, "thr %d%s", w->threads, DASH_STAR(SESSION_PEND_THREADS));
		dash_line_add(&l, 1 | DASH_LINE_KEEP, "streams %d%s", w->streams,
			      DASH_STAR(SESSION_PEND_STREAMS));
		dash_line_brief(&l, "str %d%s", w->streams, DASH_STAR(SESSION_PEND_STREAMS));
		dash_line_add(&l, 1 | DASH_LINE_KEEP, "workers %d%s", w->workers,
			      DASH_STAR(SESSION_PEND_WORKERS));
		dash_line_brief(&l, "wrk %d%s", w->workers, DASH_STAR(SESSION_PEND_WORKERS));
		if (w->loaders > 0 || (p & SESSION_PEND_LOADERS)) {
			dash_line_add(&l, 1 | DASH_LINE_KEEP, "loaders %d%s x %d ms", w->loaders,
				      DASH_STAR(SESSION_PEND_LOADERS), w->prep_ms);
			dash_line_brief(&l, "ld %d%s", w->loaders, DASH_STAR(SESSION_PEND_LOADERS));
		}
		/* The default build goes first on a narrow screen; another one,
		 * or one on its way, stays. */
		bool said = w->blas != SETTINGS_BLAS_PTHREADS || (p & SESSION_PEND_BLAS);
		dash_line_add(&l, said ? 2 | DASH_LINE_KEEP : 3, "%s%s%s",
			      settings_blas_name(w->blas), w->spin_off ? " spin off" : "",
			      DASH_STAR(SESSION_PEND_BLAS));
		dash_line_brief(&l, "%s%s", w->blas == SETTINGS_BLAS_OPENMP ? "omp" : "pth",
				DASH_STAR(SESSION_PEND_BLAS));
		if (w->cpus > 0)
			dash_line_add(&l, 0, "quota %.1f%s", w->cpus,
				      DASH_STAR(SESSION_PEND_QUOTA));
		else
			dash_line_add(&l, 0, "quota none%s", DASH_STAR(SESSION_PEND_QUOTA));
		if (w->paused)
			dash_line_add(&l, 0, "PAUSED%s", DASH_STAR(SESSION_PEND_PAUSED));
#undef DASH_STAR
	} else {
		/* "threadlab attach 4321 python3" live; in a replay the pid
		 * follows the speed, as a field of its own. */
		dash_line_add(&l, h->replay ? 0 : DASH_LINE_GLUE, "%d", (int)h->pid);
		if (h->target && h->target[0]) {
			text_safe(h->target, strlen(h->target), safe, sizeof(safe));
			dash_rows_first_word(safe, word, sizeof(word));
			dash_line_add(&l, 2 | DASH_LINE_GLUE, "%s", safe);
			dash_line_brief(&l, "%s", word);
		}
		if (h->tree)
			dash_line_add(&l, 1 | DASH_LINE_GLUE, "(tree)");
	}
	if (h->sweep && h->sweep[0]) {
		dash_line_add(&l, 0, "%s", h->sweep);
		if (strncmp(h->sweep, "sweep ", 6) == 0)
			dash_line_brief(&l, "sw %s", h->sweep + 6);
	}
	if (!h->replay) {
		dash_line_add(&l, 3 | DASH_LINE_KEEP, "every %gs", h->interval);
		dash_line_brief(&l, "%gs", h->interval);
	}
	if (h->gone)
		dash_line_add(&l, 0, "EXITED");
	return dash_line_render(&l, out, cap, width);
}

size_t dash_rows_budget(char *out, size_t cap, int width, const struct model_budget *b)
{
	const int k = 1 | DASH_LINE_KEEP; /* every term stays; labels shorten */
	struct dash_line l;
	char safe[512];

	dash_line_init(&l, " | ");
	dash_line_add(&l, k, "CPU budget: online %d", b->online);
	dash_line_brief(&l, "budget: online %d", b->online);
	dash_line_add(&l, k, "affinity %d", b->affinity);
	dash_line_brief(&l, "aff %d", b->affinity);
	if (b->cpuset > 0)
		dash_line_add(&l, k, "cpuset %d", b->cpuset);
	else
		dash_line_add(&l, k, "cpuset n/a");
	if (b->quota.unknown)
		dash_line_add(&l, k, "quota ?");
	else if (!b->quota.controller)
		dash_line_add(&l, k, "quota n/a");
	else if (b->quota.cpus < 0)
		dash_line_add(&l, k, "quota none");
	else
		dash_line_add(&l, k, "quota %.2f", b->quota.cpus);
	dash_line_add(&l, 0, "effective %.2f (%s binds)", b->effective,
		      model_term_name(b->binding));
	dash_line_brief(&l, "eff %.2f (%s binds)", b->effective, model_term_name(b->binding));
	if (b->note[0]) {
		text_safe(b->note, strnlen(b->note, sizeof(b->note)), safe, sizeof(safe));
		dash_line_add(&l, 3, "%s", safe);
	}
	return dash_line_render(&l, out, cap, width);
}

/* "cgroup 40.1%" or "cgroup unavailable"; brief "cg 40%". */
static void dash_rows_psi(char *full, char *brief, size_t cap, const char *what,
			  const char *short_what, const struct model_psi *p, enum model_psi_why why)
{
	if (p->available) {
		snprintf(full, cap, "%s %.1f%%", what, p->some_avg10);
		snprintf(brief, cap, "%s %.0f%%", short_what, p->some_avg10);
	} else if (why == MODEL_PSI_WHY_V1) {
		/* A v1 cgroup has no pressure: never the system's figure here. */
		snprintf(full, cap, "%s none on v1", what);
		snprintf(brief, cap, "%s n/a (v1)", short_what);
	} else if (why == MODEL_PSI_WHY_ROOT) {
		snprintf(full, cap, "%s none (root)", what);
		snprintf(brief, cap, "%s n/a", short_what);
	} else {
		snprintf(full, cap, "%s unavailable", what);
		snprintf(brief, cap, "%s n/a", short_what);
	}
}

size_t dash_rows_pressure(char *out, size_t cap, int width, const struct model_sample *m,
			  bool have_rates)
{
	struct dash_line l;
	char cg[64], cgb[64], sys[64], sysb[64];
	bool throttled = false;

	dash_line_init(&l, " | ");
	if (!have_rates) {
		dash_line_add(&l, 0, "run-queue wait measuring...");
		dash_line_brief(&l, "wait measuring...");
		dash_line_add(&l, 1, "throttled measuring...");
	} else {
		dash_line_add(&l, 0, "run-queue wait %.2f s/s", m->total_wait_pct / 100.0);
		dash_line_brief(&l, "wait %.2f s/s", m->total_wait_pct / 100.0);
		if (m->throttle.valid) {
			throttled = m->throttle.throttled_s_per_s >= 0.005 ||
				    m->throttle.throttled_pct >= 0.5;
			/* Never dropped while it throttles; PSI shortens first. */
			/* Read in a tighter ancestor: named, as it is not the
			 * target's own cgroup. */
			char in[MODEL_PATH_MAX + 8] = "";
			if (m->stat_name[0]) {
				char safe[3 * MODEL_PATH_MAX];
				text_safe(m->stat_name, strlen(m->stat_name), safe, sizeof(safe));
				snprintf(in, sizeof(in), " in %.200s", safe);
			}
			dash_line_add(&l, throttled ? 1 | DASH_LINE_KEEP : 1,
				      "throttled%s %.2f s/s (%.0f%% of periods%s)", in,
				      m->throttle.throttled_s_per_s, m->throttle.throttled_pct,
				      throttled ? ", a wait for each queued thread" : "");
			dash_line_brief(&l, "throttled%s %.2f s/s (%.0f%%)", in,
					m->throttle.throttled_s_per_s, m->throttle.throttled_pct);
		} else {
			dash_line_add(&l, 2, "throttled n/a");
		}
	}
	dash_rows_psi(cg, cgb, sizeof(cg), "cgroup", "cg", &m->psi_cgroup, m->psi_cgroup_why);
	dash_rows_psi(sys, sysb, sizeof(sys), "system", "sys", &m->psi_system, MODEL_PSI_WHY_NONE);
	dash_line_add(&l, 2 | DASH_LINE_KEEP, "PSI some: %s %s", cg, sys);
	dash_line_brief(&l, "PSI %s %s", cgb, sysb);
	return dash_line_render(&l, out, cap, width);
}

size_t dash_rows_throughput(char *out, size_t cap, int width, const struct workload_report *w)
{
	struct dash_line l;

	dash_line_init(&l, " | ");
	dash_line_add(&l, 0, "GFLOP/s %.1f", w->gflops);
	/* The triad's bytes are what it measures; GEMM's come from the model. */
	bool triad = w->kernel && strcmp(w->kernel, "triad") == 0;
	if (triad)
		dash_line_add(&l, 0, "GB/s %.1f", w->gbs);
	else if (w->gbs > 0)
		dash_line_add(&l, 3, "GB/s %.1f (model)", w->gbs);
	if (w->single_thread_gflops > 0) {
		dash_line_add(&l, 1, "ideal %.1f", w->ideal_gflops);
		dash_line_add(&l, 1 | DASH_LINE_KEEP, "ceiling %.1f", w->ceiling_gflops);
		dash_line_brief(&l, "ceil %.1f", w->ceiling_gflops);
		dash_line_add(&l, 1, "%.0f%% of ideal",
			      100.0 * throughput_efficiency(w->gflops, w->ideal_gflops));
		dash_line_brief(&l, "%.0f%%",
				100.0 * throughput_efficiency(w->gflops, w->ideal_gflops));
	} else {
		/* Measured in passing while one intra-op thread runs. */
		dash_line_add(&l, 1, "ideal ?");
		if (w->threads == 1 && !w->paused)
			dash_line_add(&l, 1, "ceiling measuring...");
		else
			dash_line_add(&l, 1, "ceiling ? (needs a 1-thread run: - or s)");
	}
	/* The setting now in effect: results since it was applied. */
	if (!w->epoch_results_checked) {
		dash_line_add(&l, 2, "results not checked yet");
		dash_line_brief(&l, "unchecked");
	} else if (w->epoch_results_equal) {
		dash_line_add(&l, 2, "results equal");
		dash_line_brief(&l, "equal");
	} else {
		dash_line_add(&l, 2 | DASH_LINE_KEEP, "results differ %.2g", w->epoch_max_diff);
		dash_line_brief(&l, "differ %.2g", w->epoch_max_diff);
	}
	return dash_line_render(&l, out, cap, width);
}

/* Per-stream GFLOP/s ("s0 76.1 s1 85.2") into full and brief ("s0 76 s1
 * 85") and per-stream CPU ("s0 0.98/1.00 s1 …") into cpu. */
static void dash_rows_streams(const struct workload_report *w, char *full, char *brief, char *cpu,
			      size_t cap)
{
	size_t of = 0, ob = 0, oc = 0;

	full[0] = brief[0] = cpu[0] = '\0';
	for (int i = 0; i < w->nstreams && i < SETTINGS_MAX_STREAMS; i++) {
		const struct workload_stream_report *r = &w->stream[i];
		bool failed = r->state && strcmp(r->state, "failed") == 0;
		if (!r->wanted && !failed)
			continue; /* parked: the threads table says so */
		const char *sp = of ? " " : "";
		int a, b, c;
		if (failed) {
			a = snprintf(full + of, cap - of, "%ss%d FAILED", sp, r->stream);
			b = snprintf(brief + ob, cap - ob, "%ss%d FAILED", sp, r->stream);
		} else {
			a = snprintf(full + of, cap - of, "%ss%d %.1f", sp, r->stream, r->gflops);
			b = snprintf(brief + ob, cap - ob, "%ss%d %.0f", sp, r->stream, r->gflops);
		}
		c = snprintf(cpu + oc, cap - oc, "%ss%d %.2f/%.2f", sp, r->stream, r->useful_cpus,
			     r->cpu_cpus);
		of += a > 0 && (size_t)a < cap - of ? (size_t)a : 0;
		ob += b > 0 && (size_t)b < cap - ob ? (size_t)b : 0;
		oc += c > 0 && (size_t)c < cap - oc ? (size_t)c : 0;
	}
}

size_t dash_rows_work(char *out, size_t cap, int width, const struct workload_report *w)
{
	struct dash_line l;
	char full[256], brief[256], cpu[256];
	double spin = w->cpu_cpus - w->useful_cpus;

	dash_line_init(&l, " | ");
	if (w->nstreams == 0) {
		dash_line_add(&l, 0, "work measuring...");
	} else {
		/* useful_cpus is the helpers' CPU time inside GEMM calls (capped
		 * at what /proc shows); the rest is idle pool threads spinning
		 * and driver overhead. */
		dash_line_add(&l, 0, "work %.2f of %.2f CPUs busy (%.2f spin/overhead)",
			      w->useful_cpus, w->cpu_cpus, spin > 0 ? spin : 0.0);
		dash_line_brief(&l, "work %.2f of %.2f CPU (%.2f spin)", w->useful_cpus,
				w->cpu_cpus, spin > 0 ? spin : 0.0);
	}
	if (w->loaders > 0) {
		/* The pipeline first: when input is short, thread tuning is moot. */
		bool bound = w->input_wait_pct >= 20;
		dash_line_add(&l, bound ? 0 : 1, "%s %.0f%% | %.1f batches/s | loaders %.2f CPU",
			      bound ? "input-bound" : "input wait", w->input_wait_pct,
			      w->batches_per_s, w->loader_cpu_pct / 100.0);
		dash_line_brief(&l, "%s %.0f%% %.0f b/s", bound ? "input-bound" : "in-wait",
				w->input_wait_pct, w->batches_per_s);
	}
	dash_rows_streams(w, full, brief, cpu, sizeof(full));
	if (w->streams > 1 || strstr(full, "FAILED")) {
		dash_line_add(&l, strstr(full, "FAILED") ? 0 : 1, "per stream GFLOP/s: %s", full);
		dash_line_brief(&l, "%s", brief);
		if (w->streams > 1)
			dash_line_add(&l, 3, "per stream in GEMM/busy: %s", cpu);
	}
	if (w->nstreams > 0)
		dash_line_add(&l, 4, "%s%s",
			      w->blas_variant && strcmp(w->blas_variant, "openmp") == 0
				  ? "OpenMP build, "
				  : "",
			      w->spin_off ? "--blas-spin off" : "--blas-spin default");
	return dash_line_render(&l, out, cap, width);
}

size_t dash_rows_summary(char *out, size_t cap, int width, const struct model_sample *r,
			 double runnable, double effective, enum verdict v)
{
	struct dash_line l;
	char f[64] = "";

	dash_line_init(&l, " | ");
	if (effective > 0) {
		double x = demand_factor(runnable, effective);
		const char *word = demand_oversubscribed(x) ? "oversubscribed" : "";
		if (v < VERDICT_N)
			word =
			    v == VERDICT_FINE || v == VERDICT_IDLE ? "" : diagnosis_verdict_name(v);
		snprintf(f, sizeof(f), ": %.2fx%s%s", x, *word ? " " : "", word);
	}
	dash_line_add(&l, 2 | DASH_LINE_KEEP,
		      "runnable %.2f of %zu threads on average on %.2f effective CPUs%s", runnable,
		      r->nthreads, effective, f);
	dash_line_brief(&l, "runnable %.2f of %zu threads on %.2f CPUs%s", runnable, r->nthreads,
			effective, f);
	dash_line_add(&l, 3, "%d in state R now", r->runnable);
	dash_line_brief(&l, "%d R", r->runnable);
	dash_line_add(&l, 1, "total CPU %.0f%% wait %.0f%%", r->total_cpu_pct, r->total_wait_pct);
	dash_line_brief(&l, "CPU %.0f%% wait %.0f%%", r->total_cpu_pct, r->total_wait_pct);
	return dash_line_render(&l, out, cap, width);
}

size_t dash_rows_chart_title(char *out, size_t cap, int width, int size, int precision,
			     double ceiling, bool fit, bool utf8)
{
	struct dash_line l;
	const char *im = utf8 ? "\u250a" : ":", *cm = utf8 ? "\u2502" : "|";
	const char *fm = utf8 ? "\u25c6" : "o";
	char ceil[32] = "?"; /* not known until a 1-thread run */
	if (ceiling > 0)
		snprintf(ceil, sizeof(ceil), "%.1f", ceiling);

	dash_line_init(&l, " | ");
	dash_line_add(&l, 0, "Scaling n=%d %s", size,
		      precision == SETTINGS_DOUBLE ? "dgemm" : "sgemm");
	dash_line_add(&l, 1 | DASH_LINE_KEEP, "bars: steady GFLOP/s, %s ideal, %s ceiling %s%s%s%s",
		      im, cm, ceil, fit ? ", " : "", fit ? fm : "", fit ? " Amdahl fit" : "");
	dash_line_brief(&l, "%s ideal %s ceiling %s%s%s%s", im, cm, ceil, fit ? " " : "",
			fit ? fm : "", fit ? " fit" : "");
	dash_line_add(&l, 2, "right: GFLOP/s, %% of ideal");
	dash_line_brief(&l, "GFLOP/s, %% of ideal");
	/* what a row's "2x1" means (streams x threads), * left out of the fit */
	dash_line_add(&l, 3, "rows: streams x threads, * not fitted");
	dash_line_brief(&l, "streams x threads");
	return dash_line_render(&l, out, cap, width);
}
