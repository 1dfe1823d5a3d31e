/* bpf-threads.c — one target's threads through the BPF task iterator
 * (bpf-tasks.h).
 *
 * A read: bump the generation (bpf_load_begin), create an iterator from
 * the attached link, read() it to the end, parse the records into the
 * caller's set.  The link walks every task and the program keeps the
 * reader's: a link limited to one process (the task.pid option) measured
 * slower here, 8.9 against 7.8 ms a read of 10,000 threads.
 *
 * A record's latency counts follow it only when they changed since this
 * reader's last read; otherwise the counts kept from an earlier read
 * stand, kept here by histogram slot (with the thread the slot served),
 * and a thread this reader has no counts of (or whose events moved while
 * its records were short: the cadence) is looked up in the slot array
 * once.  So a sleeping thread costs one fixed record per read, no system
 * call and no copy of its histogram.
 *
 * Figures are made to read as /proc's: utime and stime are scaled to the
 * run time as /proc's cputime_adjust() scales them, then given in clock
 * ticks, as is the start time (stat field 22).  The largest latency of the
 * interval comes from the two per-generation maxima: those filled since
 * this reader's last read.  A process whose leader's start time changes is
 * another process with the same PID: the target has gone.
 *
 * The cadence (bpf_threads_set_period): the reader keeps its last sample,
 * and each read tells the program which phases are due, the TIDs wanted
 * and when the last read began; a thread not due comes as a short record
 * (its IDs) and its kept sample stands, with the *0 fields of its last
 * full read so that its rates are those of its last read interval, as on
 * the /proc path (threads.h).  A short record of a thread not kept (it
 * cannot be: it was read in the last read or started since) makes the
 * read start again in full. */
#include "config.h"

#include "bpf-load-impl.h"

#include <errno.h>
#include <math.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "xalloc.h"
#include "clock.h"
#include "bpf-load.h"
#include "bpf-threads.h"
#include "thread-set.h"

/* The counts of a slot as this reader last saw them. */
struct bpf_slot_seen {
	__u32 owner;  /* kernel TID; 0: nothing kept */
	__u64 start;  /* the owner's start time, ns */
	__u64 events; /* the events the record had when count was kept */
	__u32 count[LAT_BUCKETS];
};

struct bpf_threads {
	struct bpf_tasks *b;
	pid_t pid;
	bool tree, all;
	bool all_traced; /* all, and the latency of every thread traced */
	uint64_t last_gen;   /* the generation of the last read (0: none yet) */
	uint64_t root_start; /* the leader's start time, ticks (0: not seen yet) */
	struct bpf_slot_seen *slots;
	size_t nslots;
	pid_t *traced; /* processes traced (kernel tgids), sorted */
	size_t ntraced, traced_cap;
	pid_t *seen; /* processes of this read (kernel tgids) */
	size_t nseen, seen_cap;
	bool read_once; /* a read succeeded */
	char *buf;	/* the iterator's output */
	size_t cap;
	long hz;
	/* The cadence: 0 every thread in full at every read. */
	double period;	/* s */
	uint32_t *want; /* TIDs read in full at every read */
	size_t nwant;
	struct thread_set kept; /* the last read's sample, sorted by (pid, tid) */
	double last_now;	/* its time (0: none) */
	uint64_t last_boot_ns;	/* CLOCK_BOOTTIME when it began */
	size_t kept_next;	/* the kept sample after the last found */
	uint32_t *due;		/* this read's TIDs in full whatever their phase */
	size_t due_cap;
	size_t full, brief; /* records of the last read */
};

static int bpf_threads_pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return x < y ? -1 : x > y;
}

