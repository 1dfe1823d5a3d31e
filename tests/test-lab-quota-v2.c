/* test-lab-quota-v2.c — the quota cgroup code on fake cgroup trees.
 *
 * Each test builds, in a temporary directory, what the quota code reads:
 * proc/self/mountinfo, proc/self/cgroup, proc/PID/stat where a live owner
 * is wanted, and a cgroup tree under sys/fs/cgroup.  The fake operations
 * below stand in for the kernel: mkdir fills in the interface files (cpu.max
 * only when the parent enabled +cpu), rmdir refuses a cgroup with children
 * or live processes (EBUSY), writes check the v2 rules (no controllers for a
 * populated non-root cgroup, no processes in a cgroup that gave controllers
 * to children, the cpu.max and cfs formats), and a "denied" prefix makes
 * everything below it EACCES, as for a user without rights (tests run as
 * root here, so chmod would not do).  Processes put in cgroups are real
 * children of the test, so SIGKILL on removal is checked for real.  The real
 * cgroups of this machine are tested in test-lab.c. */
#define _GNU_SOURCE
#include "tl-test.h"

#include "lab-quota.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OWNER 4242 /* threadlab's pid as the fixtures pretend */

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

static int putf(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return put(path, text, O_TRUNC);
}

static int get(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, cap - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n < 0 ? -EIO : (int)n;
}

static const char *getf(const char *dir, const char *file)
{
	static char buf[4096];
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (get(path, buf, sizeof(buf)) < 0)
		return "(missing)";
	return buf;
}

static bool has_word(const char *list, const char *word)
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

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* Live and not a zombie, in the real /proc. */
static bool pid_live(long pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (get(path, buf, sizeof(buf)) <= 0)
		return false;
	char *p = strrchr(buf, ')');
	return p && p[2] != 'Z';
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
static int count_ours(const char *dir)
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
		n += count_ours(sub);
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

static int fake_mkdir(const char *path)
{
	if (denied(path))
		return -EACCES;
	if (mkdir(path, 0755) < 0)
		return -errno;
	char parent[PATH_MAX];
	const char *base;
	split(path, parent, sizeof(parent), &base);
	if (g_version == 1) {
		putf(path, "cgroup.procs", "");
		putf(path, "tasks", "");
		putf(path, "cpu.cfs_quota_us", "-1\n");
		putf(path, "cpu.cfs_period_us", "100000\n");
		putf(path, "cpu.stat", "nr_periods 0\nnr_throttled 0\nthrottled_time 0\n");
		return 0;
	}
	char ctl[4096];
	snprintf(ctl, sizeof(ctl), "%s", getf(parent, "cgroup.subtree_control"));
	putf(path, "cgroup.controllers", ctl);
	putf(path, "cgroup.subtree_control", "");
	putf(path, "cgroup.procs", "");
	putf(path, "cgroup.events", "populated 0\nfrozen 0\n");
	putf(path, "cpu.stat", "usage_usec 0\nuser_usec 0\nsystem_usec 0\n");
	if (has_word(ctl, "cpu")) {
		putf(path, "cpu.max", "max 100000\n");
		putf(path, "cpu.weight", "100\n");
	}
	return 0;
}

static int fake_rmdir(const char *path)
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
	snprintf(procs, sizeof(procs), "%s", getf(path, "cgroup.procs"));
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
		putf(sub, "cgroup.controllers", ctl);
		char max[PATH_MAX + 16];
		snprintf(max, sizeof(max), "%s/cpu.max", sub);
		if (has_word(ctl, "cpu") && !exists(max))
			putf(sub, "cpu.max", "max 100000\n");
	}
	if (d)
		closedir(d);
}

