/* window.c — demand summed over a sliding window (window.h). */
#include "config.h"

#include "window.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void window_init(struct window *w, double length)
{
	memset(w, 0, sizeof(*w));
	w->length = length;
	w->started = -1;
	snapshot_rates_init(&w->rates);
}

static void window_half_clear(struct window_half *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->v[i].lat);
	h->n = 0;
	h->seconds = h->throttled_s = h->throttled_pct_s = h->unseen_s = 0;
	h->throttle_valid = false;
}

void window_free(struct window *w)
{
	window_half_clear(&w->old);
	window_half_clear(&w->cur);
	free(w->old.v);
	free(w->cur.v);
	snapshot_rates_free(&w->rates);
	memset(w, 0, sizeof(*w));
}

static int window_cmp(pid_t pa, pid_t ta, const struct window_thread *b)
{
	if (pa != b->pid)
		return pa < b->pid ? -1 : 1;
	return ta < b->tid ? -1 : ta > b->tid;
}

/* Merges one interval into half h: both are sorted by (pid, tid). */
static void window_half_add(struct window_half *h, const struct snapshot_rates *r,
			    const struct snapshot *cur, const double *act)
{
	struct window_thread *out = xmalloc((h->n + r->nthreads + 1) * sizeof(*out));
	size_t i = 0, k = 0, n = 0;
	double dt = r->dt;
	while (i < h->n || k < r->nthreads) {
		const struct thread_rate *t = k < r->nthreads ? &r->threads[k] : NULL;
		int c = !t ? -1 : i >= h->n ? 1 : -window_cmp(t->pid, t->tid, &h->v[i]);
		if (c < 0) {
			out[n++] = h->v[i++]; /* ended in this half: its seconds stay */
			continue;
		}
		uint64_t start = k < cur->threads.n ? cur->threads.v[k].starttime : 0;
		if (c == 0 && h->v[i].starttime != start) {
			out[n++] = h->v[i++]; /* a reused TID: the old thread ended */
			c = 1;
		}
		struct window_thread *x = &out[n++];
		if (c == 0) {
			*x = h->v[i++];
		} else {
			memset(x, 0, sizeof(*x));
			x->pid = t->pid;
			x->tid = t->tid;
			x->starttime = start;
		}
		memcpy(x->name, t->name, sizeof(x->name));
		x->name_len = t->name_len;
		x->state = t->state;
		x->cpu = t->cpu;
		if (!t->is_new) {
			x->run_s += t->cpu_pct / 100.0 * dt;
			x->wait_s += t->wait_pct / 100.0 * dt;
			x->vcsw += t->vcsw_per_s * dt;
			x->ivcsw += t->ivcsw_per_s * dt;
			for (int a = 0; act && a < ACTIVITY_N; a++)
				x->act_s[a] += act[k * ACTIVITY_N + a];
		}
		if (t->lat_ref) {
			if (!x->lat)
				x->lat = xcalloc(1, sizeof(*x->lat));
			latency_hist_merge(x->lat, &r->lat[t->lat_ref - 1]);
		}
		k++;
	}
	free(h->v);
	h->v = out;
	h->n = n;
	h->cap = h->n + r->nthreads + 1;
	h->seconds += dt;
	h->unseen_s += r->unseen_cpu * dt;
	if (r->throttle.valid) {
		h->throttle_valid = true;
		h->throttled_s += r->throttle.throttled_s_per_s * dt;
		h->throttled_pct_s += r->throttle.throttled_pct * dt;
	}
}

void window_add(struct window *w, const struct snapshot_rates *r, const struct snapshot *cur,
		const double *act)
{
	if (r->dt <= 0)
		return;
	if (w->started < 0)
		w->started = cur->time;
	if (w->length > 0 && cur->time - w->started >= w->length / 2) {
		struct window_half t = w->old;
		w->old = w->cur;
		w->cur = t;
		window_half_clear(&w->cur);
		w->started = cur->time;
	}
	window_half_add(&w->cur, r, cur, act);
	w->runnable_now = r->runnable;
	w->lat_on = r->lat_on;
}

