/* sweep-cmd-out.c — the command sweep's table (sweep-cmd-out.h).
 *
 * Setting values and statuses quote the user's command line and the
 * system's errors: text goes through text_safe(), CSV and JSON through
 * their writers. */
#include "sweep-cmd-out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv-out.h"
#include "env-out.h"
#include "explog-out.h"
#include "explog.h"
#include "explog-load.h"
#include "fit-out.h"
#include "json-out.h"
#include "sweep-out.h"
#include "text-safe.h"
#include "xalloc.h"

struct sweep_cmd_out {
	FILE *f;
	enum format fmt;
	struct json_out j;
	const struct sweep_cmd_opts *o;
	struct env_record env;
	FILE *log;		  /* --log FILE, or NULL */
	struct explog *rows;	  /* the log's rows (the earlier runs' first), with log */
	bool best_done;		  /* JSON: the best object closed the rows already */
	struct amdahl_set points; /* the thread knob's rows (sweep-fit.h) */
};

static int sweep_cmd_out_status(FILE *f)
{
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	return errno == EPIPE ? -EPIPE : -EIO;
}

/* "NAME=V NAME2=V2", raw. */
static void sweep_cmd_out_setting(char *buf, size_t cap, const struct sweep_cmd_row *r)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t k = 0; k < r->nknobs && o < cap; k++) {
		int n =
		    snprintf(buf + o, cap - o, "%s%s=%s", k ? " " : "", r->name[k], r->value[k]);
		o += n > 0 ? (size_t)n : 0;
	}
}

/* v with decimals, "-" when not a figure. */
static void sweep_cmd_out_num(char *cell, size_t cap, double v, int decimals)
{
	if (isnan(v) || v < 0)
		snprintf(cell, cap, "-");
	else
		snprintf(cell, cap, "%.*f", decimals, v);
}

void sweep_cmd_out_text_row(char *buf, size_t cap, const struct sweep_cmd_opts *o,
			    const struct sweep_cmd_row *r)
{
	/* The setting column is as wide as the longest setting. */
	size_t longest = 7;
	for (size_t k = 0, l = 0; k < o->nknobs; k++, l = 0) {
		for (size_t v = 0; v < o->knob[k].nvalues; v++)
			l = strlen(o->knob[k].values[v]) > l ? strlen(o->knob[k].values[v]) : l;
		longest += strlen(o->knob[k].name) + 1 + l + (k ? 1 : 0);
	}
	int sw = longest > 60 ? 60 : (int)longest;
	if (!r) {
		snprintf(buf, cap, "%-*s  %9s  %7s  %7s  %6s  %8s  %6s  %7s  %-15s  %s", sw,
			 "setting", "steps/s", o->repeat > 1 ? "spread" : "", "speedup", "CPU%",
			 "runnable", "wait%", "thrott%", "verdict", "status");
		return;
	}
	char set[512], safe_set[1536], st[640], rate[32], spread[32], sp[32], cpu[32], run[32],
	    wait[32], thr[32];
	sweep_cmd_out_setting(set, sizeof(set), r);
	text_safe(set, strlen(set), safe_set, sizeof(safe_set));
	text_safe(r->status, strlen(r->status), st, sizeof(st));
	sweep_cmd_out_num(rate, sizeof(rate), r->rate, 1);
	sweep_cmd_out_num(spread, sizeof(spread), r->rate_spread, 1);
	if (o->repeat <= 1)
		spread[0] = '\0';
	sweep_cmd_out_num(sp, sizeof(sp), r->speedup, 2);
	sweep_cmd_out_num(cpu, sizeof(cpu), r->cpu_pct, 0);
	sweep_cmd_out_num(run, sizeof(run), r->runnable_mean, 2);
	sweep_cmd_out_num(wait, sizeof(wait), r->wait_pct, 1);
	sweep_cmd_out_num(thr, sizeof(thr), r->throttled_pct, 1);
	snprintf(buf, cap, "%-*s  %9s  %7s  %7s  %6s  %8s  %6s  %7s  %-15s  %s", sw, safe_set, rate,
		 spread, sp, cpu, run, wait, thr,
		 r->verdict < VERDICT_N ? diagnosis_verdict_name(r->verdict) : "-", st);
}

