/* cgroup-read.c — read quota, cpu.stat and pressure files under the root.
 *
 * The quota that applies to a cgroup is the tightest one over the cgroup
 * and every ancestor up to the hierarchy's mount: CFS bandwidth is
 * hierarchical in v1 and v2 alike, so a parent at 0.5 CPU caps a child
 * that says "max". */
#include "config.h"

#include "cgroup.h"
#include "cgroup-read.h"
#include "cgroup-parse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Reads dir/name into buf.  Returns bytes or -errno. */
static ssize_t cgroup_read_file(const struct sysroot *r, const char *dir, const char *name,
				char *buf, size_t cap)
{
	char rel[CGROUP_PATH_MAX + 64];
	int n = snprintf(rel, sizeof(rel), "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	return sysroot_read(r, rel, buf, cap);
}

/* The quota of one cgroup directory.  -ENOENT when it has no quota file. */
static int cgroup_read_quota_one(const struct sysroot *r, const char *dir, int version,
				 double *cpus, uint64_t *period_us)
{
	char q[128], p[128];
	ssize_t n;
	if (version == 2) {
		n = cgroup_read_file(r, dir, "cpu.max", q, sizeof(q));
		if (n < 0)
			return (int)n;
		return cgroup_parse_cpu_max(q, cpus, period_us);
	}
	n = cgroup_read_file(r, dir, "cpu.cfs_quota_us", q, sizeof(q));
	if (n < 0)
		return (int)n;
	n = cgroup_read_file(r, dir, "cpu.cfs_period_us", p, sizeof(p));
	if (n < 0)
		return (int)n;
	return cgroup_parse_cfs(q, p, cpus, period_us);
}

bool cgroup_read_is_root(const struct sysroot *r, const char *dir)
{
	char rel[CGROUP_PATH_MAX + 16];
	snprintf(rel, sizeof(rel), "%s/cgroup.type", dir);
	return !sysroot_exists(r, rel);
}

int cgroup_read_quota(const struct sysroot *r, const struct cgroup_loc *loc,
		      struct cgroup_quota *out)
{
	char d[CGROUP_PATH_MAX];
	size_t ml = strlen(loc->mount_dir);
	bool below = strncmp(loc->dir, loc->mount_dir, ml) == 0 && loc->dir[ml] == '/';

	memset(out, 0, sizeof(*out));
	out->cpus = -1.0;
	if (loc->version != 1 && loc->version != 2)
		return 0;
	if (loc->seen == CGROUP_SEEN_HIDDEN) {
		out->unknown = true;
		return 0;
	}
	/* The root of a v2 hierarchy has no cpu.max: no limit, not "no
	 * controller" (its cgroup.type is missing, as on no other cgroup). */
	if (loc->version == 2 && strcmp(loc->dir, loc->mount_dir) == 0 &&
	    cgroup_read_is_root(r, loc->dir))
		out->controller = true;
	snprintf(d, sizeof(d), "%s", loc->dir);
	for (;;) {
		double cpus;
		uint64_t period;
		int rc = cgroup_read_quota_one(r, d, loc->version, &cpus, &period);
		if (rc == 0) {
			if (!out->controller)
				out->period_us = period;
			out->controller = true;
			if (cpus >= 0 && (out->cpus < 0 || cpus < out->cpus)) {
				out->cpus = cpus;
				out->period_us = period;
				snprintf(out->dir, sizeof(out->dir), "%s", d);
			}
		} else if (rc != -ENOENT && rc != -EACCES && rc != -EPERM) {
			/* A file that does not read leaves that cgroup out; its
			 * ancestors still bound it (said in the note). */
			out->controller = true;
			if (!out->skipped[0])
				snprintf(out->skipped, sizeof(out->skipped), "%s", d);
		}
		/* Stop at the mount: above it lies another file system. */
		if (!below || strcmp(d, loc->mount_dir) == 0)
			break;
		char *slash = strrchr(d, '/');
		if (!slash || (size_t)(slash - d) < ml)
			break;
		*slash = '\0';
	}
	return 0;
}

int cgroup_read_cpustat(const struct sysroot *r, const char *dir, int version,
			struct cgroup_cpustat *out)
{
	char buf[1024];
	memset(out, 0, sizeof(*out));
	ssize_t n = cgroup_read_file(r, dir, "cpu.stat", buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return cgroup_parse_cpustat(buf, version, out);
}

const char *cgroup_read_psi_dir(const struct sysroot *r, const struct cgroup_loc *loc,
				enum psi_why *why)
{
	*why = PSI_WHY_NONE;
	if (loc->version == 1) {
		*why = PSI_WHY_V1;
		return NULL;
	}
	if (!loc->v2_dir[0])
		return NULL;
	if (cgroup_read_is_root(r, loc->v2_dir)) {
		*why = PSI_WHY_ROOT;
		return NULL;
	}
	return loc->v2_dir;
}

int cgroup_read_psi(const struct sysroot *r, const char *rel, struct psi *out)
{
	char buf[512];
	struct stat st;
	ssize_t n;
	const char *p = rel;

	memset(out, 0, sizeof(*out));
	while (*p == '/')
		p++;
	if (fstatat(r->fd, *p ? p : ".", &st, 0) == 0 && S_ISDIR(st.st_mode))
		n = cgroup_read_file(r, *p ? p : ".", "cpu.pressure", buf, sizeof(buf));
	else
		n = sysroot_read(r, p, buf, sizeof(buf));
	/* Missing (old kernel, no v2), EOPNOTSUPP (psi=0 or cgroup.pressure 0),
	 * EACCES: all mean "not known", which must not read as zero. */
	if (n < 0)
		return 0;
	int rc = cgroup_parse_psi(buf, out);
	if (rc < 0)
		memset(out, 0, sizeof(*out));
	return rc;
}
