/* recording-parse.c — one recorded line (JSON, json-c) into the model.
 *
 * The schema is what output/report.c writes for batch --format json (and
 * the header output/record.c writes).  Every field is type-checked: a
 * number where a number belongs, null only where the writer writes null; a
 * missing optional field takes the value a live sample would have.  The
 * first wrong field names itself in the error. */
#include "config.h"

#include "recording-impl.h"
#include "recording-parse.h"
#include "recording-diag.h"
#include "recording-latency.h"
#include "pressure.h"
#include "recording-json.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "activity.h"
#include "thread-field-impl.h"
#include "xalloc.h"
#include "knobs-view.h"
#include "lab-settings.h"
#include "settings-lab.h"

static bool rp_time(const char *s, double *wall)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	int ms = 0, n = 0;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms, &n) != 7 ||
	    s[n] != '\0')
		return false;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t t = timegm(&tm);
	if (t == (time_t)-1)
		return false;
	*wall = (double)t + ms / 1000.0;
	return true;
}

static enum budget_term rp_term(const char *s)
{
	static const enum budget_term t[] = {BUDGET_ONLINE, BUDGET_AFFINITY, BUDGET_CPUSET,
					     BUDGET_QUOTA};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(s, budget_term_name(t[i])) == 0)
			return t[i];
	return BUDGET_ONLINE;
}

static void rp_budget(struct recording_json *p, json_object *o, struct budget *b)
{
	char term[16];
	/* null: the term could not be read (0 in the model) */
	json_object *on = recording_json_get(p, o, "online", false);
	b->online = on ? (int)recording_json_int(p, o, "online", 0) : 0;
	json_object *af = recording_json_get(p, o, "affinity", false);
	b->affinity = af ? (int)recording_json_int(p, o, "affinity", 0) : 0;
	json_object *cs = recording_json_get(p, o, "cpuset", false);
	b->cpuset = cs ? (int)recording_json_int(p, o, "cpuset", 0) : 0;
	b->quota.cpus = recording_json_num(p, o, "quota", true, -1, -1);
	b->quota.controller = recording_json_bool(p, o, "quota_controller", true);
	b->quota.unknown = recording_json_bool(p, o, "quota_unknown", false);
	b->effective = recording_json_num(p, o, "effective", false, 0, 0);
	recording_json_str(p, o, "binding", term, sizeof(term), NULL);
	b->binding = rp_term(term);
	recording_json_str(p, o, "note", b->note, sizeof(b->note), NULL);
}

static void rp_cgroup(struct recording_json *p, json_object *o, struct snapshot *s,
		      struct snapshot_rates *r)
{
	char dir[CGROUP_PATH_MAX + 2];
	bool nul;
	s->budget.loc.version = (int)recording_json_int(p, o, "version", 0);
	recording_json_str(p, o, "path", s->budget.loc.path, sizeof(s->budget.loc.path), NULL);
	recording_json_str(p, o, "stat_dir", dir, sizeof(dir), NULL);
	snprintf(s->stat_dir, sizeof(s->stat_dir), "%.*s", (int)sizeof(s->stat_dir) - 1,
		 dir[0] == '/' ? dir + 1 : dir);
	recording_json_str(p, o, "throttled_in", s->stat_name, sizeof(s->stat_name), NULL);
	s->cpustat.nr_periods = recording_json_u64(p, o, "nr_periods", &nul);
	s->has_cpustat = s->cpustat.has_periods = !nul;
	s->cpustat.nr_throttled = recording_json_u64(p, o, "nr_throttled", &nul);
	s->cpustat.throttled_s = recording_json_num(p, o, "throttled_s", true, 0, 0);
	double pct = recording_json_num(p, o, "throttled_pct", true, NAN, NAN);
	r->throttle.valid = !isnan(pct);
	r->throttle.throttled_pct = r->throttle.valid ? pct : 0;
	r->throttle.throttled_s_per_s = recording_json_num(p, o, "throttled_s_per_s", true, 0, 0);
	double psi = recording_json_num(p, o, "psi_some_avg10", true, NAN, NAN);
	s->psi_cgroup.available = !isnan(psi);
	s->psi_cgroup.some_avg10 = s->psi_cgroup.available ? psi : 0;
	char note[128];
	recording_json_str(p, o, "psi_note", note, sizeof(note), NULL);
	s->psi_cgroup_why = model_psi_why_to(pressure_why_of(note));
}

