/* lab-quota.c — creating, changing and removing the lab's quota cgroup.
 *
 * Where: threadlab's own cgroup first (so that a delegated subtree works),
 * then the root of the hierarchy.  On v2 a cgroup with processes cannot
 * hand controllers to children (EBUSY), so threadlab's own cgroup only works
 * there when +cpu is already enabled below it; otherwise the root is tried.
 * Every exit path removes the cgroup after its processes are gone; a run
 * killed with SIGKILL leaves one behind, which lab_quota_cleanup_stale()
 * finds at the next start by its pid. */
#define _GNU_SOURCE
#include "lab-quota.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- small file helpers ------------------------------------------------ */

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, s, strlen(s));
	int e = n < 0 ? errno : 0;
	close(fd);
	return n < 0 ? -e : 0;
}

static ssize_t read_str(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t got = 0;
	while (got + 1 < cap) {
		ssize_t n = read(fd, buf + got, cap - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* ---- where the hierarchies are ----------------------------------------- */

struct hier {
	int version;
	char mount[LAB_PATH_MAX]; /* absolute mount point */
	char own[LAB_PATH_MAX];	  /* threadlab's cgroup directory, absolute */
};

static void unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] && r[3]) {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && strncmp(p, word, n) == 0)
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

/* Finds the v1 cpu or the v2 hierarchy and threadlab's place in it. */
static int hier_find(int version, struct hier *h)
{
	static char buf[65536];
	if (read_str("/proc/self/mountinfo", buf, sizeof(buf)) < 0)
		return -ENOENT;
	char root[LAB_PATH_MAX] = "";
	h->version = version;
	h->mount[0] = '\0';
	for (char *sv, *line = strtok_r(buf, "\n", &sv); line; line = strtok_r(NULL, "\n", &sv)) {
		char mroot[LAB_PATH_MAX], mpoint[LAB_PATH_MAX];
		const char *dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %1023s %1023s", mroot, mpoint) != 2)
			continue;
		char fstype[32], src[256], opts[1024] = "";
		if (sscanf(dash + 3, "%31s %255s %1023s", fstype, src, opts) < 2)
			continue;
		bool hit = version == 1 ? strcmp(fstype, "cgroup") == 0 && has_word(opts, "cpu")
					: strcmp(fstype, "cgroup2") == 0;
		if (hit) {
			unescape(mpoint);
			unescape(mroot);
			snprintf(h->mount, sizeof(h->mount), "%s", mpoint);
			snprintf(root, sizeof(root), "%s", mroot);
			break;
		}
	}
	if (!h->mount[0])
		return -ENOENT;
	snprintf(h->own, sizeof(h->own), "%s", h->mount);
	if (read_str("/proc/self/cgroup", buf, sizeof(buf)) < 0)
		return 0;
	for (char *sv, *line = strtok_r(buf, "\n", &sv); line; line = strtok_r(NULL, "\n", &sv)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		bool hit = version == 2 ? strcmp(line, "0") == 0 && c1[1] == '\0'
					: has_word(c1 + 1, "cpu");
		if (!hit)
			continue;
		const char *path = c2 + 1;
		size_t rl = strlen(root);
		if (strcmp(root, "/") == 0)
			rl = 0;
		/* A path outside the mount's root (cgroup namespace): use the mount. */
		if (strncmp(path, root, rl) == 0 && strcmp(path + rl, "/") != 0)
			snprintf(h->own, sizeof(h->own), "%s%s", h->mount, path + rl);
		break;
	}
	return 0;
}

/* ---- stale cgroups ------------------------------------------------------- */

/* Start time of pid as CLOCK_REALTIME seconds, or -1 when it is gone. */
static double pid_start_wall(pid_t pid)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (read_str(path, buf, sizeof(buf)) <= 0)
		return -1;
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	unsigned long long start = 0;
	/* fields 3..22 after the command: starttime is the 20th */
	if (sscanf(p + 2,
		   "%*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
		   "%*s %*s %llu",
		   &start) != 1)
		return -1;
	struct timespec mono, real;
	clock_gettime(CLOCK_BOOTTIME, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	double boot =
	    (double)real.tv_sec + real.tv_nsec / 1e9 - ((double)mono.tv_sec + mono.tv_nsec / 1e9);
	return boot + (double)start / (double)sysconf(_SC_CLK_TCK);
}

static void kill_tasks(const char *dir)
{
	char path[LAB_PATH_MAX + 32], buf[8192];
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (read_str(path, buf, sizeof(buf)) <= 0)
		return;
	for (char *sv, *s = strtok_r(buf, "\n", &sv); s; s = strtok_r(NULL, "\n", &sv)) {
		long pid = strtol(s, NULL, 10);
		if (pid > 1 && pid != getpid())
			kill((pid_t)pid, SIGKILL);
	}
}

/* Removes top (and top/work): kills its tasks, retries while they exit. */
static int remove_tree(const char *top, int timeout_ms)
{
	char work[LAB_PATH_MAX + 8];
	snprintf(work, sizeof(work), "%s/work", top);
	for (int waited = 0;; waited += 10) {
		bool leaf_gone = rmdir(work) == 0 || errno == ENOENT || errno == ENOTDIR;
		if (leaf_gone && (rmdir(top) == 0 || errno == ENOENT))
			return 0;
		if (errno != EBUSY || waited >= timeout_ms)
			return -errno;
		kill_tasks(work);
		kill_tasks(top);
		sleep_ms(10);
	}
}

static int cleanup_dir(const char *parent)
{
	DIR *d = opendir(parent);
	if (!d)
		return 0;
	int removed = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "threadlab-", 10) != 0)
			continue;
		char *end;
		long pid = strtol(e->d_name + 10, &end, 10);
		if (*end || pid <= 0 || pid == getpid())
			continue;
		char top[LAB_PATH_MAX];
		struct stat st;
		if (snprintf(top, sizeof(top), "%s/%s", parent, e->d_name) >= (int)sizeof(top) ||
		    stat(top, &st) < 0)
			continue;
		double started = pid_start_wall((pid_t)pid);
		/* Alive and older than the cgroup: a running threadlab owns it. */
		if (started >= 0 && started <= (double)st.st_ctime + 1.0)
			continue;
		if (remove_tree(top, 1000) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

int lab_quota_cleanup_stale(void)
{
	int removed = 0;
	for (int v = 1; v <= 2; v++) {
		struct hier h;
		if (hier_find(v, &h) < 0)
			continue;
		removed += cleanup_dir(h.own);
		if (strcmp(h.own, h.mount) != 0)
			removed += cleanup_dir(h.mount);
	}
	return removed;
}

/* ---- create, set, add, destroy ---------------------------------------------- */

static int try_create(struct lab_quota *q, const struct hier *h, const char *parent, pid_t owner)
{
	if (snprintf(q->top, sizeof(q->top), "%s/threadlab-%ld", parent, (long)owner) >=
	    (int)sizeof(q->top))
		return -ENAMETOOLONG;
	char path[LAB_PATH_MAX + 32];
	if (h->version == 2) {
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", parent);
		int rc = write_str(path, "+cpu");
		if (rc < 0)
			return rc;
	}
	if (mkdir(q->top, 0755) < 0 && errno != EEXIST)
		return -errno;
	snprintf(q->leaf, sizeof(q->leaf), "%s", q->top);
	if (h->version == 2) {
		snprintf(path, sizeof(path), "%s/cpu.max", q->top);
		if (access(path, F_OK) < 0) {
			rmdir(q->top);
			return -ENOTSUP;
		}
		if (snprintf(q->leaf, sizeof(q->leaf), "%s/work", q->top) >= (int)sizeof(q->leaf)) {
			rmdir(q->top);
			return -ENAMETOOLONG;
		}
		if (mkdir(q->leaf, 0755) < 0 && errno != EEXIST) {
			int e = errno;
			rmdir(q->top);
			return -e;
		}
	}
	q->version = h->version;
	q->created = true;
	q->cpus = 0;
	return 0;
}

int lab_quota_create(struct lab_quota *q, pid_t owner, char *err, size_t errlen)
{
	memset(q, 0, sizeof(*q));
	int rc = -ENOENT;
	char where[LAB_PATH_MAX] = "/sys/fs/cgroup";
	for (int v = 1; v <= 2; v++) {
		struct hier h;
		if (hier_find(v, &h) < 0)
			continue;
		snprintf(where, sizeof(where), "%s", h.own);
		rc = try_create(q, &h, h.own, owner);
		if (rc == 0)
			return 0;
		if (strcmp(h.own, h.mount) != 0 && try_create(q, &h, h.mount, owner) == 0)
			return 0;
		break; /* the first hierarchy with a cpu controller decides */
	}
	memset(q, 0, sizeof(*q));
	if (rc == -ENOENT)
		snprintf(err, errlen,
			 "no cgroup hierarchy with the cpu controller is mounted: running "
			 "without a CPU quota");
	else
		snprintf(err, errlen,
			 "cannot create a CPU-quota cgroup under %.200s: %s. Needs root, or a "
			 "delegated cgroup v2 subtree (for example: systemd-run --user --scope "
			 "-p Delegate=yes threadlab ...); running without a quota",
			 where, strerror(-rc));
	return rc;
}

int lab_quota_set(struct lab_quota *q, double cpus, char *err, size_t errlen)
{
	if (!q->created) {
		snprintf(err, errlen, "no quota cgroup");
		return -ENOENT;
	}
	char path[LAB_PATH_MAX + 32], val[64];
	long long quota = cpus > 0 ? (long long)(cpus * LAB_QUOTA_PERIOD_US + 0.5) : -1;
	if (cpus > 0 && quota < 1000)
		quota = 1000; /* the kernel's minimum, 1 ms per period */
	int rc;
	if (q->version == 1) {
		snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", q->top);
		snprintf(val, sizeof(val), "%d", LAB_QUOTA_PERIOD_US);
		rc = write_str(path, val);
		if (rc == 0) {
			snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", q->top);
			snprintf(val, sizeof(val), "%lld", quota);
			rc = write_str(path, val);
		}
	} else {
		snprintf(path, sizeof(path), "%s/cpu.max", q->top);
		if (quota > 0)
			snprintf(val, sizeof(val), "%lld %d", quota, LAB_QUOTA_PERIOD_US);
		else
			snprintf(val, sizeof(val), "max %d", LAB_QUOTA_PERIOD_US);
		rc = write_str(path, val);
	}
	if (rc < 0) {
		snprintf(err, errlen, "cannot set the CPU quota in %s: %s", path, strerror(-rc));
		return rc;
	}
	q->cpus = cpus > 0 ? (double)quota / LAB_QUOTA_PERIOD_US : 0;
	return 0;
}

int lab_quota_add(struct lab_quota *q, pid_t pid)
{
	if (!q->created)
		return -ENOENT;
	char path[LAB_PATH_MAX + 32], val[32];
	snprintf(path, sizeof(path), "%s/cgroup.procs", q->leaf);
	snprintf(val, sizeof(val), "%ld", (long)pid);
	return write_str(path, val);
}

int lab_quota_destroy(struct lab_quota *q, int timeout_ms)
{
	if (!q->created)
		return 0;
	int rc = remove_tree(q->top, timeout_ms);
	if (rc == 0)
		q->created = false;
	return rc;
}
