/* test-machine.c — the machine-wide process reader and the neighbours'
 * window: parsers, a fixture tree the test writes and changes between
 * samples (rates, a process that vanishes, a PID reused, a process born
 * inside an interval, threads, cgroups, the CPUs a thread ran on), the
 * view from a target (its processes, itself and its children left out,
 * the rest ranked), and the live machine with a busy child the test
 * starts. */
#include "tl-fixture.h"

#include <math.h>

#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>

#include "machine.h"
#include "neighbours-impl.h"
#include "procinfo.h"
#include "thread-sampler.h"
#include "thread-set.h"

/* ---- a fixture tree ----------------------------------------------------- */

static void put_proc(int pid, const char *name, char state, int ppid, unsigned long long start,
		     uint64_t run_ns, uint64_t wait_ns, int cpu, const char *cgroup)
{
	char rel[128];
	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	tl_put_stat(rel, pid, name, state, ppid, run_ns / 10000000, 1, start, cpu);
	snprintf(rel, sizeof(rel), "proc/%d/schedstat", pid);
	tl_put(rel, "%llu %llu 10\n", (unsigned long long)run_ns, (unsigned long long)wait_ns);
	snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
	tl_put(rel, "1:cpu:%s\n0::/unified%s\n", cgroup, cgroup);
}

/* Process 300, "two": threads 300 (asleep) and 301 (running), 100 ns run
 * each, in cgroup /two. */
static void put_two(long hz)
{
	tl_put_stat("proc/300/stat", 300, "two", 'R', 1, 0, 2, 1 * hz, 0);
	tl_put("proc/300/cgroup", "0::/two\n");
	tl_put("proc/300/task/300/schedstat", "100 0 1\n");
	tl_put_stat("proc/300/task/300/stat", 300, "two", 'S', 1, 0, 2, 1 * hz, 0);
	tl_put("proc/300/task/301/schedstat", "100 0 1\n");
	tl_put_stat("proc/300/task/301/stat", 301, "two", 'R', 1, 0, 2, 1 * hz, 0);
}

static const struct machine_proc *lookup(const struct machine_sample *s, pid_t pid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].pid == pid)
			return &s->v[i];
	return NULL;
}

/* The process pid, which must be there. */
static const struct machine_proc *find(const struct machine_sample *s, pid_t pid)
{
	const struct machine_proc *p = lookup(s, pid);
	if (!p) {
		fail_msg("process %d not in the sample", (int)pid);
		abort();
	}
	return p;
}

/* ---- tests ----------------------------------------------------------------- */

static void test_parsers(void **state)
{
	(void)state;
	uint64_t busy, total;
	assert_int_equal(machine_stat_parse("cpu  10 2 3 100 5 1 1 1 7 0\n", &busy, &total), 0);
	assert_int_equal(busy, 18);
	assert_int_equal(total, 123);
	assert_int_equal(machine_stat_parse("intr 1 2 3\n", &busy, &total), -EINVAL);
	assert_int_equal(machine_stat_parse("cpu  1 2\n", &busy, &total), -EINVAL);
	char cg[256];
	assert_int_equal(machine_cgroup_parse("2:cpuacct:/\n1:cpu:/user.slice\n0::/x\n", cg, 256),
			 0);
	assert_string_equal(cg, "/user.slice");
	assert_int_equal(machine_cgroup_parse("0::/system.slice/a:b.service\n", cg, 256), 0);
	assert_string_equal(cg, "/system.slice/a:b.service");
	assert_int_equal(machine_cgroup_parse("3:memory:/m\n", cg, 256), -ENOENT);
}

