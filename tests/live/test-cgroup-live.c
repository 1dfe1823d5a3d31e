/* test-cgroup-live.c — the budget and cgroup readers on this machine.
 *
 * As root, creates a child cgroup of the cpu controller (v1 where it is
 * mounted, else v2) with a 0.5-CPU quota, puts a busy process in it and
 * checks that budget_read names the quota as binding and cpu.stat shows
 * throttling rising.  The teardown kills the process and removes the
 * cgroup on every path, also after a failed assertion.  Without root or a
 * writable cpu controller the cgroup tests SKIP, visibly. */
#include "config.h"

#include "tl-test.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "budget.h"
#include "cgroup.h"
#include "cgroup-read.h"
#include "cgroup-parse.h"

struct live {
	struct sysroot root;
	char cg[CGROUP_PATH_MAX + 64];	/* absolute path of the cgroup we made, "" if none */
	char cg2[CGROUP_PATH_MAX + 80]; /* a second one beside it, "" if none */
	pid_t child;			/* busy process we started, 0 if none */
};

static int live_setup(void **state)
{
	struct live *l = calloc(1, sizeof(*l));
	if (!l || sysroot_open(&l->root, "/") != 0) {
		free(l);
		return -1;
	}
	*state = l;
	return 0;
}

static int live_teardown(void **state)
{
	struct live *l = *state;
	if (l->child > 0) {
		tl_kill_reap(l->child);
	}
	/* The cgroup empties a moment after its last task is reaped. */
	for (int i = 0; l->cg2[0] && i < 100; i++) {
		if (rmdir(l->cg2) == 0 || errno == ENOENT)
			break;
		usleep(20000);
	}
	for (int i = 0; l->cg[0] && i < 100; i++) {
		if (rmdir(l->cg) == 0 || errno == ENOENT)
			break;
		usleep(20000);
	}
	if (l->cg[0] && access(l->cg, F_OK) == 0)
		fprintf(stderr, "warning: could not remove %s: %s\n", l->cg, strerror(errno));
	sysroot_close(&l->root);
	free(l);
	return 0;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, s, strlen(s));
	int rc = n < 0 ? -errno : 0;
	close(fd);
	return rc;
}

static void sleep_s(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* True when the comma or space separated list holds word. */
static bool list_has(const char *list, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, " ,\n");
		if (n == wl && strncmp(p, word, wl) == 0)
			return true;
		p += n;
		p += strspn(p, " ,\n");
	}
	return false;
}

/* Makes l->cg under the hierarchy holding the cpu controller with a quota of
 * quota/period µs.  Returns the hierarchy's version, or 0 after TL_SKIP. */
static int live_make_cgroup(struct live *l, const char *quota, const char *period)
{
	char buf[65536], path[CGROUP_PATH_MAX + 128];
	struct cgroup_mount m;
	int version = 1;
	if (geteuid() != 0) {
		TL_SKIP("not root: cannot create a cgroup (run make check as root)");
		return 0;
	}
	assert_true(sysroot_read(&l->root, "proc/self/mountinfo", buf, sizeof(buf)) > 0);
	if (cgroup_parse_mountinfo(buf, 1, &m) != 0) {
		version = 2;
		if (cgroup_parse_mountinfo(buf, 2, &m) != 0) {
			TL_SKIP("no cgroup hierarchy with the cpu controller is mounted");
			return 0;
		}
		snprintf(path, sizeof(path), "%s/cgroup.controllers", m.mountpoint);
		if (sysroot_read(&l->root, path, buf, sizeof(buf)) < 0 || !list_has(buf, "cpu")) {
			TL_SKIP("cgroup2 at %s does not offer the cpu controller", m.mountpoint);
			return 0;
		}
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", m.mountpoint);
		if (sysroot_read(&l->root, path, buf, sizeof(buf)) < 0) {
			TL_SKIP("cannot read %s", path);
			return 0;
		}
		/* Left enabled afterwards: other cgroups may rely on it by then. */
		int rc = list_has(buf, "cpu") ? 0 : write_str(path, "+cpu");
		if (rc == -EBUSY) {
			/* The no-internal-process rule (processes in a delegated
			 * root): no child can get the controller here at all. */
			TL_SKIP("cannot enable +cpu in %s: %s", path, strerror(-rc));
			return 0;
		}
		if (rc < 0)
			fail_msg("root, cpu offered, but +cpu in %s: %s", path, strerror(-rc));
	}
	/* Root with the cpu controller: failing to make a cgroup is a failure. */
	snprintf(l->cg, sizeof(l->cg), "%s/threadlab-test-%ld", m.mountpoint, (long)getpid());
	rmdir(l->cg); /* a stale one from a killed run with the same pid */
	if (mkdir(l->cg, 0755) < 0) {
		int e = errno;
		l->cg[0] = '\0';
		fail_msg("root, cpu controller at %s, but no cgroup: %s", m.mountpoint,
			 strerror(e));
	}
	if (version == 1) {
		snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", l->cg);
		assert_int_equal(write_str(path, period), 0);
		snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", l->cg);
		assert_int_equal(write_str(path, quota), 0);
	} else {
		char v[64];
		snprintf(v, sizeof(v), "%s %s", quota, period);
		snprintf(path, sizeof(path), "%s/cpu.max", l->cg);
		assert_int_equal(write_str(path, v), 0);
	}
	return version;
}

