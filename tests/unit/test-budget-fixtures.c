/* test-budget-fixtures.c — budget_read and the cgroup readers over fixture
 * trees (tests/fixtures/cg-*), one per host layout or kernel quirk.  Every
 * fixture holds proc/4242/{cgroup,mountinfo,status}, the online CPU list
 * and the cgroup files a real host of that kind shows.  budget_read_cached
 * (the machine's ranking) reads the same on every layout, and shares one
 * read of a cgroup's files among its processes, in a tree written here. */
#include "config.h"

#include "tl-test.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "budget.h"
#include "cgroup.h"
#include "cgroup-read.h"
#include "cgroup-parse.h"
#include "cgroup-locate.h"
#include "sampler.h"
#include "tl-fixture.h"

#define PID 4242

struct fx {
	struct sysroot root;
	struct budget b;
	struct cgroup_cpustat st;
	int st_rc;
	struct psi cg_psi, sys_psi;
	enum psi_why why; /* why cg_psi is not the cgroup's */
};

static void check_close(double got, double want, const char *what)
{
	if (fabs(got - want) > 1e-9) {
		print_error("# %s: got %.12g, want %.12g\n", what, got, want);
		fail();
	}
}

/* Opens the fixture and reads everything a sample would: budget, cpu.stat
 * of the CPU cgroup, cgroup PSI (v2 dir) and system PSI. */
static void fx_load(struct fx *f, const char *name)
{
	char dir[4200];
	memset(f, 0, sizeof(*f));
	f->root.fd = -1;
	snprintf(dir, sizeof(dir), "%s/%s", tl_fixtures(), name);
	assert_int_equal(sysroot_open(&f->root, dir), 0);
	assert_false(f->root.live);
	assert_int_equal(budget_read(&f->root, PID, &f->b), 0);
	f->st_rc = cgroup_read_cpustat(&f->root, f->b.loc.dir, f->b.loc.version, &f->st);
	const char *psi = cgroup_read_psi_dir(&f->root, &f->b.loc, &f->why);
	if (psi)
		assert_int_equal(cgroup_read_psi(&f->root, psi, &f->cg_psi), 0);
	assert_int_equal(cgroup_read_psi(&f->root, "proc/pressure/cpu", &f->sys_psi), 0);
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;
	if (f) {
		sysroot_close(&f->root);
		free(f);
	}
	return 0;
}

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(struct fx));
	if (!f)
		return -1;
	f->root.fd = -1; /* sysroot_close must not close descriptor 0 */
	*state = f;
	return 0;
}

static void test_v1(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-v1");
	assert_int_equal(f->b.loc.version, 1);
	assert_string_equal(f->b.loc.path, "/user.slice/app.service");
	assert_string_equal(f->b.loc.dir, "sys/fs/cgroup/cpu,cpuacct/user.slice/app.service");
	assert_string_equal(f->b.loc.mount_dir, "sys/fs/cgroup/cpu,cpuacct");
	assert_string_equal(f->b.loc.v2_dir, "");
	assert_false(f->b.loc.fallback);
	assert_int_equal(f->b.online, 4);
	assert_int_equal(f->b.affinity, 4);
	/* cpuset.effective_cpus (0-2) wins over cpuset.cpus (0-3) */
	assert_int_equal(f->b.cpuset, 3);
	/* the leaf says -1; its parent's 150000/100000 applies */
	assert_true(f->b.quota.controller);
	check_close(f->b.quota.cpus, 1.5, "quota");
	assert_string_equal(f->b.quota.dir, "sys/fs/cgroup/cpu,cpuacct/user.slice");
	assert_int_equal(f->b.quota.period_us, 100000);
	check_close(f->b.effective, 1.5, "effective");
	assert_int_equal(f->b.binding, BUDGET_QUOTA);
	assert_string_equal(f->b.note, "");
	/* v1 throttled_time is ns */
	assert_int_equal(f->st_rc, 0);
	assert_true(f->st.has_periods);
	assert_int_equal(f->st.nr_periods, 1000);
	assert_int_equal(f->st.nr_throttled, 250);
	check_close(f->st.throttled_s, 2.5, "throttled_s");
	/* no v2 mount and no proc/pressure: unavailable, not zero */
	assert_false(f->cg_psi.available);
	assert_false(f->sys_psi.available);
}