static int write_subtree_control(const char *dir, const char *text)
{
	char ctl[4096], avail[4096];
	snprintf(ctl, sizeof(ctl), "%s", getf(dir, "cgroup.subtree_control"));
	snprintf(avail, sizeof(avail), "%s", getf(dir, "cgroup.controllers"));
	if (text[0] != '+' || strchr(text, ' '))
		return -EINVAL; /* the code only ever enables one */
	if (has_word(ctl, text + 1))
		return 0;
	if (!has_word(avail, text + 1))
		return -ENOENT;
	if (strcmp(dir, g_mount) != 0 && getf(dir, "cgroup.procs")[0])
		return -EBUSY; /* the no-internal-process rule */
	size_t n = strlen(ctl);
	while (n && ctl[n - 1] == '\n')
		ctl[--n] = '\0';
	snprintf(ctl + n, sizeof(ctl) - n, "%s%s\n", n ? " " : "", text + 1);
	putf(dir, "cgroup.subtree_control", ctl);
	propagate(dir, ctl);
	return 0;
}

static int fake_write(const char *path, const char *text)
{
	if (denied(path))
		return -EACCES;
	if (!exists(path))
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
		    getf(dir, "cgroup.subtree_control")[0])
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

static const struct lab_quota_sys fake = {g_tmp, fake_mkdir, fake_rmdir, fake_write};

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

static void put_rel(const char *rel, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", g_tmp, rel);
	assert_int_equal(put(path, text, O_TRUNC), 0);
}

/* A cgroup below the mount, made through the fake kernel: "/a/b" */
static void cg_mkdir(const char *rel)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s%s", g_mount, rel);
	assert_int_equal(fake_mkdir(path), 0);
}

static const char *cg(const char *rel)
{
	static char path[4][PATH_MAX];
	static int i;
	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s%s", g_mount, rel);
	return path[i];
}

/* v2 host: cgroup2 at /sys/fs/cgroup, threadlab in own (with its pid in
 * cgroup.procs, as in real life), the root with root_subtree enabled. */
static void tree_v2(const char *own, const char *root_ctl, const char *root_subtree)
{
	snprintf(g_tmp, sizeof(g_tmp), "/tmp/tl-quota-v2-XXXXXX");
	assert_non_null(mkdtemp(g_tmp));
	g_version = 2;
	g_deny[0] = g_allow[0] = '\0';
	mkdirs("proc/self");
	mkdirs("sys/fs/cgroup");
	put_rel("proc/self/mountinfo",
		"22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
		"31 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec - cgroup2 cgroup2 "
		"rw,nsdelegate,memory_recursiveprot\n");
	char line[PATH_MAX];
	snprintf(line, sizeof(line), "0::%s\n", own);
	put_rel("proc/self/cgroup", line);
	snprintf(g_mount, sizeof(g_mount), "%s/sys/fs/cgroup", g_tmp);
	putf(g_mount, "cgroup.controllers", root_ctl);
	putf(g_mount, "cgroup.subtree_control", root_subtree);
	putf(g_mount, "cgroup.procs", "1\n");
	putf(g_mount, "cpu.stat", "usage_usec 0\n");
	char path[PATH_MAX] = "";
	for (const char *p = own; *p && strcmp(p, "/") != 0;) {
		const char *next = strchr(p + 1, '/');
		size_t len = next ? (size_t)(next - own) : strlen(own);
		snprintf(path, sizeof(path), "%.*s", (int)len, own);
		cg_mkdir(path);
		p = next ? next : "";
	}
	snprintf(line, sizeof(line), "%d\n", (int)getpid());
	putf(cg(strcmp(own, "/") == 0 ? "" : own), "cgroup.procs", line);
}

/* Hybrid host: v1 cpu,cpuacct at /sys/fs/cgroup/cpu,cpuacct and a cgroup2
 * at /sys/fs/cgroup/unified without the cpu controller. */
