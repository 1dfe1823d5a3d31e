/* test-metrics.c — the exposition on hand-made sessions: families whole and
 * in one piece each, the names each format wants, label escaping, series
 * folded past --metrics-max-threads, a shared cgroup written once, absent
 * pressure left out; and the server's pure parts (Accept negotiation, the
 * --serve address) and basic-auth files. */
#include "config.h"

#include "tl-test.h"

#include <math.h>

#include "serve-admit.h"

#include <crypt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth.h"
#include "metrics.h"
#include "session-impl.h"
#include "serve.h"
#include "thread-set.h"

static struct thread_sample tsample(pid_t pid, pid_t tid, const char *name, size_t len)
{
	struct thread_sample s;
	memset(&s, 0, sizeof(s));
	s.pid = pid;
	s.tid = tid;
	memcpy(s.name, name, len);
	s.name_len = len;
	s.utime = 250;
	s.stime = 50;
	s.wait_ns = 1500000000;
	s.vcsw = 7;
	s.ivcsw = 3;
	return s;
}

/* A session and the sample its model is made from (model_sample_fill):
 * the test changes the sample and makes the model again (fake_model). */
struct fake {
	struct session s; /* first: a session pointer is the fake's */
	struct session_impl impl;
};

static struct snapshot *fake_cur(struct session *s)
{
	return &s->impl->cur;
}

static void fake_model(struct session *s)
{
	model_sample_fill(&s->model, fake_cur(s), NULL, false);
}

/* A session of process 100 with n threads (the first named name). */
static struct session *fake_session(pid_t pid, size_t n, const char *name, size_t len)
{
	struct fake *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	struct session *s = &f->s;
	s->impl = &f->impl;
	struct snapshot *cur = &f->impl.cur;
	s->kind = SESSION_ATTACH;
	s->target = pid;
	cur->threads.v = calloc(n, sizeof(*cur->threads.v));
	cur->threads.n = n;
	for (size_t i = 0; i < n; i++)
		cur->threads.v[i] = i == 0 ? tsample(pid, pid, name, len)
					   : tsample(pid, pid + (pid_t)i, "worker-1", 8);
	s->groups.hz = 100;
	cur->budget.online = 2;
	cur->budget.affinity = 2;
	cur->budget.quota.cpus = 0.5;
	cur->budget.effective = 0.5;
	cur->budget.binding = BUDGET_QUOTA;
	snprintf(cur->budget.loc.path, sizeof(cur->budget.loc.path), "/job");
	snprintf(cur->budget.loc.mount_dir, sizeof(cur->budget.loc.mount_dir), "sys/fs/cgroup/cpu");
	snprintf(cur->stat_dir, sizeof(cur->stat_dir), "sys/fs/cgroup/cpu/job");
	cur->has_cpustat = true;
	cur->cpustat.has_periods = true;
	cur->cpustat.nr_periods = 40;
	cur->cpustat.nr_throttled = 10;
	cur->cpustat.throttled_s = 2.5;
	cur->psi_system.available = true;
	cur->psi_system.some_total_us = 3000000;
	s->have_rates = true;
	s->runnable_mean = 1.0;
	s->have_diag = true;
	s->diag.verdict = VERDICT_THROTTLED;
	fake_model(s);
	return s;
}

static void fake_free(struct session *s)
{
	free(fake_cur(s)->threads.v);
	model_sample_free(&s->model);
	free(s);
}

static char *render(enum metrics_format fmt, const struct metrics_target *t, size_t n, size_t max)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct metrics_opts o = {.max_threads = max, .samples = 5};
	assert_int_equal(metrics_write(f, fmt, t, n, &o), 0);
	fclose(f);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* Each family's samples follow its # TYPE line, and no family comes back
 * later: the sample names of one family are one run of lines. */
static void assert_not_interleaved(const char *text)
{
	char last[128] = "", seen[8192] = " ";
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (len && l[0] != '#') {
			size_t k = strcspn(l, "{ ");
			char name[128];
			snprintf(name, sizeof(name), "%.*s", (int)k, l);
			if (strcmp(name, last) != 0) {
				char key[140];
				snprintf(key, sizeof(key), " %s ", name);
				if (strstr(seen, key))
					fail_msg("family %s comes back later", name);
				strncat(seen, name, sizeof(seen) - strlen(seen) - 2);
				strcat(seen, " ");
				snprintf(last, sizeof(last), "%s", name);
			}
		}
		l += len + (nl != NULL);
	}
}

