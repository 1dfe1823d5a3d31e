/* activity.c — what each thread is doing (activity.h). */
#include "config.h"

#include "activity-impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocked.h"
#include "ipsample.h"
#include "xalloc.h"

#define ACTIVITY_BUSY_PCT   10.0 /* a thread this busy has its IPs sampled */
#define ACTIVITY_MIN_IPS    3	 /* samples needed to judge an interval */
#define ACTIVITY_IPBUF	    1024
#define ACTIVITY_RANGES_MAX 16

static const char *const activity_names[ACTIVITY_N] = {
    [ACTIVITY_NONE] = "",
    [ACTIVITY_COMPUTE] = "compute",
    [ACTIVITY_SPIN] = "spin",
    [ACTIVITY_POOL_IDLE] = "pool-idle",
    [ACTIVITY_INPUT_WAIT] = "input-wait",
    [ACTIVITY_IO] = "io",
    [ACTIVITY_SLEEP] = "sleep",
    [ACTIVITY_WAITING_CPU] = "waiting-cpu",
};

const char *activity_name(int a)
{
	return a >= 0 && a < ACTIVITY_N ? activity_names[a] : "";
}

const char *activity_short(int a)
{
	static const char *const shorts[ACTIVITY_N] = {
	    [ACTIVITY_NONE] = "",	  [ACTIVITY_COMPUTE] = "cpu",
	    [ACTIVITY_SPIN] = "spin",	  [ACTIVITY_POOL_IDLE] = "pool",
	    [ACTIVITY_INPUT_WAIT] = "in", [ACTIVITY_IO] = "io",
	    [ACTIVITY_SLEEP] = "slp",	  [ACTIVITY_WAITING_CPU] = "wcpu",
	};
	return a >= 0 && a < ACTIVITY_N ? shorts[a] : "";
}

enum activity activity_of_name(const char *name)
{
	for (int a = 1; a < ACTIVITY_N; a++)
		if (strcmp(name, activity_names[a]) == 0)
			return (enum activity)a;
	return ACTIVITY_NONE;
}

size_t activity_summary(const int *counts, char *out, size_t cap)
{
	bool done[ACTIVITY_N] = {false};
	size_t o = 0;
	if (cap)
		out[0] = '\0';
	for (;;) {
		int best = 0;
		for (int a = 1; a < ACTIVITY_N; a++)
			if (!done[a] && counts[a] > 0 && (!best || counts[a] > counts[best]))
				best = a;
		if (!best)
			break;
		done[best] = true;
		int n = snprintf(out + o, cap - o, "%s%d %s", o ? ", " : "", counts[best],
				 activity_names[best]);
		if (n < 0 || (size_t)n >= cap - o)
			break;
		o += (size_t)n;
	}
	return o;
}

enum activity activity_major(const double *seconds)
{
	/* Waiting for a CPU is what a thread does only when it waited at least
	 * twice as long as it did anything else: a busy thread on a shared
	 * CPU still computes (or spins) when it runs. */
	int best = ACTIVITY_NONE;
	double most = 0;
	for (int a = 1; a < ACTIVITY_N; a++) {
		double s = a == ACTIVITY_WAITING_CPU ? seconds[a] / 2 : seconds[a];
		if (seconds[a] > 1e-9 && (best == ACTIVITY_NONE || s > most)) {
			best = a;
			most = s;
		}
	}
	return (enum activity)best;
}

static enum activity activity_of_blocked(enum blocked_kind k)
{
	switch (k) {
	case BLOCKED_FUTEX:
		return ACTIVITY_POOL_IDLE;
	case BLOCKED_INPUT:
		return ACTIVITY_INPUT_WAIT;
	case BLOCKED_IO:
		return ACTIVITY_IO;
	case BLOCKED_SLEEP:
	case BLOCKED_UNKNOWN:
		break;
	}
	return ACTIVITY_SLEEP;
}

void activity_split(const struct thread_rate *r, double dt, double spin_share,
		    enum activity blocked, double *out)
{
	if (r->is_new || r->is_reset || dt <= 0)
		return;
	double run = r->cpu_pct / 100.0 * dt, wait = r->wait_pct / 100.0 * dt;
	double rest = dt - run - wait;
	if (spin_share < 0)
		spin_share = 0;
	if (spin_share > 1)
		spin_share = 1;
	out[ACTIVITY_COMPUTE] += run * (1 - spin_share);
	out[ACTIVITY_SPIN] += run * spin_share;
	out[ACTIVITY_WAITING_CPU] += wait;
	if (rest > 0)
		out[blocked] += rest;
}

