/* fleet.c — the targets --match finds (fleet.h). */
#include "config.h"

#include "fleet.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procinfo.h"
#include "xalloc.h"

#define FLEET_CMDLINE_MAX 8192 /* bytes of a command line matched against */
#define FLEET_DEPTH_MAX	  128  /* parents followed up to init */

bool fleet_matches(const struct pattern *re, const char *comm, size_t comm_len, const char *cmdline,
		   size_t cmdline_len)
{
	char buf[FLEET_CMDLINE_MAX + 1];
	size_t n = comm_len < sizeof(buf) - 1 ? comm_len : sizeof(buf) - 1;
	if (n == comm_len && memchr(comm, '\0', n) == NULL && pattern_match(re, comm, n, NULL, 0))
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
	return pattern_match(re, buf, n, NULL, 0);
}

int fleet_start(struct fleet *f, const struct session_config *base, const char *regex, char *err,
		size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->root.fd = -1;
	f->base = *base;
	f->base.pid = 0;
	f->base.command = NULL;
	f->self = getpid();
	f->re = pattern_compile("--match", regex, err, errlen);
	if (!f->re)
		return EXIT_USAGE;
	int rc = sysroot_open(&f->root, base->root);
	if (rc < 0) {
		f->root.fd = -1;
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

/* Lists the processes into f->procs, the match of each known process kept
 * and each new one's command line read. */
static void fleet_list(struct fleet *f)
{
	ssize_t np = procinfo_pids(&f->root, &f->pids, &f->pids_cap);
	struct fleet_proc *next = NULL;
	size_t nn = 0, ncap = 0;
	if (!f->buf)
		f->buf = xmalloc(f->buf_cap = FLEET_CMDLINE_MAX);
	for (ssize_t i = 0; i < np; i++) {
		struct stat_line st;
		if (procinfo_stat(&f->root, f->pids[i], &st) < 0)
			continue; /* gone since the listing */
		struct fleet_proc p = {
		    .pid = f->pids[i], .ppid = st.ppid, .starttime = st.starttime};
		const struct fleet_proc *old = fleet_find(f->procs, f->nprocs, p.pid);
		if (old && old->starttime == p.starttime) {
			p.matches = old->matches;
		} else {
			ssize_t len = procinfo_cmdline(&f->root, p.pid, f->buf, f->buf_cap);
			p.matches = fleet_matches(f->re, st.name, st.name_len, f->buf,
						  len > 0 ? (size_t)len : 0);
		}
		next = xreallocarray_grow(next, &ncap, nn + 1, sizeof(*next));
		next[nn++] = p;
	}
	free(f->procs);
	f->procs = next;
	f->nprocs = nn;
	f->procs_cap = ncap;
}

/* Whether one of pid's ancestors (not pid itself) is anc, or, with
 * anc 0, matches. */
static bool fleet_descends(const struct fleet *f, pid_t pid, pid_t anc)
{
	const struct fleet_proc *p = fleet_find(f->procs, f->nprocs, pid);
	for (int depth = 0; p && p->ppid > 0 && depth < FLEET_DEPTH_MAX; depth++) {
		p = fleet_find(f->procs, f->nprocs, p->ppid);
		if (p && (anc ? p->pid == anc : p->matches && p->pid != f->self))
			return true;
	}
	return false;
}

static bool fleet_wanted(const struct fleet *f, const struct fleet_proc *p)
{
	if (!p->matches || p->pid == f->self || fleet_descends(f, p->pid, f->self))
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
	if (f->re)
		pattern_free(f->re);
	f->re = NULL;
	if (f->root.fd >= 0)
		sysroot_close(&f->root);
	f->root.fd = -1;
}
