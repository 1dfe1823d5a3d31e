/* metrics.c — the Prometheus and OpenMetrics expositions (metrics.h).
 *
 * Written family by family: a family's # HELP and # TYPE come with its
 * first sample, so a family with nothing to say (no quota cgroup, no lab)
 * is left out whole.  Series that two targets share (a cgroup) are written
 * once. */
#include "config.h"

#include "metrics.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demand.h"
#include "metrics-impl.h"
#include "text-safe.h"

static const char *const metrics_suffix[] = {[FAMILY_GAUGE] = "",
					     [FAMILY_COUNTER] = "_total",
					     [FAMILY_INFO] = "_info",
					     [FAMILY_HISTOGRAM] = ""};

void metrics_family(struct metrics_ctx *c, const struct family *fam)
{
	c->fam = fam;
	c->started = false;
}

void metrics_sample_as(struct metrics_ctx *c, const char *suffix)
{
	const struct family *m = c->fam;
	if (!c->started) {
		const char *s = c->fmt == METRICS_PROMETHEUS ? metrics_suffix[m->type] : "";
		const char *type = m->type == FAMILY_COUNTER	 ? "counter"
				   : m->type == FAMILY_HISTOGRAM ? "histogram"
				   : m->type == FAMILY_INFO && c->fmt == METRICS_OPENMETRICS
				       ? "info"
				       : "gauge";
		fprintf(c->out, "# HELP %s%s %s\n# TYPE %s%s %s\n", m->name, s, m->help, m->name, s,
			type);
		c->started = true;
	}
	fprintf(c->f, "%s%s", m->name, suffix);
	c->labels = false;
}

/* Starts a sample line: the family's metadata first if it is the first,
 * then the sample name (labels follow, then metrics_value). */
void metrics_sample(struct metrics_ctx *c)
{
	metrics_sample_as(c, metrics_suffix[c->fam->type]);
}

size_t metrics_label_value(FILE *f, const char *v, size_t len)
{
	size_t o = 0;
	const unsigned char *s = (const unsigned char *)v;
	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t n = s[i] >= 0x80 ? text_safe_decode(s + i, len - i, &cp) : 1;
		if (s[i] == '\\' || s[i] == '"') {
			fputc('\\', f);
			fputc(s[i], f);
			o += 2;
		} else if (s[i] == '\n') {
			fputs("\\n", f);
			o += 2;
		} else if (n == 0 || s[i] < 0x20 || s[i] == 0x7f || (n == 2 && cp < 0xa0)) {
			/* invalid, or a C0 or C1 control: each byte as text */
			n = n ? n : 1;
			for (size_t k = 0; k < n; k++)
				fprintf(f, "\\\\x%02x", s[i + k]);
			o += 5 * n;
		} else {
			fwrite(s + i, 1, n, f);
			o += n;
		}
		i += n;
	}
	return o;
}

void metrics_label(struct metrics_ctx *c, const char *name, const char *v, size_t len)
{
	fprintf(c->f, "%s%s=\"", c->labels ? "," : "{", name);
	c->labels = true;
	metrics_label_value(c->f, v, len);
	fputc('"', c->f);
}

void metrics_label_str(struct metrics_ctx *c, const char *name, const char *v)
{
	metrics_label(c, name, v, strlen(v));
}

void metrics_label_int(struct metrics_ctx *c, const char *name, long v)
{
	fprintf(c->f, "%s%s=\"%ld\"", c->labels ? "," : "{", name, v);
	c->labels = true;
}

/* The sample line so far goes out (keep) or is dropped; f starts over. */
static void metrics_line_end(struct metrics_ctx *c, bool keep)
{
	fflush(c->f);
	if (keep)
		fwrite(c->line, 1, c->line_len, c->out);
	rewind(c->f);
}

/* Ends the labels and writes the value.  A value that is not a finite
 * number leaves its sample out: a counter or gauge of +Inf or NaN is not a
 * measurement (it came from arithmetic on bad input), and a scraper would
 * keep it. */
