/* metrics.c — the Prometheus and OpenMetrics expositions (metrics.h).
 *
 * Written family by family: a family's # HELP and # TYPE come with its
 * first sample, so a family with nothing to say (no quota cgroup, no lab)
 * is left out whole.  Series that two targets share (a cgroup) are written
 * once.  This file holds the families and their writers; the primitives
 * that write a sample line are metrics-expo.c's. */
#include "config.h"

#include "metrics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demand.h"
#include "metrics-expo.h"
#include "metrics-impl.h"
#include "metrics-latency.h"
#include "metrics-lab.h"
#include "thread-field.h"

/* ---- families --------------------------------------------------------- */

static const struct family fam_target = {
    "threadlab_target", FAMILY_INFO,
    "A followed target: its pid, command name, how it was found (lab, attach, command, match) "
    "and its CPU cgroup (/proc/PID/cgroup)."};
static const struct family fam_samples = {"threadlab_samples", FAMILY_COUNTER,
					  "Samples threadlab has taken of its targets."};
static const struct family fam_folded = {
    "threadlab_threads_folded", FAMILY_GAUGE,
    "Threads of a process exported only in their groups (beyond --metrics-max-threads)."};
static const struct family fam_group_threads = {
    "threadlab_group_threads", FAMILY_GAUGE,
    "Threads of a process that share a name stem (the name less its trailing digits)."};
static const struct family fam_group_cpu = {
    "threadlab_group_cpu_seconds", FAMILY_COUNTER,
    "CPU time of a thread group in user and system mode, from /proc/PID/task/TID/stat fields "
    "14 and 15 of its threads, those that ended included as the last read saw them (a thread "
    "that started and ended between two reads is in no group); a renamed thread counts in its "
    "new group from then on."};
static const struct family fam_group_wait = {
    "threadlab_group_runqueue_wait_seconds", FAMILY_COUNTER,
    "Run-queue wait of a thread group, from /proc/PID/task/TID/schedstat field 2 of its "
    "threads, those that ended included as the last read saw them."};
static const struct family fam_budget = {
    "threadlab_cpu_budget_cpus", FAMILY_GAUGE,
    "CPUs of each term of a process's CPU budget: online, its affinity mask, its cpuset, its "
    "cgroup quota / period (the tightest up the tree); effective is their minimum."};
static const struct family fam_binding = {
    "threadlab_cpu_budget_binding", FAMILY_GAUGE,
    "1 for the budget term that binds (sets the effective CPUs), 0 for the others."};
static const struct family fam_periods = {
    "threadlab_cgroup_cpu_cfs_periods", FAMILY_COUNTER,
    "CPU quota enforcement periods elapsed, from nr_periods of the cgroup's cpu.stat."};
static const struct family fam_throttled_periods = {
    "threadlab_cgroup_cpu_cfs_throttled_periods", FAMILY_COUNTER,
    "Periods in which the cgroup was throttled, from nr_throttled of its cpu.stat."};
static const struct family fam_throttled_seconds = {
    "threadlab_cgroup_cpu_cfs_throttled_seconds", FAMILY_COUNTER,
    "Time the cgroup was throttled, from throttled_time (v1) or throttled_usec (v2) of its "
    "cpu.stat."};
static const struct family fam_cgroup_psi = {
    "threadlab_cgroup_pressure_cpu_waiting_seconds", FAMILY_COUNTER,
    "Time some task of the cgroup waited for a CPU, from the some total of its cpu.pressure."};
static const struct family fam_psi = {
    "threadlab_pressure_cpu_waiting_seconds", FAMILY_COUNTER,
    "Time some task of the machine waited for a CPU, from the some total of "
    "/proc/pressure/cpu."};
static const struct family fam_runnable = {
    "threadlab_runnable_threads_mean", FAMILY_GAUGE,
    "Mean runnable threads of a target over the last interval: the sum over its threads of "
    "(run time + run-queue wait) / interval, from schedstat."};
static const struct family fam_ratio = {
    "threadlab_oversubscription_ratio", FAMILY_GAUGE,
    "Mean runnable threads over the effective CPUs, over the last interval: above 1 threads "
    "queue for a CPU."};
static const struct family fam_verdict = {
    "threadlab_verdict", FAMILY_GAUGE,
    "The diagnosis of a target as a state set: 1 for its verdict, 0 for the other states "
    "(threadlab(1), DIAGNOSIS)."};

static const struct family fam_progress = {
    "threadlab_progress_steps", FAMILY_COUNTER,
    "Steps of the job's progress counted from its output lines (--progress REGEX)."};