static void test_formats(void **state)
{
	(void)state;
	struct session *s = fake_session(100, 3, "main", 4);
	struct metrics_target t = {s, "attach"};
	char *prom = render(METRICS_PROMETHEUS, &t, 1, 500);
	char *om = render(METRICS_OPENMETRICS, &t, 1, 500);
	/* 0.0.4 types counters and infos by their sample names; no EOF */
	assert_non_null(strstr(prom, "# TYPE threadlab_thread_cpu_seconds_total counter\n"));
	assert_non_null(strstr(prom, "# TYPE threadlab_target_info gauge\n"));
	assert_null(strstr(prom, "# EOF"));
	/* OpenMetrics names the families, has info, ends with # EOF */
	assert_non_null(strstr(om, "# TYPE threadlab_thread_cpu_seconds counter\n"));
	assert_non_null(strstr(om, "# TYPE threadlab_target info\n"));
	size_t ol = strlen(om);
	assert_true(ol > 6 && strcmp(om + ol - 6, "# EOF\n") == 0);
	/* the same samples in both */
	assert_non_null(strstr(prom, "threadlab_thread_cpu_seconds_total{pid=\"100\",tid=\"101\","
				     "name=\"worker-1\",mode=\"user\"} 2.5\n"));
	assert_non_null(strstr(om, "threadlab_thread_cpu_seconds_total{pid=\"100\",tid=\"101\","
				   "name=\"worker-1\",mode=\"user\"} 2.5\n"));
	assert_non_null(strstr(prom, "threadlab_thread_runqueue_wait_seconds_total{pid=\"100\","
				     "tid=\"100\",name=\"main\"} 1.5\n"));
	assert_non_null(strstr(prom, "ctxswitchtype=\"nonvoluntary\"} 3\n"));
	assert_non_null(
	    strstr(prom, "threadlab_cpu_budget_cpus{pid=\"100\",term=\"quota\"} 0.5\n"));
	assert_non_null(
	    strstr(prom, "threadlab_cpu_budget_binding{pid=\"100\",term=\"quota\"} 1\n"));
	assert_non_null(
	    strstr(prom, "threadlab_cpu_budget_binding{pid=\"100\",term=\"online\"} 0\n"));
	assert_null(strstr(prom, "term=\"cpuset\"")); /* unknown: left out */
	assert_non_null(
	    strstr(prom, "threadlab_cgroup_cpu_cfs_throttled_periods_total{cgroup=\"/job\"} 10\n"));
	assert_non_null(strstr(prom, "threadlab_pressure_cpu_waiting_seconds_total 3\n"));
	/* no cgroup pressure available: the family is absent, not 0 */
	assert_null(strstr(prom, "threadlab_cgroup_pressure_cpu_waiting"));
	assert_non_null(
	    strstr(prom, "threadlab_oversubscription_ratio{pid=\"100\"} 2\n")); /* 1.0 / 0.5 */
	assert_non_null(strstr(prom, "threadlab_verdict{pid=\"100\",verdict=\"throttled\"} 1\n"));
	assert_int_equal(count(prom, "threadlab_verdict{"), VERDICT_N);
	assert_non_null(strstr(prom, "threadlab_verdict{pid=\"100\",verdict=\"fine\"} 0\n"));
	/* every family has HELP and TYPE, once */
	assert_int_equal(count(prom, "# HELP "), count(prom, "# TYPE "));
	assert_int_equal(count(prom, "# HELP threadlab_thread_cpu_seconds_total "), 1);
	assert_not_interleaved(prom);
	assert_not_interleaved(om);
	/* no lab: no workload families */
	assert_null(strstr(prom, "threadlab_workload"));
	free(prom);
	free(om);
	fake_free(s);
}

/* The latency histogram: per thread group, "le" at threadlab's own bucket
 * edges so each count is exact, +Inf and _count equal, _sum in seconds, a
 * thread that ended left in its group; absent without BPF. */
