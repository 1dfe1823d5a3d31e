/* thread-entry.c — one thread's files: the descriptors held on its
 * schedstat, stat and status, their reads, and the cadences that decide
 * which of them a tick reads (see threads.h, thread-entry.h).
 *
 * An entry holds descriptors of its schedstat, stat and status, re-read
 * with pread at offset 0: that costs a fraction of open/read/close.  If
 * schedstat (run, wait, slices) did not change, the thread has neither run
 * nor been woken, so stat and status are not read again and the previous
 * values are reused; the group leader's stat is always read, because a
 * zombie leader is how a dead but unreaped process shows.
 *
 * status costs more than stat and schedstat together and only gives switch
 * counts, so it follows a cadence of its own.  Each entry knows the last
 * point (csw_time) at which its counts were exact, and whether the thread
 * has run since (csw_stale).  An unchanged schedstat with fresh counts moves
 * that point to now without a read.  A thread that ran is read when its
 * TID's phase boundary (one per status period) fell since csw_time, or at
 * once when the last interval measured no run (new, or idle last tick) —
 * otherwise the rate carried from that interval would be a false 0. */
#include "config.h"

#include "thread-entry.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* With a sched period, the status period of the threads not wanted is this
 * many times the status period (threads.h). */
#define QUIET_STATUS_FACTOR 4
static const char *const file_names[THREAD_ENTRY_NFILES] = {"schedstat", "stat", "status"};

int thread_entry_pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return x < y ? -1 : x > y;
}

void thread_entry_close(struct thread_sampler *ts, struct thread_entry *e)
{
	for (int f = 0; f < THREAD_ENTRY_NFILES; f++)
		if (e->fd[f] >= 0) {
			close(e->fd[f]);
			e->fd[f] = -1;
			ts->nfds--;
		}
}

void thread_entry_open(struct thread_sampler *ts, int taskfd, struct thread_entry *e)
{
	char rel[64];
	for (int f = 0; f < THREAD_ENTRY_NFILES; f++) {
		snprintf(rel, sizeof(rel), "%d/%s", (int)e->s.tid, file_names[f]);
		int fd = openat(taskfd, rel, O_RDONLY | O_CLOEXEC);
		if (f == THREAD_ENTRY_SCHEDSTAT && fd < 0 && errno == ENOENT) {
			/* Missing schedstat but present stat: no CONFIG_SCHED_INFO. */
			snprintf(rel, sizeof(rel), "%d/stat", (int)e->s.tid);
			e->no_schedstat = faccessat(taskfd, rel, R_OK, 0) == 0;
		}
		/* schedstat, read every tick, comes first: stat and status keep
		 * a descriptor only while every listed thread's schedstat still
		 * fits under the ceiling. */
		bool room = f == THREAD_ENTRY_SCHEDSTAT
				? fd < ts->fd_ceiling
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

static ssize_t entry_read(struct thread_sampler *ts, int taskfd, const struct thread_entry *e,
			  int f)
{
	uint64_t *count[THREAD_ENTRY_NFILES] = {&ts->reads.schedstat, &ts->reads.stat,
						&ts->reads.status};
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

static bool wanted(const struct thread_sampler *ts, const struct thread_entry *e)
{
	return ts->nwant &&
	       bsearch(&e->s.tid, ts->want, ts->nwant, sizeof(*ts->want), thread_entry_pid_cmp);
}

/* Whether a boundary of the TID's phase of period p (ns) fell between then
 * and the tick; mult spreads the phases of one period by TID. */
static bool phase_due(const struct thread_sampler *ts, const struct thread_entry *e, uint64_t p,
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
static bool status_due(const struct thread_sampler *ts, const struct thread_entry *e)
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
static bool stat_due(const struct thread_sampler *ts, const struct thread_entry *e)
{
	uint64_t p = ts->stat_period_ns;
	if (p == 0 || !e->have || wanted(ts, e))
		return true;
	return phase_due(ts, e, p, 2246822519u, e->stat_time);
}

/* Whether the thread's files are read at all this tick (the sched period,
 * threads.h): always when it is new, leads its process, is wanted or was
 * read only once, else at its phase boundary. */
static bool sched_due(const struct thread_sampler *ts, const struct thread_entry *e)
{
	uint64_t p = ts->sched_period_ns;
	if (p == 0 || !e->have || e->no_schedstat || e->s.tid == e->s.pid ||
	    e->s.sched_time0 <= 0 || wanted(ts, e))
		return true;
	return phase_due(ts, e, p, 3266489917u, e->s.sched_time);
}

/* Moves the point at which the switch counts were exact to now. */
static void csw_advance(struct thread_entry *e, double now, uint64_t vcsw, uint64_t ivcsw)
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
int thread_entry_update(struct thread_sampler *ts, int taskfd, struct thread_entry *e)
{
	struct schedstat ss = {0};
	struct stat_line st;
	uint64_t vcsw = 0, ivcsw = 0;
	ssize_t n;
	bool changed = true;

	if (!sched_due(ts, e))
		return 0; /* the sample stands; its rates are carried */
	if (!e->no_schedstat) {
		if ((n = entry_read(ts, taskfd, e, THREAD_ENTRY_SCHEDSTAT)) < 0)
			return (int)n;
		if (procparse_schedstat(ts->buf, &ss) < 0)
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
		if ((n = entry_read(ts, taskfd, e, THREAD_ENTRY_STAT)) < 0)
			return (int)n;
		if (procparse_stat_line(ts->buf, (size_t)n, &st) < 0)
			return -EINVAL;
	}
	if (read_status) {
		if ((n = entry_read(ts, taskfd, e, THREAD_ENTRY_STATUS)) < 0)
			return (int)n;
		if (procparse_status_switches(ts->buf, (size_t)n, &vcsw, &ivcsw) < 0)
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
