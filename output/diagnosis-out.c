/* diagnosis-out.c — the diagnosis in JSON and text (diagnosis-out.h). */
#include "config.h"

#include "diagnosis-out.h"

#include <math.h>
#include <string.h>

#include "latency-out.h"
#include "text-safe.h"

/* {"compute": 3, "spin": 1}: the threads by activity, those with any. */
static void diagnosis_out_activity(struct json_out *j, const int *act)
{
	json_out_key(j, "activity");
	json_out_object(j);
	for (int a = 1; a < ACTIVITY_N; a++)
		if (act[a])
			json_out_kint(j, activity_name(a), act[a]);
	json_out_end(j);
}

static void diagnosis_out_machine(struct json_out *j, const struct machine_view *m)
{
	json_out_key(j, "neighbours");
	json_out_array(j);
	for (size_t i = 0; m->valid && i < m->n; i++) {
		const struct neighbour *x = &m->top[i];
		json_out_object(j);
		json_out_kint(j, "pid", x->pid);
		json_out_kbytes(j, "name", x->name, x->name_len);
		json_out_kstr(j, "cgroup", x->cgroup[0] ? x->cgroup : NULL);
		json_out_knum(j, "cpus_used", x->cpus_used, 3);
		json_out_knum(j, "runnable_mean", x->runnable_mean, 3);
		json_out_kbool(j, "shares_cpus", x->shares_cpus);
		json_out_end(j);
	}
	json_out_end(j);
	json_out_key(j, "machine");
	if (!m->valid) {
		json_out_null(j);
		return;
	}
	json_out_object(j);
	json_out_knum(j, "runnable_mean", m->runnable_mean, 3);
	json_out_kcount(j, "online", m->online);
	json_out_knum(j, "cpus_used", m->cpus_used, 3);
	json_out_knum(j, "psi_some", m->psi_some >= 0 ? m->psi_some : (double)NAN, 2);
	json_out_knum(j, "others_cpus", m->others_cpus, 3);
	json_out_knum(j, "others_shared_cpus", m->others_shared, 3);
	json_out_knum(j, "unseen_cpus", m->unseen_cpus > 0 ? m->unseen_cpus : 0, 3);
	json_out_kint(j, "children", m->children);
	json_out_knum(j, "children_cpus", m->children_cpus, 3);
	json_out_knum(j, "window_s", m->window_s, 3);
	json_out_end(j);
}

