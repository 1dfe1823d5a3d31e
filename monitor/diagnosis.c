/* diagnosis.c — demand, roles, groups and the evidence; the runtimes and
 * the thread variables are diagnosis-runtimes.c's.
 *
 * Design: every figure comes from one window of rates, so they add up: the
 * roles' runnable threads sum to the total, the groups' to their process's.
 * The verdict and its thresholds live in diagnosis-rules.c. */
#include "config.h"

#include "diagnosis.h"
#include "diagnosis-impl.h"
#include "diagnosis-rules-impl.h"
#include "diagnosis-latency.h"
#include "diagnosis-findings.h"
#include "diagnosis-runtimes.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static const char *const diag_names[VERDICT_N] = {
    [VERDICT_FINE] = "fine",	       [VERDICT_OVERSUBSCRIBED] = "oversubscribed",
    [VERDICT_THROTTLED] = "throttled", [VERDICT_UNDERSUBSCRIBED] = "undersubscribed",
    [VERDICT_IDLE] = "idle",	       [VERDICT_CONTENDED] = "contended",
};

const char *diagnosis_pool_source_name(enum pool_source s)
{
	switch (s) {
	case POOL_MEMORY:
		return "memory";
	case POOL_OBSERVED:
		return "observed";
	case POOL_DEFAULT:
		return "default";
	case POOL_UNKNOWN:
		break;
	}
	return NULL;
}

const char *diagnosis_verdict_name(enum verdict v)
{
	return v < VERDICT_N ? diag_names[v] : "?";
}

enum verdict diagnosis_verdict_of(const char *name)
{
	for (int v = 0; v < VERDICT_N; v++)
		if (strcmp(name, diag_names[v]) == 0)
			return (enum verdict)v;
	return VERDICT_N;
}

double diagnosis_demand(const struct thread_rate *t)
{
	return (t->cpu_pct + t->wait_pct) / 100.0;
}

double diagnosis_runnable_mean(const struct snapshot_rates *r)
{
	double sum = 0;
	for (size_t i = 0; i < r->nthreads; i++)
		if (!r->threads[i].is_new)
			sum += diagnosis_demand(&r->threads[i]);
	/* threads that ran and ended between reads: running while they ran */
	return sum + r->unseen_cpu;
}

/* The CPUs the threads ran on: the distinct last CPUs of those that ran
 * (at least 1). */
static int diag_cpus_used(const struct snapshot_rates *r)
{
	unsigned char seen[1024 / 8] = {0};
	int n = 0;
	for (size_t i = 0; i < r->nthreads; i++) {
		int c = r->threads[i].cpu;
		if (r->threads[i].is_new || r->threads[i].cpu_pct < 1.0 || c < 0 || c >= 1024)
			continue;
		if (!(seen[c / 8] & (1u << (c % 8)))) {
			seen[c / 8] |= (unsigned char)(1u << (c % 8));
			n++;
		}
	}
	return n > 0 ? n : 1;
}

double diagnosis_throttle_wait(const struct snapshot_rates *r)
{
	if (!r->throttle.valid || r->throttle.throttled_s_per_s <= 0)
		return 0;
	/* cpu.stat's throttled time is summed over the CPUs' run queues: a
	 * thread waits on one of them, so at most the throttled share of one
	 * CPU's time is throttling. */
	double t = r->throttle.throttled_s_per_s / diag_cpus_used(r), sum = 0;
	if (t > 1.0)
		t = 1.0;
	for (size_t i = 0; i < r->nthreads; i++) {
		double w = r->threads[i].wait_pct / 100.0;
		sum += w < t ? w : t;
	}
	return sum;
}

size_t diagnosis_stem(const char *name, size_t len, char *out, size_t cap)
{
	size_t n = len;
	while (n > 0 && name[n - 1] >= '0' && name[n - 1] <= '9')
		n--;
	if (n < len)
		while (n > 0 && strchr("._-:/#", name[n - 1]))
			n--;
	if (n == 0)
		n = len; /* all digits: keep the name */
	if (cap == 0)
		return 0;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, name, n);
	out[n] = '\0';
	return n;
}

