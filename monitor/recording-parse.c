/* recording-parse.c — one recorded line (JSON, json-c) into the model.
 *
 * The schema is what output/report.c writes for batch --format json (and
 * the header output/record.c writes).  Every field is type-checked: a
 * number where a number belongs, null only where the writer writes null; a
 * missing optional field takes the value a live sample would have.  The
 * first wrong field names itself in the error. */
#include "config.h"

#include "recording.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xalloc.h"

struct rp {
	char *err;
	size_t errlen;
	bool bad;
};

static void rp_fail(struct rp *p, const char *what, const char *key)
{
	if (!p->bad)
		snprintf(p->err, p->errlen, "%s \"%s\"", what, key);
	p->bad = true;
}

/* The member key of o, or NULL when absent (required: a failure). */
static json_object *rp_get(struct rp *p, json_object *o, const char *key, bool required)
{
	json_object *v = NULL;
	if (!o || !json_object_object_get_ex(o, key, &v)) {
		if (required)
			rp_fail(p, "missing", key);
		return NULL;
	}
	return v;
}

static bool rp_is_num(json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

/* A number; null gives nullv when nullable.  Absent: def. */
static double rp_num(struct rp *p, json_object *o, const char *key, bool nullable, double nullv,
		     double def)
{
	if (!o)
		return def;
	json_object *v = rp_get(p, o, key, false);
	if (!v && json_object_object_get_ex(o, key, NULL))
		return nullable ? nullv : (rp_fail(p, "null", key), def); /* present, null */
	if (!v)
		return def;
	if (!rp_is_num(v)) {
		rp_fail(p, "not a number:", key);
		return def;
	}
	return json_object_get_double(v);
}

static long long rp_int(struct rp *p, json_object *o, const char *key, long long def)
{
	json_object *v = rp_get(p, o, key, false);
	if (!v) {
		if (o && json_object_object_get_ex(o, key, NULL))
			rp_fail(p, "null", key);
		return def;
	}
	if (!json_object_is_type(v, json_type_int)) {
		rp_fail(p, "not an integer:", key);
		return def;
	}
	return json_object_get_int64(v);
}

/* An unsigned counter, or null (*isnull). */
static uint64_t rp_u64(struct rp *p, json_object *o, const char *key, bool *isnull)
{
	json_object *v = rp_get(p, o, key, false);
	*isnull = v == NULL;
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_int)) {
		rp_fail(p, "not an integer:", key);
		return 0;
	}
	return json_object_get_uint64(v);
}

static bool rp_bool(struct rp *p, json_object *o, const char *key, bool def)
{
	json_object *v = rp_get(p, o, key, false);
	if (!v)
		return def;
	if (!json_object_is_type(v, json_type_boolean)) {
		rp_fail(p, "not true/false:", key);
		return def;
	}
	return json_object_get_boolean(v);
}

/* The raw bytes of a string as rp_prepass() left them: NUL NUL is a NUL
 * byte, NUL U+0080..U+00FF (C2/C3 xx) the byte itself.  In place; returns
 * the new length. */
static size_t rp_raw_bytes(char *b, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		if (b[i] != '\0') {
			b[o++] = b[i++];
		} else if (i + 1 < n && b[i + 1] == '\0') {
			b[o++] = '\0';
			i += 2;
		} else if (i + 2 < n &&
			   ((unsigned char)b[i + 1] == 0xc2 || (unsigned char)b[i + 1] == 0xc3)) {
			unsigned char c1 = (unsigned char)b[i + 1], c2 = (unsigned char)b[i + 2];
			b[o++] = (char)(((c1 & 0x1f) << 6) | (c2 & 0x3f));
			i += 3;
		} else {
			b[o++] = b[i++];
		}
	}
	return o;
}

/* A string into buf (raw bytes, NUL-terminated, cut to cap); null or absent
 * gives "" and returns false. */
