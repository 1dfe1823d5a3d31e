/* bpf-threads.c — one target's threads through the BPF task iterator
 * (bpf-tasks.h).
 *
 * A read: bump the generation (bpf_tasks_begin), create an iterator from
 * the attached link, read() it to the end, parse the records.  A record's
 * latency counts follow it only when they changed since this reader's last
 * read; otherwise the counts kept from that read stand (the previous set,
 * kept here), and a thread this reader has not seen before with unchanged
 * counts has them looked up in the map once.  So a sleeping thread costs
 * one fixed record per read and no system call of its own.
 *
 * Figures are made to read as /proc's: utime and stime are scaled to the
 * run time as /proc's cputime_adjust() scales them, then given in clock
 * ticks, as is the start time (stat field 22).  The largest latency of the
 * interval comes from the two per-generation slots: those filled since
 * this reader's last read. */
#include "config.h"

#include "bpf-impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "xalloc.h"

struct bpf_threads {
	struct bpf_tasks *b;
	pid_t pid;
	bool tree, all;
	uint64_t last_gen;     /* the generation of the last read (0: none yet) */
	struct thread_set cur; /* the last set returned */
	pid_t *traced;	       /* processes registered in the traced map (kernel tgids), sorted */
	size_t ntraced, traced_cap;
	pid_t *seen; /* processes of this read (kernel tgids) */
	size_t nseen, seen_cap;
	bool read_once; /* a read succeeded */
	char *buf;	/* the iterator's output */
	size_t cap;
	long hz;
};

static int bpf_threads_pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return x < y ? -1 : x > y;
}

/* Adds (delta +1) or removes (-1) this reader's interest in a kernel tgid. */
static void bpf_threads_trace(struct bpf_threads *t, pid_t tgid, int delta)
{
	bpf_tasks_trace(t->b, tgid, delta);
}

struct bpf_threads *bpf_threads_new(struct bpf_tasks *b, pid_t pid, bool tree, bool all)
{
	struct bpf_threads *t = xcalloc(1, sizeof(*t));
	t->b = b;
	t->pid = all ? 0 : pid;
	t->tree = tree && !all;
	t->all = all;
	t->hz = sysconf(_SC_CLK_TCK);
	if (t->hz <= 0)
		t->hz = 100;
	thread_set_init(&t->cur);
	/* The processes to trace are registered by kernel tgid, which the
	 * first read gives (pid is our namespace's number). */
	if (all)
		bpf_tasks_trace_all(b, true);
	return t;
}

void bpf_threads_free(struct bpf_threads *t)
{
	if (!t)
		return;
	if (t->all)
		bpf_tasks_trace_all(t->b, false);
	for (size_t i = 0; i < t->ntraced; i++)
		bpf_threads_trace(t, t->traced[i], -1);
	thread_set_free(&t->cur);
	free(t->traced);
	free(t->seen);
	free(t->buf);
	free(t);
}

