/* test-lab-protocol.c — the workload's protocols under stress and abuse.
 *
 * The settings sequence lock (control.h) hammered, first against one
 * helper driven through a bare control block, then through lab_apply();
 * a parked helper holding settings it never applied; the pause / add a
 * stream / unpause sequence; what the lab's processes inherit (stdio,
 * the control memfd); the anchor's bell after a timeout; counts in the
 * anchor's block that cannot be trusted; quota moves that fail.  Live
 * processes come from $THREADLAB_BUILDDIR; sizes stay at 128 and 256. */
#define _GNU_SOURCE
#include "tl-test.h"
#include "tl-ctl.h"
#include "tl-lab.h"

#include "lab.h"
#include "lab-status.h"
#include "lab-internal.h" /* the shared blocks, to check and to corrupt */

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N 256

/* ---- one helper on a bare control block -------------------------------- */

/* Settings at n = N, single precision. */
static uint64_t blk_set(struct tl_ctl *l, uint32_t threads, uint32_t streams, uint32_t paused)
{
	return tl_ctl_write(&l->ctl->settings, threads, streams, N, CTL_SINGLE, paused);
}

struct applied {
	uint64_t epoch;
	uint32_t threads, size;
};

/* What a stream has in effect, read as control.h says; false while the
 * helper is applying a change. */
static bool applied_read(const struct ctl_stream *c, struct applied *a)
{
	a->epoch = atomic_load_explicit(&c->applied_epoch, memory_order_acquire);
	a->threads = atomic_load_explicit(&c->threads, memory_order_relaxed);
	a->size = atomic_load_explicit(&c->size, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	return a->epoch != 0 &&
	       atomic_load_explicit(&c->applied_epoch, memory_order_relaxed) == a->epoch;
}

/* Settings rewritten in bursts while the helper runs, each with threads =
 * size / 128: whatever epoch the helper has in effect, it is an even one and
 * its threads and size are the ones written for it. */
static void test_helper_settings_hammer(void **state)
{
	(void)state;
	struct tl_ctl l;
	tl_ctl_open(&l);
	pid_t pid = tl_ctl_spawn(&l, 0);
	struct ctl_settings *set = &l.ctl->settings;
	const struct ctl_stream *s = &l.ctl->stream[0];
	size_t cap = (size_t)1 << 22;
	unsigned char *written = calloc(cap, 1); /* threads written at epoch 2k, in [k] */
	assert_non_null(written);
	uint64_t e = tl_ctl_write(set, 1, 1, 128, CTL_SINGLE, 0);
	written[e / 2] = 1;
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 3000), 0);
	unsigned seed = 12345;
	long samples = 0, epochs = 0, bad = 0;
	uint64_t last = 0;
	double t0 = tl_now_s();
	while (tl_now_s() - t0 < 1.5 && e / 2 + 400 < cap) {
		int burst = 1 + rand_r(&seed) % 400;
		for (int k = 0; k < burst; k++) {
			uint32_t t = 1 + (uint32_t)(rand_r(&seed) % 2);
			e = tl_ctl_write(set, t, 1, 128 * t, CTL_SINGLE, 0);
			written[e / 2] = (unsigned char)t;
		}
		double q0 = tl_now_s(), quiet = (rand_r(&seed) % 1000) * 1e-6;
		do {
			struct applied a;
			if (!applied_read(s, &a))
				continue;
			samples++;
			epochs += a.epoch != last;
			last = a.epoch;
			if (a.epoch % 2 == 0 && a.epoch <= e && written[a.epoch / 2] == a.threads &&
			    a.size == 128 * a.threads)
				continue;
			if (bad++ == 0)
				printf("# epoch %llu applied as threads %u size %u, written %u\n",
				       (unsigned long long)a.epoch, a.threads, a.size,
				       a.epoch % 2 || a.epoch > e ? 0 : written[a.epoch / 2]);
		} while (tl_now_s() - q0 < quiet);
	}
	printf("# %llu settings written, %ld epochs seen applied in %ld samples, %ld not as "
	       "written\n",
	       (unsigned long long)e / 2, epochs, samples, bad);
	assert_int_equal(bad, 0);
	assert_true(epochs > 10);
	/* The last one is applied, and the helper did GEMMs all along. */
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 3000), 0);
	struct applied a;
	assert_true(applied_read(s, &a));
	assert_int_equal(a.threads, written[e / 2]);
	assert_int_equal(a.size, 128 * a.threads);
	assert_false(tl_pid_gone(pid));
	assert_true(atomic_load(&s->gemms) > 0);
	free(written);
	tl_ctl_close(&l);
}

