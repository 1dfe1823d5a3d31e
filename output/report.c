/* report.c — text, CSV and JSON Lines output of budgets and samples.
 *
 * JSON goes through json-out.h and CSV through csv-out.h, the writers every
 * format shares; text is laid out here, names made safe by text_safe(). */
#include "config.h"

#include "report.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "csv-out.h"
#include "diagnosis-out.h"
#include "json-out.h"
#include "knobs-view.h"
#include "latency-out.h"
#include "roofline-out.h"
#include "runqlat.h"
#include "pressure.h"
#include "text-safe.h"
#include "thread-out.h"

const char *report_version_name(int version)
{
	return version == 1 ? "v1" : version == 2 ? "v2" : "none";
}

static void report_budget_json_obj(struct json_out *j, const struct model_budget *b)
{
	json_out_object(j);
	/* 0 is "could not be read": null, never a count of 0 */
	json_out_kcount(j, "online", b->online);
	json_out_kcount(j, "affinity", b->affinity);
	json_out_kcount(j, "cpuset", b->cpuset);
	json_out_knum(j, "quota", b->quota.cpus > 0 ? b->quota.cpus : (double)NAN, 3);
	json_out_knum(j, "effective", b->effective, 3);
	json_out_kstr(j, "binding", model_term_name(b->binding));
	json_out_kbool(j, "quota_controller", b->quota.controller);
	json_out_kbool(j, "quota_unknown", b->quota.unknown);
	json_out_kstr(j, "note", b->note);
	json_out_end(j);
}

/* A CPU count for people: two decimals, more below 0.1 CPU so that a tiny
 * quota never reads "0.00", and an exponent for absurd ones (a quota of
 * 2^64-1 us) instead of twenty digits. */
static void report_cpus(char *buf, size_t len, double cpus)
{
	if (cpus > 0 && cpus < 0.1)
		snprintf(buf, len, "%.2g", cpus);
	else if (cpus >= 1e6)
		snprintf(buf, len, "%.3g", cpus);
	else
		snprintf(buf, len, "%.2f", cpus);
}

/* A CPU count term, "unavailable" when it could not be read (0). */
static void report_count(char *buf, size_t len, int n)
{
	if (n > 0)
		snprintf(buf, len, "%d", n);
	else
		snprintf(buf, len, "unavailable");
}

static void report_budget_text(FILE *f, pid_t pid, const struct model_budget *b)
{
	/* cgroup names come from whoever made the cgroup: made safe here */
	char quota[3 * MODEL_PATH_MAX + 64], cpuset[32], dir[3 * MODEL_PATH_MAX];
	char path[3 * MODEL_PATH_MAX], note[3 * sizeof(b->note)];
	text_safe(b->quota.dir, strlen(b->quota.dir), dir, sizeof(dir));
	text_safe(b->loc.path, strlen(b->loc.path), path, sizeof(path));
	text_safe(b->note, strlen(b->note), note, sizeof(note));
	char qcpus[32], eff[32], online[16], affinity[16];
	report_cpus(qcpus, sizeof(qcpus), b->quota.cpus);
	report_cpus(eff, sizeof(eff), b->effective);
	report_count(online, sizeof(online), b->online);
	report_count(affinity, sizeof(affinity), b->affinity);
	if (b->quota.cpus > 0)
		snprintf(quota, sizeof(quota), "%s CPUs (/%s)", qcpus, dir);
	else
		snprintf(quota, sizeof(quota), "%s",
			 b->quota.unknown      ? "unknown (see the note)"
			 : b->quota.controller ? "none (max)"
					       : "none (no cpu controller)");
	if (b->cpuset > 0)
		snprintf(cpuset, sizeof(cpuset), "%d", b->cpuset);
	else
		snprintf(cpuset, sizeof(cpuset), "n/a");
	if (pid)
		fprintf(f, "CPU budget of process %d\n", (int)pid);
	else
		fputs("CPU budget of this process\n", f);
	fprintf(f, "  online     %s%s\n", online,
		b->binding == MODEL_TERM_ONLINE ? "   <- binds" : "");
	fprintf(f, "  affinity   %s%s\n", affinity,
		b->binding == MODEL_TERM_AFFINITY ? "   <- binds" : "");
	fprintf(f, "  cpuset     %s%s\n", cpuset,
		b->binding == MODEL_TERM_CPUSET ? "   <- binds" : "");
	fprintf(f, "  quota      %s%s\n", quota,
		b->binding == MODEL_TERM_QUOTA ? "   <- binds" : "");
	fprintf(f, "  effective  %s CPUs (bound by %s)\n", eff, model_term_name(b->binding));
	fprintf(f, "  cgroup     %s %s\n", report_version_name(b->loc.version),
		path[0] ? path : "-");
	if (note[0])
		fprintf(f, "  note       %s\n", note);
}

