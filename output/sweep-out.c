/* sweep-out.c — the sweep's table as text, CSV or JSON.
 *
 * Strings that come from other processes or the system (CPU model, OpenBLAS
 * config, environment variables) go through text_safe() for text, the CSV
 * writer (csv-out.h) for CSV and the JSON writer (json-out.h) for JSON.  The text table is built
 * from one list of columns, so the header and every row share the same widths.  Every part ends
 * with a flush whose outcome is returned: a sweep runs for minutes and must notice a full disk or a
 * reader that has gone. */
#include "sweep-out.h"

#include "csv-out.h"
#include "env-out.h"
#include "fit-out.h"
#include "record.h"
#include "text-safe.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <string.h>

/* Text columns: header, width (right-aligned), two spaces apart. */
enum {
	C_LOADERS, /* the pipeline's columns: only in a sweep over loaders */
	C_BATCH,
	C_INWAIT,
	C_LCPU,
	C_STREAMS,
	C_THREADS,
	C_GFLOPS,
	C_SPEEDUP,
	C_EFF,
	C_CEIL,
	C_WAIT,
	C_THR,
	C_EQ,
	C_DIFF,
	NCOL
};
static const struct {
	const char *head;
	int width;
} cols[NCOL] = {
    {"loaders", 7}, {"batch/s", 8}, {"input%", 6},  {"ldcpu%", 6},   {"streams", 7},
    {"threads", 7}, {"GFLOP/s", 9}, {"speedup", 7}, {"effic", 6},    {"ceil%", 6},
    {"wait%", 6},   {"thrott%", 7}, {"equal", 5},   {"max_diff", 9},
};

#define CELL 32

static void join(char *buf, size_t cap, char cell[NCOL][CELL], bool pipe)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = pipe ? 0 : C_STREAMS; i < NCOL && len < cap; i++) {
		int n = snprintf(buf + len, cap - len, "%s%*s", len ? "  " : "", cols[i].width,
				 cell[i]);
		if (n < 0)
			break;
		len += (size_t)n;
	}
}

static void text_head(char *buf, size_t cap, bool pipe)
{
	char cell[NCOL][CELL];
	for (int i = 0; i < NCOL; i++)
		snprintf(cell[i], CELL, "%s", cols[i].head);
	join(buf, cap, cell, pipe);
}

void sweep_out_text_head(char *buf, size_t cap)
{
	text_head(buf, cap, false);
}

void sweep_out_text_row(char *buf, size_t cap, const struct sweep_row *r)
{
	char cell[NCOL][CELL];
	snprintf(cell[C_LOADERS], CELL, "%d", r->loaders);
	snprintf(cell[C_BATCH], CELL, "%.1f", r->batches_per_s);
	snprintf(cell[C_INWAIT], CELL, "%.1f", r->input_wait_pct);
	snprintf(cell[C_LCPU], CELL, "%.1f", r->loader_cpu_pct);
	snprintf(cell[C_STREAMS], CELL, "%d", r->streams);
	snprintf(cell[C_THREADS], CELL, "%d", r->threads);
	snprintf(cell[C_GFLOPS], CELL, "%.1f", r->gflops);
	snprintf(cell[C_SPEEDUP], CELL, "%.2f", r->speedup);
	snprintf(cell[C_EFF], CELL, "%.2f", r->efficiency);
	snprintf(cell[C_CEIL], CELL, "%.1f", r->ceiling_pct);
	snprintf(cell[C_WAIT], CELL, "%.1f", r->wait_pct);
	if (r->throttled_pct >= 0)
		snprintf(cell[C_THR], CELL, "%.1f", r->throttled_pct);
	else
		snprintf(cell[C_THR], CELL, "-");
	snprintf(cell[C_EQ], CELL, "%s", r->results_equal ? "yes" : "no");
	if (!isfinite(r->max_diff))
		snprintf(cell[C_DIFF], CELL, "-");
	else if (r->max_diff == 0)
		snprintf(cell[C_DIFF], CELL, "0");
	else
		snprintf(cell[C_DIFF], CELL, "%.2g", r->max_diff);
	join(buf, cap, cell, r->pipeline);
}

/* Flushes f: 0, -EPIPE when the reader of a pipe has gone, else -EIO. */
static int out_status(FILE *f)
{
	int e = errno;
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	if (errno != 0)
		e = errno;
	errno = e;
	return e == EPIPE ? -EPIPE : -EIO;
}