static void test_v1_noquota(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-v1-noquota");
	assert_int_equal(f->b.loc.version, 1);
	/* the cpuacct hierarchy (with a decoy quota) is not the cpu one */
	assert_string_equal(f->b.loc.dir, "sys/fs/cgroup/cpu/job");
	assert_true(f->b.quota.controller);
	check_close(f->b.quota.cpus, -1, "quota unlimited");
	assert_string_equal(f->b.quota.dir, "");
	assert_int_equal(f->b.quota.period_us, 100000);
	assert_int_equal(f->b.online, 8);
	assert_int_equal(f->b.affinity, 2);
	/* no cpuset.effective_cpus: cpuset.cpus is read */
	assert_int_equal(f->b.cpuset, 6);
	check_close(f->b.effective, 2, "effective");
	assert_int_equal(f->b.binding, BUDGET_AFFINITY);
	assert_int_equal(f->st_rc, 0);
	assert_true(f->st.has_periods);
	assert_int_equal(f->st.nr_throttled, 0);
}

static void test_v2(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-v2");
	assert_int_equal(f->b.loc.version, 2);
	assert_string_equal(f->b.loc.dir, "sys/fs/cgroup/system.slice/app.service");
	assert_string_equal(f->b.loc.v2_dir, f->b.loc.dir);
	assert_string_equal(f->b.loc.mount_dir, "sys/fs/cgroup");
	check_close(f->b.quota.cpus, 2.5, "quota");
	assert_string_equal(f->b.quota.dir, "sys/fs/cgroup/system.slice/app.service");
	assert_int_equal(f->b.cpuset, 4);
	check_close(f->b.effective, 2.5, "effective");
	assert_int_equal(f->b.binding, BUDGET_QUOTA);
	/* v2 throttled_usec is µs */
	assert_int_equal(f->st.nr_periods, 400);
	assert_int_equal(f->st.nr_throttled, 100);
	check_close(f->st.throttled_s, 1.5, "throttled_s");
	check_close(f->st.usage_s, 40.0, "usage_s");
	assert_true(f->cg_psi.available);
	assert_int_equal(f->why, PSI_WHY_NONE);
	check_close(f->cg_psi.some_avg10, 12.5, "cgroup psi");
	assert_true(f->sys_psi.available);
	check_close(f->sys_psi.some_avg10, 7.25, "system psi");
	/* The root cgroup (no cgroup.type) has the system's pressure, never
	 * shown as a cgroup's. */
	struct cgroup_loc root = f->b.loc;
	snprintf(root.v2_dir, sizeof(root.v2_dir), "sys/fs/cgroup");
	enum psi_why why;
	assert_null(cgroup_read_psi_dir(&f->root, &root, &why));
	assert_int_equal(why, PSI_WHY_ROOT);
}

static void test_v2_max(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-v2-max");
	assert_true(f->b.quota.controller);
	check_close(f->b.quota.cpus, -1, "unlimited");
	assert_string_equal(f->b.quota.dir, "");
	/* online, affinity and cpuset tie at 4: the earliest term binds */
	check_close(f->b.effective, 4, "effective");
	assert_int_equal(f->b.binding, BUDGET_ONLINE);
	/* no cpu.pressure in the cgroup: unavailable; the system's is there */
	assert_false(f->cg_psi.available);
	assert_true(f->sys_psi.available);
	check_close(f->sys_psi.some_avg10, 0, "system psi");
}