static void rp_threads(struct recording_json *p, json_object *a, struct snapshot_rates *r)
{
	size_t n = json_object_array_length(a);
	r->threads = xreallocarray_grow(r->threads, &r->cap, n, sizeof(*r->threads));
	r->nthreads = 0;
	r->nlat = 0;
	r->total_cpu_pct = r->total_wait_pct = 0;
	for (size_t i = 0; i < n && !p->bad; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct thread_rate *t = &r->threads[r->nthreads];
		memset(t, 0, sizeof(*t));
		if (!json_object_is_type(o, json_type_object)) {
			recording_json_fail(p, "not an object:", "threads[]");
			break;
		}
		for (size_t k = 0; k < THREAD_FIELD_N; k++) {
			const struct thread_field *f = &thread_field_table[k];
			char word[24];
			switch (f->kind) {
			case THREAD_FIELD_KIND_INT:
				thread_field_set(f, t, (double)recording_json_int(p, o, f->key, 0));
				break;
			case THREAD_FIELD_KIND_RATE:
				thread_field_set(f, t,
						 recording_json_num(p, o, f->key, false, 0, 0));
				break;
			case THREAD_FIELD_KIND_NAME:
				recording_json_str(p, o, f->key, t->name, sizeof(t->name),
						   &t->name_len);
				break;
			case THREAD_FIELD_KIND_STATE:
				recording_json_str(p, o, f->key, word, sizeof(word), NULL);
				t->state = word[0] ? word[0] : '?';
				break;
			case THREAD_FIELD_KIND_LATENCY:
				if (recording_latency_parse(p, o, &t->latency, r, &t->lat_ref))
					r->lat_on = true;
				break;
			case THREAD_FIELD_KIND_ACTIVITY:
				recording_json_str(p, o, f->key, word, sizeof(word), NULL);
				t->activity = (unsigned char)activity_of_name(word);
				break;
			}
		}
		r->total_cpu_pct += t->cpu_pct;
		r->total_wait_pct += t->wait_pct;
		r->nthreads++;
	}
}

static void rp_cpus(struct recording_json *p, json_object *a, struct cpu_usage *u)
{
	size_t n = json_object_array_length(a);
	u->n = 0;
	u->total_busy_pct = 0;
	for (size_t i = 0; i < n && i < CPUS_MAX; i++) {
		json_object *v = json_object_array_get_idx(a, i);
		if (!recording_json_is_num(v)) {
			recording_json_fail(p, "not a number:", "cpus[]");
			return;
		}
		u->id[u->n] = (int)i;
		u->busy_pct[u->n] = json_object_get_double(v);
		if (!recording_json_in_range(p, u->busy_pct[u->n], "cpus[]"))
			return;
		u->total_busy_pct += u->busy_pct[u->n] / (double)n;
		u->n++;
	}
}