static void text_env(FILE *f, const char *lead, const struct sweep_env *w)
{
	env_out_text(f, lead, &w->env, w->spin);
	env_out_key(f, lead, "workload");
	if (w->kernel && strcmp(w->kernel, "triad") == 0)
		fprintf(f, "triad %s (2 FLOPs per 3 elements moved; gbs in JSON rows)",
			w->precision);
	else
		fprintf(f, "n=%d %s", w->size, w->precision);
	fprintf(f, ", %.1f s per setting after %.1f s warm-up", w->seconds, w->warmup);
	if (w->pipeline)
		fprintf(f, "; loaders: %d ms CPU per batch, %d slots each", w->prep_ms,
			w->prefetch);
	fputc('\n', f);
	env_out_key(f, lead, "baseline");
	if (w->baseline_row)
		fprintf(f, "the 1x1 row (calibrated single-thread rate %.1f GFLOP/s)\n",
			w->single_gflops);
	else
		fprintf(f, "calibrated single-thread rate %.1f GFLOP/s (no 1x1 row)\n",
			w->single_gflops);
}

static void json_env(struct json_out *j, const struct sweep_env *w)
{
	json_out_key(j, "env");
	json_out_object(j);
	env_out_json_members(j, &w->env, w->spin);
	json_out_kint(j, "size", w->size);
	json_out_kstr(j, "precision", w->precision);
	json_out_kstr(j, "kernel", w->kernel);
	json_out_knum(j, "seconds", w->seconds, 3);
	json_out_knum(j, "warmup", w->warmup, 3);
	json_out_knum(j, "single_thread_gflops", w->single_gflops, 3);
	json_out_kstr(j, "baseline", w->baseline_row ? "row_1x1" : "calibration");
	if (w->pipeline) {
		json_out_kint(j, "prep_ms", w->prep_ms);
		json_out_kint(j, "prefetch", w->prefetch);
	}
	json_out_end(j);
}

void sweep_out_init(struct sweep_out *w, FILE *f, enum format fmt)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->fmt = fmt;
	json_out_init(&w->j, f, 2);
	amdahl_set_init(&w->points);
	w->cpus = NAN;
}

int sweep_out_begin(struct sweep_out *w, const struct sweep_env *e)
{
	char head[256];
	errno = 0;
	w->cpus = sweep_fit_cpus(e->env.effective, e->env.quota_cpus);
	switch (w->fmt) {
	case FORMAT_TEXT:
		text_env(w->f, "", e);
		text_head(head, sizeof(head), e->pipeline);
		fprintf(w->f, "\n%s\n", head);
		break;
	case FORMAT_CSV:
		text_env(w->f, "# ", e);
		if (e->pipeline)
			fputs("loaders,batches_per_s,input_wait_pct,loader_cpu_pct,", w->f);
		fputs("streams,threads,gflops,speedup,efficiency,ceiling_pct,wait_pct,"
		      "throttled_pct,results_equal,max_diff\n",
		      w->f);
		break;
	case FORMAT_JSON:
		json_out_object(&w->j);
		json_env(&w->j, e);
		json_out_key(&w->j, "rows");
		json_out_array(&w->j);
		break;
	}
	return out_status(w->f);
}

int sweep_out_row(struct sweep_out *w, const struct sweep_row *r)
{
	char line[256];
	struct csv_out c;
	struct json_out *j = &w->j;
	double workers = (double)r->streams * r->threads;
	bool left_out = sweep_fit_left_out(r->verdict, r->crowded);
	bool marked = sweep_fit_marked(left_out, workers, w->cpus);
	amdahl_set_add(&w->points, workers, r->speedup, left_out);
	errno = 0;
	switch (w->fmt) {
	case FORMAT_TEXT:
		sweep_out_text_row(line, sizeof(line), r);
		/* as the dashboard's chart marks it: the fit's caption says why */
		fprintf(w->f, "%s%s\n", line, marked ? " *" : "");
		break;
	case FORMAT_CSV:
		csv_out_init(&c, w->f);
		if (r->pipeline) {
			csv_out_int(&c, r->loaders);
			csv_out_num(&c, r->batches_per_s, 2);
			csv_out_num(&c, r->input_wait_pct, 2);
			csv_out_num(&c, r->loader_cpu_pct, 2);
		}
		csv_out_int(&c, r->streams);
		csv_out_int(&c, r->threads);
		csv_out_num(&c, r->gflops, 3);
		csv_out_num(&c, r->speedup, 3);
		csv_out_num(&c, r->efficiency, 4);
		csv_out_num(&c, r->ceiling_pct, 2);
		csv_out_num(&c, r->wait_pct, 2);
		csv_out_num(&c, r->throttled_pct >= 0 ? r->throttled_pct : (double)NAN, 2);
		csv_out_str(&c, r->results_equal ? "true" : "false");
		csv_out_sig(&c, r->max_diff, 6);
		csv_out_end_row(&c);
		break;
	case FORMAT_JSON:
		json_out_flat(j);
		json_out_object(j);
		if (r->pipeline) {
			json_out_kint(j, "loaders", r->loaders);
			json_out_knum(j, "batches_per_s", r->batches_per_s, 2);
			json_out_knum(j, "input_wait_pct", r->input_wait_pct, 2);
			json_out_knum(j, "loader_cpu_pct", r->loader_cpu_pct, 2);
		}
		json_out_kint(j, "streams", r->streams);
		json_out_kint(j, "threads", r->threads);
		json_out_knum(j, "gflops", r->gflops, 3);
		json_out_knum(j, "gbs", r->gbs, 3);
		json_out_knum(j, "speedup", r->speedup, 3);
		json_out_knum(j, "efficiency", r->efficiency, 4);
		json_out_knum(j, "ceiling_pct", r->ceiling_pct, 2);
		json_out_knum(j, "wait_pct", r->wait_pct, 2);
		json_out_knum(j, "throttled_pct",
			      r->throttled_pct >= 0 ? r->throttled_pct : (double)NAN, 2);
		json_out_kbool(j, "results_equal", r->results_equal);
		json_out_key(j, "max_diff");
		json_out_sig(j, r->max_diff, 6);
		fit_out_json_row(j, r->speedup, workers, w->cpus);
		json_out_kstr(j, "verdict",
			      r->verdict < VERDICT_N ? diagnosis_verdict_name(r->verdict) : NULL);
		json_out_kbool(j, "fit_left_out", marked);
		json_out_end(j);
		break;
	}
	return out_status(w->f);
}