/* ---- text helpers ------------------------------------------------------- */

void diagnosis_add(char list[][DIAG_TEXT], size_t *n, size_t max, const char *fmt, ...)
{
	if (*n >= max)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(list[*n], DIAG_TEXT, fmt, ap);
	va_end(ap);
	(*n)++;
}

/* The basename of an executable path, or the comm. */
static void diag_exe_name(const struct census_proc *p, char *out, size_t cap)
{
	const char *base = p && p->exe[0] ? strrchr(p->exe, '/') : NULL;
	if (base)
		snprintf(out, cap, "%.*s", (int)cap - 1, base + 1);
	else if (p && p->comm[0])
		snprintf(out, cap, "%.*s", (int)cap - 1, p->comm);
	else
		snprintf(out, cap, "?");
	char *del = strstr(out, " (deleted)");
	if (del)
		*del = '\0';
}

/* ---- roles -------------------------------------------------------------- */

/* Forked workers (DataLoader-like) share the target's executable and
 * command line: fork without exec. */
static bool diag_is_forked_worker(const struct census_proc *t, const struct census_proc *p)
{
	if (!t || !p || p->pid == t->pid || t->cmdline_len != p->cmdline_len ||
	    memcmp(t->cmdline, p->cmdline, t->cmdline_len) != 0)
		return false;
	/* The executable when both can be read (another user's process needs
	 * CAP_SYS_PTRACE), else the command name, which anyone may read. */
	if (t->exe_readable && p->exe_readable)
		return strcmp(t->exe, p->exe) == 0;
	return strcmp(t->comm, p->comm) == 0;
}

static struct diag_role *diag_role_for(struct diagnosis *d, const char *name, const char *kind)
{
	for (size_t i = 0; i < d->nroles; i++)
		if (strcmp(d->roles[i].name, name) == 0)
			return &d->roles[i];
	if (d->nroles == DIAG_ROLES)
		return &d->roles[DIAG_ROLES - 1]; /* the last one takes the rest */
	struct diag_role *r = &d->roles[d->nroles++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->kind, sizeof(r->kind), "%s", kind);
	return r;
}

/* The role of process pid: main (the target), forked workers, or children
 * named by their executable. */
static struct diag_role *diag_role_of(struct diagnosis *d, const struct diag_input *in, pid_t pid)
{
	const struct census_proc *t = in->census ? census_find(in->census, in->target) : NULL;
	const struct census_proc *p = in->census ? census_find(in->census, pid) : NULL;
	char name[64], exe[48];
	if (pid == in->target) {
		diag_exe_name(p, exe, sizeof(exe));
		snprintf(name, sizeof(name), "%s (main)", exe);
		return diag_role_for(d, name, "main");
	}
	if (diag_is_forked_worker(t, p)) {
		/* PyTorch names its DataLoader workers (pt_data_worker…). */
		bool loader = strncmp(p->comm, "pt_data_worker", 14) == 0 ||
			      strncmp(p->comm, "pt_multiprocess", 15) == 0;
		return diag_role_for(d, loader ? "DataLoader workers" : "forked workers",
				     "workers");
	}
	diag_exe_name(p, exe, sizeof(exe));
	return diag_role_for(d, exe, "children");
}

/* Adds the process whose threads are t[0..n) to role r: its figures, and
 * the input wait of its working thread (the one that ran most). */
