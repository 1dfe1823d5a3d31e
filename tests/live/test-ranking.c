/* test-ranking.c — the whole machine ranked against each process's budget
 * (monitor/ranking.h, docs/design.md "The whole machine"): short cgroup
 * names; the verdict of a process's totals and of the machine; a cgroup
 * v2 fixture tree the test writes and changes between ticks (an 8-thread
 * process in a 1-CPU quota throttled, a 1-thread one in the same quota
 * below it, a container oversubscribing the online CPUs, a sleeper; then
 * one process gone, one new, a PID reused, and budgets read only for the
 * new ones); and the live machine with busy (tests/lib/forker) and sleeping
 * children the test starts. */
#include "tl-fixture.h"

#include <math.h>

#include "diagnosis-input.h"
#include "ranking-impl.h"
#include "diagnosis-rules.h"

/* ---- pure parts ------------------------------------------------------------ */

static void test_cgroup_short(void **state)
{
	(void)state;
	static const char id[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	static const struct {
		const char *path, *want;
	} cases[] = {
	    {"", ""},
	    {"/", "/"},
	    {"/user.slice/user-0.slice/session-3.scope", "session-3.scope"},
	    {"/system.slice/nginx.service", "nginx.service"},
	    {"/system.slice/docker-%s.scope", "docker 0123456789ab"},
	    {"/docker/%s", "docker 0123456789ab"},
	    {"/system.slice/crio-%s.scope", "crio 0123456789ab"},
	    {"/kubepods/burstable/pod1f2e3d4c-aaaa-bbbb-cccc-0123456789ab/%s",
	     "pod 1f2e3d4c/0123456789ab"},
	    {"/kubepods.slice/kubepods-besteffort.slice/"
	     "kubepods-besteffort-pod1f2e3d4c_aaaa.slice/cri-containerd-%s.scope",
	     "pod 1f2e3d4c/0123456789ab"},
	    {"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1f2e3d4c_aaaa.slice",
	     "pod 1f2e3d4c"},
	    /* "pod" then fewer than 8 hex digits is a name, not a pod */
	    {"/system.slice/podcast.service", "podcast.service"},
	    {"/tl-test-x-12/", "tl-test-x-12"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[512], out[RANKING_CGROUP_MAX];
		const char *x = strstr(cases[i].path, "%s");
		if (x)
			snprintf(path, sizeof(path), "%.*s%s%s", (int)(x - cases[i].path),
				 cases[i].path, id, x + 2);
		else
			snprintf(path, sizeof(path), "%s", cases[i].path);
		ranking_cgroup_short(path, out, sizeof(out));
		if (strcmp(out, cases[i].want) != 0)
			fail_msg("%s: '%s', want '%s'", path, out, cases[i].want);
	}
	char small[6];
	ranking_cgroup_short("/system.slice/nginx.service", small, sizeof(small));
	assert_string_equal(small, "nginx");
}

static struct budget budget_of(double effective, enum budget_term binding, double quota)
{
	struct budget b;
	memset(&b, 0, sizeof(b));
	b.online = 2;
	b.affinity = 2;
	b.quota.cpus = quota;
	b.effective = effective;
	b.binding = binding;
	return b;
}

static void test_totals_verdicts(void **state)
{
	(void)state;
	struct diagnosis *d = calloc(1, sizeof(*d));
	assert_non_null(d);
	/* 8 threads in a 1-CPU quota, throttled every period */
	struct budget q = budget_of(1.0, BUDGET_QUOTA, 1.0);
	struct diag_totals t = {.pid = 812,
				.threads = 8,
				.window_s = 1,
				.cpu = 1.0,
				.wait = 7.0,
				.budget = &q,
				.throttle = {.valid = true,
					     .throttled_pct = 100,
					     .throttled_s_per_s = 1.8},
				.cpus_ran = 2};
	diagnosis_of_totals(&t, d);
	assert_int_equal(d->verdict, VERDICT_THROTTLED);
	assert_true(fabs(d->factor - 8.0) < 1e-9);
	/* each thread waits at most the throttled share of one CPU: 0.9 s/s */
	assert_true(fabs(d->throttle_wait - 7.0) < 1e-9);
	assert_true(d->nsuggestions > 0);
	assert_non_null(strstr(d->headline, "Try: "));
	assert_null(strstr(d->reasons[0], "in state R now")); /* no thread was read */
	/* a little throttling explains only part of a long wait */
	t.throttle.throttled_s_per_s = 0.2;
	diagnosis_of_totals(&t, d);
	assert_true(fabs(d->throttle_wait - 0.8) < 1e-9); /* 8 x 0.2 / 2 */
	/* 2 spinners and a sleeping main thread under a 0.3-CPU quota: the
	 * 2 runnable threads wait while it is throttled, not the sleeper
	 * (3 x 0.48 read 1.44 s/s of the 1.70 as throttling) */
	struct diag_totals s = t;
	s.threads = 3;
	s.cpu = 0.3;
	s.wait = 1.7;
	s.throttle.throttled_s_per_s = 0.48;
	s.cpus_ran = 1;
	diagnosis_of_totals(&s, d);
	assert_true(fabs(d->throttle_wait - 0.96) < 1e-9); /* 2.0 x 0.48 */
	/* the same demand without a quota, on 2 CPUs: oversubscribed */
	struct budget o = budget_of(2.0, BUDGET_ONLINE, -1);
	t.budget = &o;
	t.throttle.valid = false;
	diagnosis_of_totals(&t, d);
	assert_int_equal(d->verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(fabs(d->factor - 4.0) < 1e-9);
	/* one thread that fits */
	t.threads = 1;
	t.cpu = 0.9;
	t.wait = 0.05;
	diagnosis_of_totals(&t, d);
	assert_int_equal(d->verdict, VERDICT_FINE);
	t.cpu = 0.01;
	t.wait = 0;
	diagnosis_of_totals(&t, d);
	assert_int_equal(d->verdict, VERDICT_IDLE);
	assert_true(diagnosis_rules_is_idle(0.01, 0.02));
	assert_false(diagnosis_rules_is_idle(0.2, 0.2));
	free(d);

	char h[DIAG_TEXT];
	assert_int_equal(diagnosis_rules_machine(3.0, 2.0, 2, h, sizeof(h)),
			 VERDICT_OVERSUBSCRIBED);
	assert_non_null(strstr(h, "3.00 runnable threads on 2 CPUs"));
	assert_int_equal(diagnosis_rules_machine(1.5, 1.5, 2, h, sizeof(h)), VERDICT_FINE);
	assert_int_equal(diagnosis_rules_machine(0.01, 0.01, 2, h, sizeof(h)), VERDICT_IDLE);
}

/* ---- a cgroup v2 fixture tree ------------------------------------------------ */

#define JOB "/job"
#define BOX                                                                                        \
	"/system.slice/"                                                                           \
	"docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope"

/* Process pid with threads threads, each having run run_ms and waited
 * wait_ms in all (ms), in cgroup cg, started at start ticks. */
static void put_proc(int pid, const char *name, int threads, double run_ms, double wait_ms,
		     const char *cg, unsigned long long start)
{
	char rel[128];
	unsigned long ticks = (unsigned long)(run_ms * threads / 10);
	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	tl_put_stat(rel, pid, name, 'R', 1, ticks, threads, start, 0);
	for (int t = 0; t < threads; t++) {
		int tid = pid + t;
		snprintf(rel, sizeof(rel), "proc/%d/task/%d/schedstat", pid, tid);
		tl_put(rel, "%llu %llu 10\n", (unsigned long long)(run_ms * 1e6),
		       (unsigned long long)(wait_ms * 1e6));
		snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, tid);
		tl_put_stat(rel, tid, name, 'R', 1, ticks / threads, threads, start, t % 2);
	}
	if (threads == 1) {
		snprintf(rel, sizeof(rel), "proc/%d/schedstat", pid);
		tl_put(rel, "%llu %llu 10\n", (unsigned long long)(run_ms * 1e6),
		       (unsigned long long)(wait_ms * 1e6));
	}
	snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
	tl_put(rel, "0::%s\n", cg);
	snprintf(rel, sizeof(rel), "proc/%d/status", pid);
	tl_put(rel, "Name:\t%s\nPid:\t%d\nCpus_allowed_list:\t0-1\n", name, pid);
	snprintf(rel, sizeof(rel), "proc/%d/mountinfo", pid);
	tl_put(rel, "22 30 0:20 / /proc rw - proc proc rw\n"
		    "30 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
		    "26 30 0:23 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n");
}

static void put_throttle(unsigned long periods, unsigned long throttled, double throttled_s)
{
	tl_put("sys/fs/cgroup" JOB "/cpu.stat",
	       "usage_usec 1000\nuser_usec 1000\nsystem_usec 0\nnr_periods %lu\nnr_throttled "
	       "%lu\nthrottled_usec %.0f\n",
	       periods, throttled, throttled_s * 1e6);
}

static const struct rank_row *row_of(const struct ranking *k, pid_t pid, size_t *at)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->rows[i].pid == pid) {
			if (at)
				*at = i;
			return &k->rows[i];
		}
	return NULL;
}