static const char *rp_stream_state(const char *s, enum ctl_stream_state *st)
{
	static const struct {
		const char *name;
		enum ctl_stream_state st;
	} m[] = {
	    {"starting", CTL_STREAM_STARTING}, {"running", CTL_STREAM_RUNNING},
	    {"paused", CTL_STREAM_PAUSED},     {"failed", CTL_STREAM_FAILED},
	    {"exited", CTL_STREAM_EXITED},
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (strcmp(s, m[i].name) == 0) {
			*st = m[i].st;
			return m[i].name;
		}
	*st = CTL_STREAM_OFF;
	return "off";
}

/* results_equal and friends: true, false, or null (not checked). */
static void rp_results(struct recording_json *p, json_object *o, const char *key, bool *checked,
		       bool *equal)
{
	json_object *v = recording_json_get(p, o, key, false);
	*checked = v != NULL;
	*equal = v ? recording_json_bool(p, o, key, false) : false;
}

static void rp_streams(struct recording_json *p, json_object *a, struct recording_sample *s)
{
	struct workload_report *w = &s->work;
	struct lab_status *st = &s->status;
	size_t n = json_object_array_length(a);
	w->nstreams = 0;
	for (size_t i = 0; i < n && i < SETTINGS_MAX_STREAMS && !p->bad; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct workload_stream_report *r = &w->stream[w->nstreams];
		struct lab_stream_status *ss = &st->stream[w->nstreams];
		char state[16];
		memset(r, 0, sizeof(*r));
		r->stream = (int)recording_json_int(p, o, "stream", (long long)i);
		r->pid = ss->pid = (pid_t)recording_json_int(p, o, "pid", 0);
		recording_json_str(p, o, "state", state, sizeof(state), NULL);
		r->state = rp_stream_state(state, &ss->state);
		r->wanted = recording_json_bool(p, o, "wanted", true);
		r->threads = ss->threads = (int)recording_json_int(p, o, "threads", 0);
		r->pool = ss->pool = (int)recording_json_int(p, o, "pool", 0);
		r->gflops = recording_json_num(p, o, "gflops", false, 0, 0);
		r->useful_cpus = recording_json_num(p, o, "useful_cpus", false, 0, 0);
		r->cpu_cpus = recording_json_num(p, o, "cpu_cpus", false, 0, 0);
		ss->size = st->settings.size;
		ss->precision = st->settings.precision;
		ss->applied_epoch = 2;
		w->nstreams++;
	}
	st->nslots = w->nstreams;
}

static void rp_pids(struct recording_json *p, json_object *o, const char *key, pid_t *out,
		    size_t cap, size_t *n)
{
	json_object *a = recording_json_typed(p, o, key, json_type_array, false);
	*n = 0;
	for (size_t i = 0; a && i < json_object_array_length(a) && *n < cap; i++) {
		long long pid =
		    recording_json_int_of(p, json_object_array_get_idx(a, i), key, 0, INT_MAX, -1);
		if (pid < 0)
			return;
		out[(*n)++] = (pid_t)pid;
	}
}

static const char *rp_variant(const char *v)
{
	static const char *const known[] = {"pthreads", "openmp", "sequential"};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(v, known[i]) == 0)
			return known[i];
	return "";
}

/* The sample's "roofline" object (roofline-out.c writes it: an unknown
 * figure is null, read back as 0, the measured point's as -1). */
static void rp_roofline(struct recording_json *p, json_object *o, struct roofline *r)
{
	char kernel[16], bound[16];
	memset(r, 0, sizeof(*r));
	recording_json_str(p, o, "kernel", kernel, sizeof(kernel), NULL);
	r->kernel = strcmp(kernel, "triad") == 0 ? SETTINGS_TRIAD : SETTINGS_GEMM;
	r->intensity = recording_json_num(p, o, "intensity_flops_per_byte", true, 0, 0);
	r->compute_roof = recording_json_num(p, o, "compute_roof_gflops", true, 0, 0);
	r->memory_roof = recording_json_num(p, o, "memory_roof_gbs", true, 0, 0);
	r->ridge = recording_json_num(p, o, "ridge_flops_per_byte", true, 0, 0);
	r->attainable = recording_json_num(p, o, "attainable_gflops", true, 0, 0);
	r->gflops = recording_json_num(p, o, "gflops", true, -1, -1);
	r->gbs = recording_json_num(p, o, "gbs", true, -1, -1);
	recording_json_str(p, o, "bound", bound, sizeof(bound), NULL);
	r->bound = strcmp(bound, "compute") == 0  ? ROOFLINE_COMPUTE
		   : strcmp(bound, "memory") == 0 ? ROOFLINE_MEMORY
						  : ROOFLINE_UNKNOWN;
}

