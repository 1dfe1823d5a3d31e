/* metrics-all.c — the exposition of --serve --all (metrics.h): the machine
 * and its ranked processes, the first --metrics-max-processes of them in
 * rank order, each labelled pid, name and cgroup.
 *
 * The ranking keeps each process's figures of the last interval, not the
 * kernel's totals, so every family here is a gauge of that interval. */
#include "config.h"

#include "metrics.h"
#include "metrics-all.h"

#include <errno.h>
#include <math.h>

#include "metrics-expo.h"
#include "ranking.h"

static const struct family fam_m_runnable = {
    "threadlab_machine_runnable_threads_mean", FAMILY_GAUGE,
    "Mean runnable threads of the whole machine over the last interval: the CPUs busy "
    "(/proc/stat) plus the run-queue wait of every process (schedstat)."};
static const struct family fam_m_used = {
    "threadlab_machine_cpus_used", FAMILY_GAUGE,
    "CPUs the machine kept busy over the last interval, from /proc/stat."};
static const struct family fam_m_online = {"threadlab_machine_cpus_online", FAMILY_GAUGE,
					   "CPUs online (/sys/devices/system/cpu/online)."};
static const struct family fam_m_ratio = {
    "threadlab_machine_oversubscription_ratio", FAMILY_GAUGE,
    "The machine's mean runnable threads over its online CPUs, over the last interval."};
static const struct family fam_m_processes = {
    "threadlab_machine_processes", FAMILY_GAUGE,
    "Processes ranked over the last interval (kernel threads only with --kernel-threads)."};
static const struct family fam_m_verdict = {
    "threadlab_machine_verdict", FAMILY_GAUGE,
    "The machine's verdict as a state set: 1 for idle, oversubscribed (a ratio above 1.2) "
    "or fine, 0 for the other states."};
static const struct family fam_folded = {
    "threadlab_processes_folded", FAMILY_GAUGE,
    "Ranked processes left out of the per-process series (beyond --metrics-max-processes)."};
static const struct family fam_threads = {"threadlab_process_threads", FAMILY_GAUGE,
					  "Threads of a ranked process."};
static const struct family fam_runnable = {
    "threadlab_process_runnable_threads_mean", FAMILY_GAUGE,
    "Mean runnable threads of a process over the last interval: the sum over its threads of "
    "(run time + run-queue wait) / interval, from schedstat."};
static const struct family fam_used = {
    "threadlab_process_cpus_used", FAMILY_GAUGE,
    "CPUs a process used over the last interval (run time / interval, from schedstat)."};
static const struct family fam_waiting = {
    "threadlab_process_waiting_threads_mean", FAMILY_GAUGE,
    "Mean threads of a process waiting in a run queue over the last interval (run-queue "
    "wait / interval, from schedstat; under a quota it includes throttling)."};
static const struct family fam_effective = {
    "threadlab_process_effective_cpus", FAMILY_GAUGE,
    "A process's effective CPUs: the least of the online CPUs, its affinity, its cpuset and "
    "the tightest quota over its cgroup's ancestors; binding names the term that sets it."};
static const struct family fam_ratio = {
    "threadlab_process_oversubscription_ratio", FAMILY_GAUGE,
    "A process's mean runnable threads over its effective CPUs, over the last interval: "
    "above 1 its threads queue for a CPU."};
static const struct family fam_throttled = {
    "threadlab_process_throttled_ratio", FAMILY_GAUGE,
    "Share of the last interval's CFS periods in which the cgroup whose quota binds the "
    "process was throttled (cpu.stat); absent without a binding quota."};
static const struct family fam_verdict = {
    "threadlab_process_verdict", FAMILY_GAUGE,
    "A process's verdict as a state set: 1 for its verdict, 0 for the other states "
    "(threadlab(1), DIAGNOSIS)."};
static const struct family fam_samples = {"threadlab_samples", FAMILY_COUNTER,
					  "Samples threadlab has taken of its targets."};