void metrics_value(struct metrics_ctx *c, double v)
{
	if (c->labels)
		fputc('}', c->f);
	if (!isfinite(v) || (c->fam->type == FAMILY_COUNTER && v < 0)) {
		metrics_line_end(c, false);
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15)
		fprintf(c->f, " %.0f\n", v);
	else
		fprintf(c->f, " %.10g\n", v);
	metrics_line_end(c, true);
}

void metrics_uint(struct metrics_ctx *c, unsigned long long v)
{
	fprintf(c->f, "%s %llu\n", c->labels ? "}" : "", v);
	metrics_line_end(c, true);
}

/* ---- families --------------------------------------------------------- */

static const struct family fam_target = {
    "threadlab_target", FAMILY_INFO,
    "A followed target: its pid, command name, how it was found (lab, attach, command, match) "
    "and its CPU cgroup (/proc/PID/cgroup)."};
static const struct family fam_samples = {"threadlab_samples", FAMILY_COUNTER,
					  "Samples threadlab has taken of its targets."};
static const struct family fam_thread_cpu = {
    "threadlab_thread_cpu_seconds", FAMILY_COUNTER,
    "CPU time of a thread in user and system mode, from /proc/PID/task/TID/stat fields 14 "
    "and 15."};
static const struct family fam_thread_wait = {
    "threadlab_thread_runqueue_wait_seconds", FAMILY_COUNTER,
    "Time a thread was runnable but waiting for a CPU, from /proc/PID/task/TID/schedstat "
    "field 2 (under a CPU quota it includes the time the cgroup was throttled)."};
static const struct family fam_thread_csw = {
    "threadlab_thread_context_switches", FAMILY_COUNTER,
    "Context switches of a thread, from voluntary_ctxt_switches and "
    "nonvoluntary_ctxt_switches of /proc/PID/task/TID/status."};
static const struct family fam_folded = {
    "threadlab_threads_folded", FAMILY_GAUGE,
    "Threads of a process exported only in their groups (beyond --metrics-max-threads)."};
static const struct family fam_group_threads = {
    "threadlab_group_threads", FAMILY_GAUGE,
    "Threads of a process that share a name stem (the name less its trailing digits)."};
static const struct family fam_group_cpu = {
    "threadlab_group_cpu_seconds", FAMILY_COUNTER,
    "CPU time of a thread group in user and system mode, from /proc/PID/task/TID/stat fields "
    "14 and 15 of its threads, those that ended included."};
static const struct family fam_group_wait = {
    "threadlab_group_runqueue_wait_seconds", FAMILY_COUNTER,
    "Run-queue wait of a thread group, from /proc/PID/task/TID/schedstat field 2 of its "
    "threads, those that ended included."};
static const struct family fam_budget = {
    "threadlab_cpu_budget_cpus", FAMILY_GAUGE,
    "CPUs of each term of a process's CPU budget: online, its affinity mask, its cpuset, its "
    "cgroup quota / period (the tightest up the tree); effective is their minimum."};
static const struct family fam_binding = {
    "threadlab_cpu_budget_binding", FAMILY_GAUGE,
    "1 for the budget term that binds (sets the effective CPUs), 0 for the others."};
static const struct family fam_periods = {
    "threadlab_cgroup_cpu_cfs_periods", FAMILY_COUNTER,
    "CPU quota enforcement periods elapsed, from nr_periods of the cgroup's cpu.stat."};
static const struct family fam_throttled_periods = {
    "threadlab_cgroup_cpu_cfs_throttled_periods", FAMILY_COUNTER,
    "Periods in which the cgroup was throttled, from nr_throttled of its cpu.stat."};
static const struct family fam_throttled_seconds = {
    "threadlab_cgroup_cpu_cfs_throttled_seconds", FAMILY_COUNTER,
    "Time the cgroup was throttled, from throttled_time (v1) or throttled_usec (v2) of its "
    "cpu.stat."};
static const struct family fam_cgroup_psi = {
    "threadlab_cgroup_pressure_cpu_waiting_seconds", FAMILY_COUNTER,
    "Time some task of the cgroup waited for a CPU, from the some total of its cpu.pressure."};
