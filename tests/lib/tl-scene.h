/* tl-scene.h — a diagnosis's input made by hand, for the diagnosis tests:
 * threads of known rates, a budget, a census with libgomp and a thread
 * variable, and a look into the reasons and suggestions.  Include after
 * tl-test.h and tl-rates.h. */
#ifndef THREADLAB_TL_SCENE_H
#define THREADLAB_TL_SCENE_H

#include "diagnosis-input.h"

struct scene {
	struct budget b;
	struct snapshot_rates r;
	struct thread_rate t[16];
	struct census c;
	struct census_proc p[6];
	struct diag_input in;
	struct diagnosis d;
};

/* n threads of process 100, each cpu% and wait%; effective CPUs eff. */
static inline void scene_make(struct scene *s, int n, double cpu, double wait, double eff)
{
	memset(s, 0, sizeof(*s));
	s->b.online = s->b.affinity = 2;
	s->b.effective = eff;
	s->b.quota.cpus = -1;
	s->b.binding = BUDGET_ONLINE;
	for (int i = 0; i < n; i++) {
		s->t[i] = tl_rate(100, 100 + i, "omp-busy", 'R', cpu);
		s->t[i].wait_pct = wait;
	}
	s->r.threads = s->t;
	s->r.nthreads = (size_t)n;
	s->r.dt = 1;
	s->r.runnable = n;
	s->in.target = 100;
	s->in.budget = &s->b;
	s->in.rates = &s->r;
	s->in.census = NULL;
	s->in.prev = VERDICT_N;
}

/* A census: the target with libgomp and OMP_NUM_THREADS=value. */
static const char census_env[] = "OMP_NUM_THREADS=6";

static inline void scene_census(struct scene *s, const char *omp)
{
	struct census_proc *p = &s->p[0];
	p->pid = 100;
	snprintf(p->comm, sizeof(p->comm), "omp-busy");
	snprintf(p->exe, sizeof(p->exe), "/usr/bin/omp-busy");
	p->exe_readable = true;
	p->nruntimes = 1;
	p->runtimes[0].id = RUNTIME_GOMP;
	p->runtimes[0].variant = "";
	snprintf(p->runtimes[0].lib, sizeof(p->runtimes[0].lib),
		 "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0");
	p->env = CENSUS_ENV_OK;
	p->environ = (char *)census_env;
	p->environ_len = sizeof(census_env);
	for (size_t i = 0; environment_thread_vars[i]; i++)
		if (strcmp(environment_thread_vars[i], "OMP_NUM_THREADS") == 0)
			p->vars[i] = omp;
	s->c.p = s->p;
	s->c.n = 1;
	s->in.census = &s->c;
}

static inline bool has_text(const char list[][DIAG_TEXT], size_t n, const char *needle)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(list[i], needle))
			return true;
	return false;
}

#endif
