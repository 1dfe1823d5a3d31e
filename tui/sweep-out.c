/* sweep-out.c — the sweep's table as text, CSV or JSON.
 *
 * Strings that come from other processes or the system (CPU model, OpenBLAS
 * config, environment variables) go through text_safe() for text and CSV
 * and json_put_string() for JSON.  The text table is built from one list of
 * columns, so the header and every row share the same widths.  Every part
 * ends with a flush whose outcome is returned: a sweep runs for minutes and
 * must notice a full disk or a reader that has gone. */
#include "sweep.h"
#include "text-safe.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* Text columns: header, width (right-aligned), two spaces apart. */
enum {
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
    {"streams", 7}, {"threads", 7}, {"GFLOP/s", 9}, {"speedup", 7}, {"effic", 6},
    {"ceil%", 6},   {"wait%", 6},   {"thrott%", 7}, {"equal", 5},   {"max_diff", 9},
};

#define CELL 32

static void join(char *buf, size_t cap, char cell[NCOL][CELL])
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < NCOL && len < cap; i++) {
		int n =
		    snprintf(buf + len, cap - len, "%s%*s", i ? "  " : "", cols[i].width, cell[i]);
		if (n < 0)
			break;
		len += (size_t)n;
	}
}

void sweep_text_head(char *buf, size_t cap)
{
	char cell[NCOL][CELL];
	for (int i = 0; i < NCOL; i++)
		snprintf(cell[i], CELL, "%s", cols[i].head);
	join(buf, cap, cell);
}

