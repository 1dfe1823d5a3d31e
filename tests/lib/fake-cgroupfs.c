/* fake-cgroupfs.c — a fake cgroup file system for the quota tests.
 *
 * A tree is built in a temporary directory with what the quota code reads:
 * proc/self/mountinfo, proc/self/cgroup, proc/PID/stat where a live owner
 * is wanted, and a cgroup tree under sys/fs/cgroup.  The fake operations
 * stand in for the kernel: mkdir fills in the interface files (cpu.max only
 * when the parent enabled +cpu), rmdir refuses a cgroup with children or
 * live processes (EBUSY), writes check the v2 rules (no controllers for a
 * populated non-root cgroup, no processes in a cgroup that gave controllers
 * to children, the cpu.max and cfs formats), and a "denied" prefix makes
 * everything below it EACCES, as for a user without rights (tests run as
 * root here, so chmod would not do).  Processes in cgroup.procs are checked
 * in the real /proc, so the tests put real children there. */
#define _GNU_SOURCE
#include "tl-test.h"

#include "fake-cgroupfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char g_tmp[64];	  /* the fixture's root */
static char g_mount[128]; /* the cgroup hierarchy in use, under g_tmp */
static int g_version;
static char g_deny[PATH_MAX];  /* changes at or below this path: EACCES, */
static char g_allow[PATH_MAX]; /* except at or below this one */

/* ---- files ---------------------------------------------------------------- */

static int put(const char *path, const char *text, int flags)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	return n < 0 ? -EIO : 0;
}

int fake_cg_putf(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return put(path, text, O_TRUNC);
}

const char *fake_cg_getf(const char *dir, const char *file)
{
	static char buf[4096];
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (tl_read_file(path, buf, sizeof(buf)) < 0)
		return "(missing)";
	return buf;
}

bool fake_cg_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, " \n");
		if (len == n && strncmp(p, word, n) == 0)
			return true;
		p += len + (p[len] != '\0');
	}
	return false;
}

bool fake_cg_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* Live and not a zombie, in the real /proc. */
static bool pid_live(long pid)
{
	return !tl_pid_gone((pid_t)pid);
}

static void rm_rf(const char *path)
{
	DIR *d = opendir(path);
	if (!d) {
		unlink(path);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char sub[PATH_MAX];
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		rm_rf(sub);
	}
	closedir(d);
	rmdir(path);
}

