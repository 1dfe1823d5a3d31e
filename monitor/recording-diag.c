/* recording-diag.c — a recorded sample's "diagnosis" back into its struct
 * (the schema is output/diagnosis-out.h's). */
#include "config.h"

#include "recording-diag.h"

#include "recording-latency.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A "latency" object of the diagnosis, as the model has it. */
static bool recording_diag_latency(struct recording_json *p, json_object *o,
				   struct model_latency *out)
{
	struct lat_summary l;
	bool on = recording_latency_parse(p, o, &l, NULL, NULL);
	model_latency_of(&l, out);
	return on;
}

static void recording_diag_strings(struct recording_json *p, json_object *o, const char *key,
				   char list[][DIAG_TEXT], size_t *n, size_t max)
{
	json_object *a = recording_json_typed(p, o, key, json_type_array, false);
	*n = 0;
	for (size_t i = 0; a && i < json_object_array_length(a) && *n < max; i++) {
		json_object *v = json_object_array_get_idx(a, i);
		if (!json_object_is_type(v, json_type_string)) {
			recording_json_fail(p, "not a string:", key);
			return;
		}
		/* (raw bytes: a name in a reason may hold bytes that are not UTF-8) */
		recording_json_str_of(v, list[(*n)++], DIAG_TEXT, NULL);
	}
}

/* A count that may be null (unknown): -1 then, or when absent. */
static int recording_diag_count(struct recording_json *p, json_object *o, const char *key)
{
	json_object *v = NULL;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return -1;
	return (int)recording_json_int(p, o, key, -1);
}

/* {"compute": 3, ...} into counts[ACTIVITY_N]. */
static void recording_diag_activity(struct recording_json *p, json_object *o, int *counts)
{
	json_object *a = recording_json_typed(p, o, "activity", json_type_object, false);
	if (!a)
		return;
	json_object_object_foreach(a, key, val)
	{
		enum activity k = activity_of_name(key);
		if (k != ACTIVITY_NONE)
			counts[k] = (int)recording_json_int_of(p, val, "activity", 0, INT_MAX, 0);
	}
}

/* The neighbours and the machine (absent in older recordings: not measured). */
static void recording_diag_machine(struct recording_json *p, json_object *o, struct diagnosis *d)
{
	struct machine_view *m = &d->machine;
	json_object *mo = recording_json_typed(p, o, "machine", json_type_object, false);
	if (!mo)
		return;
	m->valid = true;
	m->runnable_mean = recording_json_num(p, mo, "runnable_mean", false, 0, 0);
	m->online = recording_diag_count(p, mo, "online");
	m->cpus_used = recording_json_num(p, mo, "cpus_used", false, 0, 0);
	m->psi_some = recording_json_num(p, mo, "psi_some", true, -1, -1);
	m->others_cpus = recording_json_num(p, mo, "others_cpus", false, 0, 0);
	m->others_shared = recording_json_num(p, mo, "others_shared_cpus", false, 0, 0);
	m->unseen_cpus = recording_json_num(p, mo, "unseen_cpus", false, 0, 0);
	m->children = (int)recording_json_int(p, mo, "children", 0);
	m->children_cpus = recording_json_num(p, mo, "children_cpus", false, 0, 0);
	m->window_s = recording_json_num(p, mo, "window_s", false, 0, 0);
	json_object *a = recording_json_typed(p, o, "neighbours", json_type_array, false);
	for (size_t i = 0; a && i < json_object_array_length(a) && m->n < NEIGHBOURS_TOP; i++) {
		json_object *x = json_object_array_get_idx(a, i);
		struct neighbour *n = &m->top[m->n++];
		n->pid = (pid_t)recording_json_int(p, x, "pid", 0);
		recording_json_str(p, x, "name", n->name, sizeof(n->name), &n->name_len);
		recording_json_str(p, x, "cgroup", n->cgroup, sizeof(n->cgroup), NULL);
		n->cpus_used = recording_json_num(p, x, "cpus_used", false, 0, 0);
		n->runnable_mean = recording_json_num(p, x, "runnable_mean", false, 0, 0);
		n->shares_cpus = recording_json_bool(p, x, "shares_cpus", true);
	}
}