/* The row of pid, which must be there; its rank in *at. */
static const struct rank_row *row_must(const struct ranking *k, pid_t pid, size_t *at)
{
	const struct rank_row *r = row_of(k, pid, at);
	if (!r) {
		fail_msg("process %d not ranked", (int)pid);
		abort();
	}
	return r;
}

static void test_fixture_v2(void **state)
{
	(void)state;
	long hz = sysconf(_SC_CLK_TCK);
	tl_fixture_new("tl-ranking");
	tl_put_machine(1000, 100.0);
	tl_put("proc/pressure/cpu", "some avg10=40.00 avg60=30.00 avg300=20.00 total=1\n");
	tl_put("sys/fs/cgroup/cgroup.controllers", "cpuset cpu memory\n");
	tl_put("sys/fs/cgroup/cpu.stat", "usage_usec 1\nuser_usec 1\nsystem_usec 0\n");
	tl_put("sys/fs/cgroup" JOB "/cpu.max", "100000 100000\n");
	tl_put("sys/fs/cgroup" JOB "/cgroup.type", "domain\n");
	tl_put("sys/fs/cgroup" BOX "/cpu.max", "max 100000\n");
	tl_put("sys/fs/cgroup" BOX "/cgroup.type", "domain\n");
	tl_put("sys/fs/cgroup/system.slice/cpu.max", "max 100000\n");
	tl_put("sys/fs/cgroup/system.slice/cgroup.type", "domain\n");
	put_throttle(100, 10, 0.5);
	put_proc(100, "omp8", 8, 0, 0, JOB, 1 * hz);
	put_proc(200, "serial", 1, 0, 0, JOB, 1 * hz);
	put_proc(300, "sleeper", 1, 0, 0, "/", 1 * hz);
	put_proc(400, "box", 8, 0, 0, BOX, 1 * hz);

	struct sysroot r;
	assert_int_equal(sysroot_open(&r, tl_fixture_dir), 0);
	struct ranking k;
	ranking_init(&k, &r, false);
	assert_false(ranking_tick(&k, 10.0)); /* the baseline */
	uint64_t reads = k.budget_reads;
	assert_int_equal(reads, 4); /* each process's budget, once */

	/* one second: omp8's 8 threads ran 1/8 s each and waited 7/8 s (8
	 * runnable on 1 CPU of quota), throttled in every period; serial ran
	 * 0.1 s and waited 0.9 s; box's 8 threads ran 0.1 s and waited
	 * 0.275 s (3 runnable on 2 CPUs); the sleeper did nothing. */
	tl_put_machine(1000 + (unsigned long)(2 * hz), 101.0);
	put_throttle(110, 20, 1.5);
	put_proc(100, "omp8", 8, 125, 875, JOB, 1 * hz);
	put_proc(200, "serial", 1, 100, 900, JOB, 1 * hz);
	put_proc(400, "box", 8, 100, 275, BOX, 1 * hz);
	assert_true(ranking_tick(&k, 11.0));
	assert_int_equal(k.n, 4);
	assert_int_equal(k.budget_reads, reads); /* none read again within RANKING_BUDGET_S */
	size_t at_omp = 0, at_serial = 0, at_box = 0, at_sleeper = 0;
	const struct rank_row *omp = row_must(&k, 100, &at_omp);
	const struct rank_row *serial = row_must(&k, 200, &at_serial);
	const struct rank_row *box = row_must(&k, 400, &at_box);
	const struct rank_row *sleeper = row_must(&k, 300, &at_sleeper);
	assert_int_equal(at_omp, 0);
	assert_true(at_box < at_serial && at_serial < at_sleeper);
	assert_int_equal(omp->threads, 8);
	assert_true(fabs(omp->runnable_mean - 8.0) < 1e-6);
	assert_true(fabs(omp->effective - 1.0) < 1e-9);
	assert_int_equal(omp->binding, BUDGET_QUOTA);
	assert_true(fabs(omp->factor - 8.0) < 1e-6);
	assert_true(omp->throttle_valid);
	assert_true(fabs(omp->throttled_pct - 100.0) < 1e-6);
	assert_int_equal(omp->verdict, VERDICT_THROTTLED);
	assert_true(omp->suggestion[0] != '\0');
	assert_string_equal(omp->cgroup, "job");
	assert_string_equal(serial->cgroup_path, JOB);
	assert_true(fabs(serial->factor - 1.0) < 1e-6);
	assert_int_equal(serial->verdict, VERDICT_THROTTLED); /* the same quota */
	assert_string_equal(box->cgroup, "docker 0123456789ab");
	assert_int_equal(box->binding, BUDGET_ONLINE);
	assert_false(box->throttle_valid);
	assert_true(fabs(box->factor - 1.5) < 1e-6);
	assert_int_equal(box->verdict, VERDICT_OVERSUBSCRIBED);
	assert_int_equal(sleeper->verdict, VERDICT_IDLE);
	assert_string_equal(sleeper->headline, "");
	/* the machine: 2 CPUs busy plus every wait */
	assert_true(k.summary.valid);
	assert_int_equal(k.summary.online, 2);
	assert_true(fabs(k.summary.cpus_used - 2.0) < 0.02);
	assert_true(fabs(k.summary.runnable_mean - (2.0 + 7.0 + 0.9 + 2.2)) < 0.02);
	assert_int_equal(k.summary.verdict, VERDICT_OVERSUBSCRIBED);
	assert_true(fabs(k.summary.psi_some - 40.0) < 1e-9);
	assert_int_equal(k.summary.processes, 4);
	assert_int_equal(k.summary.threads, 18);

	/* another second: serial has gone, 500 is new, 300's PID was reused
	 * by a busy process in the quota */
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/proc/200", tl_fixture_dir);
	tl_rm_tree(dir);
	snprintf(dir, sizeof(dir), "%s/proc/300", tl_fixture_dir);
	tl_rm_tree(dir);
	put_proc(300, "reused", 1, 5000, 0, JOB, 50 * hz);
	put_proc(500, "newcomer", 1, 700, 0, "/", 60 * hz);
	tl_put_machine(1000 + (unsigned long)(4 * hz), 102.0);
	put_throttle(120, 30, 2.5);
	put_proc(100, "omp8", 8, 250, 1750, JOB, 1 * hz);
	put_proc(400, "box", 8, 200, 550, BOX, 1 * hz);
	assert_true(ranking_tick(&k, 12.0));
	assert_null(row_of(&k, 200, NULL)); /* gone, silently */
	assert_null(row_of(&k, 500, NULL)); /* no rates from one sample */
	assert_null(row_of(&k, 300, NULL)); /* another process: no rates yet either */
	assert_int_equal(k.n, 2);
	assert_int_equal(k.budget_reads, reads + 2); /* 300 (reused) and 500, not the rest */
	put_proc(300, "reused", 1, 5900, 0, JOB, 50 * hz);
	put_proc(500, "newcomer", 1, 1400, 0, "/", 60 * hz);
	tl_put_machine(1000 + (unsigned long)(6 * hz), 103.0);
	put_throttle(130, 40, 3.5);
	assert_true(ranking_tick(&k, 13.0));
	const struct rank_row *reused = row_must(&k, 300, NULL);
	assert_string_equal(reused->name, "reused");
	assert_int_equal(reused->binding, MODEL_TERM_QUOTA); /* its own budget, not the sleeper's */
	assert_true(fabs(reused->cpu - 0.9) < 1e-6);
	assert_non_null(row_of(&k, 500, NULL));

	/* An attach screen opened from the view borrows its reader: its first
	 * tick already has rates (since the view's last tick), and freeing it
	 * leaves the reader to the view, whose next tick measures from the
	 * borrower's last. */
	struct neighbours nb;
	neighbours_init(&nb, 0);
	neighbours_borrow(&nb, ranking_machine(&k));
	put_proc(500, "newcomer", 1, 2100, 0, "/", 60 * hz);
	tl_put_machine(1000 + (unsigned long)(8 * hz), 104.0);
	assert_true(neighbours_tick(&nb, &r, NULL, 14.0));
	assert_true(fabs(nb.sample.dt - 1.0) < 1e-9);
	const struct machine_proc *nc = NULL;
	for (size_t i = 0; i < nb.sample.n; i++)
		if (nb.sample.v[i].pid == 500)
			nc = &nb.sample.v[i];
	assert_true(nc && fabs(nc->cpus - 0.7) < 1e-6);
	neighbours_free(&nb);
	put_proc(500, "newcomer", 1, 2600, 0, "/", 60 * hz);
	tl_put_machine(1000 + (unsigned long)(10 * hz), 105.0);
	assert_true(ranking_tick(&k, 15.0));
	const struct rank_row *back = row_must(&k, 500, NULL);
	assert_true(back && fabs(back->cpu - 0.5) < 1e-6);

	/* 500 execs another program (same PID and start time, a new name),
	 * which runs on CPU 0 alone: its budget is read again at once, not
	 * RANKING_BUDGET_S later. */
	uint64_t before = k.budget_reads;
	put_proc(500, "pinned", 1, 3100, 0, "/", 60 * hz);
	tl_put("proc/500/status", "Name:\tpinned\nPid:\t500\nCpus_allowed_list:\t0\n");
	tl_put_machine(1000 + (unsigned long)(12 * hz), 106.0);
	assert_true(ranking_tick(&k, 16.0));
	const struct rank_row *pinned = row_must(&k, 500, NULL);
	assert_string_equal(pinned->name, "pinned");
	assert_int_equal(k.budget_reads, before + 1);
	assert_int_equal(pinned->binding, MODEL_TERM_AFFINITY);
	assert_true(fabs(pinned->effective - 1.0) < 1e-9);

	ranking_free(&k);
	sysroot_close(&r);
	tl_rm_tree(tl_fixture_dir);
}

