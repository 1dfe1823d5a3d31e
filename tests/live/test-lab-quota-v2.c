/* test-lab-quota-v2.c — the quota cgroup code on fake cgroup trees.
 *
 * Each test builds a tree with fake-cgroupfs.h (mountinfo, the process's
 * cgroup, a v1 or v2 hierarchy) and hands the quota code the fake kernel,
 * which applies the cgroup v1/v2 rules and can deny changes below a path.
 * Processes put in cgroups are real children of the test, so SIGKILL on
 * removal is checked for real.  The real cgroups of this machine are tested
 * in test-lab.c. */
#define _GNU_SOURCE
#include "tl-test.h"

#include "lab-quota.h"
#include "fake-cgroupfs.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OWNER 4242 /* threadlab's pid as the fixtures pretend */

/* ---- child processes ------------------------------------------------------------ */

/* Children of the test, killed and reaped by teardown if a test fails. */
static pid_t g_kids[8];

static void remember(pid_t pid)
{
	for (size_t i = 0; i < sizeof(g_kids) / sizeof(g_kids[0]); i++) {
		if (!g_kids[i]) {
			g_kids[i] = pid;
			break;
		}
	}
}

static pid_t sleeper(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	assert_true(pid > 0);
	remember(pid);
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
		tl_sleep_ms(5);
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
	fake_cg_remove();
	return 0;
}

/* ---- v2 ------------------------------------------------------------------------- */

/* threadlab in the root cgroup: the quota cgroup is the root's child. */
static void test_v2_root(void **state)
{
	(void)state;
	fake_cg_tree_v2("/", "cpuset cpu io memory pids\n", "");
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, err, sizeof(err)), 0);
	assert_true(q.created && q.version == 2);
	assert_string_equal(q.top, fake_cg_path("/threadlab-4242"));
	assert_string_equal(q.leaf, fake_cg_path("/threadlab-4242/work"));
	assert_true(
	    fake_cg_has_word(fake_cg_getf(fake_cg_mount(), "cgroup.subtree_control"), "cpu"));
	assert_true(fake_cg_has_word(fake_cg_getf(q.top, "cgroup.subtree_control"), "cpu"));
	assert_true(fake_cg_has_word(fake_cg_getf(q.leaf, "cgroup.controllers"), "cpu"));
	assert_string_equal(fake_cg_getf(q.top, "cpu.max"), "max 100000\n");
	assert_string_equal(fake_cg_getf(q.leaf, "cgroup.procs"), "");
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
	assert_false(fake_cg_exists(fake_cg_path("/threadlab-4242")));
}

/* threadlab in a populated session scope: +cpu cannot be enabled there
 * (EBUSY), so the cgroup goes into the parent, with +cpu enabled from the
 * root down; the scope itself is left alone. */
static void test_v2_nested(void **state)
{
	(void)state;
	fake_cg_tree_v2("/user.slice/user-1000.slice/session-2.scope",
			"cpuset cpu io memory pids\n", "memory pids\n");
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, err, sizeof(err)), 0);
	assert_string_equal(q.top, fake_cg_path("/user.slice/user-1000.slice/threadlab-4242"));
	assert_string_equal(q.leaf,
			    fake_cg_path("/user.slice/user-1000.slice/threadlab-4242/work"));
	assert_string_equal(fake_cg_getf(fake_cg_mount(), "cgroup.subtree_control"),
			    "memory pids cpu\n");
	assert_string_equal(fake_cg_getf(fake_cg_path("/user.slice"), "cgroup.subtree_control"),
			    "cpu\n");
	assert_string_equal(
	    fake_cg_getf(fake_cg_path("/user.slice/user-1000.slice"), "cgroup.subtree_control"),
	    "cpu\n");
	assert_string_equal(fake_cg_getf(q.top, "cgroup.subtree_control"), "cpu\n");
	assert_string_equal(
	    fake_cg_getf(fake_cg_path("/user.slice/user-1000.slice/session-2.scope"),
			 "cgroup.subtree_control"),
	    "");
	assert_int_equal(fake_cg_count_ours(fake_cg_mount()), 1);
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
	assert_int_equal(fake_cg_count_ours(fake_cg_mount()), 0);
}

/* A delegated subtree: threadlab runs in /deleg/app (busy); /deleg is ours
 * to change, the root is not (and already gives cpu, so needs no write). */
