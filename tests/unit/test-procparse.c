/* test-procparse.c — per-task /proc parsers, the thread sampler against a
 * fixture tree, and thread_rates() on hand-made samples. */
#include "config.h"

#include "tl-test.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procparse.h"
#include "sysroot.h"
#include "threads.h"
#include "thread-set.h"
#include "thread-sampler.h"
#include "thread-rates.h"
#include "tl-proc.h"
#include "tl-rates.h"

static void stat_names(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		size_t len;
	} cases[] = {
	    {"bash", 4}, {"a) b", 4}, {"x) S 1 2 (", 10}, {"my thread name", 14}, {"a\nb", 3},
	    {"", 0},	 {"((x", 3},  {")", 1},		  {"\xff\x01", 2},
	};
	char buf[1024];
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		size_t len =
		    make_stat(buf, sizeof(buf), 77 + (int)i, cases[i].name, cases[i].len, 5000 + i);
		struct stat_line st;
		assert_int_equal(procparse_stat_line(buf, len, &st), 0);
		assert_int_equal(st.pid, 77 + (int)i);
		assert_int_equal(st.name_len, cases[i].len);
		assert_memory_equal(st.name, cases[i].name, cases[i].len);
		assert_int_equal(st.name[st.name_len], '\0');
		assert_int_equal(st.state, 'S');
		assert_int_equal(st.ppid, 4);
		assert_int_equal(st.utime, 14);
		assert_int_equal(st.stime, 15);
		assert_int_equal(st.num_threads, 20);
		assert_int_equal(st.starttime, 5000 + i);
		assert_int_equal(st.processor, 1);
	}
}

static void stat_long_name_is_cut(void **state)
{
	(void)state;
	char name[200], buf[1024];
	memset(name, 'n', sizeof(name));
	size_t len = make_stat(buf, sizeof(buf), 5, name, sizeof(name), 9);
	struct stat_line st;
	assert_int_equal(procparse_stat_line(buf, len, &st), 0);
	assert_int_equal(st.name_len, TASK_NAME_MAX - 1);
	assert_int_equal(st.starttime, 9);
}

/* Every prefix that ends before field 39 is truncated. */
static void stat_truncated(void **state)
{
	(void)state;
	char buf[1024];
	size_t len = make_stat(buf, sizeof(buf), 42, "a) b", 4, 1234);
	struct stat_line st;
	assert_int_equal(procparse_stat_line(buf, len, &st), 0);
	const char *f39 = strstr(buf, " 38 1 ");
	assert_non_null(f39);
	size_t need = (size_t)(f39 - buf) + 5; /* through field 39's digit */
	assert_int_equal(procparse_stat_line(buf, need, &st), 0);
	for (size_t k = 0; k < need; k++)
		assert_int_equal(procparse_stat_line(buf, k, &st), -EINVAL);
}

static void stat_malformed(void **state)
{
	(void)state;
	static const char *bad[] = {
	    "",
	    "abc",
	    "12 (x",
	    "12 x) S 1",
	    "(x) S 1 2 3",
	    "0 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 "
	    "30 "
	    "31 32 33 34 35 36",
	    "12 (x)S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 "
	    "30 31 32 33 34 35 36",
	    "12 (x) S 1 2 3 4 5 6 7 8 9 10 abc 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 "
	    "29 "
	    "30 31 32 33 34 35 36",
	};
	struct stat_line st;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(procparse_stat_line(bad[i], strlen(bad[i]), &st), -EINVAL);
}

/* The kernel's own line for this process. */
static void stat_self(void **state)
{
	(void)state;
	char buf[4096];
	int fd = open("/proc/self/stat", O_RDONLY);
	assert_true(fd >= 0);
	ssize_t n = sysroot_pread_all(fd, buf, sizeof(buf));
	close(fd);
	assert_true(n > 0);
	struct stat_line st;
	assert_int_equal(procparse_stat_line(buf, (size_t)n, &st), 0);
	assert_int_equal(st.pid, getpid());
	assert_int_equal(st.ppid, getppid());
	assert_int_equal(st.state, 'R');
	assert_true(st.num_threads >= 1);
	assert_true(st.starttime > 0);
}