/* The lab's knobs in the workload object (knobs-view.h); the kernel is
 * read apart, with its length and GB/s, and left GEMM here. */
static void rp_knobs(struct recording_json *p, json_object *o, struct settings *out)
{
	memset(out, 0, sizeof(*out));
	size_t n;
	const struct knobs_view_json *e = knobs_view_json(&n);
	char word[16];
	for (size_t i = 0; i < n; i++, e++) {
		const char *key = knobs_view_json_key(e);
		double v = e->absent;
		switch (e->form) {
		case KNOBS_VIEW_INT:
			v = (double)recording_json_int(p, o, key, (long long)e->absent);
			break;
		case KNOBS_VIEW_WORD:
			recording_json_str(p, o, key, word, sizeof(word), NULL);
			v = knobs_view_of_word(e->knob, word);
			break;
		case KNOBS_VIEW_BOOL:
			v = recording_json_bool(p, o, key, e->absent != 0);
			break;
		case KNOBS_VIEW_QUOTA:
			v = recording_json_num(p, o, key, true, 0, e->absent);
			break;
		case KNOBS_VIEW_KERNEL:
			continue;
		}
		knobs_set(out, e->knob, v);
	}
}

static void rp_workload(struct recording_json *p, json_object *o, struct recording_sample *s)
{
	struct workload_report *w = &s->work;
	struct lab_status *st = &s->status;
	struct lab_settings *set = &st->settings;
	struct settings knobs;
	rp_knobs(p, o, &knobs);
	settings_to_lab(&knobs, set);
	knobs_view_to_report(&knobs, w);
	st->quota_cpus = knobs.cpus;
	w->blas_switching = recording_json_bool(p, o, "blas_switching", false);
	/* The kernel (absent in recordings older than it: GEMM, no GB/s, no
	 * roofline). */
	char kernel[16];
	w->kernel = NULL;
	if (recording_json_str(p, o, "kernel", kernel, sizeof(kernel), NULL)) {
		const char *const *names = settings_kernel_names();
		for (int k = 0; names[k]; k++)
			if (strcmp(kernel, names[k]) == 0)
				w->kernel = names[k];
		if (!w->kernel)
			recording_json_fail(p, "not a kernel:", "kernel");
	}
	double length = recording_json_num(p, o, "triad_length", true, 0, 0);
	w->length = length > 0 && length <= UINT32_MAX ? (uint32_t)length : 0;
	w->gbs = recording_json_num(p, o, "gbs", true, -1, -1);
	/* "gbs" null is a sample written without a kernel (report.c writes
	 * "gemm" for it): none, as it was */
	if (w->gbs < 0)
		w->kernel = NULL;
	w->batches_per_s = recording_json_num(p, o, "batches_per_s", true, 0, 0);
	w->input_wait_pct = recording_json_num(p, o, "input_wait_pct", true, 0, 0);
	w->loader_cpu_pct = recording_json_num(p, o, "loader_cpu_pct", true, 0, 0);
	w->loader_restarts = (unsigned)recording_json_int(p, o, "loader_restarts", 0);
	w->gflops = recording_json_num(p, o, "gflops", false, 0, 0);
	w->steady_gflops = recording_json_num(p, o, "steady_gflops", true, -1, -1);
	w->single_thread_gflops = recording_json_num(p, o, "single_thread_gflops", true, -1, -1);
	w->single_stale = recording_json_bool(p, o, "single_thread_stale", false);
	w->single_age_s = recording_json_num(p, o, "single_thread_age_s", true, -1, -1);
	w->single_other_cpus = recording_json_num(p, o, "single_thread_other_cpus", true, -1, -1);
	w->ideal_gflops = recording_json_num(p, o, "ideal_gflops", true, 0, 0);
	w->ceiling_gflops = recording_json_num(p, o, "ceiling_gflops", true, 0, 0);
	rp_results(p, o, "setting_results_equal", &w->epoch_results_checked,
		   &w->epoch_results_equal);
	w->epoch_max_diff = recording_json_num(p, o, "setting_max_diff", true, NAN, 0);
	rp_results(p, o, "results_equal", &w->results_checked, &w->results_equal);
	w->max_diff = recording_json_num(p, o, "max_diff", true, NAN, 0);
	w->useful_cpus = recording_json_num(p, o, "useful_cpus", false, 0, 0);
	w->cpu_cpus = recording_json_num(p, o, "cpu_cpus", false, 0, 0);
	w->steady_seconds = recording_json_num(p, o, "steady_seconds", true, 0, 0);
	json_object *ps = recording_json_typed(p, o, "per_stream", json_type_array, true);
	if (ps)
		rp_streams(p, ps, s);
	json_object *blas = recording_json_typed(p, o, "blas", json_type_object, false);
	recording_json_str(p, blas, "config", s->blas_config, sizeof(s->blas_config), NULL);
	recording_json_str(p, blas, "core", s->blas_core, sizeof(s->blas_core), NULL);
	recording_json_str(p, blas, "variant", s->blas_variant, sizeof(s->blas_variant), NULL);
	w->blas_config = s->blas_config;
	w->blas_core = s->blas_core;
	w->blas_variant = s->blas_variant;
	snprintf(st->blas_config, sizeof(st->blas_config), "%s", s->blas_config);
	snprintf(st->blas_core, sizeof(st->blas_core), "%s", s->blas_core);
	st->blas_variant = rp_variant(s->blas_variant);
	st->blas_in_effect =
	    strcmp(s->blas_variant, "openmp") == 0 ? LAB_BLAS_OPENMP : LAB_BLAS_PTHREADS;
	if (!s->blas_variant[0])
		st->blas_in_effect = set->blas; /* older recordings: as asked */
	recording_json_str(p, o, "error", w->error, sizeof(w->error), NULL);
	rp_pids(p, o, "pids", w->pids, LABVIEW_PIDS_MAX, &w->npids);
	w->anchor_pid = st->anchor_pid =
	    (pid_t)recording_json_int(p, o, "anchor_pid", w->npids ? w->pids[0] : 0);
	rp_pids(p, o, "worker_pids", w->worker_pids, SETTINGS_MAX_WORKERS, &w->nworkers_pids);
	for (size_t i = 0; i < w->nworkers_pids; i++)
		st->worker_pid[i] = w->worker_pids[i];
	st->nworkers = (int)w->nworkers_pids;
	rp_pids(p, o, "loader_pids", w->loader_pids, SETTINGS_MAX_LOADERS, &w->nloader_pids);
	for (size_t i = 0; i < w->nloader_pids; i++)
		st->loader[i].pid = w->loader_pids[i];
	st->applied = true;
	st->epoch = 2;
	st->results_equal = w->results_equal;
	st->epoch_results_equal = w->epoch_results_equal;
	for (size_t i = 0; i < w->npids && st->npids < LAB_MAX_PIDS; i++)
		st->pids[st->npids++] = w->pids[i];
}

