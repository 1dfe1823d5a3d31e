/* model.c — the model's types (model.h) and their filling from the
 * collectors' (model-impl.h): each conversion made once, here.
 *
 * A tick's rows are copied from the rates and the sample (a few hundred
 * bytes a thread, once a tick, into storage kept across ticks); what is
 * bulky and read only on demand, a thread's latency histogram, stays in
 * the rates and is reached through the sample's source (runqlat.h). */
#include "config.h"

#include "model-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpus.h"
#include "diagnosis-input.h"
#include "thread-field-impl.h"
#include "xalloc.h"
#include "clock.h"

_Static_assert(MODEL_NAME_MAX == TASK_NAME_MAX, "thread names");
_Static_assert(MODEL_PATH_MAX == CGROUP_PATH_MAX, "cgroup paths");
_Static_assert(MODEL_CPUS_MAX == CPUS_MAX, "CPUs");
_Static_assert(MODEL_TERM_ONLINE == (int)BUDGET_ONLINE &&
		   MODEL_TERM_AFFINITY == (int)BUDGET_AFFINITY &&
		   MODEL_TERM_CPUSET == (int)BUDGET_CPUSET && MODEL_TERM_QUOTA == (int)BUDGET_QUOTA,
	       "budget terms");
_Static_assert(MODEL_PSI_WHY_NONE == (int)PSI_WHY_NONE && MODEL_PSI_WHY_V1 == (int)PSI_WHY_V1 &&
		   MODEL_PSI_WHY_ROOT == (int)PSI_WHY_ROOT,
	       "pressure reasons");

const char *model_term_name(enum model_term t)
{
	return budget_term_name((enum budget_term)t);
}

enum model_term model_term_of(enum budget_term t)
{
	return (enum model_term)t;
}

void model_budget_of(const struct budget *b, struct model_budget *out)
{
	out->online = b->online;
	out->affinity = b->affinity;
	out->cpuset = b->cpuset;
	out->quota.cpus = b->quota.cpus;
	out->quota.period_us = b->quota.period_us;
	snprintf(out->quota.dir, sizeof(out->quota.dir), "%s", b->quota.dir);
	out->quota.controller = b->quota.controller;
	out->quota.unknown = b->quota.unknown;
	out->effective = b->effective;
	out->binding = model_term_of(b->binding);
	out->loc.version = b->loc.version;
	snprintf(out->loc.path, sizeof(out->loc.path), "%s", b->loc.path);
	snprintf(out->loc.mount_dir, sizeof(out->loc.mount_dir), "%s", b->loc.mount_dir);
	out->loc.fallback = b->loc.fallback;
	snprintf(out->note, sizeof(out->note), "%s", b->note);
}

void model_latency_of(const struct lat_summary *l, struct model_latency *out)
{
	out->events = l->events;
	out->p50_s = l->p50_s;
	out->p99_s = l->p99_s;
	out->max_s = l->max_s;
	out->mean_s = l->mean_s;
}

void model_summarize(const struct lat_hist *h, struct model_latency *out)
{
	struct lat_summary l;
	latency_summarize(h, &l);
	model_latency_of(&l, out);
}

void model_psi_of(const struct psi *p, struct model_psi *out)
{
	out->available = p->available;
	out->some_avg10 = p->some_avg10;
	out->some_total_us = p->some_total_us;
}

enum model_psi_why model_psi_why_of(enum psi_why w)
{
	return (enum model_psi_why)w;
}

enum psi_why model_psi_why_to(enum model_psi_why w)
{
	return (enum psi_why)w;
}

void model_sample_init(struct model_sample *m)
{
	memset(m, 0, sizeof(*m));
}

void model_sample_free(struct model_sample *m)
{
	free(m->threads);
	free(m->source);
	model_sample_init(m);
}

static double model_hz(void)
{
	return (double)clock_ticks_per_s();
}

/* Row i: the thread's rates (r, may be NULL: no interval yet) and its
 * sample (x, may be NULL: a replay); the rates copied the sample's name,
 * state and CPU. */
