/* test-cgroup-parse.c — table-driven tests of the pure cgroup parsers. */
#include "config.h"

#include "tl-test.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "cgroup.h"
#include "cgroup-parse.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The table row under test, named in every failure message. */
static size_t tcase;

#define EQ_INT(a, b)                                                                               \
	do {                                                                                       \
		long long a_ = (long long)(a), b_ = (long long)(b);                                \
		if (a_ != b_) {                                                                    \
			print_error("# row %zu: %s is %lld, want %lld\n", tcase, #a, a_, b_);      \
			fail();                                                                    \
		}                                                                                  \
	} while (0)

#define EQ_STR(a, b)                                                                               \
	do {                                                                                       \
		if (strcmp((a), (b)) != 0) {                                                       \
			print_error("# row %zu: %s is \"%s\", want \"%s\"\n", tcase, #a, (a),      \
				    (b));                                                          \
			fail();                                                                    \
		}                                                                                  \
	} while (0)

static void check_close(double got, double want, const char *what)
{
	if (fabs(got - want) > 1e-9) {
		print_error("# row %zu: %s is %.12g, want %.12g\n", tcase, what, got, want);
		fail();
	}
}

/* ---- /proc/PID/cgroup ---------------------------------------------------- */

static const struct {
	const char *buf;
	const char *controller; /* NULL: v2 line */
	int rc;
	int id;
	const char *path;
} cgfile_cases[] = {
    {"0::/user.slice/x.scope\n", NULL, 0, 0, "/user.slice/x.scope"},
    {"0::/\n", NULL, 0, 0, "/"},
    {"0::/a:b:c\n", NULL, 0, 0, "/a:b:c"},
    {"0::/no-newline", NULL, 0, 0, "/no-newline"},
    {"4:cpu,cpuacct:/job\n0::/other\n", "cpu", 0, 4, "/job"},
    {"2:cpuacct:/a\n3:cpuset:/b\n1:cpu:/c\n", "cpu", 0, 1, "/c"},
    {"2:cpuacct:/a\n3:cpuset:/b\n", "cpu", -ENOENT, 0, NULL},
    {"3:cpuset:/b\n", "cpuset", 0, 3, "/b"},
    {"1:name=systemd:/x\n0::/y\n", "cpu", -ENOENT, 0, NULL},
    {"1:name=systemd:/x\n", NULL, -ENOENT, 0, NULL},
    {"5:cpu:/k8s/pod:1:ctr\n", "cpu", 0, 5, "/k8s/pod:1:ctr"},
    {"0::/../../sibling\n", NULL, 0, 0, "/../../sibling"},
    {"\n\n0::/blank-lines\n\n", NULL, 0, 0, "/blank-lines"},
    {"", NULL, -ENOENT, 0, NULL},
    {"garbage\n", NULL, -EINVAL, 0, NULL},
    {"1:cpu\n", "cpu", -EINVAL, 0, NULL},      /* truncated: no path */
    {"1:cpu:\n", "cpu", -EINVAL, 0, NULL},     /* empty path */
    {"x:cpu:/a\n", "cpu", -EINVAL, 0, NULL},   /* id not a number */
    {"0::relative\n", NULL, -EINVAL, 0, NULL}, /* path must be absolute */
    {"0::/ok\n7:cpu\n", NULL, -EINVAL, 0, NULL},
};

static void test_cgroup_file(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(cgfile_cases); i++) {
		struct cgroup_line l;
		memset(&l, 0x5a, sizeof(l));
		int rc =
		    cgroup_parse_file_find(cgfile_cases[i].buf, cgfile_cases[i].controller, &l);
		tcase = i;
		EQ_INT(rc, cgfile_cases[i].rc);
		if (rc == 0) {
			EQ_INT(l.id, cgfile_cases[i].id);
			EQ_STR(l.path, cgfile_cases[i].path);
		}
	}
	/* The header's bool form is the same search for "cpu" / "0::". */
	struct cgroup_line l;
	EQ_INT(cgroup_parse_file("2:cpuacct:/a\n1:cpu:/c\n0::/v2\n", true, &l), 0);
	EQ_STR(l.path, "/c");
	EQ_STR(l.controllers, "cpu");
	EQ_INT(cgroup_parse_file("2:cpuacct:/a\n1:cpu:/c\n0::/v2\n", false, &l), 0);
	EQ_STR(l.path, "/v2");
	EQ_STR(l.controllers, "");

	/* Another controller's path longer than we keep does not hide ours;
	 * our own too long is said as such. */
	static char big[2 * CGROUP_PATH_MAX + 64];
	char longpath[CGROUP_PATH_MAX + 10];
	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	snprintf(big, sizeof(big), "3:memory:%s\n1:cpu:/mine\n", longpath);
	EQ_INT(cgroup_parse_file(big, true, &l), 0);
	EQ_STR(l.path, "/mine");
	snprintf(big, sizeof(big), "1:cpu:%s\n", longpath);
	EQ_INT(cgroup_parse_file(big, true, &l), -ENAMETOOLONG);
}

