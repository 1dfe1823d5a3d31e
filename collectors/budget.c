/* budget.c — the effective CPU budget: online, affinity, cpuset, quota. */
#include "config.h"

#include "budget.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "cgroup-locate.h"
#include "cgroup-parse.h"
#include "cgroup-read.h"

void budget_resolve(struct budget *b)
{
	/* A count of 0 means "not readable": such a term never binds. */
	double terms[4] = {b->online, b->affinity, b->cpuset, b->quota.cpus};
	bool known[4] = {b->online > 0, b->affinity > 0, b->cpuset > 0, b->quota.cpus >= 0};
	b->effective = 0.0;
	b->binding = BUDGET_ONLINE;
	bool any = false;
	for (int i = 0; i < 4; i++) {
		if (known[i] && (!any || terms[i] < b->effective)) {
			b->effective = terms[i];
			b->binding = (enum budget_term)i;
			any = true;
		}
	}
}

/* Count of CPUs in status's "Cpus_allowed_list:" line; 0 when absent. */
static int budget_status_affinity(const char *status)
{
	static const char key[] = "Cpus_allowed_list:";
	for (const char *p = status; *p;) {
		if (strncmp(p, key, sizeof(key) - 1) != 0) {
			const char *nl = strchr(p, '\n');
			if (!nl)
				break;
			p = nl + 1;
			continue;
		}
		char line[4096];
		const char *v = p + sizeof(key) - 1;
		const char *e = strchr(v, '\n');
		size_t n = e ? (size_t)(e - v) : strlen(v);
		if (n >= sizeof(line))
			return -EINVAL;
		memcpy(line, v, n);
		line[n] = '\0';
		return cgroup_parse_cpulist_count(line);
	}
	return 0;
}

/* The affinity count by sched_getaffinity: a tenth of the cost of
 * formatting proc/PID/status.  Returns the count or -errno. */
static int budget_live_affinity(pid_t pid)
{
	for (int ncpus = 1024; ncpus <= 1 << 20; ncpus *= 8) {
		cpu_set_t *set = CPU_ALLOC((size_t)ncpus);
		if (!set)
			return -ENOMEM;
		size_t size = CPU_ALLOC_SIZE((size_t)ncpus);
		int rc = sched_getaffinity(pid, size, set) == 0 ? CPU_COUNT_S(size, set) : -errno;
		CPU_FREE(set);
		if (rc != -EINVAL)
			return rc;
	}
	return -EINVAL;
}

/* Count of CPUs in dir/name; 0 when missing, unreadable or empty. */
static int budget_cpulist_file(const struct sysroot *r, const char *dir, const char *name)
{
	char rel[CGROUP_PATH_MAX + 64], buf[4096];
	snprintf(rel, sizeof(rel), "%s/%s", dir, name);
	if (sysroot_read(r, rel, buf, sizeof(buf)) < 0)
		return 0;
	int n = cgroup_parse_cpulist_count(buf);
	return n > 0 ? n : 0;
}

/* v1 cpuset hierarchy first (hybrid hosts keep cpuset there), then v2. */
static int budget_cpuset(const struct sysroot *r, const struct budget_where *w)
{
	if (w->cpuset_rc == 0) {
		int n = budget_cpulist_file(r, w->cpuset, "cpuset.effective_cpus");
		if (n == 0)
			n = budget_cpulist_file(r, w->cpuset, "cpuset.cpus");
		if (n > 0)
			return n;
	}
	if (w->loc_rc != 0 || !w->loc.v2_dir[0])
		return 0;
	/* v2 makes the file only where the cpuset controller is enabled
	 * (systemd: where AllowedCPUs= is set): the nearest cgroup that has
	 * it, up to the root (the one without a cgroup.type), says. */
	char d[CGROUP_PATH_MAX];
	snprintf(d, sizeof(d), "%s", w->loc.v2_dir);
	for (int depth = 0; depth < 64; depth++) {
		int n = budget_cpulist_file(r, d, "cpuset.cpus.effective");
		char *slash = strrchr(d, '/');
		if (n > 0 || cgroup_read_is_root(r, d) || !slash)
			return n;
		*slash = '\0';
	}
	return 0;
}

