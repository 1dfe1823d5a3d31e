/* diagnosis-runtimes.c — the thread-pool runtimes the processes load, the
 * pool each has in effect (read from its memory, seen working, or its
 * default rule), and the target's thread variables (see
 * diagnosis-runtimes.h). */
#include "config.h"

#include "diagnosis-runtimes.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "diagnosis-impl.h"

/* Threads of process pid working together: runnable at least
 * DIAG_TEAM_RUNNABLE of the window. */
static int diag_observed(const struct snapshot_rates *r, pid_t pid)
{
	int n = 0;
	for (size_t i = 0; i < r->nthreads; i++)
		if (r->threads[i].pid == pid && !r->threads[i].is_new &&
		    diagnosis_demand(&r->threads[i]) >= DIAG_TEAM_RUNNABLE)
			n++;
	return n;
}

/* The pool in effect: read from the process, else the team seen working,
 * else the default; never 0. */
static void diag_pool_in_effect(struct diag_runtime *x, const struct census_runtime *rt,
				int observed)
{
	enum runtime_kind k = runtimes_kind(x->id);
	char name[sizeof(x->name)];
	memcpy(name, x->name, sizeof(name)); /* pool_why is written from it */
	x->observed = observed;
	if (rt->pool_ok) {
		x->pool = rt->pool_read;
		x->source = POOL_MEMORY;
		snprintf(x->pool_why, sizeof(x->pool_why),
			 "%s: %d thread%s, read from process %d (%s)", name, x->pool,
			 x->pool == 1 ? "" : "s", (int)x->pid,
			 runtimes_pool_symbol(x->id, x->variant));
	} else if (observed >= 2 && k != RUNTIME_KIND_TASKING) {
		x->pool = observed;
		x->source = POOL_OBSERVED;
		snprintf(x->pool_why, sizeof(x->pool_why),
			 "%s: %d threads of process %d working together (each runnable %.0f%% or "
			 "more of the window)",
			 name, observed, (int)x->pid, 100 * DIAG_TEAM_RUNNABLE);
	} else if (x->pool_default > 0) {
		x->pool = x->pool_default;
		x->source = POOL_DEFAULT;
		snprintf(x->pool_why, sizeof(x->pool_why),
			 "%s: %d thread%s by its default rule (no team seen working%s)", name,
			 x->pool, x->pool == 1 ? "" : "s",
			 rt->pool_err == EACCES || rt->pool_err == EPERM
			     ? "; its memory may not be read: run as its user or root"
			     : "");
	} else {
		x->pool = -1;
		x->source = POOL_UNKNOWN;
		snprintf(x->pool_why, sizeof(x->pool_why),
			 "%s: the count depends on what it runs on, and no team was seen working",
			 name);
	}
	/* More threads than the default: the code (or a call) set them. */
	x->code_sets =
	    x->pool_default > 0 && x->pool > 0 && x->source != POOL_DEFAULT &&
	    (x->source == POOL_MEMORY ? x->pool != x->pool_default : x->pool > x->pool_default);
	if (x->code_sets) {
		size_t n = strlen(x->pool_why);
		snprintf(x->pool_why + n, sizeof(x->pool_why) - n,
			 "; the code's setting: the environment's default would be %d",
			 x->pool_default);
	}
}

/* The default rule's pool and the pool in effect of runtime x of process
 * p.  An environment not read whole says nothing of what is unset: no
 * default rule is applied to it (what the process runs may still be read
 * or seen). */
static void diag_runtime_pools(struct diag_runtime *x, const struct census_proc *p,
			       const struct census_runtime *rt, const struct diag_input *in,
			       int affinity)
{
	if (p->env != CENSUS_ENV_OK) {
		x->pool_unknown = true;
		x->pool_default = -1;
		snprintf(x->why, sizeof(x->why),
			 "%s: its default pool size is unknown: the initial environment of "
			 "process %d %s",
			 runtimes_name(rt->id), (int)p->pid,
			 p->env == CENSUS_ENV_TRUNCATED
			     ? "is longer than what is read (4 MiB), and its thread variables "
			       "may lie beyond"
			     : "could not be read");
	} else {
		struct runtimes_env env = census_runtimes_env(p);
		int def = runtimes_default_count(rt->id, rt->variant, &env, affinity, in->cores,
						 x->why, sizeof(x->why));
		x->pool_default = def > 0 ? def : -1;
	}
	diag_pool_in_effect(x, rt, diag_observed(in->rates, p->pid));
}