static void tree_v1(const char *own)
{
	snprintf(g_tmp, sizeof(g_tmp), "/tmp/tl-quota-v1-XXXXXX");
	assert_non_null(mkdtemp(g_tmp));
	g_version = 1;
	g_deny[0] = g_allow[0] = '\0';
	mkdirs("proc/self");
	mkdirs("sys/fs/cgroup/cpu,cpuacct");
	mkdirs("sys/fs/cgroup/unified");
	put_rel("proc/self/mountinfo",
		"31 23 0:26 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755\n"
		"32 31 0:27 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw\n"
		"35 31 0:30 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid - cgroup cgroup "
		"rw,cpu,cpuacct\n"
		"36 31 0:31 / /sys/fs/cgroup/cpuset rw,nosuid - cgroup cgroup rw,cpuset\n");
	char line[PATH_MAX];
	snprintf(line, sizeof(line), "5:cpuset:/\n4:cpu,cpuacct:%s\n1:name=systemd:/x\n0::/x\n",
		 own);
	put_rel("proc/self/cgroup", line);
	put_rel("sys/fs/cgroup/unified/cgroup.controllers", "");
	snprintf(g_mount, sizeof(g_mount), "%s/sys/fs/cgroup/cpu,cpuacct", g_tmp);
	putf(g_mount, "cgroup.procs", "1\n");
	putf(g_mount, "tasks", "1\n");
	if (strcmp(own, "/") != 0)
		cg_mkdir(own);
}

/* Children of the test, killed and reaped by teardown if a test fails. */
static pid_t g_kids[8];

static pid_t sleeper(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	assert_true(pid > 0);
	for (size_t i = 0; i < sizeof(g_kids) / sizeof(g_kids[0]); i++) {
		if (!g_kids[i]) {
			g_kids[i] = pid;
			break;
		}
	}
	return pid;
}

static void forget(pid_t pid)
{
	for (size_t i = 0; i < sizeof(g_kids) / sizeof(g_kids[0]); i++)
		if (g_kids[i] == pid)
			g_kids[i] = 0;
}

static bool reaped_by_sigkill(pid_t pid)
{
	int status = 0;
	for (int i = 0; i < 200; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			forget(pid);
			return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
		}
		struct timespec ts = {0, 5 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	return false;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(g_kids) / sizeof(g_kids[0]); i++) {
		if (g_kids[i]) {
			kill(g_kids[i], SIGKILL);
			waitpid(g_kids[i], NULL, 0);
			g_kids[i] = 0;
		}
	}
	if (g_tmp[0])
		rm_rf(g_tmp);
	g_tmp[0] = g_mount[0] = g_deny[0] = g_allow[0] = '\0';
	return 0;
}

/* A fake /proc/PID/stat whose start is `ago` seconds before now. */
static void fake_stat(long pid, double ago)
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
	put_rel(rel, text);
}

/* ---- v2 ------------------------------------------------------------------------- */

/* threadlab in the root cgroup: the quota cgroup is the root's child. */
static void test_v2_root(void **state)
{
	(void)state;
	tree_v2("/", "cpuset cpu io memory pids\n", "");
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, err, sizeof(err)), 0);
	assert_true(q.created && q.version == 2);
	assert_string_equal(q.top, cg("/threadlab-4242"));
	assert_string_equal(q.leaf, cg("/threadlab-4242/work"));
	assert_true(has_word(getf(g_mount, "cgroup.subtree_control"), "cpu"));
	assert_true(has_word(getf(q.top, "cgroup.subtree_control"), "cpu"));
	assert_true(has_word(getf(q.leaf, "cgroup.controllers"), "cpu"));
	assert_string_equal(getf(q.top, "cpu.max"), "max 100000\n");
	assert_string_equal(getf(q.leaf, "cgroup.procs"), "");
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
	assert_false(exists(cg("/threadlab-4242")));
}

/* threadlab in a populated session scope: +cpu cannot be enabled there
 * (EBUSY), so the cgroup goes into the parent, with +cpu enabled from the
 * root down; the scope itself is left alone. */