void report_budget(FILE *f, enum format fmt, pid_t pid, const struct model_budget *b)
{
	if (fmt != FORMAT_JSON) {
		report_budget_text(f, pid, b);
		return;
	}
	struct json_out j;
	json_out_init(&j, f, 0);
	json_out_object(&j);
	json_out_key(&j, "budget");
	report_budget_json_obj(&j, b);
	json_out_key(&j, "cgroup");
	json_out_object(&j);
	json_out_kint(&j, "version", b->loc.version);
	json_out_kstr(&j, "path", b->loc.path);
	/* a path from the root, as the text and stat_dir give it (null: none) */
	char qdir[MODEL_PATH_MAX + 2];
	snprintf(qdir, sizeof(qdir), "/%s", b->quota.dir);
	json_out_kstr(&j, "quota_dir", b->quota.dir[0] ? qdir : NULL);
	json_out_kbool(&j, "fallback", b->loc.fallback);
	json_out_end(&j);
	json_out_kstr(&j, "note", b->note);
	json_out_end(&j);
	json_out_newline(&j);
}

void report_time_iso(double wall, char *buf, size_t cap)
{
	/* Milliseconds rounded, not cut: a time read back from a recording
	 * (seconds + ms / 1000) must print as it was written. */
	long long ms = (long long)floor(wall * 1000.0 + 0.5);
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	gmtime_r(&t, &tm);
	size_t n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, cap - n, ".%03dZ", (int)(ms % 1000));
}

static void report_json_results(struct json_out *j, const char *key, bool checked, bool equal)
{
	json_out_key(j, key);
	if (!checked)
		json_out_null(j);
	else
		json_out_bool(j, equal);
}

/* The lab's knobs, as the knob table's view of the workload object says
 * (knobs-view.h); the build's switching after the build. */
static void report_json_knobs(struct json_out *j, const struct workload_report *w)
{
	struct settings s;
	knobs_view_of_report(w, &s);
	size_t n;
	const struct knobs_view_json *e = knobs_view_json(&n);
	char word[32];
	for (size_t i = 0; i < n; i++, e++) {
		switch (e->form) {
		case KNOBS_VIEW_INT:
			json_out_kint(j, knobs_view_json_key(e),
				      (long long)knobs_value(&s, e->knob));
			break;
		case KNOBS_VIEW_WORD:
			knobs_format(&s, e->knob, word, sizeof(word));
			json_out_kstr(j, knobs_view_json_key(e), word);
			break;
		case KNOBS_VIEW_BOOL:
			json_out_kbool(j, knobs_view_json_key(e), knobs_value(&s, e->knob) != 0);
			break;
		case KNOBS_VIEW_QUOTA:
			json_out_knum(j, knobs_view_json_key(e), s.cpus > 0 ? s.cpus : (double)NAN,
				      3);
			break;
		case KNOBS_VIEW_KERNEL:
			roofline_out_json_kernel(j, w->kernel, w->length, w->gbs);
			break;
		}
		if (e->knob == KNOB_BLAS)
			json_out_kbool(j, "blas_switching", w->blas_switching);
	}
}