static void schedstat_cases(void **state)
{
	(void)state;
	struct schedstat ss;
	assert_int_equal(procparse_schedstat("123456789 42 7\n", &ss), 0);
	assert_int_equal(ss.run_ns, 123456789);
	assert_int_equal(ss.wait_ns, 42);
	assert_int_equal(ss.slices, 7);
	assert_int_equal(procparse_schedstat("18446744073709551615 0 0", &ss), 0);
	assert_true(ss.run_ns == UINT64_MAX);
	static const char *bad[] = {"",	      "1 2",	 "1 2\n",
				    "a b c",  "1 2 3 4", "-1 2 3",
				    "1 2 3x", "1,2,3",	 "18446744073709551616 1 1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(procparse_schedstat(bad[i], &ss), -EINVAL);
}

static void status_cases(void **state)
{
	(void)state;
	struct status_info si;
	const char *ok = "Name:\tw) x\\ny\nState:\tR (running)\nTgid:\t4242\nPid:\t4243\n"
			 "Cpus_allowed:\tf\nCpus_allowed_list:\t0-3,8\n"
			 "voluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3000\n";
	assert_int_equal(procparse_status(ok, &si), 0);
	assert_int_equal(si.tgid, 4242);
	assert_int_equal(si.vcsw, 12);
	assert_int_equal(si.ivcsw, 3000);
	assert_string_equal(si.cpus_allowed_list, "0-3,8");

	/* Tgid and Cpus_allowed_list are optional; the last line may lack '\n'. */
	assert_int_equal(procparse_status("voluntary_ctxt_switches: 1\n"
					  "nonvoluntary_ctxt_switches: 2",
					  &si),
			 0);
	assert_int_equal(si.tgid, 0);
	assert_string_equal(si.cpus_allowed_list, "");
	assert_int_equal(si.ivcsw, 2);

	static const char *bad[] = {
	    "",
	    "Tgid:\t1\nvoluntary_ctxt_switches:\t5\n",
	    "voluntary_ctxt_switches:\tabc\nnonvoluntary_ctxt_switches:\t1\n",
	    "voluntary_ctxt_switches:\t5 6\nnonvoluntary_ctxt_switches:\t1\n",
	    "Tgid:\tx\nvoluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\t1\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(procparse_status(bad[i], &si), -EINVAL);

	char buf[8192];
	int fd = open("/proc/self/status", O_RDONLY);
	assert_true(fd >= 0);
	assert_true(sysroot_pread_all(fd, buf, sizeof(buf)) > 0);
	close(fd);
	assert_int_equal(procparse_status(buf, &si), 0);
	assert_int_equal(si.tgid, getpid());
	assert_true(si.cpus_allowed_list[0] != '\0');

	/* The switch counts alone, found from the end: the same as procparse_status. */
	const char *same[] = {
	    buf, ok, "voluntary_ctxt_switches: 1\nnonvoluntary_ctxt_switches: 2",
	    "nonvoluntary_ctxt_switches:\t7\nvoluntary_ctxt_switches:\t8\nX:\t1\n"};
	for (size_t i = 0; i < sizeof(same) / sizeof(*same); i++) {
		uint64_t v = 0, iv = 0;
		assert_int_equal(procparse_status(same[i], &si), 0);
		assert_int_equal(procparse_status_switches(same[i], strlen(same[i]), &v, &iv), 0);
		assert_true(v == si.vcsw && iv == si.ivcsw);
	}
	static const char *bad_sw[] = {
	    "", "voluntary_ctxt_switches:\t5\n",
	    "voluntary_ctxt_switches:\t5 6\nnonvoluntary_ctxt_switches:\t1\n",
	    "voluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\tx\n",
	    "xvoluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\t1\n"};
	uint64_t v, iv;
	for (size_t i = 0; i < sizeof(bad_sw) / sizeof(*bad_sw); i++)
		assert_int_equal(procparse_status_switches(bad_sw[i], strlen(bad_sw[i]), &v, &iv),
				 -EINVAL);
	static const char nul[] = "voluntary_ctxt_switches:\t5\n\0nonvoluntary_ctxt_switches:\t1\n";
	assert_int_equal(procparse_status_switches(nul, sizeof(nul) - 1, &v, &iv),
			 -EINVAL); /* as procparse_status */
}

/* ---- the sampler over fixture trees ------------------------------------ */

static void sampler_fixture(void **state)
{
	(void)state;
	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/pp-tree", tl_fixtures());
	struct sysroot r;
	assert_int_equal(sysroot_open(&r, dir), 0);
	assert_false(r.live);

	errno = 0;
	assert_null(thread_sampler_new(&r, 4241, false));
	assert_int_equal(errno, ESRCH);
	assert_null(thread_sampler_new(&r, 4242, true));
	assert_int_equal(errno, ENOTSUP);

	struct thread_sampler *ts = thread_sampler_new(&r, 4242, false);
	assert_non_null(ts);
	struct thread_set set;
	thread_set_init(&set);
	assert_int_equal(thread_sampler_sample(ts, &set), 0);
	assert_int_equal(set.n, 2);
	assert_int_equal(set.nprocs, 1);
	assert_int_equal(thread_sampler_fds(ts), 6);

	const struct thread_sample *a = &set.v[0], *b = &set.v[1];
	assert_int_equal(a->tid, 4242);
	assert_int_equal(b->tid, 4243);
	assert_int_equal(a->pid, 4242);
	assert_int_equal(b->pid, 4242);
	assert_string_equal(a->name, "tl-main");
	assert_int_equal(b->name_len, 6);
	assert_memory_equal(b->name, "w) x\ny", 6);
	assert_int_equal(b->state, 'R');
	assert_int_equal(b->cpu, 0);
	assert_int_equal(a->cpu, 1);
	assert_int_equal(b->utime, 700);
	assert_int_equal(b->stime, 10);
	assert_int_equal(b->starttime, 123500);
	assert_int_equal(b->run_ns, 7100000000ULL);
	assert_int_equal(b->wait_ns, 900000000ULL);
	assert_int_equal(b->slices, 4000);
	assert_int_equal(b->vcsw, 12);
	assert_int_equal(b->ivcsw, 3000);

	struct thread_set copy;
	thread_set_init(&copy);
	thread_set_copy(&copy, &set);
	assert_int_equal(copy.n, 2);
	assert_memory_equal(copy.v, set.v, 2 * sizeof(*set.v));

	thread_set_free(&copy);
	thread_set_free(&set);
	thread_sampler_free(ts);
	sysroot_close(&r);
}

/* ---- thread_rates on hand-made samples -------------------------------- */

static struct thread_sample mk(pid_t tid, uint64_t start, uint64_t run, uint64_t wait, uint64_t ut,
			       uint64_t st, uint64_t v, uint64_t iv)
{
	struct thread_sample s = {.pid = 10, .tid = tid, .state = 'S', .starttime = start};
	s.run_ns = run, s.wait_ns = wait, s.utime = ut, s.stime = st, s.vcsw = v, s.ivcsw = iv;
	snprintf(s.name, sizeof(s.name), "t%d", (int)tid);
	s.name_len = strlen(s.name);
	return s;
}

static void rates_handmade(void **state)
{
	(void)state;
	struct thread_sample pv[] = {
	    mk(11, 5, 1000000000, 0, 100, 20, 50, 5),
	    mk(12, 5, 0, 0, 30, 10, 0, 0),
	    mk(13, 5, 0, 0, 0, 0, 0, 0),
	    mk(14, 7, 900000000, 0, 10, 0, 0, 0),
	};
	struct thread_sample cv[] = {
	    /* +250 ms run, +100 ms wait, ticks 3:1, +10 vcsw, +5 ivcsw over 0.5 s */
	    mk(11, 5, 1250000000, 100000000, 103, 21, 60, 10),
	    /* +50 ms run and no tick: split by totals 30:10 */
	    mk(12, 5, 50000000, 0, 30, 10, 0, 0),
	    mk(14, 8, 1000, 0, 0, 0, 0, 0), /* reused TID: other start time */
	    mk(15, 9, 1000, 0, 0, 0, 0, 0), /* new */
	};
	struct thread_set prev = {.time = 10.0, .v = pv, .n = 4};
	struct thread_set cur = {.time = 10.5, .v = cv, .n = 4};
	struct thread_rate *r = NULL;
	size_t cap = 0;
	assert_int_equal(thread_rates(&prev, &cur, &r, &cap), 4);
	assert_true(cap >= 4);

	assert_int_equal(r[0].tid, 11);
	assert_false(r[0].is_new);
	assert_float_equal(r[0].cpu_pct, 50.0, 1e-9);
	assert_float_equal(r[0].wait_pct, 20.0, 1e-9);
	assert_float_equal(r[0].user_pct, 37.5, 1e-9);
	assert_float_equal(r[0].sys_pct, 12.5, 1e-9);
	assert_float_equal(r[0].vcsw_per_s, 20.0, 1e-9);
	assert_float_equal(r[0].ivcsw_per_s, 10.0, 1e-9);
	assert_string_equal(r[0].name, "t11");

	assert_false(r[1].is_new);
	assert_float_equal(r[1].cpu_pct, 10.0, 1e-9);
	assert_float_equal(r[1].user_pct, 7.5, 1e-9);
	assert_float_equal(r[1].sys_pct, 2.5, 1e-9);

	for (int i = 2; i < 4; i++) {
		assert_true(r[i].is_new);
		assert_float_equal(r[i].cpu_pct, 0.0, 0);
		assert_float_equal(r[i].wait_pct, 0.0, 0);
	}

	/* No previous sample: every thread is new. */
	assert_int_equal(thread_rates(NULL, &cur, &r, &cap), 4);
	for (int i = 0; i < 4; i++)
		assert_true(r[i].is_new);
	free(r);
}

/* A sample not read this tick (the sched period) carries the rates of its
 * own last read interval; hand-made samples without a read time use the
 * sets' times. */
static void rates_carried(void **state)
{
	(void)state;
	struct thread_sample a = mk(11, 5, 3000000000, 1000000000, 10, 0, 0, 0);
	a.sched_time = 9.0;
	a.run0_ns = 2500000000, a.wait0_ns = 900000000, a.sched_time0 = 8.0;
	struct thread_sample b = a; /* not read again */
	struct thread_sample c = a; /* read 0.5 s later: +400 ms run, +50 ms wait */
	c.run0_ns = a.run_ns, c.wait0_ns = a.wait_ns, c.sched_time0 = a.sched_time;
	c.run_ns += 400000000, c.wait_ns += 50000000, c.sched_time = 9.5;
	struct thread_set prev = {.time = 9.2, .v = &a, .n = 1};
	struct thread_set cur = {.time = 9.4, .v = &b, .n = 1};
	struct thread_rate *r = NULL;
	size_t cap = 0;
	assert_int_equal(thread_rates(&prev, &cur, &r, &cap), 1);
	assert_float_equal(r[0].cpu_pct, 50.0, 1e-9); /* 500 ms over 8.0..9.0 */
	assert_float_equal(r[0].wait_pct, 10.0, 1e-9);
	cur.v = &c;
	cur.time = 9.6;
	assert_int_equal(thread_rates(&prev, &cur, &r, &cap), 1);
	assert_float_equal(r[0].cpu_pct, 80.0, 1e-9); /* 400 ms over 9.0..9.5 */
	assert_float_equal(r[0].wait_pct, 10.0, 1e-9);
	/* No read before: nothing to carry, a rate of 0 rather than a guess. */
	b.sched_time0 = 0;
	cur.v = &b;
	assert_int_equal(thread_rates(&prev, &cur, &r, &cap), 1);
	assert_float_equal(r[0].cpu_pct, 0.0, 0);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(stat_names),     cmocka_unit_test(stat_long_name_is_cut),
	    cmocka_unit_test(stat_truncated), cmocka_unit_test(stat_malformed),
	    cmocka_unit_test(stat_self),      cmocka_unit_test(schedstat_cases),
	    cmocka_unit_test(status_cases),   cmocka_unit_test(sampler_fixture),
	    cmocka_unit_test(rates_handmade), cmocka_unit_test(rates_carried),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