static void test_v2_nested(void **state)
{
	(void)state;
	tree_v2("/user.slice/user-1000.slice/session-2.scope", "cpuset cpu io memory pids\n",
		"memory pids\n");
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, err, sizeof(err)), 0);
	assert_string_equal(q.top, cg("/user.slice/user-1000.slice/threadlab-4242"));
	assert_string_equal(q.leaf, cg("/user.slice/user-1000.slice/threadlab-4242/work"));
	assert_string_equal(getf(g_mount, "cgroup.subtree_control"), "memory pids cpu\n");
	assert_string_equal(getf(cg("/user.slice"), "cgroup.subtree_control"), "cpu\n");
	assert_string_equal(getf(cg("/user.slice/user-1000.slice"), "cgroup.subtree_control"),
			    "cpu\n");
	assert_string_equal(getf(q.top, "cgroup.subtree_control"), "cpu\n");
	assert_string_equal(
	    getf(cg("/user.slice/user-1000.slice/session-2.scope"), "cgroup.subtree_control"), "");
	assert_int_equal(count_ours(g_mount), 1);
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
	assert_int_equal(count_ours(g_mount), 0);
}

/* A delegated subtree: threadlab runs in /deleg/app (busy); /deleg is ours
 * to change, the root is not (and already gives cpu, so needs no write). */
static void test_v2_delegated(void **state)
{
	(void)state;
	tree_v2("/deleg/app", "cpu memory pids\n", "cpu memory pids\n");
	snprintf(g_deny, sizeof(g_deny), "%s", g_mount);
	snprintf(g_allow, sizeof(g_allow), "%s", cg("/deleg"));
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, err, sizeof(err)), 0);
	assert_string_equal(q.top, cg("/deleg/threadlab-4242"));
	assert_string_equal(getf(cg("/deleg"), "cgroup.subtree_control"), "cpu\n");
	assert_string_equal(getf(cg("/deleg/app"), "cgroup.subtree_control"), "");
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
	assert_int_equal(count_ours(g_mount), 0);
}

/* cpu.max for 1.5 and 0.25 CPUs, changed live, removed; the minimum. */
static void test_v2_cpu_max(void **state)
{
	(void)state;
	tree_v2("/", "cpu memory\n", "cpu\n");
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, err, sizeof(err)), 0);
	assert_int_equal(lab_quota_set(&q, 1.5, err, sizeof(err)), 0);
	assert_string_equal(getf(q.top, "cpu.max"), "150000 100000\n");
	assert_true(q.cpus == 1.5);
	assert_int_equal(lab_quota_set(&q, 0.25, err, sizeof(err)), 0);
	assert_string_equal(getf(q.top, "cpu.max"), "25000 100000\n");
	assert_true(q.cpus == 0.25);
	assert_int_equal(lab_quota_set(&q, 2, err, sizeof(err)), 0);
	assert_string_equal(getf(q.top, "cpu.max"), "200000 100000\n");
	assert_int_equal(lab_quota_set(&q, 0, err, sizeof(err)), 0);
	assert_string_equal(getf(q.top, "cpu.max"), "max 100000\n");
	assert_true(q.cpus == 0);
	assert_int_equal(lab_quota_set(&q, 0.001, err, sizeof(err)), 0);
	assert_string_equal(getf(q.top, "cpu.max"), "1000 100000\n");
	assert_true(q.cpus == 0.01);
	assert_string_equal(getf(q.leaf, "cpu.max"), "max 100000\n"); /* the limit is on top */
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
}

/* Processes go into work/cgroup.procs; removal kills them and leaves nothing. */
static void test_v2_add_destroy(void **state)
{
	(void)state;
	tree_v2("/", "cpu memory\n", "");
	struct lab_quota q;
	char err[256] = "", want[64];
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, err, sizeof(err)), 0);
	pid_t a = sleeper(), b = sleeper();
	assert_int_equal(lab_quota_add(&q, a), 0);
	assert_int_equal(lab_quota_add(&q, b), 0);
	assert_int_equal(lab_quota_add(&q, 0), -EINVAL); /* "0" would move threadlab itself */
	snprintf(want, sizeof(want), "%d\n%d\n", (int)a, (int)b);
	assert_string_equal(getf(q.leaf, "cgroup.procs"), want);
	assert_string_equal(getf(q.top, "cgroup.procs"), "");
	assert_int_equal(lab_quota_destroy(&q, 1000), 0);
	assert_true(reaped_by_sigkill(a));
	assert_true(reaped_by_sigkill(b));
	assert_false(q.created);
	assert_false(exists(cg("/threadlab-4242")));
	assert_int_equal(count_ours(g_mount), 0);
	assert_int_equal(lab_quota_destroy(&q, 0), 0); /* idempotent */
	assert_int_equal(lab_quota_set(&q, 1, err, sizeof(err)), -ENOENT);
	assert_int_equal(lab_quota_add(&q, a), -ENOENT);
}