void diagnosis_out_json(struct json_out *j, const struct diagnosis *d)
{
	json_out_object(j);
	json_out_kstr(j, "verdict", diagnosis_verdict_name(d->verdict));
	json_out_knum(j, "factor", d->factor, 3);
	json_out_knum(j, "runnable_mean", d->runnable_mean, 3);
	json_out_kint(j, "runnable_now", d->runnable_now);
	json_out_knum(j, "effective_cpus", d->effective, 3);
	json_out_kstr(j, "binding", model_term_name(d->binding));
	json_out_knum(j, "window_s", d->window_s, 3);
	json_out_knum(j, "cpus_used", d->cpu, 3);
	json_out_knum(j, "wait_s_per_s", d->wait, 3);
	json_out_knum(j, "throttle_wait_s_per_s", d->throttle_wait, 3);
	json_out_knum(j, "throttled_pct", d->throttle_valid ? d->throttled_pct : (double)NAN, 2);
	json_out_kint(j, "maps_unreadable", d->maps_unreadable);
	json_out_kint(j, "maps_truncated", d->maps_truncated);
	json_out_kstr(j, "env_state",
		      d->env_state == CENSUS_ENV_OK	      ? "read"
		      : d->env_state == CENSUS_ENV_UNREADABLE ? "unreadable"
		      : d->env_state == CENSUS_ENV_TRUNCATED  ? "truncated"
							      : "unknown");
	json_out_kint(j, "unfollowed", d->unfollowed);
	latency_out_json(j, "latency", d->lat_on, &d->latency, NULL);
	json_out_knum(j, "contention_wait_s_per_s", d->contention_wait, 3);
	json_out_knum(j, "unseen_cpus", d->unseen_cpu, 3);
	json_out_kstr(j, "borderline",
		      d->borderline < VERDICT_N ? diagnosis_verdict_name(d->borderline) : NULL);
	json_out_kbool(j, "kept", d->kept);
	json_out_key(j, "also");
	json_out_array(j);
	if (d->also_contended)
		json_out_str(j, diagnosis_verdict_name(VERDICT_CONTENDED));
	json_out_end(j);
	json_out_kbool(j, "input_bound", d->input_bound);
	json_out_kstr(j, "headline", d->headline);
	json_out_key(j, "reasons");
	json_out_array(j);
	for (size_t i = 0; i < d->nreasons; i++)
		json_out_str(j, d->reasons[i]);
	json_out_end(j);
	json_out_key(j, "suggestions");
	json_out_array(j);
	for (size_t i = 0; i < d->nsuggestions; i++)
		json_out_str(j, d->suggestions[i]);
	json_out_end(j);
	json_out_key(j, "roles");
	json_out_array(j);
	for (size_t i = 0; i < d->nroles; i++) {
		const struct diag_role *r = &d->roles[i];
		json_out_object(j);
		json_out_kstr(j, "role", r->name);
		json_out_kstr(j, "kind", r->kind);
		size_t np = r->nprocs > 0 ? (size_t)r->nprocs : 0;
		json_out_kpids(j, "pids", r->pids, np < DIAG_ROLE_PIDS ? np : DIAG_ROLE_PIDS);
		json_out_kint(j, "processes", r->nprocs);
		json_out_kint(j, "threads", r->threads);
		json_out_knum(j, "runnable_mean", r->runnable_mean, 3);
		json_out_knum(j, "cpu_pct", r->cpu_pct, 2);
		json_out_knum(j, "wait_pct", r->wait_pct, 2);
		latency_out_json(j, "latency", d->lat_on, &r->latency, NULL);
		json_out_knum(j, "input_wait_pct", r->input_wait_pct, 2);
		diagnosis_out_activity(j, r->activity);
		json_out_end(j);
	}
	json_out_end(j);
	json_out_key(j, "runtimes");
	json_out_array(j);
	for (size_t i = 0; i < d->nruntimes; i++) {
		const struct diag_runtime *r = &d->runtimes[i];
		json_out_object(j);
		json_out_kstr(j, "name", r->name);
		json_out_kstr(j, "library", r->library);
		json_out_kint(j, "pid", r->pid);
		json_out_kstr(j, "variant", r->variant);
		json_out_kint(j, "processes", r->nprocs);
		json_out_kcount(j, "pool", r->pool); /* unknown: null, never 0 */
		json_out_kcount(j, "pool_default", r->pool_default);
		json_out_kstr(j, "pool_source", diagnosis_pool_source_name(r->source));
		json_out_kint(j, "observed", r->observed);
		json_out_kbool(j, "code_sets", r->code_sets);
		json_out_kstr(j, "pool_why", r->pool_why);
		json_out_kstr(j, "why", r->why);
		json_out_end(j);
	}
	json_out_end(j);
	json_out_key(j, "env");
	json_out_object(j);
	for (size_t i = 0; i < d->nenv; i++) {
		const struct diag_env *e = &d->env[i];
		if (e->state == CENSUS_ENV_UNREADABLE)
			json_out_kstr(j, e->name, "unreadable");
		else if (e->state == CENSUS_ENV_TRUNCATED)
			json_out_kstr(j, e->name, "truncated");
		else
			json_out_kstr(j, e->name, e->set ? e->value : NULL);
	}
	json_out_end(j);
	json_out_key(j, "groups");
	json_out_array(j);
	for (size_t i = 0; i < d->ngroups; i++) {
		const struct diag_group *g = &d->groups[i];
		json_out_object(j);
		json_out_kint(j, "pid", g->pid);
		json_out_kstr(j, "name", g->name);
		json_out_kint(j, "threads", g->threads);
		json_out_knum(j, "runnable_mean", g->runnable_mean, 3);
		json_out_knum(j, "cpu_pct", g->cpu_pct, 2);
		json_out_knum(j, "wait_pct", g->wait_pct, 2);
		latency_out_json(j, "latency", d->lat_on, &g->latency, NULL);
		diagnosis_out_activity(j, g->activity);
		json_out_end(j);
	}
	json_out_end(j);
	diagnosis_out_machine(j, &d->machine);
	json_out_end(j);
}