static void report_json_workload(struct json_out *j, const struct workload_report *w)
{
	json_out_key(j, "workload");
	json_out_object(j);
	report_json_knobs(j, w);
	json_out_knum(j, "batches_per_s", w->batches_per_s, 2);
	json_out_knum(j, "input_wait_pct", w->input_wait_pct, 2);
	json_out_knum(j, "loader_cpu_pct", w->loader_cpu_pct, 2);
	json_out_kint(j, "loader_restarts", (long long)w->loader_restarts);
	json_out_knum(j, "gflops", w->gflops, 2);
	json_out_knum(j, "steady_gflops", w->steady_gflops >= 0 ? w->steady_gflops : (double)NAN,
		      2);
	json_out_knum(j, "steady_seconds", w->steady_seconds, 2);
	bool single = w->single_thread_gflops >= 0;
	json_out_knum(j, "ideal_gflops", single ? w->ideal_gflops : (double)NAN, 2);
	json_out_knum(j, "ceiling_gflops", single ? w->ceiling_gflops : (double)NAN, 2);
	json_out_knum(j, "single_thread_gflops", single ? w->single_thread_gflops : (double)NAN, 2);
	/* How old the reference is, and whether the box is busier now. */
	json_out_kbool(j, "single_thread_stale", w->single_stale);
	json_out_knum(j, "single_thread_age_s",
		      w->single_age_s >= 0 ? w->single_age_s : (double)NAN, 1);
	json_out_knum(j, "single_thread_other_cpus",
		      w->single_other_cpus >= 0 ? w->single_other_cpus : (double)NAN, 2);
	report_json_results(j, "setting_results_equal", w->epoch_results_checked,
			    w->epoch_results_equal);
	json_out_knum(j, "setting_max_diff", w->epoch_max_diff, 9);
	report_json_results(j, "results_equal", w->results_checked, w->results_equal);
	json_out_key(j, "max_diff");
	json_out_sig(j, w->max_diff, 6);
	json_out_knum(j, "useful_cpus", w->useful_cpus, 3);
	json_out_knum(j, "cpu_cpus", w->cpu_cpus, 3);
	json_out_key(j, "per_stream");
	json_out_array(j);
	for (int i = 0; i < w->nstreams; i++) {
		const struct workload_stream_report *r = &w->stream[i];
		json_out_object(j);
		json_out_kint(j, "stream", r->stream);
		json_out_kint(j, "pid", r->pid);
		json_out_kstr(j, "state", r->state);
		json_out_kbool(j, "wanted", r->wanted);
		json_out_kint(j, "threads", r->threads);
		json_out_kint(j, "pool", r->pool);
		json_out_knum(j, "gflops", r->gflops, 2);
		json_out_knum(j, "useful_cpus", r->useful_cpus, 3);
		json_out_knum(j, "cpu_cpus", r->cpu_cpus, 3);
		json_out_end(j);
	}
	json_out_end(j);
	json_out_key(j, "blas");
	json_out_object(j);
	json_out_kstr(j, "config", w->blas_config);
	json_out_kstr(j, "core", w->blas_core);
	json_out_kstr(j, "variant", w->blas_variant);
	json_out_end(j);
	json_out_kstr(j, "error", w->error[0] ? w->error : NULL);
	json_out_kpids(j, "pids", w->pids, w->npids);
	json_out_kint(j, "anchor_pid", w->anchor_pid);
	json_out_kpids(j, "worker_pids", w->worker_pids, w->nworkers_pids);
	json_out_kpids(j, "loader_pids", w->loader_pids, w->nloader_pids);
	json_out_end(j);
}

/* Mean runnable threads: the diagnosis's when there is one (a replay then
 * writes what was recorded), else from the rates. */
static double report_runnable_mean(const struct model_sample *m, const struct diagnosis *diag)
{
	return diag ? diag->runnable_mean : m->runnable_mean;
}

/* The job's progress (--progress): steps so far, rates, its last line. */
static void report_json_progress(struct json_out *j, const struct progress *p)
{
	json_out_key(j, "progress");
	json_out_object(j);
	json_out_knum(j, "count", p->count, 3);
	json_out_knum(j, "rate", p->rate >= 0 ? p->rate : (double)NAN, 3);
	json_out_knum(j, "steady_rate", p->steady_rate >= 0 ? p->steady_rate : (double)NAN, 3);
	json_out_kuint(j, "matches", p->matches);
	/* lines not counted: over the matching budget, a group not a number
	 * or out of range (progress.h) */
	json_out_kuint(j, "skipped", p->skipped);
	json_out_kuint(j, "not_numbers", p->not_number + p->out_of_range + p->no_group);
	json_out_kstr(j, "last_line", p->last_line[0] ? p->last_line : NULL);
	json_out_end(j);
}