static const struct family fam_psi = {
    "threadlab_pressure_cpu_waiting_seconds", FAMILY_COUNTER,
    "Time some task of the machine waited for a CPU, from the some total of "
    "/proc/pressure/cpu."};
static const struct family fam_runnable = {
    "threadlab_runnable_threads_mean", FAMILY_GAUGE,
    "Mean runnable threads of a target over the last interval: the sum over its threads of "
    "(run time + run-queue wait) / interval, from schedstat."};
static const struct family fam_ratio = {
    "threadlab_oversubscription_ratio", FAMILY_GAUGE,
    "Mean runnable threads over the effective CPUs, over the last interval: above 1 threads "
    "queue for a CPU."};
static const struct family fam_verdict = {
    "threadlab_verdict", FAMILY_GAUGE,
    "The diagnosis of a target as a state set: 1 for its verdict, 0 for the other states "
    "(threadlab(1), DIAGNOSIS)."};
static const struct family fam_flops = {
    "threadlab_workload_flops", FAMILY_COUNTER,
    "Floating-point operations a stream of the lab's GEMM workload completed (2 n^3 a call)."};
static const struct family fam_gemms = {"threadlab_workload_gemm_calls", FAMILY_COUNTER,
					"GEMM calls a stream of the lab's workload completed."};

static const struct family fam_progress = {
    "threadlab_progress_steps", FAMILY_COUNTER,
    "Steps of the job's progress counted from its output lines (--progress REGEX)."};
static const struct family fam_progress_rate = {
    "threadlab_progress_steps_per_second", FAMILY_GAUGE,
    "The job's progress rate over the last 2 s (--progress REGEX)."};

/* A per-lab family: a counter from the lab's status or a gauge of what the
 * outputs show of the workload; one series per lab target, label pid. */
struct lab_gauge {
	struct family fam;
	double (*get)(const struct session *s);
};

static double lab_threads(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->threads;
}
static double lab_streams(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->streams;
}
static double lab_size(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->size;
}
static double lab_workers(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->workers;
}
static double lab_quota(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->cpus > 0 ? w->cpus : 0;
}
static double lab_gflops(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->gflops;
}
static double lab_single(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->single_thread_gflops >= 0 ? w->single_thread_gflops : (double)NAN;
}
static double lab_ideal(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->single_thread_gflops >= 0 ? w->ideal_gflops : (double)NAN;
}
static double lab_ceiling(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->single_thread_gflops >= 0 ? w->ceiling_gflops : (double)NAN;
}

static double lab_loaders(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->loaders;
}

static const struct family fam_lab_info = {
    "threadlab_workload_info", FAMILY_GAUGE,
    "The lab's OpenBLAS build: blas as asked (pthreads, openmp), variant as loaded, spin "
    "default or off; always 1."};

/* The input pipeline's totals (lab_status counters), base units. */
static double lab_batches(const struct session *s)
{
	const struct lab_status *st = &s->lab_status;
	return (double)st->batches;
}
static double lab_input_wait(const struct session *s)
{
	const struct lab_status *st = &s->lab_status;
	return (double)st->input_wait_ns / 1e9;
}
static double lab_loader_cpu(const struct session *s)
{
	const struct lab_status *st = &s->lab_status;
	return (double)st->loader_cpu_ns / 1e9;
}

