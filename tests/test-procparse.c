/* test-procparse.c — per-task /proc parsers, the thread sampler against
 * fixture trees, and thread_rates() on hand-made samples. */
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
#include "tl-rates.h"

static unsigned long long stat_nthreads = 20; /* field 20 of make_stat's lines */

/* A stat line whose fields 4..52 are "4+k" (field 39 is 1) after NAME. */
static size_t make_stat(char *buf, size_t cap, int pid, const char *name, size_t name_len,
			unsigned long long start)
{
	size_t n = (size_t)snprintf(buf, cap, "%d (", pid);
	memcpy(buf + n, name, name_len);
	n += name_len;
	n += (size_t)snprintf(buf + n, cap - n, ") S");
	for (int f = 4; f <= 52; f++) {
		unsigned long long v = (unsigned long long)f;
		if (f == 22)
			v = start;
		else if (f == 20)
			v = stat_nthreads;
		else if (f == 39)
			v = 1;
		n += (size_t)snprintf(buf + n, cap - n, " %llu", v);
	}
	n += (size_t)snprintf(buf + n, cap - n, "\n");
	return n;
}

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
		assert_int_equal(stat_line_parse(buf, len, &st), 0);
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
	assert_int_equal(stat_line_parse(buf, len, &st), 0);
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
	assert_int_equal(stat_line_parse(buf, len, &st), 0);
	const char *f39 = strstr(buf, " 38 1 ");
	assert_non_null(f39);
	size_t need = (size_t)(f39 - buf) + 5; /* through field 39's digit */
	assert_int_equal(stat_line_parse(buf, need, &st), 0);
	for (size_t k = 0; k < need; k++)
		assert_int_equal(stat_line_parse(buf, k, &st), -EINVAL);
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
		assert_int_equal(stat_line_parse(bad[i], strlen(bad[i]), &st), -EINVAL);
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
	assert_int_equal(stat_line_parse(buf, (size_t)n, &st), 0);
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
	assert_int_equal(schedstat_parse("123456789 42 7\n", &ss), 0);
	assert_int_equal(ss.run_ns, 123456789);
	assert_int_equal(ss.wait_ns, 42);
	assert_int_equal(ss.slices, 7);
	assert_int_equal(schedstat_parse("18446744073709551615 0 0", &ss), 0);
	assert_true(ss.run_ns == UINT64_MAX);
	static const char *bad[] = {"",	      "1 2",	 "1 2\n",
				    "a b c",  "1 2 3 4", "-1 2 3",
				    "1 2 3x", "1,2,3",	 "18446744073709551616 1 1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(schedstat_parse(bad[i], &ss), -EINVAL);
}