static void test_latency_histogram(void **state)
{
	(void)state;
	struct session *s = fake_session(100, 3, "main", 4);
	struct metrics_target t = {s, "attach"};
	char *om = render(METRICS_OPENMETRICS, &t, 1, 500);
	assert_null(strstr(om, "threadlab_runqueue_latency"));
	free(om);
	struct thread_set *c = &fake_cur(s)->threads;
	c->lat_on = true;
	c->lat = calloc(3, sizeof(*c->lat));
	c->nlat = 2;
	/* worker-1 (tid 101): 3 waits of 1.5 us, 2 of 5 ms; worker-1 (102): 1 of 20 ms */
	for (int i = 0; i < 3; i++)
		latency_hist_add_ns(&c->lat[0], 1500);
	latency_hist_add_ns(&c->lat[0], 5000000);
	latency_hist_add_ns(&c->lat[0], 5000000);
	latency_hist_add_ns(&c->lat[1], 20000000);
	c->v[1].lat_ref = 1;
	c->v[2].lat_ref = 2;
	thread_groups_update(&s->groups, NULL, c);
	fake_model(s);
	om = render(METRICS_OPENMETRICS, &t, 1, 500);
	char *prom = render(METRICS_PROMETHEUS, &t, 1, 500);
	assert_non_null(strstr(om, "# TYPE threadlab_runqueue_latency_seconds histogram\n"));
	assert_non_null(strstr(prom, "# TYPE threadlab_runqueue_latency_seconds histogram\n"));
	const char *g = "threadlab_runqueue_latency_seconds_bucket{pid=\"100\",group=\"worker\",";
	char want[256];
	snprintf(want, sizeof(want), "%sle=\"1.024e-06\"} 0\n", g);
	assert_non_null(strstr(om, want));
	snprintf(want, sizeof(want), "%sle=\"4.096e-06\"} 3\n", g);
	assert_non_null(strstr(om, want));
	snprintf(want, sizeof(want), "%sle=\"0.016777216\"} 5\n", g);
	assert_non_null(strstr(om, want));
	snprintf(want, sizeof(want), "%sle=\"0.067108864\"} 6\n", g);
	assert_non_null(strstr(om, want));
	snprintf(want, sizeof(want), "%sle=\"+Inf\"} 6\n", g);
	assert_non_null(strstr(om, want));
	/* the edges exactly, not cut to 9 digits ("1.07374182") */
	snprintf(want, sizeof(want), "%sle=\"1.073741824\"} 6\n", g);
	assert_non_null(strstr(om, want));
	snprintf(want, sizeof(want), "%sle=\"17.179869184\"} 6\n", g);
	assert_non_null(strstr(om, want));
	assert_non_null(strstr(
	    om, "threadlab_runqueue_latency_seconds_count{pid=\"100\",group=\"worker\"} 6\n"));
	assert_non_null(strstr(
	    om, "threadlab_runqueue_latency_seconds_sum{pid=\"100\",group=\"worker\"} 0.0300045\n"));
	/* the main thread had no histogram: its group has no series */
	assert_null(strstr(om, "group=\"main\",le="));
	assert_non_null(strstr(om, "threadlab_runqueue_latency_dropped_total 0\n"));
	assert_not_interleaved(om);
	free(om);
	free(prom);
	/* worker 102 ends: its waits stay in the group, which only grows */
	struct thread_set prev;
	thread_set_init(&prev);
	thread_set_copy(&prev, c);
	c->n = 2;
	thread_groups_update(&s->groups, &prev, c);
	fake_model(s);
	om = render(METRICS_OPENMETRICS, &t, 1, 500);
	assert_non_null(strstr(
	    om, "threadlab_runqueue_latency_seconds_count{pid=\"100\",group=\"worker\"} 6\n"));
	free(om);
	thread_set_free(&prev);
	thread_groups_free(&s->groups);
	free(c->lat);
	fake_free(s);
}

/* A figure that arithmetic on bad input made +Inf or NaN is left out, its
 * family and every other sample still whole (a counter of +Inf, a gauge
 * of NaN would be kept by a scraper as if measured). */