static void budget_locate(const struct sysroot *r, pid_t pid, struct budget_where *w, double now)
{
	memset(w, 0, sizeof(*w));
	w->loc_rc = cgroup_locate(r, pid, &w->loc);
	w->cpuset_rc = cgroup_locate_v1(r, pid, "cpuset", w->cpuset, sizeof(w->cpuset), NULL);
	w->time = now;
	w->valid = w->loc_rc != -ESRCH && w->loc_rc != -EACCES;
}

int budget_read(const struct sysroot *r, pid_t pid, struct budget *out)
{
	struct budget_where w = {0};
	return budget_read_where(r, pid, &w, 0, 0, out);
}

/* A fresh budget with pid's affinity count.  Returns 0, -ESRCH when the
 * process has gone, or -errno. */
static int budget_start(const struct sysroot *r, pid_t pid, struct budget *out)
{
	char rel[96], buf[8192];
	memset(out, 0, sizeof(*out));
	out->quota.cpus = -1.0;
	int rc = r->live ? budget_live_affinity(pid) : -ENOSYS;
	if (rc == -ESRCH)
		return rc;
	if (rc < 0) {
		if (pid == 0)
			snprintf(rel, sizeof(rel), "proc/self/status");
		else
			snprintf(rel, sizeof(rel), "proc/%ld/status", (long)pid);
		ssize_t n = sysroot_read(r, rel, buf, sizeof(buf));
		if (n < 0)
			return (n == -ENOENT || n == -ESRCH) ? -ESRCH : (int)n;
		rc = budget_status_affinity(buf);
	}
	out->affinity = rc > 0 ? rc : 0;
	return 0;
}

/* The count of online CPUs; 0 when unreadable. */
static int budget_online(const struct sysroot *r)
{
	char buf[4096];
	if (sysroot_read(r, "sys/devices/system/cpu/online", buf, sizeof(buf)) < 0)
		return 0;
	int n = cgroup_parse_cpulist_count(buf);
	return n > 0 ? n : 0;
}

/* The terms of w's cgroups (the quota over their ancestors, the cpuset)
 * into out, with the note that goes with them. */
static void budget_of_cgroups(const struct sysroot *r, const struct budget_where *w,
			      struct budget *out)
{
	int rc = w->loc_rc;
	if (rc == -EINVAL) {
		/* the kernel prints a cgroup's name as it is: a newline in it
		 * makes lines that are no cgroup's */
		snprintf(out->note, sizeof(out->note),
			 "the process's cgroup file does not parse (a cgroup name holding a "
			 "newline?); quota unknown");
		out->quota.unknown = true;
	} else if (rc < 0) {
		snprintf(out->note, sizeof(out->note),
			 "no cgroup hierarchy with the cpu controller found (%s); quota unknown",
			 strerror(-rc));
	} else {
		out->loc = w->loc;
		bool deleted = strstr(out->loc.path, " (deleted)") != NULL;
		if (out->loc.seen == CGROUP_SEEN_HIDDEN)
			snprintf(out->note, sizeof(out->note),
				 "cgroup %.120s lies outside what its mount shows (another cgroup "
				 "namespace): its quota, throttling and pressure are unknown",
				 out->loc.path);
		else if (out->loc.seen == CGROUP_SEEN_ANCESTOR)
			snprintf(out->note, sizeof(out->note),
				 "cgroup %.120s %s: the quota of its nearest ancestor there", out->loc.path,
				 deleted ? "was removed (its process is exiting)" : "is not there");
		rc = cgroup_read_quota(r, &out->loc, &out->quota);
		if (rc < 0 && !out->note[0])
			snprintf(out->note, sizeof(out->note), "cannot read the CPU quota: %s",
				 strerror(-rc));
		if (rc < 0) {
			out->quota.cpus = -1.0;
			out->quota.unknown = true;
		}
		/* v2 mounted from a cgroup below the real root (a container's
		 * namespace: its root has a cgroup.type, the real root none): a
		 * limit above it cannot be seen. */
		if (!out->note[0] && out->loc.version == 2 &&
		    out->loc.seen != CGROUP_SEEN_HIDDEN &&
		    !cgroup_read_is_root(r, out->loc.mount_dir))
			snprintf(out->note, sizeof(out->note),
				 "the cgroup mount starts below the root (a cgroup namespace): a "
				 "limit above it would not show");
		if (out->quota.skipped[0] && !out->note[0])
			snprintf(out->note, sizeof(out->note),
				 "the quota file of /%.120s does not read: left out, its ancestors' "
				 "count",
				 out->quota.skipped);
	}
	out->cpuset = budget_cpuset(r, w);
}