void recording_parse_sample_init(struct recording_sample *s)
{
	memset(s, 0, sizeof(*s));
	snapshot_init(&s->snap);
	snapshot_rates_init(&s->rates);
}

void recording_parse_sample_free(struct recording_sample *s)
{
	snapshot_free(&s->snap);
	snapshot_rates_free(&s->rates);
	recording_parse_sample_init(s);
}

/* Keeps the rates' thread and latency arrays, clears everything else. */
static void rp_clear(struct recording_sample *s)
{
	struct thread_rate *keep = s->rates.threads;
	size_t cap = s->rates.cap;
	struct lat_hist *lat = s->rates.lat;
	size_t lat_cap = s->rates.lat_cap;
	snapshot_free(&s->snap);
	memset(s, 0, sizeof(*s));
	snapshot_init(&s->snap);
	s->rates.threads = keep;
	s->rates.cap = cap;
	s->rates.lat = lat;
	s->rates.lat_cap = lat_cap;
}

/* The collector's note: the BPF path, and what its latency map dropped. */
static void rp_collector(struct recording_json *p, json_object *o, struct recording_sample *s)
{
	json_object *c = recording_json_typed(p, o, "collector", json_type_object, false);
	char path[16];
	bool isnull = false;
	if (!c || !recording_json_str(p, c, "path", path, sizeof(path), NULL))
		return;
	if (strcmp(path, "bpf") == 0) {
		s->rates.lat_on = true;
		s->rates.lat_dropped = recording_json_u64(p, c, "latency_dropped", &isnull);
		s->rates.lat_capacity =
		    (unsigned)recording_json_int(p, c, "latency_map_threads", 0);
		s->snap.path = SNAPSHOT_BPF;
	}
}