static void diag_role_add(struct diag_role *r, const struct thread_rate *t, size_t n,
			  double *input_sum)
{
	if (r->nprocs < DIAG_ROLE_PIDS)
		r->pids[r->nprocs] = t[0].pid;
	r->nprocs++;
	const struct thread_rate *work = NULL;
	for (size_t i = 0; i < n; i++) {
		r->threads++;
		if (t[i].activity < ACTIVITY_N)
			r->activity[t[i].activity]++;
		if (t[i].is_new)
			continue;
		r->runnable_mean += diagnosis_demand(&t[i]);
		r->cpu_pct += t[i].cpu_pct;
		r->wait_pct += t[i].wait_pct;
		if (!work ||
		    t[i].cpu_pct + t[i].input_wait_pct > work->cpu_pct + work->input_wait_pct)
			work = &t[i];
	}
	*input_sum += work ? work->input_wait_pct : 0;
}

static void diag_roles(struct diagnosis *d, const struct diag_input *in, signed char *role_of)
{
	const struct snapshot_rates *r = in->rates;
	double input[DIAG_ROLES] = {0};
	for (size_t i = 0, end; i < r->nthreads; i = end) {
		for (end = i + 1; end < r->nthreads && r->threads[end].pid == r->threads[i].pid;)
			end++;
		struct diag_role *role = diag_role_of(d, in, r->threads[i].pid);
		diag_role_add(role, &r->threads[i], end - i, &input[role - d->roles]);
		for (size_t k = i; k < end; k++)
			role_of[k] = (signed char)(role - d->roles);
	}
	for (size_t k = 0; k < d->nroles; k++)
		d->roles[k].input_wait_pct = d->roles[k].nprocs ? input[k] / d->roles[k].nprocs : 0;
}

/* ---- groups ------------------------------------------------------------- */

static void diag_groups(struct diagnosis *d, const struct snapshot_rates *r, signed char *group_of)
{
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct thread_rate *t = &r->threads[i];
		group_of[i] = -1;
		char stem[TASK_NAME_MAX];
		diagnosis_stem(t->name, t->name_len, stem, sizeof(stem));
		struct diag_group *g = NULL;
		/* Threads of one process are adjacent: look back over its groups. */
		for (size_t k = d->ngroups; k-- > 0 && d->groups[k].pid == t->pid;)
			if (strcmp(d->groups[k].stem, stem) == 0) {
				g = &d->groups[k];
				break;
			}
		if (!g) {
			if (d->ngroups == DIAG_GROUPS)
				continue;
			g = &d->groups[d->ngroups++];
			memset(g, 0, sizeof(*g));
			g->pid = t->pid;
			snprintf(g->stem, sizeof(g->stem), "%s", stem);
			size_t n =
			    t->name_len < sizeof(g->name) - 1 ? t->name_len : sizeof(g->name) - 1;
			memcpy(g->name, t->name, n);
			g->name[n] = '\0';
		} else if (strlen(g->name) != t->name_len ||
			   memcmp(g->name, t->name, t->name_len)) {
			/* Names differ: the group is the stem, marked as such. */
			snprintf(g->name, sizeof(g->name), "%.*s*", (int)sizeof(g->name) - 2, stem);
		}
		g->threads++;
		group_of[i] = (signed char)(g - d->groups);
		if (t->activity < ACTIVITY_N)
			g->activity[t->activity]++;
		if (!t->is_new) {
			g->runnable_mean += diagnosis_demand(t);
			g->cpu_pct += t->cpu_pct;
			g->wait_pct += t->wait_pct;
		}
	}
}

/* ---- putting it together ------------------------------------------------ */