int budget_read_where(const struct sysroot *r, pid_t pid, struct budget_where *w, double now,
		      double max_age, struct budget *out)
{
	int rc = budget_start(r, pid, out);
	if (rc < 0)
		return rc;
	out->online = budget_online(r);
	bool located = !w->valid || now - w->time > max_age || now < w->time ||
		       (w->loc_rc == 0 && w->loc.dir[0] && !sysroot_exists(r, w->loc.dir));
	if (located)
		budget_locate(r, pid, w, now);
	if (w->loc_rc == -ESRCH || w->loc_rc == -EACCES)
		return w->loc_rc;
	budget_of_cgroups(r, w, out);
	budget_resolve(out);
	return 0;
}

/* ---- many processes: what a cgroup's processes share, read once ---------- */

/* The cgroup terms of every process whose proc/PID/cgroup (and, in a
 * fixture tree, mountinfo) reads the same. */
struct budget_shared {
	char *cgroup_file;
	char *mountinfo; /* a fixture tree's, per process; NULL live (ours, c->mountinfo) */
	struct budget terms; /* loc, quota, cpuset and note */
};

void budget_cache_init(struct budget_cache *c)
{
	memset(c, 0, sizeof(*c));
	c->online = -1;
}

void budget_cache_clear(struct budget_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->e[i].cgroup_file);
		free(c->e[i].mountinfo);
	}
	free(c->e);
	free(c->mountinfo);
	budget_cache_init(c);
}

/* The entry for (*cg, *mi), made (and its files read) when new, when it
 * takes the texts (*cg and *mi set NULL); NULL when the table is full. */
static const struct budget_shared *budget_shared_of(const struct sysroot *r,
						     struct budget_cache *c, char **cg, char **mi)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->e[i].cgroup_file, *cg) == 0 &&
		    (!*mi || strcmp(c->e[i].mountinfo, *mi) == 0))
			return &c->e[i];
	if (c->n == BUDGET_CACHE_MAX)
		return NULL;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->e = xrealloc(c->e, c->cap * sizeof(*c->e));
	}
	struct budget_shared *e = &c->e[c->n++];
	const char *mtext = *mi ? *mi : c->mountinfo;
	struct budget_where w = {.valid = true};
	w.loc_rc = cgroup_locate_text(r, *cg, mtext, &w.loc);
	w.cpuset_rc = cgroup_locate_v1_text(r, *cg, mtext, "cpuset", w.cpuset, sizeof(w.cpuset),
					    NULL);
	memset(&e->terms, 0, sizeof(e->terms));
	e->terms.quota.cpus = -1.0;
	budget_of_cgroups(r, &w, &e->terms);
	e->cgroup_file = *cg;
	e->mountinfo = *mi;
	*cg = *mi = NULL;
	return e;
}

int budget_read_cached(const struct sysroot *r, pid_t pid, struct budget_cache *c,
		       struct budget *out)
{
	int rc = budget_start(r, pid, out);
	if (rc < 0)
		return rc;
	if (c->online < 0)
		c->online = budget_online(r);
	if (r->live && !c->mountinfo && cgroup_locate_read_mountinfo(r, pid, &c->mountinfo) < 0)
		c->mountinfo = NULL;
	char *cg = NULL, *mi = NULL;
	rc = cgroup_locate_read_file(r, pid, &cg);
	if (rc == 0 && !r->live)
		rc = cgroup_locate_read_mountinfo(r, pid, &mi);
	if (rc == -ESRCH || rc == -EACCES) {
		free(cg);
		return rc;
	}
	const struct budget_shared *e = NULL;
	if (rc == 0 && (mi || c->mountinfo))
		e = budget_shared_of(r, c, &cg, &mi);
	free(cg);
	free(mi);
	if (!e) /* unreadable or too many cgroups: this one on its own */
		return budget_read(r, pid, out);
	int affinity = out->affinity;
	*out = e->terms;
	out->affinity = affinity;
	out->online = c->online;
	budget_resolve(out);
	return 0;
}
