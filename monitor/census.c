/* census.c — the processes of a target and what each one is (census.h). */
#include "config.h"

#include "census-impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfsym.h"
#include "environ.h"
#include "maps.h"
#include "procinfo.h"
#include "xalloc.h"

#define CENSUS_MAPS_MAX (16u << 20) /* a framework maps thousands of files */

void census_init(struct census *c, const struct sysroot *r)
{
	memset(c, 0, sizeof(*c));
	c->cores = r ? procinfo_physical_cores(r) : 0;
}

static void census_proc_free(struct census_proc *p)
{
	free(p->environ);
	p->environ = NULL;
}

void census_free(struct census *c)
{
	for (size_t i = 0; i < c->n; i++)
		census_proc_free(&c->p[i]);
	free(c->p);
	memset(c, 0, sizeof(*c));
}

static int census_cmp(const void *a, const void *b)
{
	const struct census_proc *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

const struct census_proc *census_find(const struct census *c, pid_t pid)
{
	struct census_proc key = {.pid = pid};
	return c->n ? bsearch(&key, c->p, c->n, sizeof(*c->p), census_cmp) : NULL;
}

const char *census_var(const struct census_proc *p, const char *name)
{
	if (!p || p->env != CENSUS_ENV_OK)
		return NULL;
	for (size_t i = 0; environment_thread_vars[i] && i < ENVIRONMENT_VARS_MAX; i++)
		if (strcmp(environment_thread_vars[i], name) == 0)
			return p->vars[i];
	return environ_get(p->environ, p->environ_len, name);
}

static const char *census_env_get(const void *ctx, const char *name)
{
	return census_var(ctx, name);
}

struct runtimes_env census_runtimes_env(const struct census_proc *p)
{
	return (struct runtimes_env){census_env_get, p};
}

static void census_add_runtime(const struct maps_line *l, void *arg)
{
	struct census_proc *p = arg;
	struct runtime_match m;
	if (!runtimes_match(l->path, &m))
		return;
	char lib[CENSUS_LIB_MAX];
	snprintf(lib, sizeof(lib), "%.*s%s", (int)sizeof(lib) - 12, l->path,
		 l->deleted ? " (deleted)" : "");
	struct census_runtime *rt = NULL;
	for (size_t i = 0; i < p->nruntimes && !rt; i++)
		if (strcmp(p->runtimes[i].lib, lib) == 0)
			rt = &p->runtimes[i];
	if (!rt) {
		if (p->nruntimes == CENSUS_RUNTIMES)
			return;
		rt = &p->runtimes[p->nruntimes++];
		memset(rt, 0, sizeof(*rt));
		rt->id = m.id;
		rt->variant = m.variant;
		memcpy(rt->lib, lib, sizeof(rt->lib));
		rt->map_start = l->start;
		rt->map_offset = l->offset;
		rt->inode = l->inode;
	}
	if (l->offset == 0 && l->start < rt->map_start) {
		rt->map_start = l->start;
		rt->map_offset = 0;
	}
	if (l->exec && rt->ntext < CENSUS_TEXT_RANGES) {
		rt->text[rt->ntext][0] = l->start;
		rt->text[rt->ntext][1] = l->end;
		rt->ntext++;
	}
}

/* The counts runtimes keep in exported variables, read from memory. */
static void census_read_pools(const struct sysroot *r, struct census_proc *p)
{
	for (size_t i = 0; i < p->nruntimes; i++) {
		struct census_runtime *rt = &p->runtimes[i];
		const char *sym = runtimes_pool_symbol(rt->id, rt->variant);
		rt->pool_ok = false;
		rt->pool_err = ENOTSUP;
		if (!sym || rt->lib[0] != '/' || strstr(rt->lib, " (deleted)"))
			continue;
		int rc = elfsym_read_int(r, p->pid, rt->lib, rt->map_start, rt->map_offset, sym,
					 &rt->pool_read);
		if (rc == 0 && (rt->pool_read < 1 || rt->pool_read > 1 << 16))
			rc = -ERANGE; /* not initialised yet, or not a count */
		rt->pool_ok = rc == 0;
		rt->pool_err = -rc;
	}
}

/* Whether every runtime's file of p is still the one mapped (its inode
 * the same, through the process's root): a library replaced on disk keeps
 * the address space's size, but its symbols would be read at the old
 * mapping's addresses from the new file. */
static bool census_libs_same(const struct sysroot *r, const struct census_proc *p)
{
	for (size_t i = 0; i < p->nruntimes; i++) {
		const struct census_runtime *rt = &p->runtimes[i];
		char rel[CENSUS_LIB_MAX + 64];
		unsigned long ino;
		if (rt->lib[0] != '/' || strstr(rt->lib, " (deleted)"))
			return false;
		snprintf(rel, sizeof(rel), "proc/%d/root%s", (int)p->pid, rt->lib);
		if (sysroot_inode(r, rel, &ino) < 0 || ino != rt->inode)
			return false;
	}
	return true;
}

/* maps and environ: what changes while a process runs.  A process whose
 * leader thread exited (a zombie leader) reads as empty maps and "no such
 * process" environ: it is read through one of its live threads instead. */
static void census_refresh(const struct sysroot *r, struct census_proc *p, double now)
{
	char *buf = NULL;
	bool cut = false;
	p->read_at = now;
	struct stat_line st;
	bool zombie = procinfo_stat(r, p->pid, &st) == 0 && st.state == 'Z';
	pid_t view = zombie ? procinfo_live_thread(r, p->pid) : 0;
	unsigned long long vm = 0;
	if (procinfo_vm_pages(r, p->pid, view, &vm) < 0 || zombie)
		vm = 0;
	if (vm && vm == p->maps_vm && view == p->view && p->maps_readable &&
	    now - p->maps_at < CENSUS_MAPS_MAX_S && census_libs_same(r, p)) {
		census_read_pools(r, p); /* the same mappings: their runtimes stand */
	} else {
		p->view = view;
		p->maps_vm = vm;
		p->maps_at = now;
		ssize_t n = maps_read_via(r, p->pid, p->view, &buf, CENSUS_MAPS_MAX, &cut);
		/* empty: a kernel thread has no maps; a zombie leader without a
		 * view has maps nobody can read */
		p->maps_readable = n > 0 || (n == 0 && !zombie);
		p->maps_cut = n > 0 && cut;
		p->maps_readable = p->maps_readable && !p->maps_cut;
		if (n >= 0) {
			p->nruntimes = 0;
			maps_each(buf, (size_t)n, census_add_runtime, p);
			census_read_pools(r, p);
		}
		free(buf);
	}
	census_proc_free(p);
	ssize_t n = environ_read_via(r, p->pid, p->view, &p->environ, &p->env_truncated);
	memset(p->vars, 0, sizeof(p->vars));
	p->env_denied = n == -EACCES || n == -EPERM;
	if (n < 0 || (n == 0 && zombie)) {
		/* gone (ESRCH, no zombie): unknown; else it cannot be read */
		p->env = n == -ESRCH && !zombie ? CENSUS_ENV_UNKNOWN : CENSUS_ENV_UNREADABLE;
		return;
	}
	p->env = p->env_truncated ? CENSUS_ENV_TRUNCATED : CENSUS_ENV_OK;
	p->environ_len = (size_t)n;
	for (size_t i = 0; environment_thread_vars[i] && i < ENVIRONMENT_VARS_MAX; i++)
		p->vars[i] = environ_get(p->environ, p->environ_len, environment_thread_vars[i]);
}

/* A process seen for the first time: what does not change. */
/* p read as the new process pid: everything it held is forgotten. */
static void census_first(const struct sysroot *r, struct census_proc *p, pid_t pid, double now)
{
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	struct stat_line st;
	if (procinfo_stat(r, p->pid, &st) == 0) {
		p->ppid = st.ppid;
		p->starttime = st.starttime;
		memcpy(p->comm, st.name, sizeof(p->comm));
	}
	p->exe_readable = procinfo_exe(r, p->pid, p->exe, sizeof(p->exe)) == 0;
	ssize_t n = procinfo_cmdline(r, p->pid, p->cmdline, sizeof(p->cmdline));
	p->cmdline_len = n > 0 ? (size_t)n : 0;
	census_refresh(r, p, now);
}

void census_update_pids(struct census *c, const struct sysroot *r, const pid_t *pids,
			const uint64_t *starts, size_t n, double now)
{
	for (size_t i = 0; i < c->n; i++)
		c->p[i].seen = false;
	size_t before = c->n;
	for (size_t k = 0; k < n; k++) {
		if (k > 0 && pids[k] == pids[k - 1])
			continue;
		struct census_proc key = {.pid = pids[k]};
		struct census_proc *p =
		    before ? bsearch(&key, c->p, before, sizeof(*c->p), census_cmp) : NULL;
		if (p && starts && p->starttime != starts[k]) {
			/* another process under the same PID: read it as new */
			census_proc_free(p);
			census_first(r, p, pids[k], now);
		} else if (!p) {
			/* appended now, sorted below */
			c->p = xreallocarray_grow(c->p, &c->cap, c->n + 1, sizeof(*c->p));
			p = &c->p[c->n++];
			census_first(r, p, pids[k], now);
		} else if (now - p->read_at >= CENSUS_REFRESH_S) {
			census_refresh(r, p, now);
		}
		if (starts)
			p->starttime = starts[k];
		p->seen = true;
	}
	size_t kept = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (c->p[i].seen)
			c->p[kept++] = c->p[i];
		else
			census_proc_free(&c->p[i]);
	}
	c->n = kept;
	if (c->n) /* c->p is NULL while nothing was ever kept */
		qsort(c->p, c->n, sizeof(*c->p), census_cmp);
}

void census_update(struct census *c, const struct sysroot *r, const struct thread_set *threads,
		   double now)
{
	/* The set is sorted by (pid, tid): its pids come in order. */
	pid_t *pids = xmalloc((threads->n ? threads->n : 1) * sizeof(*pids));
	size_t n = 0;
	for (size_t i = 0; i < threads->n; i++)
		if (n == 0 || pids[n - 1] != threads->v[i].pid)
			pids[n++] = threads->v[i].pid;
	census_update_pids(c, r, pids, NULL, n, now);
	free(pids);
}
