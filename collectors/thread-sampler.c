/* thread-sampler.c — the per-thread sampler (see threads.h): the walk over
 * the followed processes and their task listings; one thread's files and
 * their cadences are thread-entry.c's.
 *
 * Each tick, for every followed process (sorted by PID): take the TIDs kept
 * from the previous tick (or, when there are none, list proc/PID/task/ with
 * getdents64), merge them with the entries kept, and bring each entry up to
 * date; list task/ after all if the leader's thread count disagrees with the
 * entries that could be read (sample_process).
 *
 * A descriptor held on a /proc task file is bound to that task: once it
 * exits, reads give ESRCH, even if the TID is reused.  So a read that fails
 * for a TID still listed is retried once through fresh descriptors, and the
 * start time (stat field 22) tells the rates a new thread from the old one.
 * Threads that vanish between listing and reading are dropped silently.
 *
 * libproc2 is not used here: its select of one 1,000-thread process costs
 * about as much as top -H per tick (docs/design.md, "Hot path"). */
#include "config.h"

#include "threads.h"
#include "thread-sampler.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proctree.h"
#include "thread-entry.h"
#include "xalloc.h"
#include "clock.h"

/* Keeps a reserve under RLIMIT_NOFILE so the rest of the program can still
 * open files; files beyond it are read by path (slower, still correct). */
static void update_fd_ceiling(struct thread_sampler *ts)
{
	int soft = sysroot_nofile();
	ts->fd_ceiling = soft > 256 ? soft - 64 : soft / 2;
}

/* Lists the numeric entries of a task directory into ts->tids, sorted. */
static int list_tids(struct thread_sampler *ts, int taskfd)
{
	ts->ntids = 0;
	for (;;) {
		ssize_t got = getdents64(taskfd, ts->dents, sizeof(ts->dents));
		if (got < 0)
			return -errno;
		if (got == 0)
			break;
		for (ssize_t off = 0; off < got;) {
			struct dirent64 *d = (struct dirent64 *)(void *)(ts->dents + off);
			off += d->d_reclen;
			char *end;
			long tid = strtol(d->d_name, &end, 10);
			if (d->d_name[0] < '1' || d->d_name[0] > '9' || *end || tid > INT32_MAX)
				continue;
			ts->tids = xreallocarray_grow(ts->tids, &ts->tids_cap, ts->ntids + 1,
						      sizeof(*ts->tids));
			ts->tids[ts->ntids++] = (pid_t)tid;
		}
	}
	/* The kernel lists threads in creation order: usually sorted already. */
	for (size_t k = 1; k < ts->ntids; k++)
		if (ts->tids[k] < ts->tids[k - 1]) {
			qsort(ts->tids, ts->ntids, sizeof(*ts->tids), thread_entry_pid_cmp);
			break;
		}
	return 0;
}

static void drop_old_before(struct thread_sampler *ts, size_t *i, pid_t pid, pid_t tid)
{
	while (*i < ts->n &&
	       (ts->e[*i].s.pid < pid || (ts->e[*i].s.pid == pid && ts->e[*i].s.tid < tid)))
		thread_entry_close(ts, &ts->e[(*i)++]);
}

/* Uses the TIDs of pid kept from the last tick as this tick's listing.
 * False when there are none, or the leader (whose stat tells the thread
 * count) is not among them. */
static bool tids_from_entries(struct thread_sampler *ts, pid_t pid, size_t old)
{
	bool leader = false;
	ts->ntids = 0;
	for (size_t i = old; i < ts->n && ts->e[i].s.pid <= pid; i++) {
		if (ts->e[i].s.pid < pid)
			continue;
		ts->tids =
		    xreallocarray_grow(ts->tids, &ts->tids_cap, ts->ntids + 1, sizeof(*ts->tids));
		ts->tids[ts->ntids++] = ts->e[i].s.tid;
		leader |= ts->e[i].s.tid == pid;
	}
	return leader;
}

/* Brings e up to date and appends it to ts->ne, or drops it if it vanished.
 * kept: e comes from the last tick (held descriptors may be stale). */
static void entry_visit(struct thread_sampler *ts, int taskfd, struct thread_entry *e, bool kept,
			bool *alive)
{
	int rc = thread_entry_update(ts, taskfd, e);
	if (rc < 0 && kept) {
		/* Held descriptors of an exited task: the TID may have been reused. */
		thread_entry_close(ts, e);
		e->have = false;
		thread_entry_open(ts, taskfd, e);
		rc = thread_entry_update(ts, taskfd, e);
	}
	if (rc < 0) {
		thread_entry_close(ts, e);
		return;
	}
	if (e->s.state != 'Z' && e->s.state != 'X')
		*alive = true;
	ts->ne = xreallocarray_grow(ts->ne, &ts->ncap, ts->nn + 1, sizeof(*ts->ne));
	ts->ne[ts->nn++] = *e;
}