struct act_thread {
	pid_t pid, tid;
	uint64_t starttime;
	enum blocked_kind blocked; /* the last wait it was seen in */
	uint64_t run_ns, slices;   /* schedstat when last looked at */
	bool looked;
	double looked_at; /* the set's time when last looked at */
	bool watched;
	double spin; /* the share of its run time spent spinning, last judged */
};

struct act_proc {
	pid_t pid;
	uint64_t ranges[ACTIVITY_RANGES_MAX][2];
	size_t n;
	bool openblas_pthreads;
};

struct activity_tracker {
	struct sysroot root;
	struct act_thread *v; /* sorted by (pid, tid) */
	size_t n, cap;
	struct act_proc *p;
	size_t np, pcap;
	pid_t supervisor;     /* activity_tracker_supervisor */
	struct ipsample *ips; /* NULL: not sampling */
	uint64_t ipbuf[ACTIVITY_IPBUF];
};

void activity_tracker_supervisor(struct activity_tracker *t, pid_t pid)
{
	t->supervisor = pid;
}

struct activity_tracker *activity_tracker_new(const struct sysroot *r, bool sample_ips)
{
	struct activity_tracker *t = xcalloc(1, sizeof(*t));
	t->root = *r;
	if (sample_ips && r->live)
		t->ips = ipsample_new();
	return t;
}

void activity_tracker_free(struct activity_tracker *t)
{
	if (!t)
		return;
	ipsample_free(t->ips);
	free(t->v);
	free(t->p);
	free(t);
}

bool activity_tracker_samples_ips(const struct activity_tracker *t)
{
	return t->ips != NULL;
}

static struct act_proc *activity_proc(struct activity_tracker *t, pid_t pid)
{
	for (size_t i = 0; i < t->np; i++)
		if (t->p[i].pid == pid)
			return &t->p[i];
	return NULL;
}

void activity_tracker_runtime(struct activity_tracker *t, pid_t pid, const uint64_t *ranges,
			      size_t n, bool openblas_pthreads)
{
	struct act_proc *p = activity_proc(t, pid);
	if (!p) {
		t->p = xreallocarray_grow(t->p, &t->pcap, t->np + 1, sizeof(*t->p));
		p = &t->p[t->np++];
		memset(p, 0, sizeof(*p));
		p->pid = pid;
	}
	p->n = n < ACTIVITY_RANGES_MAX ? n : ACTIVITY_RANGES_MAX;
	memcpy(p->ranges, ranges, p->n * 2 * sizeof(uint64_t));
	p->openblas_pthreads = openblas_pthreads;
}

static bool activity_in_ranges(const struct act_proc *p, uint64_t ip)
{
	for (size_t i = 0; i < p->n; i++)
		if (ip >= p->ranges[i][0] && ip < p->ranges[i][1])
			return true;
	return false;
}

/* The share of x's run time that was spin this interval. */
static double activity_spin(struct activity_tracker *t, struct act_thread *x,
			    const struct act_proc *p, const struct thread_rate *r)
{
	double spin = 0;
	/* The pthreads OpenBLAS pool spins on sched_yield: system time with
	 * no voluntary switch. */
	if (p && p->openblas_pthreads && r->cpu_pct >= ACTIVITY_BUSY_PCT &&
	    r->sys_pct >= 0.5 * r->cpu_pct && r->vcsw_per_s < 10)
		spin = 1;
	if (!t->ips || !p || p->n == 0)
		return spin;
	if (!x->watched && r->cpu_pct >= ACTIVITY_BUSY_PCT) {
		int rc = ipsample_watch(t->ips, x->tid);
		x->watched = rc == 0 || rc == -EEXIST;
		if (rc == -EACCES || rc == -EPERM || rc == -ENOENT || rc == -ENOSYS ||
		    rc == -EOPNOTSUPP) {
			ipsample_free(t->ips); /* not allowed here: system time alone tells */
			t->ips = NULL;
			for (size_t i = 0; i < t->n; i++)
				t->v[i].watched = false;
			x->watched = false;
			return spin;
		}
		return spin; /* samples from the next interval on */
	}
	if (!x->watched)
		return spin;
	ssize_t n = ipsample_read(t->ips, x->tid, t->ipbuf, ACTIVITY_IPBUF, NULL);
	if (n >= ACTIVITY_MIN_IPS) {
		size_t in = 0;
		for (ssize_t i = 0; i < n; i++)
			in += activity_in_ranges(p, t->ipbuf[i]);
		x->spin = (double)in / (double)n;
	} else if (n >= 0 && r->cpu_pct < 5) {
		x->spin = 0;
	}
	return x->spin > spin ? x->spin : spin;
}