static int sweep_cmd_out_begin(void *arg, const struct sweep_cmd_env *env)
{
	struct sweep_cmd_out *w = arg;
	char line[1024];
	w->env = env->env;
	errno = 0;
	switch (w->fmt) {
	case FORMAT_TEXT:
		fprintf(w->f, "%.1f s per setting after %.1f s warm-up, %d run%s each",
			w->o->seconds, w->o->warmup, w->o->repeat, w->o->repeat == 1 ? "" : "s");
		if (w->o->cpus > 0)
			fprintf(w->f, ", under a quota of %.2f CPUs", w->o->cpus);
		fputc('\n', w->f);
		sweep_cmd_out_text_row(line, sizeof(line), w->o, NULL);
		fprintf(w->f, "%s\n", line);
		break;
	case FORMAT_CSV: {
		struct csv_out c;
		csv_out_init(&c, w->f);
		csv_out_header(&c, "setting,rate,rate_spread,speedup,cpu_pct,runnable_mean,"
				   "wait_pct,throttled_pct,verdict,status");
		break;
	}
	case FORMAT_JSON:
		json_out_object(&w->j);
		json_out_knum(&w->j, "seconds", w->o->seconds, 3);
		json_out_knum(&w->j, "warmup", w->o->warmup, 3);
		json_out_kint(&w->j, "repeat", w->o->repeat);
		json_out_knum(&w->j, "cpus", w->o->cpus > 0 ? w->o->cpus : (double)NAN, 3);
		json_out_kstr(&w->j, "progress", w->o->progress);
		json_out_key(&w->j, "command");
		json_out_array(&w->j);
		for (char **a = w->o->command; *a; a++)
			json_out_str(&w->j, *a);
		json_out_end(&w->j);
		json_out_key(&w->j, "rows");
		json_out_array(&w->j);
		break;
	}
	return sweep_cmd_out_status(w->f);
}

static int sweep_cmd_out_row(void *arg, const struct sweep_cmd_row *r)
{
	struct sweep_cmd_out *w = arg;
	char line[4096], set[512];
	struct json_out *j = &w->j;
	struct csv_out c;
	double threads = sweep_fit_cmd_threads(w->o, r);
	bool left_out = r->verdict < VERDICT_N && sweep_fit_left_out(r->verdict, r->crowded);
	double cpus = sweep_fit_cpus(w->env.effective, w->o->cpus);
	/* a scaling point the fit leaves out: marked as the caption says */
	bool marked = !isnan(threads) && sweep_fit_marked(left_out, threads, cpus);
	if (!isnan(threads))
		amdahl_set_add(&w->points, threads, r->speedup, left_out);
	errno = 0;
	switch (w->fmt) {
	case FORMAT_TEXT:
		sweep_cmd_out_text_row(line, sizeof(line), w->o, r);
		fprintf(w->f, "%s%s\n", line, marked ? " *" : "");
		break;
	case FORMAT_CSV:
		csv_out_init(&c, w->f);
		sweep_cmd_out_setting(set, sizeof(set), r);
		csv_out_str(&c, set);
		csv_out_num(&c, r->rate, 3);
		csv_out_num(&c, r->rate_spread, 3);
		csv_out_num(&c, r->speedup, 3);
		csv_out_num(&c, r->cpu_pct, 1);
		csv_out_num(&c, r->runnable_mean, 3);
		csv_out_num(&c, r->wait_pct, 2);
		csv_out_num(&c, r->throttled_pct >= 0 ? r->throttled_pct : (double)NAN, 2);
		csv_out_str(&c, r->verdict < VERDICT_N ? diagnosis_verdict_name(r->verdict) : NULL);
		csv_out_str(&c, r->status);
		csv_out_end_row(&c);
		break;
	case FORMAT_JSON:
		json_out_flat(j);
		json_out_object(j);
		json_out_key(j, "setting");
		json_out_object(j);
		for (size_t k = 0; k < r->nknobs; k++)
			json_out_kstr(j, r->name[k], r->value[k]);
		json_out_end(j);
		json_out_knum(j, "rate", r->rate, 3);
		json_out_knum(j, "rate_spread", r->rate_spread, 3);
		json_out_knum(j, "speedup", r->speedup, 3);
		json_out_knum(j, "cpu_pct", r->cpu_pct, 1);
		json_out_knum(j, "runnable_mean", r->runnable_mean, 3);
		json_out_knum(j, "wait_pct", r->wait_pct, 2);
		json_out_knum(j, "throttled_pct",
			      r->throttled_pct >= 0 ? r->throttled_pct : (double)NAN, 2);
		json_out_kstr(j, "verdict",
			      r->verdict < VERDICT_N ? diagnosis_verdict_name(r->verdict) : NULL);
		json_out_kint(j, "runs", r->runs);
		json_out_kstr(j, "status", r->status);
		fit_out_json_row(j, r->speedup, threads, cpus);
		json_out_kbool(j, "fit_left_out", marked);
		/* What the command ran with, read from it; not threadlab's. */
		json_out_key(j, "environment");
		if (r->env_error < 0) {
			json_out_str(j, "unreadable");
		} else {
			json_out_object(j);
			for (size_t k = 0; k < r->nenv; k++)
				json_out_kstr(j, r->env[k].name,
					      r->env[k].set ? r->env[k].value : NULL);
			json_out_end(j);
		}
		json_out_end(j);
		break;
	}
	int rc = sweep_cmd_out_status(w->f);
	if (rc == 0 && w->log) {
		struct explog_row e;
		explog_row_of_sweep(r, w->o->progress != NULL, &e);
		struct explog_row *at = explog_add(w->rows, &e);
		/* The row's own environment, as its command had it: the
		 * footer's "per row" is no record of a row. */
		struct env_record env = w->env;
		for (size_t i = 0; i < env.nvars; i++) {
			if (r->env_error < 0) {
				/* not read (the command ended, or never
				 * started, before it was; even with no run
				 * measured): every swept variable
				 * unreadable, not the footer's words */
				for (size_t k = 0; k < w->o->nknobs; k++)
					if (strcmp(env.vars[i].name, w->o->knob[k].name) == 0)
						env.vars[i].value = "unreadable";
				continue;
			}
			for (size_t k = 0; k < r->nenv; k++)
				if (strcmp(env.vars[i].name, r->env[k].name) == 0)
					env.vars[i].value = r->env[k].set ? r->env[k].value : NULL;
		}
		if (explog_out_json(w->log, w->rows, (size_t)(at - w->rows->row), &env) < 0) {
			char m[256];
			snprintf(m, sizeof(m), "cannot write the experiment log: %s",
				 strerror(errno));
			sweep_out_say(m);
			rc = -EIO;
		}
	}
	return rc;
}

