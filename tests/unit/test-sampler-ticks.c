/* test-sampler-ticks.c — the thread sampler over a /proc tree the test
 * changes between ticks: threads that come, go and reuse a TID, status on
 * its own cadence and the sched period, on a clock of the test's own. */
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

/* One tick at time t of NT threads: the files it read. */
static struct thread_sampler_reads tick(struct thread_sampler *ts, double t, struct thread_set *cur)
{
	struct thread_sampler_reads a, b;
	thread_sampler_read_counts(ts, &a);
	assert_int_equal(thread_sampler_sample_at(ts, t, cur), 0);
	thread_sampler_read_counts(ts, &b);
	assert_int_equal(cur->n, NT);
	b.listings -= a.listings, b.schedstat -= a.schedstat, b.stat -= a.stat;
	b.status -= a.status;
	return b;
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
	struct thread_sampler_reads rd1;

	for (int k = 0; k < TICKS; k++) {
		double t = t0 + T * k;
		for (int i = 0; i < NT; i++) {
			if (k > 0 && !cadence_idle(i, k)) {
				unsigned long long dv = i == 3 && k > 10 ? 20 : 10;
				ft[i].run += 1000, ft[i].v += dv, ft[i].iv += 1;
			}
			put_counts(4242 + i, &ft[i]);
		}
		size_t status_reads = (size_t)tick(ts, t, &cur).status;
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

/* ---- the sched period (fake clock) -------------------------------------- */

static void put_sched(int tid, unsigned long long run, unsigned long long wait)
{
	char rel[96], text[96];
	snprintf(rel, sizeof(rel), "proc/4242/task/%d/schedstat", tid);
	snprintf(text, sizeof(text), "%llu %llu %llu\n", run, wait, run / 1000000);
	put(rel, text);
}

/* 40 threads at 50 % CPU and 10 % wait, ticks of 0.2 s, sched period 1 s;
 * 4247 and 4248 wanted, 4251 wanted from tick 15, 4249 stops at tick 10.
 * A thread not wanted is read about once per period, yet its rates hold on
 * the ticks between (carried, never a false 0) and are at most P + T old;
 * the wanted ones, the leader and new threads are read every tick. */
static void sched_cadence(void **state)
{
	(void)state;
	const double P = 1.0, T = 0.2, t0 = 100.0;
	const unsigned long long RUN = 100000000, WAIT = 20000000; /* ns per tick */
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/tl-pp-XXXXXX");
	assert_non_null(mkdtemp(tmp_root));
	unsigned long long run[NT] = {0}, wait[NT] = {0};
	stat_nthreads = NT;
	for (int i = 0; i < NT; i++)
		put_thread(4242 + i, "w", 100 + (unsigned long long)i, "0 0 0\n");
	struct sysroot r;
	assert_int_equal(sysroot_open(&r, tmp_root), 0);
	struct thread_sampler *ts = thread_sampler_new(&r, 4242, false);
	assert_non_null(ts);
	thread_sampler_set_sched_period(ts, P);
	pid_t want[] = {4247, 4248, 4251};
	thread_sampler_want(ts, want, 2);
	struct thread_set prev = {0}, cur = {0};
	struct thread_rate *rates = NULL;
	size_t cap = 0, reads_total = 0;

	for (int k = 0; k < TICKS; k++) {
		double t = t0 + T * k;
		if (k == 15)
			thread_sampler_want(ts, want, 3);
		for (int i = 0; i < NT; i++) {
			if (k > 0 && !(i == 7 && k > 10))
				run[i] += RUN, wait[i] += WAIT;
			put_sched(4242 + i, run[i], wait[i]);
		}
		size_t reads = (size_t)tick(ts, t, &cur).schedstat;
		if (k >= 2) {
			/* 3 or 4 every tick, and an even share of the rest */
			assert_true(reads >= 4 && reads <= 18);
			reads_total += reads;
		}
		for (size_t j = 0; j < cur.n; j++) {
			const struct thread_sample *x = &cur.v[j];
			bool every = x->tid == 4242 || x->tid == 4247 || x->tid == 4248 ||
				     (x->tid == 4251 && k >= 15) || k < 2;
			if (every)
				assert_float_equal(x->sched_time, t, 1e-9);
			assert_true(t - x->sched_time <= P + T + 1e-9);
		}
		if (k == 0) {
			thread_set_copy(&prev, &cur);
			continue;
		}
		size_t n = thread_rates(&prev, &cur, &rates, &cap);
		for (int i = 0; i < NT; i++) {
			const struct thread_rate *x = tl_find_rate(rates, n, 4242 + i);
			assert_false(x->is_new);
			if (i == 7 && k > 10) { /* stopped: 0 within 2 (P + T) */
				assert_true(x->cpu_pct <= 50.0 + 1e-6);
				if (k >= 10 + 12)
					assert_float_equal(x->cpu_pct, 0.0, 1e-9);
			} else {
				assert_float_equal(x->cpu_pct, 50.0, 1e-6);
				assert_float_equal(x->wait_pct, 10.0, 1e-6);
			}
		}
		thread_set_copy(&prev, &cur);
	}
	/* 28 ticks: 3 or 4 threads every tick, the other 36 about once a
	 * second (28 x 0.2 s = 5.6 s): far fewer than 40 a tick. */
	assert_true(reads_total >= 28 * 3 + 4 * 36 && reads_total <= 28 * 4 + 7 * 36);

	stat_nthreads = 20;
	free(rates);
	thread_set_free(&prev);
	thread_set_free(&cur);
	thread_sampler_free(ts);
	sysroot_close(&r);
	assert_int_equal(nftw(tmp_root, rm_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(sampler_changes),
	    cmocka_unit_test(status_cadence),
	    cmocka_unit_test(sched_cadence),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
