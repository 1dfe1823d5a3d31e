/* metrics-lab.c — the lab's families: each stream's FLOPs and GEMM calls,
 * the OpenBLAS build, the knobs' settings, the GFLOP/s figures and the
 * input pipeline's totals (metrics-lab.h).  Only lab targets have them. */
#include "config.h"

#include "metrics-lab.h"

#include <math.h>
#include <stddef.h>

#include "metrics-expo.h"
#include "session-lab.h"

static const struct family fam_flops = {
    "threadlab_workload_flops", FAMILY_COUNTER,
    "Floating-point operations a stream of the lab's GEMM workload completed (2 n^3 a call)."};
static const struct family fam_gemms = {"threadlab_workload_gemm_calls", FAMILY_COUNTER,
					"GEMM calls a stream of the lab's workload completed."};

/* A per-lab family: a counter from the lab's status or a gauge of what the
 * outputs show of the workload; one series per lab target, label pid. */
struct lab_gauge {
	struct family fam;
	double (*get)(const struct session *s);
};

static double lab_threads(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->threads;
}
static double lab_streams(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->streams;
}
static double lab_size(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->size;
}
static double lab_workers(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->workers;
}
static double lab_quota(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->cpus > 0 ? w->cpus : 0;
}
static double lab_gflops(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->gflops;
}
static double lab_single(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->single_thread_gflops >= 0 ? w->single_thread_gflops : (double)NAN;
}
static double lab_ideal(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->single_thread_gflops >= 0 ? w->ideal_gflops : (double)NAN;
}
static double lab_ceiling(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->single_thread_gflops >= 0 ? w->ceiling_gflops : (double)NAN;
}

static double lab_loaders(const struct session *s)
{
	const struct workload_report *w = &s->work;
	return w->loaders;
}

static const struct family fam_lab_info = {
    "threadlab_workload_info", FAMILY_GAUGE,
    "The lab's OpenBLAS build: blas as asked (pthreads, openmp), variant as loaded, spin "
    "default or off; always 1."};

/* The input pipeline's totals (the lab's counters), base units. */
static double lab_batches(const struct session *s)
{
	return (double)s->work.totals.batches;
}
static double lab_input_wait(const struct session *s)
{
	return (double)s->work.totals.input_wait_ns / 1e9;
}
static double lab_loader_cpu(const struct session *s)
{
	return (double)s->work.totals.loader_cpu_ns / 1e9;
}

static const struct lab_gauge lab_gauges[] = {
    {{"threadlab_workload_input_batches", FAMILY_COUNTER,
      "Input batches the lab's GEMM streams took from the loaders' ring (one per GEMM)."},
     lab_batches},
    {{"threadlab_workload_input_wait_seconds", FAMILY_COUNTER,
      "Time the lab's streams waited for an input batch, summed over the streams."},
     lab_input_wait},
    {{"threadlab_workload_loader_cpu_seconds", FAMILY_COUNTER,
      "CPU time the lab's loaders spent preparing batches."},
     lab_loader_cpu},
    {{"threadlab_workload_loaders", FAMILY_GAUGE,
      "Input-pipeline loader processes the lab runs (0: no pipeline)."},
     lab_loaders},
    {{"threadlab_workload_threads", FAMILY_GAUGE,
      "Intra-op threads the lab asks of OpenBLAS for each GEMM."},
     lab_threads},
    {{"threadlab_workload_streams", FAMILY_GAUGE,
      "Inter-op streams of the lab: GEMMs running at once."},
     lab_streams},
    {{"threadlab_workload_size", FAMILY_GAUGE, "n of the lab's n x n GEMM."}, lab_size},
    {{"threadlab_workload_workers", FAMILY_GAUGE,
      "Background CPU workers the lab runs beside its GEMMs."},
     lab_workers},
    {{"threadlab_workload_quota_cpus", FAMILY_GAUGE,
      "CPU quota the lab puts on its workload, CPUs; 0 when none."},
     lab_quota},
    {{"threadlab_workload_gflops", FAMILY_GAUGE, "The lab's GFLOP/s now, smoothed."}, lab_gflops},
    {{"threadlab_workload_single_thread_gflops", FAMILY_GAUGE,
      "GFLOP/s of one thread at this size and precision, measured by the lab."},
     lab_single},
    {{"threadlab_workload_ideal_gflops", FAMILY_GAUGE,
      "Single-thread GFLOP/s x min(threads x streams, effective CPUs)."},
     lab_ideal},
    {{"threadlab_workload_ceiling_gflops", FAMILY_GAUGE, "Single-thread GFLOP/s x effective CPUs."},
     lab_ceiling},
};

static bool metrics_is_lab(const struct session *s)
{
	return session_lab_live(s) && s->work.totals.nslots > 0;
}

void metrics_lab(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	const struct family *fams[] = {&fam_flops, &fam_gemms};
	for (size_t f = 0; f < 2; f++) {
		metrics_expo_family(c, fams[f]);
		for (size_t k = 0; k < n; k++) {
			const struct workload_counters *w = &t[k].s->work.totals;
			for (int i = 0; metrics_is_lab(t[k].s) && i < w->nslots; i++) {
				metrics_expo_sample(c);
				metrics_expo_label_int(c, "stream", i);
				metrics_expo_uint(
				    c, (unsigned long long)(f == 0 ? w->flops[i] : w->gemms[i]));
			}
		}
	}
	metrics_expo_family(c, &fam_lab_info);
	for (size_t k = 0; k < n; k++)
		if (metrics_is_lab(t[k].s)) {
			const struct workload_report *w = &t[k].s->work;
			metrics_expo_sample(c);
			metrics_expo_label_int(c, "pid", t[k].s->target);
			metrics_expo_label_str(c, "blas", w->blas ? w->blas : "pthreads");
			metrics_expo_label_str(c, "variant",
					       w->blas_variant ? w->blas_variant : "");
			metrics_expo_label_str(c, "spin", w->spin_off ? "off" : "default");
			metrics_expo_value(c, 1);
		}
	for (size_t g = 0; g < sizeof(lab_gauges) / sizeof(lab_gauges[0]); g++) {
		metrics_expo_family(c, &lab_gauges[g].fam);
		for (size_t k = 0; k < n; k++)
			if (metrics_is_lab(t[k].s)) {
				metrics_expo_sample(c);
				metrics_expo_label_int(c, "pid", t[k].s->target);
				metrics_expo_value(c, lab_gauges[g].get(t[k].s));
			}
	}
}