static const struct family fam_progress_rate = {
    "threadlab_progress_steps_per_second", FAMILY_GAUGE,
    "The job's progress rate over the last 2 s (--progress REGEX)."};

/* ---- writers ------------------------------------------------------------ */

static void metrics_targets(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	char name[512];
	metrics_expo_family(c, &fam_target);
	for (size_t i = 0; i < n; i++) {
		const struct session *s = t[i].s;
		session_target_comm(s, name, sizeof(name));
		metrics_expo_sample(c);
		metrics_expo_label_int(c, "pid", s->target);
		metrics_expo_label_str(c, "name", name);
		metrics_expo_label_str(c, "mode", t[i].mode);
		metrics_expo_label_str(c, "cgroup", s->model.budget.loc.path);
		metrics_expo_value(c, 1);
	}
}

/* The threads of one target that get series of their own: in each
 * process, the first max (lowest TIDs, the longest-lived: the series stay
 * put as threads come and go). */
static bool metrics_thread_shown(const struct model_sample *set, size_t i, size_t max)
{
	size_t first = i;
	while (first > 0 && set->threads[first - 1].pid == set->threads[i].pid)
		first--;
	return i - first < max;
}

static void metrics_thread_labels(struct metrics_ctx *c, const struct model_thread *x)
{
	metrics_expo_label_int(c, "pid", x->pid);
	metrics_expo_label_int(c, "tid", x->tid);
	metrics_expo_label(c, "name", x->name, x->name_len);
}

/* One series of thread x: field f's counter, labelled as f's family
 * tells its fields apart. */
static void metrics_thread_field(struct metrics_ctx *c, const struct thread_field *f,
				 const struct model_thread *x)
{
	metrics_expo_sample(c);
	metrics_thread_labels(c, x);
	if (f->metric_label)
		metrics_expo_label_str(c, f->metric_label, f->metric_label_value);
	if (f->metric->value == THREAD_FIELD_METRIC_COUNT)
		metrics_expo_uint(c, thread_field_metric_count(f, x));
	else
		metrics_expo_value(c, thread_field_metric_seconds(f, x));
}

/* Whether field k is the first of its metric family in the table. */
static bool metrics_family_first(size_t k)
{
	for (size_t j = 0; j < k; j++)
		if (thread_field_table[j].metric == thread_field_table[k].metric)
			return false;
	return true;
}

static void metrics_threads(struct metrics_ctx *c, const struct metrics_target *t, size_t n,
			    size_t max)
{
	/* The thread fields' families (thread-field.h), in the table's order,
	 * each whole: thread by thread, the series of each of its fields. */
	for (size_t f = 0; f < THREAD_FIELD_N; f++) {
		const struct thread_field_metric *m = thread_field_table[f].metric;
		if (!m || !metrics_family_first(f))
			continue;
		const struct family fam = {m->family, FAMILY_COUNTER, m->help};
		metrics_expo_family(c, &fam);
		for (size_t k = 0; k < n; k++) {
			const struct model_sample *set = &t[k].s->model;
			for (size_t i = 0; i < set->ncounted; i++) {
				if (!metrics_thread_shown(set, i, max))
					continue;
				for (size_t g = f; g < THREAD_FIELD_N; g++)
					if (thread_field_table[g].metric == m)
						metrics_thread_field(c, &thread_field_table[g],
								     &set->threads[i]);
			}
		}
	}
	metrics_expo_family(c, &fam_folded);
	for (size_t k = 0; k < n; k++) {
		const struct model_sample *set = &t[k].s->model;
		for (size_t i = 0, j; i < set->ncounted; i = j) {
			for (j = i;
			     j < set->ncounted && set->threads[j].pid == set->threads[i].pid;)
				j++;
			metrics_expo_sample(c);
			metrics_expo_label_int(c, "pid", set->threads[i].pid);
			metrics_expo_value(c, j - i > max ? (double)(j - i - max) : 0);
		}
	}
}

void metrics_group_labels(struct metrics_ctx *c, const struct thread_groups *groups, size_t i)
{
	const struct thread_group *g = &groups->v[i];
	unsigned same = 0;
	for (size_t j = i; j-- > 0 && groups->v[j].pid == g->pid;)
		same += metrics_expo_label_same(groups->v[j].stem, groups->v[j].stem_len, g->stem,
						g->stem_len);
	metrics_expo_label_int(c, "pid", g->pid);
	if (!same) {
		metrics_expo_label(c, "group", g->stem, g->stem_len);
		return;
	}
	char v[GROUP_STEM_MAX + 16];
	snprintf(v, sizeof(v), "%.*s #%u", (int)g->stem_len, g->stem, same + 1);
	metrics_expo_label(c, "group", v, strlen(v));
}