int recording_parse_sample(const char *line, size_t len, struct recording_sample *out, char *err,
			   size_t errlen)
{
	struct recording_json p = {err, errlen, false};
	rp_clear(out);
	json_object *o = recording_json_parse(line, len, err, errlen);
	if (!o)
		return -EINVAL;
	char ts[64];
	if (!recording_json_str(&p, o, "time", ts, sizeof(ts), NULL) && !p.bad)
		recording_json_fail(&p, "missing", "time");
	if (!p.bad && !rp_time(ts, &out->snap.wall))
		recording_json_fail(&p, "not a time (2026-12-01T08:00:00.000Z):", "time");
	out->snap.time = out->snap.wall;
	out->snap.target_alive = true;
	out->rates.dt = recording_json_num(&p, o, "interval", true, 0, 0);
	if (out->rates.dt > RECORDING_INTERVAL_MAX)
		recording_json_fail(&p, "out of range:", "interval");
	json_object *b = recording_json_typed(&p, o, "budget", json_type_object, true);
	if (b)
		rp_budget(&p, b, &out->snap.budget);
	json_object *cg = recording_json_typed(&p, o, "cgroup", json_type_object, true);
	if (cg)
		rp_cgroup(&p, cg, &out->snap, &out->rates);
	json_object *sys = recording_json_typed(&p, o, "system", json_type_object, false);
	double psi = recording_json_num(&p, sys, "psi_some_avg10", true, NAN, NAN);
	out->snap.psi_system.available = !isnan(psi);
	out->snap.psi_system.some_avg10 = out->snap.psi_system.available ? psi : 0;
	out->rates.runnable = (int)recording_json_int(&p, o, "runnable", 0);
	json_object *th = recording_json_typed(&p, o, "threads", json_type_array, true);
	if (th)
		rp_threads(&p, th, &out->rates);
	rp_collector(&p, o, out);
	json_object *cpus = recording_json_typed(&p, o, "cpus", json_type_array, false);
	if (cpus)
		rp_cpus(&p, cpus, &out->snap.cpus);
	json_object *dg = recording_json_typed(&p, o, "diagnosis", json_type_object, false);
	out->has_diag = dg != NULL;
	if (dg) {
		recording_diag_parse(&p, dg, &out->diag);
		out->diag.nthreads = (int)out->rates.nthreads;
	}
	json_object *w = recording_json_typed(&p, o, "workload", json_type_object, false);
	out->has_workload = w != NULL;
	if (w) {
		rp_workload(&p, w, out);
		out->work.interval = out->rates.dt;
		json_object *rl = recording_json_typed(&p, o, "roofline", json_type_object, false);
		if (rl && out->work.kernel)
			rp_roofline(&p, rl, &out->work.roofline);
	}
	json_object_put(o);
	return p.bad ? -EINVAL : 0;
}