/* ---- mountinfo ----------------------------------------------------------- */

#define MI_PROC "22 30 0:20 / /proc rw,nosuid shared:12 - proc proc rw\n"

static const struct {
	const char *buf;
	int version;
	int rc;
	const char *root, *mountpoint;
} mi_cases[] = {
    {MI_PROC "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n", 2, 0, "/",
     "/sys/fs/cgroup/unified"},
    {MI_PROC "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n", 1, 0, "/",
     "/sys/fs/cgroup/cpu"},
    /* optional fields before the separator */
    {"28 25 0:25 / /sys/fs/cgroup/cpu,cpuacct rw shared:9 master:3 - cgroup cgroup "
     "rw,cpu,cpuacct\n",
     1, 0, "/", "/sys/fs/cgroup/cpu,cpuacct"},
    /* cpuacct and cpuset alone are not the cpu controller */
    {"33 31 0:30 / /a rw - cgroup cgroup rw,cpuacct\n34 31 0:31 / /b rw - cgroup cgroup "
     "rw,cpuset\n",
     1, -ENOENT, NULL, NULL},
    {"32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n", 2, -ENOENT, NULL, NULL},
    {"41 31 0:38 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", 1, -ENOENT, NULL, NULL},
    /* octal escapes in root and mount point */
    {"26 30 0:23 /a\\040b /run/cg\\040root\\011x rw - cgroup2 cgroup2 rw\n", 2, 0, "/a b",
     "/run/cg root\tx"},
    {"26 30 0:23 / /back\\134slash rw - cgroup2 cgroup2 rw\n", 2, 0, "/", "/back\\slash"},
    /* namespace: the mount's root is a sub-tree */
    {"26 30 0:23 /kubepods/pod1 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n", 2, 0, "/kubepods/pod1",
     "/sys/fs/cgroup"},
    /* malformed lines are skipped, a later good one is found */
    {"26 30 0:23 / /x rw cgroup2 cgroup2 rw\n27 30 0:24 / /y rw -\n28 30 0:25 / /z rw - "
     "cgroup2 cgroup2 rw",
     2, 0, "/", "/z"},
    {"26 30 0:23 / /sys/fs/cgroup rw - cgroup2", 2, 0, "/", "/sys/fs/cgroup"},
    {"26 30 0:23 / /sys/fs/cgroup rw - cgroup cgroup\n", 1, -ENOENT, NULL, NULL},
    {"26 30 0:23\n", 2, -ENOENT, NULL, NULL},
    {"", 2, -ENOENT, NULL, NULL},
    {"41 31 0:38 / /u rw - cgroup2 cgroup2 rw\n", 3, -EINVAL, NULL, NULL},
};