static void test_v2_delegated(void **state)
{
	(void)state;
	fake_cg_tree_v2("/deleg/app", "cpu memory pids\n", "cpu memory pids\n");
	fake_cg_deny(fake_cg_mount(), fake_cg_path("/deleg"));
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, err, sizeof(err)), 0);
	assert_string_equal(q.top, fake_cg_path("/deleg/threadlab-4242"));
	assert_string_equal(fake_cg_getf(fake_cg_path("/deleg"), "cgroup.subtree_control"),
			    "cpu\n");
	assert_string_equal(fake_cg_getf(fake_cg_path("/deleg/app"), "cgroup.subtree_control"), "");
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
	assert_int_equal(fake_cg_count_ours(fake_cg_mount()), 0);
}

/* cpu.max for 1.5 and 0.25 CPUs, changed live, removed; the minimum. */
static void test_v2_cpu_max(void **state)
{
	(void)state;
	fake_cg_tree_v2("/", "cpu memory\n", "cpu\n");
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, err, sizeof(err)), 0);
	assert_int_equal(lab_quota_set(&q, 1.5, err, sizeof(err)), 0);
	assert_string_equal(fake_cg_getf(q.top, "cpu.max"), "150000 100000\n");
	assert_true(q.cpus == 1.5);
	assert_int_equal(lab_quota_set(&q, 0.25, err, sizeof(err)), 0);
	assert_string_equal(fake_cg_getf(q.top, "cpu.max"), "25000 100000\n");
	assert_true(q.cpus == 0.25);
	assert_int_equal(lab_quota_set(&q, 2, err, sizeof(err)), 0);
	assert_string_equal(fake_cg_getf(q.top, "cpu.max"), "200000 100000\n");
	assert_int_equal(lab_quota_set(&q, 0, err, sizeof(err)), 0);
	assert_string_equal(fake_cg_getf(q.top, "cpu.max"), "max 100000\n");
	assert_true(q.cpus == 0);
	assert_int_equal(lab_quota_set(&q, 0.001, err, sizeof(err)), 0);
	assert_string_equal(fake_cg_getf(q.top, "cpu.max"), "1000 100000\n");
	assert_true(q.cpus == 0.01);
	assert_string_equal(fake_cg_getf(q.leaf, "cpu.max"),
			    "max 100000\n"); /* the limit is on top */
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
}

/* Processes go into work/cgroup.procs; removal kills them and leaves nothing. */
static void test_v2_add_destroy(void **state)
{
	(void)state;
	fake_cg_tree_v2("/", "cpu memory\n", "");
	struct lab_quota q;
	char err[256] = "", want[64];
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, err, sizeof(err)), 0);
	pid_t a = sleeper(), b = sleeper();
	assert_int_equal(lab_quota_add(&q, a), 0);
	assert_int_equal(lab_quota_add(&q, b), 0);
	assert_int_equal(lab_quota_add(&q, 0), -EINVAL); /* "0" would move threadlab itself */
	snprintf(want, sizeof(want), "%d\n%d\n", (int)a, (int)b);
	assert_string_equal(fake_cg_getf(q.leaf, "cgroup.procs"), want);
	assert_string_equal(fake_cg_getf(q.top, "cgroup.procs"), "");
	assert_int_equal(lab_quota_destroy(&q, 1000), 0);
	assert_true(reaped_by_sigkill(a));
	assert_true(reaped_by_sigkill(b));
	assert_false(q.created);
	assert_false(fake_cg_exists(fake_cg_path("/threadlab-4242")));
	assert_int_equal(fake_cg_count_ours(fake_cg_mount()), 0);
	assert_int_equal(lab_quota_destroy(&q, 0), 0); /* idempotent */
	assert_int_equal(lab_quota_set(&q, 1, err, sizeof(err)), -ENOENT);
	assert_int_equal(lab_quota_add(&q, a), -ENOENT);
}

/* A pid that was a child of ours and has ended. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

/* A process that holds the lock on dir, as a live owner does (one in
 * another PID namespace, whose pid means nothing here); SIGKILL it and the
 * kernel drops the lock. */