/* Defence in depth: a parked helper that never prepared its matrices must
 * not call GEMM on settings it holds but never applied.  Here the writer
 * stores "unpause, 2 streams" and waits 30 ms before it moves the epoch (a
 * writer without the odd epoch, preempted): the helper's copy then carries
 * the new fields under the epoch it has applied.  Once the epoch moves,
 * the pause / add a stream / unpause sequence ends with stream 1 running. */
static void test_unprepared_never_runs(void **state)
{
	(void)state;
	struct tl_ctl l;
	tl_ctl_open(&l);
	tl_ctl_spawn(&l, 0);
	pid_t p1 = tl_ctl_spawn(&l, 1);
	struct ctl_settings *set = &l.ctl->settings;
	const struct ctl_stream *s1 = &l.ctl->stream[1];
	uint64_t e = blk_set(&l, 1, 1, 0);
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 3000), 0);
	e = blk_set(&l, 1, 1, 1); /* pause */
	assert_int_equal(tl_ctl_wait_applied(&l, 0, e, 3000), 0);
	e = blk_set(&l, 1, 2, 1); /* add a stream, paused */
	assert_int_equal(tl_ctl_wait_applied(&l, 1, e, 3000), 0);
	tl_sleep_ms(20);
	assert_int_equal(atomic_load(&s1->state), CTL_STREAM_PAUSED);
	struct ctl_values unpause = {1, 2, N, CTL_SINGLE, 0, 0, 0, 0, 1, CTL_GEMM, 0};
	control_settings_store(set, &unpause); /* unpause, epoch not moved yet */
	tl_sleep_ms(30);
	uint64_t g = atomic_load(&s1->gemms), f = atomic_load(&s1->flops);
	printf("# stream 1 before the epoch moved: state %u, %llu GEMMs\n", atomic_load(&s1->state),
	       (unsigned long long)g);
	assert_int_equal(g, 0);
	assert_int_equal(f, 0);
	assert_int_not_equal(atomic_load(&s1->state), CTL_STREAM_RUNNING);
	e = atomic_fetch_add(&set->epoch, 2) + 2;
	assert_int_equal(tl_ctl_wait_applied(&l, 1, e, 3000), 0);
	tl_sleep_ms(30);
	assert_int_equal(atomic_load(&s1->state), CTL_STREAM_RUNNING);
	assert_true(atomic_load(&s1->gemms) > 0);
	assert_int_equal(atomic_load(&s1->flops), atomic_load(&s1->gemms) * 2ull * N * N * N);
	assert_false(tl_pid_gone(p1));
	tl_ctl_close(&l);
}

/* ---- through the lab ----------------------------------------------------- */

/* Pause, add a stream, unpause: the new helper never prepared while parked,
 * and must prepare and run once unpaused (never GEMM without matrices). */
static void test_pause_add_stream_unpause(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	struct lab *lab = tl_lab_start(s);
	char msg[256];
	for (int round = 0; round < 3; round++) {
		s.streams = 1;
		s.paused = true;
		assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), 0);
		s.streams = 2 + round;
		assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), 0);
		assert_int_equal(lab_status_wait_ready(lab, 10000, msg, sizeof(msg)), 0);
		s.paused = false;
		assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), 0);
		assert_int_equal(lab_status_wait_ready(lab, 10000, msg, sizeof(msg)), 0);
	}
	struct lab_status st;
	assert_int_equal(lab_status_read(lab, &st), 0);
	for (int i = 0; i < s.streams; i++) {
		const struct lab_stream_status *x = &st.stream[i];
		assert_int_equal(x->state, CTL_STREAM_RUNNING);
		assert_int_equal(x->size, 256);
		assert_int_equal(x->restarts, 0);
		assert_true(x->gemms > 0);
		assert_true(x->flops == x->gemms * 2ull * 256 * 256 * 256);
	}
	lab_stop(lab);
}

