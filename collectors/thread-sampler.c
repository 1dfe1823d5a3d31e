/* thread-sampler.c — the per-thread sampler (see threads.h).
 *
 * Each tick, for every followed process (sorted by PID): take the TIDs kept
 * from the previous tick (or, when there are none, list proc/PID/task/ with
 * getdents64), merge them with the entries kept, and bring each entry up to
 * date; list task/ after all if the leader's thread count disagrees with the
 * entries that could be read (sample_process).  An entry holds
 * descriptors of its schedstat, stat and status, re-read with pread at
 * offset 0: that costs a fraction of open/read/close.  If schedstat (run,
 * wait, slices) did not change, the thread has neither run nor been woken,
 * so stat and status are not read again and the previous values are reused;
 * the group leader's stat is always read, because a zombie leader is how a
 * dead but unreaped process shows.
 *
 * status costs more than stat and schedstat together and only gives switch
 * counts, so it follows a cadence of its own.  Each entry knows the last
 * point (csw_time) at which its counts were exact, and whether the thread
 * has run since (csw_stale).  An unchanged schedstat with fresh counts moves
 * that point to now without a read.  A thread that ran is read when its
 * TID's phase boundary (one per status period) fell since csw_time, or at
 * once when the last interval measured no run (new, or idle last tick) —
 * otherwise the rate carried from that interval would be a false 0.
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

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "proctree.h"
#include "xalloc.h"

enum { F_SCHED, F_STAT, F_STATUS, F_N };

/* With a sched period, the status period of the threads not wanted is this
 * many times the status period (threads.h). */
#define QUIET_STATUS_FACTOR 4
static const char *const file_names[F_N] = {"schedstat", "stat", "status"};

struct tentry {
	int fd[F_N];	   /* held descriptors; -1: read by path each time */
	bool no_schedstat; /* kernel without schedstat: run time from stat ticks */
	bool have;	   /* s holds a complete sample */
	bool csw_stale;	   /* ran since status was read: s.vcsw, s.ivcsw lag */
	bool csw_idle;	   /* s.csw_time0..csw_time saw no run, or there is no csw_time0 */
	double stat_time;  /* CLOCK_MONOTONIC s at which stat was last read */
	long nthreads;	   /* stat field 20 when stat was last read */
	struct thread_sample s;
};

struct thread_sampler {
	struct sysroot root; /* copy; the caller's root must outlive the sampler */
	pid_t pid;
	bool tree;
	int piddir;	  /* proc/PID, O_PATH: bound to the process, not the number */
	struct tentry *e; /* entries of the last tick, sorted by (pid, tid) */
	size_t n, cap;
	struct tentry *ne; /* entries being built this tick */
	size_t nn, ncap;
	pid_t *pids; /* processes followed this tick */
	size_t pids_cap;
	pid_t *tids; /* TIDs listed for one process */
	size_t ntids, tids_cap;
	size_t nfds;		   /* descriptors held over all entries */
	int fd_ceiling;		   /* descriptors at or above this are not held */
	long hz;		   /* clock ticks per second, for kernels without schedstat */
	double now;		   /* CLOCK_MONOTONIC seconds of this tick */
	uint64_t status_period_ns; /* 0: status of every thread that ran, each tick */
	uint64_t stat_period_ns;   /* 0: stat of every thread that ran, each tick */
	uint64_t sched_period_ns;  /* 0: schedstat of every thread, each tick */
	pid_t *want;		   /* TIDs whose stat is read whenever they ran, sorted */
	size_t nwant, want_cap;
	struct thread_sampler_reads reads;
	char dents[32768]; /* getdents64 buffer */
	char buf[4096];	   /* file contents */
};

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return x < y ? -1 : x > y;
}

static void entry_close(struct thread_sampler *ts, struct tentry *e)
{
	for (int f = 0; f < F_N; f++)
		if (e->fd[f] >= 0) {
			close(e->fd[f]);
			e->fd[f] = -1;
			ts->nfds--;
		}
}

/* Keeps a reserve under RLIMIT_NOFILE so the rest of the program can still
 * open files; files beyond it are read by path (slower, still correct). */
