/* ranking.c — the machine's processes ranked against their budgets
 * (ranking.h). */
#include "config.h"

#include "ranking-impl.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf-threads.h"
#include "cgroup.h"
#include "cgroup-read.h"
#include "cgroup-parse.h"
#include "collector-impl.h"
#include "diagnosis-input.h"
#include "model-impl.h"
#include "thread-set.h"
#include "xalloc.h"
#include "diagnosis-rules.h"

#define RANKING_THROTTLE_MAX 256 /* quota cgroups followed; beyond, the table starts over */

/* A process's budget, as last read.  A process is its PID, start time
 * and name: exec keeps the first two, and a program that execs another
 * (sh into taskset into the job) may set its own affinity on the way. */
struct rank_cache {
	pid_t pid;
	uint64_t starttime;
	uint32_t name_hash;   /* machine_proc's: a change is an exec */
	double read_at;	      /* s on the caller's clock; < 0 never */
	bool known;	      /* the read succeeded */
	int affinity, cpuset; /* budget.h's terms; 0 unknown */
	double quota;	      /* CPUs; < 0 unlimited */
	double effective;
	enum budget_term binding;
	int thr; /* index into the throttle table; -1: no quota */
};

/* A cgroup whose quota binds some process, and its throttling. */
struct rank_throttle {
	char dir[CGROUP_PATH_MAX];
	int version;
	bool have_prev;
	double prev_t;
	struct cgroup_cpustat prev;
	double updated; /* the tick whose rate this is */
	struct throttle_rate rate;
};

void ranking_init(struct ranking *k, const struct sysroot *root, bool kernel)
{
	memset(k, 0, sizeof(*k));
	k->impl = xcalloc(1, sizeof(*k->impl));
	k->impl->root = *root;
	k->kernel = kernel;
	neighbours_init(&k->impl->machine, 0);
	census_init(&k->impl->census, &k->impl->root);
	k->impl->scratch = xcalloc(1, sizeof(*k->impl->scratch));
	k->impl->budget = xcalloc(1, sizeof(*k->impl->budget));
	budget_cache_init(&k->impl->budgets);
	k->impl->budget_epoch = -1;
	thread_set_init(&k->impl->bset);
	k->impl->bt = collector_machine_reader(root->live);
}

int ranking_open(struct ranking *k, const char *dir, bool kernel, double now, char *err,
		 size_t cap)
{
	struct sysroot r;
	int rc = sysroot_open(&r, dir);
	if (rc < 0) {
		memset(k, 0, sizeof(*k));
		snprintf(err, cap, "cannot open %s: %s", dir, strerror(-rc));
		return rc;
	}
	ranking_init(k, &r, kernel);
	k->impl->own_root = true;
	k->impl->machine.first_period = RANKING_FIRST_S;
	ranking_tick(k, now);
	if (!k->impl->machine.ms) {
		rc = errno ? -errno : -EIO;
		snprintf(err, cap, "cannot list %s%sproc: %s", dir,
			 dir[strlen(dir) - 1] == '/' ? "" : "/", strerror(-rc));
		ranking_free(k);
		return rc;
	}
	return 0;
}

void ranking_free(struct ranking *k)
{
	if (!k->impl)
		return;
	if (k->impl->own_root)
		sysroot_close(&k->impl->root);
	neighbours_free(&k->impl->machine);
	bpf_threads_free(k->impl->bt);
	thread_set_free(&k->impl->bset);
	census_free(&k->impl->census);
	free(k->impl->cache);
	free(k->impl->thr);
	free(k->impl->scratch);
	free(k->impl->budget);
	budget_cache_clear(&k->impl->budgets);
	free(k->impl);
	free(k->rows);
	memset(k, 0, sizeof(*k));
}

