/* metrics-latency.c — threadlab_runqueue_latency_seconds, a histogram per
 * thread group (metrics-impl.h).
 *
 * The series are the groups' (thread-groups.h): their counts only grow (a thread
 * that ended leaves its counts in its group), labelled by pid and group as
 * the group families are, so sum by (pid, le) is the process's histogram
 * with no series of its own: the cardinality stays that of the groups.
 * The "le" bounds are edges of threadlab's own buckets, four octaves apart
 * (1.024 us to 17.2 s), so every count is exact.  Written only for targets
 * whose latency is traced (the BPF collector). */
#include "config.h"

#include "metrics-impl.h"
#include "metrics-latency.h"

#include <math.h>
#include <stdio.h>

#include "collector.h"
#include "runqlat.h"

static const struct family fam_latency = {
    "threadlab_runqueue_latency_seconds", FAMILY_HISTOGRAM,
    "Time from becoming runnable to running, per thread group (BPF at sched_switch, the "
    "scheduler's sched_info.last_queued stamp); sum by pid for the process."};

static void metrics_latency_group(struct metrics_ctx *c, const struct thread_groups *groups,
				  size_t i)
{
	const struct thread_group *g = &groups->v[i];
	size_t nb;
	const double *le = runqlat_metric_bounds(&nb);
	char v[32];
	for (size_t b = 0; b < nb; b++) {
		metrics_expo_sample_as(c, "_bucket");
		metrics_group_labels(c, groups, i);
		/* every edge exactly (17.179869184 s has 11 digits) */
		snprintf(v, sizeof(v), "%.12g", le[b]);
		metrics_expo_label_str(c, "le", v);
		metrics_expo_uint(c, (unsigned long long)runqlat_count_below(&g->lat, le[b]));
	}
	/* The count is the buckets' own sum, so +Inf and _count agree with them. */
	unsigned long long all = runqlat_count_below(&g->lat, INFINITY);
	metrics_expo_sample_as(c, "_bucket");
	metrics_group_labels(c, groups, i);
	metrics_expo_label_str(c, "le", "+Inf");
	metrics_expo_uint(c, all);
	metrics_expo_sample_as(c, "_count");
	metrics_group_labels(c, groups, i);
	metrics_expo_uint(c, all);
	metrics_expo_sample_as(c, "_sum");
	metrics_group_labels(c, groups, i);
	metrics_expo_value(c, (double)g->lat.sum_ns / 1e9);
}

static const struct family fam_dropped = {
    "threadlab_runqueue_latency_dropped", FAMILY_COUNTER,
    "Run-queue latency events not recorded because the BPF map of traced threads was full "
    "(--bpf-threads raises its size)."};
static const struct family fam_reads = {
    "threadlab_collector_bpf_reads", FAMILY_COUNTER,
    "Reads of the BPF task iterator, by the sampler only (a scrape never reads)."};

void metrics_latency(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	bool any = false;
	for (size_t k = 0; k < n; k++)
		any |= t[k].s->model.lat_sampled;
	if (any) {
		metrics_expo_family(c, &fam_reads);
		metrics_expo_sample(c);
		metrics_expo_uint(c, collector_reads());
		metrics_expo_family(c, &fam_dropped);
		metrics_expo_sample(c);
		metrics_expo_uint(c, collector_dropped());
	}
	metrics_expo_family(c, &fam_latency);
	for (size_t k = 0; k < n; k++) {
		const struct session *s = t[k].s;
		if (!s->model.lat_sampled)
			continue;
		for (size_t i = 0; i < s->groups.n; i++)
			if (s->groups.v[i].has_lat)
				metrics_latency_group(c, &s->groups, i);
	}
}
