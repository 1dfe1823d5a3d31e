/* test-thread-rates.c — the bounds of per-thread rates (thread-rates.c)
 * on hand-made samples: what the kernel's counters can do, and what a
 * rate may show for it (issue 12, faults 1 and 6). */
#include "tl-test.h"

#include <math.h>

#include "cgroup.h"
#include "cgroup-parse.h"
#include "procparse.h"
#include "snapshot.h"
#include "threads.h"
#include "thread-rates.h"

/* A set of one thread at time t with the given schedstat and state. */
static void one(struct thread_set *s, struct thread_sample *v, double t, uint64_t run,
		uint64_t wait, char state)
{
	memset(v, 0, sizeof(*v));
	v->pid = 100;
	v->tid = 100;
	memcpy(v->name, "spin", 5);
	v->name_len = 4;
	v->state = state;
	v->starttime = 42;
	v->run_ns = run;
	v->wait_ns = wait;
	v->slices = run / 1000;
	s->time = t;
	s->v = v;
	s->n = s->cap = 1;
	s->nprocs = 1;
}

static struct thread_rate rate(uint64_t run0, uint64_t wait0, char st0, uint64_t run1,
			       uint64_t wait1, char st1, double dt)
{
	struct thread_set a, b;
	struct thread_sample va, vb;
	one(&a, &va, 10.0, run0, wait0, st0);
	one(&b, &vb, 10.0 + dt, run1, wait1, st1);
	struct thread_rate *out = NULL, r;
	size_t cap = 0;
	assert_int_equal(thread_rates(&a, &b, &out, &cap), 1);
	r = out[0];
	free(out);
	return r;
}

static void assert_bounded(const struct thread_rate *r)
{
	assert_true(r->cpu_pct >= 0 && r->cpu_pct <= 100.0);
	assert_true(r->wait_pct >= 0 && r->wait_pct <= 100.0);
	assert_true(r->cpu_pct + r->wait_pct <= 100.0 + 1e-9);
	assert_true(r->user_pct + r->sys_pct <= r->cpu_pct + 1e-9);
}

/* Starved: runnable all along, schedstat unchanged: it waited the interval. */
static void starved_waits(void **state)
{
	(void)state;
	struct thread_rate r = rate(5000000, 1000, 'R', 5000000, 1000, 'R', 0.1);
	assert_bounded(&r);
	assert_true(fabs(r.wait_pct - 100.0) < 1e-9);
	assert_true(r.cpu_pct == 0);
	/* asleep at one end: idle, not waiting */
	r = rate(5000000, 1000, 'S', 5000000, 1000, 'R', 0.1);
	assert_true(r.wait_pct == 0);
}

/* The wait of 2.5 s lands in one 0.1 s interval when the thread finally
 * runs: the kernel's 2,505 % becomes at most what the interval holds. */
static void landing_wait_bounded(void **state)
{
	(void)state;
	struct thread_rate r = rate(0, 0, 'R', 1000000, 2500000000ull, 'R', 0.1);
	assert_bounded(&r);
	assert_true(fabs(r.cpu_pct - 1.0) < 1e-6);
	assert_true(fabs(r.wait_pct - 99.0) < 1e-6);
}

/* Under churn, run may exceed the wall interval a little (the clock and
 * schedstat are read at different moments): never above 100 %. */
static void churn_run_bounded(void **state)
{
	(void)state;
	struct thread_rate r = rate(0, 0, 'R', 183000000, 0, 'R', 0.1);
	assert_false(r.is_reset);
	assert_bounded(&r);
	assert_true(r.cpu_pct == 100.0);
}

/* A counter that jumps to 2^64-1 is no rate at all: the sample is dropped
 * as a reset, not shown as 9.2e12 % nor as a full CPU. */
static void jump_is_reset(void **state)
{
	(void)state;
	struct thread_rate r = rate(1000, 0, 'R', UINT64_MAX, 0, 'R', 0.1);
	assert_true(r.is_reset);
	assert_true(r.cpu_pct == 0 && r.wait_pct == 0 && r.user_pct == 0);
	r = rate(1000, 0, 'S', 1000 + 10000000000ull, 0, 'S', 1.0); /* 10 s in 1 s */
	assert_true(r.is_reset);
	assert_true(r.cpu_pct == 0);
	/* and back down the next time: a counter that fell counts as no change */
	r = rate(UINT64_MAX, 0, 'S', 2000, 0, 'S', 0.1);
	assert_bounded(&r);
	assert_true(r.cpu_pct == 0);
}

/* Every combination of deltas stays within the interval. */
static void sweep_bounded(void **state)
{
	(void)state;
	static const uint64_t d[] = {0,		1,	    1000000,	   99999999,	  100000000,
				     120000000, 2000000000, 4000000000ull, UINT64_MAX / 2};
	static const char st[] = {'R', 'S', 'D'};
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		for (size_t k = 0; k < sizeof(d) / sizeof(d[0]); k++)
			for (size_t s = 0; s < 3; s++) {
				struct thread_rate r =
				    rate(1000, 1000, st[s], 1000 + d[i], 1000 + d[k], st[s], 0.1);
				assert_bounded(&r);
			}
}