static void test_mountinfo(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(mi_cases); i++) {
		struct cgroup_mount m;
		memset(&m, 0, sizeof(m));
		tcase = i;
		int rc = cgroup_parse_mountinfo(mi_cases[i].buf, mi_cases[i].version, &m);
		EQ_INT(rc, mi_cases[i].rc);
		if (rc == 0) {
			EQ_INT(m.version, mi_cases[i].version);
			EQ_STR(m.root, mi_cases[i].root);
			EQ_STR(m.mountpoint, mi_cases[i].mountpoint);
		}
	}
	struct cgroup_mount m;
	EQ_INT(cgroup_parse_mountinfo_find("1 2 0:1 / /cs rw - cgroup cgroup rw,cpuset\n", "cpuset",
					   &m),
	       0);
	EQ_STR(m.mountpoint, "/cs");
}

/* ---- quota --------------------------------------------------------------- */

static const struct {
	const char *buf;
	int rc;
	double cpus;
	uint64_t period;
} cpumax_cases[] = {
    {"max 100000\n", 0, -1, 100000},
    {"50000 100000\n", 0, 0.5, 100000},
    {"25000 100000\n", 0, 0.25, 100000},
    {"150000 100000", 0, 1.5, 100000},
    {"100000 200000\n", 0, 0.5, 200000},
    {"1000 1000\n", 0, 1.0, 1000},
    {"max\n", -EINVAL, 0, 0},
    {"50000\n", -EINVAL, 0, 0},
    {"50000 \n", -EINVAL, 0, 0},
    {"50000 0\n", -EINVAL, 0, 0},
    {"0 100000\n", -EINVAL, 0, 0},
    {"-1 100000\n", -EINVAL, 0, 0},
    {"maxi 100000\n", -EINVAL, 0, 0},
    {"50000 100000 7\n", -EINVAL, 0, 0},
    {"5e4 100000\n", -EINVAL, 0, 0},
    {"99999999999999999999999 100000\n", -EINVAL, 0, 0},
    {"", -EINVAL, 0, 0},
};

static void test_cpu_max(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(cpumax_cases); i++) {
		double cpus = 123;
		uint64_t period = 7;
		tcase = i;
		int rc = cgroup_parse_cpu_max(cpumax_cases[i].buf, &cpus, &period);
		EQ_INT(rc, cpumax_cases[i].rc);
		if (rc == 0) {
			check_close(cpus, cpumax_cases[i].cpus, "cpus");
			EQ_INT(period, cpumax_cases[i].period);
		} else {
			check_close(cpus, 123, "cpus untouched on error");
		}
	}
}

static const struct {
	const char *quota, *period;
	int rc;
	double cpus;
	uint64_t period_us;
} cfs_cases[] = {
    {"-1\n", "100000\n", 0, -1, 100000},      {"50000\n", "100000\n", 0, 0.5, 100000},
    {"25000\n", "100000\n", 0, 0.25, 100000}, {"250000\n", "100000\n", 0, 2.5, 100000},
    {"-2\n", "100000\n", -EINVAL, 0, 0},      {"0\n", "100000\n", -EINVAL, 0, 0},
    {"50000\n", "0\n", -EINVAL, 0, 0},	      {"50000\n", "\n", -EINVAL, 0, 0},
    {"\n", "100000\n", -EINVAL, 0, 0},	      {"-\n", "100000\n", -EINVAL, 0, 0},
    {"50000x\n", "100000\n", -EINVAL, 0, 0},  {"-1\n", "", -EINVAL, 0, 0},
};

static void test_cfs(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(cfs_cases); i++) {
		double cpus = 0;
		uint64_t period = 0;
		tcase = i;
		int rc = cgroup_parse_cfs(cfs_cases[i].quota, cfs_cases[i].period, &cpus, &period);
		EQ_INT(rc, cfs_cases[i].rc);
		if (rc == 0) {
			check_close(cpus, cfs_cases[i].cpus, "cpus");
			EQ_INT(period, cfs_cases[i].period_us);
		}
	}
}

/* ---- cpu.stat ------------------------------------------------------------ */