static void test_v2_quarter(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-v2-quarter");
	assert_int_equal(f->b.online, 1);
	/* below one CPU: 0.25 stays 0.25, never rounded up to the host */
	check_close(f->b.quota.cpus, 0.25, "quota");
	check_close(f->b.effective, 0.25, "effective");
	assert_int_equal(f->b.binding, BUDGET_QUOTA);
	assert_string_equal(f->b.quota.dir, "sys/fs/cgroup/small");
	check_close(f->st.throttled_s, 0.75, "throttled_s");
}

static void test_v2_parent(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-v2-parent");
	assert_string_equal(f->b.loc.dir, "sys/fs/cgroup/kubepods.slice/pod1.slice/ctr.scope");
	/* leaf max, parent 2.0, grandparent 0.5: the grandparent binds */
	check_close(f->b.quota.cpus, 0.5, "quota");
	assert_string_equal(f->b.quota.dir, "sys/fs/cgroup/kubepods.slice");
	assert_int_equal(f->b.quota.period_us, 200000);
	check_close(f->b.effective, 0.5, "effective");
	assert_int_equal(f->b.binding, BUDGET_QUOTA);
}

/* issue 17 item 8: throttling is read from the cgroup whose quota binds.
 * The leaf's own cpu.stat counts 5 of 20 periods; the grandparent, whose
 * 0.5-CPU quota binds, 30 of 40: a sample reads the grandparent's and names
 * it. */
static void test_v2_parent_throttling(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-v2-parent");
	assert_int_equal(f->st.nr_throttled, 5); /* the leaf's own */
	struct sampler *s = sampler_new(&f->root, PID, false);
	assert_non_null(s);
	struct snapshot snap;
	snapshot_init(&snap);
	assert_int_equal(sampler_sample(s, &snap), 0); /* one thread, 4242 */
	assert_string_equal(snap.stat_dir, "sys/fs/cgroup/kubepods.slice");
	assert_string_equal(snap.stat_name, "/kubepods.slice");
	assert_true(snap.has_cpustat);
	assert_int_equal(snap.cpustat.nr_periods, 40);
	assert_int_equal(snap.cpustat.nr_throttled, 30);
	check_close(snap.cpustat.throttled_s, 3.0, "throttled_s of the binding cgroup");
	/* The lab's case: its own cgroup (the override) sits below the one that
	 * binds; the binding one is still read. */
	sampler_set_cgroup_override(s, "sys/fs/cgroup/kubepods.slice/pod1.slice/ctr.scope", 2);
	assert_int_equal(sampler_sample(s, &snap), 0);
	assert_string_equal(snap.stat_dir, "sys/fs/cgroup/kubepods.slice");
	assert_int_equal(snap.cpustat.nr_throttled, 30);
	/* Where no quota binds above it, the override's own cpu.stat is read. */
	sampler_set_cgroup_override(s, "sys/fs/cgroup/kubepods.slice", 2);
	assert_int_equal(sampler_sample(s, &snap), 0);
	assert_string_equal(snap.stat_dir, "sys/fs/cgroup/kubepods.slice");
	assert_string_equal(snap.stat_name, "");
	snapshot_free(&snap);
	sampler_free(s);
}

static void test_v2_nocpu(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-v2-nocpu");
	assert_int_equal(f->b.loc.version, 2);
	/* cpu.max missing everywhere while cpu.stat exists: no controller */
	assert_false(f->b.quota.controller);
	check_close(f->b.quota.cpus, -1, "unlimited");
	assert_int_equal(f->st_rc, 0);
	assert_false(f->st.has_periods);
	check_close(f->st.usage_s, 4.0, "usage_s");
	struct throttle_rate t;
	cgroup_parse_throttle_rate(&f->st, &f->st, 1.0, &t);
	assert_false(t.valid);
	/* no cpuset file, affinity 2 of 4 online binds */
	assert_int_equal(f->b.cpuset, 0);
	assert_int_equal(f->b.binding, BUDGET_AFFINITY);
	check_close(f->b.effective, 2, "effective");
	assert_false(f->cg_psi.available);
	assert_false(f->sys_psi.available);
}

