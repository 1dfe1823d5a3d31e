/* sweep-out.c — the sweep's table as text, CSV or JSON.
 *
 * Strings that come from other processes or the system (CPU model, OpenBLAS
 * config, environment variables) go through text_safe() for text and CSV
 * and json_put_string() for JSON. */
#include "sweep.h"
#include "text-safe.h"

#include <math.h>
#include <string.h>

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

static void text_env(FILE *f, const char *lead, const struct sweep_env *e)
{
	char a[1024], b[1024], c[1024];
	fprintf(f, "%scpu: %s\n", lead, safe(e->cpu_model, a, sizeof(a)));
	fprintf(f, "%sbudget: online %d, affinity %d, quota ", lead, e->online, e->affinity);
	if (e->quota_cpus > 0)
		fprintf(f, "%.2f", e->quota_cpus);
	else
		fputs("none", f);
	fprintf(f, ", effective %.2f CPUs\n", e->effective);
	fprintf(f, "%sopenblas: %s (core %s, %s), spin %s\n", lead,
		safe(e->blas_config, a, sizeof(a)), safe(e->blas_core, b, sizeof(b)),
		e->blas_variant && *e->blas_variant ? e->blas_variant : "unknown", e->spin);
	fprintf(f, "%senv: OMP_NUM_THREADS=%s OPENBLAS_NUM_THREADS=%s MKL_NUM_THREADS=%s\n", lead,
		safe(e->omp_num_threads, a, sizeof(a)), safe(e->openblas_num_threads, b, sizeof(b)),
		safe(e->mkl_num_threads, c, sizeof(c)));
	fprintf(f, "%skernel: %s, date: %s\n", lead, safe(e->kernel, a, sizeof(a)), e->date);
	fprintf(f,
		"%sworkload: n=%d %s, %.1f s per setting after %.1f s warm-up, "
		"single-thread %.1f GFLOP/s\n",
		lead, e->size, e->precision, e->seconds, e->warmup, e->single_gflops);
}

void sweep_out_begin(FILE *f, enum sweep_format fmt, const struct sweep_env *e)
{
	switch (fmt) {
	case SWEEP_TEXT:
		text_env(f, "", e);
		fprintf(f, "\n%7s %7s %9s %7s %6s %7s %6s %9s %s\n", "streams", "threads",
			"GFLOP/s", "speedup", "eff", "ceil%", "wait%", "throttle%", "equal");
		break;
	case SWEEP_CSV:
		text_env(f, "# ", e);
		fputs("streams,threads,gflops,speedup,efficiency,ceiling_pct,wait_pct,"
		      "throttled_pct,results_equal\n",
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
		fprintf(f, "    \"single_thread_gflops\": %.3f\n  },\n  \"rows\": [",
			e->single_gflops);
		break;
	}
	fflush(f);
}

void sweep_out_row(FILE *f, enum sweep_format fmt, const struct sweep_row *r, bool first)
{
	switch (fmt) {
	case SWEEP_TEXT: {
		char thr[16] = "-";
		if (r->throttled_pct >= 0)
			snprintf(thr, sizeof(thr), "%.1f", r->throttled_pct);
		fprintf(f, "%7d %7d %9.1f %7.2f %6.2f %7.1f %6.1f %9s ", r->streams, r->threads,
			r->gflops, r->speedup, r->efficiency, r->ceiling_pct, r->wait_pct, thr);
		if (r->results_equal)
			fputs("yes\n", f);
		else
			fprintf(f, "no (max diff %.2g)\n", r->max_diff);
		break;
	}
	case SWEEP_CSV:
		fprintf(f, "%d,%d,%.3f,%.3f,%.4f,%.2f,%.2f,", r->streams, r->threads, r->gflops,
			r->speedup, r->efficiency, r->ceiling_pct, r->wait_pct);
		if (r->throttled_pct >= 0)
			fprintf(f, "%.2f", r->throttled_pct);
		fprintf(f, ",%s\n", r->results_equal ? "true" : "false");
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
		fprintf(f, ", \"results_equal\": %s, \"max_diff\": %g}",
			r->results_equal ? "true" : "false",
			isfinite(r->max_diff) ? r->max_diff : 0.0);
		break;
	}
	fflush(f);
}

void sweep_out_end(FILE *f, enum sweep_format fmt)
{
	if (fmt == SWEEP_JSON)
		fputs("\n  ]\n}\n", f);
	fflush(f);
}