/* The throttle entry of dir, made when new. */
static int rank_throttle_of(struct ranking *k, const char *dir, int version)
{
	for (size_t i = 0; i < k->impl->nthr; i++)
		if (k->impl->thr[i].version == version && strcmp(k->impl->thr[i].dir, dir) == 0)
			return (int)i;
	if (k->impl->nthr >= RANKING_THROTTLE_MAX) {
		/* Every cached index is stale: the budgets are read again. */
		k->impl->nthr = 0;
		for (size_t i = 0; i < k->impl->ncache; i++)
			k->impl->cache[i].read_at = -1;
	}
	if (k->impl->nthr == k->impl->thr_cap) {
		k->impl->thr_cap = k->impl->thr_cap ? 2 * k->impl->thr_cap : 8;
		k->impl->thr = xrealloc(k->impl->thr, k->impl->thr_cap * sizeof(*k->impl->thr));
	}
	struct rank_throttle *t = &k->impl->thr[k->impl->nthr];
	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	t->version = version;
	t->updated = -1;
	return (int)k->impl->nthr++;
}

/* The throttling of entry i over the interval ending now, read once a
 * tick; not valid on its first reading. */
static const struct throttle_rate *rank_throttle_rate(struct ranking *k, int i, double now)
{
	struct rank_throttle *t = &k->impl->thr[i];
	if (t->updated == now)
		return &t->rate;
	t->updated = now;
	struct cgroup_cpustat cur;
	memset(&t->rate, 0, sizeof(t->rate));
	if (cgroup_read_cpustat(&k->impl->root, t->dir, t->version, &cur) < 0) {
		t->have_prev = false;
		return &t->rate;
	}
	if (t->have_prev && now > t->prev_t)
		cgroup_parse_throttle_rate(&t->prev, &cur, now - t->prev_t, &t->rate);
	t->prev = cur;
	t->prev_t = now;
	t->have_prev = true;
	return &t->rate;
}

/* Reads the budget of c's process into c.  false: the process has gone. */
static bool rank_budget(struct ranking *k, struct rank_cache *c, int online, double now)
{
	if (c->read_at >= k->impl->budget_epoch)
		return true;
	struct budget *b = k->impl->budget;
	int rc = budget_read_cached(&k->impl->root, c->pid, &k->impl->budgets, b);
	k->budget_reads++;
	c->read_at = now;
	if (rc == -ESRCH)
		return false;
	c->known = rc == 0;
	c->affinity = c->known ? b->affinity : 0;
	c->cpuset = c->known ? b->cpuset : 0;
	c->quota = c->known ? b->quota.cpus : -1;
	c->effective = c->known ? b->effective : online;
	c->binding = c->known ? b->binding : BUDGET_ONLINE;
	c->thr = c->known && b->quota.cpus > 0 && b->quota.dir[0]
		     ? rank_throttle_of(k, b->quota.dir, b->loc.version)
		     : -1;
	return true;
}

/* The cache entry of p: the old one when the same process (pid, start
 * time and name) had one, else a new one never read. */
static struct rank_cache rank_cached(const struct ranking *k, size_t *at,
				     const struct machine_proc *p)
{
	while (*at < k->impl->ncache && k->impl->cache[*at].pid < p->pid)
		(*at)++;
	if (*at < k->impl->ncache && k->impl->cache[*at].pid == p->pid &&
	    k->impl->cache[*at].starttime == p->starttime &&
	    k->impl->cache[*at].name_hash == p->name_hash)
		return k->impl->cache[*at];
	return (struct rank_cache){.pid = p->pid,
				   .starttime = p->starttime,
				   .name_hash = p->name_hash,
				   .read_at = -1,
				   .thr = -1};
}

static size_t rank_cpus_ran(const uint8_t *set)
{
	size_t n = 0;
	for (size_t i = 0; i < MACHINE_SET_BYTES; i++)
		n += (size_t)__builtin_popcount(set[i]);
	return n;
}