static void test_hybrid(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-hybrid");
	/* the cpu controller is on v1; the v2 mount serves pressure */
	assert_int_equal(f->b.loc.version, 1);
	assert_string_equal(f->b.loc.path, "/lab");
	assert_string_equal(f->b.loc.dir, "sys/fs/cgroup/cpu/lab");
	assert_string_equal(f->b.loc.mount_dir, "sys/fs/cgroup/cpu");
	assert_string_equal(f->b.loc.v2_dir, "sys/fs/cgroup/unified/lab.scope");
	check_close(f->b.quota.cpus, 0.5, "quota");
	assert_string_equal(f->b.quota.dir, "sys/fs/cgroup/cpu/lab");
	assert_int_equal(f->b.cpuset, 2);
	assert_int_equal(f->b.binding, BUDGET_QUOTA);
	check_close(f->b.effective, 0.5, "effective");
	assert_int_equal(f->st.nr_throttled, 1000);
	check_close(f->st.throttled_s, 0.5, "throttled_s");
	/* The cpu controller's cgroup is on v1: it has no pressure, and the
	 * unified cgroup's (a 45.1 % in lab.scope) is another grouping's. */
	assert_false(f->cg_psi.available);
	assert_int_equal(f->why, PSI_WHY_V1);
	assert_true(f->sys_psi.available);
	/* the unified cgroup has cpu.stat but no cpu.max: usage, no periods */
	struct cgroup_cpustat u;
	assert_int_equal(cgroup_read_cpustat(&f->root, f->b.loc.v2_dir, 2, &u), 0);
	assert_false(u.has_periods);
	check_close(u.usage_s, 1.0, "unified usage");
}

static void test_colon(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-colon");
	assert_string_equal(f->b.loc.path, "/system.slice/run-u7:job:1.scope");
	/* mount point "/run/cg\040root" decoded */
	assert_string_equal(f->b.loc.mount_dir, "run/cg root");
	assert_string_equal(f->b.loc.dir, "run/cg root/system.slice/run-u7:job:1.scope");
	assert_false(f->b.loc.fallback);
	check_close(f->b.quota.cpus, 1.5, "quota");
	assert_int_equal(f->b.binding, BUDGET_QUOTA);
	assert_int_equal(f->st.nr_throttled, 1);
}

static void test_ns(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-ns");
	/* mountinfo root /kubepods/pod1 is stripped from /kubepods/pod1/ctr */
	assert_string_equal(f->b.loc.dir, "sys/fs/cgroup/ctr");
	assert_false(f->b.loc.fallback);
	assert_string_equal(f->b.note, "");
	check_close(f->b.quota.cpus, 0.75, "quota");
	assert_string_equal(f->b.quota.dir, "sys/fs/cgroup/ctr");
	check_close(f->b.effective, 0.75, "effective");
	assert_int_equal(f->st.nr_throttled, 2);
}

/* A cgroup outside what the mount shows (the mount is of the reader's own
 * cgroup namespace): the mount root (the reader's own container, 2.0 CPUs,
 * with pressure) is no ancestor of it, so nothing of it is read. */
static void test_ns_hidden(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-ns-hidden");
	assert_string_equal(f->b.loc.path, "/../../system.slice/other.scope");
	assert_true(f->b.loc.fallback);
	assert_int_equal(f->b.loc.seen, CGROUP_SEEN_HIDDEN);
	assert_string_equal(f->b.loc.dir, "");
	assert_non_null(strstr(f->b.note, "outside what its mount shows"));
	assert_true(f->b.quota.unknown);
	assert_true(f->b.quota.cpus < 0);
	assert_int_not_equal(f->b.binding, BUDGET_QUOTA);
	assert_true(f->st_rc < 0); /* no throttling */
	assert_null(cgroup_read_psi_dir(&f->root, &f->b.loc, &f->why)); /* no pressure */
}

/* A DaemonSet's threadlab (contrib/kubernetes): its own cgroup namespace,
 * the host's tree mounted from four levels above it; a pod's path reads
 * two levels up.  Found where one directory two levels below the mount
 * holds the rest: the container's 2.0, its throttling and pressure, not
 * threadlab's own 0.25 beside it. */
