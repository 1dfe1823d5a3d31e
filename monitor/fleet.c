/* fleet.c — the targets --match finds (fleet.h). */
#include "config.h"

#include "fleet.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procinfo.h"
#include "stop.h"
#include "xalloc.h"

#define FLEET_CMDLINE_MAX 8192		      /* bytes of a command line matched against */
#define FLEET_DEPTH_MAX	  128		      /* parents followed up to init */
#define FLEET_HEAD	  (2 + TASK_NAME_MAX) /* a record's comm length and comm */
#define FLEET_QUEUE	  (1024 * 1024)	      /* bytes of records waiting for the matcher */
#define FLEET_PID_BITS	  23		      /* a tag: the start time above the pid */

bool fleet_matches(const struct pattern *re, const char *comm, size_t comm_len, const char *cmdline,
		   size_t cmdline_len)
{
	char buf[FLEET_CMDLINE_MAX + 1];
	size_t n = comm_len < sizeof(buf) - 1 ? comm_len : sizeof(buf) - 1;
	memcpy(buf, comm, n);
	buf[n] = '\0';
	if (n == comm_len && memchr(buf, '\0', n) == NULL && pattern_match(re, buf, n, NULL, 0))
		return true;
	/* The arguments joined by spaces, as ps shows them; a trailing NUL
	 * ends the last one. */
	n = cmdline_len < sizeof(buf) - 1 ? cmdline_len : sizeof(buf) - 1;
	while (n > 0 && cmdline[n - 1] == '\0')
		n--;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		buf[i] = cmdline[i] == '\0' ? ' ' : cmdline[i];
	buf[n] = '\0';
	return pattern_match(re, buf, n, NULL, 0);
}

/* The matcher's function (matcher.h) over a record fleet_ask() made. */
static int fleet_match_record(const struct pattern *re, const char *text, size_t len,
			      struct matcher_result *r)
{
	(void)r;
	size_t clen = (size_t)(unsigned char)text[0] << 8 | (unsigned char)text[1];
	if (len < 2 || clen > len - 2)
		return 0;
	return fleet_matches(re, text + 2, clen, text + 2 + clen, len - 2 - clen);
}

/* The root, apart from fleet.h: a sysroot is the collectors' type. */
struct fleet_root {
	struct sysroot r;
};

static uint64_t fleet_tag(pid_t pid, uint64_t starttime)
{
	return starttime << FLEET_PID_BITS | (uint64_t)pid;
}

