/* sampler.c — one tick of every collector for one target.
 *
 * The sampler owns a thread sampler and a per-CPU sampler; each tick it
 * re-reads the budget (a quota can change while we watch), the cpu.stat of
 * the cgroup that throttles (the one whose quota binds, else the target's
 * own, or the lab's quota cgroup when overridden), both pressure files, the
 * threads and the CPUs. */
#include "config.h"

#include "sampler.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xalloc.h"
#include "clock.h"
#include "bpf-threads.h"
#include "cgroup-read.h"
#include "procparse.h"
#include "thread-sampler.h"
#include "thread-set.h"

struct sampler {
	const struct sysroot *root;
	pid_t pid;
	struct thread_sampler *ts;
	struct cpus_sampler *cs;
	char override_dir[CGROUP_PATH_MAX]; /* "" when not overridden */
	int override_version;
	struct budget last_budget;
	bool have_budget;
	struct budget_where where; /* the target's cgroups, located again every few s */
	struct bpf_threads *bt;	   /* the BPF path, or NULL: /proc */
	bool tree;
	double detail_period; /* s, for the BPF path as for /proc */
};

/* How old the cgroups' location may grow (budget.h): a process moved to
 * another cgroup shows within this. */
#define SAMPLER_LOCATE_AGE 2.0

struct sampler *sampler_new(const struct sysroot *r, pid_t pid, bool tree)
{
	struct sampler *s = xcalloc(1, sizeof(*s));
	s->root = r;
	s->pid = pid;
	s->tree = tree;
	s->ts = thread_sampler_new(r, pid, tree);
	if (!s->ts) {
		int e = errno;
		free(s);
		errno = e;
		return NULL;
	}
	/* Per-CPU figures are the machine's own: only meaningful live. */
	s->cs = r->live ? cpus_sampler_new() : NULL;
	return s;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	thread_sampler_free(s->ts);
	bpf_threads_free(s->bt);
	cpus_sampler_free(s->cs);
	free(s);
}

void sampler_set_cgroup_override(struct sampler *s, const char *dir, int version)
{
	if (strcmp(s->override_dir, dir ? dir : "") != 0)
		s->where.valid = false; /* the lab moved its workload */
	snprintf(s->override_dir, sizeof(s->override_dir), "%s", dir ? dir : "");
	s->override_version = version;
}

void sampler_set_detail_period(struct sampler *s, double seconds)
{
	thread_sampler_set_stat_period(s->ts, 2 * seconds);
	thread_sampler_set_sched_period(s->ts, seconds);
	s->detail_period = seconds;
	if (s->bt)
		bpf_threads_set_period(s->bt, seconds);
}

void sampler_want(struct sampler *s, const pid_t *tids, size_t n)
{
	thread_sampler_want(s->ts, tids, n);
	if (s->bt)
		bpf_threads_want(s->bt, tids, n);
}

int sampler_use_bpf(struct sampler *s, struct bpf_tasks *b)
{
	if (!s->root->live)
		return -ENOTSUP;
	struct bpf_threads *bt = bpf_threads_new(b, s->pid, s->tree, false);
	if (!bt)
		return -errno;
	bpf_threads_free(s->bt);
	s->bt = bt;
	bpf_threads_set_period(bt, s->detail_period);
	return 0;
}

/* The threads through the BPF path, or /proc when that read fails. */
static int sampler_threads(struct sampler *s, struct snapshot *out)
{
	out->path_note[0] = '\0';
	if (s->bt) {
		int rc = bpf_threads_sample(s->bt, clock_seconds(CLOCK_MONOTONIC), &out->threads);
		if (rc == 0 || rc == -ESRCH) {
			out->path = SNAPSHOT_BPF;
			return rc;
		}
		if (rc == -ENOENT)
			snprintf(out->path_note, sizeof(out->path_note),
				 "the BPF task iterator does not show process %d: threads from "
				 "/proc, no run-queue latency",
				 (int)s->pid);
		else
			snprintf(out->path_note, sizeof(out->path_note),
				 "the BPF read failed (%s): threads from /proc from now on, no "
				 "run-queue latency",
				 strerror(-rc));
		bpf_threads_free(s->bt);
		s->bt = NULL;
	}
	out->path = SNAPSHOT_PROC;
	return thread_sampler_sample(s->ts, &out->threads);
}

/* On /proc, each process's run as its stat line counts it (threads that
 * ended included), for processes of at most SAMPLER_PROC_RUN_THREADS
 * threads: the kernel sums every thread at each read of that line
 * (10,000 threads: several ms). */