static void test_ns_daemonset(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-ns-daemonset");
	assert_int_equal(f->b.loc.seen, CGROUP_SEEN_OWN);
	assert_string_equal(f->b.loc.dir,
			    "sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/"
			    "kubepods-burstable-pod0b1c.slice/cri-containerd-3f9a.scope");
	check_close(f->b.quota.cpus, 2.0, "the container's quota");
	assert_int_equal(f->b.binding, BUDGET_QUOTA);
	assert_int_equal(f->st_rc, 0);
	assert_int_equal(f->st.nr_throttled, 60);
	check_close(f->cg_psi.some_avg10, 41.5, "the container's pressure");
}

/* A cgroup removed while its process exits: its parent's quota. */
static void test_v2_deleted(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-v2-deleted");
	assert_int_equal(f->b.loc.seen, CGROUP_SEEN_ANCESTOR);
	assert_string_equal(f->b.loc.dir, "sys/fs/cgroup/system.slice");
	check_close(f->b.quota.cpus, 0.5, "the parent's quota");
	assert_non_null(strstr(f->b.note, "was removed"));
}

/* A quota file that does not read is left out, its parent's counts; the
 * root of v2 has no limit ("max"), not "no cpu controller". */
static void test_v2_badmax_and_root(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-v2-badmax");
	check_close(f->b.quota.cpus, 1.5, "the parent's quota");
	assert_true(f->b.quota.controller);
	assert_string_equal(f->b.quota.skipped, "sys/fs/cgroup/system.slice/m.service");
	assert_non_null(strstr(f->b.note, "does not read"));
	/* no cpuset controller below the root: the root's cpuset.cpus.effective */
	assert_int_equal(f->b.cpuset, 4);
	fx_load(f, "cg-v2-root");
	assert_true(f->b.quota.controller);
	assert_false(f->b.quota.unknown);
	assert_true(f->b.quota.cpus < 0);
	assert_string_equal(f->b.note, "");
	/* "0::/" in a container's namespace: its mount's root has a
	 * cgroup.type (the real root has none), so a limit above it may
	 * exist unseen: said */
	fx_load(f, "cg-v2-nsroot");
	check_close(f->b.quota.cpus, 2.0, "the namespace root's quota");
	assert_non_null(strstr(f->b.note, "would not show"));
	/* a cgroup name holding a newline (printed as it is): not parsed,
	 * said so, the quota unknown rather than "no cpu controller" */
	fx_load(f, "cg-v2-newline");
	assert_true(f->b.quota.unknown);
	assert_non_null(strstr(f->b.note, "does not parse"));
}

static void test_ns_missing(void **state)
{
	struct fx *f = *state;
	fx_load(f, "cg-ns-missing");
	assert_true(f->b.loc.fallback);
	assert_string_equal(f->b.loc.dir, "sys/fs/cgroup");
	assert_true(f->b.note[0] != '\0');
	/* the mount root's 3.0, not the unrelated sibling's 0.1 */
	check_close(f->b.quota.cpus, 3.0, "quota");
	check_close(f->b.effective, 3.0, "effective");
	assert_int_equal(f->b.binding, BUDGET_QUOTA);
}

/* A pid with no proc directory has gone. */
static void test_gone(void **state)
{
	struct fx *f = *state;
	char dir[4200];
	struct cgroup_loc loc;
	snprintf(dir, sizeof(dir), "%s/cg-v2", tl_fixtures());
	assert_int_equal(sysroot_open(&f->root, dir), 0);
	assert_int_equal(budget_read(&f->root, 99999, &f->b), -ESRCH);
	assert_int_equal(cgroup_locate(&f->root, 99999, &loc), -ESRCH);
}