static void metrics_groups(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	metrics_expo_family(c, &fam_group_threads);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < t[k].s->groups.n; i++) {
			metrics_expo_sample(c);
			metrics_group_labels(c, &t[k].s->groups, i);
			metrics_expo_value(c, t[k].s->groups.v[i].threads);
		}
	metrics_expo_family(c, &fam_group_cpu);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < t[k].s->groups.n; i++) {
			const struct thread_group *g = &t[k].s->groups.v[i];
			metrics_expo_sample(c);
			metrics_group_labels(c, &t[k].s->groups, i);
			metrics_expo_label_str(c, "mode", "user");
			metrics_expo_value(c, g->user_s);
			metrics_expo_sample(c);
			metrics_group_labels(c, &t[k].s->groups, i);
			metrics_expo_label_str(c, "mode", "system");
			metrics_expo_value(c, g->system_s);
		}
	metrics_expo_family(c, &fam_group_wait);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < t[k].s->groups.n; i++) {
			metrics_expo_sample(c);
			metrics_group_labels(c, &t[k].s->groups, i);
			metrics_expo_value(c, t[k].s->groups.v[i].wait_s);
		}
}

static void metrics_budget(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	static const char *const terms[] = {"online", "affinity", "cpuset", "quota"};
	metrics_expo_family(c, &fam_budget);
	for (size_t k = 0; k < n; k++) {
		const struct model_budget *b = &t[k].s->model.budget;
		double v[] = {b->online, b->affinity, b->cpuset, b->quota.cpus};
		for (size_t i = 0; i < 4; i++) {
			if (i < 3 ? v[i] <= 0 : v[i] < 0)
				continue; /* not known, or no quota */
			metrics_expo_sample(c);
			metrics_expo_label_int(c, "pid", t[k].s->target);
			metrics_expo_label_str(c, "term", terms[i]);
			metrics_expo_value(c, v[i]);
		}
		if (b->effective > 0) {
			metrics_expo_sample(c);
			metrics_expo_label_int(c, "pid", t[k].s->target);
			metrics_expo_label_str(c, "term", "effective");
			metrics_expo_value(c, b->effective);
		}
	}
	metrics_expo_family(c, &fam_binding);
	for (size_t k = 0; k < n; k++) {
		const struct model_budget *b = &t[k].s->model.budget;
		double v[] = {b->online, b->affinity, b->cpuset, b->quota.cpus};
		for (size_t i = 0; i < 4 && b->effective > 0; i++) {
			if (i < 3 ? v[i] <= 0 : v[i] < 0)
				continue;
			metrics_expo_sample(c);
			metrics_expo_label_int(c, "pid", t[k].s->target);
			metrics_expo_label_str(c, "term", terms[i]);
			metrics_expo_value(c, (int)b->binding == (int)i);
		}
	}
}

/* The cgroup path of a sample's cpu.stat directory, as /proc/PID/cgroup
 * writes paths: the directory less its hierarchy's mount point. */
static const char *metrics_cgroup(const struct model_sample *s)
{
	const char *mount = s->budget.loc.mount_dir;
	size_t ml = strlen(mount);
	if (ml && strncmp(s->stat_dir, mount, ml) == 0 &&
	    (s->stat_dir[ml] == '/' || !s->stat_dir[ml]))
		return s->stat_dir[ml] ? s->stat_dir + ml : "/";
	return s->budget.loc.path[0] ? s->budget.loc.path : "/";
}

/* Whether target k is the first whose cgroup is this one (a cgroup's
 * series are written once). */
static bool metrics_cgroup_first(const struct metrics_target *t, size_t k)
{
	const char *mine = metrics_cgroup(&t[k].s->model);
	for (size_t i = 0; i < k; i++)
		if (strcmp(metrics_cgroup(&t[i].s->model), mine) == 0)
			return false;
	return true;
}

enum cgroup_figure { CG_PERIODS, CG_THROTTLED, CG_THROTTLED_S, CG_PSI };