/* lab_apply() in a tight loop with threads = size / 128 each time: every
 * epoch the helper has in effect (read as control.h says) is even and
 * carries a pair written together. */
static void test_lab_settings_hammer(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	s.threads = 2; /* size 256 */
	struct lab *lab = tl_lab_start(s);
	const struct ctl_stream *c = &lab->ctl->stream[0];
	long applies = 0, samples = 0, bad = 0;
	unsigned seed = 7;
	double t0 = tl_now_s();
	while (tl_now_s() - t0 < 1.0) {
		s.threads = 1 + rand_r(&seed) % 2;
		s.size = 128 * s.threads;
		assert_int_equal(lab_apply(lab, &s, NULL, 0), 0);
		applies++;
		uint64_t e1 = atomic_load_explicit(&c->applied_epoch, memory_order_acquire);
		uint32_t t = atomic_load_explicit(&c->threads, memory_order_relaxed);
		uint32_t n = atomic_load_explicit(&c->size, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (e1 == 0 || atomic_load(&c->applied_epoch) != e1)
			continue;
		samples++;
		if (e1 % 2 || n != 128 * t) {
			if (bad++ == 0)
				printf("# epoch %llu applied as threads %u size %u\n",
				       (unsigned long long)e1, t, n);
		}
	}
	printf("# %ld settings applied, %ld samples, %ld not written together\n", applies, samples,
	       bad);
	assert_int_equal(bad, 0);
	char msg[256];
	assert_int_equal(lab_status_wait_ready(lab, 10000, msg, sizeof(msg)), 0);
	struct lab_status st;
	lab_status_read(lab, &st);
	assert_int_equal(st.epoch % 2, 0);
	assert_int_equal(st.stream[0].threads, s.threads);
	assert_int_equal(st.stream[0].size, s.size);
	lab_stop(lab);
}

/* ---- descriptors and the anchor's bell ----------------------------------- */

static bool fd_is(pid_t pid, int fd, const char *want)
{
	char path[64], link[256];
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return false;
	link[n] = '\0';
	return strcmp(link, want) == 0;
}

/* Whether any descriptor of pid is a memfd. */
static bool has_memfd(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	DIR *d = opendir(path);
	assert_non_null(d);
	bool found = false;
	struct dirent *e;
	while ((e = readdir(d))) {
		char p[320], link[256];
		snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
		ssize_t n = readlink(p, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			if (strncmp(link, "/memfd:", 7) == 0) {
				printf("# %d: fd %s -> %s\n", (int)pid, e->d_name, link);
				found = true;
			}
		}
	}
	closedir(d);
	return found;
}

/* The workload's processes write nowhere near threadlab's terminal, and the
 * control block reaches the helpers only. */
static void test_descriptors(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	s.workers = 1;
	struct lab *lab = tl_lab_start(s);
	struct lab_status st;
	lab_status_read(lab, &st);
	pid_t who[] = {st.anchor_pid, st.stream[0].pid, st.worker_pid[0]};
	for (size_t i = 0; i < sizeof(who) / sizeof(who[0]); i++) {
		assert_true(who[i] > 0);
		for (int fd = 0; fd <= 2; fd++) {
			if (!fd_is(who[i], fd, "/dev/null"))
				fail_msg("process %d: fd %d is not /dev/null", (int)who[i], fd);
		}
	}
	assert_false(has_memfd(st.worker_pid[0]));
	lab_stop(lab);
}

/* An answer that comes after lab_apply() gave up waiting is not taken for
 * the answer to the next request. */
static void test_bell_after_timeout(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	s.paused = true;
	struct lab *lab = tl_lab_start(s);
	pid_t anchor = lab_root_pid(lab);
	char msg[256];
	assert_int_equal(kill(anchor, SIGSTOP), 0);
	s.workers = 1;
	assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), -ETIMEDOUT);
	printf("# %s\n", msg);
	assert_int_equal(kill(anchor, SIGCONT), 0);
	tl_sleep_ms(300); /* the anchor handles the old request and answers late */
	s.workers = 3;
	assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), 0);
	struct lab_status st;
	lab_status_read(lab, &st);
	assert_int_equal(st.nworkers, 3);
	s.workers = 0;
	assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), 0);
	lab_status_read(lab, &st);
	assert_int_equal(st.nworkers, 0);
	lab_stop(lab);
}

