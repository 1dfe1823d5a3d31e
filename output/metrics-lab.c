/* metrics-lab.c — the lab's families: each stream's FLOPs and GEMM calls,
 * the OpenBLAS build, the knobs' settings, the GFLOP/s figures and the
 * input pipeline's totals (metrics-lab.h).  Only lab targets have them. */
#include "config.h"

#include "metrics-lab.h"

#include <math.h>
#include <stddef.h>

#include "knobs-view.h"
#include "metrics-expo.h"
#include "session-lab.h"

static const struct family fam_flops = {
    "threadlab_workload_flops", FAMILY_COUNTER,
    "Floating-point operations a stream of the lab's GEMM workload completed (2 n^3 a call)."};
static const struct family fam_gemms = {"threadlab_workload_gemm_calls", FAMILY_COUNTER,
					"GEMM calls a stream of the lab's workload completed."};

/* A per-lab family: a counter from the lab's status or a gauge of what the
 * outputs show of the workload; one series per lab target, label pid.  A
 * knob's gauge reads the knob's value (knobs.h) from the workload report. */
struct lab_gauge {
	struct family fam;
	double (*get)(const struct session *s); /* NULL: the knob's */
	enum knob_id knob;
};

static double lab_knob(const struct session *s, enum knob_id k)
{
	struct settings set;
	knobs_view_of_report(&s->work, &set);
	double v = knobs_value(&set, k);
	return v > 0 ? v : 0; /* the quota: 0 when none */
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

static const struct family fam_lab_info = {
    "threadlab_workload", FAMILY_INFO,
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
     lab_batches,
     KNOB_NONE},
    {{"threadlab_workload_input_wait_seconds", FAMILY_COUNTER,
      "Time the lab's streams waited for an input batch, summed over the streams."},
     lab_input_wait,
     KNOB_NONE},
    {{"threadlab_workload_loader_cpu_seconds", FAMILY_COUNTER,
      "CPU time the lab's loaders spent preparing batches."},
     lab_loader_cpu,
     KNOB_NONE},
    {{"threadlab_workload_loaders", FAMILY_GAUGE,
      "Input-pipeline loader processes the lab runs (0: no pipeline)."},
     NULL,
     KNOB_LOADERS},
    {{"threadlab_workload_threads", FAMILY_GAUGE,
      "Intra-op threads the lab asks of OpenBLAS for each GEMM."},
     NULL,
     KNOB_THREADS},
    {{"threadlab_workload_streams", FAMILY_GAUGE,
      "Inter-op streams of the lab: GEMMs running at once."},
     NULL,
     KNOB_STREAMS},
    {{"threadlab_workload_size", FAMILY_GAUGE, "n of the lab's n x n GEMM."}, NULL, KNOB_SIZE},
    {{"threadlab_workload_workers", FAMILY_GAUGE,
      "Background CPU workers the lab runs beside its GEMMs."},
     NULL,
     KNOB_WORKERS},
    {{"threadlab_workload_quota_cpus", FAMILY_GAUGE,
      "CPU quota the lab puts on its workload, CPUs; 0 when none."},
     NULL,
     KNOB_CPUS},
    {{"threadlab_workload_gflops", FAMILY_GAUGE, "The lab's GFLOP/s now, smoothed."},
     lab_gflops,
     KNOB_NONE},
    {{"threadlab_workload_single_thread_gflops", FAMILY_GAUGE,
      "GFLOP/s of one thread at this size and precision, measured by the lab."},
     lab_single,
     KNOB_NONE},
    {{"threadlab_workload_ideal_gflops", FAMILY_GAUGE,
      "Single-thread GFLOP/s x min(threads x streams, effective CPUs)."},
     lab_ideal,
     KNOB_NONE},
    {{"threadlab_workload_ceiling_gflops", FAMILY_GAUGE, "Single-thread GFLOP/s x effective CPUs."},
     lab_ceiling,
     KNOB_NONE},
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
			struct settings set;
			char blas[16], spin[16];
			knobs_view_of_report(w, &set);
			knobs_format(&set, KNOB_BLAS, blas, sizeof(blas));
			knobs_format(&set, KNOB_SPIN, spin, sizeof(spin));
			metrics_expo_sample(c);
			metrics_expo_label_int(c, "pid", t[k].s->target);
			metrics_expo_label_str(c, "blas", blas);
			metrics_expo_label_str(c, "variant",
					       w->blas_variant ? w->blas_variant : "");
			metrics_expo_label_str(c, "spin", spin);
			metrics_expo_value(c, 1);
		}
	for (size_t g = 0; g < sizeof(lab_gauges) / sizeof(lab_gauges[0]); g++) {
		metrics_expo_family(c, &lab_gauges[g].fam);
		for (size_t k = 0; k < n; k++)
			if (metrics_is_lab(t[k].s)) {
				metrics_expo_sample(c);
				metrics_expo_label_int(c, "pid", t[k].s->target);
				const struct lab_gauge *e = &lab_gauges[g];
				metrics_expo_value(c, e->get ? e->get(t[k].s)
							     : lab_knob(t[k].s, e->knob));
			}
	}
}