static void status_cases(void **state)
{
	(void)state;
	struct status_info si;
	const char *ok = "Name:\tw) x\\ny\nState:\tR (running)\nTgid:\t4242\nPid:\t4243\n"
			 "Cpus_allowed:\tf\nCpus_allowed_list:\t0-3,8\n"
			 "voluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3000\n";
	assert_int_equal(status_parse(ok, &si), 0);
	assert_int_equal(si.tgid, 4242);
	assert_int_equal(si.vcsw, 12);
	assert_int_equal(si.ivcsw, 3000);
	assert_string_equal(si.cpus_allowed_list, "0-3,8");

	/* Tgid and Cpus_allowed_list are optional; the last line may lack '\n'. */
	assert_int_equal(status_parse("voluntary_ctxt_switches: 1\n"
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
		assert_int_equal(status_parse(bad[i], &si), -EINVAL);

	char buf[8192];
	int fd = open("/proc/self/status", O_RDONLY);
	assert_true(fd >= 0);
	assert_true(sysroot_pread_all(fd, buf, sizeof(buf)) > 0);
	close(fd);
	assert_int_equal(status_parse(buf, &si), 0);
	assert_int_equal(si.tgid, getpid());
	assert_true(si.cpus_allowed_list[0] != '\0');

	/* The switch counts alone, found from the end: the same as status_parse. */
	const char *same[] = {
	    buf, ok, "voluntary_ctxt_switches: 1\nnonvoluntary_ctxt_switches: 2",
	    "nonvoluntary_ctxt_switches:\t7\nvoluntary_ctxt_switches:\t8\nX:\t1\n"};
	for (size_t i = 0; i < sizeof(same) / sizeof(*same); i++) {
		uint64_t v = 0, iv = 0;
		assert_int_equal(status_parse(same[i], &si), 0);
		assert_int_equal(status_switches_parse(same[i], strlen(same[i]), &v, &iv), 0);
		assert_true(v == si.vcsw && iv == si.ivcsw);
	}
	static const char *bad_sw[] = {
	    "", "voluntary_ctxt_switches:\t5\n",
	    "voluntary_ctxt_switches:\t5 6\nnonvoluntary_ctxt_switches:\t1\n",
	    "voluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\tx\n",
	    "xvoluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\t1\n"};
	uint64_t v, iv;
	for (size_t i = 0; i < sizeof(bad_sw) / sizeof(*bad_sw); i++)
		assert_int_equal(status_switches_parse(bad_sw[i], strlen(bad_sw[i]), &v, &iv),
				 -EINVAL);
	static const char nul[] = "voluntary_ctxt_switches:\t5\n\0nonvoluntary_ctxt_switches:\t1\n";
	assert_int_equal(status_switches_parse(nul, sizeof(nul) - 1, &v, &iv),
			 -EINVAL); /* as status_parse */
}

/* ---- the sampler over fixture trees ------------------------------------ */

static const struct thread_sample *find(const struct thread_set *s, pid_t tid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].tid == tid)
			return &s->v[i];
	static const struct thread_sample missing; /* tid 0 */
	return &missing;
}

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

/* ---- the sampler over a tree the test changes between ticks ------------ */

static char tmp_root[64];