static void report_json(FILE *f, const struct model_sample *m, const struct workload_report *w,
			const struct diagnosis *diag, const struct progress *p)
{
	char ts[64], dir[MODEL_PATH_MAX + 2];
	const struct model_budget *b = &m->budget;
	struct json_out j;
	json_out_init(&j, f, 0);
	report_time_iso(m->wall, ts, sizeof(ts));
	json_out_object(&j);
	json_out_kstr(&j, "time", ts);
	json_out_knum(&j, "interval", m->dt, 3);
	json_out_key(&j, "budget");
	report_budget_json_obj(&j, b);
	json_out_key(&j, "cgroup");
	json_out_object(&j);
	json_out_kint(&j, "version", b->loc.version);
	json_out_kstr(&j, "path", b->loc.path);
	snprintf(dir, sizeof(dir), "/%s", m->stat_dir);
	json_out_kstr(&j, "stat_dir", dir);
	/* the ancestor whose quota binds and whose throttling this is */
	json_out_kstr(&j, "throttled_in", m->stat_name[0] ? m->stat_name : NULL);
	if (m->has_cpustat && m->cpustat.has_periods) {
		json_out_kuint(&j, "nr_periods", m->cpustat.nr_periods);
		json_out_kuint(&j, "nr_throttled", m->cpustat.nr_throttled);
		json_out_knum(&j, "throttled_s", m->cpustat.throttled_s, 6);
	} else {
		json_out_knull(&j, "nr_periods");
		json_out_knull(&j, "nr_throttled");
		json_out_knull(&j, "throttled_s");
	}
	bool tv = m->throttle.valid;
	json_out_knum(&j, "throttled_pct", tv ? m->throttle.throttled_pct : (double)NAN, 2);
	json_out_knum(&j, "throttled_s_per_s", tv ? m->throttle.throttled_s_per_s : (double)NAN, 4);
	json_out_knum(&j, "psi_some_avg10",
		      m->psi_cgroup.available ? m->psi_cgroup.some_avg10 : (double)NAN, 2);
	json_out_kstr(&j, "psi_note", pressure_note(m->psi_cgroup_why));
	json_out_end(&j);
	json_out_key(&j, "system");
	json_out_object(&j);
	json_out_knum(&j, "psi_some_avg10",
		      m->psi_system.available ? m->psi_system.some_avg10 : (double)NAN, 2);
	json_out_end(&j);
	json_out_kint(&j, "runnable", m->runnable);
	json_out_knum(&j, "runnable_mean", report_runnable_mean(m, diag), 3);
	json_out_key(&j, "threads");
	json_out_array(&j);
	for (size_t i = 0; i < m->nthreads; i++)
		thread_out_json(&j, m, &m->threads[i]);
	json_out_end(&j);
	json_out_key(&j, "collector");
	json_out_object(&j);
	json_out_kstr(&j, "path", m->lat_on ? "bpf" : "proc");
	if (m->lat_on) {
		json_out_kuint(&j, "latency_dropped", m->lat_dropped);
		json_out_kuint(&j, "latency_map_threads", m->lat_capacity);
	}
	json_out_end(&j);
	json_out_key(&j, "cpus");
	json_out_array(&j);
	for (size_t i = 0; i < m->cpus.n; i++)
		json_out_num(&j, m->cpus.busy_pct[i], 1);
	json_out_end(&j);
	if (w)
		report_json_workload(&j, w);
	if (w && w->kernel)
		roofline_out_json(&j, w->kernel, &w->roofline);
	json_out_key(&j, "diagnosis");
	if (diag)
		diagnosis_out_json(&j, diag);
	else
		json_out_null(&j);
	if (p && p->on)
		report_json_progress(&j, p);
	json_out_end(&j);
	json_out_newline(&j);
}

