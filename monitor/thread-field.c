/* thread-field.c — the table of a thread's fields (thread-field.h). */
#include "config.h"

#include "thread-field-impl.h"

#include <stdint.h>
#include <string.h>

_Static_assert(sizeof(pid_t) == sizeof(int), "INT fields are read as int");

#define TF_INT(member)                                                                             \
	.kind = THREAD_FIELD_KIND_INT, .offset = offsetof(struct model_thread, member),            \
	.rate_offset = offsetof(struct thread_rate, member)
#define TF_RATE(member)                                                                            \
	.kind = THREAD_FIELD_KIND_RATE, .offset = offsetof(struct model_thread, member),           \
	.rate_offset = offsetof(struct thread_rate, member)
#define TF_METRIC(fam, label, value, member)                                                       \
	.metric = &(fam), .metric_label = (label), .metric_label_value = (value),                  \
	.metric_offset = offsetof(struct model_thread, member)

/* The per-thread OpenMetrics families. */
static const struct thread_field_metric thread_field_cpu_seconds = {
    "threadlab_thread_cpu_seconds", THREAD_FIELD_METRIC_SECONDS,
    "CPU time of a thread in user and system mode, from /proc/PID/task/TID/stat fields 14 "
    "and 15."};
static const struct thread_field_metric thread_field_wait_seconds = {
    "threadlab_thread_runqueue_wait_seconds", THREAD_FIELD_METRIC_SECONDS,
    "Time a thread was runnable but waiting for a CPU, from /proc/PID/task/TID/schedstat "
    "field 2 (under a CPU quota it includes the time the cgroup was throttled)."};
static const struct thread_field_metric thread_field_switches = {
    "threadlab_thread_context_switches", THREAD_FIELD_METRIC_COUNT,
    "Context switches of a thread, from voluntary_ctxt_switches and "
    "nonvoluntary_ctxt_switches of /proc/PID/task/TID/status."};