/* The thread's latency over both halves into a new entry of o's pool. */
static void window_latency(struct snapshot_rates *o, struct thread_rate *t,
			   const struct window_thread *a, const struct window_thread *b)
{
	if (!(a && a->lat) && !(b && b->lat))
		return;
	o->lat = xreallocarray_grow(o->lat, &o->lat_cap, o->nlat + 1, sizeof(*o->lat));
	struct lat_hist *h = &o->lat[o->nlat];
	latency_hist_clear(h);
	if (a && a->lat)
		latency_hist_merge(h, a->lat);
	if (b && b->lat)
		latency_hist_merge(h, b->lat);
	/* Only sums of these are read (the diagnosis): no summary per thread. */
	t->lat_ref = (uint32_t)++o->nlat;
}

/* Both halves' threads, merged by (pid, tid), over their summed length. */
const struct snapshot_rates *window_rates(struct window *w)
{
	struct snapshot_rates *o = &w->rates;
	double secs = w->old.seconds + w->cur.seconds;
	o->threads =
	    xreallocarray_grow(o->threads, &o->cap, w->old.n + w->cur.n + 1, sizeof(*o->threads));
	o->nthreads = 0;
	o->dt = secs;
	o->total_cpu_pct = o->total_wait_pct = 0;
	o->runnable = w->runnable_now;
	o->lat_on = w->lat_on;
	o->nlat = 0;
	size_t i = 0, k = 0;
	while (i < w->old.n || k < w->cur.n) {
		const struct window_thread *a = i < w->old.n ? &w->old.v[i] : NULL;
		const struct window_thread *b = k < w->cur.n ? &w->cur.v[k] : NULL;
		int c = !a ? 1 : !b ? -1 : window_cmp(a->pid, a->tid, b);
		if (c == 0 && a->starttime != b->starttime)
			c = -1; /* a reused TID: two threads */
		const struct window_thread *name = c < 0 ? a : b;
		double run = 0, wait = 0, vcsw = 0, ivcsw = 0, act[ACTIVITY_N] = {0};
		for (int q = 0; q < 2; q++) {
			const struct window_thread *x =
			    q == 0 ? (c <= 0 ? a : NULL) : (c >= 0 ? b : NULL);
			if (!x)
				continue;
			run += x->run_s;
			wait += x->wait_s;
			vcsw += x->vcsw;
			ivcsw += x->ivcsw;
			for (int k2 = 0; k2 < ACTIVITY_N; k2++)
				act[k2] += x->act_s[k2];
		}
		if (!name)
			break;
		struct thread_rate *t = &o->threads[o->nthreads++];
		memset(t, 0, sizeof(*t));
		t->pid = name->pid;
		t->tid = name->tid;
		memcpy(t->name, name->name, sizeof(t->name));
		t->name_len = name->name_len;
		t->state = name->state;
		t->cpu = name->cpu;
		t->cpu_pct = secs > 0 ? 100.0 * run / secs : 0;
		t->user_pct = t->cpu_pct;
		t->wait_pct = secs > 0 ? 100.0 * wait / secs : 0;
		t->vcsw_per_s = secs > 0 ? vcsw / secs : 0;
		t->ivcsw_per_s = secs > 0 ? ivcsw / secs : 0;
		t->activity = (unsigned char)activity_major(act);
		t->input_wait_pct = secs > 0 ? 100.0 * act[ACTIVITY_INPUT_WAIT] / secs : 0;
		o->total_cpu_pct += t->cpu_pct;
		o->total_wait_pct += t->wait_pct;
		window_latency(o, t, c <= 0 ? a : NULL, c >= 0 ? b : NULL);
		i += c <= 0;
		k += c >= 0;
	}
	o->unseen_cpu = secs > 0 ? (w->old.unseen_s + w->cur.unseen_s) / secs : 0;
	o->throttle.valid = w->old.throttle_valid || w->cur.throttle_valid;
	o->throttle.throttled_s_per_s =
	    secs > 0 ? (w->old.throttled_s + w->cur.throttled_s) / secs : 0;
	o->throttle.throttled_pct =
	    secs > 0 ? (w->old.throttled_pct_s + w->cur.throttled_pct_s) / secs : 0;
	return o;
}
