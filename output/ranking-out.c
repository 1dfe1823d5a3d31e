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

void ranking_out_machine_json(struct json_out *j, const struct rank_machine *m)
{
	json_out_object(j);
	json_out_kint(j, "online", m->online);
	json_out_knum(j, "cpus_used", m->cpus_used, 3);
	json_out_knum(j, "runnable_mean", m->runnable_mean, 3);
	json_out_knum(j, "factor", m->factor, 3);
	json_out_knum(j, "psi_some", m->psi_some >= 0 ? m->psi_some : (double)NAN, 2);
	json_out_kuint(j, "processes", m->processes);
	json_out_kuint(j, "threads", m->threads);
	json_out_kstr(j, "verdict", diagnosis_verdict_name(m->verdict));
	json_out_kstr(j, "headline", m->headline);
	json_out_kstr(j, "collector", m->bpf ? "bpf" : "proc");
	json_out_end(j);
}

void ranking_out_row_json(struct json_out *j, const struct rank_row *r)
{
	json_out_object(j);
	json_out_kint(j, "pid", r->pid);
	json_out_kint(j, "ppid", r->ppid);
	json_out_kbytes(j, "name", r->name, r->name_len);
	json_out_kbytes(j, "cgroup", r->cgroup, strlen(r->cgroup));
	json_out_kbytes(j, "cgroup_path", r->cgroup_path, strlen(r->cgroup_path));
	json_out_kint(j, "threads", r->threads);
	json_out_knum(j, "runnable_mean", r->runnable_mean, 3);
	json_out_knum(j, "effective_cpus", r->effective, 3);
	json_out_kstr(j, "binding", model_term_name(r->binding));
	json_out_kbool(j, "budget_known", r->budget_known);
	json_out_knum(j, "factor", r->factor, 3);
	json_out_knum(j, "cpu_pct", r->cpu * 100, 2);
	json_out_knum(j, "wait_pct", r->wait * 100, 2);
	json_out_knum(j, "throttled_pct", r->throttle_valid ? r->throttled_pct : (double)NAN, 2);
	json_out_kstr(j, "verdict", diagnosis_verdict_name(r->verdict));
	json_out_kstr(j, "headline", rank_or_null(r->headline));
	json_out_kstr(j, "suggestion", rank_or_null(r->suggestion));
	json_out_end(j);
}

static void rank_json(FILE *f, const struct ranking *k, const char *ts, size_t top)
{
	struct json_out j;
	json_out_init(&j, f, 0);
	json_out_object(&j);
	json_out_kstr(&j, "time", ts);
	json_out_knum(&j, "interval", k->summary.window_s, 3);
	json_out_key(&j, "machine");
	ranking_out_machine_json(&j, &k->summary);
	json_out_key(&j, "processes");
	json_out_array(&j);
	for (size_t i = 0; i < k->n && (!top || i < top); i++)
		ranking_out_row_json(&j, &k->rows[i]);
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
		csv_out_str(&c, model_term_name(r->binding));
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
		char name[4 * MODEL_NAME_MAX], cg[4 * RANKING_CGROUP_MAX], thr[16] = "-";
		text_safe_cell(r->name, r->name_len, 16, false, name, sizeof(name));
		text_safe_cell(r->cgroup, strlen(r->cgroup), 20, false, cg, sizeof(cg));
		if (r->throttle_valid)
			snprintf(thr, sizeof(thr), "%.1f", r->throttled_pct);
		fprintf(f, "  %7d %s %s %5d %6.2f %6.2f %-8s %6.2f %6.1f %6.1f %6s  %s\n",
			(int)r->pid, name, cg, r->threads, r->runnable_mean, r->effective,
			model_term_name(r->binding), r->factor, r->cpu * 100, r->wait * 100, thr,
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

/* ---- --diagnose --all ------------------------------------------------------ */

/* Each row that pick() holds, the first top of them (0: all). */
static void rank_diag_json_rows(struct json_out *j, const struct ranking *k,
				bool (*pick)(const struct rank_row *), size_t top)
{
	json_out_array(j);
	for (size_t i = 0, shown = 0; i < k->n && (!top || shown < top); i++)
		if (pick(&k->rows[i])) {
			ranking_out_row_json(j, &k->rows[i]);
			shown++;
		}
	json_out_end(j);
}

static size_t rank_diag_count(const struct ranking *k, bool (*pick)(const struct rank_row *))
{
	size_t n = 0;
	for (size_t i = 0; i < k->n; i++)
		n += pick(&k->rows[i]);
	return n;
}

/* One row as a line: "pid 812 name [cgroup]: headline". */
static void rank_diag_text_row(FILE *f, const struct rank_row *r)
{
	char name[4 * MODEL_NAME_MAX], cg[4 * RANKING_CGROUP_MAX], line[8 * DIAG_TEXT];
	text_safe(r->name, r->name_len, name, sizeof(name));
	text_safe(r->cgroup, strlen(r->cgroup), cg, sizeof(cg));
	text_safe(r->headline, strlen(r->headline), line, sizeof(line));
	fprintf(f, "  pid %d %s [%s]: %s\n", (int)r->pid, name, cg[0] ? cg : "-", line);
}

static void rank_diag_text_rows(FILE *f, const struct ranking *k, const char *title,
				const char *none, bool (*pick)(const struct rank_row *),
				size_t top)
{
	size_t n = rank_diag_count(k, pick), shown = 0;
	if (!n) {
		fprintf(f, "%s: none: %s\n", title, none);
		return;
	}
	fprintf(f, "%s (%zu):\n", title, n);
	for (size_t i = 0; i < k->n && shown < top; i++)
		if (pick(&k->rows[i])) {
			rank_diag_text_row(f, &k->rows[i]);
			shown++;
		}
	if (n > shown)
		fprintf(f, "  ... %zu more (--top N shows more)\n", n - shown);
}

void ranking_out_diagnosis(FILE *f, enum format fmt, const struct ranking *k, size_t top)
{
	const struct rank_machine *m = &k->summary;
	if (fmt == FORMAT_JSON) {
		struct json_out j;
		json_out_init(&j, f, 0);
		json_out_object(&j);
		json_out_knum(&j, "seconds", m->window_s, 3);
		json_out_key(&j, "machine");
		ranking_out_machine_json(&j, m);
		json_out_key(&j, "offenders");
		rank_diag_json_rows(&j, k, ranking_offends, top);
		json_out_key(&j, "starved");
		rank_diag_json_rows(&j, k, ranking_starved, top);
		json_out_kbool(&j, "problem", ranking_problem(k));
		json_out_end(&j);
		json_out_newline(&j);
		return;
	}
	char psi[32] = "unavailable";
	if (m->psi_some >= 0)
		snprintf(psi, sizeof(psi), "%.1f%%", m->psi_some);
	fprintf(f, "machine: %s (%zu processes, %zu threads over %.1f s; system psi some %s)\n",
		m->headline, m->processes, m->threads, m->window_s, psi);
	size_t n = top ? top : RANKING_OUT_DIAG_TOP;
	rank_diag_text_rows(f, k, "offenders, ranked by runnable threads over their own CPUs",
			    "every process's demand fits its own budget", ranking_offends, n);
	rank_diag_text_rows(f, k, "starved: waiting for CPUs other processes hold",
			    "no process waited long for a CPU", ranking_starved, n);
}