/* Threads, size and pause go through the control block alone: with the
 * anchor stopped they still apply at once; a worker change needs it. */
static void test_apply_without_anchor(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	struct lab *lab = tl_lab_start(s);
	pid_t anchor = lab_root_pid(lab);
	char msg[256];
	assert_int_equal(kill(anchor, SIGSTOP), 0);
	s.threads = 2;
	s.paused = true;
	double t0 = tl_now_s();
	int rc = lab_apply(lab, &s, msg, sizeof(msg));
	double dt = tl_now_s() - t0;
	printf("# threads+pause with the anchor stopped: rc %d in %.3f s\n", rc, dt);
	assert_int_equal(rc, 0);
	s.workers = 1;
	assert_int_equal(lab_apply(lab, &s, msg, sizeof(msg)), -ETIMEDOUT);
	assert_int_equal(kill(anchor, SIGCONT), 0);
	assert_int_equal(lab_status_wait_ready(lab, 10000, msg, sizeof(msg)), 0);
	struct lab_status st;
	lab_status_read(lab, &st);
	assert_int_equal(st.stream[0].threads, 2);
	assert_true(st.settings.paused);
	lab_stop(lab);
}

/* Counts in the anchor's block are bounded before use. */
static void test_status_bounds(void **state)
{
	(void)state;
	struct lab_settings s = tl_lab_small();
	s.paused = true;
	struct lab *lab = tl_lab_start(s);
	struct lab_status *st = malloc(sizeof(*st));
	assert_non_null(st);
	atomic_store(&lab->shm->nworkers, 100000);
	atomic_store(&lab->shm->want_slots, 100000);
	lab_status_read(lab, st);
	atomic_store(&lab->shm->nworkers, 0);
	atomic_store(&lab->shm->want_slots, 1);
	assert_true(st->nworkers <= LAB_MAX_WORKERS);
	assert_true(st->nslots <= CTL_MAX_STREAMS);
	assert_true(st->npids <= LAB_MAX_PIDS);
	free(st);
	lab_stop(lab);
}

/* ---- quota ---------------------------------------------------------------- */

static int fake_write(const char *path, const char *text)
{
	(void)path;
	long pid = atol(text);
	return pid == 11 ? -ESRCH : pid == 12 ? -EACCES : pid == 13 ? -EPERM : 0;
}

/* A process that cannot be moved into the quota cgroup is reported (one
 * that has gone is not). */
static void test_quota_add_all(void **state)
{
	(void)state;
	static const struct lab_quota_sys sys = {.root = "", .write = fake_write};
	struct lab_quota q = {.created = true, .version = 2, .sys = &sys};
	snprintf(q.leaf, sizeof(q.leaf), "/nonexistent/work");
	pid_t failed = 0;
	const pid_t ok[] = {10, 11, 0, 14};
	assert_int_equal(lab_quota_add_all(&q, ok, 4, &failed), 0);
	assert_int_equal(failed, 0);
	const pid_t some[] = {10, 11, 12, 13};
	assert_int_equal(lab_quota_add_all(&q, some, 4, &failed), -EACCES);
	assert_int_equal(failed, 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_helper_settings_hammer, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_unprepared_never_runs, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_pause_add_stream_unpause, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_lab_settings_hammer, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_descriptors, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_bell_after_timeout, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_apply_without_anchor, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_status_bounds, tl_lab_teardown),
	    cmocka_unit_test_teardown(test_quota_add_all, tl_lab_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