static void diag_figures(struct diagnosis *d, const struct diag_input *in)
{
	const struct snapshot_rates *r = in->rates;
	const struct budget *b = in->budget;
	d->window_s = r->dt;
	d->effective = b->effective;
	d->binding = model_term_of(b->binding);
	d->nthreads = (int)r->nthreads;
	d->runnable_now = r->runnable;
	d->runnable_mean = diagnosis_runnable_mean(r);
	d->factor = d->effective > 0 ? d->runnable_mean / d->effective : 0;
	for (size_t i = 0; i < r->nthreads; i++) {
		if (i == 0 || r->threads[i].pid != r->threads[i - 1].pid)
			d->nprocs++;
		if (!r->threads[i].is_new) {
			d->cpu += r->threads[i].cpu_pct / 100.0;
			d->wait += r->threads[i].wait_pct / 100.0;
			d->switches += r->threads[i].vcsw_per_s + r->threads[i].ivcsw_per_s;
		}
	}
	d->unseen_cpu = r->unseen_cpu;
	d->cpu += r->unseen_cpu;
	d->throttle_valid = r->throttle.valid;
	d->throttled_pct = r->throttle.valid ? r->throttle.throttled_pct : 0;
	d->throttled_s_per_s = r->throttle.valid ? r->throttle.throttled_s_per_s : 0;
	d->throttle_wait = diagnosis_throttle_wait(r);
	d->contention_wait = d->wait - d->throttle_wait > 0 ? d->wait - d->throttle_wait : 0;
	if (in->machine)
		d->machine = *in->machine;
}

/* The evidence every verdict shows, after the rule's own lines. */
static void diag_evidence(struct diagnosis *d, const struct diag_input *in)
{
	char now[64] = "";
	/* The totals (diagnosis_of_totals) know no thread's state. */
	if (in->rates->nthreads)
		snprintf(now, sizeof(now), "%d of ", d->runnable_now);
	REASON(d,
	       "%.2f runnable threads on average (%s%d%s) on %.2f effective CPUs (%s binds): "
	       "factor %.2f",
	       d->runnable_mean, now, d->nthreads, now[0] ? " in state R now" : " threads",
	       d->effective, model_term_name(d->binding), d->factor);
	if (d->throttle_wait > 0.005)
		REASON(d,
		       "run-queue wait %.2f s/s, of which %.2f s/s throttling (the quota) and "
		       "%.2f s/s contention",
		       d->wait, d->throttle_wait, d->wait - d->throttle_wait);
	else
		REASON(d, "run-queue wait %.2f s/s, %.2f CPUs in use", d->wait, d->cpu);
	if (d->throttle_valid && d->throttled_pct > 0)
		REASON(d, "throttled in %.0f%% of periods (%.2f s/s)", d->throttled_pct,
		       d->throttled_s_per_s);
	/* (A job whose own demand exceeds its CPUs, the factor above the
	 * oversubscribed threshold, waits for its own threads, however short
	 * each wait: the verdict says so.) */
	if (d->contention_wait >= DIAG_CONTEND_WAIT && diagnosis_rules_wakeup_waits(d) &&
	    d->runnable_mean <= DIAG_OVER_FACTOR * d->effective)
		REASON(d,
		       "its threads waited %.2f s/s for a CPU, %.2f ms at each of %.0f switches a "
		       "second: the scheduler's latency at wake-ups, not CPUs others hold",
		       d->contention_wait, d->contention_wait / d->switches * 1e3, d->switches);
	if (d->unseen_cpu >= 0.01)
		REASON(d,
		       "%.2f CPUs went to threads or child processes no two reads saw (they "
		       "started since the read before, the command's own start among them, or "
		       "started and ended between reads): in the processes' whole run, in no "
		       "row of the threads table",
		       d->unseen_cpu);
	diagnosis_latency_reason(d);
	if (in->lab) {
		REASON(d,
		       "the lab sets its pools with its knobs: %d intra-op thread(s) x %d "
		       "stream(s), %d background worker(s)",
		       in->lab->threads, in->lab->streams, in->lab->workers);
		return;
	}
	for (size_t i = 0; i < d->nruntimes; i++) {
		const struct diag_runtime *x = &d->runtimes[i];
		if (x->why[0])
			REASON(d, "%s", x->why);
		if (x->source != POOL_DEFAULT && x->pool_why[0])
			REASON(d, "%s", x->pool_why);
	}
	if (d->maps_unreadable)
		REASON(
		    d,
		    "the libraries of %d process(es) could not be read (/proc/PID/maps needs the "
		    "target's user or CAP_SYS_PTRACE, and a live thread): their thread-pool "
		    "runtimes are unknown",
		    d->maps_unreadable);
	if (d->maps_truncated)
		REASON(d,
		       "the maps of %d process(es) are longer than what is read: runtimes they "
		       "loaded may be missing here",
		       d->maps_truncated);
	if (d->unfollowed)
		REASON(d, "%d descendant process(es) of the target are not followed: add --tree",
		       d->unfollowed);
	diagnosis_runtimes_env_reason(d);
}

