/* test-fleet.c — the exporter's model: thread groups whose totals only grow
 * (hand-made samples), --match on names and command lines, and the fleet
 * against real processes the test starts and ends.  A command line that
 * takes the matcher seconds is test-fleet-slow.c. */
#include "config.h"

#include "tl-test.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fleet.h"
#include "thread-groups-impl.h"

/* ---- groups --------------------------------------------------------------- */

static struct thread_sample sample(pid_t pid, pid_t tid, const char *name, uint64_t start,
				   uint64_t utime, uint64_t wait_ns)
{
	struct thread_sample s;
	memset(&s, 0, sizeof(s));
	s.pid = pid;
	s.tid = tid;
	s.name_len = strlen(name);
	memcpy(s.name, name, s.name_len);
	s.starttime = start;
	s.utime = utime;
	s.stime = utime / 10;
	s.wait_ns = wait_ns;
	return s;
}

static const struct thread_group *group(const struct thread_groups *g, pid_t pid, const char *stem)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].pid == pid && g->v[i].stem_len == strlen(stem) &&
		    memcmp(g->v[i].stem, stem, g->v[i].stem_len) == 0)
			return &g->v[i];
	return NULL;
}

static void test_groups_only_grow(void **state)
{
	(void)state;
	struct thread_groups g;
	thread_groups_init(&g);
	g.hz = 100;
	struct thread_sample a[] = {
	    sample(10, 10, "main", 1, 100, 0),
	    sample(10, 11, "pool-1", 2, 300, 1000000000),
	    sample(10, 12, "pool-2", 3, 200, 500000000),
	    sample(20, 20, "other", 4, 50, 0),
	};
	struct thread_set s1 = {.v = a, .n = 4};
	thread_groups_update(&g, NULL, &s1);
	assert_int_equal(g.n, 3);
	const struct thread_group *pool = group(&g, 10, "pool");
	assert_non_null(pool);
	assert_int_equal(pool->threads, 2);
	assert_true(pool->user_s == 5.0);
	assert_true(pool->wait_s == 1.5);
	assert_true(pool->system_s == 0.5);

	/* pool-2 ends, pool-1 runs on, pool-3 starts, main renames itself
	 * into the pool's stem, process 20 ends. */
	struct thread_sample b[] = {
	    sample(10, 10, "pool-0", 1, 110, 0),
	    sample(10, 11, "pool-1", 2, 350, 1200000000),
	    sample(10, 13, "pool-3", 5, 10, 0),
	};
	struct thread_set s2 = {.v = b, .n = 3};
	thread_groups_update(&g, &s1, &s2);
	pool = group(&g, 10, "pool");
	assert_non_null(pool);
	assert_int_equal(pool->threads, 3);
	/* now 3.50 + 0.10, pool-2's 2.00 kept, and of main's 1.10 the 0.10
	 * it ran since it joined (its 1.00 stays in "main": never in both) */
	assert_true(pool->user_s >= 5.0);
	assert_true(pool->user_s > 5.69 && pool->user_s < 5.71);
	assert_true(pool->wait_s > 1.69 && pool->wait_s < 1.71);
	/* main left its group: the group keeps what it had (1.00), no thread */
	const struct thread_group *m = group(&g, 10, "main");
	assert_non_null(m);
	assert_int_equal(m->threads, 0);
	assert_true(m->user_s == 1.0);
	assert_null(group(&g, 20, "other")); /* its process ended */

	/* TID 13 reused by another thread (another start time) with less CPU. */
	struct thread_sample c[] = {
	    sample(10, 10, "pool-0", 1, 120, 0),
	    sample(10, 11, "pool-1", 2, 360, 1200000000),
	    sample(10, 13, "pool-3", 9, 1, 0),
	};
	double before = group(&g, 10, "pool")->user_s;
	struct thread_set s3 = {.v = c, .n = 3};
	thread_groups_update(&g, &s2, &s3);
	assert_true(group(&g, 10, "pool")->user_s >= before);
	thread_groups_free(&g);
}

/* ---- matching --------------------------------------------------------------- */

static void test_matches(void **state)
{
	(void)state;
	char err[256];
	struct pattern *re = pattern_compile("--match", "python.*train", err, sizeof(err));
	assert_non_null(re);
	static const char cmd[] = "/usr/bin/python3\0-u\0train.py\0--epochs\0003\0";
	assert_true(fleet_matches(re, "python3", 7, cmd, sizeof(cmd) - 1));
	static const char other[] = "/usr/bin/python3\0serve.py\0";
	assert_false(fleet_matches(re, "python3", 7, other, sizeof(other) - 1));
	/* a kernel thread: no command line, its name alone */
	assert_false(fleet_matches(re, "kworker/0:1", 11, "", 0));
	pattern_free(re);
	re = pattern_compile("--match", "^gemm", err, sizeof(err));
	assert_true(fleet_matches(re, "gemm0", 5, other, sizeof(other) - 1));
	pattern_free(re);
}

/* ---- the fleet live ------------------------------------------------------ */

static bool fleet_has(const struct fleet *f, pid_t pid)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->m[i]->pid == pid)
			return true;
	return false;
}

/* What the fleet knows of pid once the matcher answered (ticking until it
 * has, at most 10 s); NULL when it never did. */
static const struct fleet_proc *tick_until_known(struct fleet *f, pid_t pid)
{
	for (int i = 0; i < 200; i++) {
		fleet_tick(f);
		for (size_t k = 0; k < f->nprocs; k++)
			if (f->procs[k].pid == pid && f->procs[k].known)
				return &f->procs[k];
		tl_sleep_ms(50);
	}
	return NULL;
}