/* Runs the iterator once into t->buf.  Returns the bytes read or -errno. */
static ssize_t bpf_threads_read(struct bpf_threads *t)
{
	int fd = bpf_tasks_iter_fd(t->b);
	if (fd < 0)
		return fd;
	size_t n = 0;
	for (;;) {
		if (t->cap - n < 65536) {
			t->cap = t->cap ? t->cap * 2 : 1 << 18;
			t->buf = xrealloc(t->buf, t->cap);
		}
		ssize_t got = read(fd, t->buf + n, t->cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	return (ssize_t)n;
}

/* The thread of cur with this (pid, tid), or NULL. */
static const struct thread_sample *bpf_threads_prev(const struct thread_set *cur, pid_t pid,
						    pid_t tid)
{
	size_t lo = 0, hi = cur->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct thread_sample *m = &cur->v[mid];
		if (m->pid < pid || (m->pid == pid && m->tid < tid))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < cur->n && cur->v[lo].pid == pid && cur->v[lo].tid == tid)
		return &cur->v[lo];
	return NULL;
}

static uint64_t bpf_threads_ticks(uint64_t ns, long hz)
{
	return ns / (1000000000u / (uint64_t)hz);
}

/* The record's /proc figures into s (prev: the same thread's last sample). */
static void bpf_threads_fill(const struct bpf_threads *t, const struct tl_task *r, double now,
			     const struct thread_sample *prev, struct thread_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->pid = (pid_t)r->tgid;
	s->tid = (pid_t)r->tid;
	s->name_len = strnlen(r->comm, sizeof(r->comm));
	memcpy(s->name, r->comm, s->name_len);
	s->state = r->state;
	s->cpu = r->cpu;
	/* /proc scales utime and stime so that they sum to the run time. */
	uint64_t rt = r->run_ns, u = r->utime_ns, st = r->stime_ns, sys;
	if (u + st == 0 || st == 0)
		sys = 0;
	else if (u == 0)
		sys = rt;
	else
		sys = (uint64_t)((double)rt * (double)st / (double)(u + st));
	s->utime = bpf_threads_ticks(rt - sys, t->hz);
	s->stime = bpf_threads_ticks(sys, t->hz);
	s->starttime = bpf_threads_ticks(r->start_ns, t->hz);
	s->run_ns = r->run_ns;
	s->wait_ns = r->wait_ns;
	s->slices = r->slices;
	s->sched_time = now;
	s->vcsw = r->nvcsw;
	s->ivcsw = r->nivcsw;
	s->csw_time = now;
	if (prev && prev->starttime == s->starttime) {
		s->run0_ns = prev->run_ns;
		s->wait0_ns = prev->wait_ns;
		s->sched_time0 = prev->sched_time;
		s->vcsw0 = prev->vcsw;
		s->ivcsw0 = prev->ivcsw;
		s->csw_time0 = prev->csw_time;
	} else {
		s->vcsw0 = s->vcsw;
		s->ivcsw0 = s->ivcsw;
	}
}

/* The record's latency into a new histogram of out: its counts (appended,
 * kept from prev, or looked up once), totals and the interval's maximum. */
static void bpf_threads_latency(const struct bpf_threads *t, const struct tl_task *r,
				const __u32 *counts, const struct thread_set *cur,
				const struct thread_sample *prev, struct thread_set *out,
				struct thread_sample *s)
{
	out->lat = xreallocarray_grow(out->lat, &out->lat_cap, out->nlat + 1, sizeof(*out->lat));
	struct lat_hist *h = &out->lat[out->nlat];
	memset(h, 0, sizeof(*h));
	if (counts) {
		memcpy(h->count, counts, sizeof(h->count));
	} else if (prev && prev->lat_ref && prev->starttime == s->starttime) {
		memcpy(h->count, cur->lat[prev->lat_ref - 1].count, sizeof(h->count));
	} else {
		struct tl_lat v;
		__u32 key = r->slot;
		if (bpf_map_lookup_elem(bpf_tasks_hist_fd(t->b), &key, &v) != 0 ||
		    v.owner != r->gtid)
			return; /* gone since the iterator saw it: no histogram */
		memcpy(h->count, v.count, sizeof(h->count));
	}
	h->events = r->lat_events;
	h->sum_ns = r->lat_sum_ns;
	for (int k = 0; k < 2; k++)
		if (r->lat_max_gen[k] >= t->last_gen && r->lat_max_ns[k] > h->max_ns)
			h->max_ns = r->lat_max_ns[k];
	s->lat_ref = (uint32_t)++out->nlat;
}

static int bpf_threads_cmp(const void *a, const void *b)
{
	const struct thread_sample *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The processes seen this read (t->seen) get traced, those gone stop. */
static void bpf_threads_retrace(struct bpf_threads *t)
{
	qsort(t->seen, t->nseen, sizeof(*t->seen), bpf_threads_pid_cmp);
	size_t kept = 0;
	for (size_t i = 0; i < t->nseen; i++)
		if (i == 0 || t->seen[i] != t->seen[i - 1])
			t->seen[kept++] = t->seen[i];
	t->nseen = kept;
	size_t i = 0, k = 0;
	while (i < t->ntraced || k < t->nseen) {
		pid_t a = i < t->ntraced ? t->traced[i] : 0, b = k < t->nseen ? t->seen[k] : 0;
		if (k >= t->nseen || (i < t->ntraced && a < b)) {
			bpf_threads_trace(t, a, -1); /* gone */
			i++;
		} else if (i >= t->ntraced || b < a) {
			bpf_threads_trace(t, b, +1); /* new */
			k++;
		} else {
			i++, k++;
		}
	}
	pid_t *swap = t->traced;
	size_t cap = t->traced_cap;
	t->traced = t->seen;
	t->traced_cap = t->seen_cap;
	t->ntraced = t->nseen;
	t->seen = swap;
	t->seen_cap = cap;
	t->nseen = 0;
}

int bpf_threads_sample(struct bpf_threads *t, double now, struct thread_set *out)
{
	thread_set_free(out);
	out->time = now;
	uint64_t g = bpf_tasks_begin(t->b, t->last_gen, t->pid, t->tree, t->all);
	ssize_t n = bpf_threads_read(t);
	if (n < 0)
		return (int)n;

	struct thread_set next;
	thread_set_init(&next);
	next.time = now;
	next.lat_on = true;
	bool alive = t->all, root_seen = t->all;
	t->nseen = 0;
	for (size_t off = 0; off + sizeof(struct tl_task) <= (size_t)n;) {
		struct tl_task r;
		memcpy(&r, t->buf + off, sizeof(r));
		off += sizeof(r);
		const __u32 *counts = NULL;
		if (r.flags & TL_TASK_HIST) {
			if (off + LAT_BUCKETS * sizeof(__u32) > (size_t)n)
				break;
			counts = (const __u32 *)(const void *)(t->buf + off);
			off += LAT_BUCKETS * sizeof(__u32);
		}
		next.v = xreallocarray_grow(next.v, &next.cap, next.n + 1, sizeof(*next.v));
		struct thread_sample *s = &next.v[next.n++];
		const struct thread_sample *prev =
		    bpf_threads_prev(&t->cur, (pid_t)r.tgid, (pid_t)r.tid);
		bpf_threads_fill(t, &r, now, prev, s);
		if (r.flags & TL_TASK_LAT)
			bpf_threads_latency(t, &r, counts, &t->cur, prev, &next, s);
		if ((pid_t)r.tgid == t->pid) {
			root_seen = true;
			alive |= r.state != 'Z' && r.state != 'X';
		}
		if (!t->all && (t->nseen == 0 || (pid_t)r.gtgid != t->seen[t->nseen - 1])) {
			t->seen = xreallocarray_grow(t->seen, &t->seen_cap, t->nseen + 1,
						     sizeof(*t->seen));
			t->seen[t->nseen++] = (pid_t)r.gtgid;
		}
	}
	/* A process the iterator never showed, though it was there when the
	 * reader was made: it is hidden from BPF (seen: a sandbox's init), so
	 * this reader cannot serve it. */
	if (!t->read_once && !root_seen) {
		thread_set_free(&next);
		return -ENOENT;
	}
	t->read_once = true;
	t->last_gen = g;
	qsort(next.v, next.n, sizeof(*next.v), bpf_threads_cmp);
	for (size_t i = 0; i < next.n; i++)
		next.nprocs += i == 0 || next.v[i].pid != next.v[i - 1].pid;
	if (!t->all)
		bpf_threads_retrace(t);
	next.lat_dropped = bpf_tasks_dropped(t->b);
	next.lat_capacity = bpf_tasks_capacity(t->b);
	thread_set_free(&t->cur);
	t->cur = next;
	if (!alive) {
		out->lat_on = true;
		return -ESRCH;
	}
	thread_set_copy(out, &t->cur);
	return 0;
}