int fleet_start(struct fleet *f, const struct session_config *base, const char *regex, char *err,
		size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->root = xcalloc(1, sizeof(*f->root));
	f->root->r.fd = -1;
	f->base = *base;
	f->base.pid = 0;
	f->base.command = NULL;
	f->self = getpid();
	f->re = pattern_compile("--match", regex, err, errlen);
	if (!f->re)
		return EXIT_USAGE;
	f->matcher = matcher_start(f->re, fleet_match_record, FLEET_QUEUE,
				   FLEET_HEAD + FLEET_CMDLINE_MAX, 0);
	f->re = NULL; /* the matcher's now, freed with it */
	if (!f->matcher) {
		snprintf(err, errlen, "--match: cannot start the thread that matches: %s",
			 strerror(errno));
		return EXIT_RUNTIME;
	}
	int rc = sysroot_open(&f->root->r, base->root);
	if (rc < 0) {
		f->root->r.fd = -1;
		snprintf(err, errlen, "cannot open root directory '%s': %s", base->root,
			 strerror(-rc));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static const struct fleet_proc *fleet_find(const struct fleet_proc *v, size_t n, pid_t pid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].pid == pid ? &v[lo] : NULL;
}

/* Gives the matcher p's name and command line; p->asked when it took them. */
static void fleet_ask(struct fleet *f, struct fleet_proc *p, const struct stat_line *st)
{
	size_t clen = st->name_len < TASK_NAME_MAX ? st->name_len : TASK_NAME_MAX;
	f->buf[0] = (char)(clen >> 8);
	f->buf[1] = (char)(clen & 0xff);
	memcpy(f->buf + 2, st->name, clen);
	ssize_t len = procinfo_cmdline(&f->root->r, p->pid, f->buf + 2 + clen, FLEET_CMDLINE_MAX);
	size_t n = 2 + clen + (len > 0 ? (size_t)len : 0);
	p->asked =
	    matcher_put(f->matcher, fleet_tag(p->pid, p->starttime), f->buf, n, stop_now()) == 0;
}

/* The answers come back, into f->procs. */
static void fleet_answers(struct fleet *f)
{
	struct matcher_result r;
	const uint64_t mask = ((uint64_t)1 << FLEET_PID_BITS) - 1;
	while (matcher_take(f->matcher, &r, NULL, NULL)) {
		pid_t pid = (pid_t)(r.tag & mask);
		struct fleet_proc *p = (struct fleet_proc *)fleet_find(f->procs, f->nprocs, pid);
		if (p && fleet_tag(pid, p->starttime) == r.tag) {
			p->known = true;
			p->matches = r.status == 1;
		}
	}
}

/* Lists the processes into f->procs, what is known of each known process
 * kept and each new one given to the matcher. */
static void fleet_list(struct fleet *f)
{
	ssize_t np = procinfo_pids(&f->root->r, &f->pids, &f->pids_cap);
	struct fleet_proc *next = NULL;
	size_t nn = 0, ncap = 0;
	if (!f->buf)
		f->buf = xmalloc(f->buf_cap = FLEET_HEAD + FLEET_CMDLINE_MAX);
	for (ssize_t i = 0; i < np; i++) {
		struct stat_line st;
		if (procinfo_stat(&f->root->r, f->pids[i], &st) < 0)
			continue; /* gone since the listing */
		struct fleet_proc p = {.pid = f->pids[i],
				       .ppid = st.ppid,
				       .starttime = st.starttime,
				       .name_hash = procparse_name_hash(st.name, st.name_len)};
		const struct fleet_proc *old = fleet_find(f->procs, f->nprocs, p.pid);
		if (old && old->starttime == p.starttime) {
			/* The same process; after an exec (another name) it is
			 * asked again, its last answer kept until the new one. */
			p.asked = old->asked && old->name_hash == p.name_hash;
			p.known = old->known;
			p.matches = old->matches;
		}
		if (!p.asked)
			fleet_ask(f, &p, &st);
		next = xreallocarray_grow(next, &ncap, nn + 1, sizeof(*next));
		next[nn++] = p;
	}
	free(f->procs);
	f->procs = next;
	f->nprocs = nn;
	f->procs_cap = ncap;
	fleet_answers(f);
}

/* Whether one of pid's ancestors (not pid itself) is anc, or, with
 * anc 0, matches and could be a member (not threadlab, nor what started
 * it). */
static bool fleet_descends(const struct fleet *f, pid_t pid, pid_t anc)
{
	const struct fleet_proc *p = fleet_find(f->procs, f->nprocs, pid);
	for (int depth = 0; p && p->ppid > 0 && depth < FLEET_DEPTH_MAX; depth++) {
		p = fleet_find(f->procs, f->nprocs, p->ppid);
		/* an ancestor not yet known may be the member; one that
		 * started threadlab never is (fleet_wanted) */
		if (p && (anc ? p->pid == anc
			      : (p->matches || !p->known) && p->pid != f->self &&
				    !fleet_descends(f, f->self, p->pid)))
			return true;
	}
	return false;
}

static bool fleet_wanted(const struct fleet *f, const struct fleet_proc *p)
{
	/* threadlab, what it started, and what started it (a timeout, sudo or
	 * shell around it holds the pattern in its command line too). */
	if (!p->known || !p->matches || p->pid == f->self || fleet_descends(f, p->pid, f->self) ||
	    fleet_descends(f, f->self, p->pid))
		return false;
	/* With --tree a matching child belongs to its matching ancestor. */
	return !(f->base.tree && fleet_descends(f, p->pid, 0));
}

static void fleet_drop(struct fleet *f, size_t i)
{
	session_stop(&f->m[i]->s);
	free(f->m[i]);
	memmove(&f->m[i], &f->m[i + 1], (f->n - i - 1) * sizeof(*f->m));
	f->n--;
	f->ended++;
}

static int fleet_member_cmp(const void *a, const void *b)
{
	pid_t x = (*(struct fleet_member *const *)a)->pid;
	pid_t y = (*(struct fleet_member *const *)b)->pid;
	return (x > y) - (x < y);
}

static void fleet_add(struct fleet *f, const struct fleet_proc *p)
{
	struct fleet_member *m = xcalloc(1, sizeof(*m));
	struct session_config c = f->base;
	char err[512];
	c.pid = p->pid;
	m->pid = p->pid;
	m->starttime = p->starttime;
	if (session_start(&m->s, &c, err, sizeof(err)) != EXIT_OK) {
		/* Gone already, or not readable: not a member (tried again if
		 * it comes back under another start time). */
		session_stop(&m->s);
		free(m);
		return;
	}
	f->m = xreallocarray_grow(f->m, &f->cap, f->n + 1, sizeof(*f->m));
	f->m[f->n++] = m;
	f->started++;
}

size_t fleet_tick(struct fleet *f)
{
	fleet_list(f);
	for (size_t i = f->n; i-- > 0;) {
		const struct fleet_proc *p = fleet_find(f->procs, f->nprocs, f->m[i]->pid);
		if (!p || p->starttime != f->m[i]->starttime || !fleet_wanted(f, p))
			fleet_drop(f, i);
	}
	bool added = false;
	for (size_t i = 0; i < f->nprocs; i++) {
		const struct fleet_proc *p = &f->procs[i];
		if (!fleet_wanted(f, p))
			continue;
		bool member = false;
		for (size_t k = 0; k < f->n && !member; k++)
			member = f->m[k]->pid == p->pid;
		if (!member) {
			fleet_add(f, p);
			added = true;
		}
	}
	if (added)
		qsort(f->m, f->n, sizeof(*f->m), fleet_member_cmp);
	for (size_t i = f->n; i-- > 0;)
		if (session_tick(&f->m[i]->s) < 0)
			fleet_drop(f, i);
	return f->n;
}

void fleet_stop(struct fleet *f)
{
	while (f->n > 0)
		fleet_drop(f, f->n - 1);
	free(f->m);
	f->m = NULL;
	f->cap = 0;
	free(f->procs);
	f->procs = NULL;
	f->nprocs = 0;
	free(f->pids);
	f->pids = NULL;
	free(f->buf);
	f->buf = NULL;
	matcher_stop(f->matcher); /* never waits for a match in progress */
	f->matcher = NULL;
	pattern_free(f->re);
	f->re = NULL;
	if (f->root && f->root->r.fd >= 0)
		sysroot_close(&f->root->r);
	free(f->root);
	f->root = NULL;
}