void sweep_cmd_out_best_text(char *buf, size_t cap, const struct sweep_cmd_best *b, int repeat,
			     bool progress)
{
	char set[512], next[512];
	if (!b->best) {
		snprintf(buf, cap, "best: none (%s)",
			 !b->rows    ? "no setting ran to its end"
			 : progress ? "no setting's output matched --progress: no rate"
				    : "no setting has a rate: --progress REGEX reads one");
		return;
	}
	sweep_cmd_out_setting(set, sizeof(set), b->best);
	if (!b->next) {
		snprintf(buf, cap, "best: %s, %.1f steps/s (the only setting with a rate)", set,
			 b->best->rate);
		return;
	}
	sweep_cmd_out_setting(next, sizeof(next), b->next);
	const char *verdict =
	    b->beyond > 0    ? "beyond the spread of the repeats"
	    : b->beyond == 0 ? "within the spread of the repeats: no clear winner"
	    : repeat > 1     ? "no spread: a repeat did not measure"
			     : "one run each: --repeat 3 tells whether that is beyond the noise";
	int n = snprintf(buf, cap, "best: %s, %.1f steps/s, %.1f (%.0f%%) above the next (%s)", set,
			 b->best->rate, b->margin,
			 b->next->rate > 0 ? 100 * b->margin / b->next->rate : 0.0, next);
	if (n > 0 && (size_t)n < cap && !isnan(b->spread))
		n += snprintf(buf + n, cap - (size_t)n, ", spread %.1f", b->spread);
	if (n > 0 && (size_t)n < cap)
		snprintf(buf + n, cap - (size_t)n, ": %s", verdict);
}

static int sweep_cmd_out_best(void *arg, const struct sweep_cmd_best *b)
{
	struct sweep_cmd_out *w = arg;
	char line[1600], safe[3 * 1600];
	struct json_out *j = &w->j;
	errno = 0;
	switch (w->fmt) {
	case FORMAT_TEXT:
	case FORMAT_CSV:
		sweep_cmd_out_best_text(line, sizeof(line), b, w->o->repeat, w->o->progress != NULL);
		text_safe(line, strlen(line), safe, sizeof(safe));
		fprintf(w->f, "%s%s\n", w->fmt == FORMAT_CSV ? "# " : "\n", safe);
		break;
	case FORMAT_JSON:
		json_out_end(j); /* rows */
		json_out_key(j, "best");
		w->best_done = true;
		if (!b->best) {
			json_out_null(j);
			break;
		}
		json_out_object(j);
		json_out_kint(j, "row", (long long)b->best->index);
		json_out_key(j, "setting");
		json_out_object(j);
		for (size_t k = 0; k < b->best->nknobs; k++)
			json_out_kstr(j, b->best->name[k], b->best->value[k]);
		json_out_end(j);
		json_out_knum(j, "rate", b->best->rate, 3);
		if (b->next)
			json_out_kint(j, "next_row", (long long)b->next->index);
		else
			json_out_knull(j, "next_row");
		json_out_knum(j, "margin", b->margin, 3);
		json_out_knum(j, "spread", b->spread, 3);
		json_out_key(j, "beyond_spread");
		if (b->beyond < 0)
			json_out_null(j);
		else
			json_out_bool(j, b->beyond > 0);
		json_out_end(j);
		break;
	}
	return sweep_cmd_out_status(w->f);
}