static void update_fd_ceiling(struct thread_sampler *ts)
{
	struct rlimit rl;
	rlim_t soft = 1024;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		soft = rl.rlim_cur;
	if (soft > 1 << 20)
		soft = 1 << 20;
	ts->fd_ceiling = soft > 256 ? (int)soft - 64 : (int)soft / 2;
}

static void entry_open(struct thread_sampler *ts, int taskfd, struct tentry *e)
{
	char rel[64];
	for (int f = 0; f < F_N; f++) {
		snprintf(rel, sizeof(rel), "%d/%s", (int)e->s.tid, file_names[f]);
		int fd = openat(taskfd, rel, O_RDONLY | O_CLOEXEC);
		if (f == F_SCHED && fd < 0 && errno == ENOENT) {
			/* Missing schedstat but present stat: no CONFIG_SCHED_INFO. */
			snprintf(rel, sizeof(rel), "%d/stat", (int)e->s.tid);
			e->no_schedstat = faccessat(taskfd, rel, R_OK, 0) == 0;
		}
		/* schedstat, read every tick, comes first: stat and status keep
		 * a descriptor only while every listed thread's schedstat still
		 * fits under the ceiling. */
		bool room = f == F_SCHED ? fd < ts->fd_ceiling
					 : ts->nfds + ts->ntids < (size_t)ts->fd_ceiling;
		if (fd >= 0 && !room) {
			close(fd);
			fd = -1;
		}
		e->fd[f] = fd;
		if (fd >= 0)
			ts->nfds++;
	}
}

/* One pread is the whole file when it does not fill the buffer; a second one
 * only to see EOF would make the kernel format the file again. */
static ssize_t read_once(int fd, char *buf, size_t cap)
{
	ssize_t n = pread(fd, buf, cap - 1, 0);
	if (n < 0 && errno == EINTR)
		return sysroot_pread_all(fd, buf, cap);
	if (n < 0)
		return -errno;
	if ((size_t)n == cap - 1)
		return sysroot_pread_all(fd, buf, cap);
	buf[n] = '\0';
	return n;
}

