/* ranking-out.c — the machine's ranking in every format (ranking-out.h). */
#include "config.h"

#include "ranking-out.h"

#include <math.h>
#include <string.h>

#include "csv-out.h"
#include "json-out.h"
#include "report.h"
#include "text-safe.h"

/* What a verdict's suggestion or headline is when there is none: null. */
static const char *rank_or_null(const char *s)
{
	return s[0] ? s : NULL;
}

static void rank_json(FILE *f, const struct ranking *k, const char *ts, size_t top)
{
	const struct rank_machine *m = &k->summary;
	struct json_out j;
	json_out_init(&j, f, 0);
	json_out_object(&j);
	json_out_kstr(&j, "time", ts);
	json_out_knum(&j, "interval", m->window_s, 3);
	json_out_key(&j, "machine");
	json_out_object(&j);
	json_out_kint(&j, "online", m->online);
	json_out_knum(&j, "cpus_used", m->cpus_used, 3);
	json_out_knum(&j, "runnable_mean", m->runnable_mean, 3);
	json_out_knum(&j, "factor", m->factor, 3);
	json_out_knum(&j, "psi_some", m->psi_some >= 0 ? m->psi_some : (double)NAN, 2);
	json_out_kuint(&j, "processes", m->processes);
	json_out_kuint(&j, "threads", m->threads);
	json_out_kstr(&j, "verdict", diagnosis_verdict_name(m->verdict));
	json_out_kstr(&j, "headline", m->headline);
	json_out_end(&j);
	json_out_key(&j, "processes");
	json_out_array(&j);
	for (size_t i = 0; i < k->n && (!top || i < top); i++) {
		const struct rank_row *r = &k->rows[i];
		json_out_object(&j);
		json_out_kint(&j, "pid", r->pid);
		json_out_kint(&j, "ppid", r->ppid);
		json_out_kbytes(&j, "name", r->name, r->name_len);
		json_out_kbytes(&j, "cgroup", r->cgroup, strlen(r->cgroup));
		json_out_kbytes(&j, "cgroup_path", r->cgroup_path, strlen(r->cgroup_path));
		json_out_kint(&j, "threads", r->threads);
		json_out_knum(&j, "runnable_mean", r->runnable_mean, 3);
		json_out_knum(&j, "effective_cpus", r->effective, 3);
		json_out_kstr(&j, "binding", budget_term_name(r->binding));
		json_out_kbool(&j, "budget_known", r->budget_known);
		json_out_knum(&j, "factor", r->factor, 3);
		json_out_knum(&j, "cpu_pct", r->cpu * 100, 2);
		json_out_knum(&j, "wait_pct", r->wait * 100, 2);
		json_out_knum(&j, "throttled_pct", r->throttle_valid ? r->throttled_pct : (double)NAN,
			      2);
		json_out_kstr(&j, "verdict", diagnosis_verdict_name(r->verdict));
		json_out_kstr(&j, "headline", rank_or_null(r->headline));
		json_out_kstr(&j, "suggestion", rank_or_null(r->suggestion));
		json_out_end(&j);
	}
	json_out_end(&j);
	json_out_end(&j);
	json_out_newline(&j);
}

static void rank_csv(FILE *f, const struct ranking *k, const char *ts, size_t top, bool header)
{
	const struct rank_machine *m = &k->summary;
	struct csv_out c;
	csv_out_init(&c, f);
	if (header)
		csv_out_header(&c, "time,machine_runnable_mean,machine_cpus_used,machine_online,"
				   "rank,pid,name,cgroup,threads,runnable_mean,effective_cpus,"
				   "binding,factor,cpu_pct,wait_pct,throttled_pct,verdict,"
				   "suggestion");
	for (size_t i = 0; i < k->n && (!top || i < top); i++) {
		const struct rank_row *r = &k->rows[i];
		csv_out_str(&c, ts);
		csv_out_num(&c, m->runnable_mean, 3);
		csv_out_num(&c, m->cpus_used, 3);
		csv_out_int(&c, m->online);
		csv_out_int(&c, (long long)i + 1);
		csv_out_int(&c, r->pid);
		csv_out_bytes(&c, r->name, r->name_len);
		csv_out_bytes(&c, r->cgroup, strlen(r->cgroup));
		csv_out_int(&c, r->threads);
		csv_out_num(&c, r->runnable_mean, 3);
		csv_out_num(&c, r->effective, 3);
		csv_out_str(&c, budget_term_name(r->binding));
		csv_out_num(&c, r->factor, 3);
		csv_out_num(&c, r->cpu * 100, 2);
		csv_out_num(&c, r->wait * 100, 2);
		csv_out_num(&c, r->throttle_valid ? r->throttled_pct : (double)NAN, 2);
		csv_out_str(&c, diagnosis_verdict_name(r->verdict));
		csv_out_bytes(&c, r->suggestion, strlen(r->suggestion));
		csv_out_end_row(&c);
	}
}

static void rank_text(FILE *f, const struct ranking *k, const char *ts, size_t top)
{
	const struct rank_machine *m = &k->summary;
	char psi[32] = "unavailable";
	if (m->psi_some >= 0)
		snprintf(psi, sizeof(psi), "%.1f%%", m->psi_some);
	fprintf(f, "%s  machine %s; %zu processes, %zu threads; system psi some %s\n", ts,
		m->headline, m->processes, m->threads, psi);
	fprintf(f, "  %7s %-16s %-20s %5s %6s %6s %-8s %6s %6s %6s %6s  %s\n", "PID", "NAME",
		"CGROUP", "THR", "RUN", "EFF", "BINDS", "FACTOR", "CPU%", "WAIT%", "THR%",
		"VERDICT");
	size_t n = top ? top : RANKING_OUT_TEXT_TOP;
	for (size_t i = 0; i < k->n && i < n; i++) {
		const struct rank_row *r = &k->rows[i];
		char name[4 * TASK_NAME_MAX], cg[4 * RANKING_CGROUP_MAX], thr[16] = "-";
		text_safe(r->name, r->name_len, name, sizeof(name));
		text_safe(r->cgroup, strlen(r->cgroup), cg, sizeof(cg));
		if (r->throttle_valid)
			snprintf(thr, sizeof(thr), "%.1f", r->throttled_pct);
		fprintf(f, "  %7d %-16s %-20s %5d %6.2f %6.2f %-8s %6.2f %6.1f %6.1f %6s  %s\n",
			(int)r->pid, name, cg, r->threads, r->runnable_mean, r->effective,
			budget_term_name(r->binding), r->factor, r->cpu * 100, r->wait * 100, thr,
			diagnosis_verdict_name(r->verdict));
	}
	if (k->n > n)
		fprintf(f, "  ... %zu more (--top N shows more)\n", k->n - n);
}

void ranking_out(FILE *f, enum format fmt, const struct ranking *k, double wall, size_t top,
		 bool header)
{
	char ts[64];
	report_time_iso(wall, ts, sizeof(ts));
	switch (fmt) {
	case FORMAT_JSON:
		rank_json(f, k, ts, top);
		break;
	case FORMAT_CSV:
		rank_csv(f, k, ts, top, header);
		break;
	case FORMAT_TEXT:
	default:
		rank_text(f, k, ts, top);
		break;
	}
}