static const struct lab_gauge lab_gauges[] = {
    {{"threadlab_workload_input_batches", FAMILY_COUNTER,
      "Input batches the lab's GEMM streams took from the loaders' ring (one per GEMM)."},
     lab_batches},
    {{"threadlab_workload_input_wait_seconds", FAMILY_COUNTER,
      "Time the lab's streams waited for an input batch, summed over the streams."},
     lab_input_wait},
    {{"threadlab_workload_loader_cpu_seconds", FAMILY_COUNTER,
      "CPU time the lab's loaders spent preparing batches."},
     lab_loader_cpu},
    {{"threadlab_workload_loaders", FAMILY_GAUGE,
      "Input-pipeline loader processes the lab runs (0: no pipeline)."},
     lab_loaders},
    {{"threadlab_workload_threads", FAMILY_GAUGE,
      "Intra-op threads the lab asks of OpenBLAS for each GEMM."},
     lab_threads},
    {{"threadlab_workload_streams", FAMILY_GAUGE,
      "Inter-op streams of the lab: GEMMs running at once."},
     lab_streams},
    {{"threadlab_workload_size", FAMILY_GAUGE, "n of the lab's n x n GEMM."}, lab_size},
    {{"threadlab_workload_workers", FAMILY_GAUGE,
      "Background CPU workers the lab runs beside its GEMMs."},
     lab_workers},
    {{"threadlab_workload_quota_cpus", FAMILY_GAUGE,
      "CPU quota the lab puts on its workload, CPUs; 0 when none."},
     lab_quota},
    {{"threadlab_workload_gflops", FAMILY_GAUGE, "The lab's GFLOP/s now, smoothed."}, lab_gflops},
    {{"threadlab_workload_single_thread_gflops", FAMILY_GAUGE,
      "GFLOP/s of one thread at this size and precision, measured by the lab."},
     lab_single},
    {{"threadlab_workload_ideal_gflops", FAMILY_GAUGE,
      "Single-thread GFLOP/s x min(threads x streams, effective CPUs)."},
     lab_ideal},
    {{"threadlab_workload_ceiling_gflops", FAMILY_GAUGE, "Single-thread GFLOP/s x effective CPUs."},
     lab_ceiling},
};

/* ---- writers ------------------------------------------------------------ */

static void metrics_targets(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	char name[512];
	metrics_family(c, &fam_target);
	for (size_t i = 0; i < n; i++) {
		const struct session *s = t[i].s;
		session_target_name(s, name, sizeof(name));
		metrics_sample(c);
		metrics_label_int(c, "pid", s->target);
		metrics_label_str(c, "name", name);
		metrics_label_str(c, "mode", t[i].mode);
		metrics_label_str(c, "cgroup", s->cur.budget.loc.path);
		metrics_value(c, 1);
	}
}

/* The threads of one target that get series of their own: in each
 * process, the first max (lowest TIDs, the longest-lived: the series stay
 * put as threads come and go). */
static bool metrics_thread_shown(const struct thread_set *set, size_t i, size_t max)
{
	size_t first = i;
	while (first > 0 && set->v[first - 1].pid == set->v[i].pid)
		first--;
	return i - first < max;
}

static void metrics_thread_labels(struct metrics_ctx *c, const struct thread_sample *x)
{
	metrics_label_int(c, "pid", x->pid);
	metrics_label_int(c, "tid", x->tid);
	metrics_label(c, "name", x->name, x->name_len);
}