static const struct {
	const char *buf;
	int version;
	int rc;
	bool has_periods;
	uint64_t periods, throttled;
	double throttled_s, usage_s;
} stat_cases[] = {
    {"usage_usec 2000000\nuser_usec 1\nsystem_usec 1\nnr_periods 400\nnr_throttled "
     "100\nthrottled_usec 1500000\nnr_bursts 0\nburst_usec 0\n",
     2, 0, true, 400, 100, 1.5, 2.0},
    {"nr_periods 1000\nnr_throttled 250\nthrottled_time 2500000000\nnr_bursts 0\n", 1, 0, true,
     1000, 250, 2.5, 0},
    /* units differ by version: a v1 "throttled_usec" is not read, nor v2 "throttled_time" */
    {"nr_periods 1\nthrottled_usec 5\n", 1, 0, true, 1, 0, 0, 0},
    {"nr_periods 1\nthrottled_time 5\n", 2, 0, true, 1, 0, 0, 0},
    /* v2 without the cpu controller: usage only */
    {"usage_usec 42308300\nuser_usec 21231481\nsystem_usec 21076818\n", 2, 0, false, 0, 0, 0,
     42.3083},
    {"nr_periods 0\nnr_throttled 0\nthrottled_time 0", 1, 0, true, 0, 0, 0, 0},
    {"nr_periods 10\nnr_thr", 1, -EINVAL, false, 0, 0, 0, 0},	     /* truncated key */
    {"nr_periods 10\nnr_throttled ", 1, -EINVAL, false, 0, 0, 0, 0}, /* truncated value */
    {"nr_periods x\n", 1, -EINVAL, false, 0, 0, 0, 0},
    {"nr_periods 5 6\n", 1, -EINVAL, false, 0, 0, 0, 0},
    {"nr_periods -5\n", 2, -EINVAL, false, 0, 0, 0, 0},
    {"", 2, -EINVAL, false, 0, 0, 0, 0},
    {"nr_periods 1\n", 3, -EINVAL, false, 0, 0, 0, 0},
};

static void test_cpustat(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(stat_cases); i++) {
		struct cgroup_cpustat s;
		tcase = i;
		int rc = cgroup_parse_cpustat(stat_cases[i].buf, stat_cases[i].version, &s);
		EQ_INT(rc, stat_cases[i].rc);
		if (rc != 0)
			continue;
		EQ_INT(s.has_periods, stat_cases[i].has_periods);
		EQ_INT(s.nr_periods, stat_cases[i].periods);
		EQ_INT(s.nr_throttled, stat_cases[i].throttled);
		check_close(s.throttled_s, stat_cases[i].throttled_s, "throttled_s");
		check_close(s.usage_s, stat_cases[i].usage_s, "usage_s");
	}
}

static void test_throttle_rate(void **state)
{
	(void)state;
	struct cgroup_cpustat a = {true, 100, 10, 1.0, 0}, b = {true, 120, 20, 1.5, 0};
	struct throttle_rate t;
	cgroup_parse_throttle_rate(&a, &b, 2.0, &t);
	assert_true(t.valid);
	check_close(t.throttled_pct, 50.0, "pct");
	check_close(t.throttled_s_per_s, 0.25, "s/s");
	/* no new periods: 0 %, still valid */
	cgroup_parse_throttle_rate(&b, &b, 1.0, &t);
	assert_true(t.valid);
	check_close(t.throttled_pct, 0, "pct idle");
	check_close(t.throttled_s_per_s, 0, "s/s idle");
	/* without periods (no cpu controller) the rate is not known */
	struct cgroup_cpustat c = {false, 0, 0, 0, 3.0};
	cgroup_parse_throttle_rate(&c, &b, 1.0, &t);
	assert_false(t.valid);
	cgroup_parse_throttle_rate(&a, &c, 1.0, &t);
	assert_false(t.valid);
	/* counters going back (cgroup re-made) or no time passing */
	cgroup_parse_throttle_rate(&b, &a, 1.0, &t);
	assert_false(t.valid);
	cgroup_parse_throttle_rate(&a, &b, 0.0, &t);
	assert_false(t.valid);
}

/* ---- PSI ----------------------------------------------------------------- */