static void test_fixture_rates(void **state)
{
	(void)state;
	tl_fixture_new("tl-machine");
	long hz = sysconf(_SC_CLK_TCK);
	/* 100: busy on CPU 1; 200: asleep; 300: two threads; 400: vanishes;
	 * 500: its PID will be reused. */
	tl_put_machine(1000, 100.0);
	put_proc(100, "spinner", 'R', 1, 1 * hz, 1000000000ull, 0, 1, "/user.slice");
	put_proc(200, "sleeper", 'S', 1, 1 * hz, 5000000ull, 0, 0, "/system.slice");
	put_two(hz);
	put_proc(400, "goner", 'R', 1, 1 * hz, 0, 0, 0, "/");
	put_proc(500, "old", 'R', 1, 1 * hz, 0, 0, 0, "/");
	struct sysroot r;
	assert_int_equal(sysroot_open(&r, tl_fixture_dir), 0);
	struct machine_sampler *m = machine_sampler_new(&r);
	assert_non_null(m);
	struct machine_sample s;
	machine_sample_init(&s);
	assert_int_equal(machine_sample(m, 10.0, &s), 0);
	assert_int_equal(s.n, 5);
	assert_true(find(&s, 100)->is_new);
	assert_int_equal(s.online, 2);
	assert_false(s.busy_valid);
	/* one second later */
	tl_put_machine(1000 + (unsigned long)(1.5 * hz), 101.0);
	put_proc(100, "spinner", 'R', 1, 1 * hz, 1900000000ull, 100000000ull, 1, "/user.slice");
	tl_put("proc/300/task/300/schedstat", "100 500000000 2\n");		  /* waited */
	tl_put("proc/300/task/301/schedstat", "500000100 0 3\n");			  /* ran */
	tl_put_stat("proc/300/task/301/stat", 301, "two", 'R', 1, 50, 2, 1 * hz, 1); /* on CPU 1 */
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/proc/400", tl_fixture_dir);
	tl_rm_tree(dir); /* 400 vanished */
	put_proc(500, "new", 'R', 1, (unsigned long long)(100.5 * hz), 300000000ull, 0, 0,
		 "/n"); /* reused, born inside the interval */
	put_proc(600, "later", 'R', 1, 1 * hz, 7000000000ull, 0, 0, "/"); /* first seen, old */
	assert_int_equal(machine_sample(m, 11.0, &s), 0);
	assert_true(fabs(s.dt - 1.0) < 1e-9);
	const struct machine_proc *p = find(&s, 100);
	assert_non_null(p);
	assert_false(p->is_new);
	assert_true(fabs(p->cpus - 0.9) < 1e-6);
	assert_true(fabs(p->wait - 0.1) < 1e-6);
	assert_string_equal(p->cgroup, "/user.slice");
	assert_true(machine_ran_on(p->ran_on, 1));
	assert_false(machine_ran_on(p->ran_on, 0));
	p = find(&s, 200);
	assert_true(p->cpus == 0 && p->wait == 0);
	assert_string_equal(p->cgroup, "/system.slice");
	p = find(&s, 300);
	assert_int_equal(p->threads, 2);
	assert_true(fabs(p->cpus - 0.5) < 1e-6);
	assert_true(fabs(p->wait - 0.5) < 1e-6);
	assert_string_equal(p->cgroup, "/two"); /* no v1 cpu line: the unified one */
	assert_true(machine_ran_on(p->ran_on, 1));
	assert_null(lookup(&s, 400));
	p = find(&s, 500);
	assert_false(p->is_new); /* born after the last call: its whole life counts */
	assert_string_equal(p->name, "new");
	assert_true(fabs(p->cpus - 0.3) < 1e-6);
	assert_true(find(&s, 600)->is_new);
	assert_true(s.busy_valid);
	assert_true(fabs(s.busy_cpus - 1.5) < 0.02);
	assert_true(fabs(s.cpus - 1.7) < 1e-6);
	assert_true(machine_sampler_reads(m) > 10);
	/* 600 moves itself to another cgroup and execs a job there (as cgexec
	 * does): the same PID and start time under a new name, its cgroup read
	 * at once; 200 is moved by someone else, its name the same: its cgroup
	 * stands until MACHINE_CGROUP_S has passed. */
	put_proc(600, "job", 'R', 1, 1 * hz, 7100000000ull, 0, 0, "/moved");
	put_proc(200, "sleeper", 'S', 1, 1 * hz, 5000000ull, 0, 0, "/elsewhere");
	assert_int_equal(machine_sample(m, 12.0, &s), 0);
	assert_string_equal(find(&s, 600)->cgroup, "/moved");
	assert_string_equal(find(&s, 200)->cgroup, "/system.slice");
	put_proc(200, "sleeper", 'S', 1, 1 * hz, 5000000ull, 0, 0, "/system.slice");
	put_proc(600, "later", 'R', 1, 1 * hz, 7000000000ull, 0, 0, "/");

	/* the window and the view from process 300 (its child 700 not followed) */
	struct neighbours n;
	neighbours_init(&n, 10);
	put_proc(700, "child", 'R', 300, 1 * hz, 0, 0, 0, "/two");
	assert_true(neighbours_tick(&n, &r, NULL, 20.0)); /* baseline */
	tl_put_machine(1000 + (unsigned long)(3.5 * hz), 102.0);
	put_proc(100, "spinner", 'R', 1, 1 * hz, 2900000000ull, 600000000ull, 1, "/user.slice");
	put_proc(700, "child", 'R', 300, 1 * hz, 400000000ull, 0, 0, "/two");
	put_proc(600, "later", 'R', 1, 1 * hz, 7200000000ull, 0, 0, "/");
	assert_false(neighbours_tick(&n, &r, NULL, 20.5)); /* not due yet */
	assert_true(neighbours_tick(&n, &r, NULL, 21.0));
	struct machine_view v;
	const pid_t followed[] = {300};
	uint8_t cpus[MACHINE_SET_BYTES] = {0};
	cpus[0] = 1u << 1; /* the target ran on CPU 1 */
	neighbours_view(&n, 300, followed, 1, 999999, cpus, 12.5, &v);
	assert_true(v.valid);
	assert_int_equal(v.online, 2);
	assert_true(fabs(v.window_s - 1.0) < 1e-9);
	assert_int_equal(v.children, 1);
	assert_true(fabs(v.children_cpus - 0.4) < 1e-6);
	assert_true(v.n >= 2);
	assert_int_equal(v.top[0].pid, 100); /* ran on CPU 1, the most CPU */
	assert_true(v.top[0].shares_cpus);
	assert_true(fabs(v.top[0].cpus_used - 1.0) < 1e-6);
	assert_true(fabs(v.top[0].runnable_mean - 1.5) < 1e-6);
	assert_string_equal(v.top[0].cgroup, "/user.slice");
	assert_int_equal(v.top[1].pid, 600); /* 0.2 CPUs, its CPUs not known to be shared */
	assert_false(v.top[1].shares_cpus);
	assert_true(fabs(v.others_cpus - 1.2) < 1e-6);
	assert_true(fabs(v.others_shared - 1.0) < 1e-6);
	assert_true(fabs(v.cpus_used - 2.0) < 0.02);
	assert_true(fabs(v.psi_some - 12.5) < 1e-9);
	neighbours_free(&n);
	machine_sample_free(&s);
	machine_sampler_free(m);
	sysroot_close(&r);
	tl_rm_tree(tl_fixture_dir);
}