/* "pool 4 in effect (observed ...; default 2)" under a runtime's line. */
static void diagnosis_out_pool_text(FILE *f, const struct diag_runtime *r)
{
	char why[4 * DIAG_TEXT];
	text_safe(r->pool_why, strlen(r->pool_why), why, sizeof(why));
	if (r->pool > 0)
		fprintf(f, "    pool %d in effect (%s", r->pool,
			diagnosis_pool_source_name(r->source));
	else
		fputs("    pool unknown (", f);
	if (r->pool_default > 0)
		fprintf(f, "; the default rule gives %d", r->pool_default);
	fprintf(f, "): %s\n", why);
}

/* The machine and the neighbours, made safe (names and cgroups are others'). */
static void diagnosis_out_machine_text(FILE *f, const struct machine_view *m)
{
	if (!m->valid)
		return;
	fprintf(f, "machine (%.1f s): %.1f runnable threads on %d CPUs, %.2f CPUs busy",
		m->window_s, m->runnable_mean, m->online, m->cpus_used);
	if (m->psi_some >= 0)
		fprintf(f, ", PSI some %.0f%%", m->psi_some);
	fprintf(f, "; others took %.2f CPUs", m->others_cpus);
	if (m->unseen_cpus >= 0.05)
		fprintf(f, " (and %.2f by processes too short-lived to read)", m->unseen_cpus);
	fputc('\n', f);
	if (m->n)
		fprintf(f, "neighbours:\n  %7s %-16s %6s %9s  %s\n", "pid", "name", "CPUs",
			"runnable", "cgroup");
	for (size_t i = 0; i < m->n; i++) {
		const struct neighbour *x = &m->top[i];
		char name[4 * MODEL_NAME_MAX], cg[4 * NEIGHBOUR_CGROUP_MAX];
		text_safe_cell(x->name, x->name_len, 16, false, name, sizeof(name));
		text_safe(x->cgroup, strlen(x->cgroup), cg, sizeof(cg));
		fprintf(f, "  %7d %s %6.2f %9.2f  %s%s\n", (int)x->pid, name, x->cpus_used,
			x->runnable_mean, cg[0] ? cg : "-",
			x->shares_cpus ? "" : " (other CPUs)");
	}
}

void diagnosis_out_line(char *buf, size_t cap, const struct diagnosis *d)
{
	text_safe(d->headline, strlen(d->headline), buf, cap);
}

static void diag_text(FILE *f, const char *lead, const char *s)
{
	char safe[4 * DIAG_TEXT];
	text_safe(s, strlen(s), safe, sizeof(safe));
	fprintf(f, "%s%s\n", lead, safe);
}