/* The verdict of row r: the diagnosis's table over its totals. */
static void rank_judge(struct ranking *k, struct rank_row *r, const struct machine_proc *p,
		       const struct budget *b, const struct throttle_rate *thr, double psi,
		       const struct census *census)
{
	r->headline[0] = r->suggestion[0] = '\0';
	if (diagnosis_rules_is_idle(r->cpu, r->runnable_mean)) {
		r->verdict = VERDICT_IDLE;
		return;
	}
	struct machine_view view;
	neighbours_view(&k->impl->machine, p->pid, &p->pid, 1, 0, p->ran_on, psi, &view);
	/* Each process is its own row here: its children are not "left out". */
	view.children = 0;
	view.children_cpus = 0;
	struct diag_totals t = {.pid = p->pid,
				.threads = r->threads,
				.window_s = k->impl->machine.sample.dt,
				.cpu = r->cpu,
				.wait = r->wait,
				.budget = b,
				.cpus_ran = (int)rank_cpus_ran(p->ran_on),
				.machine = &view,
				.census = census};
	if (thr)
		t.throttle = *thr;
	diagnosis_of_totals(&t, k->impl->scratch);
	r->verdict = k->impl->scratch->verdict;
	_Static_assert(sizeof(r->headline) == sizeof(k->impl->scratch->headline), "headline sizes");
	memcpy(r->headline, k->impl->scratch->headline, sizeof(r->headline));
	if (k->impl->scratch->nsuggestions)
		snprintf(r->suggestion, sizeof(r->suggestion), "%s",
			 k->impl->scratch->suggestions[0]);
}

/* The budget the verdict is judged against, from the cache's terms (the
 * cgroup's paths are not kept). */
static void rank_budget_of(const struct rank_cache *c, int online, struct budget *b)
{
	memset(b, 0, sizeof(*b));
	b->online = online;
	b->affinity = c->affinity;
	b->cpuset = c->cpuset;
	b->quota.cpus = c->quota;
	b->effective = c->effective;
	b->binding = c->binding;
}

/* The leading offenders judged again with their census entries; the
 * census keeps only them. */
static void rank_explain(struct ranking *k, int online, double now, double psi)
{
	size_t rows[RANKING_EXPLAIN], n = 0;
	for (size_t i = 0; i < k->n && n < RANKING_EXPLAIN; i++)
		if (k->rows[i].verdict != VERDICT_FINE && k->rows[i].verdict != VERDICT_IDLE)
			rows[n++] = i;
	/* By pid, as the census wants them (ten at most: an insertion
	 * sort), with their start times. */
	size_t order[RANKING_EXPLAIN];
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		for (; j > 0 && k->rows[order[j - 1]].pid > k->rows[rows[i]].pid; j--)
			order[j] = order[j - 1];
		order[j] = rows[i];
	}
	pid_t pids[RANKING_EXPLAIN];
	uint64_t starts[RANKING_EXPLAIN];
	for (size_t i = 0; i < n; i++) {
		pids[i] = k->rows[order[i]].pid;
		starts[i] = k->impl->machine.sample.v[k->rows[order[i]].src].starttime;
	}
	census_update_pids(&k->impl->census, &k->impl->root, pids, starts, n, now);
	struct budget *b = k->impl->budget;
	for (size_t i = 0; i < n; i++) {
		struct rank_row *r = &k->rows[rows[i]];
		struct census_proc *e = (struct census_proc *)census_find(&k->impl->census, r->pid);
		if (!e)
			continue;
		/* A census of one: the process's own runtimes, as the target's. */
		struct census one = {.p = e, .n = 1, .cap = 1, .cores = k->impl->census.cores};
		const struct rank_cache *c = &k->impl->cache[r->cached];
		const struct throttle_rate *thr =
		    c->thr >= 0 ? rank_throttle_rate(k, c->thr, now) : NULL;
		rank_budget_of(c, online, b);
		rank_judge(k, r, &k->impl->machine.sample.v[r->src], b, thr, psi, &one);
		r->explained = true;
	}
}