static void recording_diag_roles(struct recording_json *p, json_object *a, struct diagnosis *d)
{
	for (size_t i = 0; i < json_object_array_length(a) && d->nroles < DIAG_ROLES; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct diag_role *r = &d->roles[d->nroles++];
		recording_json_str(p, o, "role", r->name, sizeof(r->name), NULL);
		recording_json_str(p, o, "kind", r->kind, sizeof(r->kind), NULL);
		json_object *pids = recording_json_typed(p, o, "pids", json_type_array, false);
		for (size_t k = 0; pids && k < json_object_array_length(pids) && k < DIAG_ROLE_PIDS;
		     k++)
			r->pids[k] = (pid_t)recording_json_int_of(
			    p, json_object_array_get_idx(pids, k), "pids", 0, INT_MAX, 0);
		r->nprocs = (int)recording_json_int(p, o, "processes", 0);
		r->threads = (int)recording_json_int(p, o, "threads", 0);
		r->runnable_mean = recording_json_num(p, o, "runnable_mean", false, 0, 0);
		r->cpu_pct = recording_json_num(p, o, "cpu_pct", false, 0, 0);
		r->wait_pct = recording_json_num(p, o, "wait_pct", false, 0, 0);
		recording_diag_latency(p, o, &r->latency);
		r->input_wait_pct = recording_json_num(p, o, "input_wait_pct", false, 0, 0);
		recording_diag_activity(p, o, r->activity);
	}
}

static void recording_diag_runtimes(struct recording_json *p, json_object *a, struct diagnosis *d)
{
	for (size_t i = 0; i < json_object_array_length(a) && d->nruntimes < DIAG_RUNTIMES; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct diag_runtime *r = &d->runtimes[d->nruntimes++];
		recording_json_str(p, o, "name", r->name, sizeof(r->name), NULL);
		recording_json_str(p, o, "library", r->library, sizeof(r->library), NULL);
		r->pid = (pid_t)recording_json_int(p, o, "pid", 0);
		recording_json_str(p, o, "variant", r->variant, sizeof(r->variant), NULL);
		r->nprocs = (int)recording_json_int(p, o, "processes", 1);
		r->pool = recording_diag_count(p, o, "pool");
		r->pool_default = recording_diag_count(p, o, "pool_default");
		char src[16];
		recording_json_str(p, o, "pool_source", src, sizeof(src), NULL);
		r->source = POOL_UNKNOWN;
		for (int k = POOL_MEMORY; k <= POOL_DEFAULT; k++)
			if (strcmp(src, diagnosis_pool_source_name((enum pool_source)k)) == 0)
				r->source = (enum pool_source)k;
		r->observed = (int)recording_json_int(p, o, "observed", 0);
		r->code_sets = recording_json_bool(p, o, "code_sets", false);
		recording_json_str(p, o, "pool_why", r->pool_why, sizeof(r->pool_why), NULL);
		recording_json_str(p, o, "why", r->why, sizeof(r->why), NULL);
		struct runtime_match m;
		r->id = runtimes_match(r->library, &m) ? m.id : RUNTIME_N;
	}
}

static void recording_diag_env(struct recording_json *p, json_object *o, struct diagnosis *d)
{
	d->env_state = CENSUS_ENV_OK;
	json_object_object_foreach(o, key, val)
	{
		if (d->nenv == ENVIRONMENT_VARS_MAX)
			break;
		/* The names are ours: keep a pointer to the table's copy. */
		const char *name = NULL;
		for (size_t i = 0; environment_thread_vars[i]; i++)
			if (strcmp(environment_thread_vars[i], key) == 0)
				name = environment_thread_vars[i];
		if (!name)
			continue;
		struct diag_env *e = &d->env[d->nenv++];
		e->name = name;
		e->state = CENSUS_ENV_OK;
		if (val && !json_object_is_type(val, json_type_string)) {
			recording_json_fail(p, "not a string:", key);
			continue;
		}
		const char *v = val ? json_object_get_string(val) : NULL;
		if (v && strcmp(v, "unreadable") == 0) {
			e->state = d->env_state = CENSUS_ENV_UNREADABLE;
			continue;
		}
		if (v && strcmp(v, "truncated") == 0) {
			e->state = d->env_state = CENSUS_ENV_TRUNCATED;
			continue;
		}
		e->set = v != NULL;
		e->value[0] = '\0';
		if (v) /* (raw bytes: another process's environment) */
			recording_json_str_of(val, e->value, sizeof(e->value), NULL);
	}
}