static struct bpf_threads *bpf_threads_make(struct bpf_tasks *b, pid_t pid, bool tree, bool all,
					    bool trace)
{
	struct bpf_threads *t = xcalloc(1, sizeof(*t));
	t->b = b;
	t->pid = all ? 0 : pid;
	t->tree = tree && !all;
	t->all = all;
	t->hz = clock_ticks_per_s();
	/* The processes to trace are registered by kernel tgid, which the
	 * first read gives (pid is our namespace's number). */
	t->all_traced = all && trace;
	if (t->all_traced)
		bpf_load_trace_all(b, true);
	return t;
}

struct bpf_threads *bpf_threads_new(struct bpf_tasks *b, pid_t pid, bool tree, bool all)
{
	return bpf_threads_make(b, pid, tree, all, true);
}

/* Whether t's reads take latency: all but the machine view's reader. */
static bool bpf_threads_traces(const struct bpf_threads *t)
{
	return !t->all || t->all_traced;
}

struct bpf_threads *bpf_threads_new_machine(struct bpf_tasks *b)
{
	return bpf_threads_make(b, 0, false, true, false);
}

void bpf_threads_free(struct bpf_threads *t)
{
	if (!t)
		return;
	if (t->all_traced)
		bpf_load_trace_all(t->b, false);
	for (size_t i = 0; i < t->ntraced; i++)
		bpf_load_trace(t->b, t->traced[i], -1);
	free(t->slots);
	free(t->traced);
	free(t->seen);
	free(t->buf);
	free(t->want);
	free(t->due);
	thread_set_free(&t->kept);
	free(t);
}

void bpf_threads_set_period(struct bpf_threads *t, double seconds)
{
	t->period = seconds > 0 ? seconds : 0;
}

void bpf_threads_want(struct bpf_threads *t, const pid_t *tids, size_t n)
{
	t->want = xrealloc(t->want, (n ? n : 1) * sizeof(*t->want));
	for (size_t i = 0; i < n; i++)
		t->want[i] = (uint32_t)tids[i];
	t->nwant = n;
}

void bpf_threads_last_read(const struct bpf_threads *t, size_t *full, size_t *brief)
{
	*full = t->full;
	*brief = t->brief;
}

/* This read's cadence into c: the phases whose boundary of the period fell
 * since the last read (all of them after a period or more). */
static void bpf_threads_cadence(struct bpf_threads *t, double now, struct bpf_tasks_cadence *c)
{
	memset(c, 0, sizeof(*c));
	c->lite = t->period > 0 && t->last_now > 0 && now > t->last_now;
	if (!c->lite)
		return;
	double turns = (now - t->last_now) / t->period;
	c->due_lo = (uint32_t)(fmod(t->last_now, t->period) / t->period * 4294967296.0);
	c->due_span = turns >= 1 ? 1ull << 32 : (uint64_t)(turns * 4294967296.0);
	c->new_after = t->last_boot_ns;
	/* In full too: a thread read in full only once, which has no earlier
	 * point to carry rates from yet (as on /proc, threads.h). */
	t->due = xreallocarray_grow(t->due, &t->due_cap, t->nwant + t->kept.n + 1, sizeof(*t->due));
	if (t->nwant)
		memcpy(t->due, t->want, t->nwant * sizeof(*t->due));
	size_t n = t->nwant;
	for (size_t i = 0; i < t->kept.n; i++)
		if (t->kept.v[i].sched_time0 <= 0)
			t->due[n++] = (uint32_t)t->kept.v[i].tid;
	c->want = t->due;
	c->nwant = n;
}

/* The kept sample of (pid, tid), or NULL.  Records come in the kept
 * order, mostly: the one after the last found is tried first. */
static const struct thread_sample *bpf_threads_kept(struct bpf_threads *t, pid_t pid, pid_t tid)
{
	const struct thread_sample key = {.pid = pid, .tid = tid};
	if (t->kept.n == 0)
		return NULL;
	const struct thread_sample *k = t->kept.v + t->kept_next;
	if (t->kept_next >= t->kept.n || thread_set_cmp(&key, k) != 0)
		k = thread_set_find(&t->kept, pid, tid);
	if (k)
		t->kept_next = (size_t)(k - t->kept.v) + 1;
	return k;
}