static void entry_new(struct thread_sampler *ts, int taskfd, pid_t pid, pid_t tid, bool *alive)
{
	struct thread_entry e;
	memset(&e, 0, sizeof(e));
	e.s.pid = pid;
	e.s.tid = tid;
	thread_entry_open(ts, taskfd, &e);
	entry_visit(ts, taskfd, &e, false, alive);
}

static int entry_tid_cmp(const void *a, const void *b)
{
	return thread_entry_pid_cmp(&((const struct thread_entry *)a)->s.tid,
				    &((const struct thread_entry *)b)->s.tid);
}

/* After a tick that visited only the known TIDs: if the leader's thread
 * count differs from the threads kept, list task/ after all, drop what it
 * does not hold and add what it holds and we did not. */
static void add_unlisted(struct thread_sampler *ts, int taskfd, pid_t pid, size_t first,
			 bool *alive)
{
	const struct thread_entry *leader = NULL;
	for (size_t i = first; i < ts->nn; i++)
		if (ts->ne[i].s.tid == pid)
			leader = &ts->ne[i];
	if (leader && leader->s.state != 'Z' && leader->nthreads == (long)(ts->nn - first))
		return;
	ts->reads.listings++;
	if (list_tids(ts, taskfd) < 0)
		return;
	size_t kept = first, k = 0;
	for (size_t j = first; j < ts->nn; j++) {
		while (k < ts->ntids && ts->tids[k] < ts->ne[j].s.tid)
			k++;
		if (k < ts->ntids && ts->tids[k] == ts->ne[j].s.tid)
			ts->ne[kept++] = ts->ne[j];
		else
			thread_entry_close(ts, &ts->ne[j]);
	}
	ts->nn = kept;
	size_t j = first;
	for (k = 0; k < ts->ntids; k++) {
		while (j < kept && ts->ne[j].s.tid < ts->tids[k])
			j++;
		if (j >= kept || ts->ne[j].s.tid != ts->tids[k])
			entry_new(ts, taskfd, pid, ts->tids[k], alive);
	}
	if (ts->nn > kept)
		qsort(ts->ne + first, ts->nn - first, sizeof(*ts->ne), entry_tid_cmp);
	*alive = false;
	for (j = first; j < ts->nn; j++)
		if (ts->ne[j].s.state != 'Z' && ts->ne[j].s.state != 'X')
			*alive = true;
}

/* Brings the entries of one process up to date, appending them to ts->ne.
 * Returns true when the process is alive (some thread not a zombie).
 *
 * Listing task/ is a tenth of a tick's cost, so it is skipped when the TIDs
 * kept from the last tick can stand for it: threads that exited fail their
 * reads and are dropped, and a new thread shows in the leader's thread
 * count (stat field 20), read during the same pass, which then lists. */