static pid_t lock_holder(const char *dir)
{
	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(dir, O_RDONLY | O_DIRECTORY);
		char ok = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0;
		if (write(pfd[1], &ok, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	remember(pid);
	char ok = 0;
	assert_int_equal(read(pfd[0], &ok, 1), 1);
	assert_true(ok);
	close(pfd[0]);
	close(pfd[1]);
	return pid;
}

/* Stale cgroups in our cgroup and in each parent: the ones no live owner
 * holds locked go (a dead owner's with a leftover task, one named after a
 * pid that is alive here, one with a .N suffix); a locked one stays
 * whatever its pid says, until its owner dies; names not ours stay. */
static void test_v2_stale(void **state)
{
	(void)state;
	char err[256];
	fake_cg_tree_v2("/user.slice/s.scope", "cpu memory\n", "cpu\n");
	pid_t dead = dead_pid();
	char rel[128];
	snprintf(rel, sizeof(rel), "/user.slice/threadlab-%d", (int)dead);
	fake_cg_new(rel);
	char sc[PATH_MAX], work[PATH_MAX];
	snprintf(sc, sizeof(sc), "%s/cgroup.subtree_control", fake_cg_path("/user.slice"));
	fake_cg_putf(fake_cg_path("/user.slice"), "cgroup.procs", "");
	assert_int_equal(fake_cg_write(sc, "+cpu"), 0);
	snprintf(sc, sizeof(sc), "%s/cgroup.subtree_control", fake_cg_path(rel));
	assert_int_equal(fake_cg_write(sc, "+cpu"), 0);
	snprintf(work, sizeof(work), "%s/work", fake_cg_path(rel));
	assert_int_equal(fake_cg_mkdir(work), 0);
	pid_t left = sleeper();
	char procs[PATH_MAX + 16], pid[32];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", work);
	snprintf(pid, sizeof(pid), "%d", (int)left);
	assert_int_equal(fake_cg_write(procs, pid), 0);
	/* a dead pid here, a live owner elsewhere: the case that killed a
	 * namespaced threadlab's workload */
	pid_t dead2 = dead_pid();
	char other[64];
	snprintf(other, sizeof(other), "/user.slice/threadlab-%d", (int)dead2);
	fake_cg_new(other);
	pid_t holder = lock_holder(fake_cg_path(other));
	snprintf(rel, sizeof(rel), "/user.slice/s.scope/threadlab-%d", (int)getppid());
	fake_cg_new(rel); /* alive pid, no lock: stale */
	fake_cg_new("/user.slice/s.scope/threadlab-4000002.3");
	fake_cg_new("/threadlab-abc");
	assert_int_equal(lab_quota_cleanup_stale_in(&fake_cg_sys), 3);
	assert_true(reaped_by_sigkill(left));
	assert_true(fake_cg_exists(fake_cg_path(other)));
	assert_true(fake_cg_exists(fake_cg_path("/threadlab-abc")));
	assert_false(fake_cg_exists(fake_cg_path(rel)));
	assert_false(fake_cg_exists(fake_cg_path("/user.slice/s.scope/threadlab-4000002.3")));
	assert_int_equal(fake_cg_count_ours(fake_cg_path("/user.slice")), 1); /* the locked one */
	assert_int_equal(lab_quota_cleanup_stale_in(&fake_cg_sys), 0);
	/* The same name for a new owner: taken by the live one, so .1. */
	struct lab_quota q;
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, dead2, err, sizeof(err)), 0);
	printf("# %s\n", q.top);
	size_t tl = strlen(q.top);
	assert_true(tl > 2 && strcmp(q.top + tl - 2, ".1") == 0);
	assert_int_equal(lab_quota_cleanup_stale_in(&fake_cg_sys), 0); /* ours is locked too */
	assert_int_equal(lab_quota_destroy(&q, 0), 0);
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	forget(holder);
	assert_int_equal(lab_quota_cleanup_stale_in(&fake_cg_sys), 1); /* its owner died */
	assert_false(fake_cg_exists(fake_cg_path(other)));
}

/* No rights anywhere: -EACCES and a message naming the remedy, nothing made. */
static void test_v2_denied(void **state)
{
	(void)state;
	fake_cg_tree_v2("/user.slice/user-1000.slice/session-2.scope", "cpu memory\n",
			"cpu memory\n");
	fake_cg_deny(fake_cg_mount(), NULL);
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, err, sizeof(err)), -EACCES);
	printf("# message: %s\n", err);
	assert_false(q.created);
	assert_non_null(strstr(err, "root"));
	assert_non_null(strstr(err, "systemd-run --user --scope -p Delegate=yes"));
	assert_non_null(strstr(err, "Permission denied"));
	assert_int_equal(fake_cg_count_ours(fake_cg_mount()), 0);
	assert_int_equal(lab_quota_set(&q, 1, err, sizeof(err)), -ENOENT);
	assert_int_equal(lab_quota_add(&q, getpid()), -ENOENT);
	assert_int_equal(lab_quota_destroy(&q, 0), 0);
	/* A short message buffer is cut, not overrun. */
	char small[16];
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, small, sizeof(small)),
			 -EACCES);
	assert_int_equal(strlen(small), sizeof(small) - 1);
}