static bool rp_str(struct rp *p, json_object *o, const char *key, char *buf, size_t cap,
		   size_t *len)
{
	json_object *v = rp_get(p, o, key, false);
	if (cap)
		buf[0] = '\0';
	if (len)
		*len = 0;
	if (!v)
		return false;
	if (!json_object_is_type(v, json_type_string)) {
		rp_fail(p, "not a string:", key);
		return false;
	}
	size_t n = (size_t)json_object_get_string_len(v);
	const char *raw = json_object_get_string(v);
	if (memchr(raw, '\0', n)) {
		/* Escaped bytes (see rp_prepass): decoded before cutting. */
		char tmp[4096];
		size_t k = n < sizeof(tmp) ? n : sizeof(tmp);
		memcpy(tmp, raw, k);
		n = rp_raw_bytes(tmp, k);
		if (n >= cap)
			n = cap ? cap - 1 : 0;
		if (cap) {
			memcpy(buf, tmp, n);
			buf[n] = '\0';
		}
	} else {
		if (n >= cap)
			n = cap ? cap - 1 : 0;
		if (cap) {
			memcpy(buf, raw, n);
			buf[n] = '\0';
		}
	}
	if (len)
		*len = n;
	return true;
}

static json_object *rp_typed(struct rp *p, json_object *o, const char *key, json_type t,
			     bool required)
{
	json_object *v = rp_get(p, o, key, required);
	if (v && !json_object_is_type(v, t)) {
		rp_fail(p, t == json_type_object ? "not an object:" : "not an array:", key);
		return NULL;
	}
	return v;
}

/* "2026-12-01T08:17:03.123Z" as CLOCK_REALTIME seconds. */
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

static void rp_budget(struct rp *p, json_object *o, struct budget *b)
{
	char term[16];
	b->online = (int)rp_int(p, o, "online", 0);
	b->affinity = (int)rp_int(p, o, "affinity", 0);
	json_object *cs = rp_get(p, o, "cpuset", false);
	b->cpuset = cs ? (int)rp_int(p, o, "cpuset", 0) : 0;
	b->quota.cpus = rp_num(p, o, "quota", true, -1, -1);
	b->quota.controller = rp_bool(p, o, "quota_controller", true);
	b->effective = rp_num(p, o, "effective", false, 0, 0);
	rp_str(p, o, "binding", term, sizeof(term), NULL);
	b->binding = rp_term(term);
	rp_str(p, o, "note", b->note, sizeof(b->note), NULL);
}

static void rp_cgroup(struct rp *p, json_object *o, struct snapshot *s, struct snapshot_rates *r)
{
	char dir[CGROUP_PATH_MAX + 2];
	bool nul;
	s->budget.loc.version = (int)rp_int(p, o, "version", 0);
	rp_str(p, o, "path", s->budget.loc.path, sizeof(s->budget.loc.path), NULL);
	rp_str(p, o, "stat_dir", dir, sizeof(dir), NULL);
	snprintf(s->stat_dir, sizeof(s->stat_dir), "%.*s", (int)sizeof(s->stat_dir) - 1,
		 dir[0] == '/' ? dir + 1 : dir);
	s->cpustat.nr_periods = rp_u64(p, o, "nr_periods", &nul);
	s->has_cpustat = s->cpustat.has_periods = !nul;
	s->cpustat.nr_throttled = rp_u64(p, o, "nr_throttled", &nul);
	s->cpustat.throttled_s = rp_num(p, o, "throttled_s", true, 0, 0);
	double pct = rp_num(p, o, "throttled_pct", true, NAN, NAN);
	r->throttle.valid = !isnan(pct);
	r->throttle.throttled_pct = r->throttle.valid ? pct : 0;
	r->throttle.throttled_s_per_s = rp_num(p, o, "throttled_s_per_s", true, 0, 0);
	double psi = rp_num(p, o, "psi_some_avg10", true, NAN, NAN);
	s->psi_cgroup.available = !isnan(psi);
	s->psi_cgroup.some_avg10 = s->psi_cgroup.available ? psi : 0;
}

static void rp_threads(struct rp *p, json_object *a, struct snapshot_rates *r)
{
	size_t n = json_object_array_length(a);
	r->threads = xreallocarray_grow(r->threads, &r->cap, n, sizeof(*r->threads));
	r->nthreads = 0;
	r->total_cpu_pct = r->total_wait_pct = 0;
	for (size_t i = 0; i < n && !p->bad; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct thread_rate *t = &r->threads[r->nthreads];
		char state[8];
		memset(t, 0, sizeof(*t));
		if (!json_object_is_type(o, json_type_object)) {
			rp_fail(p, "not an object:", "threads[]");
			break;
		}
		t->pid = (pid_t)rp_int(p, o, "pid", 0);
		t->tid = (pid_t)rp_int(p, o, "tid", 0);
		rp_str(p, o, "name", t->name, sizeof(t->name), &t->name_len);
		rp_str(p, o, "state", state, sizeof(state), NULL);
		t->state = state[0] ? state[0] : '?';
		t->cpu = (int)rp_int(p, o, "cpu", 0);
		t->cpu_pct = rp_num(p, o, "cpu_pct", false, 0, 0);
		t->user_pct = rp_num(p, o, "user_pct", false, 0, 0);
		t->sys_pct = rp_num(p, o, "sys_pct", false, 0, 0);
		t->wait_pct = rp_num(p, o, "wait_pct", false, 0, 0);
		t->vcsw_per_s = rp_num(p, o, "vcsw_per_s", false, 0, 0);
		t->ivcsw_per_s = rp_num(p, o, "ivcsw_per_s", false, 0, 0);
		r->total_cpu_pct += t->cpu_pct;
		r->total_wait_pct += t->wait_pct;
		r->nthreads++;
	}
}