void sweep_text_row(char *buf, size_t cap, const struct sweep_row *r)
{
	char cell[NCOL][CELL];
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
	join(buf, cap, cell);
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

static const char *safe(const char *s, char *buf, size_t cap)
{
	if (!s)
		return "-";
	text_safe(s, strlen(s), buf, cap);
	return buf;
}

static void json_key_str(FILE *f, const char *key, const char *val, bool comma)
{
	fprintf(f, "    \"%s\": ", key);
	if (val)
		json_put_string(f, val, strlen(val));
	else
		fputs("null", f);
	fputs(comma ? ",\n" : "\n", f);
}

/* "key:" padded to one width, so the values line up. */
static void text_key(FILE *f, const char *lead, const char *key)
{
	fprintf(f, "%s%s:%*s", lead, key, (int)(9 - strlen(key)), "");
}

static void text_env(FILE *f, const char *lead, const struct sweep_env *e)
{
	char a[1024], b[1024], c[1024];
	text_key(f, lead, "cpu");
	fprintf(f, "%s\n", safe(e->cpu_model, a, sizeof(a)));
	text_key(f, lead, "budget");
	fprintf(f, "online %d, affinity %d, quota ", e->online, e->affinity);
	if (e->quota_cpus > 0)
		fprintf(f, "%.2f", e->quota_cpus);
	else
		fputs("none", f);
	fprintf(f, ", effective %.2f CPUs\n", e->effective);
	text_key(f, lead, "openblas");
	fprintf(f, "%s (core %s, %s), spin %s\n", safe(e->blas_config, a, sizeof(a)),
		safe(e->blas_core, b, sizeof(b)),
		e->blas_variant && *e->blas_variant ? e->blas_variant : "unknown", e->spin);
	text_key(f, lead, "env");
	fprintf(f, "OMP_NUM_THREADS=%s OPENBLAS_NUM_THREADS=%s MKL_NUM_THREADS=%s\n",
		safe(e->omp_num_threads, a, sizeof(a)), safe(e->openblas_num_threads, b, sizeof(b)),
		safe(e->mkl_num_threads, c, sizeof(c)));
	text_key(f, lead, "kernel");
	fprintf(f, "%s\n", safe(e->kernel, a, sizeof(a)));
	text_key(f, lead, "date");
	fprintf(f, "%s\n", e->date);
	text_key(f, lead, "workload");
	fprintf(f, "n=%d %s, %.1f s per setting after %.1f s warm-up\n", e->size, e->precision,
		e->seconds, e->warmup);
	text_key(f, lead, "baseline");
	if (e->baseline_row)
		fprintf(f, "the 1x1 row (calibrated single-thread rate %.1f GFLOP/s)\n",
			e->single_gflops);
	else
		fprintf(f, "calibrated single-thread rate %.1f GFLOP/s (no 1x1 row)\n",
			e->single_gflops);
}

int sweep_out_begin(FILE *f, enum sweep_format fmt, const struct sweep_env *e)
{
	char head[256];
	errno = 0;
	switch (fmt) {
	case SWEEP_TEXT:
		text_env(f, "", e);
		sweep_text_head(head, sizeof(head));
		fprintf(f, "\n%s\n", head);
		break;
	case SWEEP_CSV:
		text_env(f, "# ", e);
		fputs("streams,threads,gflops,speedup,efficiency,ceiling_pct,wait_pct,"
		      "throttled_pct,results_equal,max_diff\n",
		      f);
		break;
	case SWEEP_JSON:
		fputs("{\n  \"env\": {\n", f);
		json_key_str(f, "cpu_model", e->cpu_model, true);
		fprintf(f, "    \"online\": %d,\n    \"affinity\": %d,\n", e->online, e->affinity);
		if (e->quota_cpus > 0)
			fprintf(f, "    \"quota_cpus\": %.3f,\n", e->quota_cpus);
		else
			fputs("    \"quota_cpus\": null,\n", f);
		fprintf(f, "    \"effective_cpus\": %.3f,\n", e->effective);
		json_key_str(f, "openblas_config", e->blas_config, true);
		json_key_str(f, "openblas_core", e->blas_core, true);
		json_key_str(f, "openblas_variant", e->blas_variant, true);
		json_key_str(f, "blas_spin", e->spin, true);
		json_key_str(f, "OMP_NUM_THREADS", e->omp_num_threads, true);
		json_key_str(f, "OPENBLAS_NUM_THREADS", e->openblas_num_threads, true);
		json_key_str(f, "MKL_NUM_THREADS", e->mkl_num_threads, true);
		json_key_str(f, "kernel", e->kernel, true);
		json_key_str(f, "date", e->date, true);
		fprintf(f, "    \"size\": %d,\n", e->size);
		json_key_str(f, "precision", e->precision, true);
		fprintf(f, "    \"seconds\": %.3f,\n    \"warmup\": %.3f,\n", e->seconds,
			e->warmup);
		fprintf(f, "    \"single_thread_gflops\": %.3f,\n", e->single_gflops);
		json_key_str(f, "baseline", e->baseline_row ? "row_1x1" : "calibration", false);
		fputs("  },\n  \"rows\": [", f);
		break;
	}
	return out_status(f);
}

int sweep_out_row(FILE *f, enum sweep_format fmt, const struct sweep_row *r, bool first)
{
	char line[256];
	errno = 0;
	switch (fmt) {
	case SWEEP_TEXT:
		sweep_text_row(line, sizeof(line), r);
		fprintf(f, "%s\n", line);
		break;
	case SWEEP_CSV:
		fprintf(f, "%d,%d,%.3f,%.3f,%.4f,%.2f,%.2f,", r->streams, r->threads, r->gflops,
			r->speedup, r->efficiency, r->ceiling_pct, r->wait_pct);
		if (r->throttled_pct >= 0)
			fprintf(f, "%.2f", r->throttled_pct);
		fprintf(f, ",%s,", r->results_equal ? "true" : "false");
		if (isfinite(r->max_diff))
			fprintf(f, "%.6g", r->max_diff);
		fputc('\n', f);
		break;
	case SWEEP_JSON:
		fprintf(f,
			"%s\n    {\"streams\": %d, \"threads\": %d, \"gflops\": %.3f, "
			"\"speedup\": %.3f, \"efficiency\": %.4f, \"ceiling_pct\": %.2f, "
			"\"wait_pct\": %.2f, \"throttled_pct\": ",
			first ? "" : ",", r->streams, r->threads, r->gflops, r->speedup,
			r->efficiency, r->ceiling_pct, r->wait_pct);
		if (r->throttled_pct >= 0)
			fprintf(f, "%.2f", r->throttled_pct);
		else
			fputs("null", f);
		fprintf(f, ", \"results_equal\": %s, \"max_diff\": ",
			r->results_equal ? "true" : "false");
		if (isfinite(r->max_diff))
			fprintf(f, "%.6g}", r->max_diff);
		else
			fputs("null}", f);
		break;
	}
	return out_status(f);
}

int sweep_out_end(FILE *f, enum sweep_format fmt, double baseline_gflops)
{
	errno = 0;
	if (fmt == SWEEP_JSON)
		fprintf(f, "\n  ],\n  \"baseline_gflops\": %.3f\n}\n", baseline_gflops);
	return out_status(f);
}