static void recording_diag_groups(struct recording_json *p, json_object *a, struct diagnosis *d)
{
	for (size_t i = 0; i < json_object_array_length(a) && d->ngroups < DIAG_GROUPS; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct diag_group *g = &d->groups[d->ngroups++];
		g->pid = (pid_t)recording_json_int(p, o, "pid", 0);
		recording_json_str(p, o, "name", g->name, sizeof(g->name), NULL);
		diagnosis_stem(g->name, strlen(g->name), g->stem, sizeof(g->stem));
		g->threads = (int)recording_json_int(p, o, "threads", 0);
		g->runnable_mean = recording_json_num(p, o, "runnable_mean", false, 0, 0);
		g->cpu_pct = recording_json_num(p, o, "cpu_pct", false, 0, 0);
		g->wait_pct = recording_json_num(p, o, "wait_pct", false, 0, 0);
		recording_diag_latency(p, o, &g->latency);
		recording_diag_activity(p, o, g->activity);
	}
}

void recording_diag_parse(struct recording_json *p, json_object *o, struct diagnosis *d)
{
	char name[32];
	memset(d, 0, sizeof(*d));
	recording_json_str(p, o, "verdict", name, sizeof(name), NULL);
	d->verdict = diagnosis_verdict_of(name);
	if (d->verdict == VERDICT_N) {
		recording_json_fail(p, "not a verdict:", "verdict");
		d->verdict = VERDICT_FINE;
	}
	d->factor = recording_json_num(p, o, "factor", false, 0, 0);
	d->runnable_mean = recording_json_num(p, o, "runnable_mean", false, 0, 0);
	d->runnable_now = (int)recording_json_int(p, o, "runnable_now", 0);
	d->maps_unreadable = (int)recording_json_int(p, o, "maps_unreadable", 0);
	d->maps_truncated = (int)recording_json_int(p, o, "maps_truncated", 0);
	d->unfollowed = (int)recording_json_int(p, o, "unfollowed", 0);
	d->effective = recording_json_num(p, o, "effective_cpus", false, 0, 0);
	recording_json_str(p, o, "binding", name, sizeof(name), NULL);
	d->binding = MODEL_TERM_ONLINE;
	for (int t = MODEL_TERM_ONLINE; t <= MODEL_TERM_QUOTA; t++)
		if (strcmp(name, model_term_name((enum model_term)t)) == 0)
			d->binding = (enum model_term)t;
	d->window_s = recording_json_num(p, o, "window_s", false, 0, 0);
	d->cpu = recording_json_num(p, o, "cpus_used", false, 0, 0);
	d->wait = recording_json_num(p, o, "wait_s_per_s", false, 0, 0);
	d->throttle_wait = recording_json_num(p, o, "throttle_wait_s_per_s", false, 0, 0);
	double pct = recording_json_num(p, o, "throttled_pct", true, NAN, NAN);
	d->throttle_valid = !isnan(pct);
	d->throttled_pct = d->throttle_valid ? pct : 0;
	d->lat_on = recording_diag_latency(p, o, &d->latency);
	d->contention_wait = recording_json_num(p, o, "contention_wait_s_per_s", false, 0, 0);
	d->unseen_cpu = recording_json_num(p, o, "unseen_cpus", false, 0, 0);
	recording_json_str(p, o, "borderline", name, sizeof(name), NULL);
	d->borderline = name[0] ? diagnosis_verdict_of(name) : VERDICT_N;
	d->kept = recording_json_bool(p, o, "kept", false);
	d->input_bound = recording_json_bool(p, o, "input_bound", false);
	json_object *also = recording_json_typed(p, o, "also", json_type_array, false);
	for (size_t i = 0; also && i < json_object_array_length(also); i++) {
		const char *v = json_object_get_string(json_object_array_get_idx(also, i));
		d->also_contended |= v && strcmp(v, "contended") == 0;
	}
	recording_diag_machine(p, o, d);
	recording_json_str(p, o, "headline", d->headline, sizeof(d->headline), NULL);
	recording_diag_strings(p, o, "reasons", d->reasons, &d->nreasons, DIAG_REASONS);
	recording_diag_strings(p, o, "suggestions", d->suggestions, &d->nsuggestions, DIAG_SUGGEST);
	json_object *a = recording_json_typed(p, o, "roles", json_type_array, false);
	if (a)
		recording_diag_roles(p, a, d);
	a = recording_json_typed(p, o, "runtimes", json_type_array, false);
	if (a)
		recording_diag_runtimes(p, a, d);
	json_object *env = recording_json_typed(p, o, "env", json_type_object, false);
	if (env)
		recording_diag_env(p, env, d);
	else
		d->env_state = CENSUS_ENV_UNKNOWN;
	a = recording_json_typed(p, o, "groups", json_type_array, false);
	if (a)
		recording_diag_groups(p, a, d);
	d->nthreads = 0;
}