static void rp_cpus(struct rp *p, json_object *a, struct cpu_usage *u)
{
	size_t n = json_object_array_length(a);
	u->n = 0;
	u->total_busy_pct = 0;
	for (size_t i = 0; i < n && i < CPUS_MAX; i++) {
		json_object *v = json_object_array_get_idx(a, i);
		if (!rp_is_num(v)) {
			rp_fail(p, "not a number:", "cpus[]");
			return;
		}
		u->id[u->n] = (int)i;
		u->busy_pct[u->n] = json_object_get_double(v);
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
static void rp_results(struct rp *p, json_object *o, const char *key, bool *checked, bool *equal)
{
	json_object *v = rp_get(p, o, key, false);
	*checked = v != NULL;
	*equal = v ? rp_bool(p, o, key, false) : false;
}

static void rp_streams(struct rp *p, json_object *a, struct recording_sample *s)
{
	struct workload_report *w = &s->work;
	struct lab_status *st = &s->status;
	size_t n = json_object_array_length(a);
	w->nstreams = 0;
	for (size_t i = 0; i < n && i < CTL_MAX_STREAMS && !p->bad; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct workload_stream_report *r = &w->stream[w->nstreams];
		struct lab_stream_status *ss = &st->stream[w->nstreams];
		char state[16];
		memset(r, 0, sizeof(*r));
		r->stream = (int)rp_int(p, o, "stream", (long long)i);
		r->pid = ss->pid = (pid_t)rp_int(p, o, "pid", 0);
		rp_str(p, o, "state", state, sizeof(state), NULL);
		r->state = rp_stream_state(state, &ss->state);
		r->wanted = rp_bool(p, o, "wanted", true);
		r->threads = ss->threads = (int)rp_int(p, o, "threads", 0);
		r->pool = ss->pool = (int)rp_int(p, o, "pool", 0);
		r->gflops = rp_num(p, o, "gflops", false, 0, 0);
		r->useful_cpus = rp_num(p, o, "useful_cpus", false, 0, 0);
		r->cpu_cpus = rp_num(p, o, "cpu_cpus", false, 0, 0);
		ss->size = st->settings.size;
		ss->precision = st->settings.precision;
		ss->applied_epoch = 2;
		w->nstreams++;
	}
	st->nslots = w->nstreams;
}

static void rp_pids(struct rp *p, json_object *o, const char *key, pid_t *out, size_t cap,
		    size_t *n)
{
	json_object *a = rp_typed(p, o, key, json_type_array, false);
	*n = 0;
	for (size_t i = 0; a && i < json_object_array_length(a) && *n < cap; i++) {
		json_object *v = json_object_array_get_idx(a, i);
		if (!json_object_is_type(v, json_type_int)) {
			rp_fail(p, "not an integer:", key);
			return;
		}
		out[(*n)++] = (pid_t)json_object_get_int64(v);
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

static void rp_workload(struct rp *p, json_object *o, struct recording_sample *s)
{
	struct workload_report *w = &s->work;
	struct lab_status *st = &s->status;
	struct lab_settings *set = &st->settings;
	char prec[16], spin[16];
	set->threads = w->threads = (int)rp_int(p, o, "threads", 1);
	set->streams = w->streams = (int)rp_int(p, o, "streams", 1);
	set->size = w->size = (int)rp_int(p, o, "size", 0);
	rp_str(p, o, "precision", prec, sizeof(prec), NULL);
	set->precision = strcmp(prec, "double") == 0 ? CTL_DOUBLE : CTL_SINGLE;
	w->precision = set->precision == CTL_DOUBLE ? "double" : "single";
	set->workers = w->workers = (int)rp_int(p, o, "workers", 0);
	double cpus = rp_num(p, o, "cpus", true, 0, 0);
	set->cpus = w->cpus = st->quota_cpus = cpus;
	set->paused = w->paused = rp_bool(p, o, "paused", false);
	rp_str(p, o, "blas_spin", spin, sizeof(spin), NULL);
	set->spin_off = w->spin_off = strcmp(spin, "off") == 0;
	w->gflops = rp_num(p, o, "gflops", false, 0, 0);
	w->steady_gflops = rp_num(p, o, "steady_gflops", true, -1, -1);
	w->single_thread_gflops = rp_num(p, o, "single_thread_gflops", true, -1, -1);
	w->ideal_gflops = rp_num(p, o, "ideal_gflops", true, 0, 0);
	w->ceiling_gflops = rp_num(p, o, "ceiling_gflops", true, 0, 0);
	rp_results(p, o, "setting_results_equal", &w->epoch_results_checked,
		   &w->epoch_results_equal);
	w->epoch_max_diff = rp_num(p, o, "setting_max_diff", true, NAN, 0);
	rp_results(p, o, "results_equal", &w->results_checked, &w->results_equal);
	w->max_diff = rp_num(p, o, "max_diff", true, NAN, 0);
	w->useful_cpus = rp_num(p, o, "useful_cpus", false, 0, 0);
	w->cpu_cpus = rp_num(p, o, "cpu_cpus", false, 0, 0);
	w->steady_seconds = rp_num(p, o, "steady_seconds", true, 0, 0);
	json_object *ps = rp_typed(p, o, "per_stream", json_type_array, true);
	if (ps)
		rp_streams(p, ps, s);
	json_object *blas = rp_typed(p, o, "blas", json_type_object, false);
	rp_str(p, blas, "config", s->blas_config, sizeof(s->blas_config), NULL);
	rp_str(p, blas, "core", s->blas_core, sizeof(s->blas_core), NULL);
	rp_str(p, blas, "variant", s->blas_variant, sizeof(s->blas_variant), NULL);
	w->blas_config = s->blas_config;
	w->blas_core = s->blas_core;
	w->blas_variant = s->blas_variant;
	snprintf(st->blas_config, sizeof(st->blas_config), "%s", s->blas_config);
	snprintf(st->blas_core, sizeof(st->blas_core), "%s", s->blas_core);
	st->blas_variant = rp_variant(s->blas_variant);
	rp_str(p, o, "error", w->error, sizeof(w->error), NULL);
	rp_pids(p, o, "pids", w->pids, LABVIEW_PIDS_MAX, &w->npids);
	w->anchor_pid = st->anchor_pid =
	    (pid_t)rp_int(p, o, "anchor_pid", w->npids ? w->pids[0] : 0);
	rp_pids(p, o, "worker_pids", w->worker_pids, LAB_MAX_WORKERS, &w->nworkers_pids);
	for (size_t i = 0; i < w->nworkers_pids; i++)
		st->worker_pid[i] = w->worker_pids[i];
	st->nworkers = (int)w->nworkers_pids;
	st->applied = true;
	st->epoch = 2;
	st->results_equal = w->results_equal;
	st->epoch_results_equal = w->epoch_results_equal;
	for (size_t i = 0; i < w->npids && st->npids < LAB_MAX_PIDS; i++)
		st->pids[st->npids++] = w->pids[i];
}

void recording_sample_init(struct recording_sample *s)
{
	memset(s, 0, sizeof(*s));
	snapshot_init(&s->snap);
	snapshot_rates_init(&s->rates);
}

void recording_sample_free(struct recording_sample *s)
{
	snapshot_free(&s->snap);
	snapshot_rates_free(&s->rates);
	recording_sample_init(s);
}

/* Keeps the rates' thread array, clears everything else. */
static void rp_clear(struct recording_sample *s)
{
	struct thread_rate *keep = s->rates.threads;
	size_t cap = s->rates.cap;
	snapshot_free(&s->snap);
	memset(s, 0, sizeof(*s));
	snapshot_init(&s->snap);
	s->rates.threads = keep;
	s->rates.cap = cap;
}

/* Bytes that are not UTF-8 were written as \udcXX each (json-out.h); json-c
 * would read such a lone surrogate as U+FFFD and lose the byte.  So before
 * parsing, inside strings, \udcXX (XX 80..ff) becomes \u0000\u00XX and a
 * real \u0000 becomes \u0000\u0000: every NUL json-c hands back is then
 * followed by what says which it was (rp_raw_bytes).  NULL when the line
 * has neither (nothing to do); else a new buffer, its length in *outlen. */
static char *rp_prepass(const char *line, size_t len, size_t *outlen)
{
	if (!memmem(line, len, "\\udc", 4) && !memmem(line, len, "\\u0000", 6))
		return NULL;
	char *o = xmalloc(len * 2 + 1);
	size_t k = 0;
	bool in = false;
	for (size_t i = 0; i < len; i++) {
		char c = line[i];
		if (!in) {
			in = c == '"';
			o[k++] = c;
			continue;
		}
		if (c == '"') {
			in = false;
			o[k++] = c;
			continue;
		}
		if (c != '\\' || i + 1 >= len) {
			o[k++] = c;
			continue;
		}
		if (line[i + 1] == 'u' && i + 5 < len) {
			const char *h = line + i + 2;
			if (strncmp(h, "0000", 4) == 0) {
				memcpy(o + k, "\\u0000\\u0000", 12);
				k += 12;
				i += 5;
				continue;
			}
			if ((h[0] == 'd' || h[0] == 'D') && (h[1] == 'c' || h[1] == 'C') &&
			    strchr("89abcdefABCDEF", h[2]) && isxdigit((unsigned char)h[3])) {
				memcpy(o + k, "\\u0000\\u00", 10);
				o[k + 10] = h[2];
				o[k + 11] = h[3];
				k += 12;
				i += 5;
				continue;
			}
		}
		o[k++] = c; /* the backslash, then what it escapes as is */
		o[k++] = line[++i];
	}
	o[k] = '\0';
	*outlen = k;
	return o;
}

static json_object *rp_parse(const char *line, size_t len, char *err, size_t errlen)
{
	size_t plen = 0;
	char *pre = rp_prepass(line, len, &plen);
	if (pre) {
		line = pre;
		len = plen;
	}
	struct json_tokener *tok = json_tokener_new();
	if (!tok) {
		free(pre);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	json_object *o = json_tokener_parse_ex(tok, line, (int)len);
	enum json_tokener_error e = json_tokener_get_error(tok);
	size_t used = json_tokener_get_parse_end(tok);
	if (o && e == json_tokener_success) {
		while (used < len &&
		       (line[used] == ' ' || line[used] == '\r' || line[used] == '\t'))
			used++;
		if (used < len) {
			json_object_put(o);
			o = NULL;
			snprintf(err, errlen, "not JSON: text after the object");
		}
	} else {
		json_object_put(o);
		o = NULL;
		snprintf(err, errlen, "not JSON: %s",
			 e == json_tokener_continue ? "the line ends inside it"
						    : json_tokener_error_desc(e));
	}
	json_tokener_free(tok);
	free(pre);
	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = NULL;
		snprintf(err, errlen, "not a JSON object");
	}
	return o;
}

int recording_parse_sample(const char *line, size_t len, struct recording_sample *out, char *err,
			   size_t errlen)
{
	struct rp p = {err, errlen, false};
	rp_clear(out);
	json_object *o = rp_parse(line, len, err, errlen);
	if (!o)
		return -EINVAL;
	char ts[64];
	if (!rp_str(&p, o, "time", ts, sizeof(ts), NULL) && !p.bad)
		rp_fail(&p, "missing", "time");
	if (!p.bad && !rp_time(ts, &out->snap.wall))
		rp_fail(&p, "not a time (2026-12-01T08:00:00.000Z):", "time");
	out->snap.time = out->snap.wall;
	out->snap.target_alive = true;
	out->rates.dt = rp_num(&p, o, "interval", true, 0, 0);
	json_object *b = rp_typed(&p, o, "budget", json_type_object, true);
	if (b)
		rp_budget(&p, b, &out->snap.budget);
	json_object *cg = rp_typed(&p, o, "cgroup", json_type_object, true);
	if (cg)
		rp_cgroup(&p, cg, &out->snap, &out->rates);
	json_object *sys = rp_typed(&p, o, "system", json_type_object, false);
	double psi = rp_num(&p, sys, "psi_some_avg10", true, NAN, NAN);
	out->snap.psi_system.available = !isnan(psi);
	out->snap.psi_system.some_avg10 = out->snap.psi_system.available ? psi : 0;
	out->rates.runnable = (int)rp_int(&p, o, "runnable", 0);
	json_object *th = rp_typed(&p, o, "threads", json_type_array, true);
	if (th)
		rp_threads(&p, th, &out->rates);
	json_object *cpus = rp_typed(&p, o, "cpus", json_type_array, false);
	if (cpus)
		rp_cpus(&p, cpus, &out->snap.cpus);
	json_object *w = rp_typed(&p, o, "workload", json_type_object, false);
	out->has_workload = w != NULL;
	if (w) {
		rp_workload(&p, w, out);
		out->work.interval = out->rates.dt;
	}
	json_object_put(o);
	return p.bad ? -EINVAL : 0;
}

int recording_parse_header(const char *line, size_t len, struct recording_header *h, char *err,
			   size_t errlen)
{
	struct rp p = {err, errlen, false};
	memset(h, 0, sizeof(*h));
	json_object *o = rp_parse(line, len, err, errlen);
	if (!o)
		return -EINVAL;
	json_object *v = NULL;
	if (!json_object_object_get_ex(o, "threadlab_recording", &v)) {
		json_object_put(o);
		return 0;
	}
	h->present = true;
	h->version = (int)rp_int(&p, o, "threadlab_recording", 0);
	if (!p.bad && h->version > RECORDING_VERSION) {
		snprintf(err, errlen,
			 "recording format %d is newer than this threadlab reads (%d): use a newer "
			 "threadlab",
			 h->version, RECORDING_VERSION);
		json_object_put(o);
		return -ENOTSUP;
	}
	if (!p.bad && h->version < 1)
		rp_fail(&p, "not a format version:", "threadlab_recording");
	rp_str(&p, o, "threadlab_version", h->threadlab_version, sizeof(h->threadlab_version),
	       NULL);
	rp_str(&p, o, "host", h->host, sizeof(h->host), NULL);
	rp_str(&p, o, "kernel", h->kernel, sizeof(h->kernel), NULL);
	rp_str(&p, o, "cpu_model", h->cpu_model, sizeof(h->cpu_model), NULL);
	h->online = (int)rp_int(&p, o, "online_cpus", 0);
	json_object *blas = rp_typed(&p, o, "openblas", json_type_object, false);
	rp_str(&p, blas, "config", h->blas_config, sizeof(h->blas_config), NULL);
	rp_str(&p, blas, "core", h->blas_core, sizeof(h->blas_core), NULL);
	rp_str(&p, blas, "variant", h->blas_variant, sizeof(h->blas_variant), NULL);
	json_object *env = rp_typed(&p, o, "env", json_type_object, false);
	if (env) {
		json_object_object_foreach(env, key, val)
		{
			if (h->nvars == ENVIRONMENT_VARS_MAX)
				break;
			snprintf(h->vars[h->nvars].name, sizeof(h->vars[0].name), "%s", key);
			h->vars[h->nvars].set = val != NULL;
			if (val && !json_object_is_type(val, json_type_string))
				rp_fail(&p, "not a string:", key);
			else if (val)
				snprintf(h->vars[h->nvars].value, sizeof(h->vars[0].value), "%s",
					 json_object_get_string(val));
			h->nvars++;
		}
	}
	json_object *args = rp_typed(&p, o, "command_line", json_type_array, false);
	size_t off = 0;
	for (size_t i = 0; args && i < json_object_array_length(args); i++) {
		json_object *a = json_object_array_get_idx(args, i);
		if (!json_object_is_type(a, json_type_string)) {
			rp_fail(&p, "not a string:", "command_line[]");
			break;
		}
		int n = snprintf(h->command_line + off, sizeof(h->command_line) - off, "%s%s",
				 off ? " " : "", json_object_get_string(a));
		if (n < 0 || (size_t)n >= sizeof(h->command_line) - off)
			break;
		off += (size_t)n;
	}
	rp_str(&p, o, "start_time", h->start_time, sizeof(h->start_time), NULL);
	rp_str(&p, o, "mode", h->mode, sizeof(h->mode), NULL);
	json_object *t = rp_typed(&p, o, "target", json_type_object, false);
	h->pid = (int)rp_int(&p, t, "pid", 0);
	rp_str(&p, t, "name", h->target, sizeof(h->target), NULL);
	h->tree = rp_bool(&p, t, "tree", false);
	h->interval = rp_num(&p, o, "interval", true, 1, 1);
	json_object_put(o);
	return p.bad ? -EINVAL : 1;
}
