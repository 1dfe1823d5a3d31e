/* lab-quota.c — creating, changing and removing the lab's quota cgroup.
 *
 * Which hierarchy: the v1 one mounted with the cpu controller, else cgroup2
 * when its root lists "cpu" in cgroup.controllers (on a hybrid host the v2
 * mount has no cpu controller and never gets one).  Where: threadlab's own
 * cgroup (/proc/self/cgroup, relative to the mount's root in mountinfo),
 * then each parent up to the root; the first that accepts the cgroup wins.
 * On v2 that is rarely threadlab's own cgroup: a non-root cgroup holding
 * processes cannot enable controllers for children (EBUSY), so in a
 * delegated scope the cgroup lands in the nearest parent we may write.
 * Before the mkdir, +cpu is enabled in every cgroup from the root down to the
 * parent that lacks it (written only where missing: ancestors of a delegated
 * subtree are not ours to write).  Every exit path removes the cgroup after
 * its processes are gone, leaf first; a run killed with SIGKILL leaves one
 * behind, which lab_quota_cleanup_stale() finds at the next start: one no
 * live owner holds locked (lab-quota.h).
 * All file-system changes go through struct lab_quota_sys so that tests can
 * run this code on a fixture tree. */
#define _GNU_SOURCE
#include "lab-quota.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

static int real_mkdir(const char *path)
{
	return mkdir(path, 0755) < 0 ? -errno : 0;
}

static int real_rmdir(const char *path)
{
	return rmdir(path) < 0 ? -errno : 0;
}

static const struct lab_quota_sys real_sys = {"", real_mkdir, real_rmdir, write_str};

static const struct lab_quota_sys *sys_or_real(const struct lab_quota_sys *sys)
{
	return sys ? sys : &real_sys;
}

/* ---- where the hierarchies are ----------------------------------------- */

struct hier {
	int version;
	char mount[LAB_PATH_MAX]; /* absolute mount point (with the sys root) */
	char own[LAB_PATH_MAX];	  /* threadlab's cgroup directory, absolute */
};

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* Whether word is one of the items of list, separated by any of seps. */
static bool has_word(const char *list, const char *word, const char *seps)
{
	size_t n = strlen(word);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, seps);
		if (len == n && strncmp(p, word, n) == 0)
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

static bool file_has_word(const char *dir, const char *file, const char *word)
{
	char path[LAB_PATH_MAX + 64], buf[512];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return read_str(path, buf, sizeof(buf)) > 0 && has_word(buf, word, " \n");
}