static void report_csv(FILE *f, const struct model_sample *m, const struct workload_report *w,
		       const struct diagnosis *diag, bool header)
{
	char ts[64];
	struct csv_out c;
	csv_out_init(&c, f);
	if (header) {
		char first[512], last[256], names[1024];
		thread_out_csv_names(first, sizeof(first), false);
		thread_out_csv_names(last, sizeof(last), true);
		snprintf(names, sizeof(names),
			 "time,effective_cpus,binding,throttled_pct,throttled_s_per_s,"
			 "psi_some_avg10,%s,gflops,runnable_mean,factor,verdict,%s",
			 first, last);
		csv_out_header(&c, names);
	}
	report_time_iso(m->wall, ts, sizeof(ts));
	bool tv = m->throttle.valid;
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct model_thread *t = &m->threads[i];
		csv_out_str(&c, ts);
		csv_out_num(&c, m->budget.effective, 3);
		csv_out_str(&c, model_term_name(m->budget.binding));
		csv_out_num(&c, tv ? m->throttle.throttled_pct : (double)NAN, 2);
		csv_out_num(&c, tv ? m->throttle.throttled_s_per_s : (double)NAN, 4);
		csv_out_num(&c, m->psi_cgroup.available ? m->psi_cgroup.some_avg10 : (double)NAN,
			    2);
		thread_out_csv(&c, m, t, false);
		csv_out_num(&c, w ? w->gflops : (double)NAN, 2);
		csv_out_num(&c, report_runnable_mean(m, diag), 3);
		csv_out_num(&c, diag ? diag->factor : (double)NAN, 3);
		csv_out_str(&c, diag ? diagnosis_verdict_name(diag->verdict) : NULL);
		thread_out_csv(&c, m, t, true);
		csv_out_end_row(&c);
	}
}

static void report_text_workload(FILE *f, const struct workload_report *w)
{
	char what[48];
	snprintf(what, sizeof(what), w->length ? "triad of %u elements" : "n=%u",
		 w->length ? w->length : (unsigned)w->size);
	fprintf(f, "  workload %d stream(s) x %d thread(s), %s %s precision", w->streams,
		w->threads, what, w->precision);
	if (w->workers)
		fprintf(f, ", %d worker(s)", w->workers);
	if (w->cpus > 0)
		fprintf(f, ", quota %.2f CPUs", w->cpus);
	fprintf(f, ": %.1f GFLOP/s", w->gflops);
	if (w->kernel)
		fprintf(f, " %.1f GB/s%s", w->gbs, w->length ? "" : " (model)");
	if (w->steady_gflops >= 0)
		fprintf(f, " (steady %.1f)", w->steady_gflops);
	if (w->single_thread_gflops > 0)
		fprintf(f, ", ideal %.1f, ceiling %.1f, 1 thread %.1f", w->ideal_gflops,
			w->ceiling_gflops, w->single_thread_gflops);
	if (w->single_thread_gflops > 0 && w->single_stale)
		fprintf(f, " (measured %.0f s ago on a quieter box: others used %.2f CPUs then)",
			w->single_age_s, w->single_other_cpus);
	fputc('\n', f);
	fprintf(f, "  useful %.2f CPUs inside GEMM of %.2f CPUs used; results %s", w->useful_cpus,
		w->cpu_cpus,
		!w->results_checked ? "not checked yet"
		: w->results_equal  ? "bitwise equal"
				    : "differ");
	if (w->results_checked && !w->results_equal)
		fprintf(f, " (max diff %.3g)", w->max_diff);
	if (w->paused)
		fputs("; paused", f);
	fputc('\n', f);
	if (w->blas_config && w->blas_config[0]) {
		char safe[256];
		text_safe(w->blas_config, strlen(w->blas_config), safe, sizeof(safe));
		fprintf(f, "  openblas %s (%s)\n", safe, w->blas_variant ? w->blas_variant : "");
	}
	if (w->error[0]) {
		char safe[256];
		text_safe(w->error, strlen(w->error), safe, sizeof(safe));
		fprintf(f, "  workload error: %s\n", safe);
	}
}