const struct thread_field thread_field_table[THREAD_FIELD_N] = {
    [THREAD_FIELD_PID] = {.key = "pid",
			  .csv = "pid",
			  .header = "PID",
			  .width = 7,
			  .unit = "",
			  TF_INT(pid),
			  .help = "the process (thread group) ID",
			  .dash_head = "PID",
			  .dash_width = 7,
			  .dash_col = 1,
			  .dash = THREAD_FIELD_DASH_PID},
    [THREAD_FIELD_TID] = {.key = "tid",
			  .csv = "tid",
			  .header = "TID",
			  .width = 7,
			  .unit = "",
			  .sort_title = "TID",
			  .sort_rank = 4,
			  .sort_ascending = true,
			  TF_INT(tid),
			  .help = "the thread ID",
			  .dash_head = "TID",
			  .dash_width = 7,
			  .dash_col = 2,
			  .dash = THREAD_FIELD_DASH_ALWAYS},
    [THREAD_FIELD_NAME] = {.key = "name",
			   .csv = "name",
			   .header = "NAME",
			   .width = -16,
			   .unit = "",
			   .sort_title = "NAME",
			   .sort_rank = 5,
			   .sort_ascending = true,
			   .kind = THREAD_FIELD_KIND_NAME,
			   .help = "the thread's name (comm), raw bytes",
			   .dash_head = "NAME",
			   .dash_width = 0,
			   .dash_col = 3,
			   .dash = THREAD_FIELD_DASH_ALWAYS},
    [THREAD_FIELD_STATE] = {.key = "state",
			    .csv = "state",
			    .header = "S",
			    .width = 1,
			    .unit = "",
			    .kind = THREAD_FIELD_KIND_STATE,
			    .help = "the state letter (R running or runnable, S sleeping, D ...)",
			    .dash_head = "S",
			    .dash_width = 1,
			    .dash_col = 4,
			    .dash = THREAD_FIELD_DASH_ALWAYS},
    [THREAD_FIELD_CPU] = {.key = "cpu",
			  .csv = "cpu",
			  .header = "CPU",
			  .width = 3,
			  .unit = "",
			  TF_INT(cpu),
			  .help = "the CPU it last ran on",
			  .dash_head = "CPU",
			  .dash_width = 3,
			  .dash_col = 5,
			  .dash = THREAD_FIELD_DASH_ALWAYS},
    [THREAD_FIELD_CPU_PCT] = {.key = "cpu_pct",
			      .csv = "cpu_pct",
			      .header = "CPU%",
			      .width = 6,
			      .decimals = 2,
			      .unit = "%",
			      .sort_title = "CPU%",
			      .sort_rank = 1,
			      TF_RATE(cpu_pct),
			      .help = "time on a CPU, % of one CPU",
			      .dash_head = "CPU%",
			      .dash_width = 6,
			      .dash_decimals = 1,
			      .dash_col = 6,
			      .dash = THREAD_FIELD_DASH_ALWAYS},
    [THREAD_FIELD_USER_PCT] = {.key = "user_pct",
			       .csv = "user_pct",
			       .header = "USR%",
			       .width = 6,
			       .decimals = 2,
			       .unit = "%",
			       TF_RATE(user_pct),
			       .help = "the user-mode part of cpu_pct",
			       .dash_head = "USR%",
			       .dash_width = 5,
			       .dash_decimals = 1,
			       .dash_col = 7,
			       .dash = THREAD_FIELD_DASH_SPLIT,
			       TF_METRIC(thread_field_cpu_seconds, "mode", "user", user_s)},
    [THREAD_FIELD_SYS_PCT] = {.key = "sys_pct",
			      .csv = "sys_pct",
			      .header = "SYS%",
			      .width = 6,
			      .decimals = 2,
			      .unit = "%",
			      TF_RATE(sys_pct),
			      .help = "the kernel-mode part of cpu_pct",
			      .dash_head = "SYS%",
			      .dash_width = 5,
			      .dash_decimals = 1,
			      .dash_col = 8,
			      .dash = THREAD_FIELD_DASH_SPLIT,
			      TF_METRIC(thread_field_cpu_seconds, "mode", "system", system_s)},
    [THREAD_FIELD_WAIT_PCT] = {.key = "wait_pct",
			       .csv = "wait_pct",
			       .header = "WAIT%",
			       .width = 6,
			       .decimals = 2,
			       .unit = "%",
			       .sort_title = "WAIT%",
			       .sort_rank = 2,
			       TF_RATE(wait_pct),
			       .help = "time runnable on a run queue, not running",
			       .dash_head = "WAIT%",
			       .dash_width = 6,
			       .dash_decimals = 1,
			       .dash_col = 9,
			       .dash = THREAD_FIELD_DASH_ALWAYS,
			       TF_METRIC(thread_field_wait_seconds, NULL, NULL, wait_s)},
    [THREAD_FIELD_VCSW] = {.key = "vcsw_per_s",
			   .csv = "vcsw_per_s",
			   .header = "VCSW/s",
			   .width = 8,
			   .decimals = 1,
			   .unit = "1/s",
			   TF_RATE(vcsw_per_s),
			   .help = "voluntary context switches (it blocked)",
			   .dash_head = "VCS/s",
			   .dash_width = 7,
			   .dash_decimals = 0,
			   .dash_col = 11,
			   .dash = THREAD_FIELD_DASH_VCSW,
			   TF_METRIC(thread_field_switches, "ctxswitchtype", "voluntary", vcsw)},
    [THREAD_FIELD_IVCSW] = {.key = "ivcsw_per_s",
			    .csv = "ivcsw_per_s",
			    .header = "IVCSW/s",
			    .width = 8,
			    .decimals = 1,
			    .unit = "1/s",
			    .sort_title = "IVCS/s",
			    .sort_rank = 3,
			    TF_RATE(ivcsw_per_s),
			    .help = "involuntary context switches (the scheduler took the CPU)",
			    .dash_head = "IVCS/s",
			    .dash_width = 7,
			    .dash_decimals = 0,
			    .dash_col = 10,
			    .dash = THREAD_FIELD_DASH_ALWAYS,
			    TF_METRIC(thread_field_switches, "ctxswitchtype", "nonvoluntary",
				      ivcsw)},
    [THREAD_FIELD_LATENCY] = {.key = "latency",
			      .csv = "p50_ms,p99_ms,max_ms,latency_events",
			      .header = "P50ms P99ms MAXms",
			      .width = 7,
			      .decimals = 3,
			      .unit = "ms",
			      .sort_title = "P99",
			      .sort_rank = 6,
			      .csv_last = true,
			      .kind = THREAD_FIELD_KIND_LATENCY,
			      .help =
				  "run-queue latency of the interval's wake-ups (BPF collector)",
			      .dash_head = "P50 P99 MAX",
			      .dash_width = 6,
			      .dash_col = 12,
			      .dash = THREAD_FIELD_DASH_LATENCY},
    [THREAD_FIELD_ACTIVITY] =
	{.key = "activity",
	 .csv = "activity",
	 .header = "ACTIVITY",
	 .width = 0,
	 .unit = "",
	 .csv_last = true,
	 .kind = THREAD_FIELD_KIND_ACTIVITY,
	 .help = "what it did most of the interval (compute, spin, pool-idle ...)",
	 .dash_head = "ACT",
	 .dash_width = -11,
	 .dash_col = 13,
	 .dash = THREAD_FIELD_DASH_ACTIVITY},
};