void diagnosis_runtimes(struct diagnosis *d, const struct diag_input *in, int affinity)
{
	const struct census *c = in->census;
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		d->maps_truncated += c->p[i].maps_cut;
		d->maps_unreadable += !c->p[i].maps_readable && !c->p[i].maps_cut;
	}
	d->unfollowed = in->unfollowed;
	/* The target first: its libraries name the runtimes users configure. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < c->n; i++) {
			const struct census_proc *p = &c->p[i];
			if ((pass == 0) != (p->pid == in->target))
				continue;
			for (size_t k = 0; k < p->nruntimes; k++) {
				const struct census_runtime *rt = &p->runtimes[k];
				struct diag_runtime *x = NULL;
				for (size_t j = 0; j < d->nruntimes && !x; j++)
					if (d->runtimes[j].id == rt->id &&
					    strcmp(d->runtimes[j].library, rt->lib) == 0)
						x = &d->runtimes[j];
				if (x) {
					x->nprocs++;
					continue;
				}
				if (d->nruntimes == DIAG_RUNTIMES)
					continue;
				x = &d->runtimes[d->nruntimes++];
				memset(x, 0, sizeof(*x));
				x->id = rt->id;
				snprintf(x->name, sizeof(x->name), "%s", runtimes_name(rt->id));
				snprintf(x->variant, sizeof(x->variant), "%s", rt->variant);
				snprintf(x->library, sizeof(x->library), "%s", rt->lib);
				x->pid = p->pid;
				x->nprocs = 1;
				diag_runtime_pools(x, p, rt, in, affinity);
			}
		}
}

/* The largest team of a pool runtime seen working, against the CPUs. */
void diagnosis_runtimes_team(struct diagnosis *d)
{
	for (size_t i = 0; i < d->nruntimes; i++) {
		enum runtime_kind k = runtimes_kind(d->runtimes[i].id);
		if ((k == RUNTIME_KIND_OPENMP || k == RUNTIME_KIND_BLAS) &&
		    d->runtimes[i].observed > d->team)
			d->team = d->runtimes[i].observed;
	}
	d->team_factor = d->effective > 0 ? d->team / d->effective : 0;
}

void diagnosis_runtimes_env(struct diagnosis *d, const struct diag_input *in)
{
	const struct census_proc *t = in->census ? census_find(in->census, in->target) : NULL;
	d->env_state = t ? (int)t->env : CENSUS_ENV_UNKNOWN;
	d->env_denied = t && t->env_denied;
	for (size_t i = 0; environment_thread_vars[i] && i < ENVIRONMENT_VARS_MAX; i++) {
		struct diag_env *e = &d->env[d->nenv++];
		e->name = environment_thread_vars[i];
		e->state = d->env_state;
		bool read = t && (t->env == CENSUS_ENV_OK || t->env == CENSUS_ENV_TRUNCATED);
		const char *v = read ? t->vars[i] : NULL;
		e->set = v != NULL;
		if (e->set)
			e->state = CENSUS_ENV_OK; /* found: the value the process sees */
		snprintf(e->value, sizeof(e->value), "%s", v ? v : "");
	}
}

const struct diag_env *diagnosis_runtimes_var(const struct diagnosis *d, const char *name)
{
	for (size_t i = 0; i < d->nenv; i++)
		if (strcmp(d->env[i].name, name) == 0)
			return &d->env[i];
	return NULL;
}

/* "OMP_NUM_THREADS=6", "OMP_NUM_THREADS unset", or "thread variables not
 * readable": the variables a user would look at first. */
void diagnosis_runtimes_env_reason(struct diagnosis *d)
{
	static const char *const first[] = {"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
					    "MKL_NUM_THREADS", "TF_NUM_INTRAOP_THREADS"};
	char line[DIAG_TEXT] = "";
	size_t o = 0;
	if (d->env_state == CENSUS_ENV_UNREADABLE) {
		REASON(d, "%s",
		       d->env_denied
			   ? "the thread variables are not readable (another user's process: "
			     "run threadlab as that user or as root)"
			   : "the thread variables are not readable: the process's leader "
			     "thread has exited and no live thread of it could be read");
		return;
	}
	if (d->env_state == CENSUS_ENV_TRUNCATED) {
		size_t found = 0;
		for (size_t i = 0; i < d->nenv; i++)
			found += d->env[i].set;
		REASON(d,
		       "the initial environment is longer than the 4 MiB read: %zu thread "
		       "variable(s) found in that part, the others may be set beyond it",
		       found);
		return;
	}
	if (d->env_state != CENSUS_ENV_OK)
		return;
	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
		const struct diag_env *e = diagnosis_runtimes_var(d, first[i]);
		if (!e || (!e->set && i > 0))
			continue;
		int n = e->set ? snprintf(line + o, sizeof(line) - o, "%s%s=%.40s", o ? ", " : "",
					  e->name, e->value)
			       : snprintf(line + o, sizeof(line) - o, "%s%s unset", o ? ", " : "",
					  e->name);
		if (n > 0 && (size_t)n < sizeof(line) - o)
			o += (size_t)n;
	}
	if (o)
		REASON(d, "initial environment: %s", line);
}