/* A process whose threads the caller gives (machine_sampler_known): its
 * rates and CPUs come from the given figures, not from its files, its
 * thread files are not read, and of its stat lines only its leader
 * thread's (proc/PID/stat costs the kernel a walk of every thread); the
 * next call without them reads the files. */
static void test_known(void **state)
{
	(void)state;
	tl_fixture_new("tl-machine");
	long hz = sysconf(_SC_CLK_TCK);
	tl_put_machine(1000, 100.0);
	put_two(hz);
	struct sysroot r;
	assert_int_equal(sysroot_open(&r, tl_fixture_dir), 0);
	struct machine_sampler *m = machine_sampler_new(&r);
	assert_non_null(m);
	struct machine_sample s;
	machine_sample_init(&s);
	assert_int_equal(machine_sample(m, 10.0, &s), 0); /* from the files */
	/* the files say nothing moved; the caller's sample says 301 ran
	 * 0.25 s on CPU 1 and 300 waited 0.5 s */
	struct thread_set k;
	thread_set_init(&k);
	k.n = k.cap = 2;
	k.v = calloc(2, sizeof(*k.v));
	assert_non_null(k.v);
	k.v[0] = (struct thread_sample){
	    .pid = 300, .tid = 300, .state = 'S', .cpu = 0, .run_ns = 100, .wait_ns = 500000000};
	k.v[1] = (struct thread_sample){
	    .pid = 300, .tid = 301, .state = 'R', .cpu = 1, .run_ns = 250000100};
	tl_put_machine(1100, 101.0);
	tl_put("proc/300/stat", "not read while its threads are known\n");
	uint64_t reads = machine_sampler_reads(m);
	machine_sampler_known(m, &k);
	assert_int_equal(machine_sample(m, 11.0, &s), 0);
	/* proc/ listed, uptime, 300's leader's stat, proc/stat, online */
	assert_int_equal(machine_sampler_reads(m) - reads, 5);
	const struct machine_proc *p = find(&s, 300);
	assert_int_equal(p->threads, 2);
	assert_true(fabs(p->cpus - 0.25) < 1e-6);
	assert_true(fabs(p->wait - 0.5) < 1e-6);
	assert_true(machine_ran_on(p->ran_on, 1));
	assert_false(machine_ran_on(p->ran_on, 0));
	/* given for one call only: the files again, whose figures are behind
	 * the given ones (no negative rates) */
	reads = machine_sampler_reads(m);
	tl_put("proc/300/task/301/schedstat", "350000100 0 3\n");
	tl_put_stat("proc/300/stat", 300, "two", 'R', 1, 10, 2, 1 * hz, 0);
	assert_int_equal(machine_sample(m, 12.0, &s), 0);
	assert_true(machine_sampler_reads(m) - reads > 5);
	p = find(&s, 300);
	assert_true(fabs(p->cpus - 0.1) < 1e-6);
	assert_true(p->wait == 0);
	/* a leader's sample with its process's fields (the BPF path): no
	 * stat line is read at all, and the process is as the sample says */
	k.v[0].ppid = 77;
	k.v[0].nthreads = 2;
	k.v[0].starttime = 1 * (uint64_t)hz;
	memcpy(k.v[0].name, "two", 4);
	k.v[0].name_len = 3;
	k.v[1].run_ns = 450000100;
	tl_put("proc/300/stat", "not read: the sample has its fields\n");
	tl_put("proc/300/task/300/stat", "not read either\n");
	reads = machine_sampler_reads(m);
	machine_sampler_known(m, &k);
	assert_int_equal(machine_sample(m, 13.0, &s), 0);
	/* proc/ listed, uptime, proc/stat, online */
	assert_int_equal(machine_sampler_reads(m) - reads, 4);
	p = find(&s, 300);
	assert_int_equal(p->ppid, 77);
	assert_int_equal(p->threads, 2);
	assert_true(p->name_len == 3 && memcmp(p->name, "two", 3) == 0);
	assert_true(fabs(p->cpus - 0.1) < 1e-6); /* 350000100 -> 450000100 in 1 s */
	thread_set_free(&k);
	machine_sample_free(&s);
	machine_sampler_free(m);
	sysroot_close(&r);
	tl_rm_tree(tl_fixture_dir);
}