/* ---- the live machine ---------------------------------------------------------- */

/* tests/lib/forker with two busy threads (its main thread and one more) and
 * no workers. */
static pid_t start_spinner(void)
{
	const char *b = getenv("THREADLAB_BUILDDIR");
	char path[512];
	snprintf(path, sizeof(path), "%s/tests/lib/forker", b ? b : ".");
	pid_t p = fork();
	assert_true(p >= 0);
	if (p == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		execl(path, path, "2", "0", "0", (char *)NULL);
		_exit(127);
	}
	return p;
}

static void test_live(void **state)
{
	(void)state;
	pid_t sleeper = tl_fork();
	if (sleeper == 0) {
		for (;;)
			pause();
	}
	pid_t busy = start_spinner();
	usleep(200000); /* its threads exist */
	struct sysroot r;
	assert_int_equal(sysroot_open(&r, "/"), 0);
	struct ranking k;
	ranking_init(&k, &r, false);
	assert_false(ranking_tick(&k, tl_now_s()));
	usleep(1000000);
	assert_true(ranking_tick(&k, tl_now_s()));
	size_t at_busy = 0, at_sleeper = 0;
	const struct rank_row *b = row_must(&k, busy, &at_busy);
	const struct rank_row *s = row_must(&k, sleeper, &at_sleeper);
	assert_int_equal(b->threads, 2);
	/* two threads always runnable, whatever else runs: CPU + wait */
	if (b->runnable_mean < 1.8 || b->runnable_mean > 2.2)
		fail_msg("the spinner's runnable threads %.2f, want 2", b->runnable_mean);
	assert_true(b->budget_known);
	assert_true(at_busy < at_sleeper);
	assert_int_equal(s->verdict, VERDICT_IDLE);
	assert_true(b->verdict != VERDICT_IDLE);
	/* no kernel thread unless asked */
	for (size_t i = 0; i < k.n; i++)
		assert_false(k.rows[i].kernel);
	tl_kill_reap(busy);
	usleep(1000000);
	assert_true(ranking_tick(&k, tl_now_s()));
	assert_null(row_of(&k, busy, NULL));
	assert_non_null(row_of(&k, sleeper, NULL));
	ranking_free(&k);
	sysroot_close(&r);
	tl_kill_reap(sleeper);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cgroup_short),
	    cmocka_unit_test(test_totals_verdicts),
	    cmocka_unit_test(test_fixture_v2),
	    cmocka_unit_test(test_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