static int rank_cmp(const void *a, const void *b)
{
	const struct rank_row *x = a, *y = b;
	if (x->factor != y->factor)
		return x->factor > y->factor ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu > y->cpu ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void rank_summary(struct ranking *k, double psi)
{
	struct machine_view all;
	static const uint8_t any[MACHINE_SET_BYTES];
	neighbours_view(&k->impl->machine, -1, NULL, 0, 0, any, psi, &all);
	struct rank_machine *m = &k->summary;
	memset(m, 0, sizeof(*m));
	m->valid = all.valid;
	m->window_s = all.window_s;
	m->online = all.online;
	m->cpus_used = all.cpus_used;
	m->runnable_mean = all.runnable_mean;
	m->factor = m->online > 0 ? m->runnable_mean / m->online : 0;
	m->psi_some = psi;
	m->processes = k->n;
	for (size_t i = 0; i < k->n; i++)
		m->threads += (size_t)k->rows[i].threads;
	m->verdict = diagnosis_rules_machine(m->runnable_mean, m->cpus_used, m->online, m->headline,
					     sizeof(m->headline));
}

/* Every thread of the machine through BPF, when the machine reader is
 * due: what it is then given as known.  NULL on /proc, or when the read
 * failed (from then on every process is read from /proc). */
static const struct thread_set *rank_bpf_threads(struct ranking *k, double now)
{
	struct ranking_impl *m = k->impl;
	if (!m->bt || !neighbours_due(&m->machine, now))
		return NULL;
	int rc = bpf_threads_sample(m->bt, now, &m->bset);
	if (rc == 0)
		return &m->bset;
	snprintf(k->note, sizeof(k->note),
		 "the BPF read failed (%s): every process from /proc from now on", strerror(-rc));
	k->note_seq++;
	bpf_threads_free(m->bt);
	m->bt = NULL;
	return NULL;
}

bool ranking_tick(struct ranking *k, double now)
{
	const struct thread_set *known = rank_bpf_threads(k, now);
	/* (the machine reader takes the rates of what BPF read over the
	 * read's own time, known->time; now keeps the cadence) */
	if (!neighbours_tick(&k->impl->machine, &k->impl->root, known, now))
		return false;
	const struct machine_sample *s = &k->impl->machine.sample;
	struct psi psi;
	double psi_some =
	    cgroup_read_psi(&k->impl->root, "proc/pressure/cpu", &psi) == 0 && psi.available
		? psi.some_avg10
		: -1;
	int online = s->online > 0 ? s->online : 1;
	if (k->impl->budget_epoch < 0 || now - k->impl->budget_epoch >= RANKING_BUDGET_S) {
		/* Every budget is due: what their cgroups share is read again. */
		budget_cache_clear(&k->impl->budgets);
		k->impl->budget_epoch = now;
	}
	struct rank_cache *cache = xmalloc((s->n + 1) * sizeof(*cache));
	size_t nc = 0, at = 0;
	if (s->n > k->cap) {
		k->cap = s->n;
		k->rows = xrealloc(k->rows, k->cap * sizeof(*k->rows));
	}
	k->n = 0;
	struct budget *b = k->impl->budget;
	for (size_t i = 0; i < s->n; i++) {
		const struct machine_proc *p = &s->v[i];
		if (p->kernel && !k->kernel)
			continue;
		struct rank_cache c = rank_cached(k, &at, p);
		if (!rank_budget(k, &c, online, now))
			continue;
		cache[nc++] = c;
		const struct throttle_rate *thr = c.thr >= 0 ? rank_throttle_rate(k, c.thr, now) : NULL;
		/* A new process has no rates yet; its budget and its cgroup's
		 * first cpu.stat are read now, so its first row has both.  One
		 * born inside the interval has rates (its whole life), but of
		 * less than an interval: it is ranked from its first whole one. */
		if (p->is_new || p->born)
			continue;
		struct rank_row *r = &k->rows[k->n++];
		memset(r, 0, offsetof(struct rank_row, headline));
		r->pid = p->pid;
		r->ppid = p->ppid;
		memcpy(r->name, p->name, sizeof(r->name));
		r->name_len = p->name_len;
		snprintf(r->cgroup_path, sizeof(r->cgroup_path), "%.*s",
			 (int)sizeof(r->cgroup_path) - 1, p->cgroup);
		ranking_cgroup_short(p->cgroup, r->cgroup, sizeof(r->cgroup));
		r->kernel = p->kernel;
		r->threads = p->threads;
		r->cpu = p->cpus;
		r->wait = p->wait;
		r->runnable_mean = p->cpus + p->wait;
		r->budget_known = c.known;
		r->effective = c.effective;
		r->binding = model_term_of(c.binding);
		r->factor = c.effective > 0 ? r->runnable_mean / c.effective : 0;
		if (thr && thr->valid) {
			r->throttle_valid = true;
			r->throttled_pct = thr->throttled_pct;
			r->throttled_s_per_s = thr->throttled_s_per_s;
		}
		r->src = i;
		r->cached = nc - 1;
		rank_budget_of(&c, online, b);
		rank_judge(k, r, p, b, thr, psi_some, NULL);
	}
	free(k->impl->cache);
	k->impl->cache = cache;
	k->impl->ncache = nc;
	if (s->dt <= 0)
		return false; /* the baseline: no rates */
	qsort(k->rows, k->n, sizeof(*k->rows), rank_cmp);
	rank_explain(k, online, now, psi_some);
	rank_summary(k, psi_some);
	k->summary.bpf = known != NULL;
	return true;
}

bool ranking_offends(const struct rank_row *r)
{
	return r->verdict == VERDICT_OVERSUBSCRIBED || r->verdict == VERDICT_THROTTLED;
}

bool ranking_starved(const struct rank_row *r)
{
	return r->verdict == VERDICT_CONTENDED;
}

bool ranking_problem(const struct ranking *k)
{
	if (k->summary.verdict == VERDICT_OVERSUBSCRIBED)
		return true;
	for (size_t i = 0; i < k->n; i++)
		if (ranking_offends(&k->rows[i]) || ranking_starved(&k->rows[i]))
			return true;
	return false;
}

/* ---- short cgroup names ---------------------------------------------------- */

/* The start of a run of at least 64 hex digits in s[0..n), or NULL. */
static const char *rank_hex64(const char *s, size_t n)
{
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		run = isxdigit((unsigned char)s[i]) ? run + 1 : 0;
		if (run == 64)
			return s + i - 63;
	}
	return NULL;
}