static bool sample_process(struct thread_sampler *ts, pid_t pid, size_t *old)
{
	int taskfd =
	    pid == ts->pid ? openat(ts->piddir, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (pid != ts->pid) {
		char rel[64];
		snprintf(rel, sizeof(rel), "proc/%d/task", (int)pid);
		taskfd = sysroot_openat(&ts->root, rel, O_RDONLY | O_DIRECTORY);
	}
	if (taskfd < 0)
		return false;
	bool listed = !tids_from_entries(ts, pid, *old);
	if (listed) {
		ts->reads.listings++;
		if (list_tids(ts, taskfd) < 0) {
			close(taskfd);
			return false;
		}
	}

	size_t first = ts->nn;
	bool alive = false;
	for (size_t k = 0; k < ts->ntids; k++) {
		pid_t tid = ts->tids[k];
		drop_old_before(ts, old, pid, tid);
		bool kept = *old < ts->n && ts->e[*old].s.pid == pid && ts->e[*old].s.tid == tid;
		if (kept) {
			struct thread_entry e = ts->e[(*old)++];
			entry_visit(ts, taskfd, &e, true, &alive);
		} else {
			entry_new(ts, taskfd, pid, tid, &alive);
		}
	}
	drop_old_before(ts, old, pid + 1, 0);
	if (!listed)
		add_unlisted(ts, taskfd, pid, first, &alive);
	close(taskfd);
	if (!alive) {
		while (ts->nn > first)
			thread_entry_close(ts, &ts->ne[--ts->nn]);
	}
	return alive;
}

struct thread_sampler *thread_sampler_new(const struct sysroot *r, pid_t pid, bool tree)
{
	if (pid <= 0) {
		errno = ESRCH;
		return NULL;
	}
	if (tree && !r->live) {
		errno = ENOTSUP;
		return NULL;
	}
	char rel[64];
	snprintf(rel, sizeof(rel), "proc/%d", (int)pid);
	int piddir = sysroot_openat(r, rel, O_PATH | O_DIRECTORY);
	if (piddir < 0) {
		errno = piddir == -ENOENT ? ESRCH : -piddir;
		return NULL;
	}
	int taskfd = openat(piddir, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (taskfd < 0) {
		int err = errno == ENOENT ? ESRCH : errno;
		close(piddir);
		errno = err;
		return NULL;
	}
	close(taskfd);

	struct thread_sampler *ts = xcalloc(1, sizeof(*ts));
	ts->root = *r;
	ts->pid = pid;
	ts->tree = tree;
	ts->piddir = piddir;
	ts->status_period_ns = 1000000000u;
	ts->hz = clock_ticks_per_s();
	return ts;
}

void thread_sampler_free(struct thread_sampler *ts)
{
	if (!ts)
		return;
	for (size_t i = 0; i < ts->n; i++)
		thread_entry_close(ts, &ts->e[i]);
	close(ts->piddir);
	free(ts->e);
	free(ts->ne);
	free(ts->pids);
	free(ts->tids);
	free(ts->want);
	free(ts);
}

void thread_sampler_set_stat_period(struct thread_sampler *ts, double seconds)
{
	ts->stat_period_ns = seconds > 0 ? (uint64_t)llround(seconds * 1e9) : 0;
}

void thread_sampler_set_sched_period(struct thread_sampler *ts, double seconds)
{
	ts->sched_period_ns = seconds > 0 ? (uint64_t)llround(seconds * 1e9) : 0;
}

void thread_sampler_want(struct thread_sampler *ts, const pid_t *tids, size_t n)
{
	ts->want = xreallocarray_grow(ts->want, &ts->want_cap, n ? n : 1, sizeof(*ts->want));
	if (n)
		memcpy(ts->want, tids, n * sizeof(*tids));
	ts->nwant = n;
	qsort(ts->want, n, sizeof(*ts->want), thread_entry_pid_cmp);
}

size_t thread_sampler_fds(const struct thread_sampler *ts)
{
	return ts->nfds;
}

void thread_sampler_set_status_period(struct thread_sampler *ts, double seconds)
{
	ts->status_period_ns = seconds > 0 ? (uint64_t)llround(seconds * 1e9) : 0;
}

void thread_sampler_read_counts(const struct thread_sampler *ts, struct thread_sampler_reads *out)
{
	*out = ts->reads;
}

int thread_sampler_sample(struct thread_sampler *ts, struct thread_set *out)
{
	return thread_sampler_sample_at(ts, clock_seconds(CLOCK_MONOTONIC), out);
}

int thread_sampler_sample_at(struct thread_sampler *ts, double now, struct thread_set *out)
{
	ts->now = now;
	out->time = now;
	out->n = 0;
	out->nprocs = 0;
	update_fd_ceiling(ts);

	size_t npids = 1;
	if (ts->tree) {
		ssize_t got = proctree_descendants(&ts->root, ts->pid, &ts->pids, &ts->pids_cap);
		if (got < 0 && got != -ESRCH)
			return (int)got;
		npids = got < 0 ? 0 : (size_t)got;
	} else {
		ts->pids = xreallocarray_grow(ts->pids, &ts->pids_cap, 1, sizeof(*ts->pids));
		ts->pids[0] = ts->pid;
	}
	if (npids > 1)
		qsort(ts->pids, npids, sizeof(*ts->pids), thread_entry_pid_cmp);

	bool target_alive = false;
	size_t old = 0;
	ts->nn = 0;
	for (size_t k = 0; k < npids; k++) {
		if (k > 0 && ts->pids[k] == ts->pids[k - 1])
			continue;
		size_t before = ts->nn;
		bool alive = sample_process(ts, ts->pids[k], &old);
		if (ts->pids[k] == ts->pid)
			target_alive = alive;
		if (ts->nn > before)
			out->nprocs++;
	}
	while (old < ts->n)
		thread_entry_close(ts, &ts->e[old++]);

	struct thread_entry *tmp = ts->e;
	size_t tcap = ts->cap;
	ts->e = ts->ne;
	ts->cap = ts->ncap;
	ts->n = ts->nn;
	ts->ne = tmp;
	ts->ncap = tcap;
	ts->nn = 0;

	if (!target_alive) {
		for (size_t i = 0; i < ts->n; i++)
			thread_entry_close(ts, &ts->e[i]);
		ts->n = 0;
		out->nprocs = 0;
		return -ESRCH;
	}
	out->v = xreallocarray_grow(out->v, &out->cap, ts->n, sizeof(*out->v));
	for (size_t i = 0; i < ts->n; i++)
		out->v[i] = ts->e[i].s;
	out->n = ts->n;
	return 0;
}
