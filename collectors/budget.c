/* budget.c — the effective CPU budget: online, affinity, cpuset, quota. */
#include "config.h"

#include "budget.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

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
		return cpulist_count(line);
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
	int n = cpulist_count(buf);
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
	if (w->loc_rc == 0 && w->loc.v2_dir[0])
		return budget_cpulist_file(r, w->loc.v2_dir, "cpuset.cpus.effective");
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

int budget_read_where(const struct sysroot *r, pid_t pid, struct budget_where *w, double now,
		      double max_age, struct budget *out)
{
	char piddir[64], rel[96], buf[8192];
	ssize_t n;
	int rc;

	memset(out, 0, sizeof(*out));
	out->quota.cpus = -1.0;
	if (pid == 0)
		snprintf(piddir, sizeof(piddir), "proc/self");
	else
		snprintf(piddir, sizeof(piddir), "proc/%ld", (long)pid);

	rc = r->live ? budget_live_affinity(pid) : -ENOSYS;
	if (rc == -ESRCH)
		return rc;
	if (rc < 0) {
		snprintf(rel, sizeof(rel), "%s/status", piddir);
		n = sysroot_read(r, rel, buf, sizeof(buf));
		if (n < 0)
			return (n == -ENOENT || n == -ESRCH) ? -ESRCH : (int)n;
		rc = budget_status_affinity(buf);
	}
	out->affinity = rc > 0 ? rc : 0;

	if (sysroot_read(r, "sys/devices/system/cpu/online", buf, sizeof(buf)) >= 0) {
		rc = cpulist_count(buf);
		out->online = rc > 0 ? rc : 0;
	}

	bool located = !w->valid || now - w->time > max_age || now < w->time ||
		       (w->loc_rc == 0 && !sysroot_exists(r, w->loc.dir));
	if (located)
		budget_locate(r, pid, w, now);
	rc = w->loc_rc;
	if (rc == -ESRCH || rc == -EACCES)
		return rc;
	if (rc < 0) {
		snprintf(out->note, sizeof(out->note),
			 "no cgroup hierarchy with the cpu controller found (%s); quota unknown",
			 strerror(-rc));
	} else {
		out->loc = w->loc;
		if (out->loc.fallback)
			snprintf(out->note, sizeof(out->note),
				 "cgroup %.120s not visible under its mount (cgroup namespace?); "
				 "showing the mount root",
				 out->loc.path);
		rc = cgroup_quota_read(r, &out->loc, &out->quota);
		if (rc < 0 && !out->note[0])
			snprintf(out->note, sizeof(out->note), "cannot read the CPU quota: %s",
				 strerror(-rc));
		if (rc < 0)
			out->quota.cpus = -1.0;
	}
	out->cpuset = budget_cpuset(r, w);
	budget_resolve(out);
	return 0;
}