/* cpuset of a v1 hierarchy other than cpu, through the public helper. */
static void test_locate_v1_cpuset(void **state)
{
	struct fx *f = *state;
	char dir[4200], d[CGROUP_PATH_MAX];
	bool fb = true;
	snprintf(dir, sizeof(dir), "%s/cg-v1", tl_fixtures());
	assert_int_equal(sysroot_open(&f->root, dir), 0);
	assert_int_equal(cgroup_locate_v1(&f->root, PID, "cpuset", d, sizeof(d), &fb), 0);
	assert_string_equal(d, "sys/fs/cgroup/cpuset/app");
	assert_false(fb);
	assert_int_equal(cgroup_locate_v1(&f->root, PID, "blkio", d, sizeof(d), NULL), -ENOENT);
}

static void test_resolve(void **state)
{
	(void)state;
	struct budget b;
	memset(&b, 0, sizeof(b));
	b.online = 4;
	b.affinity = 4;
	b.cpuset = 0; /* unknown never binds */
	b.quota.cpus = -1;
	budget_resolve(&b);
	assert_int_equal(b.binding, BUDGET_ONLINE);
	check_close(b.effective, 4, "online");
	b.cpuset = 3;
	budget_resolve(&b);
	assert_int_equal(b.binding, BUDGET_CPUSET);
	b.quota.cpus = 3.0; /* tie with cpuset: the earlier term binds */
	budget_resolve(&b);
	assert_int_equal(b.binding, BUDGET_CPUSET);
	b.quota.cpus = 0.1;
	budget_resolve(&b);
	assert_int_equal(b.binding, BUDGET_QUOTA);
	check_close(b.effective, 0.1, "quota");
	assert_string_equal(budget_term_name(BUDGET_QUOTA), "quota");
	assert_string_equal(budget_term_name(BUDGET_AFFINITY), "affinity");
}

/* The two readers agree on what a budget is made of. */
static void check_same_budget(const struct budget *a, const struct budget *b, const char *where)
{
	if (a->online != b->online || a->affinity != b->affinity || a->cpuset != b->cpuset ||
	    a->quota.cpus != b->quota.cpus || a->quota.period_us != b->quota.period_us ||
	    a->quota.controller != b->quota.controller || a->effective != b->effective ||
	    a->binding != b->binding || strcmp(a->quota.dir, b->quota.dir) != 0 ||
	    memcmp(&a->loc, &b->loc, sizeof(a->loc)) != 0 || strcmp(a->note, b->note) != 0) {
		print_error("# %s: budget_read_cached differs: effective %g/%g binding %d/%d "
			    "quota %g/%g cpuset %d/%d dir '%s'/'%s' note '%s'/'%s'\n",
			    where, a->effective, b->effective, a->binding, b->binding,
			    a->quota.cpus, b->quota.cpus, a->cpuset, b->cpuset, a->loc.dir,
			    b->loc.dir, a->note, b->note);
		fail();
	}
}

/* Every layout: the cached reader reads what budget_read reads, the first
 * time (the cgroup's files) and the second (the shared entry). */
static void test_cached_layouts(void **state)
{
	(void)state;
	static const char *const layouts[] = {
	    "cg-colon", "cg-hybrid",	  "cg-ns",	   "cg-ns-hidden",    "cg-v1",
	    "cg-v1-noquota", "cg-v2",	  "cg-v2-huge",	   "cg-v2-max",	      "cg-v2-milli",
	    "cg-v2-nocpu",   "cg-v2-parent", "cg-v2-quarter", "cg-v2-noonline",
	};
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		char dir[4200];
		struct sysroot r;
		struct budget want, got;
		struct budget_cache c;
		snprintf(dir, sizeof(dir), "%s/%s", tl_fixtures(), layouts[i]);
		assert_int_equal(sysroot_open(&r, dir), 0);
		budget_cache_init(&c);
		assert_int_equal(budget_read(&r, PID, &want), 0);
		for (int pass = 0; pass < 2; pass++) {
			assert_int_equal(budget_read_cached(&r, PID, &c, &got), 0);
			check_same_budget(&got, &want, layouts[i]);
		}
		assert_int_equal(c.n, 1);
		assert_int_equal(budget_read_cached(&r, 99999, &c, &got), -ESRCH);
		budget_cache_clear(&c);
		sysroot_close(&r);
	}
}