/* Stale cgroups in our cgroup and in each parent: a dead owner's (with a
 * leftover task) and a reused pid's go, a live older owner's and ours stay. */
static void test_v2_stale(void **state)
{
	(void)state;
	tree_v2("/user.slice/s.scope", "cpu memory\n", "cpu\n");
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	char rel[128];
	snprintf(rel, sizeof(rel), "/user.slice/threadlab-%d", (int)dead);
	cg_mkdir(rel);
	char sc[PATH_MAX], work[PATH_MAX];
	snprintf(sc, sizeof(sc), "%s/cgroup.subtree_control", cg("/user.slice"));
	putf(cg("/user.slice"), "cgroup.procs", "");
	assert_int_equal(fake_write(sc, "+cpu"), 0);
	snprintf(sc, sizeof(sc), "%s/cgroup.subtree_control", cg(rel));
	assert_int_equal(fake_write(sc, "+cpu"), 0);
	snprintf(work, sizeof(work), "%s/work", cg(rel));
	assert_int_equal(fake_mkdir(work), 0);
	pid_t left = sleeper();
	char procs[PATH_MAX + 16], pid[32];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", work);
	snprintf(pid, sizeof(pid), "%d", (int)left);
	assert_int_equal(fake_write(procs, pid), 0);
	cg_mkdir("/threadlab-4000001"); /* live, started before: kept */
	fake_stat(4000001, 2);
	cg_mkdir("/user.slice/s.scope/threadlab-4000002"); /* pid reused: removed */
	fake_stat(4000002, -60);
	cg_mkdir("/threadlab-abc");
	snprintf(rel, sizeof(rel), "/threadlab-%d", (int)getpid());
	cg_mkdir(rel);
	assert_int_equal(lab_quota_cleanup_stale_in(&fake), 2);
	assert_true(reaped_by_sigkill(left));
	assert_true(exists(cg("/threadlab-4000001")));
	assert_true(exists(cg("/threadlab-abc")));
	assert_true(exists(cg(rel)));
	assert_false(exists(cg("/user.slice/s.scope/threadlab-4000002")));
	assert_int_equal(count_ours(cg("/user.slice")), 0);
	assert_int_equal(lab_quota_cleanup_stale_in(&fake), 0);
}

/* No rights anywhere: -EACCES and a message naming the remedy, nothing made. */
static void test_v2_denied(void **state)
{
	(void)state;
	tree_v2("/user.slice/user-1000.slice/session-2.scope", "cpu memory\n", "cpu memory\n");
	snprintf(g_deny, sizeof(g_deny), "%s", g_mount);
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, err, sizeof(err)), -EACCES);
	printf("# message: %s\n", err);
	assert_false(q.created);
	assert_non_null(strstr(err, "root"));
	assert_non_null(strstr(err, "systemd-run --user --scope -p Delegate=yes"));
	assert_non_null(strstr(err, "Permission denied"));
	assert_int_equal(count_ours(g_mount), 0);
	assert_int_equal(lab_quota_set(&q, 1, err, sizeof(err)), -ENOENT);
	assert_int_equal(lab_quota_add(&q, getpid()), -ENOENT);
	assert_int_equal(lab_quota_destroy(&q, 0), 0);
	/* A short message buffer is cut, not overrun. */
	char small[16];
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, small, sizeof(small)), -EACCES);
	assert_int_equal(strlen(small), sizeof(small) - 1);
}

/* Our scope is busy and not ours to change; the root is writable: the
 * cgroup goes to the root. */