/* Runs the iterator once into t->buf.  Returns the bytes read or -errno. */
static ssize_t bpf_threads_read(struct bpf_threads *t)
{
	int fd = bpf_load_iter_fd(t->b);
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

static uint64_t bpf_threads_ticks(uint64_t ns, long hz)
{
	return ns / (1000000000u / (uint64_t)hz);
}

/* The record's /proc figures into s. */
static void bpf_threads_fill(struct bpf_threads *t, const struct tl_task *r, double now,
			     struct thread_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->pid = (pid_t)r->h.tgid;
	s->tid = (pid_t)r->h.tid;
	s->name_len = strnlen(r->comm, sizeof(r->comm));
	memcpy(s->name, r->comm, s->name_len);
	s->state = r->state;
	s->cpu = r->cpu;
	s->ppid = (pid_t)r->ppid;
	s->nthreads = (int)r->nthreads;
	s->proc_run_ns = r->h.tid == r->h.tgid ? r->ended_run_ns : 0; /* + its threads' below */
	s->proc_child_ns = r->h.tid == r->h.tgid ? r->child_run_ns : 0;
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
	s->wait_open_ns = r->queued_ns;
	s->slices = r->slices;
	s->sched_time = now;
	s->vcsw0 = s->vcsw = r->nvcsw;
	s->ivcsw0 = s->ivcsw = r->nivcsw;
	s->csw_time = now;
	/* The earlier point, for the reads that keep this one (the cadence):
	 * without a cadence every read is in full and rates are between two
	 * reads, never carried (threads.h). */
	const struct thread_sample *k = t->period > 0 ? bpf_threads_kept(t, s->pid, s->tid) : NULL;
	if (k && k->starttime == s->starttime && k->sched_time < now) {
		s->run0_ns = k->run_ns;
		s->wait0_ns = k->wait_ns;
		s->sched_time0 = k->sched_time;
		s->vcsw0 = k->vcsw;
		s->ivcsw0 = k->ivcsw;
		s->csw_time0 = k->csw_time;
	}
}

/* The slot's kept counts, grown to hold it. */
static struct bpf_slot_seen *bpf_threads_slot(struct bpf_threads *t, __u32 slot)
{
	if (slot >= t->nslots) {
		size_t n = t->nslots ? t->nslots : 64;
		while (n <= slot)
			n *= 2;
		t->slots = xrealloc(t->slots, n * sizeof(*t->slots));
		memset(t->slots + t->nslots, 0, (n - t->nslots) * sizeof(*t->slots));
		t->nslots = n;
	}
	return &t->slots[slot];
}

/* The record's latency into a new histogram of out: its counts (appended,
 * kept from an earlier read, or looked up once), totals and the interval's
 * maximum. */
static void bpf_threads_latency(struct bpf_threads *t, const struct tl_task *r, const __u32 *counts,
				struct thread_set *out, struct thread_sample *s)
{
	struct bpf_slot_seen *k = bpf_threads_slot(t, r->slot);
	if (counts) {
		memcpy(k->count, counts, sizeof(k->count));
	} else if (k->owner != r->gtid || k->start != r->start_ns || k->events != r->lat_events) {
		/* Another thread's, or waits since: the program sends counts
		 * changed since this reader's last read, and with the cadence
		 * that read may have had this thread as a short record. */
		struct tl_lat v;
		__u32 key = r->slot;
		if (bpf_map_lookup_elem(bpf_load_hist_fd(t->b), &key, &v) != 0 ||
		    v.owner != r->gtid)
			return; /* gone since the iterator saw it: no histogram */
		memcpy(k->count, v.count, sizeof(k->count));
	}
	k->owner = r->gtid;
	k->start = r->start_ns;
	k->events = r->lat_events;
	out->lat = xreallocarray_grow(out->lat, &out->lat_cap, out->nlat + 1, sizeof(*out->lat));
	struct lat_hist *h = &out->lat[out->nlat];
	memcpy(h->count, k->count, sizeof(h->count));
	h->events = r->lat_events;
	h->sum_ns = r->lat_sum_ns;
	h->max_ns = 0;
	for (int i = 0; i < 2; i++)
		if (r->lat_max_gen[i] >= t->last_gen && r->lat_max_ns[i] > h->max_ns)
			h->max_ns = r->lat_max_ns[i];
	s->lat_ref = (uint32_t)++out->nlat;
}

/* The processes seen this read (t->seen) get traced, those gone stop. */
static void bpf_threads_retrace(struct bpf_threads *t)
{
	/* A read that saw no process may hold no list yet: no qsort of NULL. */
	if (t->nseen > 1)
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
			bpf_load_trace(t->b, a, -1); /* gone */
			i++;
		} else if (i >= t->ntraced || b < a) {
			bpf_load_trace(t->b, b, +1); /* new */
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

/* A short record's thread: its kept sample (and histogram) into out.
 * Returns false when it is not kept. */
static bool bpf_threads_keep(struct bpf_threads *t, const struct tl_task_head *h,
			     struct thread_set *out)
{
	const struct thread_sample *k = bpf_threads_kept(t, (pid_t)h->tgid, (pid_t)h->tid);
	if (!k)
		return false;
	out->v = xreallocarray_grow(out->v, &out->cap, out->n + 1, sizeof(*out->v));
	struct thread_sample *s = &out->v[out->n++];
	*s = *k;
	if (k->lat_ref) {
		out->lat =
		    xreallocarray_grow(out->lat, &out->lat_cap, out->nlat + 1, sizeof(*out->lat));
		out->lat[out->nlat] = t->kept.lat[k->lat_ref - 1];
		s->lat_ref = (uint32_t)++out->nlat;
	}
	return true;
}

/* Parses n bytes of records into out.  Returns whether the target is
 * alive (some thread of it not a zombie), -1 when its PID now names
 * another process, -2 when a short record names a thread not kept. */
static int bpf_threads_parse(struct bpf_threads *t, size_t n, double now, struct thread_set *out,
			     bool *root_seen)
{
	bool alive = t->all;
	t->nseen = 0;
	t->full = t->brief = 0;
	t->kept_next = 0;
	for (size_t off = 0; off + sizeof(struct tl_task_head) <= n;) {
		struct tl_task r;
		memcpy(&r.h, t->buf + off, sizeof(r.h));
		if (r.h.flags & TL_TASK_SHORT) {
			off += sizeof(r.h);
			if (!bpf_threads_keep(t, &r.h, out))
				return -2;
			t->brief++;
		} else {
			if (off + sizeof(r) > n)
				break;
			memcpy(&r, t->buf + off, sizeof(r));
			off += sizeof(r);
			const __u32 *counts = NULL;
			if (r.h.flags & TL_TASK_HIST) {
				if (off + LAT_BUCKETS * sizeof(__u32) > n)
					break;
				counts = (const __u32 *)(const void *)(t->buf + off);
				off += LAT_BUCKETS * sizeof(__u32);
			}
			out->v = xreallocarray_grow(out->v, &out->cap, out->n + 1, sizeof(*out->v));
			struct thread_sample *s = &out->v[out->n++];
			bpf_threads_fill(t, &r, now, s);
			/* an untraced reader skips what another reader traces */
			if ((r.h.flags & TL_TASK_LAT) && out->lat_on)
				bpf_threads_latency(t, &r, counts, out, s);
			t->full++;
		}
		const struct thread_sample *s = &out->v[out->n - 1];
		if (s->pid == t->pid) {
			*root_seen = true;
			alive |= s->state != 'Z' && s->state != 'X';
			if (s->tid == s->pid && t->root_start == 0)
				t->root_start = s->starttime;
			else if (s->tid == s->pid && t->root_start != s->starttime)
				return -1;
		}
		if (!t->all && (t->nseen == 0 || (pid_t)r.h.gtgid != t->seen[t->nseen - 1])) {
			t->seen = xreallocarray_grow(t->seen, &t->seen_cap, t->nseen + 1,
						     sizeof(*t->seen));
			t->seen[t->nseen++] = (pid_t)r.h.gtgid;
		}
	}
	return alive;
}

/* Each leader's proc_run_ns, its ended threads' run so far, plus the run
 * of every thread of its process in the set (sorted). */
static void bpf_threads_proc_run(struct thread_set *out)
{
	for (size_t i = 0, j, lead; i < out->n; i = j) {
		j = thread_set_process(out, i, &lead);
		if (lead == SIZE_MAX || out->v[lead].nthreads <= 0)
			continue; /* (its leader's fields were not read) */
		for (size_t k = i; k < j; k++)
			out->v[lead].proc_run_ns += out->v[k].run_ns;
	}
}

int bpf_threads_sample(struct bpf_threads *t, double now, struct thread_set *out)
{
	struct bpf_tasks_cadence c;
	bpf_threads_cadence(t, now, &c);
	struct timespec boot;
	clock_gettime(CLOCK_BOOTTIME, &boot);
	double entry = clock_seconds(CLOCK_MONOTONIC);
	uint64_t g;
	bool root_seen;
	int alive;
	for (;;) {
		thread_set_clear(out); /* (again, in full, when a thread was not kept) */
		out->lat_on = bpf_threads_traces(t);
		/* Room for as many as the last read: no growth copies. */
		out->v = xreallocarray_grow(out->v, &out->cap, t->kept.n + 1, sizeof(*out->v));
		out->lat = xreallocarray_grow(out->lat, &out->lat_cap, t->kept.nlat + 1,
					      sizeof(*out->lat));
		g = bpf_load_begin(t->b, bpf_threads_traces(t) ? t->last_gen : UINT64_MAX, t->pid,
				   t->tree, t->all, &c);
		/* The figures are as of the read, not of the caller's now: on a
		 * crowded box the reader may wait for a CPU in between. */
		out->time = now + (clock_seconds(CLOCK_MONOTONIC) - entry);
		ssize_t n = bpf_threads_read(t);
		if (n < 0)
			return (int)n;
		root_seen = t->all;
		alive = bpf_threads_parse(t, (size_t)n, out->time, out, &root_seen);
		if (alive != -2 || !c.lite)
			break;
		c.lite = false; /* a thread not kept */
	}
	/* A process the iterator never showed, though it was there when the
	 * reader was made: it is hidden from BPF (seen: a sandbox's init), so
	 * this reader cannot serve it. */
	if (!t->read_once && !root_seen) {
		thread_set_free(out);
		return -ENOENT;
	}
	t->read_once = true;
	t->last_gen = g;
	if (!t->all)
		bpf_threads_retrace(t);
	out->lat_dropped = bpf_load_dropped(t->b);
	out->lat_capacity = bpf_load_capacity(t->b);
	if (alive <= 0) {
		thread_set_free(out);
		out->lat_on = bpf_threads_traces(t);
		return -ESRCH;
	}
	/* The iterator goes by process, then by thread in creation order:
	 * usually sorted already. */
	for (size_t i = 1; i < out->n; i++)
		if (thread_set_cmp(&out->v[i - 1], &out->v[i]) > 0) {
			qsort(out->v, out->n, sizeof(*out->v), thread_set_cmp);
			break;
		}
	for (size_t i = 0; i < out->n; i++)
		out->nprocs += i == 0 || out->v[i].pid != out->v[i - 1].pid;
	bpf_threads_proc_run(out);
	if (t->period > 0) {
		thread_set_copy(&t->kept, out);
		t->last_now = now;
		t->last_boot_ns = (uint64_t)boot.tv_sec * 1000000000u + (uint64_t)boot.tv_nsec;
	}
	return 0;
}