/* The live machine: a busy child the test starts shows about a CPU (at
 * least a share a loaded 2-CPU box gives), a sleeping one none. */
static void test_live(void **state)
{
	(void)state;
	pid_t busy = tl_fork();
	if (busy == 0)
		tl_spin(NULL);
	pid_t idle = tl_fork();
	if (idle == 0) {
		for (;;)
			pause();
	}
	struct sysroot r;
	assert_int_equal(sysroot_open(&r, "/"), 0);
	struct machine_sampler *m = machine_sampler_new(&r);
	struct machine_sample s;
	machine_sample_init(&s);
	assert_int_equal(machine_sample(m, tl_now_s(), &s), 0);
	const struct machine_proc *b = NULL, *i = NULL;
	/* wait until a sample reads the busy child as one runnable thread
	 * (within a tenth), at most 10 s: on a loaded box one sample's CPU and
	 * wait may come from intervals a tick apart and read 1.15 */
	for (int k = 0; k < 20; k++) {
		tl_sleep_ms(500);
		assert_int_equal(machine_sample(m, tl_now_s(), &s), 0);
		b = lookup(&s, busy);
		i = lookup(&s, idle);
		if (b && i && b->cpus + b->wait > 0.9 && b->cpus + b->wait < 1.1)
			break;
	}
	if (!b || !i) {
		fail_msg("the children were not read");
		abort();
	}
	assert_false(b->is_new);
	assert_true(b->cpus > 0.05 && b->cpus <= 1.05);
	assert_true(b->cpus + b->wait > 0.9 && b->cpus + b->wait < 1.1);
	assert_true(i->cpus < 0.01 && i->wait < 0.01);
	assert_true(s.n > 2 && s.nthreads >= s.n);
	assert_true(s.busy_valid && s.busy_cpus >= b->cpus - 0.1);
	tl_kill_reap(busy);
	tl_kill_reap(idle);
	machine_sample_free(&s);
	machine_sampler_free(m);
	sysroot_close(&r);
}