/* The verdict, the findings every verdict carries and the evidence, once
 * the figures are in; the headline ends with the first suggestion. */
static void diag_judge(struct diagnosis *d, const struct diag_input *in)
{
	diagnosis_findings_input_bound(d, in);
	diagnosis_rules_apply(d, in);
	diagnosis_findings_advise(d, in);
	diag_evidence(d, in);
	if (d->nsuggestions) {
		size_t n = strlen(d->headline);
		snprintf(d->headline + n, sizeof(d->headline) - n, ". Try: %s", d->suggestions[0]);
	}
}

void diagnosis_make(const struct diag_input *in, struct diagnosis *out)
{
	memset(out, 0, sizeof(*out));
	diag_figures(out, in);
	size_t nt = in->rates->nthreads;
	signed char *role_of = xcalloc(nt + 1, 1), *group_of = xcalloc(nt + 1, 1);
	diag_roles(out, in, role_of);
	diag_groups(out, in->rates, group_of);
	diagnosis_latency(out, in, role_of, group_of);
	free(role_of);
	free(group_of);
	diagnosis_runtimes(out, in, in->budget->affinity > 0 ? in->budget->affinity : 1);
	diagnosis_runtimes_env(out, in);
	diagnosis_runtimes_team(out);
	diag_judge(out, in);
}

void diagnosis_of_totals(const struct diag_totals *t, struct diagnosis *out)
{
	static const struct snapshot_rates no_threads;
	const struct budget *b = t->budget;
	memset(out, 0, sizeof(*out));
	out->window_s = t->window_s;
	out->effective = b->effective;
	out->binding = model_term_of(b->binding);
	out->nthreads = t->threads;
	out->nprocs = 1;
	out->cpu = t->cpu;
	out->wait = t->wait;
	out->runnable_mean = t->cpu + t->wait;
	out->factor = out->effective > 0 ? out->runnable_mean / out->effective : 0;
	out->throttle_valid = t->throttle.valid;
	if (t->throttle.valid) {
		out->throttled_pct = t->throttle.throttled_pct;
		out->throttled_s_per_s = t->throttle.throttled_s_per_s;
		double share = t->throttle.throttled_s_per_s / (t->cpus_ran > 0 ? t->cpus_ran : 1);
		/* while the cgroup is throttled its runnable threads wait: as
		 * many on average as it has (a sleeping thread waits for none) */
		double waiting = out->runnable_mean < t->threads ? out->runnable_mean : t->threads;
		double most = waiting * (share > 1.0 ? 1.0 : share > 0 ? share : 0);
		out->throttle_wait = t->wait < most ? t->wait : most;
	}
	out->contention_wait = out->wait - out->throttle_wait;
	if (t->machine)
		out->machine = *t->machine;
	struct diag_input in = {.target = t->pid,
				.budget = b,
				.rates = &no_threads,
				.machine = t->machine,
				.census = t->census,
				.cores = t->census ? t->census->cores : 0,
				.prev = VERDICT_N};
	if (t->census) {
		diagnosis_runtimes(out, &in, b->affinity > 0 ? b->affinity : 1);
		diagnosis_runtimes_env(out, &in);
		diagnosis_runtimes_team(out);
	}
	diag_judge(out, &in);
}