enum thread_field_id thread_field_sort_next(enum thread_field_id from, int dir, bool lat)
{
	int n = 0, at;
	for (int i = 0; i < THREAD_FIELD_N; i++)
		if (thread_field_table[i].sort_title)
			n++;
	if (from < THREAD_FIELD_N && thread_field_table[from].sort_title)
		at = thread_field_table[from].sort_rank - 1;
	else
		at = dir > 0 ? -1 : n;
	for (int step = 0; step < n; step++) {
		at = ((at + (dir < 0 ? -1 : 1)) % n + n) % n;
		for (int i = 0; i < THREAD_FIELD_N; i++) {
			const struct thread_field *f = &thread_field_table[i];
			if (f->sort_title && f->sort_rank == at + 1 &&
			    (lat || f->kind != THREAD_FIELD_KIND_LATENCY))
				return (enum thread_field_id)i;
		}
	}
	return from;
}

double thread_field_value(const struct thread_field *f, const struct model_thread *t)
{
	const char *base = (const char *)t + f->offset;
	int i;
	double d;
	switch (f->kind) {
	case THREAD_FIELD_KIND_INT:
		memcpy(&i, base, sizeof(i));
		return i;
	case THREAD_FIELD_KIND_RATE:
		memcpy(&d, base, sizeof(d));
		return d;
	case THREAD_FIELD_KIND_LATENCY:
		return t->latency.p99_s;
	case THREAD_FIELD_KIND_NAME:
	case THREAD_FIELD_KIND_STATE:
	case THREAD_FIELD_KIND_ACTIVITY:
		break;
	}
	return 0;
}

void thread_field_add(const struct thread_field *f, struct model_thread *sum,
		      const struct model_thread *t)
{
	if (f->kind != THREAD_FIELD_KIND_RATE)
		return;
	double a, b;
	memcpy(&a, (const char *)sum + f->offset, sizeof(a));
	memcpy(&b, (const char *)t + f->offset, sizeof(b));
	a += b;
	memcpy((char *)sum + f->offset, &a, sizeof(a));
}

double thread_field_metric_seconds(const struct thread_field *f, const struct model_thread *t)
{
	double d = 0;
	if (f->metric && f->metric->value == THREAD_FIELD_METRIC_SECONDS)
		memcpy(&d, (const char *)t + f->metric_offset, sizeof(d));
	return d;
}

unsigned long long thread_field_metric_count(const struct thread_field *f,
					     const struct model_thread *t)
{
	uint64_t n = 0;
	if (f->metric && f->metric->value == THREAD_FIELD_METRIC_COUNT)
		memcpy(&n, (const char *)t + f->metric_offset, sizeof(n));
	return n;
}

void thread_field_rate_of(const struct thread_field *f, const struct thread_rate *r,
			  struct model_thread *t)
{
	if (f->kind == THREAD_FIELD_KIND_RATE)
		memcpy((char *)t + f->offset, (const char *)r + f->rate_offset, sizeof(double));
}

void thread_field_set(const struct thread_field *f, struct thread_rate *t, double v)
{
	char *base = (char *)t + f->rate_offset;
	if (f->kind == THREAD_FIELD_KIND_INT) {
		int i = (int)v;
		memcpy(base, &i, sizeof(i));
	} else if (f->kind == THREAD_FIELD_KIND_RATE) {
		memcpy(base, &v, sizeof(v));
	}
}