/* A v2 tree of three processes: 101 and 102 in app.service (quota 1.5),
 * 103 in db.service (quota 0.5). */
static void cached_tree(void)
{
	static const char mi[] = "26 30 0:23 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
	tl_fixture_new("tl-budget-cache");
	tl_put("sys/devices/system/cpu/online", "0-3\n");
	tl_put("sys/fs/cgroup/app.service/cpu.max", "150000 100000\n");
	tl_put("sys/fs/cgroup/db.service/cpu.max", "50000 100000\n");
	for (int pid = 101; pid <= 103; pid++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
		tl_put(rel, "0::/%s\n", pid == 103 ? "db.service" : "app.service");
		snprintf(rel, sizeof(rel), "proc/%d/mountinfo", pid);
		tl_put(rel, "%s", mi);
		snprintf(rel, sizeof(rel), "proc/%d/status", pid);
		tl_put(rel, "Name:\tx\nCpus_allowed_list:\t0-3\n");
	}
}

/* The processes of one cgroup share one read of its files until
 * budget_cache_clear; another cgroup, or a process moved to one, reads
 * its own. */
static void test_cached_shared(void **state)
{
	(void)state;
	struct sysroot r;
	struct budget b;
	struct budget_cache c;
	cached_tree();
	assert_int_equal(sysroot_open(&r, tl_fixture_dir), 0);
	budget_cache_init(&c);
	assert_int_equal(budget_read_cached(&r, 101, &c, &b), 0);
	check_close(b.quota.cpus, 1.5, "101's quota");
	assert_int_equal(b.binding, BUDGET_QUOTA);
	/* The quota changes: 102 shares 101's read, so it sees the old one. */
	tl_put("sys/fs/cgroup/app.service/cpu.max", "300000 100000\n");
	assert_int_equal(budget_read_cached(&r, 102, &c, &b), 0);
	check_close(b.quota.cpus, 1.5, "102's quota, shared with 101");
	assert_int_equal(budget_read_cached(&r, 103, &c, &b), 0);
	check_close(b.quota.cpus, 0.5, "103's own cgroup");
	assert_string_equal(b.quota.dir, "sys/fs/cgroup/db.service");
	assert_int_equal(c.n, 2);
	/* 101 moves to db.service: its next read has that cgroup's terms. */
	tl_put("proc/101/cgroup", "0::/db.service\n");
	assert_int_equal(budget_read_cached(&r, 101, &c, &b), 0);
	check_close(b.quota.cpus, 0.5, "101 after the move");
	/* A new epoch reads the files again. */
	budget_cache_clear(&c);
	assert_int_equal(budget_read_cached(&r, 102, &c, &b), 0);
	check_close(b.quota.cpus, 3.0, "102 after budget_cache_clear");
	budget_cache_clear(&c);
	sysroot_close(&r);
	tl_rm_tree(tl_fixture_dir);
}

#define T(f) cmocka_unit_test_setup_teardown(f, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_v1),
	    T(test_v1_noquota),
	    T(test_v2),
	    T(test_v2_max),
	    T(test_v2_quarter),
	    T(test_v2_parent),
	    T(test_v2_parent_throttling),
	    T(test_v2_nocpu),
	    T(test_hybrid),
	    T(test_colon),
	    T(test_ns),
	    T(test_ns_hidden),
	    T(test_ns_daemonset),
	    T(test_v2_deleted),
	    T(test_v2_badmax_and_root),
	    T(test_ns_missing),
	    T(test_gone),
	    T(test_locate_v1_cpuset),
	    cmocka_unit_test(test_resolve),
	    cmocka_unit_test(test_cached_layouts),
	    cmocka_unit_test(test_cached_shared),
	};
	return cmocka_run_group_tests_name("budget-fixtures", tests, NULL, NULL);
}