/* Our scope is busy and not ours to change; the root is writable: the
 * cgroup goes to the root. */
static void test_v2_own_not_writable(void **state)
{
	(void)state;
	fake_cg_tree_v2("/system.slice/app.service", "cpu memory\n", "memory\n");
	fake_cg_deny(fake_cg_path("/system.slice"), NULL);
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, err, sizeof(err)), 0);
	assert_string_equal(q.top, fake_cg_path("/threadlab-4242"));
	assert_int_equal(lab_quota_set(&q, 1.5, err, sizeof(err)), 0);
	assert_string_equal(fake_cg_getf(q.top, "cpu.max"), "150000 100000\n");
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
	assert_int_equal(fake_cg_count_ours(fake_cg_mount()), 0);
}

/* v2 without the cpu controller (this machine's unified mount): -ENOENT. */
static void test_v2_no_cpu(void **state)
{
	(void)state;
	fake_cg_tree_v2("/", "memory pids\n", "");
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "cpu controller"));
	assert_int_equal(fake_cg_count_ours(fake_cg_mount()), 0);
}

/* A cgroup namespace or a bind-mounted subtree: our path is not under the
 * mount's root, so the mount stands in. */
static void test_v2_namespace(void **state)
{
	(void)state;
	fake_cg_tree_v2("/", "cpu\n", "");
	fake_cg_put_rel("proc/self/cgroup", "0::/../../outside\n");
	struct lab_quota q;
	char err[256] = "";
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, err, sizeof(err)), 0);
	assert_string_equal(q.top, fake_cg_path("/threadlab-4242"));
	assert_int_equal(lab_quota_destroy(&q, 100), 0);
}

/* ---- v1 (hybrid host) --------------------------------------------------------- */

static void test_v1(void **state)
{
	(void)state;
	fake_cg_tree_v1("/grp");
	struct lab_quota q;
	char err[256] = "", want[32];
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, err, sizeof(err)), 0);
	assert_int_equal(q.version, 1);
	assert_string_equal(q.top, fake_cg_path("/grp/threadlab-4242"));
	assert_string_equal(q.leaf, q.top);
	assert_int_equal(lab_quota_set(&q, 1.5, err, sizeof(err)), 0);
	assert_string_equal(fake_cg_getf(q.top, "cpu.cfs_quota_us"), "150000\n");
	assert_string_equal(fake_cg_getf(q.top, "cpu.cfs_period_us"), "100000\n");
	assert_int_equal(lab_quota_set(&q, 0.25, err, sizeof(err)), 0);
	assert_string_equal(fake_cg_getf(q.top, "cpu.cfs_quota_us"), "25000\n");
	assert_int_equal(lab_quota_set(&q, -1, err, sizeof(err)), 0);
	assert_string_equal(fake_cg_getf(q.top, "cpu.cfs_quota_us"), "-1\n");
	pid_t a = sleeper();
	assert_int_equal(lab_quota_add(&q, a), 0);
	snprintf(want, sizeof(want), "%d\n", (int)a);
	assert_string_equal(fake_cg_getf(q.top, "cgroup.procs"), want);
	assert_int_equal(lab_quota_destroy(&q, 1000), 0);
	assert_true(reaped_by_sigkill(a));
	assert_int_equal(fake_cg_count_ours(fake_cg_mount()), 0);
	/* stale: a dead owner under our cgroup and under the root */
	fake_cg_new("/grp/threadlab-4000003");
	fake_cg_new("/threadlab-4000004");
	assert_int_equal(lab_quota_cleanup_stale_in(&fake_cg_sys), 2);
	assert_int_equal(fake_cg_count_ours(fake_cg_mount()), 0);
	/* no rights: the message, -EACCES */
	fake_cg_deny(fake_cg_mount(), NULL);
	assert_int_equal(lab_quota_create_in(&fake_cg_sys, &q, OWNER, err, sizeof(err)), -EACCES);
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