static void metrics_threads(struct metrics_ctx *c, const struct metrics_target *t, size_t n,
			    size_t max)
{
	metrics_family(c, &fam_thread_cpu);
	for (size_t k = 0; k < n; k++) {
		const struct thread_set *set = &t[k].s->cur.threads;
		double hz = (double)t[k].s->groups.hz;
		for (size_t i = 0; i < set->n; i++) {
			if (!metrics_thread_shown(set, i, max))
				continue;
			const struct thread_sample *x = &set->v[i];
			metrics_sample(c);
			metrics_thread_labels(c, x);
			metrics_label_str(c, "mode", "user");
			metrics_value(c, (double)x->utime / hz);
			metrics_sample(c);
			metrics_thread_labels(c, x);
			metrics_label_str(c, "mode", "system");
			metrics_value(c, (double)x->stime / hz);
		}
	}
	metrics_family(c, &fam_thread_wait);
	for (size_t k = 0; k < n; k++) {
		const struct thread_set *set = &t[k].s->cur.threads;
		for (size_t i = 0; i < set->n; i++) {
			if (!metrics_thread_shown(set, i, max))
				continue;
			metrics_sample(c);
			metrics_thread_labels(c, &set->v[i]);
			metrics_value(c, (double)set->v[i].wait_ns / 1e9);
		}
	}
	metrics_family(c, &fam_thread_csw);
	for (size_t k = 0; k < n; k++) {
		const struct thread_set *set = &t[k].s->cur.threads;
		for (size_t i = 0; i < set->n; i++) {
			if (!metrics_thread_shown(set, i, max))
				continue;
			metrics_sample(c);
			metrics_thread_labels(c, &set->v[i]);
			metrics_label_str(c, "ctxswitchtype", "voluntary");
			metrics_uint(c, (unsigned long long)set->v[i].vcsw);
			metrics_sample(c);
			metrics_thread_labels(c, &set->v[i]);
			metrics_label_str(c, "ctxswitchtype", "nonvoluntary");
			metrics_uint(c, (unsigned long long)set->v[i].ivcsw);
		}
	}
	metrics_family(c, &fam_folded);
	for (size_t k = 0; k < n; k++) {
		const struct thread_set *set = &t[k].s->cur.threads;
		for (size_t i = 0, j; i < set->n; i = j) {
			for (j = i; j < set->n && set->v[j].pid == set->v[i].pid;)
				j++;
			metrics_sample(c);
			metrics_label_int(c, "pid", set->v[i].pid);
			metrics_value(c, j - i > max ? (double)(j - i - max) : 0);
		}
	}
}

void metrics_group_labels(struct metrics_ctx *c, const struct thread_group *g)
{
	metrics_label_int(c, "pid", g->pid);
	metrics_label(c, "group", g->stem, g->stem_len);
}

static void metrics_groups(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	metrics_family(c, &fam_group_threads);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < t[k].s->groups.n; i++) {
			metrics_sample(c);
			metrics_group_labels(c, &t[k].s->groups.v[i]);
			metrics_value(c, t[k].s->groups.v[i].threads);
		}
	metrics_family(c, &fam_group_cpu);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < t[k].s->groups.n; i++) {
			const struct thread_group *g = &t[k].s->groups.v[i];
			metrics_sample(c);
			metrics_group_labels(c, g);
			metrics_label_str(c, "mode", "user");
			metrics_value(c, g->user_s);
			metrics_sample(c);
			metrics_group_labels(c, g);
			metrics_label_str(c, "mode", "system");
			metrics_value(c, g->system_s);
		}
	metrics_family(c, &fam_group_wait);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < t[k].s->groups.n; i++) {
			metrics_sample(c);
			metrics_group_labels(c, &t[k].s->groups.v[i]);
			metrics_value(c, t[k].s->groups.v[i].wait_s);
		}
}

static void metrics_budget(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	static const char *const terms[] = {"online", "affinity", "cpuset", "quota"};
	metrics_family(c, &fam_budget);
	for (size_t k = 0; k < n; k++) {
		const struct budget *b = &t[k].s->cur.budget;
		double v[] = {b->online, b->affinity, b->cpuset, b->quota.cpus};
		for (size_t i = 0; i < 4; i++) {
			if (i < 3 ? v[i] <= 0 : v[i] < 0)
				continue; /* not known, or no quota */
			metrics_sample(c);
			metrics_label_int(c, "pid", t[k].s->target);
			metrics_label_str(c, "term", terms[i]);
			metrics_value(c, v[i]);
		}
		if (b->effective > 0) {
			metrics_sample(c);
			metrics_label_int(c, "pid", t[k].s->target);
			metrics_label_str(c, "term", "effective");
			metrics_value(c, b->effective);
		}
	}
	metrics_family(c, &fam_binding);
	for (size_t k = 0; k < n; k++) {
		const struct budget *b = &t[k].s->cur.budget;
		double v[] = {b->online, b->affinity, b->cpuset, b->quota.cpus};
		for (size_t i = 0; i < 4 && b->effective > 0; i++) {
			if (i < 3 ? v[i] <= 0 : v[i] < 0)
				continue;
			metrics_sample(c);
			metrics_label_int(c, "pid", t[k].s->target);
			metrics_label_str(c, "term", terms[i]);
			metrics_value(c, (int)b->binding == (int)i);
		}
	}
}

