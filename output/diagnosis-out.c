/* diagnosis-out.c — the diagnosis in JSON and text (diagnosis-out.h). */
#include "config.h"

#include "diagnosis-out.h"

#include <math.h>
#include <string.h>

#include "latency-out.h"
#include "text-safe.h"

void diagnosis_out_json(struct json_out *j, const struct diagnosis *d)
{
	json_out_object(j);
	json_out_kstr(j, "verdict", diagnosis_verdict_name(d->verdict));
	json_out_knum(j, "factor", d->factor, 3);
	json_out_knum(j, "runnable_mean", d->runnable_mean, 3);
	json_out_kint(j, "runnable_now", d->runnable_now);
	json_out_knum(j, "effective_cpus", d->effective, 3);
	json_out_kstr(j, "binding", budget_term_name(d->binding));
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
		json_out_key(j, "pids");
		json_out_array(j);
		for (int k = 0; k < r->nprocs && k < DIAG_ROLE_PIDS; k++)
			json_out_int(j, r->pids[k]);
		json_out_end(j);
		json_out_kint(j, "processes", r->nprocs);
		json_out_kint(j, "threads", r->threads);
		json_out_knum(j, "runnable_mean", r->runnable_mean, 3);
		json_out_knum(j, "cpu_pct", r->cpu_pct, 2);
		json_out_knum(j, "wait_pct", r->wait_pct, 2);
		latency_out_json(j, "latency", d->lat_on, &r->latency, NULL);
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
		json_out_kint(j, "pool", r->pool);
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
		json_out_end(j);
	}
	json_out_end(j);
	json_out_end(j);
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
	if (d->nroles)
		fprintf(f, "roles:\n  %-28s %5s %7s %9s %7s %7s\n", "role", "procs", "threads",
			"runnable", "CPU%", "wait%");
	for (size_t i = 0; i < d->nroles; i++) {
		const struct diag_role *r = &d->roles[i];
		text_safe(r->name, strlen(r->name), a, sizeof(a));
		int pad = 28 - text_safe_width(r->name, strlen(r->name));
		fprintf(f, "  %s%*s %5d %7d %9.2f %7.1f %7.1f\n", a, pad > 0 ? pad : 0, "",
			r->nprocs, r->threads, r->runnable_mean, r->cpu_pct, r->wait_pct);
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
		fprintf(f, "thread groups:\n  %7s %-24s %7s %9s %7s%s\n", "pid", "name", "threads",
			"runnable", "CPU%", d->lat_on ? "   P99ms   MAXms" : "");
	for (size_t i = 0; i < d->ngroups && i < 12; i++) {
		const struct diag_group *g = &d->groups[i];
		text_safe(g->name, strlen(g->name), a, sizeof(a));
		int pad = 24 - text_safe_width(g->name, strlen(g->name));
		fprintf(f, "  %7d %s%*s %7d %9.2f %7.1f", (int)g->pid, a, pad > 0 ? pad : 0, "",
			g->threads, g->runnable_mean, g->cpu_pct);
		if (d->lat_on) {
			char p99[16], max[16];
			latency_out_ms(p99, sizeof(p99), 7, &g->latency, g->latency.p99_s);
			latency_out_ms(max, sizeof(max), 7, &g->latency, g->latency.max_s);
			fprintf(f, " %s %s", p99, max);
		}
		fputc('\n', f);
	}
}