/* The mount point and mount root of the v1 cpu or the v2 hierarchy. */
static int mount_find(const struct lab_quota_sys *sys, int version, struct hier *h, char *root,
		      size_t rootlen)
{
	char path[LAB_PATH_MAX];
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", sys->root);
	FILE *f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	char *line = NULL;
	size_t cap = 0;
	int rc = -ENOENT;
	while (rc < 0 && getline(&line, &cap, f) > 0) {
		char mroot[LAB_PATH_MAX], mpoint[LAB_PATH_MAX], fstype[32], opts[1024] = "";
		const char *dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %1023s %1023s", mroot, mpoint) != 2 ||
		    sscanf(dash + 3, "%31s %*s %1023s", fstype, opts) < 1)
			continue;
		bool hit = version == 1
			       ? strcmp(fstype, "cgroup") == 0 && has_word(opts, "cpu", ",")
			       : strcmp(fstype, "cgroup2") == 0;
		if (!hit)
			continue;
		unescape(mpoint);
		unescape(mroot);
		if (snprintf(h->mount, sizeof(h->mount), "%s%s", sys->root,
			     strcmp(mpoint, "/") == 0 ? "" : mpoint) < (int)sizeof(h->mount)) {
			snprintf(root, rootlen, "%s", mroot);
			rc = 0;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

/* Finds the hierarchy and threadlab's place in it (/proc/self/cgroup:
 * "0::/path" on v2, "N:cpu,cpuacct:/path" on v1).  -ENOENT when there is no
 * such hierarchy or, on v2, its root has no cpu controller. */
static int hier_find(const struct lab_quota_sys *sys, int version, struct hier *h)
{
	char root[LAB_PATH_MAX], path[LAB_PATH_MAX], buf[8192];
	h->version = version;
	if (mount_find(sys, version, h, root, sizeof(root)) < 0)
		return -ENOENT;
	if (version == 2 && !file_has_word(h->mount, "cgroup.controllers", "cpu"))
		return -ENOENT;
	snprintf(h->own, sizeof(h->own), "%s", h->mount);
	snprintf(path, sizeof(path), "%s/proc/self/cgroup", sys->root);
	if (read_str(path, buf, sizeof(buf)) < 0)
		return 0;
	for (char *sv, *line = strtok_r(buf, "\n", &sv); line; line = strtok_r(NULL, "\n", &sv)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		bool hit = version == 2 ? strcmp(line, "0") == 0 && c1[1] == '\0'
					: has_word(c1 + 1, "cpu", ",");
		if (!hit)
			continue;
		const char *p = c2 + 1;
		size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
		/* Outside the mount's root (a cgroup namespace, a bind mount of a
		 * subtree): our cgroup is not visible, so the mount stands in. */
		if (strncmp(p, root, rl) != 0 || (p[rl] != '/' && p[rl] != '\0') ||
		    strstr(p + rl, "/..") || p[rl] == '\0' || strcmp(p + rl, "/") == 0)
			break;
		char own[LAB_PATH_MAX];
		struct stat st;
		if (snprintf(own, sizeof(own), "%s%s", h->mount, p + rl) < (int)sizeof(own) &&
		    stat(own, &st) == 0 && S_ISDIR(st.st_mode))
			snprintf(h->own, sizeof(h->own), "%s", own);
		break;
	}
	return 0;
}

/* dir becomes its parent; false when it already is the mount. */
static bool dir_up(char *dir, const char *mount)
{
	size_t ml = strlen(mount);
	char *slash = strrchr(dir, '/');
	if (strlen(dir) <= ml || !slash || (size_t)(slash - dir) < ml)
		return false;
	*slash = '\0';
	return true;
}

/* ---- stale cgroups ------------------------------------------------------- */

/* Opens dir and takes its lock without waiting: the fd, or -EWOULDBLOCK
 * when a live owner holds it, or another -errno. */
static int lock_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

/* threadlab-<pid> or threadlab-<pid>.<n>: a name this code makes. */
static bool is_ours(const char *name)
{
	if (strncmp(name, "threadlab-", 10) != 0)
		return false;
	char *end;
	long pid = strtol(name + 10, &end, 10);
	if (pid <= 0 || end == name + 10)
		return false;
	if (*end == '.')
		strtol(end + 1, &end, 10);
	return *end == '\0';
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

/* Removes top (and top/work, first): kills their tasks and retries while
 * they exit (the kernel refuses rmdir of a populated cgroup with EBUSY). */
static int remove_tree(const struct lab_quota_sys *sys, const char *top, int timeout_ms)
{
	char work[LAB_PATH_MAX + 8];
	snprintf(work, sizeof(work), "%s/work", top);
	for (int waited = 0;; waited += 10) {
		int rc = sys->rmdir(work);
		if (rc == 0 || rc == -ENOENT || rc == -ENOTDIR) {
			rc = sys->rmdir(top);
			if (rc == 0 || rc == -ENOENT)
				return 0;
		}
		if (rc != -EBUSY)
			return rc;
		kill_tasks(work);
		kill_tasks(top);
		if (waited >= timeout_ms)
			return rc;
		sleep_ms(10);
	}
}

/* How long a stale cgroup's killed tasks may take to leave it: a killed
 * task must be scheduled to exit, and on a loaded 2-CPU box 1 s was once
 * not enough (test-lab-death). */
#define LAB_QUOTA_STALE_MS 5000

static int cleanup_dir(const struct lab_quota_sys *sys, const char *parent)
{
	DIR *d = opendir(parent);
	if (!d)
		return 0;
	int removed = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!is_ours(e->d_name))
			continue;
		char top[LAB_PATH_MAX];
		struct stat st;
		if (snprintf(top, sizeof(top), "%s/%s", parent, e->d_name) >= (int)sizeof(top) ||
		    stat(top, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		/* A live owner holds the lock (ours too: a second open of the
		 * same directory conflicts): never touched. */
		int fd = lock_dir(top);
		if (fd < 0)
			continue;
		if (remove_tree(sys, top, LAB_QUOTA_STALE_MS) == 0)
			removed++;
		close(fd);
	}
	closedir(d);
	return removed;
}

int lab_quota_cleanup_stale_in(const struct lab_quota_sys *sys)
{
	sys = sys_or_real(sys);
	int removed = 0;
	for (int v = 1; v <= 2; v++) {
		struct hier h;
		if (hier_find(sys, v, &h) < 0)
			continue;
		char dir[LAB_PATH_MAX];
		snprintf(dir, sizeof(dir), "%s", h.own);
		do
			removed += cleanup_dir(sys, dir);
		while (dir_up(dir, h.mount));
	}
	return removed;
}

int lab_quota_cleanup_stale(void)
{
	return lab_quota_cleanup_stale_in(NULL);
}

/* ---- create, set, add, destroy ---------------------------------------------- */

/* v2: +cpu in the subtree_control of mount and of each cgroup below it down
 * to parent, where it is not there yet. */
static int enable_cpu_down(const struct lab_quota_sys *sys, const char *mount, const char *parent)
{
	char dir[LAB_PATH_MAX], path[LAB_PATH_MAX + 32];
	size_t ml = strlen(mount);
	snprintf(dir, sizeof(dir), "%s", parent);
	for (size_t end = ml;;) {
		char keep = dir[end];
		dir[end] = '\0';
		if (!file_has_word(dir, "cgroup.subtree_control", "cpu")) {
			snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
			int rc = sys->write(path, "+cpu");
			if (rc < 0)
				return rc;
		}
		dir[end] = keep;
		if (!keep)
			return 0;
		const char *next = strchr(dir + end + 1, '/');
		end = next ? (size_t)(next - dir) : strlen(dir);
	}
}

static void unlock(struct lab_quota *q)
{
	if (q->locked)
		close(q->lock_fd);
	q->locked = false;
	q->lock_fd = -1;
}

static void undo_create(const struct lab_quota_sys *sys, struct lab_quota *q)
{
	if (strcmp(q->leaf, q->top) != 0)
		sys->rmdir(q->leaf);
	sys->rmdir(q->top);
	unlock(q);
}

/* Makes q->top and takes its lock.  A directory of that name that no one
 * holds (left by a run that was killed) is cleared and taken; one that a
 * live owner holds (a threadlab of another PID namespace with the same
 * pid number) is -EEXIST: the caller tries the next name. */
static int make_locked(const struct lab_quota_sys *sys, struct lab_quota *q)
{
	int rc = sys->mkdir(q->top);
	if (rc < 0 && rc != -EEXIST)
		return rc;
	int fd = lock_dir(q->top);
	if (fd == -EWOULDBLOCK)
		return -EEXIST;
	if (fd < 0)
		return fd;
	q->locked = true;
	q->lock_fd = fd;
	if (rc == -EEXIST) {
		char work[LAB_PATH_MAX + 8];
		snprintf(work, sizeof(work), "%s/work", q->top);
		kill_tasks(work);
		kill_tasks(q->top);
	}
	return 0;
}

static int try_create(const struct lab_quota_sys *sys, struct lab_quota *q, const struct hier *h,
		      const char *parent, pid_t owner)
{
	int rc = h->version == 2 ? enable_cpu_down(sys, h->mount, parent) : 0;
	if (rc < 0)
		return rc;
	for (int k = 0; k < 10; k++) {
		char sfx[8] = "";
		if (k)
			snprintf(sfx, sizeof(sfx), ".%d", k);
		if (snprintf(q->top, sizeof(q->top), "%s/threadlab-%ld%s", parent, (long)owner,
			     sfx) >= (int)sizeof(q->top) ||
		    snprintf(q->leaf, sizeof(q->leaf), "%s/work", q->top) >= (int)sizeof(q->leaf))
			return -ENAMETOOLONG;
		if (h->version == 1)
			snprintf(q->leaf, sizeof(q->leaf), "%s", q->top);
		rc = make_locked(sys, q);
		if (rc != -EEXIST)
			break;
	}
	if (rc < 0)
		return rc;
	char path[LAB_PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/%s", q->top,
		 h->version == 2 ? "cpu.max" : "cpu.cfs_quota_us");
	if (access(path, F_OK) < 0) {
		undo_create(sys, q);
		return -ENOTSUP;
	}
	if (h->version == 2) {
		/* Gives work its own cpu.stat; top holds no process, so allowed. */
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", q->top);
		rc = sys->write(path, "+cpu");
		if (rc == 0)
			rc = sys->mkdir(q->leaf);
		if (rc < 0 && rc != -EEXIST) {
			undo_create(sys, q);
			return rc;
		}
	}
	q->version = h->version;
	q->created = true;
	q->cpus = 0;
	q->sys = sys;
	return 0;
}

static bool is_permission(int rc)
{
	return rc == -EACCES || rc == -EPERM || rc == -EROFS;
}

int lab_quota_create_in(const struct lab_quota_sys *sys, struct lab_quota *q, pid_t owner,
			char *err, size_t errlen)
{
	sys = sys_or_real(sys);
	memset(q, 0, sizeof(*q));
	q->lock_fd = -1;
	struct hier h;
	if (hier_find(sys, 1, &h) < 0 && hier_find(sys, 2, &h) < 0) {
		snprintf(err, errlen,
			 "no cgroup hierarchy has the cpu controller (no cgroup v1 cpu mount, "
			 "no \"cpu\" in the cgroup v2 root's cgroup.controllers): running "
			 "without a CPU quota");
		return -ENOENT;
	}
	char dir[LAB_PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", h.own);
	int first = 0, rc;
	do {
		rc = try_create(sys, q, &h, dir, owner);
		if (rc == 0)
			return 0;
		if (!first)
			first = rc;
	} while (dir_up(dir, h.mount));
	memset(q, 0, sizeof(*q));
	q->lock_fd = -1;
	/* The remedy first: lab.h keeps 256 bytes of this message. */
	char why[128];
	if (strcmp(h.own, h.mount) == 0 || first == rc)
		snprintf(why, sizeof(why), "%s", strerror(-rc));
	else
		snprintf(why, sizeof(why), "%s; in its parents: %s", strerror(-first),
			 strerror(-rc));
	snprintf(err, errlen,
		 "no CPU quota: needs root or a delegated cgroup v2 subtree (e.g. systemd-run "
		 "--user --scope -p Delegate=yes threadlab ...); creating a cgroup v%d one "
		 "under %s: %s",
		 h.version, h.own, why);
	if (is_permission(rc))
		return rc;
	return is_permission(first) ? first : rc;
}

int lab_quota_create(struct lab_quota *q, pid_t owner, char *err, size_t errlen)
{
	return lab_quota_create_in(NULL, q, owner, err, errlen);
}

int lab_quota_set(struct lab_quota *q, double cpus, char *err, size_t errlen)
{
	if (!q->created) {
		snprintf(err, errlen, "no quota cgroup");
		return -ENOENT;
	}
	const struct lab_quota_sys *sys = sys_or_real(q->sys);
	char path[LAB_PATH_MAX + 32], val[64];
	long long quota = cpus > 0 ? (long long)(cpus * LAB_QUOTA_PERIOD_US + 0.5) : -1;
	if (cpus > 0 && quota < 1000)
		quota = 1000; /* the kernel's minimum, 1 ms per period */
	int rc;
	if (q->version == 1) {
		snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", q->top);
		snprintf(val, sizeof(val), "%d", LAB_QUOTA_PERIOD_US);
		rc = sys->write(path, val);
		if (rc == 0) {
			snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", q->top);
			snprintf(val, sizeof(val), "%lld", quota);
			rc = sys->write(path, val);
		}
	} else {
		snprintf(path, sizeof(path), "%s/cpu.max", q->top);
		if (quota > 0)
			snprintf(val, sizeof(val), "%lld %d", quota, LAB_QUOTA_PERIOD_US);
		else
			snprintf(val, sizeof(val), "max %d", LAB_QUOTA_PERIOD_US);
		rc = sys->write(path, val);
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
	if (pid <= 0)
		return -EINVAL;
	char path[LAB_PATH_MAX + 32], val[32];
	snprintf(path, sizeof(path), "%s/cgroup.procs", q->leaf);
	snprintf(val, sizeof(val), "%ld", (long)pid);
	return sys_or_real(q->sys)->write(path, val);
}

int lab_quota_add_all(struct lab_quota *q, const pid_t *pids, size_t n, pid_t *failed)
{
	for (size_t i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		int rc = lab_quota_add(q, pids[i]);
		if (rc < 0 && rc != -ESRCH) {
			*failed = pids[i];
			return rc;
		}
	}
	return 0;
}

bool lab_quota_lost(struct lab_quota *q)
{
	if (!q->created || access(q->leaf, F_OK) == 0)
		return false;
	q->created = false;
	unlock(q);
	return true;
}

int lab_quota_destroy(struct lab_quota *q, int timeout_ms)
{
	if (!q->created)
		return 0;
	int rc = remove_tree(sys_or_real(q->sys), q->top, timeout_ms);
	if (rc == 0) {
		q->created = false;
		unlock(q);
	}
	return rc;
}