static void put(const char *rel, const char *text)
{
	char path[256], dir[256];
	snprintf(path, sizeof(path), "%s/%s", tmp_root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(tmp_root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	/* Rewritten in place, as the kernel does: held descriptors see it. */
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_thread(int tid, const char *name, unsigned long long start, const char *sched)
{
	char rel[128], buf[1024], status[256];
	snprintf(rel, sizeof(rel), "proc/4242/task/%d/stat", tid);
	make_stat(buf, sizeof(buf), tid, name, strlen(name), start);
	put(rel, buf);
	snprintf(rel, sizeof(rel), "proc/4242/task/%d/schedstat", tid);
	put(rel, sched);
	snprintf(rel, sizeof(rel), "proc/4242/task/%d/status", tid);
	snprintf(status, sizeof(status),
		 "Tgid:\t4242\nvoluntary_ctxt_switches:\t%d\nnonvoluntary_ctxt_switches:\t1\n",
		 tid);
	put(rel, status);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path);
}

static void remove_thread(int tid)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/proc/4242/task/%d", tmp_root, tid);
	assert_int_equal(nftw(path, rm_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
}

static void sampler_changes(void **state)
{
	(void)state;
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/tl-pp-XXXXXX");
	assert_non_null(mkdtemp(tmp_root));
	put_thread(4242, "main", 100, "1000 10 5\n");
	put_thread(4243, "old-name", 200, "2000 20 6\n");

	struct sysroot r;
	assert_int_equal(sysroot_open(&r, tmp_root), 0);
	struct thread_sampler *ts = thread_sampler_new(&r, 4242, false);
	assert_non_null(ts);
	struct thread_set t1, t2, t3;
	thread_set_init(&t1);
	thread_set_init(&t2);
	thread_set_init(&t3);
	struct thread_rate *rates = NULL;
	size_t cap = 0;

	assert_int_equal(thread_sampler_sample(ts, &t1), 0);
	assert_int_equal(t1.n, 2);

	/* 4243's schedstat unchanged: its stat is not read again. */
	put_thread(4243, "new-name", 200, "2000 20 6\n");
	put_thread(4244, "born", 300, "10 0 1\n");
	put("proc/4242/task/4245/stat", "4245 (cut) S 1 2 3");
	put("proc/4242/task/4245/schedstat", "1 1 1\n");
	put("proc/4242/task/4245/status",
	    "voluntary_ctxt_switches:\t1\nnonvoluntary_ctxt_switches:\t1\n");
	put("proc/4242/task/4242/schedstat", "5000 10 9\n");
	assert_int_equal(thread_sampler_sample(ts, &t2), 0);
	assert_int_equal(t2.n, 3); /* 4245's truncated stat: skipped */
	assert_int_equal(find(&t2, 4245)->tid, 0);
	assert_string_equal(find(&t2, 4243)->name, "old-name");
	assert_int_equal(find(&t2, 4242)->run_ns, 5000);
	assert_int_equal(thread_sampler_fds(ts), 9);

	size_t n = thread_rates(&t1, &t2, &rates, &cap);
	assert_int_equal(n, 3);
	assert_int_equal(tl_find_rate(rates, n, 4242)->tid, 4242);
	assert_false(tl_find_rate(rates, n, 4242)->is_new);
	assert_int_equal(tl_find_rate(rates, n, 4243)->tid, 4243);
	assert_false(tl_find_rate(rates, n, 4243)->is_new);
	assert_int_equal(tl_find_rate(rates, n, 4244)->tid, 4244);
	assert_true(tl_find_rate(rates, n, 4244)->is_new);

	/* 4243 goes; TID 4244 is reused by a thread with another start time. */
	remove_thread(4243);
	remove_thread(4245);
	put_thread(4244, "reborn", 301, "99 0 2\n");
	assert_int_equal(thread_sampler_sample(ts, &t3), 0);
	assert_int_equal(t3.n, 2);
	assert_int_equal(find(&t3, 4243)->tid, 0);
	assert_string_equal(find(&t3, 4244)->name, "reborn");
	assert_int_equal(thread_sampler_fds(ts), 6);
	n = thread_rates(&t2, &t3, &rates, &cap);
	assert_int_equal(n, 2);
	assert_int_equal(tl_find_rate(rates, n, 4244)->tid, 4244);
	assert_true(tl_find_rate(rates, n, 4244)->is_new);
	assert_int_equal(tl_find_rate(rates, n, 4242)->tid, 4242);
	assert_false(tl_find_rate(rates, n, 4242)->is_new);

	/* The whole process goes. */
	remove_thread(4242);
	remove_thread(4244);
	assert_int_equal(thread_sampler_sample(ts, &t3), -ESRCH);
	assert_int_equal(t3.n, 0);
	assert_int_equal(thread_sampler_fds(ts), 0);

	free(rates);
	thread_set_free(&t1);
	thread_set_free(&t2);
	thread_set_free(&t3);
	thread_sampler_free(ts);
	sysroot_close(&r);
	assert_int_equal(nftw(tmp_root, rm_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
}

/* ---- status on its own cadence (fake clock) ---------------------------- */

enum { NT = 40, TICKS = 30 };
struct fake_thread {
	unsigned long long run, v, iv;
};

/* Thread 1 stops after tick 10; thread 2 idles over ticks 3..12. */
static bool cadence_idle(int i, int k)
{
	return (i == 1 && k > 10) || (i == 2 && k >= 3 && k <= 12);
}

static void put_counts(int tid, const struct fake_thread *f)
{
	char rel[96], text[160];
	snprintf(rel, sizeof(rel), "proc/4242/task/%d/schedstat", tid);
	snprintf(text, sizeof(text), "%llu 0 %llu\n", f->run, f->run);
	put(rel, text);
	snprintf(rel, sizeof(rel), "proc/4242/task/%d/status", tid);
	snprintf(text, sizeof(text),
		 "Name:\tx\nvoluntary_ctxt_switches:\t%llu\nnonvoluntary_ctxt_switches:\t%llu\n",
		 f->v, f->iv);
	put(rel, text);
}

/* 40 threads at 50 + 5 switches/s, ticks of 0.2 s, status period 1 s.
 * 4243 stops at tick 10; 4244 idles over ticks 3..12; 4245 doubles its
 * rate from tick 11.  Rates must be exact, never a false 0, and follow the
 * staleness bound of threads.h.  The thread count stays: task/ is listed
 * once. */
static void status_cadence(void **state)
{
	(void)state;
	const double P = 1.0, T = 0.2, t0 = 100.0;
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/tl-pp-XXXXXX");
	assert_non_null(mkdtemp(tmp_root));
	struct fake_thread ft[NT] = {{0}};
	stat_nthreads = NT;
	for (int i = 0; i < NT; i++)
		put_thread(4242 + i, "w", 100 + (unsigned long long)i, "1 0 1\n");
	struct sysroot r;
	assert_int_equal(sysroot_open(&r, tmp_root), 0);
	struct thread_sampler *ts = thread_sampler_new(&r, 4242, false);
	assert_non_null(ts);
	thread_sampler_set_status_period(ts, P);
	struct thread_set prev = {0}, cur = {0};
	struct thread_rate *rates = NULL;
	size_t cap = 0, status_total = 0;
	struct thread_sampler_reads rd0, rd1;

	for (int k = 0; k < TICKS; k++) {
		double t = t0 + T * k;
		for (int i = 0; i < NT; i++) {
			if (k > 0 && !cadence_idle(i, k)) {
				unsigned long long dv = i == 3 && k > 10 ? 20 : 10;
				ft[i].run += 1000, ft[i].v += dv, ft[i].iv += 1;
			}
			put_counts(4242 + i, &ft[i]);
		}
		thread_sampler_read_counts(ts, &rd0);
		assert_int_equal(thread_sampler_sample_at(ts, t, &cur), 0);
		thread_sampler_read_counts(ts, &rd1);
		assert_int_equal(cur.n, NT);
		size_t status_reads = (size_t)(rd1.status - rd0.status);
		if (k >= 2) {
			/* An even share: about NT * T / P per tick, never all. */
			assert_true(status_reads >= 3 && status_reads <= 13);
			status_total += status_reads;
		}
		for (size_t j = 0; k > 0 && j < cur.n; j++) /* staleness bound */
			assert_true(t - cur.v[j].csw_time <= P + T + 1e-9);
		if (k == 0) {
			thread_set_copy(&prev, &cur);
			continue;
		}
		size_t n = thread_rates(&prev, &cur, &rates, &cap);
		for (int i = 0; i < NT; i++) {
			const struct thread_rate *x = tl_find_rate(rates, n, 4242 + i);
			double v = x->vcsw_per_s, iv = x->ivcsw_per_s;
			assert_false(x->is_new);
			if (cadence_idle(i, k)) { /* falls to 0 within P + 2 ticks */
				assert_true(v >= 0 && v <= 50 + 1e-6);
				if (k >= (i == 1 ? 10 : 3) + 7)
					assert_float_equal(v, 0.0, 1e-9);
			} else if (i == 3 && k > 10) { /* exact once two reads follow */
				assert_true(v >= 50 - 1e-6 && v <= 100 + 1e-6);
				if (k >= 10 + 12)
					assert_float_equal(v, 100.0, 1e-6);
			} else { /* running: exact, also on ticks without a read */
				assert_float_equal(v, 50.0, 1e-6);
				assert_float_equal(iv, 5.0, 1e-6);
			}
		}
		thread_set_copy(&prev, &cur);
	}
	/* 28 ticks of 0.2 s at one read per second: about 5.6 reads per thread. */
	assert_true(status_total >= 4 * NT && status_total <= 7 * NT);
	thread_sampler_read_counts(ts, &rd1);
	assert_int_equal(rd1.listings, 1);

	stat_nthreads = 20;
	free(rates);
	thread_set_free(&prev);
	thread_set_free(&cur);
	thread_sampler_free(ts);
	sysroot_close(&r);
	assert_int_equal(nftw(tmp_root, rm_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(stat_names),      cmocka_unit_test(stat_long_name_is_cut),
	    cmocka_unit_test(stat_truncated),  cmocka_unit_test(stat_malformed),
	    cmocka_unit_test(stat_self),       cmocka_unit_test(schedstat_cases),
	    cmocka_unit_test(status_cases),    cmocka_unit_test(sampler_fixture),
	    cmocka_unit_test(sampler_changes), cmocka_unit_test(status_cadence),
	    cmocka_unit_test(rates_handmade),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