static ssize_t entry_read(struct thread_sampler *ts, int taskfd, const struct tentry *e, int f)
{
	uint64_t *count[F_N] = {&ts->reads.schedstat, &ts->reads.stat, &ts->reads.status};
	(*count[f])++;
	if (e->fd[f] >= 0)
		return read_once(e->fd[f], ts->buf, sizeof(ts->buf));
	char rel[64];
	snprintf(rel, sizeof(rel), "%d/%s", (int)e->s.tid, file_names[f]);
	int fd = openat(taskfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read_once(fd, ts->buf, sizeof(ts->buf));
	close(fd);
	return n;
}

static bool wanted(const struct thread_sampler *ts, const struct tentry *e)
{
	return ts->nwant && bsearch(&e->s.tid, ts->want, ts->nwant, sizeof(*ts->want), pid_cmp);
}

/* Whether a boundary of the TID's phase of period p (ns) fell between then
 * and the tick; mult spreads the phases of one period by TID. */
static bool phase_due(const struct thread_sampler *ts, const struct tentry *e, uint64_t p,
		      uint32_t mult, double then)
{
	uint64_t phase = (uint64_t)(uint32_t)e->s.tid * mult % p;
	uint64_t t0 = (uint64_t)llround(then * 1e9) + phase;
	uint64_t t1 = (uint64_t)llround(ts->now * 1e9) + phase;
	return t0 / p != t1 / p;
}

/* Whether a thread that ran since its counts were exact has status read
 * now: its TID's phase boundary (one per period) fell since csw_time.  The
 * phases spread the reads evenly over the period. */
static bool status_due(const struct thread_sampler *ts, const struct tentry *e)
{
	uint64_t p = ts->status_period_ns;
	if (p == 0)
		return true;
	if (ts->sched_period_ns && !wanted(ts, e))
		p *= QUIET_STATUS_FACTOR;
	return phase_due(ts, e, p, 2654435761u, e->s.csw_time);
}

/* Whether stat of a thread that ran is read now: it is wanted (shown or
 * exported), or its phase boundary of the stat period fell since its last
 * read (the same spreading as status). */
static bool stat_due(const struct thread_sampler *ts, const struct tentry *e)
{
	uint64_t p = ts->stat_period_ns;
	if (p == 0 || !e->have || wanted(ts, e))
		return true;
	return phase_due(ts, e, p, 2246822519u, e->stat_time);
}

/* Whether the thread's files are read at all this tick (the sched period,
 * threads.h): always when it is new, leads its process, is wanted or was
 * read only once, else at its phase boundary. */
static bool sched_due(const struct thread_sampler *ts, const struct tentry *e)
{
	uint64_t p = ts->sched_period_ns;
	if (p == 0 || !e->have || e->no_schedstat || e->s.tid == e->s.pid ||
	    e->s.sched_time0 <= 0 || wanted(ts, e))
		return true;
	return phase_due(ts, e, p, 3266489917u, e->s.sched_time);
}

/* Moves the point at which the switch counts were exact to now. */
static void csw_advance(struct tentry *e, double now, uint64_t vcsw, uint64_t ivcsw)
{
	struct thread_sample *s = &e->s;
	s->vcsw0 = s->vcsw;
	s->ivcsw0 = s->ivcsw;
	s->csw_time0 = s->csw_time;
	s->vcsw = vcsw;
	s->ivcsw = ivcsw;
	s->csw_time = now;
}

/* Reads the entry's files.  Returns 0, or -errno when the thread is gone or
 * its files are malformed (either way it is dropped). */
static int entry_update(struct thread_sampler *ts, int taskfd, struct tentry *e)
{
	struct schedstat ss = {0};
	struct stat_line st;
	uint64_t vcsw = 0, ivcsw = 0;
	ssize_t n;
	bool changed = true;

	if (!sched_due(ts, e))
		return 0; /* the sample stands; its rates are carried */
	if (!e->no_schedstat) {
		if ((n = entry_read(ts, taskfd, e, F_SCHED)) < 0)
			return (int)n;
		if (schedstat_parse(ts->buf, &ss) < 0)
			return -EINVAL;
		changed = !e->have || ss.run_ns != e->s.run_ns || ss.wait_ns != e->s.wait_ns ||
			  ss.slices != e->s.slices;
	}
	bool fresh = !changed && !e->csw_stale; /* counts still exact: no read needed */
	/* A thread last seen runnable whose schedstat stands still may be
	 * waiting for a CPU all along: its state tells (thread-rates.c). */
	bool read_stat = e->s.tid == e->s.pid || e->no_schedstat || (changed && stat_due(ts, e)) ||
			 (!changed && e->s.state == 'R');
	bool read_status;
	if (!e->have || e->no_schedstat)
		read_status = true;
	else if (fresh)
		read_status = false;
	else
		read_status = (changed && e->csw_idle) || status_due(ts, e);

	if (read_stat) {
		if ((n = entry_read(ts, taskfd, e, F_STAT)) < 0)
			return (int)n;
		if (stat_line_parse(ts->buf, (size_t)n, &st) < 0)
			return -EINVAL;
	}
	if (read_status) {
		if ((n = entry_read(ts, taskfd, e, F_STATUS)) < 0)
			return (int)n;
		if (status_switches_parse(ts->buf, (size_t)n, &vcsw, &ivcsw) < 0)
			return -EINVAL;
	}

	struct thread_sample *s = &e->s;
	if (read_stat) {
		memcpy(s->name, st.name, sizeof(s->name));
		s->name_len = st.name_len;
		s->state = st.state;
		s->cpu = st.processor;
		s->utime = st.utime;
		s->stime = st.stime;
		s->starttime = st.starttime;
		e->nthreads = st.num_threads;
		e->stat_time = ts->now;
	}
	if (e->no_schedstat) {
		ss.run_ns = (st.utime + st.stime) * (1000000000u / (uint64_t)ts->hz);
		ss.slices = vcsw + ivcsw;
	}
	if (e->have) {
		s->run0_ns = s->run_ns;
		s->wait0_ns = s->wait_ns;
		s->sched_time0 = s->sched_time;
	}
	s->run_ns = ss.run_ns;
	s->wait_ns = ss.wait_ns;
	s->slices = ss.slices;
	s->sched_time = ts->now;

	if (read_status) {
		csw_advance(e, ts->now, vcsw, ivcsw);
		if (!e->have) {
			s->vcsw0 = vcsw;
			s->ivcsw0 = ivcsw;
			s->csw_time0 = 0;
		}
		e->csw_idle = !e->have;
		e->csw_stale = false;
	} else if (fresh) {
		csw_advance(e, ts->now, s->vcsw, s->ivcsw);
		e->csw_idle = true;
	} else {
		e->csw_stale = true;
	}
	e->have = true;
	return 0;
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
			qsort(ts->tids, ts->ntids, sizeof(*ts->tids), pid_cmp);
			break;
		}
	return 0;
}

