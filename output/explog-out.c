/* explog-out.c — experiment-log rows as JSON Lines and text (explog-out.h). */
#include "explog-out.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "env-out.h"
#include "json-out.h"
#include "report.h"

int explog_out_json(FILE *f, const struct explog *l, size_t i, const struct env_record *e)
{
	const struct explog_row *r = &l->row[i];
	char ts[64], warn[600];
	struct json_out j;
	json_out_init(&j, f, 0);
	report_time_iso(r->wall, ts, sizeof(ts));
	json_out_object(&j);
	json_out_kstr(&j, "time", ts);
	json_out_kint(&j, "row", (long long)i + 1);
	json_out_key(&j, "setting");
	json_out_object(&j);
	for (size_t k = 0; k < r->nknobs; k++)
		json_out_kstr(&j, r->knob[k].name, r->knob[k].value);
	json_out_end(&j);
	json_out_kstr(&j, "note", r->note);
	json_out_kstr(&j, "unit", r->unit);
	json_out_knum(&j, "rate", r->rate >= 0 ? r->rate : (double)NAN, 3);
	double ratio = explog_ratio(l, i);
	json_out_knum(&j, "ratio", ratio >= 0 ? ratio : (double)NAN, 3);
	json_out_knum(&j, "cpu", r->cpu, 3);
	json_out_knum(&j, "runnable_mean", r->runnable_mean, 3);
	json_out_knum(&j, "wait_s_per_s", r->wait, 3);
	json_out_knum(&j, "throttled_pct", r->throttled_pct >= 0 ? r->throttled_pct : (double)NAN,
		      2);
	json_out_kstr(&j, "verdict", r->verdict < VERDICT_N ? diagnosis_verdict_name(r->verdict)
							    : NULL);
	explog_warning(l, i, warn, sizeof(warn));
	json_out_kstr(&j, "warning", warn[0] ? warn : NULL);
	json_out_key(&j, "environment");
	json_out_object(&j);
	env_out_json_members(&j, e, NULL);
	json_out_end(&j);
	json_out_end(&j);
	json_out_newline(&j);
	errno = 0;
	return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}

void explog_out_text_row(char *buf, size_t cap, const struct explog *l, size_t i)
{
	const struct explog_row *r = &l->row[i];
	char ratio[16], rate[32], thr[16];
	size_t o;
	double x = explog_ratio(l, i);
	if (x >= 0)
		snprintf(ratio, sizeof(ratio), "%.2fx", x);
	else
		snprintf(ratio, sizeof(ratio), "-");
	if (r->rate >= 0)
		snprintf(rate, sizeof(rate), "%.1f", r->rate);
	else
		snprintf(rate, sizeof(rate), "-");
	if (r->throttled_pct >= 0)
		snprintf(thr, sizeof(thr), "%.0f%%", r->throttled_pct);
	else
		snprintf(thr, sizeof(thr), "-");
	int n = snprintf(buf, cap, "%2zu %7s %9s %5.2f %5.1f %5.2f %5s %-15s", i + 1, ratio, rate,
			 r->cpu, r->runnable_mean, r->wait, thr,
			 r->verdict < VERDICT_N ? diagnosis_verdict_name(r->verdict) : "-");
	o = n > 0 && (size_t)n < cap ? (size_t)n : cap - 1;
	for (size_t k = 0; k < r->nknobs && o + 1 < cap; k++) {
		n = snprintf(buf + o, cap - o, " %s=%s", r->knob[k].name, r->knob[k].value);
		o += n > 0 ? (size_t)n : 0;
	}
	if (r->note[0] && o + 1 < cap)
		snprintf(buf + o, cap - o, "  \"%s\"", r->note);
}