static const struct {
	const char *buf;
	int rc;
	double some10, some60, some300;
	uint64_t some_total;
	bool has_full;
	double full10;
	uint64_t full_total;
} psi_cases[] = {
    {"some avg10=2.71 avg60=0.64 avg300=0.65 total=4775012\nfull avg10=0.10 avg60=0.00 "
     "avg300=0.00 total=99\n",
     0, 2.71, 0.64, 0.65, 4775012, true, 0.10, 99},
    {"some avg10=100.00 avg60=12.5 avg300=0 total=0\n", 0, 100.0, 12.5, 0, 0, false, 0, 0},
    {"some avg10=0.00 avg60=0.00 avg300=0.00 total=1", 0, 0, 0, 0, 1, false, 0, 0},
    {"some avg10=1.00 avg60=0.00 avg300=0.00\n", -EINVAL, 0, 0, 0, 0, false, 0, 0},
    {"some avg10=1.00 avg60=", -EINVAL, 0, 0, 0, 0, false, 0, 0},
    {"some avg10=1,00 avg60=0.00 avg300=0.00 total=1\n", -EINVAL, 0, 0, 0, 0, false, 0, 0},
    {"some avg10=1. avg60=0.00 avg300=0.00 total=1\n", -EINVAL, 0, 0, 0, 0, false, 0, 0},
    {"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", -EINVAL, 0, 0, 0, 0, false, 0, 0},
    {"some avg60=0.00 avg10=0.00 avg300=0.00 total=0\n", -EINVAL, 0, 0, 0, 0, false, 0, 0},
    {"bogus\n", -EINVAL, 0, 0, 0, 0, false, 0, 0},
    {"", -EINVAL, 0, 0, 0, 0, false, 0, 0},
};

static void test_psi(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(psi_cases); i++) {
		struct psi p;
		memset(&p, 0, sizeof(p));
		tcase = i;
		int rc = cgroup_parse_psi(psi_cases[i].buf, &p);
		EQ_INT(rc, psi_cases[i].rc);
		if (rc != 0) {
			assert_false(p.available);
			continue;
		}
		assert_true(p.available);
		check_close(p.some_avg10, psi_cases[i].some10, "some avg10");
		check_close(p.some_avg60, psi_cases[i].some60, "some avg60");
		check_close(p.some_avg300, psi_cases[i].some300, "some avg300");
		EQ_INT(p.some_total_us, psi_cases[i].some_total);
		EQ_INT(p.has_full, psi_cases[i].has_full);
		check_close(p.full_avg10, psi_cases[i].full10, "full avg10");
		EQ_INT(p.full_total_us, psi_cases[i].full_total);
	}
}

/* ---- cpu lists ----------------------------------------------------------- */

static const struct {
	const char *buf;
	int count;
} cpulist_cases[] = {
    {"0-3\n", 4},
    {"0\n", 1},
    {"0-3,8,10-11\n", 7},
    {"0,2", 2},
    {"5-5", 1},
    {"\n", 0},
    {"", 0},
    {"3-1", -EINVAL},
    {"0-", -EINVAL},
    {"0,", -EINVAL},
    {",0", -EINVAL},
    {"a", -EINVAL},
    {"0-3x", -EINVAL},
    {"0 1", -EINVAL},
    {"0-99999999", -EINVAL},
    {"0-1023\n", 1024},
};

static void test_cpulist(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(cpulist_cases); i++) {
		tcase = i;
		EQ_INT(cgroup_parse_cpulist_count(cpulist_cases[i].buf), cpulist_cases[i].count);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cgroup_file), cmocka_unit_test(test_mountinfo),
	    cmocka_unit_test(test_cpu_max),	cmocka_unit_test(test_cfs),
	    cmocka_unit_test(test_cpustat),	cmocka_unit_test(test_throttle_rate),
	    cmocka_unit_test(test_psi),		cmocka_unit_test(test_cpulist),
	};
	return cmocka_run_group_tests_name("cgroup-parse", tests, NULL, NULL);
}
