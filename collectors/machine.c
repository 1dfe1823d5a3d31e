/* machine.c — every process of the machine over an interval (machine.h).
 *
 * Design: the sampler keeps, per process seen at the last call, its start
 * time, its cgroup and each thread's run and wait nanoseconds.  A call
 * lists proc/, reads every process again and merges the new readings with
 * the kept ones by PID (both sorted), so a process's rates are the sum of
 * its threads' deltas; what it keeps is replaced by what it read. */
#include "config.h"

#include "machine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "procinfo.h"
#include "xalloc.h"
#include "clock.h"
#include "cgroup-parse.h"

struct mthread {
	pid_t tid;
	uint64_t run, wait; /* schedstat fields 1, 2, ns */
};

struct mproc {
	pid_t pid;
	uint64_t starttime;
	uint64_t ticks; /* stat utime + stime */
	uint64_t total_ns; /* its whole run, ended threads included (threads.h,
			    * proc_run_ns); 0: not known */
	int stat_fd;	/* its stat line, held open (live only); -1 none */
	bool stat_leader; /* stat_fd is the leader thread's task/PID/stat */
	char cgroup[CGROUP_PATH_MAX];
	double cgroup_at;   /* when cgroup was read, the caller's clock */
	double at;	    /* when its threads' figures were read, the caller's clock */
	uint32_t name_hash; /* procparse_name_hash of its name then */
	struct mthread *t;  /* sorted by tid */
	size_t nt, tcap;
};

struct mlist {
	struct mproc *v; /* sorted by pid */
	size_t n, cap;
};

struct machine_sampler {
	struct sysroot root;
	struct mlist kept;
	pid_t *pids, *tids;
	size_t pids_cap, tids_cap;
	bool have_prev;
	double last_time;   /* the caller's clock at the last call */
	double entry;	    /* CLOCK_MONOTONIC s at this call's start (live roots) */
	double last_uptime; /* proc/uptime at the last call, s since boot */
	bool have_stat;
	uint64_t busy0, total0;
	long hz;
	int fd_ceiling; /* stat descriptors are held below this number */
	uint64_t reads;
	const struct thread_set *known; /* machine_sampler_known; NULL: none */
};

int machine_stat_parse(const char *buf, uint64_t *busy, uint64_t *total)
{
	unsigned long long f[8] = {0};
	if (strncmp(buf, "cpu ", 4) != 0)
		return -EINVAL;
	int n = sscanf(buf + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2],
		       &f[3], &f[4], &f[5], &f[6], &f[7]);
	if (n < 4)
		return -EINVAL;
	/* user nice system idle iowait irq softirq steal; guest is inside user */
	*busy = f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
	*total = *busy + f[3] + f[4];
	return 0;
}

int machine_cgroup_parse(const char *buf, char *out, size_t cap)
{
	struct cgroup_line l;
	int rc = cgroup_parse_file(buf, true, &l);
	if (rc == -ENOENT)
		rc = cgroup_parse_file(buf, false, &l);
	if (rc < 0)
		return rc;
	snprintf(out, cap, "%s", l.path);
	return 0;
}

struct machine_sampler *machine_sampler_new(const struct sysroot *r)
{
	if (!sysroot_exists(r, "proc")) {
		errno = ENOENT;
		return NULL;
	}
	struct machine_sampler *m = xcalloc(1, sizeof(*m));
	m->root = *r;
	m->hz = clock_ticks_per_s();
	/* Half the descriptors at most, and only live: a fixture's files are
	 * rewritten and removed between calls, procfs's are not. */
	int soft = sysroot_nofile();
	m->fd_ceiling = r->live && soft > 256 ? soft / 2 : 0;
	return m;
}

static void mlist_free(struct mlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].t);
		if (l->v[i].stat_fd >= 0)
			close(l->v[i].stat_fd);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void machine_sampler_free(struct machine_sampler *m)
{
	if (!m)
		return;
	mlist_free(&m->kept);
	free(m->pids);
	free(m->tids);
	free(m);
}

uint64_t machine_sampler_reads(const struct machine_sampler *m)
{
	return m->reads;
}

void machine_sample_init(struct machine_sample *s)
{
	memset(s, 0, sizeof(*s));
}