static void model_thread_of(const struct thread_rate *r, const struct thread_sample *x,
			    struct model_thread *t)
{
	memset(t, 0, sizeof(*t));
	const char *name = r ? r->name : x->name;
	t->pid = r ? r->pid : x->pid;
	t->tid = r ? r->tid : x->tid;
	t->name_len = r ? r->name_len : x->name_len;
	memcpy(t->name, name, sizeof(t->name));
	t->state = r ? r->state : x->state;
	t->cpu = r ? r->cpu : x->cpu;
	if (r) {
		for (size_t k = 0; k < THREAD_FIELD_N; k++)
			thread_field_rate_of(&thread_field_table[k], r, t);
		t->is_new = r->is_new;
		t->is_reset = r->is_reset;
		model_latency_of(&r->latency, &t->latency);
		t->lat_ref = r->lat_ref;
		t->activity = r->activity;
		t->input_wait_pct = r->input_wait_pct;
	}
	if (x) {
		t->user_s = (double)x->utime / model_hz();
		t->system_s = (double)x->stime / model_hz();
		t->wait_s = (double)x->wait_ns / 1e9;
		t->vcsw = x->vcsw;
		t->ivcsw = x->ivcsw;
	}
}

static void model_rows(struct model_sample *m, const struct snapshot *cur,
		       const struct snapshot_rates *r)
{
	size_t nr = r ? r->nthreads : 0, nc = cur->threads.n;
	size_t n = nr > nc ? nr : nc;
	m->threads = xreallocarray_grow(m->threads, &m->cap, n, sizeof(*m->threads));
	for (size_t i = 0; i < n; i++)
		model_thread_of(i < nr ? &r->threads[i] : NULL, i < nc ? &cur->threads.v[i] : NULL,
				&m->threads[i]);
	m->nthreads = nr;
	m->ncounted = nc;
}

void model_sample_fill(struct model_sample *m, const struct snapshot *cur,
		       const struct snapshot_rates *r, bool have_rates)
{
	if (!have_rates)
		r = NULL;
	m->time = cur->time;
	m->wall = cur->wall;
	m->target_alive = cur->target_alive;
	model_budget_of(&cur->budget, &m->budget);
	snprintf(m->stat_dir, sizeof(m->stat_dir), "%s", cur->stat_dir);
	snprintf(m->stat_name, sizeof(m->stat_name), "%s", cur->stat_name);
	m->has_cpustat = cur->has_cpustat;
	m->cpustat.has_periods = cur->cpustat.has_periods;
	m->cpustat.nr_periods = cur->cpustat.nr_periods;
	m->cpustat.nr_throttled = cur->cpustat.nr_throttled;
	m->cpustat.throttled_s = cur->cpustat.throttled_s;
	model_psi_of(&cur->psi_cgroup, &m->psi_cgroup);
	m->psi_cgroup_why = model_psi_why_of(cur->psi_cgroup_why);
	model_psi_of(&cur->psi_system, &m->psi_system);
	m->cpus.n = cur->cpus.n < MODEL_CPUS_MAX ? cur->cpus.n : MODEL_CPUS_MAX;
	m->cpus.total_busy_pct = cur->cpus.total_busy_pct;
	memcpy(m->cpus.id, cur->cpus.id, m->cpus.n * sizeof(m->cpus.id[0]));
	memcpy(m->cpus.busy_pct, cur->cpus.busy_pct, m->cpus.n * sizeof(m->cpus.busy_pct[0]));
	m->path = cur->path == SNAPSHOT_BPF ? MODEL_PATH_BPF : MODEL_PATH_PROC;
	model_rows(m, cur, r);
	m->dt = r ? r->dt : 0;
	m->throttle.valid = r && r->throttle.valid;
	m->throttle.throttled_pct = r ? r->throttle.throttled_pct : 0;
	m->throttle.throttled_s_per_s = r ? r->throttle.throttled_s_per_s : 0;
	m->total_cpu_pct = r ? r->total_cpu_pct : 0;
	m->total_wait_pct = r ? r->total_wait_pct : 0;
	m->runnable_mean = r ? diagnosis_runnable_mean(r) : 0;
	m->runnable = r ? r->runnable : 0;
	m->lat_on = r && r->lat_on;
	m->lat_sampled = cur->threads.lat_on;
	m->lat_dropped = r ? r->lat_dropped : 0;
	m->lat_capacity = r ? r->lat_capacity : 0;
	if (!m->source)
		m->source = xcalloc(1, sizeof(*m->source));
	m->source->rates = r;
}

const struct snapshot_rates *model_rates(const struct model_sample *m)
{
	return m->source ? m->source->rates : NULL;
}