int sweep_out_end(struct sweep_out *w, double baseline_gflops)
{
	struct amdahl_fit fit;
	amdahl_fit(&w->points, w->cpus, &fit);
	errno = 0;
	switch (w->fmt) {
	case FORMAT_TEXT:
		fputc('\n', w->f);
		fit_out_text(w->f, "", &fit);
		break;
	case FORMAT_CSV:
		fit_out_text(w->f, "# ", &fit);
		break;
	case FORMAT_JSON:
		json_out_end(&w->j); /* rows */
		json_out_knum(&w->j, "baseline_gflops", baseline_gflops, 3);
		fit_out_json(&w->j, &fit);
		json_out_end(&w->j);
		json_out_newline(&w->j);
		break;
	}
	return out_status(w->f);
}

/* ---- the sink sweep_run() writes through ------------------------------- */

static int sweep_out_sink_begin(void *arg, const struct sweep_env *env)
{
	struct sweep_out *w = arg;
	if (w->record) {
		struct recording_header h;
		recording_header_fill(&h, &env->env, "sweep", 0, "sweep", true, env->seconds);
		int rc = record_header(w->record, &h);
		if (rc < 0) {
			errno = -rc;
			return -EIO;
		}
	}
	return sweep_out_begin(w, env);
}

static int sweep_out_sink_sample(void *arg, const struct model_sample *m,
				 const struct workload_report *wr)
{
	struct sweep_out *w = arg;
	int rc = record_sample(w->record, m, wr, NULL);
	if (rc < 0) {
		errno = -rc;
		return -EIO;
	}
	return 0;
}

static int sweep_out_sink_row(void *arg, const struct sweep_row *r)
{
	return sweep_out_row(arg, r);
}

static int sweep_out_sink_end(void *arg, double baseline)
{
	return sweep_out_end(arg, baseline);
}

/* A pipe whose reader has gone gives POLLERR on the write end; a memory
 * stream or a file has no such state. */
int sweep_out_file_gone(FILE *f)
{
	int fd = fileno(f);
	struct pollfd p = {.fd = fd, .events = 0};
	return fd >= 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLERR) ? -EPIPE : 0;
}

static int sweep_out_sink_gone(void *arg)
{
	const struct sweep_out *w = arg;
	return sweep_out_file_gone(w->f);
}

static void sweep_out_sink_note(void *arg, const char *line)
{
	(void)arg;
	sweep_out_say(line);
}

void sweep_out_say(const char *line)
{
	char safe_line[1536];
	text_safe(line, strlen(line), safe_line, sizeof(safe_line));
	fprintf(stderr, "threadlab: %s\n", safe_line);
}

int sweep_out_run(const struct sweep_opts *o, FILE *f, enum format fmt, struct record *rec)
{
	struct sweep_out w;
	sweep_out_init(&w, f, fmt);
	w.record = rec;
	struct sweep_sink k = {
	    .arg = &w,
	    .begin = sweep_out_sink_begin,
	    .row = sweep_out_sink_row,
	    .end = sweep_out_sink_end,
	    .gone = sweep_out_sink_gone,
	    .note = sweep_out_sink_note,
	    .sample = rec ? sweep_out_sink_sample : NULL,
	};
	return sweep_run(o, &k);
}