void machine_sample_free(struct machine_sample *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static ssize_t machine_read(struct machine_sampler *m, const char *rel, char *buf, size_t cap)
{
	m->reads++;
	return sysroot_read(&m->root, rel, buf, cap);
}

static struct mproc *machine_kept(const struct machine_sampler *m, pid_t pid)
{
	size_t lo = 0, hi = m->kept.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->kept.v[mid].pid == pid)
			return &m->kept.v[mid];
		if (m->kept.v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const struct mthread *machine_kept_thread(const struct mproc *p, pid_t tid)
{
	size_t lo = 0, hi = p ? p->nt : 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (p->t[mid].tid == tid)
			return &p->t[mid];
		if (p->t[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void machine_set_cpu(uint8_t *set, int c)
{
	if (c >= 0 && c < MACHINE_CPUS_MAX)
		set[c / 8] |= (uint8_t)(1u << (c % 8));
}

/* The stat line of process pid into buf (NUL-terminated): proc/PID/stat,
 * or with leader its leader thread's, proc/PID/task/PID/stat, for a
 * process whose threads the caller knows (machine_sampler_known).  The
 * leader's line has the process's PID, name, state, parent, start time
 * and thread count, and its own utime and stime only; the kernel makes it
 * without walking the threads, which proc/PID/stat does twice (CPU times
 * and faults): with 10,000 threads that walk was a sixth of an attached
 * dashboard's CPU.  Read again through the descriptor held (*held: taken
 * from the kept entry, -1 none; of the same kind of line), which reads
 * ESRCH once its process has ended, even when the PID is another
 * process's now; else opened.  *held gets the descriptor to hold for the
 * next call (-1: none).  Returns the bytes read or -errno. */
static ssize_t machine_stat_read(struct machine_sampler *m, pid_t pid, bool leader, int *held,
				 char *buf, size_t cap)
{
	m->reads++;
	int fd = *held;
	*held = -1;
	if (fd >= 0) {
		ssize_t n = sysroot_pread_all(fd, buf, cap);
		if (n > 0) {
			*held = fd;
			return n;
		}
		close(fd);
	}
	char rel[64];
	if (leader)
		snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", (int)pid, (int)pid);
	else
		snprintf(rel, sizeof(rel), "proc/%d/stat", (int)pid);
	fd = sysroot_openat(&m->root, rel, O_RDONLY);
	if (fd < 0)
		return fd;
	ssize_t n = sysroot_pread_all(fd, buf, cap);
	if (n > 0 && fd < m->fd_ceiling)
		*held = fd;
	else
		close(fd);
	return n;
}

/* The last CPU of thread tid of pid (a thread that ran), or -1. */
static int machine_thread_cpu(struct machine_sampler *m, pid_t pid, pid_t tid)
{
	char rel[64], buf[1024];
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", (int)pid, (int)tid);
	ssize_t n = machine_read(m, rel, buf, sizeof(buf));
	struct stat_line st;
	if (n <= 0 || procparse_stat_line(buf, (size_t)n, &st) < 0)
		return -1;
	return st.processor;
}

/* Thread tid's run and wait into np, their delta against old (NULL:
 * none kept) added to *run_d, *wait_d.  whole: a process born inside the
 * interval, whose totals are its rates.  Returns the run delta. */
static uint64_t machine_thread_add(struct mproc *np, const struct mproc *old, bool whole, pid_t tid,
				   uint64_t run, uint64_t wait, uint64_t *run_d, uint64_t *wait_d)
{
	struct mthread *t = &np->t[np->nt++];
	t->tid = tid;
	t->run = run;
	t->wait = wait;
	const struct mthread *o = machine_kept_thread(old, tid);
	uint64_t r = 0, w = 0;
	if (o) {
		r = t->run >= o->run ? t->run - o->run : 0;
		w = t->wait >= o->wait ? t->wait - o->wait : 0;
	} else if (old || whole) {
		/* started since the last call: its whole life is inside */
		r = t->run;
		w = t->wait;
	}
	*run_d += r;
	*wait_d += w;
	return r;
}

/* Reads the threads of process x (stat st) into np, their deltas against
 * old (NULL: none kept) into x (machine_thread_add). */
static void machine_threads(struct machine_sampler *m, const struct stat_line *st,
			    const struct mproc *old, bool whole, struct mproc *np,
			    struct machine_proc *x, uint64_t *run_d, uint64_t *wait_d)
{
	size_t nt = 1;
	if (st->num_threads > 1) {
		ssize_t k = procinfo_tids(&m->root, st->pid, &m->tids, &m->tids_cap);
		m->reads++;
		nt = k > 0 ? (size_t)k : 0;
	} else {
		m->tids = xreallocarray_grow(m->tids, &m->tids_cap, 1, sizeof(*m->tids));
		m->tids[0] = st->pid;
	}
	np->t = xreallocarray_grow(NULL, &np->tcap, nt + 1, sizeof(*np->t));
	for (size_t i = 0; i < nt; i++) {
		char rel[64], buf[128];
		pid_t tid = m->tids[i];
		if (st->num_threads > 1)
			snprintf(rel, sizeof(rel), "proc/%d/task/%d/schedstat", (int)st->pid,
				 (int)tid);
		else
			snprintf(rel, sizeof(rel), "proc/%d/schedstat", (int)st->pid);
		struct schedstat ss;
		if (machine_read(m, rel, buf, sizeof(buf)) <= 0 ||
		    procparse_schedstat(buf, &ss) < 0)
			continue; /* gone, or not readable: skipped */
		if (machine_thread_add(np, old, whole, tid, ss.run_ns, ss.wait_ns, run_d, wait_d) >
		    0)
			machine_set_cpu(x->ran_on, st->num_threads > 1
						       ? machine_thread_cpu(m, st->pid, tid)
						       : st->processor);
	}
	x->threads = (int)st->num_threads;
}

/* The first of the known threads of process pid (m->known), or NULL. */
static const struct thread_sample *machine_known_first(const struct machine_sampler *m, pid_t pid,
						       size_t *count)
{
	const struct thread_set *k = m->known;
	if (!k)
		return NULL;
	size_t lo = 0, hi = k->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (k->v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < k->n && k->v[end].pid == pid)
		end++;
	*count = end - lo;
	return end > lo ? &k->v[lo] : NULL;
}

/* The stat line of the process whose known threads are v[n] (NULL: none),
 * from its leader's sample where that has the process's fields (the BPF
 * path: thread_sample's ppid and nthreads): no file read.  utime and stime
 * are left 0 (a known process's are not used).  Returns false when there
 * is no such sample. */
static bool machine_known_stat(const struct thread_sample *v, size_t n, struct stat_line *st)
{
	const struct thread_sample *lead = NULL;
	for (size_t i = 0; v && i < n && !lead; i++)
		if (v[i].tid == v[i].pid && v[i].nthreads > 0)
			lead = &v[i];
	if (!lead)
		return false;
	memset(st, 0, sizeof(*st));
	st->pid = lead->pid;
	memcpy(st->name, lead->name, sizeof(st->name)); /* both TASK_NAME_MAX */
	st->name_len = lead->name_len;
	st->state = lead->state;
	st->ppid = lead->ppid;
	st->num_threads = lead->nthreads;
	st->starttime = lead->starttime;
	st->processor = lead->cpu;
	return true;
}

/* The whole run of the process whose known threads are v[n] (its
 * leader's proc_run_ns), or 0. */
static uint64_t machine_known_total(const struct thread_sample *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].tid == v[i].pid)
			return v[i].proc_run_ns;
	return 0;
}

/* The known threads v[n] of process x into np, as machine_threads reads
 * them: their run and wait from the caller's sample, their last CPU its. */
static void machine_known_threads(const struct thread_sample *v, size_t n, const struct mproc *old,
				  bool whole, struct mproc *np, struct machine_proc *x,
				  uint64_t *run_d, uint64_t *wait_d)
{
	np->t = xreallocarray_grow(NULL, &np->tcap, n + 1, sizeof(*np->t));
	for (size_t i = 0; i < n; i++) {
		if (v[i].state == 'Z' || v[i].state == 'X')
			continue;
		if (machine_thread_add(np, old, whole, v[i].tid, v[i].run_ns, v[i].wait_ns, run_d,
				       wait_d) > 0)
			machine_set_cpu(x->ran_on, v[i].cpu);
	}
}

/* The cgroup of process pid into np (kept from old while fresh and while
 * its name is the same: a launcher such as cgexec moves itself to another
 * cgroup, then execs the job). */
static void machine_cgroup(struct machine_sampler *m, pid_t pid, const struct mproc *old,
			   double now, struct mproc *np)
{
	if (old && now - old->cgroup_at < MACHINE_CGROUP_S && old->name_hash == np->name_hash) {
		memcpy(np->cgroup, old->cgroup, sizeof(np->cgroup));
		np->cgroup_at = old->cgroup_at;
		return;
	}
	char rel[48], buf[4096];
	snprintf(rel, sizeof(rel), "proc/%d/cgroup", (int)pid);
	np->cgroup[0] = '\0';
	np->cgroup_at = now;
	if (machine_read(m, rel, buf, sizeof(buf)) > 0)
		machine_cgroup_parse(buf, np->cgroup, sizeof(np->cgroup));
}

/* proc/stat's busy CPUs since the last call into out. */
static void machine_busy(struct machine_sampler *m, double dt, struct machine_sample *out)
{
	char buf[1024];
	uint64_t busy, total;
	out->busy_valid = false;
	if (machine_read(m, "proc/stat", buf, sizeof(buf)) <= 0 ||
	    machine_stat_parse(buf, &busy, &total) < 0) {
		m->have_stat = false;
		return;
	}
	if (m->have_stat && dt > 0 && busy >= m->busy0) {
		out->busy_valid = true;
		out->busy_cpus = (double)(busy - m->busy0) / (double)m->hz / dt;
	}
	m->busy0 = busy;
	m->total0 = total;
	m->have_stat = true;
}

/* The caller's clock now: its now at this call's start, plus the time
 * since on a live root (a pass over the machine takes long on a crowded
 * box, and each process's rates are over the time between its own
 * reads); a fixture's clock is the caller's alone. */
static double machine_clock(const struct machine_sampler *m, double now)
{
	return m->root.live ? now + (clock_seconds(CLOCK_MONOTONIC) - m->entry) : now;
}

static double machine_uptime(struct machine_sampler *m)
{
	char buf[128];
	if (machine_read(m, "proc/uptime", buf, sizeof(buf)) <= 0)
		return -1;
	return strtod(buf, NULL);
}

int machine_sample(struct machine_sampler *m, double now, struct machine_sample *out)
{
	m->entry = clock_seconds(CLOCK_MONOTONIC);
	ssize_t np = procinfo_pids(&m->root, &m->pids, &m->pids_cap);
	m->reads++;
	if (np < 0) {
		m->known = NULL;
		return (int)np;
	}
	double dt = m->have_prev ? now - m->last_time : 0;
	double uptime = machine_uptime(m);
	struct mlist next = {0};
	next.v = xreallocarray_grow(NULL, &next.cap, (size_t)np + 1, sizeof(*next.v));
	out->v = xreallocarray_grow(out->v, &out->cap, (size_t)np + 1, sizeof(*out->v));
	out->n = out->nthreads = 0;
	out->cpus = out->wait = 0;
	for (ssize_t i = 0; i < np; i++) {
		char buf[1024];
		struct mproc *kept = machine_kept(m, m->pids[i]);
		size_t nknown = 0;
		const struct thread_sample *known = machine_known_first(m, m->pids[i], &nknown);
		struct stat_line st;
		bool from_sample = machine_known_stat(known, nknown, &st);
		int fd = -1;
		if (kept) {
			fd = kept->stat_fd;
			kept->stat_fd = -1; /* ours now: closed below or held in next */
			/* none read while the sample has the fields; else the
			 * descriptor must hold the kind of line read now */
			if (fd >= 0 && (from_sample || kept->stat_leader != (known != NULL))) {
				close(fd);
				fd = -1;
			}
		}
		int got = 0;
		if (!from_sample) {
			ssize_t n =
			    machine_stat_read(m, m->pids[i], known != NULL, &fd, buf, sizeof(buf));
			got = n <= 0 ? -1 : procparse_stat_line(buf, (size_t)n, &st);
		}
		/* gone, or dead: a zombie with no thread left (a leader that
		 * exited while its other threads run reads Z too: they are read) */
		if (got < 0 || st.pid != m->pids[i] ||
		    ((st.state == 'Z' || st.state == 'X') && st.num_threads <= 1)) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		const struct mproc *old = kept;
		if (old && old->starttime != st.starttime)
			old = NULL; /* a reused PID: another process */
		bool whole = !old && m->have_prev && uptime >= 0 &&
			     (double)st.starttime / (double)m->hz > m->last_uptime;
		struct mproc *p = &next.v[next.n];
		memset(p, 0, sizeof(*p));
		p->pid = st.pid;
		p->starttime = st.starttime;
		p->name_hash = procparse_name_hash(st.name, st.name_len);
		/* the leader's ticks only, for a known process: never equal to a
		 * later whole-process reading's by chance (the shortcut below) */
		p->ticks = known ? UINT64_MAX : st.utime + st.stime;
		p->stat_fd = fd;
		p->stat_leader = known != NULL;
		p->total_ns = known ? machine_known_total(known, nknown)
				    : (st.utime + st.stime) * (1000000000u / (uint64_t)m->hz);
		struct machine_proc *x = &out->v[out->n];
		memset(x, 0, sizeof(*x));
		x->pid = st.pid;
		x->ppid = st.ppid;
		x->starttime = st.starttime;
		memcpy(x->name, st.name, sizeof(x->name));
		x->name_len = st.name_len;
		x->name_hash = p->name_hash;
		x->kernel = st.pid == 2 || st.ppid == 2;
		uint64_t run = 0, wait = 0;
		/* when its threads' figures are from: the caller's sample's time,
		 * or now, as they are read (or stand: what they did since is less
		 * than a tick, counted at the next read, whose span starts now) */
		p->at = !known ? machine_clock(m, now) : m->known->time > 0 ? m->known->time : now;
		if (known) {
			machine_known_threads(known, nknown, old, whole, p, x, &run, &wait);
			x->threads = (int)st.num_threads;
		} else if (old && st.state != 'R' && old->ticks == p->ticks &&
			   old->nt == (size_t)st.num_threads) {
			/* asleep and no CPU since the last call: its threads stand */
			p->t = xmalloc(old->nt * sizeof(*p->t));
			memcpy(p->t, old->t, old->nt * sizeof(*p->t));
			p->nt = p->tcap = old->nt;
			x->threads = (int)st.num_threads;
		} else {
			machine_threads(m, &st, old, whole, p, x, &run, &wait);
		}
		if (p->nt == 0) {
			free(p->t);
			if (p->stat_fd >= 0)
				close(p->stat_fd);
			continue; /* every thread went while it was read */
		}
		machine_cgroup(m, st.pid, old, now, p);
		memcpy(x->cgroup, p->cgroup, sizeof(x->cgroup));
		x->is_new = !old && !whole;
		x->born = !old && whole;
		/* over the time between its own reads (a born process's whole
		 * life: the interval) */
		double span = old && p->at > old->at ? p->at - old->at : dt;
		if (!x->is_new && dt > 0 && span > 0) {
			/* what its whole run gained beyond its threads': threads
			 * that started and ended between two reads (beyond two
			 * ticks of rounding), running while they ran */
			if (old && old->total_ns && p->total_ns > old->total_ns + run &&
			    p->total_ns - old->total_ns - run > 2 * (1000000000u / (uint64_t)m->hz))
				run = p->total_ns - old->total_ns;
			x->cpus = (double)run / 1e9 / span;
			x->wait = (double)wait / 1e9 / span;
			out->cpus += x->cpus;
			out->wait += x->wait;
		}
		out->nthreads += p->nt;
		next.n++;
		out->n++;
	}
	mlist_free(&m->kept);
	m->kept = next;
	machine_busy(m, dt, out);
	char buf[256];
	out->online = 0;
	if (machine_read(m, "sys/devices/system/cpu/online", buf, sizeof(buf)) > 0) {
		int c = cgroup_parse_cpulist_count(buf);
		out->online = c > 0 ? c : 0;
	}
	out->time = now;
	out->dt = dt;
	m->last_time = now;
	m->last_uptime = uptime;
	m->have_prev = true;
	m->known = NULL;
	return 0;
}

void machine_sampler_known(struct machine_sampler *m, const struct thread_set *known)
{
	m->known = known;
}