void diagnosis_out_text(FILE *f, const struct diagnosis *d)
{
	char a[4 * DIAG_TEXT], b[4 * DIAG_TEXT];
	fprintf(f, "verdict: %s (factor %.2f over %.1f s)\n", diagnosis_verdict_name(d->verdict),
		d->factor, d->window_s);
	diag_text(f, "  ", d->headline);
	if (d->nreasons)
		fputs("why:\n", f);
	for (size_t i = 0; i < d->nreasons; i++)
		diag_text(f, "  - ", d->reasons[i]);
	if (d->nsuggestions)
		fputs("try:\n", f);
	for (size_t i = 0; i < d->nsuggestions; i++)
		diag_text(f, "  - ", d->suggestions[i]);
	char act[256];
	/* CPUs and the wait in seconds a second, summed over the role's
	 * threads, as the headline says them ("waited 4.60 s/s"); a percent
	 * of one CPU summed read 668% (a sweep's wait% is a share). */
	if (d->nroles)
		fprintf(f, "roles:\n  %-28s %5s %7s %9s %7s %8s %7s  %s\n", "role", "procs",
			"threads", "runnable", "CPUs", "wait s/s", "input%", "activity");
	for (size_t i = 0; i < d->nroles; i++) {
		const struct diag_role *r = &d->roles[i];
		text_safe_cell(r->name, strlen(r->name), 28, false, a, sizeof(a));
		activity_summary(r->activity, act, sizeof(act));
		fprintf(f, "  %s %5d %7d %9.2f %7.2f %8.2f %7.1f  %s\n", a, r->nprocs, r->threads,
			r->runnable_mean, r->cpu_pct / 100, r->wait_pct / 100, r->input_wait_pct,
			act);
	}
	if (d->nruntimes)
		fputs("runtimes:\n", f);
	else if (d->maps_unreadable || d->maps_truncated)
		fprintf(f,
			"runtimes: unknown, the libraries of %d process(es) are not readable%s\n",
			d->maps_unreadable + d->maps_truncated, d->maps_truncated ? " whole" : "");
	for (size_t i = 0; i < d->nruntimes; i++) {
		const struct diag_runtime *r = &d->runtimes[i];
		text_safe(r->library, strlen(r->library), a, sizeof(a));
		fprintf(f, "  %s%s%s%s, pid %d: %s\n", r->name, r->variant[0] ? " (" : "",
			r->variant, r->variant[0] ? ")" : "", (int)r->pid, a);
		diagnosis_out_pool_text(f, r);
	}
	size_t set = 0;
	for (size_t i = 0; i < d->nenv; i++)
		set += d->env[i].set;
	if (d->env_state == CENSUS_ENV_UNREADABLE)
		fputs("environment: not readable\n", f);
	else if (d->env_state == CENSUS_ENV_TRUNCATED)
		fprintf(f,
			"environment: truncated (longer than the 4 MiB read), %zu thread "
			"variable(s) found in it%s\n",
			set, set ? ":" : "");
	else if (d->env_state == CENSUS_ENV_OK)
		fprintf(f, "environment: %zu thread variable(s) set%s\n", set, set ? ":" : "");
	for (size_t i = 0; i < d->nenv; i++)
		if (d->env[i].set) {
			text_safe(d->env[i].value, strlen(d->env[i].value), b, sizeof(b));
			fprintf(f, "  %s=%s\n", d->env[i].name, b);
		}
	if (d->ngroups)
		fprintf(f, "thread groups:\n  %7s %-24s %7s %9s %7s%s  %s\n", "pid", "name",
			"threads", "runnable", "CPU%", d->lat_on ? "   P99ms   MAXms" : "",
			"activity");
	for (size_t i = 0; i < d->ngroups && i < 12; i++) {
		const struct diag_group *g = &d->groups[i];
		text_safe_cell(g->name, strlen(g->name), 24, false, a, sizeof(a));
		activity_summary(g->activity, act, sizeof(act));
		fprintf(f, "  %7d %s %7d %9.2f %7.1f", (int)g->pid, a, g->threads, g->runnable_mean,
			g->cpu_pct);
		if (d->lat_on) {
			char p99[16], max[16];
			latency_out_ms(p99, sizeof(p99), 7, &g->latency, g->latency.p99_s);
			latency_out_ms(max, sizeof(max), 7, &g->latency, g->latency.max_s);
			fprintf(f, " %s %s", p99, max);
		}
		fprintf(f, "  %s\n", act);
	}
	diagnosis_out_machine_text(f, &d->machine);
}