/* A pod's UID in the component s[0..n) ("pod1f2e3d4c-...", or
 * "kubepods-burstable-pod1f2e3d4c_..."): its first 8 characters, or NULL. */
static const char *rank_pod(const char *s, size_t n)
{
	for (size_t i = 0; i + 11 <= n; i++) {
		if (memcmp(s + i, "pod", 3) != 0 || (i > 0 && s[i - 1] != '-'))
			continue;
		size_t h = 0;
		while (h < 8 && isxdigit((unsigned char)s[i + 3 + h]))
			h++;
		if (h == 8)
			return s + i + 3;
	}
	return NULL;
}

/* The runtime a container component names ("docker-<id>.scope",
 * "cri-containerd-<id>.scope", "crio-<id>.scope", "libpod-<id>.scope"). */
static const char *rank_runtime(const char *s, size_t n)
{
	static const struct {
		const char *prefix, *name;
	} names[] = {
	    {"docker", "docker"}, {"cri-containerd", "containerd"}, {"crio", "crio"},
	    {"libpod", "podman"},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t l = strlen(names[i].prefix);
		if (n >= l && memcmp(s, names[i].prefix, l) == 0)
			return names[i].name;
	}
	return "container";
}

void ranking_cgroup_short(const char *path, char *out, size_t cap)
{
	if (!cap)
		return;
	out[0] = '\0';
	if (!path[0])
		return;
	const char *pod = NULL, *id = NULL, *runtime = NULL, *last = NULL;
	size_t last_len = 0;
	for (const char *c = path; *c;) {
		while (*c == '/')
			c++;
		if (!*c)
			break;
		size_t n = strcspn(c, "/");
		const char *p = rank_pod(c, n), *x = rank_hex64(c, n);
		if (p)
			pod = p;
		if (x) {
			id = x;
			/* "/docker/<id>": the runtime is the parent's name */
			runtime = x == c && last ? rank_runtime(last, last_len) : rank_runtime(c, n);
		}
		last = c;
		last_len = n;
		c += n;
	}
	if (!last) {
		snprintf(out, cap, "/");
	} else if (pod && id) {
		snprintf(out, cap, "pod %.8s/%.12s", pod, id);
	} else if (pod) {
		snprintf(out, cap, "pod %.8s", pod);
	} else if (id) {
		snprintf(out, cap, "%s %.12s", runtime, id);
	} else {
		size_t n = last_len < cap - 1 ? last_len : cap - 1;
		memcpy(out, last, n);
		out[n] = '\0';
	}
}

const struct neighbours *ranking_machine(const struct ranking *k)
{
	return &k->impl->machine;
}

bool ranking_has_children(const struct ranking *k, pid_t pid)
{
	const struct machine_sample *s = &k->impl->machine.sample;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].ppid == pid)
			return true;
	return false;
}