static void sampler_proc_run(struct sampler *s, struct thread_set *set)
{
	uint64_t tick = 1000000000u / (uint64_t)clock_ticks_per_s();
	for (size_t i = 0, j, at; i < set->n; i = j) {
		j = thread_set_process(set, i, &at);
		if (at == SIZE_MAX || j - i > SAMPLER_PROC_RUN_THREADS)
			continue;
		struct thread_sample *lead = &set->v[at];
		char rel[48], buf[1024];
		struct stat_line st;
		snprintf(rel, sizeof(rel), "proc/%d/stat", (int)lead->pid);
		ssize_t n = sysroot_read(s->root, rel, buf, sizeof(buf));
		if (n > 0 && procparse_stat_line(buf, (size_t)n, &st) == 0 &&
		    st.starttime == lead->starttime) {
			lead->proc_run_ns = (st.utime + st.stime) * tick;
			lead->proc_child_ns = (st.cutime + st.cstime) * tick;
			lead->ppid = st.ppid;
		}
	}
}

static void sampler_cgroup(struct sampler *s, struct snapshot *out)
{
	const struct budget *b = &out->budget;
	char rel[CGROUP_PATH_MAX + 32];
	int version = b->loc.version;

	/* Throttling is read where the quota binds: an ancestor tighter than
	 * the cgroup the target is in (or the lab put it in) throttles it, and
	 * its own cpu.stat counts nothing of that. */
	size_t ql = strlen(b->quota.dir);
	const char *own = s->override_dir[0] ? s->override_dir : b->loc.dir;
	bool above =
	    b->quota.cpus > 0 && ql && strncmp(own, b->quota.dir, ql) == 0 && own[ql] == '/';
	out->stat_name[0] = '\0';
	if (above) {
		snprintf(out->stat_dir, sizeof(out->stat_dir), "%s", b->quota.dir);
		size_t ml = strlen(b->loc.mount_dir);
		const char *name = strncmp(b->quota.dir, b->loc.mount_dir, ml) == 0
				       ? b->quota.dir + ml
				       : b->quota.dir;
		snprintf(out->stat_name, sizeof(out->stat_name), "%s%s", name[0] == '/' ? "" : "/",
			 name);
	} else if (s->override_dir[0]) {
		snprintf(out->stat_dir, sizeof(out->stat_dir), "%s", s->override_dir);
		version = s->override_version;
	} else if (b->quota.cpus > 0 && b->quota.dir[0]) {
		snprintf(out->stat_dir, sizeof(out->stat_dir), "%s", b->quota.dir);
	} else {
		snprintf(out->stat_dir, sizeof(out->stat_dir), "%s", b->loc.dir);
	}
	out->has_cpustat = out->stat_dir[0] &&
			   cgroup_read_cpustat(s->root, out->stat_dir, version, &out->cpustat) == 0;

	/* Pressure lives only on the unified hierarchy.  Where the cpu
	 * controller is on v1 the cgroup shown has none: a hybrid host's
	 * unified cgroup is another grouping, and at its root it is the
	 * system's figure, never to be shown as the cgroup's. */
	const char *psi_dir = NULL;
	out->psi_cgroup_why = PSI_WHY_NONE;
	if (s->override_dir[0]) {
		if (s->override_version == 2)
			psi_dir = s->override_dir;
		else
			out->psi_cgroup_why = PSI_WHY_V1;
	} else {
		psi_dir = cgroup_read_psi_dir(s->root, &b->loc, &out->psi_cgroup_why);
	}
	memset(&out->psi_cgroup, 0, sizeof(out->psi_cgroup));
	if (psi_dir) {
		snprintf(rel, sizeof(rel), "%s/cpu.pressure", psi_dir);
		cgroup_read_psi(s->root, rel, &out->psi_cgroup);
	}
	cgroup_read_psi(s->root, "proc/pressure/cpu", &out->psi_system);
}

int sampler_sample(struct sampler *s, struct snapshot *out)
{
	thread_set_clear(&out->threads); /* its arrays, if any, are filled again */
	out->time = clock_seconds(CLOCK_MONOTONIC);
	out->wall = clock_seconds(CLOCK_REALTIME);
	out->boot = clock_seconds(CLOCK_BOOTTIME);

	int rc = budget_read_where(s->root, s->pid, &s->where, out->time, SAMPLER_LOCATE_AGE,
				   &out->budget);
	if (rc == 0) {
		s->last_budget = out->budget;
		s->have_budget = true;
	} else if (s->have_budget) {
		out->budget = s->last_budget;
	} else {
		memset(&out->budget, 0, sizeof(out->budget));
	}
	sampler_cgroup(s, out);
	if (s->cs)
		cpus_sample(s->cs, &out->cpus);
	else
		out->cpus.n = 0;

	rc = sampler_threads(s, out);
	if (out->path == SNAPSHOT_PROC)
		sampler_proc_run(s, &out->threads);
	/* Without the tree its children are not the target's: what the
	 * target reaps of them (their whole life, run before too) is not. */
	for (size_t i = 0; !s->tree && i < out->threads.n; i++)
		out->threads.v[i].proc_child_ns = 0;
	out->target_alive = rc == 0;
	return rc == 0 ? 0 : -ESRCH;
}