static void metrics_all_machine(struct metrics_ctx *c, const struct rank_machine *m)
{
	const struct {
		const struct family *fam;
		double v;
	} g[] = {
	    {&fam_m_runnable, m->runnable_mean}, {&fam_m_used, m->cpus_used},
	    {&fam_m_online, m->online},		 {&fam_m_ratio, m->factor},
	    {&fam_m_processes, (double)m->processes},
	};
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		metrics_expo_family(c, g[i].fam);
		metrics_expo_sample(c);
		metrics_expo_value(c, g[i].v);
	}
	metrics_expo_family(c, &fam_m_verdict);
	const enum verdict states[] = {VERDICT_IDLE, VERDICT_OVERSUBSCRIBED, VERDICT_FINE};
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		metrics_expo_sample(c);
		metrics_expo_label_str(c, "verdict", diagnosis_verdict_name(states[i]));
		metrics_expo_value(c, m->verdict == states[i]);
	}
}

static void metrics_all_labels(struct metrics_ctx *c, const struct rank_row *r)
{
	metrics_expo_label_int(c, "pid", r->pid);
	metrics_expo_label(c, "name", r->name, r->name_len);
	metrics_expo_label_str(c, "cgroup", r->cgroup_path);
}

/* A gauge of each of the first n rows: what(row), NAN to leave it out. */
static void metrics_all_rows(struct metrics_ctx *c, const struct family *fam,
			     const struct rank_row *rows, size_t n,
			     double (*what)(const struct rank_row *))
{
	metrics_expo_family(c, fam);
	for (size_t i = 0; i < n; i++) {
		metrics_expo_sample(c);
		metrics_all_labels(c, &rows[i]);
		metrics_expo_value(c, what(&rows[i]));
	}
}

static double row_threads(const struct rank_row *r)
{
	return r->threads;
}
static double row_runnable(const struct rank_row *r)
{
	return r->runnable_mean;
}
static double row_used(const struct rank_row *r)
{
	return r->cpu;
}
static double row_waiting(const struct rank_row *r)
{
	return r->wait;
}
static double row_ratio(const struct rank_row *r)
{
	return r->factor;
}
static double row_throttled(const struct rank_row *r)
{
	return r->throttle_valid ? r->throttled_pct / 100 : (double)NAN;
}

int metrics_all_write_ranking(FILE *f, enum metrics_format fmt, const struct ranking *k,
			      const struct metrics_opts *o)
{
	struct metrics_ctx c;
	if (metrics_expo_begin(&c, f, fmt) < 0)
		return -ENOMEM;
	size_t n = k->n < o->max_processes ? k->n : o->max_processes;
	metrics_expo_family(&c, &fam_samples);
	metrics_expo_sample(&c);
	metrics_expo_uint(&c, o->samples);
	if (k->summary.valid)
		metrics_all_machine(&c, &k->summary);
	metrics_expo_family(&c, &fam_folded);
	metrics_expo_sample(&c);
	metrics_expo_value(&c, (double)(k->n - n));
	metrics_all_rows(&c, &fam_threads, k->rows, n, row_threads);
	metrics_all_rows(&c, &fam_runnable, k->rows, n, row_runnable);
	metrics_all_rows(&c, &fam_used, k->rows, n, row_used);
	metrics_all_rows(&c, &fam_waiting, k->rows, n, row_waiting);
	metrics_expo_family(&c, &fam_effective);
	for (size_t i = 0; i < n; i++) {
		metrics_expo_sample(&c);
		metrics_all_labels(&c, &k->rows[i]);
		metrics_expo_label_str(&c, "binding", model_term_name(k->rows[i].binding));
		metrics_expo_value(&c, k->rows[i].effective);
	}
	metrics_all_rows(&c, &fam_ratio, k->rows, n, row_ratio);
	metrics_all_rows(&c, &fam_throttled, k->rows, n, row_throttled);
	metrics_expo_family(&c, &fam_verdict);
	for (size_t i = 0; i < n; i++)
		for (int v = 0; v < VERDICT_N; v++) {
			metrics_expo_sample(&c);
			metrics_all_labels(&c, &k->rows[i]);
			metrics_expo_label_str(&c, "verdict", diagnosis_verdict_name((enum verdict)v));
			metrics_expo_value(&c, k->rows[i].verdict == (enum verdict)v);
		}
	return metrics_expo_end(&c);
}