/* Both readers of one live child: the machine's and its threads'. */
struct both {
	struct sysroot r;
	struct machine_sampler *m;
	struct thread_sampler *ts;
	struct machine_sample s;
	struct thread_set k;
};

static void both_open(struct both *b, pid_t child)
{
	assert_int_equal(sysroot_open(&b->r, "/"), 0);
	b->m = machine_sampler_new(&b->r);
	b->ts = thread_sampler_new(&b->r, child, false);
	assert_non_null(b->m);
	assert_non_null(b->ts);
	machine_sample_init(&b->s);
	thread_set_init(&b->k);
}

/* Kills and reaps the child, then closes both readers. */
static void both_close(struct both *b, pid_t child)
{
	tl_kill_reap(child);
	thread_set_free(&b->k);
	thread_sampler_free(b->ts);
	machine_sample_free(&b->s);
	machine_sampler_free(b->m);
	sysroot_close(&b->r);
}

/* Four machine samples 0.5 s apart of the child and its two threads; in
 * the calls of mask given, its threads are given from /proc first.  Each
 * call's runnable threads into runnable[call]; the last reading of the
 * child, or NULL once a sample did not hold it. */
static const struct machine_proc *both_calls(struct both *b, pid_t child, unsigned given,
					     double runnable[4])
{
	const struct machine_proc *p = NULL;
	for (int call = 0; call < 4; call++) {
		if (call > 0)
			tl_sleep_ms(500);
		if (given & (1u << call)) {
			assert_int_equal(thread_sampler_sample(b->ts, &b->k), 0);
			assert_int_equal(b->k.n, 2);
			machine_sampler_known(b->m, &b->k);
		}
		assert_int_equal(machine_sample(b->m, tl_now_s(), &b->s), 0);
		p = lookup(&b->s, child);
		if (!p)
			break;
		assert_int_equal(p->threads, 2);
		runnable[call] = p->cpus + p->wait;
	}
	return p;
}

/* A process whose leader sleeps while its second thread spins, read live:
 * first with its threads given from /proc (no process fields: its leader
 * thread's stat line is read and its descriptor held), then alone twice
 * (its process's stat line, another kind of descriptor), then given again.
 * Had the leader's descriptor been kept for the process's line, its ticks
 * (the leader's, still) and state (S) would say nothing ran, its threads
 * would not be read, and the spinning thread would show no CPU. */
static void test_live_known_switch(void **state)
{
	(void)state;
	pid_t child = fork();
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* (a failed assertion leaves no spinner) */
		pthread_t t;
		pthread_create(&t, NULL, tl_spin, NULL);
		for (;;)
			pause();
	}
	struct both b;
	both_open(&b, child);
	/* its second thread running (up to 10 s on a crowded box) */
	pid_t *tids = NULL;
	size_t tcap = 0;
	for (int i = 0; i < 1000 && procinfo_tids(&b.r, child, &tids, &tcap) < 2; i++)
		tl_sleep_ms(10);
	free(tids);
	double runnable[4] = {0};
	const struct machine_proc *p = both_calls(&b, child, 1u << 0 | 1u << 3, runnable);
	printf("# runnable threads: %.2f and %.2f read alone, then %.2f given\n", runnable[1],
	       runnable[2], runnable[3]);
	assert_non_null(p);
	/* 1 each (the wait under way at either end aside, on a crowded box);
	 * the leader's descriptor kept read 0.00, then 2.01 */
	for (int call = 1; call < 4; call++)
		assert_true(runnable[call] > 0.5 && runnable[call] < 1.5);
	both_close(&b, child);
}

