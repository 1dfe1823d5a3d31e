/* test-lab-death.c — the lab's processes and cgroup do not outlive threadlab.
 *
 * A forked child of the test plays threadlab: it starts a lab (2 streams, a
 * worker, a quota when the machine allows one), reports the pids, and is
 * then killed with SIGINT, SIGTERM (its handlers call lab_emergency_stop(),
 * as threadlab's do) or SIGKILL (nothing runs: PR_SET_PDEATHSIG takes the
 * anchor and the helpers, and the next lab_start() removes the stale
 * cgroup, unless another threadlab's start did first).  Also: a hand-made
 * stale cgroup with a task in it is cleaned. */
#define _GNU_SOURCE
#include "tl-test.h"

#include "settings-lab.h"

#include "lab.h"
#include "lab-status.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void on_signal(int sig)
{
	lab_emergency_stop();
	_exit(128 + sig);
}

struct report {
	size_t npids;
	pid_t pids[LAB_MAX_PIDS];
	char quota_dir[LAB_PATH_MAX];
};

/* The child: start a lab, report, wait to be killed. */
static void child_main(int fd)
{
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct lab_settings s = settings_lab_defaults();
	s.size = 256;
	s.streams = 2;
	s.workers = 1;
	s.cpus = 1.5;
	char err[512];
	struct lab *lab = lab_start(&s, err, sizeof(err));
	struct report r = {0};
	if (lab) {
		lab_status_wait_ready(lab, 10000, err, sizeof(err));
		struct lab_status st;
		lab_status_read(lab, &st);
		r.npids = st.npids;
		memcpy(r.pids, st.pids, sizeof(r.pids));
		snprintf(r.quota_dir, sizeof(r.quota_dir), "%s", st.quota_dir);
	}
	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(2);
	for (;;)
		pause();
}

static void kill_parent(int sig)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	fflush(stdout);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		close(p[0]);
		child_main(p[1]);
	}
	close(p[1]);
	struct report r;
	ssize_t n = read(p[0], &r, sizeof(r));
	close(p[0]);
	if (n != (ssize_t)sizeof(r) || r.npids == 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		fail_msg("the child could not start a lab");
	}
	assert_true(r.npids >= 4); /* anchor, 2 helpers, 1 worker */
	kill(child, sig);
	int status;
	assert_int_equal(tl_reap_within(child, 10000, &status), child);
	for (size_t i = 0; i < r.npids; i++)
		assert_true(tl_wait_gone(r.pids[i], 3000));
	if (!r.quota_dir[0]) {
		char cap[200];
		if (tl_quota_capable(cap, sizeof(cap)))
			fail_msg("root with a writable cpu controller, yet the lab made no quota "
				 "cgroup");
		TL_SKIP("the cgroup half (the processes were checked): %s", cap);
		return;
	}
	char path[LAB_PATH_MAX + 2];
	snprintf(path, sizeof(path), "/%s", r.quota_dir);
	if (sig != SIGKILL) {
		assert_int_equal(access(path, F_OK), -1); /* lab_emergency_stop removed it */
		return;
	}
	/* SIGKILL: nothing ran; the next start finds the stale cgroup.  Any
	 * threadlab's start removes it, so one that a test beside this one
	 * started may have been first (a CI run saw it gone already). */
	if (access(path, F_OK) < 0)
		printf("# %s was removed already, by another threadlab's start\n", path);
	struct lab_settings s = settings_lab_defaults();
	s.size = 256;
	s.paused = true;
	char err[512];
	struct lab *lab = lab_start(&s, err, sizeof(err));
	assert_non_null(lab);
	bool gone = access(path, F_OK) < 0;
	lab_stop(lab);
	assert_true(gone);
}

static void test_sigint(void **state)
{
	(void)state;
	kill_parent(SIGINT);
}

static void test_sigterm(void **state)
{
	(void)state;
	kill_parent(SIGTERM);
}

static void test_sigkill(void **state)
{
	(void)state;
	kill_parent(SIGKILL);
}

/* A threadlab-<dead pid> cgroup with a leftover task is emptied and removed. */
static void test_stale_cleanup(void **state)
{
	(void)state;
	const char *mount = access("/sys/fs/cgroup/cpu/cgroup.procs", W_OK) == 0
				? "/sys/fs/cgroup/cpu"
			    : access("/sys/fs/cgroup/cgroup.procs", W_OK) == 0 ? "/sys/fs/cgroup"
									       : NULL;
	if (!mount) {
		TL_SKIP("no writable cgroup hierarchy (needs root)");
		return;
	}
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	char dir[256], procs[300];
	snprintf(dir, sizeof(dir), "%s/threadlab-%d", mount, (int)dead);
	if (mkdir(dir, 0755) < 0) /* root, and the hierarchy is writable: that must work */
		fail_msg("cannot create %s: %s", dir, strerror(errno));
	/* A leftover task (a v2 root's child cgroup takes processes directly). */
	pid_t left = fork();
	if (left == 0) {
		for (;;)
			pause();
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	FILE *f = fopen(procs, "we");
	if (f) {
		fprintf(f, "%d\n", (int)left);
		fclose(f);
	}
	struct lab_settings s = settings_lab_defaults();
	s.size = 256;
	s.paused = true;
	char err[512];
	struct lab *lab = lab_start(&s, err, sizeof(err));
	bool gone = access(dir, F_OK) < 0;
	lab_stop(lab);
	/* The kernel takes a task out of its cgroup before the task becomes a
	 * zombie, so the directory can be gone a moment before the leftover
	 * is reapable: wait for it (up to 10 s) rather than look once. */
	int status = 0;
	bool killed = false;
	for (int i = 0; i < 1000 && !killed; i++) {
		killed = waitpid(left, &status, WNOHANG) == left;
		if (!killed)
			usleep(10000);
	}
	if (!killed) {
		kill(left, SIGKILL);
		waitpid(left, NULL, 0);
	}
	rmdir(dir);
	assert_non_null(lab);
	assert_true(gone);
	assert_true(killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stale_cleanup),
	    cmocka_unit_test(test_sigint),
	    cmocka_unit_test(test_sigterm),
	    cmocka_unit_test(test_sigkill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