static void report_text(FILE *f, const struct model_sample *m, const struct workload_report *w,
			const struct diagnosis *diag)
{
	char ts[64], psi[32], thr[256], line[4 * DIAG_TEXT];
	const struct model_budget *b = &m->budget;
	report_time_iso(m->wall, ts, sizeof(ts));
	if (m->psi_cgroup.available)
		snprintf(psi, sizeof(psi), "%.1f%%", m->psi_cgroup.some_avg10);
	else if (m->psi_cgroup_why == MODEL_PSI_WHY_V1)
		snprintf(psi, sizeof(psi), "none on cgroup v1");
	else if (m->psi_cgroup_why == MODEL_PSI_WHY_ROOT)
		snprintf(psi, sizeof(psi), "none (root cgroup)");
	else
		snprintf(psi, sizeof(psi), "unavailable");
	if (b->quota.cpus <= 0 && !(m->has_cpustat && m->cpustat.nr_periods))
		snprintf(thr, sizeof(thr), "n/a (no quota)");
	else if (m->throttle.valid) {
		char in[160];
		text_safe(m->stat_name, strlen(m->stat_name), in, sizeof(in));
		snprintf(thr, sizeof(thr), "%.1f%% of periods, %.3f s/s%s%s",
			 m->throttle.throttled_pct, m->throttle.throttled_s_per_s,
			 m->stat_name[0] ? " in " : "", in);
	} else
		snprintf(thr, sizeof(thr), "n/a (no quota accounting)");
	char eff[48], cpus[32];
	report_cpus(cpus, sizeof(cpus), b->effective);
	if (b->effective > 0)
		snprintf(eff, sizeof(eff), "%s CPUs (%s)", cpus, model_term_name(b->binding));
	else
		snprintf(eff, sizeof(eff), "unavailable");
	fprintf(f, "%s  effective %s  runnable %d  threads %zu  mean runnable %.2f\n", ts, eff,
		m->runnable, m->nthreads, report_runnable_mean(m, diag));
	fprintf(f, "  throttled %s  cgroup psi some %s", thr, psi);
	if (m->psi_system.available)
		fprintf(f, "  system psi some %.1f%%\n", m->psi_system.some_avg10);
	else
		fputs("  system psi unavailable\n", f);
	if (w)
		report_text_workload(f, w);
	if (w && w->kernel)
		roofline_out_text(f, "  ", w->kernel, &w->roofline);
	if (diag) {
		diagnosis_out_line(line, sizeof(line), diag);
		fprintf(f, "  diagnosis: %s\n", line);
	}
	thread_out_text_head(f, m->lat_on);
	for (size_t i = 0; i < m->nthreads; i++)
		thread_out_text(f, m, &m->threads[i]);
	if (m->cpus.n) {
		fputs("  cpus", f);
		for (size_t i = 0; i < m->cpus.n; i++)
			fprintf(f, " %d:%.0f%%", m->cpus.id[i], m->cpus.busy_pct[i]);
		fputc('\n', f);
	}
}

void report_sample(FILE *f, enum format fmt, const struct model_sample *m,
		   const struct workload_report *w, const struct diagnosis *diag, bool header)
{
	report_sample_progress(f, fmt, m, w, diag, NULL, header);
}

/* Text: one line after the sample's. */
static void report_text_progress(FILE *f, const struct progress *p)
{
	char safe[4 * PROGRESS_LINE_MAX];
	text_safe(p->last_line, strlen(p->last_line), safe, sizeof(safe));
	fprintf(f, "  progress %.0f steps", p->count);
	if (p->rate >= 0)
		fprintf(f, ", %.2f steps/s", p->rate);
	if (p->steady_rate >= 0)
		fprintf(f, " (steady %.2f)", p->steady_rate);
	if (p->skipped || p->not_number || p->out_of_range || p->no_group)
		fprintf(f, " | not counted: %lu lines",
			p->skipped + p->not_number + p->out_of_range + p->no_group);
	fprintf(f, " | last line: %s\n", p->last_line[0] ? safe : "-");
}

void report_sample_progress(FILE *f, enum format fmt, const struct model_sample *m,
			    const struct workload_report *w, const struct diagnosis *diag,
			    const struct progress *p, bool header)
{
	switch (fmt) {
	case FORMAT_JSON:
		report_json(f, m, w, diag, p);
		break;
	case FORMAT_CSV:
		report_csv(f, m, w, diag, header);
		break;
	default:
		report_text(f, m, w, diag);
		if (p && p->on)
			report_text_progress(f, p);
		break;
	}
}