static void test_fleet_live(void **state)
{
	(void)state;
	char secs[32], re[80], cmd[160];
	/* a sleep no other process runs: its seconds from our pid */
	snprintf(secs, sizeof(secs), "9%d", (int)getpid());
	snprintf(re, sizeof(re), "^sleep %s$", secs);
	struct session_config c;
	session_config_default(&c);
	struct fleet f;
	char err[256];
	assert_int_equal(fleet_start(&f, &c, "([", err, sizeof(err)), EXIT_USAGE);
	assert_non_null(strstr(err, "--match"));
	fleet_stop(&f);
	/* Our own command line matches a pattern built from it: never a
	 * member (threadlab --match 'python.*train' matches itself). */
	assert_int_equal(fleet_start(&f, &c, "test-fleet", err, sizeof(err)), EXIT_OK);
	const struct fleet_proc *self = tick_until_known(&f, getpid());
	assert_non_null(self);
	assert_true(self->matches);
	assert_false(fleet_has(&f, getpid()));
	fleet_stop(&f);
	/* Nor is what started it: a child running the fleet on the same
	 * pattern finds this process (its parent) matching, not a member
	 * (timeout 60 threadlab --match train: timeout matches too). */
	pid_t fc = fork();
	assert_true(fc >= 0);
	if (fc == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fleet_start(&f, &c, "test-fleet", err, sizeof(err)) != EXIT_OK)
			_exit(3);
		const struct fleet_proc *parent = tick_until_known(&f, getppid());
		int code = !parent || !parent->matches ? 2 : fleet_has(&f, getppid()) ? 1 : 0;
		fleet_stop(&f);
		_exit(code);
	}
	int st = 0;
	assert_int_equal(waitpid(fc, &st, 0), fc);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0); /* 1: the parent was followed */
	/* With --tree that parent, never a member, does not take in its
	 * matching children either: a sleep of ours is followed. */
	pid_t sib = tl_start_child((const char *[]){"sleep", secs, NULL});
	fc = fork();
	assert_true(fc >= 0);
	if (fc == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		struct session_config t = c;
		t.tree = true;
		snprintf(cmd, sizeof(cmd), "test-fleet|^sleep %s$", secs);
		if (fleet_start(&f, &t, cmd, err, sizeof(err)) != EXIT_OK)
			_exit(3);
		const struct fleet_proc *ps = tick_until_known(&f, sib);
		int code = !ps || !ps->matches ? 2 : fleet_has(&f, sib) ? 0 : 1;
		fleet_stop(&f);
		_exit(code);
	}
	assert_int_equal(waitpid(fc, &st, 0), fc);
	kill(sib, SIGKILL);
	waitpid(sib, NULL, 0);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0); /* 1: taken in by the parent */

	/* A child of ours: threadlab's own descendants are never members. */
	assert_int_equal(fleet_start(&f, &c, re, err, sizeof(err)), EXIT_OK);
	pid_t a = tl_start_child((const char *[]){"sleep", secs, NULL});
	struct timespec ts = {0, 200 * 1000 * 1000};
	nanosleep(&ts, NULL); /* exec'd: the name the fleet reads first is sleep's */
	const struct fleet_proc *pa = tick_until_known(&f, a);
	assert_non_null(pa);
	assert_true(pa->matches);
	assert_false(fleet_has(&f, a));
	assert_int_equal(f.n, 0);
	kill(a, SIGKILL);
	waitpid(a, NULL, 0);

	/* A process that execs after it was first seen (a launcher's
	 * "exec python train.py", or a shell between fork and exec) keeps its
	 * PID and start time: it is asked again under its new name. */
	char script[96];
	snprintf(script, sizeof(script), "read _ </dev/stdin; exec sleep %s", secs);
	int gate[2];
	assert_int_equal(pipe(gate), 0);
	pid_t e = fork();
	assert_true(e >= 0);
	if (e == 0) {
		dup2(gate[0], 0);
		close(gate[0]);
		close(gate[1]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execlp("sh", "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	close(gate[0]);
	const struct fleet_proc *pe = tick_until_known(&f, e);
	assert_non_null(pe);
	assert_false(pe->matches); /* "sh -c read ...; exec sleep 9..." */
	assert_int_equal(write(gate[1], "\n", 1), 1);
	close(gate[1]);
	bool matched = false;
	for (int i = 0; i < 200 && !matched; i++) {
		tl_sleep_ms(50);
		fleet_tick(&f);
		for (size_t k = 0; k < f.nprocs; k++)
			if (f.procs[k].pid == e && f.procs[k].matches)
				matched = true;
	}
	kill(e, SIGKILL);
	waitpid(e, NULL, 0);
	assert_true(matched);

	/* Not ours: started under timeout by a shell that exits at once, so
	 * the sleep is reparented; timeout ends it if this test dies. */
	snprintf(cmd, sizeof(cmd), "timeout 30 sleep %s >/dev/null 2>&1 &", secs);
	assert_int_equal(system(cmd), 0);
	pid_t other = 0;
	for (int i = 0; i < 20 && f.n == 0; i++) {
		nanosleep(&ts, NULL);
		fleet_tick(&f);
	}
	assert_int_equal(f.n, 1);
	other = f.m[0]->pid;
	assert_true(f.m[0]->s.kind == SESSION_ATTACH && f.m[0]->s.target == other);
	fleet_tick(&f);
	assert_true(f.m[0]->s.have_rates); /* a session of its own, sampled */
	kill(other, SIGKILL);
	nanosleep(&ts, NULL);
	fleet_tick(&f);
	assert_false(fleet_has(&f, other));
	assert_int_equal(f.n, 0);
	assert_true(f.started == 1 && f.ended == 1);
	fleet_stop(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_groups_only_grow),
	    cmocka_unit_test(test_matches),
	    cmocka_unit_test(test_fleet_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