/* stat field 39 of 99999999999 is no CPU: unknown (-1), not a wrapped int. */
static void huge_cpu_field(void **state)
{
	(void)state;
	const char line[] = "7 (x) R 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 99 0 0 0 0 0 0 0 0 0 "
			    "0 0 0 0 0 0 17 99999999999 0 0 0 0 0\n";
	struct stat_line st;
	assert_int_equal(procparse_stat_line(line, sizeof(line) - 1, &st), 0);
	assert_int_equal(st.processor, -1);
	const char ok[] = "7 (x) R 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 99 0 0 0 0 0 0 0 0 0 "
			  "0 0 0 0 0 0 17 8191 0 0 0 0 0\n";
	assert_int_equal(procparse_stat_line(ok, sizeof(ok) - 1, &st), 0);
	assert_int_equal(st.processor, 8191);
}

/* cpu.stat counters that jump: no throttled % above 100, no rate at all. */
static void throttle_jump_dropped(void **state)
{
	(void)state;
	struct cgroup_cpustat a, b;
	struct throttle_rate t;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.has_periods = b.has_periods = true;
	a.nr_periods = 100;
	b.nr_periods = 110;
	b.nr_throttled = UINT64_MAX;
	cgroup_parse_throttle_rate(&a, &b, 1.0, &t);
	assert_false(t.valid);
	b.nr_throttled = 5;
	b.throttled_s = 0.5;
	cgroup_parse_throttle_rate(&a, &b, 1.0, &t);
	assert_true(t.valid);
	assert_true(fabs(t.throttled_pct - 50.0) < 1e-9);
	b.throttled_s = 1.8e13; /* throttled_time of 2^64-1 ns */
	cgroup_parse_throttle_rate(&a, &b, 1.0, &t);
	assert_false(t.valid);
}

/* Plain shares, exactly: over 1 s a thread ran 0.3 s and waited 0.5 s in
 * the run queue: CPU 30 %, wait 50 % (a rate code that halves or doubles
 * either, or swaps them, fails here, not only in a live test). */
/* The rates of two snapshots of process 100 a second apart: its leader
 * (idle) and a thread that ran 0.5 s; its whole run grew by gained ns;
 * the second leader started at start1. */
static double unseen_of(uint64_t gained, uint64_t start1)
{
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	struct thread_sample va[2], vb[2];
	one(&a.threads, &va[0], 10.0, 1000000000u, 0, 'S');
	one(&b.threads, &vb[0], 11.0, 1000000000u, 0, 'S');
	va[1] = va[0];
	va[1].tid = 101;
	va[1].run_ns = 2000000000u;
	vb[1] = va[1];
	vb[1].run_ns = 2500000000u;
	vb[0].starttime = start1;
	va[0].proc_run_ns = 5000000000u;
	vb[0].proc_run_ns = 5000000000u + gained;
	a.threads.n = b.threads.n = 2;
	a.time = 10.0;
	b.time = 11.0;
	struct snapshot_rates r;
	snapshot_rates_init(&r);
	snapshot_rates(&a, &b, &r);
	double u = r.unseen_cpu;
	assert_true(fabs(r.total_cpu_pct - 50) < 1e-6);
	snapshot_rates_free(&r);
	return u;
}

/* A thread that started and ended between two reads is in neither: its
 * run is what the process's whole run gained beyond its threads'.  A busy
 * process of such threads once read as idle. */
static void unseen_threads(void **state)
{
	(void)state;
	assert_true(fabs(unseen_of(800000000u, 42) - 0.3) < 1e-6);
	/* within the total's rounding (two clock ticks): nothing */
	assert_true(unseen_of(510000000u, 42) == 0);
	/* less than the threads ran (the total to a tick): nothing */
	assert_true(unseen_of(400000000u, 42) == 0);
	/* another process under the PID: nothing */
	assert_true(unseen_of(800000000u, 43) == 0);
}

static void plain_shares(void **state)
{
	(void)state;
	struct thread_rate r =
	    rate(1000000000ull, 2000000000ull, 'R', 1300000000ull, 2500000000ull, 'R', 1.0);
	assert_bounded(&r);
	assert_true(fabs(r.cpu_pct - 30.0) < 1e-6);
	assert_true(fabs(r.wait_pct - 50.0) < 1e-6);
	/* Over 0.5 s the same counters are twice the share. */
	r = rate(0, 0, 'R', 100000000ull, 200000000ull, 'R', 0.5);
	assert_true(fabs(r.cpu_pct - 20.0) < 1e-6);
	assert_true(fabs(r.wait_pct - 40.0) < 1e-6);
}

/* Throttling, exactly: 25 of 100 periods, 0.4 s throttled over 2 s. */
static void throttle_shares(void **state)
{
	(void)state;
	struct cgroup_cpustat a, b;
	struct throttle_rate t;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.has_periods = b.has_periods = true;
	a.nr_periods = 1000;
	a.nr_throttled = 100;
	a.throttled_s = 3.0;
	b.nr_periods = 1100;
	b.nr_throttled = 125;
	b.throttled_s = 3.4;
	cgroup_parse_throttle_rate(&a, &b, 2.0, &t);
	assert_true(t.valid);
	assert_true(fabs(t.throttled_pct - 25.0) < 1e-9);
	assert_true(fabs(t.throttled_s_per_s - 0.2) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(starved_waits),	     cmocka_unit_test(landing_wait_bounded),
	    cmocka_unit_test(churn_run_bounded),     cmocka_unit_test(jump_is_reset),
	    cmocka_unit_test(sweep_bounded),	     cmocka_unit_test(huge_cpu_field),
	    cmocka_unit_test(throttle_jump_dropped), cmocka_unit_test(plain_shares),
	    cmocka_unit_test(throttle_shares),	     cmocka_unit_test(unseen_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