/* The cgroup path of a snapshot's cpu.stat directory, as /proc/PID/cgroup
 * writes paths: the directory less its hierarchy's mount point. */
static const char *metrics_cgroup(const struct snapshot *s)
{
	const char *mount = s->budget.loc.mount_dir;
	size_t ml = strlen(mount);
	if (ml && strncmp(s->stat_dir, mount, ml) == 0 &&
	    (s->stat_dir[ml] == '/' || !s->stat_dir[ml]))
		return s->stat_dir[ml] ? s->stat_dir + ml : "/";
	return s->budget.loc.path[0] ? s->budget.loc.path : "/";
}

/* Whether target k is the first whose cgroup is this one (a cgroup's
 * series are written once). */
static bool metrics_cgroup_first(const struct metrics_target *t, size_t k)
{
	const char *mine = metrics_cgroup(&t[k].s->cur);
	for (size_t i = 0; i < k; i++)
		if (strcmp(metrics_cgroup(&t[i].s->cur), mine) == 0)
			return false;
	return true;
}

enum cgroup_figure { CG_PERIODS, CG_THROTTLED, CG_THROTTLED_S, CG_PSI };

static void metrics_cgroup_family(struct metrics_ctx *c, const struct family *fam,
				  const struct metrics_target *t, size_t n, enum cgroup_figure what)
{
	metrics_family(c, fam);
	for (size_t k = 0; k < n; k++) {
		const struct snapshot *s = &t[k].s->cur;
		bool have = what == CG_PSI ? s->psi_cgroup.available
					   : s->has_cpustat && s->cpustat.has_periods;
		if (!have || !metrics_cgroup_first(t, k))
			continue;
		metrics_sample(c);
		metrics_label_str(c, "cgroup", metrics_cgroup(s));
		if (what == CG_PERIODS)
			metrics_uint(c, (unsigned long long)s->cpustat.nr_periods);
		else if (what == CG_THROTTLED)
			metrics_uint(c, (unsigned long long)s->cpustat.nr_throttled);
		else if (what == CG_THROTTLED_S)
			metrics_value(c, s->cpustat.throttled_s);
		else
			metrics_value(c, (double)s->psi_cgroup.some_total_us / 1e6);
	}
}

static void metrics_cgroups(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	metrics_cgroup_family(c, &fam_periods, t, n, CG_PERIODS);
	metrics_cgroup_family(c, &fam_throttled_periods, t, n, CG_THROTTLED);
	metrics_cgroup_family(c, &fam_throttled_seconds, t, n, CG_THROTTLED_S);
	metrics_cgroup_family(c, &fam_cgroup_psi, t, n, CG_PSI);
	metrics_family(c, &fam_psi);
	for (size_t k = 0; k < n; k++)
		if (t[k].s->cur.psi_system.available) {
			metrics_sample(c); /* the machine's: once */
			metrics_value(c, (double)t[k].s->cur.psi_system.some_total_us / 1e6);
			break;
		}
}

static void metrics_diagnosis(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	metrics_family(c, &fam_runnable);
	for (size_t k = 0; k < n; k++)
		if (t[k].s->have_rates) {
			metrics_sample(c);
			metrics_label_int(c, "pid", t[k].s->target);
			metrics_value(c, t[k].s->runnable_mean);
		}
	metrics_family(c, &fam_ratio);
	for (size_t k = 0; k < n; k++)
		if (t[k].s->have_rates && t[k].s->cur.budget.effective > 0) {
			metrics_sample(c);
			metrics_label_int(c, "pid", t[k].s->target);
			metrics_value(
			    c, demand_factor(t[k].s->runnable_mean, t[k].s->cur.budget.effective));
		}
	metrics_family(c, &fam_verdict);
	for (size_t k = 0; k < n; k++)
		for (int v = 0; t[k].s->have_diag && v < VERDICT_N; v++) {
			metrics_sample(c);
			metrics_label_int(c, "pid", t[k].s->target);
			metrics_label_str(c, "verdict", diagnosis_verdict_name((enum verdict)v));
			metrics_value(c, t[k].s->diag.verdict == (enum verdict)v);
		}
}