/* The spinning thread of a process whose leader thread exited: it asks
 * for SIGKILL itself when the test dies (the leader that asked is gone). */
static void *zombie_spin(void *arg)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	return tl_spin(arg);
}

/* A process whose leader thread exited (pthread_exit from main) while a
 * second thread spins: its stat line says Z, as a dead process's does, yet
 * it runs a CPU.  Read alone (its process's line) and given from /proc
 * (its leader's line), it is in the sample with its two threads and about
 * one runnable thread; it once fell out of the machine's view on both
 * paths (docs/design.md, "The whole machine"). */
static void test_live_zombie_leader(void **state)
{
	(void)state;
	pid_t child = tl_fork();
	if (child == 0) {
		pthread_t t;
		pthread_create(&t, NULL, zombie_spin, NULL);
		pthread_exit(NULL);
	}
	struct both b;
	both_open(&b, child);
	/* its leader gone (up to 10 s on a crowded box) */
	struct stat_line st = {0};
	for (int i = 0; i < 1000 && !(procinfo_stat(&b.r, child, &st) == 0 && st.state == 'Z'); i++)
		tl_sleep_ms(10);
	assert_int_equal(st.state, 'Z');
	double runnable[4] = {0};
	const struct machine_proc *p = both_calls(&b, child, 1u << 2 | 1u << 3, runnable);
	printf("# a zombie leader's process: %.2f runnable threads read alone, %.2f given\n",
	       runnable[1], runnable[3]);
	assert_non_null(p);
	assert_true(runnable[1] > 0.5 && runnable[1] < 1.5);
	assert_true(runnable[3] > 0.5 && runnable[3] < 1.5);
	both_close(&b, child);
}

/* A thread that spins for 30 ms of its own CPU time, then ends. */
static void *short_spin(void *arg)
{
	(void)arg;
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (volatile int i = 0; i < 10000; i++)
			;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 30);
	return NULL;
}

/* A process whose work is done by threads that each live 30 ms of CPU
 * (and a little more by the clock), a new one every 90 ms or so: none is
 * ever read, its process's stat line has their run.  It read 0.00 CPUs. */
static void test_live_short_threads(void **state)
{
	(void)state;
	pid_t child = fork();
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;) {
			pthread_t t;
			pthread_create(&t, NULL, short_spin, NULL);
			pthread_join(t, NULL);
			tl_sleep_ms(60);
		}
	}
	struct sysroot r;
	assert_int_equal(sysroot_open(&r, "/"), 0);
	struct machine_sampler *m = machine_sampler_new(&r);
	struct machine_sample s;
	machine_sample_init(&s);
	const struct machine_proc *p = NULL;
	double best = 0;
	/* on a crowded box its threads may get little: up to 10 s for a fifth */
	for (int k = 0; k < 11 && best < 0.2; k++) {
		assert_int_equal(machine_sample(m, tl_now_s(), &s), 0);
		p = lookup(&s, child);
		if (k > 0 && p && p->cpus > best)
			best = p->cpus;
		tl_sleep_ms(1000);
	}
	printf("# a process of short-lived threads: %.2f CPUs\n", best);
	assert_true(best >= 0.2 && best < 1.05);
	tl_kill_reap(child);
	machine_sample_free(&s);
	machine_sampler_free(m);
	sysroot_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parsers),
	    cmocka_unit_test(test_fixture_rates),
	    cmocka_unit_test(test_known),
	    cmocka_unit_test(test_live),
	    cmocka_unit_test(test_live_known_switch),
	    cmocka_unit_test(test_live_zombie_leader),
	    cmocka_unit_test(test_live_short_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