static void test_v2_own_not_writable(void **state)
{
	(void)state;
	tree_v2("/system.slice/app.service", "cpu memory\n", "memory\n");
	snprintf(g_deny, sizeof(g_deny), "%s/system.slice", g_mount);
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, err, sizeof(err)), 0);
	assert_string_equal(q.top, cg("/threadlab-4242"));
	assert_int_equal(lab_quota_set(&q, 1.5, err, sizeof(err)), 0);
	assert_string_equal(getf(q.top, "cpu.max"), "150000 100000\n");
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
	assert_int_equal(count_ours(g_mount), 0);
}

/* v2 without the cpu controller (this machine's unified mount): -ENOENT. */
static void test_v2_no_cpu(void **state)
{
	(void)state;
	tree_v2("/", "memory pids\n", "");
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "cpu controller"));
	assert_int_equal(count_ours(g_mount), 0);
}

/* A cgroup namespace or a bind-mounted subtree: our path is not under the
 * mount's root, so the mount stands in. */
static void test_v2_namespace(void **state)
{
	(void)state;
	tree_v2("/", "cpu\n", "");
	put_rel("proc/self/cgroup", "0::/../../outside\n");
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, err, sizeof(err)), 0);
	assert_string_equal(q.top, cg("/threadlab-4242"));
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
}

/* ---- v1 (hybrid host) --------------------------------------------------------- */

static void test_v1(void **state)
{
	(void)state;
	tree_v1("/grp");
	struct lab_quota q;
	char err[256] = "", want[32];
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, err, sizeof(err)), 0);
	assert_int_equal(q.version, 1);
	assert_string_equal(q.top, cg("/grp/threadlab-4242"));
	assert_string_equal(q.leaf, q.top);
	assert_int_equal(lab_quota_set(&q, 1.5, err, sizeof(err)), 0);
	assert_string_equal(getf(q.top, "cpu.cfs_quota_us"), "150000\n");
	assert_string_equal(getf(q.top, "cpu.cfs_period_us"), "100000\n");
	assert_int_equal(lab_quota_set(&q, 0.25, err, sizeof(err)), 0);
	assert_string_equal(getf(q.top, "cpu.cfs_quota_us"), "25000\n");
	assert_int_equal(lab_quota_set(&q, -1, err, sizeof(err)), 0);
	assert_string_equal(getf(q.top, "cpu.cfs_quota_us"), "-1\n");
	pid_t a = sleeper();
	assert_int_equal(lab_quota_add(&q, a), 0);
	snprintf(want, sizeof(want), "%d\n", (int)a);
	assert_string_equal(getf(q.top, "cgroup.procs"), want);
	assert_int_equal(lab_quota_destroy(&q, 1000), 0);
	assert_true(reaped_by_sigkill(a));
	assert_int_equal(count_ours(g_mount), 0);
	/* stale: a dead owner under our cgroup and under the root */
	cg_mkdir("/grp/threadlab-4000003");
	cg_mkdir("/threadlab-4000004");
	assert_int_equal(lab_quota_cleanup_stale_in(&fake), 2);
	assert_int_equal(count_ours(g_mount), 0);
	/* no rights: the message, -EACCES */
	snprintf(g_deny, sizeof(g_deny), "%s", g_mount);
	assert_int_equal(lab_quota_create_in(&fake, &q, OWNER, err, sizeof(err)), -EACCES);
	assert_non_null(strstr(err, "needs root"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_v2_root, teardown),
	    cmocka_unit_test_teardown(test_v2_nested, teardown),
	    cmocka_unit_test_teardown(test_v2_delegated, teardown),
	    cmocka_unit_test_teardown(test_v2_cpu_max, teardown),
	    cmocka_unit_test_teardown(test_v2_add_destroy, teardown),
	    cmocka_unit_test_teardown(test_v2_stale, teardown),
	    cmocka_unit_test_teardown(test_v2_denied, teardown),
	    cmocka_unit_test_teardown(test_v2_own_not_writable, teardown),
	    cmocka_unit_test_teardown(test_v2_no_cpu, teardown),
	    cmocka_unit_test_teardown(test_v2_namespace, teardown),
	    cmocka_unit_test_teardown(test_v1, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