/* Counts directories named threadlab-* anywhere below dir. */
int fake_cg_count_ours(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		char sub[PATH_MAX];
		struct stat st;
		if (e->d_name[0] == '.' ||
		    snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >= (int)sizeof(sub) ||
		    stat(sub, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		n += strncmp(e->d_name, "threadlab-", 10) == 0;
		n += fake_cg_count_ours(sub);
	}
	closedir(d);
	return n;
}

/* ---- the fake kernel ---------------------------------------------------------- */

static bool below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return n && strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static bool denied(const char *path)
{
	return below(path, g_deny) && !below(path, g_allow);
}

static void split(const char *path, char *dir, size_t cap, const char **base)
{
	snprintf(dir, cap, "%s", path);
	char *slash = strrchr(dir, '/');
	*slash = '\0';
	*base = slash + 1;
}

int fake_cg_mkdir(const char *path)
{
	if (denied(path))
		return -EACCES;
	if (mkdir(path, 0755) < 0)
		return -errno;
	char parent[PATH_MAX];
	const char *base;
	split(path, parent, sizeof(parent), &base);
	if (g_version == 1) {
		fake_cg_putf(path, "cgroup.procs", "");
		fake_cg_putf(path, "tasks", "");
		fake_cg_putf(path, "cpu.cfs_quota_us", "-1\n");
		fake_cg_putf(path, "cpu.cfs_period_us", "100000\n");
		fake_cg_putf(path, "cpu.stat", "nr_periods 0\nnr_throttled 0\nthrottled_time 0\n");
		return 0;
	}
	char ctl[4096];
	snprintf(ctl, sizeof(ctl), "%s", fake_cg_getf(parent, "cgroup.subtree_control"));
	fake_cg_putf(path, "cgroup.controllers", ctl);
	fake_cg_putf(path, "cgroup.subtree_control", "");
	fake_cg_putf(path, "cgroup.procs", "");
	fake_cg_putf(path, "cgroup.events", "populated 0\nfrozen 0\n");
	fake_cg_putf(path, "cpu.stat", "usage_usec 0\nuser_usec 0\nsystem_usec 0\n");
	if (fake_cg_has_word(ctl, "cpu")) {
		fake_cg_putf(path, "cpu.max", "max 100000\n");
		fake_cg_putf(path, "cpu.weight", "100\n");
	}
	return 0;
}

static int fake_cg_rmdir(const char *path)
{
	if (denied(path))
		return -EACCES;
	struct stat st;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	DIR *d = opendir(path);
	struct dirent *e;
	int rc = 0;
	while (d && (e = readdir(d))) {
		char sub[PATH_MAX];
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			rc = -EBUSY;
	}
	if (d)
		closedir(d);
	char procs[4096];
	snprintf(procs, sizeof(procs), "%s", fake_cg_getf(path, "cgroup.procs"));
	for (char *sv, *s = strtok_r(procs, "\n", &sv); s; s = strtok_r(NULL, "\n", &sv))
		if (pid_live(strtol(s, NULL, 10)))
			rc = -EBUSY;
	if (rc < 0)
		return rc;
	d = opendir(path);
	while (d && (e = readdir(d))) {
		char sub[PATH_MAX];
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlink(sub);
	}
	if (d)
		closedir(d);
	return rmdir(path) < 0 ? -errno : 0;
}

/* +cpu in dir: the children now show cpu in cgroup.controllers and cpu.max. */
static void propagate(const char *dir, const char *ctl)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char sub[PATH_MAX];
		struct stat st;
		if (e->d_name[0] == '.' ||
		    snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >= (int)sizeof(sub) ||
		    stat(sub, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		fake_cg_putf(sub, "cgroup.controllers", ctl);
		char max[PATH_MAX + 16];
		snprintf(max, sizeof(max), "%s/cpu.max", sub);
		if (fake_cg_has_word(ctl, "cpu") && !fake_cg_exists(max))
			fake_cg_putf(sub, "cpu.max", "max 100000\n");
	}
	if (d)
		closedir(d);
}

static int write_subtree_control(const char *dir, const char *text)
{
	char ctl[4096], avail[4096];
	snprintf(ctl, sizeof(ctl), "%s", fake_cg_getf(dir, "cgroup.subtree_control"));
	snprintf(avail, sizeof(avail), "%s", fake_cg_getf(dir, "cgroup.controllers"));
	if (text[0] != '+' || strchr(text, ' '))
		return -EINVAL; /* the code only ever enables one */
	if (fake_cg_has_word(ctl, text + 1))
		return 0;
	if (!fake_cg_has_word(avail, text + 1))
		return -ENOENT;
	if (strcmp(dir, g_mount) != 0 && fake_cg_getf(dir, "cgroup.procs")[0])
		return -EBUSY; /* the no-internal-process rule */
	size_t n = strlen(ctl);
	while (n && ctl[n - 1] == '\n')
		ctl[--n] = '\0';
	snprintf(ctl + n, sizeof(ctl) - n, "%s%s\n", n ? " " : "", text + 1);
	fake_cg_putf(dir, "cgroup.subtree_control", ctl);
	propagate(dir, ctl);
	return 0;
}

int fake_cg_write(const char *path, const char *text)
{
	if (denied(path))
		return -EACCES;
	if (!fake_cg_exists(path))
		return -ENOENT;
	char dir[PATH_MAX], line[64];
	const char *base;
	split(path, dir, sizeof(dir), &base);
	char *end;
	long long v = strtoll(text, &end, 10);
	if (strcmp(base, "cgroup.procs") == 0 || strcmp(base, "tasks") == 0) {
		if (*end || v <= 0)
			return -EINVAL;
		if (g_version == 2 && strcmp(dir, g_mount) != 0 &&
		    fake_cg_getf(dir, "cgroup.subtree_control")[0])
			return -EBUSY;
		snprintf(line, sizeof(line), "%lld\n", v);
		return put(path, line, O_APPEND);
	}
	if (strcmp(base, "cgroup.subtree_control") == 0)
		return write_subtree_control(dir, text);
	if (strcmp(base, "cpu.max") == 0) {
		long long quota = 0, period = 0;
		char q[32];
		if (sscanf(text, "%31s %lld", q, &period) != 2 || period < 1000 || period > 1000000)
			return -EINVAL;
		if (strcmp(q, "max") != 0 && (sscanf(q, "%lld", &quota) != 1 || quota < 1000))
			return -EINVAL;
	} else if (strcmp(base, "cpu.cfs_quota_us") == 0) {
		if (*end || (v != -1 && v < 1000))
			return -EINVAL;
	} else if (strcmp(base, "cpu.cfs_period_us") == 0) {
		if (*end || v < 1000 || v > 1000000)
			return -EINVAL;
	}
	snprintf(line, sizeof(line), "%s\n", text);
	return put(path, line, O_TRUNC);
}

const struct lab_quota_sys fake_cg_sys = {g_tmp, fake_cg_mkdir, fake_cg_rmdir, fake_cg_write};

/* ---- fixtures ------------------------------------------------------------------- */

static void mkdirs(const char *rel)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", g_tmp, rel);
	for (char *p = path + strlen(g_tmp) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

void fake_cg_put_rel(const char *rel, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", g_tmp, rel);
	assert_int_equal(put(path, text, O_TRUNC), 0);
}

/* A cgroup below the mount, made through the fake kernel: "/a/b" */
void fake_cg_new(const char *rel)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s%s", g_mount, rel);
	assert_int_equal(fake_cg_mkdir(path), 0);
}

const char *fake_cg_path(const char *rel)
{
	static char path[4][PATH_MAX];
	static int i;
	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s%s", g_mount, rel);
	return path[i];
}

/* v2 host: cgroup2 at /sys/fs/cgroup, threadlab in own (with its pid in
 * cgroup.procs, as in real life), the root with root_subtree enabled. */
void fake_cg_tree_v2(const char *own, const char *root_ctl, const char *root_subtree)
{
	snprintf(g_tmp, sizeof(g_tmp), "/tmp/tl-quota-v2-XXXXXX");
	assert_non_null(mkdtemp(g_tmp));
	g_version = 2;
	g_deny[0] = g_allow[0] = '\0';
	mkdirs("proc/self");
	mkdirs("sys/fs/cgroup");
	fake_cg_put_rel("proc/self/mountinfo",
			"22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
			"31 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec - cgroup2 cgroup2 "
			"rw,nsdelegate,memory_recursiveprot\n");
	char line[PATH_MAX];
	snprintf(line, sizeof(line), "0::%s\n", own);
	fake_cg_put_rel("proc/self/cgroup", line);
	snprintf(g_mount, sizeof(g_mount), "%s/sys/fs/cgroup", g_tmp);
	fake_cg_putf(g_mount, "cgroup.controllers", root_ctl);
	fake_cg_putf(g_mount, "cgroup.subtree_control", root_subtree);
	fake_cg_putf(g_mount, "cgroup.procs", "1\n");
	fake_cg_putf(g_mount, "cpu.stat", "usage_usec 0\n");
	char path[PATH_MAX] = "";
	for (const char *p = own; *p && strcmp(p, "/") != 0;) {
		const char *next = strchr(p + 1, '/');
		size_t len = next ? (size_t)(next - own) : strlen(own);
		snprintf(path, sizeof(path), "%.*s", (int)len, own);
		fake_cg_new(path);
		p = next ? next : "";
	}
	snprintf(line, sizeof(line), "%d\n", (int)getpid());
	fake_cg_putf(fake_cg_path(strcmp(own, "/") == 0 ? "" : own), "cgroup.procs", line);
}

/* Hybrid host: v1 cpu,cpuacct at /sys/fs/cgroup/cpu,cpuacct and a cgroup2
 * at /sys/fs/cgroup/unified without the cpu controller. */
void fake_cg_tree_v1(const char *own)
{
	snprintf(g_tmp, sizeof(g_tmp), "/tmp/tl-quota-v1-XXXXXX");
	assert_non_null(mkdtemp(g_tmp));
	g_version = 1;
	g_deny[0] = g_allow[0] = '\0';
	mkdirs("proc/self");
	mkdirs("sys/fs/cgroup/cpu,cpuacct");
	mkdirs("sys/fs/cgroup/unified");
	fake_cg_put_rel("proc/self/mountinfo",
			"31 23 0:26 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755\n"
			"32 31 0:27 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw\n"
			"35 31 0:30 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid - cgroup cgroup "
			"rw,cpu,cpuacct\n"
			"36 31 0:31 / /sys/fs/cgroup/cpuset rw,nosuid - cgroup cgroup rw,cpuset\n");
	char line[PATH_MAX];
	snprintf(line, sizeof(line), "5:cpuset:/\n4:cpu,cpuacct:%s\n1:name=systemd:/x\n0::/x\n",
		 own);
	fake_cg_put_rel("proc/self/cgroup", line);
	fake_cg_put_rel("sys/fs/cgroup/unified/cgroup.controllers", "");
	snprintf(g_mount, sizeof(g_mount), "%s/sys/fs/cgroup/cpu,cpuacct", g_tmp);
	fake_cg_putf(g_mount, "cgroup.procs", "1\n");
	fake_cg_putf(g_mount, "tasks", "1\n");
	if (strcmp(own, "/") != 0)
		fake_cg_new(own);
}

/* A fake /proc/PID/stat whose start is `ago` seconds before now. */
void fake_cg_proc_stat(long pid, double ago)
{
	struct timespec boot;
	clock_gettime(CLOCK_BOOTTIME, &boot);
	double since = (double)boot.tv_sec + boot.tv_nsec / 1e9 - ago;
	unsigned long long ticks = (unsigned long long)(since * (double)sysconf(_SC_CLK_TCK));
	char rel[64], text[256];
	snprintf(rel, sizeof(rel), "proc/%ld", pid);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "proc/%ld/stat", pid);
	snprintf(text, sizeof(text),
		 "%ld (threadlab) S 1 %ld %ld 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 %llu 0 0\n",
		 pid, pid, pid, ticks);
	fake_cg_put_rel(rel, text);
}

const char *fake_cg_mount(void)
{
	return g_mount;
}

void fake_cg_deny(const char *deny, const char *allow)
{
	snprintf(g_deny, sizeof(g_deny), "%s", deny ? deny : "");
	snprintf(g_allow, sizeof(g_allow), "%s", allow ? allow : "");
}

void fake_cg_remove(void)
{
	if (g_tmp[0])
		rm_rf(g_tmp);
	g_tmp[0] = g_mount[0] = g_deny[0] = g_allow[0] = '\0';
}
