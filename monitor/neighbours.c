/* neighbours.c — the machine beside a target over a window (neighbours.h). */
#include "config.h"

#include "neighbours-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* One process's seconds over a half window. */
struct neigh_acc {
	pid_t pid, ppid;
	uint64_t starttime;
	char name[TASK_NAME_MAX];
	size_t name_len;
	char cgroup[NEIGHBOUR_CGROUP_MAX];
	double cpu_s, wait_s;
	uint8_t ran_on[MACHINE_SET_BYTES];
};

struct neigh_half {
	struct neigh_acc *v; /* sorted by (pid, starttime) */
	size_t n, cap;
	double seconds;	     /* intervals summed */
	double busy_s;	     /* proc/stat busy CPU seconds over busy_seconds */
	double busy_seconds; /* intervals with a proc/stat reading at both ends */
};

void neighbours_init(struct neighbours *n, double window)
{
	memset(n, 0, sizeof(*n));
	n->length = window;
	n->started = -1;
	n->old = xcalloc(1, sizeof(*n->old));
	n->cur = xcalloc(1, sizeof(*n->cur));
	machine_sample_init(&n->sample);
}

void neighbours_borrow(struct neighbours *n, const struct neighbours *from)
{
	if (n->ms || !from->ms)
		return;
	n->ms = from->ms;
	n->ms_lent = true;
}

void neighbours_free(struct neighbours *n)
{
	if (!n->ms_lent)
		machine_sampler_free(n->ms);
	machine_sample_free(&n->sample);
	if (n->old)
		free(n->old->v);
	if (n->cur)
		free(n->cur->v);
	free(n->old);
	free(n->cur);
	memset(n, 0, sizeof(*n));
}

static int neigh_cmp(pid_t pid, uint64_t start, const struct neigh_acc *b)
{
	if (pid != b->pid)
		return pid < b->pid ? -1 : 1;
	return start < b->starttime ? -1 : start > b->starttime;
}

/* Adds the sample's processes with rates into half h (both sorted). */
static void neigh_half_add(struct neigh_half *h, const struct machine_sample *s)
{
	struct neigh_acc *out = xmalloc((h->n + s->n + 1) * sizeof(*out));
	size_t i = 0, k = 0, n = 0;
	while (i < h->n || k < s->n) {
		const struct machine_proc *p = k < s->n ? &s->v[k] : NULL;
		int c = !p ? -1 : i >= h->n ? 1 : -neigh_cmp(p->pid, p->starttime, &h->v[i]);
		if (c < 0) {
			out[n++] = h->v[i++]; /* ended: its seconds stay */
			continue;
		}
		k++;
		if (p->is_new)
			continue; /* no rates yet */
		struct neigh_acc *x = &out[n++];
		if (c == 0) {
			*x = h->v[i++];
		} else {
			memset(x, 0, sizeof(*x));
			x->pid = p->pid;
			x->starttime = p->starttime;
		}
		x->ppid = p->ppid;
		memcpy(x->name, p->name, sizeof(x->name));
		x->name_len = p->name_len;
		/* a longer path is cut: enough to name a unit or a pod */
		size_t cl = strnlen(p->cgroup, sizeof(x->cgroup) - 1);
		memcpy(x->cgroup, p->cgroup, cl);
		x->cgroup[cl] = '\0';
		x->cpu_s += p->cpus * s->dt;
		x->wait_s += p->wait * s->dt;
		for (size_t b = 0; b < MACHINE_SET_BYTES; b++)
			x->ran_on[b] |= p->ran_on[b];
	}
	free(h->v);
	h->v = out;
	h->n = n;
	h->cap = n;
	h->seconds += s->dt;
	if (s->busy_valid) {
		h->busy_s += s->busy_cpus * s->dt;
		h->busy_seconds += s->dt;
	}
}

static void neigh_half_clear(struct neigh_half *h)
{
	h->n = 0;
	h->seconds = h->busy_s = h->busy_seconds = 0;
}

bool neighbours_due(const struct neighbours *n, double now)
{
	double period = NEIGHBOURS_PERIOD_S;
	if (n->first_period > 0 && n->ms && n->sample.dt <= 0)
		period = n->first_period; /* the baseline is the last sample */
	return !n->failed && !(n->last > 0 && now - n->last < period - NEIGHBOURS_SLACK_S);
}

bool neighbours_tick(struct neighbours *n, const struct sysroot *r, const struct thread_set *known,
		     double now)
{
	if (!neighbours_due(n, now))
		return false;
	if (!n->ms && !(n->ms = machine_sampler_new(r))) {
		n->failed = true;
		return false;
	}
	machine_sampler_known(n->ms, known);
	if (machine_sample(n->ms, now, &n->sample) < 0)
		return false;
	n->last = now;
	n->online = n->sample.online;
	if (n->sample.dt <= 0)
		return true; /* the baseline */
	if (n->started < 0)
		n->started = now;
	if (n->length <= 0 || now - n->started >= n->length / 2) {
		struct neigh_half *t = n->old;
		n->old = n->cur;
		n->cur = t;
		neigh_half_clear(n->cur);
		if (n->length <= 0)
			neigh_half_clear(n->old);
		n->started = now;
	}
	neigh_half_add(n->cur, &n->sample);
	return true;
}

