/* threads.c — the per-thread sampler (see threads.h).
 *
 * Each tick, for every followed process (sorted by PID): list
 * proc/PID/task/ with getdents64, merge the sorted TIDs with the entries kept
 * from the previous tick, and bring each entry up to date.  An entry holds
 * descriptors of its schedstat, stat and status, re-read with pread at
 * offset 0: that costs a fraction of open/read/close.  If schedstat (run,
 * wait, slices) did not change, the thread has neither run nor been woken,
 * so stat and status are not read again and the previous values are reused;
 * the group leader's stat is always read, because a zombie leader is how a
 * dead but unreaped process shows.
 *
 * A descriptor held on a /proc task file is bound to that task: once it
 * exits, reads give ESRCH, even if the TID is reused.  So a read that fails
 * for a TID still listed is retried once through fresh descriptors, and the
 * start time (stat field 22) tells the rates a new thread from the old one.
 * Threads that vanish between listing and reading are dropped silently.
 *
 * libproc2 is not used here: its select of one 1,000-thread process costs
 * about as much as top -H per tick (DESIGN.md, "Hot path"). */
#include "config.h"

#include "threads.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "proctree.h"
#include "xalloc.h"

enum { F_SCHED, F_STAT, F_STATUS, F_N };
static const char *const file_names[F_N] = {"schedstat", "stat", "status"};

struct tentry {
	int fd[F_N];	   /* held descriptors; -1: read by path each time */
	bool no_schedstat; /* kernel without schedstat: run time from stat ticks */
	bool have;	   /* s holds a complete sample */
	struct thread_sample s;
};

struct tsampler {
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
	size_t nfds;	   /* descriptors held over all entries */
	int fd_ceiling;	   /* descriptors at or above this are not held */
	long hz;	   /* clock ticks per second, for kernels without schedstat */
	char dents[32768]; /* getdents64 buffer */
	char buf[4096];	   /* file contents */
};

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return x < y ? -1 : x > y;
}

static void entry_close(struct tsampler *ts, struct tentry *e)
{
	for (int f = 0; f < F_N; f++)
		if (e->fd[f] >= 0) {
			close(e->fd[f]);
			e->fd[f] = -1;
			ts->nfds--;
		}
}

/* Keeps a reserve under RLIMIT_NOFILE so the rest of the program can still
 * open files; threads beyond it are read by path (slower, still correct). */
static void update_fd_ceiling(struct tsampler *ts)
{
	struct rlimit rl;
	rlim_t soft = 1024;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		soft = rl.rlim_cur;
	if (soft > 1 << 20)
		soft = 1 << 20;
	ts->fd_ceiling = soft > 256 ? (int)soft - 64 : (int)soft / 2;
}