static void test_non_finite(void **state)
{
	(void)state;
	struct session *s = fake_session(100, 2, "main", 4);
	struct metrics_target t = {s, "attach"};
	fake_cur(s)->cpustat.throttled_s = INFINITY;
	fake_model(s);
	s->runnable_mean = NAN;
	s->progress.on = true;
	s->progress.count = 1e300 * 1e300;
	s->progress.rate = 12.5;
	for (int fmt = 0; fmt < 2; fmt++) {
		char *text = render(fmt ? METRICS_OPENMETRICS : METRICS_PROMETHEUS, &t, 1, 500);
		assert_null(strstr(text, "Inf"));
		assert_null(strstr(text, "NaN"));
		assert_null(strstr(text, "threadlab_cgroup_cpu_cfs_throttled_seconds_total{"));
		assert_null(strstr(text, "threadlab_runnable_threads_mean{"));
		assert_null(strstr(text, "threadlab_progress_steps_total{"));
		/* the neighbours of a dropped sample are whole lines */
		assert_non_null(strstr(
		    text,
		    "\nthreadlab_cgroup_cpu_cfs_throttled_periods_total{cgroup=\"/job\"} 10\n"));
		assert_non_null(
		    strstr(text, "threadlab_progress_steps_per_second{pid=\"100\"} 12.5\n"));
		assert_non_null(
		    strstr(text, "\nthreadlab_verdict{pid=\"100\",verdict=\"fine\"} 0\n"));
		assert_int_equal(count(text, "# HELP "), count(text, "# TYPE "));
		assert_not_interleaved(text);
		free(text);
	}
	fake_free(s);
}

static bool waiting_300(int fd)
{
	return fd == 300;
}

/* The exporter's connection table: slow clients from one address or from
 * fifty cannot take the room a newcomer needs, headers have a deadline,
 * the kept connections have a room of their own. */
static void test_admit(void **state)
{
	(void)state;
	struct serve_admit *a = calloc(1, sizeof(*a));
	int drop[SERVE_ADMIT_DROPS];
	size_t nd;
	unsigned char ip[4] = {127, 0, 0, 0};
	/* 50 slow clients from 50 addresses, then 9 from one */
	for (int i = 0; i < 50; i++) {
		ip[3] = (unsigned char)(10 + i);
		assert_non_null(serve_admit_open(a, ip, 4, 100 + i, i * 0.01, drop, &nd));
		assert_true(nd <= 1);
	}
	assert_int_equal(serve_admit_count(a, false), SERVE_ADMIT_PENDING);
	assert_int_equal(a->dropped_pending, 50 - SERVE_ADMIT_PENDING);
	ip[3] = 1;
	for (int i = 0; i < 9; i++)
		serve_admit_open(a, ip, 4, 200 + i, 1 + i * 0.01, drop, &nd);
	/* the scraper, from the same address: gets in, is not the one dropped */
	struct serve_conn *prom = serve_admit_open(a, ip, 4, 300, 2, drop, &nd);
	assert_non_null(prom);
	assert_false(prom->dropped);
	assert_int_equal(nd, 1);
	assert_true(drop[0] >= 200 && drop[0] < 209); /* the oldest of its address */
	unsigned from1 = 0;
	for (size_t i = 0; i < SERVE_ADMIT_SLOTS; i++)
		from1 += a->c[i].used && !a->c[i].dropped && a->c[i].addr[3] == 1;
	assert_true(from1 >= 1 && from1 <= SERVE_ADMIT_PENDING_ADDR);
	serve_admit_request(a, prom, 2.1, drop, &nd);
	assert_true(prom->kept);
	assert_int_equal(nd, 0);
	/* late headers: every pending one older than the budget, not the kept */
	int fds[SERVE_ADMIT_SLOTS];
	size_t late = serve_admit_expired(a, 1.5 + SERVE_ADMIT_HEADER_S, fds, SERVE_ADMIT_SLOTS);
	assert_true(late > 0);
	for (size_t i = 0; i < late; i++)
		assert_true(fds[i] != 300);
	assert_false(prom->dropped);
	serve_admit_expired(a, 100, fds, SERVE_ADMIT_SLOTS);
	assert_int_equal(serve_admit_count(a, false), 0);
	assert_int_equal(serve_admit_count(a, true), 1);
	/* slots of dropped connections come back when they close */
	for (size_t i = 0; i < SERVE_ADMIT_SLOTS; i++)
		if (a->c[i].dropped)
			serve_admit_close(a, &a->c[i]);
	/* kept: at most SERVE_ADMIT_KEPT_ADDR from one address, the one that
	 * asked longest ago goes first */
	ip[3] = 2;
	for (int i = 0; i < 10; i++) {
		struct serve_conn *c = serve_admit_open(a, ip, 4, 400 + i, 200 + i, drop, &nd);
		serve_admit_request(a, c, 200 + i, drop, &nd);
		if (i >= SERVE_ADMIT_KEPT_ADDR)
			assert_true(nd == 1 && drop[0] == 400 + i - SERVE_ADMIT_KEPT_ADDR);
	}
	assert_int_equal(serve_admit_count(a, true), 1 + SERVE_ADMIT_KEPT_ADDR);
	/* a scraper's whole request waits unread in its socket while a burst
	 * from its address is accepted: never the one dropped */
	memset(a, 0, sizeof(*a));
	a->waiting = waiting_300;
	ip[3] = 1;
	struct serve_conn *early = serve_admit_open(a, ip, 4, 300, 400, drop, &nd);
	for (int i = 0; i < 12; i++)
		serve_admit_open(a, ip, 4, 500 + i, 400.001 + i * 0.001, drop, &nd);
	assert_false(early->dropped);
	assert_int_equal(a->dropped_pending, 12 + 1 - SERVE_ADMIT_PENDING_ADDR);
	/* a full table: NULL, the caller closes */
	memset(a, 0, sizeof(*a));
	for (int i = 0; i < SERVE_ADMIT_SLOTS; i++)
		assert_non_null(serve_admit_open(a, ip, 4, i, 300, drop, &nd));
	assert_null(serve_admit_open(a, ip, 4, 999, 300, drop, &nd));
	free(a);
}