static void drop_old_before(struct thread_sampler *ts, size_t *i, pid_t pid, pid_t tid)
{
	while (*i < ts->n &&
	       (ts->e[*i].s.pid < pid || (ts->e[*i].s.pid == pid && ts->e[*i].s.tid < tid)))
		entry_close(ts, &ts->e[(*i)++]);
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
static void entry_visit(struct thread_sampler *ts, int taskfd, struct tentry *e, bool kept,
			bool *alive)
{
	int rc = entry_update(ts, taskfd, e);
	if (rc < 0 && kept) {
		/* Held descriptors of an exited task: the TID may have been reused. */
		entry_close(ts, e);
		e->have = false;
		entry_open(ts, taskfd, e);
		rc = entry_update(ts, taskfd, e);
	}
	if (rc < 0) {
		entry_close(ts, e);
		return;
	}
	if (e->s.state != 'Z' && e->s.state != 'X')
		*alive = true;
	ts->ne = xreallocarray_grow(ts->ne, &ts->ncap, ts->nn + 1, sizeof(*ts->ne));
	ts->ne[ts->nn++] = *e;
}

static void entry_new(struct thread_sampler *ts, int taskfd, pid_t pid, pid_t tid, bool *alive)
{
	struct tentry e;
	memset(&e, 0, sizeof(e));
	e.s.pid = pid;
	e.s.tid = tid;
	entry_open(ts, taskfd, &e);
	entry_visit(ts, taskfd, &e, false, alive);
}

static int entry_tid_cmp(const void *a, const void *b)
{
	return pid_cmp(&((const struct tentry *)a)->s.tid, &((const struct tentry *)b)->s.tid);
}

/* After a tick that visited only the known TIDs: if the leader's thread
 * count differs from the threads kept, list task/ after all, drop what it
 * does not hold and add what it holds and we did not. */
static void add_unlisted(struct thread_sampler *ts, int taskfd, pid_t pid, size_t first,
			 bool *alive)
{
	const struct tentry *leader = NULL;
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
			entry_close(ts, &ts->ne[j]);
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
			struct tentry e = ts->e[(*old)++];
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
			entry_close(ts, &ts->ne[--ts->nn]);
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
	ts->hz = sysconf(_SC_CLK_TCK);
	if (ts->hz <= 0)
		ts->hz = 100;
	return ts;
}

void thread_sampler_free(struct thread_sampler *ts)
{
	if (!ts)
		return;
	for (size_t i = 0; i < ts->n; i++)
		entry_close(ts, &ts->e[i]);
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
	qsort(ts->want, n, sizeof(*ts->want), pid_cmp);
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
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return thread_sampler_sample_at(ts, (double)now.tv_sec + (double)now.tv_nsec / 1e9, out);
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
		qsort(ts->pids, npids, sizeof(*ts->pids), pid_cmp);

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
		entry_close(ts, &ts->e[old++]);

	struct tentry *tmp = ts->e;
	size_t tcap = ts->cap;
	ts->e = ts->ne;
	ts->cap = ts->ncap;
	ts->n = ts->nn;
	ts->ne = tmp;
	ts->ncap = tcap;
	ts->nn = 0;

	if (!target_alive) {
		for (size_t i = 0; i < ts->n; i++)
			entry_close(ts, &ts->e[i]);
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