/* The command line, made safe, after the environment record. */
static void sweep_cmd_out_command(FILE *f, const char *lead, const struct sweep_cmd_opts *o)
{
	char safe[3 * 512];
	env_out_key(f, lead, "command");
	for (char **a = o->command; *a; a++) {
		text_safe(*a, strlen(*a), safe, sizeof(safe));
		fprintf(f, "%s%s", a == o->command ? "" : " ", safe);
	}
	fputc('\n', f);
}

#define SWEEP_CMD_OUT_NO_RATES                                                                     \
	"Amdahl fit: none (no rates to fit: --progress REGEX reads the job's own from its output)"

static int sweep_cmd_out_end(void *arg)
{
	struct sweep_cmd_out *w = arg;
	struct amdahl_fit fit;
	bool fitted = sweep_fit_cmd_knob(w->o) >= 0;
	amdahl_fit(&w->points, sweep_fit_cpus(w->env.effective, w->o->cpus), &fit);
	errno = 0;
	switch (w->fmt) {
	case FORMAT_TEXT:
		/* without --progress no row has a rate, so no speedup to fit
		 * ("no point above 1 thread" beside a 2-thread row misled) */
		if (fitted && !w->o->progress)
			fputs(SWEEP_CMD_OUT_NO_RATES "\n", w->f);
		else if (fitted)
			fit_out_text(w->f, "", &fit);
		fputc('\n', w->f);
		env_out_text(w->f, "", &w->env, NULL);
		sweep_cmd_out_command(w->f, "", w->o);
		break;
	case FORMAT_CSV:
		if (fitted && !w->o->progress)
			fputs("# " SWEEP_CMD_OUT_NO_RATES "\n", w->f);
		else if (fitted)
			fit_out_text(w->f, "# ", &fit);
		env_out_text(w->f, "# ", &w->env, NULL);
		sweep_cmd_out_command(w->f, "# ", w->o);
		break;
	case FORMAT_JSON:
		if (!w->best_done)
			json_out_end(&w->j); /* rows */
		if (fitted)
			fit_out_json(&w->j, &fit);
		else
			json_out_knull(&w->j, "fit");
		json_out_key(&w->j, "environment");
		json_out_object(&w->j);
		env_out_json_members(&w->j, &w->env, NULL);
		json_out_end(&w->j);
		json_out_end(&w->j);
		json_out_newline(&w->j);
		break;
	}
	return sweep_cmd_out_status(w->f);
}

static int sweep_cmd_out_gone(void *arg)
{
	const struct sweep_cmd_out *w = arg;
	return sweep_out_file_gone(w->f);
}

static void sweep_cmd_out_note(void *arg, const char *line)
{
	(void)arg;
	sweep_out_say(line);
}

int sweep_cmd_out_run(const struct sweep_cmd_opts *o, FILE *f, enum format fmt, const char *log)
{
	struct sweep_cmd_out w = {.f = f, .fmt = fmt, .o = o};
	json_out_init(&w.j, f, 2);
	struct sweep_cmd_sink k = {
	    .arg = &w,
	    .begin = sweep_cmd_out_begin,
	    .row = sweep_cmd_out_row,
	    .best = sweep_cmd_out_best,
	    .end = sweep_cmd_out_end,
	    .gone = sweep_cmd_out_gone,
	    .note = sweep_cmd_out_note,
	};
	if (log) {
		/* The rows so far come first: ratios are to the log's first row. */
		w.rows = xcalloc(1, sizeof(*w.rows));
		size_t skipped = 0;
		int n = explog_load(w.rows, log, &skipped);
		w.log = n < 0 ? NULL : fopen(log, "a");
		if (!w.log) {
			char m[4200];
			snprintf(m, sizeof(m), "cannot write the experiment log %s: %s", log,
				 strerror(n < 0 ? -n : errno));
			sweep_out_say(m);
			free(w.rows);
			return -EIO;
		}
	}
	int rc = sweep_cmd_run(o, &k);
	if (w.log && fclose(w.log) != 0 && rc == 0)
		rc = -EIO;
	free(w.rows);
	return rc;
}