static void test_escaping(void **state)
{
	(void)state;
	static const char name[] = "a\"b\\c\nd\x1b[2J\xff\xc2\x9b\xc3\xa9";
	struct session *s = fake_session(100, 1, name, sizeof(name) - 1);
	struct metrics_target t = {s, "attach"};
	char *prom = render(METRICS_PROMETHEUS, &t, 1, 500);
	/* quote, backslash and newline escaped; ESC, the invalid byte and the
	 * encoded C1 as \xNN text; é kept */
	assert_non_null(
	    strstr(prom, "name=\"a\\\"b\\\\c\\nd\\\\x1b[2J\\\\xff\\\\xc2\\\\x9b\xc3\xa9\""));
	for (const char *p = prom; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\n')
			fail_msg("a raw control byte 0x%02x in the exposition", (unsigned char)*p);
	free(prom);
	fake_free(s);
}

/* Two thread groups whose names differ only in that one holds the text
 * "\x1b" and the other the byte: written alike, they once made two series
 * with the same labels (an exposition Prometheus keeps one series of). */
static void test_group_labels_unique(void **state)
{
	(void)state;
	struct session *s = fake_session(100, 3, "\\x1bA", 5);
	struct thread_set *c = &fake_cur(s)->threads;
	c->v[1] = tsample(100, 101, "\x1b" "A", 2);
	thread_groups_update(&s->groups, NULL, c);
	fake_model(s);
	struct metrics_target t = {s, "attach"};
	char *prom = render(METRICS_PROMETHEUS, &t, 1, 500);
	assert_int_equal(count(prom, "threadlab_group_threads{pid=\"100\",group=\"\\\\x1bA\"} 1\n"),
			 1);
	assert_int_equal(
	    count(prom, "threadlab_group_threads{pid=\"100\",group=\"\\\\x1bA #2\"} 1\n"), 1);
	assert_int_equal(count(prom, "threadlab_group_threads{pid=\"100\",group=\"worker\"} 1\n"),
			 1);
	assert_int_equal(count(prom, "group=\"\\\\x1bA #2\",mode=\"user\"}"), 1);
	free(prom);
	thread_groups_free(&s->groups);
	fake_free(s);
}

/* Routes: the absolute form a server must accept, any other method 405
 * whatever its target (CONNECT host:22 was 404). */
static void test_routes(void **state)
{
	(void)state;
	assert_int_equal(serve_route("/metrics", "GET"), SERVE_METRICS);
	assert_int_equal(serve_route("/metrics", "HEAD"), SERVE_METRICS);
	assert_int_equal(serve_route("/", "GET"), SERVE_INDEX);
	assert_int_equal(serve_route("/nope", "GET"), SERVE_NOT_FOUND);
	assert_int_equal(serve_route("http://127.0.0.1:9864/metrics", "GET"), SERVE_METRICS);
	assert_int_equal(serve_route("HTTP://[::1]:9864/metrics", "GET"), SERVE_METRICS);
	assert_int_equal(serve_route("http://127.0.0.1:9864", "GET"), SERVE_INDEX);
	assert_int_equal(serve_route("http://127.0.0.1:9864/nope", "GET"), SERVE_NOT_FOUND);
	assert_int_equal(serve_route("/metrics", "POST"), SERVE_NOT_ALLOWED);
	assert_int_equal(serve_route("host:22", "CONNECT"), SERVE_NOT_ALLOWED);
	assert_int_equal(serve_route("/nope", "DELETE"), SERVE_NOT_ALLOWED);
}

/* A launched command's target_info names it by its comm, as an attached
 * process: never its arguments (a password on a command line was served
 * on /metrics). */
static void test_launch_target_name(void **state)
{
	(void)state;
	struct session *s = fake_session(100, 1, "python3", 7);
	static char a0[] = "/usr/bin/python3", a1[] = "-c", a2[] = "token='s3cret'; run()";
	char *argv[] = {a0, a1, a2, NULL};
	s->kind = SESSION_LAUNCH;
	s->cfg.command = argv;
	struct metrics_target t = {s, "command"};
	char *prom = render(METRICS_PROMETHEUS, &t, 1, 500);
	assert_null(strstr(prom, "s3cret"));
	assert_non_null(strstr(prom, "threadlab_target_info{pid=\"100\",name=\"python3\",mode=\"command\""));
	free(prom);
	/* before its thread is read: the command's file name */
	char name[64];
	fake_cur(s)->threads.n = 0;
	session_target_comm(s, name, sizeof(name));
	assert_string_equal(name, "python3");
	fake_cur(s)->threads.n = 1;
	s->cfg.command = NULL;
	fake_free(s);
}

/* A thread renamed into another group (the lab parks "gemm0.w1" as
 * "gemm0.p1"): its old group keeps what it had, the new one counts only
 * what it does from then on, and the groups add up to the thread's own
 * total (they had read 2.5 + 2.6 s for a thread of 2.6 s). */
static void test_group_rename(void **state)
{
	(void)state;
	struct session *s = fake_session(100, 2, "main", 4);
	struct thread_set *c = &fake_cur(s)->threads;
	c->v[1] = tsample(100, 101, "gemm0.w1", 8);
	thread_groups_update(&s->groups, NULL, c);
	struct thread_set prev;
	thread_set_init(&prev);
	thread_set_copy(&prev, c);
	c->v[1] = tsample(100, 101, "gemm0.p1", 8);
	c->v[1].utime = 260;
	c->v[1].wait_ns = 2000000000;
	thread_groups_update(&s->groups, &prev, c);
	double w = -1, p = -1, wait_p = -1;
	for (size_t i = 0; i < s->groups.n; i++) {
		const struct thread_group *g = &s->groups.v[i];
		if (g->stem_len == 7 && memcmp(g->stem, "gemm0.w", 7) == 0)
			w = g->user_s;
		if (g->stem_len == 7 && memcmp(g->stem, "gemm0.p", 7) == 0) {
			p = g->user_s;
			wait_p = g->wait_s;
		}
	}
	assert_near(w, 2.5, 1e-9);
	assert_near(p, 0.1, 1e-9);
	assert_near(wait_p, 0.5, 1e-9);
	/* it ends: the parked group keeps its 0.1 s, and still only that */
	thread_set_copy(&prev, c);
	c->n = 1;
	thread_groups_update(&s->groups, &prev, c);
	for (size_t i = 0; i < s->groups.n; i++)
		if (memcmp(s->groups.v[i].stem, "gemm0.p", 7) == 0)
			assert_near(s->groups.v[i].user_s, 0.1, 1e-9);
	c->n = 2;
	thread_set_free(&prev);
	thread_groups_free(&s->groups);
	fake_free(s);
}

static void test_folding_and_shared_cgroup(void **state)
{
	(void)state;
	struct session *a = fake_session(100, 5, "main", 4);
	struct session *b = fake_session(200, 1, "other", 5);
	struct metrics_target t[] = {{a, "match"}, {b, "match"}};
	char *prom = render(METRICS_PROMETHEUS, t, 2, 2);
	/* 2 threads of 100 with series of their own, 3 folded; 200's one */
	assert_int_equal(count(prom, "threadlab_thread_runqueue_wait_seconds_total{pid=\"100\""),
			 2);
	assert_int_equal(count(prom, "threadlab_thread_runqueue_wait_seconds_total{pid=\"200\""),
			 1);
	assert_non_null(strstr(prom, "threadlab_threads_folded{pid=\"100\"} 3\n"));
	assert_non_null(strstr(prom, "threadlab_threads_folded{pid=\"200\"} 0\n"));
	/* both in cgroup /job: its series once */
	assert_int_equal(count(prom, "threadlab_cgroup_cpu_cfs_periods_total{"), 1);
	assert_int_equal(count(prom, "\nthreadlab_pressure_cpu_waiting_seconds_total "), 1);
	assert_int_equal(count(prom, "threadlab_target_info{"), 2);
	assert_non_null(strstr(prom, "mode=\"match\""));
	free(prom);
	fake_free(a);
	fake_free(b);
}

static void test_accept(void **state)
{
	(void)state;
	/* what Prometheus 2.42 sends */
	assert_true(serve_wants_openmetrics(
	    "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"
	    "q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
	assert_false(serve_wants_openmetrics("*/*"));
	assert_false(serve_wants_openmetrics(NULL));
	assert_false(serve_wants_openmetrics("text/plain;version=0.0.4"));
	assert_false(serve_wants_openmetrics("application/openmetrics-text;q=0"));
	assert_false(
	    serve_wants_openmetrics("application/openmetrics-text;q=0.2, text/plain;q=0.9"));
	assert_true(serve_wants_openmetrics("Application/OpenMetrics-Text; version=1.0.0"));
}

static void test_listen(void **state)
{
	(void)state;
	char addr[64], err[256];
	int port;
	assert_int_equal(serve_parse_listen("9864", addr, sizeof(addr), &port, err, sizeof(err)),
			 0);
	assert_string_equal(addr, "127.0.0.1");
	assert_int_equal(port, 9864);
	assert_int_equal(
	    serve_parse_listen("0.0.0.0:80", addr, sizeof(addr), &port, err, sizeof(err)), 0);
	assert_string_equal(addr, "0.0.0.0");
	assert_int_equal(serve_parse_listen("[::1]:0", addr, sizeof(addr), &port, err, sizeof(err)),
			 0);
	assert_string_equal(addr, "::1");
	assert_int_equal(port, 0);
	assert_int_equal(
	    serve_parse_listen("localhost:1", addr, sizeof(addr), &port, err, sizeof(err)), 0);
	assert_string_equal(addr, "127.0.0.1");
	const char *bad[] = {"",       "abc",	  "70000",	    "1.2.3.4:", "300.1.1.1:9",
			     "::1:80", "[::1]80", "example.com:80", "-1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (serve_parse_listen(bad[i], addr, sizeof(addr), &port, err, sizeof(err)) == 0)
			fail_msg("'%s' accepted", bad[i]);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_auth(void **state)
{
	(void)state;
	char dir[] = "/tmp/tl-auth-XXXXXX", path[64], err[256], salt[64], text[1024];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/users", dir);
	struct crypt_data cd;
	memset(&cd, 0, sizeof(cd));
	assert_non_null(crypt_gensalt_rn("$6$", 5000, NULL, 0, salt, sizeof(salt)));
	char sha[CRYPT_OUTPUT_SIZE];
	snprintf(sha, sizeof(sha), "%s", crypt_rn("secret", salt, &cd, sizeof(cd)));
	assert_non_null(crypt_gensalt_rn("$2b$", 5, NULL, 0, salt, sizeof(salt)));
	char bf[CRYPT_OUTPUT_SIZE];
	snprintf(bf, sizeof(bf), "%s", crypt_rn("hunter2", salt, &cd, sizeof(cd)));
	snprintf(text, sizeof(text), "# users\n\nalice:%s\nbob:%s\n", sha, bf);
	write_file(path, text);
	struct auth *a = auth_load(path, err, sizeof(err));
	assert_non_null(a);
	assert_int_equal(auth_check(a, "alice", "secret"), AUTH_OK);
	assert_int_equal(auth_check(a, "bob", "hunter2"), AUTH_OK);
	assert_int_equal(auth_check(a, "alice", "hunter2"), AUTH_DENIED);
	assert_int_equal(auth_check(a, "bob", "secret"), AUTH_DENIED);
	assert_int_equal(auth_check(a, "carol", "secret"), AUTH_DENIED);
	assert_int_equal(auth_check(a, "alic", "secret"), AUTH_DENIED);
	assert_int_equal(auth_check(a, "alice", ""), AUTH_DENIED);
	/* Once the budget is spent (no burst, a thousandth of the time), a
	 * password not seen to match is refused as busy without hashing; the
	 * two that matched are remembered, each for its own user only. */
	auth_set_budget(a, 0, 0.001);
	assert_int_equal(auth_check(a, "alice", "hunter2"), AUTH_BUSY);
	assert_int_equal(auth_check(a, "carol", "secret"), AUTH_BUSY);
	assert_int_equal(auth_check(a, "alice", "secret"), AUTH_OK);
	assert_int_equal(auth_check(a, "bob", "hunter2"), AUTH_OK);
	assert_int_equal(auth_check(a, "bob", "secret"), AUTH_BUSY);
	/* a password past what is remembered (4 KiB): checked each time */
	char longpw[5000];
	memset(longpw, 'x', sizeof(longpw) - 1);
	longpw[sizeof(longpw) - 1] = '\0';
	assert_int_equal(auth_check(a, "alice", longpw), AUTH_BUSY);
	/* A burst: checks go on until their hashing has taken it. */
	auth_set_budget(a, 0.05, 0.001);
	int denied = 0;
	enum auth_result r;
	while ((r = auth_check(a, "alice", "wrong")) == AUTH_DENIED && denied < 100000)
		denied++;
	assert_int_equal(r, AUTH_BUSY);
	assert_true(denied >= 1);
	/* the last check overdrew the budget: taken again only after it refills */
	assert_true(auth_retry_after(a) > 0);
	auth_free(a);
	/* a plain password, an unknown scheme, no user, no file: refused */
	const char *bad[] = {"alice:secret\n", "alice:$1$abc$def\n", "# nobody\n", ":$6$x$y\n"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(path, bad[i]);
		err[0] = '\0';
		assert_null(auth_load(path, err, sizeof(err)));
		assert_non_null(strstr(err, "--basic-auth"));
	}
	write_file(path, "alice:secret\n");
	auth_load(path, err, sizeof(err));
	assert_non_null(strstr(err, "plain passwords are refused"));
	unlink(path);
	assert_null(auth_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, "cannot read"));
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_formats),
	    cmocka_unit_test(test_latency_histogram),
	    cmocka_unit_test(test_escaping),
	    cmocka_unit_test(test_group_labels_unique),
	    cmocka_unit_test(test_group_rename),
	    cmocka_unit_test(test_launch_target_name),
	    cmocka_unit_test(test_routes),
	    cmocka_unit_test(test_non_finite),
	    cmocka_unit_test(test_admit),
	    cmocka_unit_test(test_folding_and_shared_cgroup),
	    cmocka_unit_test(test_accept),
	    cmocka_unit_test(test_listen),
	    cmocka_unit_test(test_auth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