/* Both halves merged into *out (sorted by pid, starttime); returns the count. */
static size_t neigh_merge(const struct neighbours *n, struct neigh_acc **out)
{
	const struct neigh_half *a = n->old, *b = n->cur;
	*out = xmalloc((a->n + b->n + 1) * sizeof(**out));
	size_t i = 0, k = 0, m = 0;
	while (i < a->n || k < b->n) {
		int c = i >= a->n   ? 1
			: k >= b->n ? -1
				    : neigh_cmp(a->v[i].pid, a->v[i].starttime, &b->v[k]);
		struct neigh_acc *x = &(*out)[m++];
		if (c < 0) {
			*x = a->v[i++];
		} else if (c > 0) {
			*x = b->v[k++];
		} else {
			*x = b->v[k]; /* the newer name and cgroup */
			x->cpu_s += a->v[i].cpu_s;
			x->wait_s += a->v[i].wait_s;
			for (size_t q = 0; q < MACHINE_SET_BYTES; q++)
				x->ran_on[q] |= a->v[i].ran_on[q];
			i++;
			k++;
		}
	}
	return m;
}

static const struct neigh_acc *neigh_find(const struct neigh_acc *v, size_t n, pid_t pid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid].pid == pid)
			return &v[mid];
		if (v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool neigh_in(const pid_t *pids, size_t n, pid_t pid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (pids[mid] == pid)
			return true;
		if (pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Whether p descends from target (through the processes of the window). */
static bool neigh_descends(const struct neigh_acc *v, size_t n, const struct neigh_acc *p,
			   pid_t target)
{
	for (int depth = 0; p && depth < 64; depth++) {
		if (p->ppid == target)
			return true;
		if (p->ppid <= 1)
			return false;
		p = neigh_find(v, n, p->ppid);
	}
	return false;
}

static bool neigh_shares(const uint8_t *a, const uint8_t *cpus)
{
	bool any = false;
	for (size_t i = 0; i < MACHINE_SET_BYTES; i++) {
		any |= cpus[i] != 0;
		if (a[i] & cpus[i])
			return true;
	}
	return !any; /* the target's CPUs unknown: any CPU is shared */
}

/* Ranks x into the top list: sharing ones first, then by CPU taken. */
static void neigh_rank(struct machine_view *v, const struct neighbour *x)
{
	size_t at = v->n;
	while (at > 0) {
		const struct neighbour *o = &v->top[at - 1];
		bool before =
		    x->shares_cpus != o->shares_cpus ? x->shares_cpus : x->cpus_used > o->cpus_used;
		if (!before)
			break;
		at--;
	}
	if (at >= NEIGHBOURS_TOP)
		return;
	size_t last = v->n < NEIGHBOURS_TOP ? v->n : NEIGHBOURS_TOP - 1;
	memmove(&v->top[at + 1], &v->top[at], (last - at) * sizeof(v->top[0]));
	v->top[at] = *x;
	if (v->n < NEIGHBOURS_TOP)
		v->n++;
}

void neighbours_view(const struct neighbours *n, pid_t target, const pid_t *pids, size_t npids,
		     pid_t self, const uint8_t *cpus, double psi_some, struct machine_view *out)
{
	memset(out, 0, sizeof(*out));
	out->psi_some = psi_some;
	out->online = n->online;
	double secs = n->old->seconds + n->cur->seconds;
	if (secs <= 0)
		return;
	out->valid = true;
	out->window_s = secs;
	struct neigh_acc *v;
	size_t m = neigh_merge(n, &v);
	double all_cpu = 0, all_wait = 0;
	for (size_t i = 0; i < m; i++) {
		const struct neigh_acc *p = &v[i];
		double c = p->cpu_s / secs, w = p->wait_s / secs;
		all_cpu += c;
		all_wait += w;
		if (neigh_in(pids, npids, p->pid) || p->pid == self)
			continue;
		if (neigh_descends(v, m, p, target)) {
			out->children++;
			out->children_cpus += c;
			continue;
		}
		struct neighbour x = {.pid = p->pid, .cpus_used = c, .runnable_mean = c + w};
		memcpy(x.name, p->name, sizeof(x.name));
		x.name_len = p->name_len;
		memcpy(x.cgroup, p->cgroup, sizeof(x.cgroup));
		x.shares_cpus = neigh_shares(p->ran_on, cpus);
		out->others_cpus += c;
		if (x.shares_cpus)
			out->others_shared += c;
		if (c >= 0.005)
			neigh_rank(out, &x);
	}
	double busy_secs = n->old->busy_seconds + n->cur->busy_seconds;
	out->cpus_used = busy_secs > 0 ? (n->old->busy_s + n->cur->busy_s) / busy_secs : all_cpu;
	if (out->cpus_used < all_cpu)
		out->cpus_used = all_cpu; /* proc/stat and schedstat tick apart */
	out->unseen_cpus = out->cpus_used - all_cpu;
	out->runnable_mean = out->cpus_used + all_wait;
	free(v);
}