static void entry_open(struct tsampler *ts, int taskfd, struct tentry *e)
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
		if (fd >= ts->fd_ceiling) {
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

static ssize_t entry_read(struct tsampler *ts, int taskfd, const struct tentry *e, int f)
{
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

/* Reads the entry's files.  Returns 0, or -errno when the thread is gone or
 * its files are malformed (either way it is dropped). */
static int entry_update(struct tsampler *ts, int taskfd, struct tentry *e)
{
	struct schedstat ss = {0};
	struct stat_line st;
	struct status_info si;
	ssize_t n;

	if (!e->no_schedstat) {
		if ((n = entry_read(ts, taskfd, e, F_SCHED)) < 0)
			return (int)n;
		if (schedstat_parse(ts->buf, &ss) < 0)
			return -EINVAL;
		bool same = e->have && ss.run_ns == e->s.run_ns && ss.wait_ns == e->s.wait_ns &&
			    ss.slices == e->s.slices;
		if (same && e->s.tid != e->s.pid)
			return 0;
	}
	if ((n = entry_read(ts, taskfd, e, F_STAT)) < 0)
		return (int)n;
	if (stat_line_parse(ts->buf, (size_t)n, &st) < 0)
		return -EINVAL;
	if ((n = entry_read(ts, taskfd, e, F_STATUS)) < 0)
		return (int)n;
	if (status_parse(ts->buf, &si) < 0)
		return -EINVAL;

	struct thread_sample *s = &e->s;
	memcpy(s->name, st.name, sizeof(s->name));
	s->name_len = st.name_len;
	s->state = st.state;
	s->cpu = st.processor;
	s->utime = st.utime;
	s->stime = st.stime;
	s->starttime = st.starttime;
	if (e->no_schedstat) {
		ss.run_ns = (st.utime + st.stime) * (1000000000u / (uint64_t)ts->hz);
		ss.slices = si.vcsw + si.ivcsw;
	}
	s->run_ns = ss.run_ns;
	s->wait_ns = ss.wait_ns;
	s->slices = ss.slices;
	s->vcsw = si.vcsw;
	s->ivcsw = si.ivcsw;
	e->have = true;
	return 0;
}

/* Lists the numeric entries of a task directory into ts->tids, sorted. */
static int list_tids(struct tsampler *ts, int taskfd)
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
	qsort(ts->tids, ts->ntids, sizeof(*ts->tids), pid_cmp);
	return 0;
}

static void drop_old_before(struct tsampler *ts, size_t *i, pid_t pid, pid_t tid)
{
	while (*i < ts->n &&
	       (ts->e[*i].s.pid < pid || (ts->e[*i].s.pid == pid && ts->e[*i].s.tid < tid)))
		entry_close(ts, &ts->e[(*i)++]);
}

/* Brings the entries of one process up to date, appending them to ts->ne.
 * Returns true when the process is alive (some thread not a zombie). */
static bool sample_process(struct tsampler *ts, pid_t pid, size_t *old)
{
	int taskfd =
	    pid == ts->pid ? openat(ts->piddir, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (pid != ts->pid) {
		char rel[64];
		snprintf(rel, sizeof(rel), "proc/%d/task", (int)pid);
		taskfd = sysroot_openat(&ts->root, rel, O_RDONLY | O_DIRECTORY);
	}
	if (taskfd < 0 || list_tids(ts, taskfd) < 0) {
		if (taskfd >= 0)
			close(taskfd);
		return false;
	}

	size_t first = ts->nn;
	bool alive = false;
	for (size_t k = 0; k < ts->ntids; k++) {
		pid_t tid = ts->tids[k];
		drop_old_before(ts, old, pid, tid);
		struct tentry e;
		bool kept = *old < ts->n && ts->e[*old].s.pid == pid && ts->e[*old].s.tid == tid;
		if (kept) {
			e = ts->e[(*old)++];
		} else {
			memset(&e, 0, sizeof(e));
			e.s.pid = pid;
			e.s.tid = tid;
			entry_open(ts, taskfd, &e);
		}
		int rc = entry_update(ts, taskfd, &e);
		if (rc < 0 && kept) {
			/* Held descriptors of an exited task: the TID may have been reused. */
			entry_close(ts, &e);
			e.have = false;
			entry_open(ts, taskfd, &e);
			rc = entry_update(ts, taskfd, &e);
		}
		if (rc < 0) {
			entry_close(ts, &e);
			continue;
		}
		if (e.s.state != 'Z' && e.s.state != 'X')
			alive = true;
		ts->ne = xreallocarray_grow(ts->ne, &ts->ncap, ts->nn + 1, sizeof(*ts->ne));
		ts->ne[ts->nn++] = e;
	}
	drop_old_before(ts, old, pid + 1, 0);
	close(taskfd);
	if (!alive) {
		while (ts->nn > first)
			entry_close(ts, &ts->ne[--ts->nn]);
	}
	return alive;
}

struct tsampler *tsampler_new(const struct sysroot *r, pid_t pid, bool tree)
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

	struct tsampler *ts = xcalloc(1, sizeof(*ts));
	ts->root = *r;
	ts->pid = pid;
	ts->tree = tree;
	ts->piddir = piddir;
	ts->hz = sysconf(_SC_CLK_TCK);
	if (ts->hz <= 0)
		ts->hz = 100;
	return ts;
}

void tsampler_free(struct tsampler *ts)
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
	free(ts);
}

size_t tsampler_fds(const struct tsampler *ts)
{
	return ts->nfds;
}

int tsampler_sample(struct tsampler *ts, struct thread_set *out)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	out->time = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
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