/* Starts a process that spins until killed and moves it into l->cg. */
static void live_start_busy(struct live *l)
{
	char path[CGROUP_PATH_MAX + 128], v[32];

	l->child = tl_start_child((const char *[]){"sh", "-c", "while :; do :; done", NULL});
	snprintf(path, sizeof(path), "%s/cgroup.procs", l->cg);
	snprintf(v, sizeof(v), "%ld", (long)l->child);
	assert_int_equal(write_str(path, v), 0);
}

/* utime + stime of process pid, seconds (-1 when it cannot be read). */
static double live_cpu_s(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (tl_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	unsigned long long ut = 0, st = 0;
	const char *p = strrchr(buf, ')');
	if (!p ||
	    sscanf(p + 2, "%*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static void test_quota_live(void **state)
{
	struct live *l = *state;
	int version = live_make_cgroup(l, "50000", "100000");
	if (version == 0)
		return;
	live_start_busy(l);

	struct budget b;
	assert_int_equal(budget_read(&l->root, l->child, &b), 0);
	print_message("# cgroup v%d %s: quota %g binding %s effective %g (online %d affinity %d "
		      "cpuset %d)\n",
		      b.loc.version, b.loc.dir, b.quota.cpus, budget_term_name(b.binding),
		      b.effective, b.online, b.affinity, b.cpuset);
	assert_int_equal(b.loc.version, version);
	assert_false(b.loc.fallback);
	assert_string_equal(b.loc.dir, l->cg + 1);
	assert_true(b.quota.controller);
	assert_true(b.quota.cpus == 0.5); /* 50000 / 100000, exactly */
	assert_int_equal(b.quota.period_us, 100000);
	assert_string_equal(b.quota.dir, l->cg + 1);
	assert_int_equal(b.binding, BUDGET_QUOTA);
	assert_true(b.effective == 0.5);

	/* Throttling must rise.  Others may load the CPUs too, so a busy
	 * child can miss its quota for a while: look over up to 6 s. */
	struct cgroup_cpustat s0, s1;
	assert_int_equal(cgroup_read_cpustat(&l->root, b.loc.dir, b.loc.version, &s0), 0);
	assert_true(s0.has_periods);
	double c0 = live_cpu_s(l->child), t0 = tl_now_s(), t1;
	do {
		sleep_s(0.25);
		t1 = tl_now_s();
		assert_int_equal(cgroup_read_cpustat(&l->root, b.loc.dir, b.loc.version, &s1), 0);
		/* v1 counts a throttled period when it begins and adds its time
		 * when it ends: wait for both, within the bound. */
	} while ((t1 - t0 < 1.0 || s1.nr_throttled == s0.nr_throttled ||
		  s1.throttled_s == s0.throttled_s) &&
		 t1 - t0 < 6.0);
	struct throttle_rate r;
	cgroup_parse_throttle_rate(&s0, &s1, t1 - t0, &r);
	print_message("# over %.2f s: periods +%llu, throttled +%llu (%.0f %%), %.3f s/s\n",
		      t1 - t0, (unsigned long long)(s1.nr_periods - s0.nr_periods),
		      (unsigned long long)(s1.nr_throttled - s0.nr_throttled), r.throttled_pct,
		      r.throttled_s_per_s);
	assert_true(s1.nr_periods > s0.nr_periods);
	assert_true(r.valid);
	/* The child never uses more than its quota; it is throttled unless
	 * the box was too loaded for it to reach the quota at all. */
	double used = (live_cpu_s(l->child) - c0) / (t1 - t0);
	print_message("# the busy child used %.2f CPUs\n", used);
	assert_true(used < 0.5 * 1.2 + 0.05);
	if (s1.nr_throttled == s0.nr_throttled) {
		assert_true(used < 0.5 * 1.1 + 0.02);
		return;
	}
	assert_true(s1.throttled_s > s0.throttled_s);
	assert_true(r.throttled_pct > 0.0 && r.throttled_pct <= 100.0);
	assert_true(r.throttled_s_per_s > 0.0);
}

/* A cgroup whose PSI is switched off (cgroup.pressure = 0) reads as
 * unavailable, never as zero pressure. */
static void test_psi_off_live(void **state)
{
	struct live *l = *state;
	char buf[65536], path[CGROUP_PATH_MAX + 128];
	struct cgroup_mount m;
	struct psi p;
	if (geteuid() != 0) {
		TL_SKIP("not root: cannot create a cgroup");
		return;
	}
	assert_true(sysroot_read(&l->root, "proc/self/mountinfo", buf, sizeof(buf)) > 0);
	if (cgroup_parse_mountinfo(buf, 2, &m) != 0) {
		TL_SKIP("no cgroup2 mount");
		return;
	}
	snprintf(path, sizeof(path), "%s/cgroup.pressure", m.mountpoint);
	if (access(path, F_OK) != 0) {
		TL_SKIP("%s missing (kernel before 6.5 or PSI off)", path);
		return;
	}
	snprintf(l->cg, sizeof(l->cg), "%s/threadlab-psi-%ld", m.mountpoint, (long)getpid());
	rmdir(l->cg);
	if (mkdir(l->cg, 0755) < 0) {
		int e = errno;
		l->cg[0] = '\0';
		fail_msg("root, cgroup2 at %s, but no cgroup: %s", m.mountpoint, strerror(e));
	}
	const char *rel = l->cg + 1;
	assert_int_equal(cgroup_read_psi(&l->root, rel, &p), 0);
	assert_true(p.available);
	snprintf(path, sizeof(path), "%s/cgroup.pressure", l->cg);
	assert_int_equal(write_str(path, "0"), 0);
	memset(&p, 0x5a, sizeof(p));
	assert_int_equal(cgroup_read_psi(&l->root, rel, &p), 0);
	assert_false(p.available);
}

/* budget_read(0) on this machine agrees with the system calls. */
static void test_self_live(void **state)
{
	struct live *l = *state;
	struct budget b;
	cpu_set_t set;
	assert_int_equal(budget_read(&l->root, 0, &b), 0);
	print_message("# self: v%d %s online %d affinity %d cpuset %d quota %g -> %g (%s)%s%s\n",
		      b.loc.version, b.loc.dir, b.online, b.affinity, b.cpuset, b.quota.cpus,
		      b.effective, budget_term_name(b.binding), b.note[0] ? " note: " : "", b.note);
	assert_int_equal(b.online, (int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	assert_int_equal(b.affinity, CPU_COUNT(&set));
	assert_true(b.effective > 0.0);
	assert_true(b.effective <= (double)b.online);
	assert_true(b.effective <= (double)b.affinity);
	if (b.cpuset > 0)
		assert_true(b.effective <= (double)b.cpuset);
	if (b.quota.cpus >= 0) {
		assert_true(b.quota.cpus > 0.0);
		assert_true(b.effective <= b.quota.cpus);
	} else {
		assert_true(b.quota.cpus == -1.0);
	}
	assert_true(b.loc.version == 1 || b.loc.version == 2);
	assert_true(sysroot_exists(&l->root, b.loc.dir));

	/* Our own cgroup file names the same path. */
	char buf[8192];
	struct cgroup_line line;
	assert_true(sysroot_read(&l->root, "proc/self/cgroup", buf, sizeof(buf)) > 0);
	assert_int_equal(cgroup_parse_file(buf, b.loc.version == 1, &line), 0);
	assert_string_equal(line.path, b.loc.path);

	/* System PSI is available exactly when the file can be read. */
	struct psi p;
	assert_int_equal(cgroup_read_psi(&l->root, "proc/pressure/cpu", &p), 0);
	int fd = open("/proc/pressure/cpu", O_RDONLY | O_CLOEXEC);
	bool readable = fd >= 0 && read(fd, buf, sizeof(buf)) > 0;
	if (fd >= 0)
		close(fd);
	assert_int_equal(p.available, readable);
	if (p.available)
		assert_true(p.some_avg10 >= 0.0 && p.some_avg10 <= 100.0);

	/* A pid that does not exist has gone. */
	assert_int_equal(budget_read(&l->root, 0x3ffffff0, &b), -ESRCH);
}

/* budget_read_where keeps where the cgroups are: a process moved to
 * another cgroup shows once the location is max_age old, or at once when
 * the cgroup it was in has gone. */
static void test_where_live(void **state)
{
	struct live *l = *state;
	char path[CGROUP_PATH_MAX + 128], v[32];
	int version = live_make_cgroup(l, "50000", "100000");
	if (version == 0)
		return;
	live_start_busy(l);
	snprintf(l->cg2, sizeof(l->cg2), "%s-b", l->cg);
	rmdir(l->cg2);
	assert_int_equal(mkdir(l->cg2, 0755), 0);
	if (version == 1) {
		snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", l->cg2);
		assert_int_equal(write_str(path, "150000"), 0);
	} else {
		snprintf(path, sizeof(path), "%s/cpu.max", l->cg2);
		assert_int_equal(write_str(path, "150000 100000"), 0);
	}
	struct budget_where w = {0};
	struct budget b;
	assert_int_equal(budget_read_where(&l->root, l->child, &w, 10.0, 2.0, &b), 0);
	assert_true(b.quota.cpus == 0.5);

	snprintf(path, sizeof(path), "%s/cgroup.procs", l->cg2);
	snprintf(v, sizeof(v), "%ld", (long)l->child);
	assert_int_equal(write_str(path, v), 0);
	assert_int_equal(budget_read_where(&l->root, l->child, &w, 11.0, 2.0, &b), 0);
	assert_true(b.quota.cpus == 0.5); /* located 1 s ago: not yet seen */
	assert_int_equal(budget_read_where(&l->root, l->child, &w, 12.5, 2.0, &b), 0);
	assert_true(b.quota.cpus == 1.5);
	assert_string_equal(b.loc.dir, l->cg2 + 1);

	/* Back to the first, the second removed: its quota file fails, so the
	 * next read locates again within max_age. */
	snprintf(path, sizeof(path), "%s/cgroup.procs", l->cg);
	assert_int_equal(write_str(path, v), 0);
	for (int i = 0; i < 100 && rmdir(l->cg2) < 0; i++)
		usleep(20000);
	assert_int_equal(access(l->cg2, F_OK), -1);
	assert_int_equal(budget_read_where(&l->root, l->child, &w, 13.0, 2.0, &b), 0);
	assert_true(b.quota.cpus == 0.5);
	assert_string_equal(b.loc.dir, l->cg + 1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, live_setup, live_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_self_live),
	    T(test_quota_live),
	    T(test_psi_off_live),
	    T(test_where_live),
	};
	return cmocka_run_group_tests_name("cgroup-live", tests, NULL, NULL);
}