static int activity_cmp(const struct thread_sample *a, const struct act_thread *b)
{
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

void activity_tracker_tick(struct activity_tracker *t, const struct thread_set *prev,
			   const struct thread_set *cur, struct snapshot_rates *rates,
			   double *out_seconds)
{
	(void)prev;
	size_t n = cur->n < rates->nthreads ? cur->n : rates->nthreads;
	struct act_thread *next = xcalloc(n + 1, sizeof(*next));
	size_t k = 0, reads = 0;
	/* The reads this tick may take: ACTIVITY_READS_PER_S over the
	 * interval, at least one. */
	double share = rates->dt > 0 && rates->dt < 1 ? rates->dt : 1;
	size_t budget = (size_t)(ACTIVITY_READS_PER_S * share + 0.5);
	if (budget < 1)
		budget = 1;
	for (size_t i = 0; i < n; i++) {
		const struct thread_sample *s = &cur->v[i];
		struct thread_rate *r = &rates->threads[i];
		while (k < t->n && activity_cmp(s, &t->v[k]) > 0) {
			if (t->v[k].watched && t->ips)
				ipsample_unwatch(t->ips, t->v[k].tid); /* ended */
			k++;
		}
		struct act_thread *x = &next[i];
		if (k < t->n && activity_cmp(s, &t->v[k]) == 0 &&
		    t->v[k].starttime == s->starttime) {
			*x = t->v[k++];
		} else {
			if (k < t->n && activity_cmp(s, &t->v[k]) == 0) {
				if (t->v[k].watched && t->ips)
					ipsample_unwatch(t->ips, t->v[k].tid); /* a reused TID */
				k++;
			}
			memset(x, 0, sizeof(*x));
			x->pid = s->pid;
			x->tid = s->tid;
			x->starttime = s->starttime;
		}
		bool due = !x->looked || ((s->run_ns != x->run_ns || s->slices != x->slices) &&
					  cur->time - x->looked_at >= ACTIVITY_LOOK_S);
		if (s->state == 'D') {
			x->blocked = BLOCKED_IO;
		} else if (due && reads < budget) {
			enum blocked_kind b = blocked_read(&t->root, s->pid, s->tid, s->state);
			if (b == BLOCKED_INPUT && s->pid == t->supervisor)
				b = BLOCKED_SLEEP;
			reads++;
			if (b != BLOCKED_UNKNOWN)
				x->blocked = b;
			x->looked = true;
			x->looked_at = cur->time;
			x->run_ns = s->run_ns;
			x->slices = s->slices;
		}
		double spin = activity_spin(t, x, activity_proc(t, s->pid), r);
		double secs[ACTIVITY_N] = {0};
		activity_split(r, rates->dt, spin, activity_of_blocked(x->blocked), secs);
		r->activity = (unsigned char)activity_major(secs);
		r->input_wait_pct =
		    rates->dt > 0 ? 100.0 * secs[ACTIVITY_INPUT_WAIT] / rates->dt : 0;
		if (out_seconds)
			memcpy(out_seconds + i * ACTIVITY_N, secs, sizeof(secs));
	}
	for (; k < t->n; k++)
		if (t->v[k].watched && t->ips)
			ipsample_unwatch(t->ips, t->v[k].tid);
	free(t->v);
	t->v = next;
	t->n = n;
	t->cap = n + 1;
	/* processes gone: forget their runtimes */
	size_t kept = 0;
	for (size_t i = 0; i < t->np; i++) {
		bool alive = false;
		for (size_t j = 0; j < n && !alive; j++)
			alive = cur->v[j].pid == t->p[i].pid;
		if (alive)
			t->p[kept++] = t->p[i];
	}
	t->np = kept;
}