static void metrics_cgroup_family(struct metrics_ctx *c, const struct family *fam,
				  const struct metrics_target *t, size_t n, enum cgroup_figure what)
{
	metrics_expo_family(c, fam);
	for (size_t k = 0; k < n; k++) {
		const struct model_sample *s = &t[k].s->model;
		bool have = what == CG_PSI ? s->psi_cgroup.available
					   : s->has_cpustat && s->cpustat.has_periods;
		if (!have || !metrics_cgroup_first(t, k))
			continue;
		metrics_expo_sample(c);
		metrics_expo_label_str(c, "cgroup", metrics_cgroup(s));
		if (what == CG_PERIODS)
			metrics_expo_uint(c, (unsigned long long)s->cpustat.nr_periods);
		else if (what == CG_THROTTLED)
			metrics_expo_uint(c, (unsigned long long)s->cpustat.nr_throttled);
		else if (what == CG_THROTTLED_S)
			metrics_expo_value(c, s->cpustat.throttled_s);
		else
			metrics_expo_value(c, (double)s->psi_cgroup.some_total_us / 1e6);
	}
}

static void metrics_cgroups(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	metrics_cgroup_family(c, &fam_periods, t, n, CG_PERIODS);
	metrics_cgroup_family(c, &fam_throttled_periods, t, n, CG_THROTTLED);
	metrics_cgroup_family(c, &fam_throttled_seconds, t, n, CG_THROTTLED_S);
	metrics_cgroup_family(c, &fam_cgroup_psi, t, n, CG_PSI);
	metrics_expo_family(c, &fam_psi);
	for (size_t k = 0; k < n; k++)
		if (t[k].s->model.psi_system.available) {
			metrics_expo_sample(c); /* the machine's: once */
			metrics_expo_value(c, (double)t[k].s->model.psi_system.some_total_us / 1e6);
			break;
		}
}

static void metrics_diagnosis(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	metrics_expo_family(c, &fam_runnable);
	for (size_t k = 0; k < n; k++)
		if (t[k].s->have_rates) {
			metrics_expo_sample(c);
			metrics_expo_label_int(c, "pid", t[k].s->target);
			metrics_expo_value(c, t[k].s->runnable_mean);
		}
	metrics_expo_family(c, &fam_ratio);
	for (size_t k = 0; k < n; k++)
		if (t[k].s->have_rates && t[k].s->model.budget.effective > 0) {
			metrics_expo_sample(c);
			metrics_expo_label_int(c, "pid", t[k].s->target);
			metrics_expo_value(c, demand_factor(t[k].s->runnable_mean,
							    t[k].s->model.budget.effective));
		}
	metrics_expo_family(c, &fam_verdict);
	for (size_t k = 0; k < n; k++)
		for (int v = 0; t[k].s->have_diag && v < VERDICT_N; v++) {
			metrics_expo_sample(c);
			metrics_expo_label_int(c, "pid", t[k].s->target);
			metrics_expo_label_str(c, "verdict",
					       diagnosis_verdict_name((enum verdict)v));
			metrics_expo_value(c, t[k].s->diag.verdict == (enum verdict)v);
		}
}

/* The job's own progress, for the targets that count it. */
static void metrics_progress(struct metrics_ctx *c, const struct metrics_target *t, size_t n)
{
	metrics_expo_family(c, &fam_progress);
	for (size_t k = 0; k < n; k++)
		if (t[k].s->progress.on) {
			metrics_expo_sample(c);
			metrics_expo_label_int(c, "pid", t[k].s->target);
			metrics_expo_value(c, t[k].s->progress.count);
		}
	metrics_expo_family(c, &fam_progress_rate);
	for (size_t k = 0; k < n; k++)
		if (t[k].s->progress.on && t[k].s->progress.rate >= 0) {
			metrics_expo_sample(c);
			metrics_expo_label_int(c, "pid", t[k].s->target);
			metrics_expo_value(c, t[k].s->progress.rate);
		}
}

int metrics_write(FILE *f, enum metrics_format fmt, const struct metrics_target *t, size_t n,
		  const struct metrics_opts *o)
{
	struct metrics_ctx c;
	size_t max = o->max_threads;
	if (metrics_expo_begin(&c, f, fmt) < 0)
		return -ENOMEM;
	metrics_targets(&c, t, n);
	metrics_expo_family(&c, &fam_samples);
	metrics_expo_sample(&c);
	metrics_expo_uint(&c, o->samples);
	metrics_threads(&c, t, n, max);
	metrics_groups(&c, t, n);
	metrics_latency(&c, t, n);
	metrics_budget(&c, t, n);
	metrics_cgroups(&c, t, n);
	metrics_diagnosis(&c, t, n);
	metrics_lab(&c, t, n);
	metrics_progress(&c, t, n);
	return metrics_expo_end(&c);
}

const char *metrics_mode(const struct session *s)
{
	switch (s->kind) {
	case SESSION_LAB:
		return "lab";
	case SESSION_LAUNCH:
		return "command";
	case SESSION_ATTACH:
		break;
	}
	return "attach";
}