static bool metrics_is_lab(const struct session *s)
{
	return s->kind == SESSION_LAB && s->lab && s->lab_status.nslots > 0;
}

static void metrics_lab(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	const struct family *fams[] = {&fam_flops, &fam_gemms};
	for (size_t f = 0; f < 2; f++) {
		metrics_family(c, fams[f]);
		for (size_t k = 0; k < n; k++) {
			const struct lab_status *st = &t[k].s->lab_status;
			for (int i = 0; metrics_is_lab(t[k].s) && i < st->nslots; i++) {
				metrics_sample(c);
				metrics_label_int(c, "stream", i);
				metrics_uint(c, (unsigned long long)(f == 0 ? st->stream[i].flops
									    : st->stream[i].gemms));
			}
		}
	}
	metrics_family(c, &fam_lab_info);
	for (size_t k = 0; k < n; k++)
		if (metrics_is_lab(t[k].s)) {
			const struct workload_report *w = &t[k].s->work;
			metrics_sample(c);
			metrics_label_int(c, "pid", t[k].s->target);
			metrics_label_str(c, "blas", w->blas ? w->blas : "pthreads");
			metrics_label_str(c, "variant", w->blas_variant ? w->blas_variant : "");
			metrics_label_str(c, "spin", w->spin_off ? "off" : "default");
			metrics_value(c, 1);
		}
	for (size_t g = 0; g < sizeof(lab_gauges) / sizeof(lab_gauges[0]); g++) {
		metrics_family(c, &lab_gauges[g].fam);
		for (size_t k = 0; k < n; k++)
			if (metrics_is_lab(t[k].s)) {
				metrics_sample(c);
				metrics_label_int(c, "pid", t[k].s->target);
				metrics_value(c, lab_gauges[g].get(t[k].s));
			}
	}
}

/* The job's own progress, for the targets that count it. */
static void metrics_progress(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	metrics_family(c, &fam_progress);
	for (size_t k = 0; k < n; k++)
		if (t[k].s->progress.on) {
			metrics_sample(c);
			metrics_label_int(c, "pid", t[k].s->target);
			metrics_value(c, t[k].s->progress.count);
		}
	metrics_family(c, &fam_progress_rate);
	for (size_t k = 0; k < n; k++)
		if (t[k].s->progress.on && t[k].s->progress.rate >= 0) {
			metrics_sample(c);
			metrics_label_int(c, "pid", t[k].s->target);
			metrics_value(c, t[k].s->progress.rate);
		}
}

int metrics_write(FILE *f, enum metrics_format fmt, const struct metrics_target *t, size_t n,
		  const struct metrics_opts *o)
{
	struct metrics_ctx c = {.out = f, .fmt = fmt};
	size_t max = o->max_threads;
	c.f = open_memstream(&c.line, &c.line_len);
	if (!c.f)
		return -ENOMEM;
	metrics_targets(&c, t, n);
	metrics_family(&c, &fam_samples);
	metrics_sample(&c);
	metrics_uint(&c, o->samples);
	metrics_threads(&c, t, n, max);
	metrics_groups(&c, t, n);
	metrics_latency(&c, t, n);
	metrics_budget(&c, t, n);
	metrics_cgroups(&c, t, n);
	metrics_diagnosis(&c, t, n);
	metrics_lab(&c, t, n);
	metrics_progress(&c, t, n);
	if (fmt == METRICS_OPENMETRICS)
		fputs("# EOF\n", f);
	bool bad = ferror(c.f);
	fclose(c.f);
	free(c.line);
	return bad || ferror(f) ? -EIO : 0;
}

const char *metrics_mode(const struct session *s)
{
	switch (s->kind) {
	case SESSION_LAB:
		return "lab";
	case SESSION_LAUNCH:
		return "command";
	case SESSION_ATTACH:
		break;
	}
	return "attach";
}
