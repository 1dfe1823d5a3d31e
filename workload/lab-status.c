/* lab-status.c — reading the lab: counters, pids, restarts, readiness, and
 * the single-thread rate (measured by a short 1 x 1 calibration, cached per
 * size and precision, refined while the lab runs 1 x 1 in steady state; the
 * method is in lab.h). */
#define _GNU_SOURCE
#include "lab-internal.h"
#include "xalloc.h"
#include "lab-settings.h"
#include "lab-status.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CAL_TOTAL_MS	 600	      /* calibration: windows over this long */
#define CAL_WINDOW_CALLS 3	      /* a window: at least this many calls … */
#define CAL_LONG_NS	 200000000ull /* … or one call when calls take this long */
#define CAL_POLL_MS	 2
#define SS_BUSY_NS	 1000000000ull /* refinement window: 1 s inside GEMM calls */

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static double u64_to_double_bits(uint64_t bits)
{
	double d;
	memcpy(&d, &bits, sizeof(d));
	return d;
}

static const char *variant_name(uint32_t v)
{
	switch (v) {
	case 0:
		return "sequential";
	case 1:
		return "pthreads";
	case 2:
		return "openmp";
	default:
		return "unknown";
	}
}

struct counts {
	uint64_t gemms, flops, busy_ns;
};

/* gemms, flops and busy_ns of one instant (control.h's sequence lock). */
static struct counts read_counts(const struct ctl_stream *c)
{
	struct counts k;
	for (int tries = 0;; tries++) {
		uint64_t s1 = atomic_load_explicit(&c->count_seq, memory_order_acquire);
		k.gemms = atomic_load_explicit(&c->gemms, memory_order_relaxed);
		k.flops = atomic_load_explicit(&c->flops, memory_order_relaxed);
		k.busy_ns = atomic_load_explicit(&c->busy_ns, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		uint64_t s2 = atomic_load_explicit(&c->count_seq, memory_order_relaxed);
		/* A helper killed mid-update leaves the lock odd: take what is there. */
		if ((s1 == s2 && !(s1 & 1)) || tries > 1000)
			return k;
	}
}

static void describe_exit(int st, char *buf, size_t cap)
{
	if (WIFSIGNALED(st))
		snprintf(buf, cap, "helper killed by signal %d", WTERMSIG(st));
	else
		snprintf(buf, cap, "helper exited with status %d", WEXITSTATUS(st));
}

static void read_stream(const struct lab *lab, int i, struct lab_stream_status *o)
{
	const struct ctl_stream *c = &lab->ctl->stream[i];
	const struct lab_shm *shm = lab->shm;
	memset(o, 0, sizeof(*o));
	o->state = (enum ctl_stream_state)atomic_load(&c->state);
	o->pid = atomic_load(&shm->helper_pid[i]);
	o->applied_epoch = atomic_load(&c->applied_epoch);
	o->threads = (int)atomic_load(&c->threads);
	o->pool = (int)atomic_load(&c->pool);
	o->size = (int)atomic_load(&c->size);
	o->precision = (enum ctl_precision)atomic_load(&c->precision);
	o->kernel = atomic_load(&c->kernel) == CTL_TRIAD ? CTL_TRIAD : CTL_GEMM;
	o->length = atomic_load(&c->length);
	struct counts k = read_counts(c);
	o->gemms = k.gemms;
	o->flops = k.flops;
	o->busy_ns = k.busy_ns;
	o->busy_cpu_ns = atomic_load(&c->busy_cpu_ns);
	o->checked = atomic_load(&c->checked);
	o->mismatches = atomic_load(&c->mismatches);
	o->max_diff = u64_to_double_bits(atomic_load(&c->max_diff_bits));
	o->epoch_checked = atomic_load(&c->epoch_checked);
	o->epoch_mismatches = atomic_load(&c->epoch_mismatches);
	o->epoch_max_diff = u64_to_double_bits(atomic_load(&c->epoch_max_diff_bits));
	if (o->state == CTL_STREAM_FAILED)
		snprintf(o->error, sizeof(o->error), "%.*s", (int)sizeof(c->error) - 1, c->error);
	o->batches = atomic_load(&c->batches);
	o->input_wait_ns = atomic_load(&c->input_wait_ns);
	o->restarts = atomic_load(&shm->helper_restarts[i]);
	int st = atomic_load(&shm->helper_status[i]);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		describe_exit(st, o->last_failure, sizeof(o->last_failure));
	if (!atomic_load(&shm->helper_exited[i]) || o->state == CTL_STREAM_EXITED)
		return;
	/* The helper is gone for good. */
	if (o->state != CTL_STREAM_FAILED || !o->error[0])
		describe_exit(st, o->error, sizeof(o->error));
	o->state = CTL_STREAM_FAILED;
	int e = atomic_load(&shm->helper_restart_errno[i]);
	size_t len = strlen(o->error);
	if (e)
		snprintf(o->error + len, sizeof(o->error) - len, "; cannot restart it: %s",
			 strerror(e));
	else if (atomic_load(&shm->helper_gave_up[i]))
		snprintf(o->error + len, sizeof(o->error) - len,
			 "; not restarted: it was restarted %u times within %d s, no more restarts",
			 o->restarts, LAB_RESTART_WINDOW_S);
}

static void read_loaders(const struct lab *lab, struct lab_status *st)
{
	const struct lab_shm *shm = lab->shm;
	for (int k = 0; k < CTL_MAX_LOADERS; k++) {
		const struct ctl_loader *c = &lab->ctl->pipe.loader[k];
		struct lab_loader_status *o = &st->loader[k];
		o->pid = atomic_load(&shm->loader_pid[k]);
		o->preparing = atomic_load(&c->state) == CTL_STREAM_RUNNING;
		o->batches = atomic_load(&c->batches);
		o->cpu_ns = atomic_load(&c->cpu_ns);
		o->restarts = atomic_load(&shm->loader_restarts[k]);
		o->gave_up = atomic_load(&shm->loader_gave_up[k]) != 0;
		int ls = atomic_load(&shm->loader_status[k]);
		if (o->restarts || o->gave_up) {
			if (WIFSIGNALED(ls))
				snprintf(o->last_failure, sizeof(o->last_failure),
					 "loader killed by signal %d", WTERMSIG(ls));
			else
				snprintf(o->last_failure, sizeof(o->last_failure),
					 "loader exited with status %d", WEXITSTATUS(ls));
		}
		st->loader_batches += o->batches;
		st->loader_cpu_ns += o->cpu_ns;
		st->loader_restarts += o->restarts;
	}
}

/* Feeds the cache while the lab runs 1 stream x 1 thread undisturbed. */
static void refine_rate(struct lab *lab, const struct lab_status *st)
{
	const struct lab_stream_status *s0 = &st->stream[0];
	bool clean = st->settings.streams == 1 && st->settings.threads == 1 &&
		     !st->settings.paused && st->nworkers == 0 && st->quota_cpus <= 0 &&
		     st->settings.loaders == 0 && st->applied && s0->state == CTL_STREAM_RUNNING;
	if (!clean || s0->applied_epoch != lab->ss_epoch || s0->busy_ns < lab->ss_busy) {
		lab->ss_epoch = clean ? s0->applied_epoch : 0;
		lab->ss_flops = s0->flops;
		lab->ss_busy = s0->busy_ns;
		return;
	}
	uint64_t dbusy = s0->busy_ns - lab->ss_busy;
	if (dbusy < SS_BUSY_NS)
		return;
	double rate = (double)(s0->flops - lab->ss_flops) / (double)dbusy;
	double old;
	uint32_t n = s0->kernel == CTL_TRIAD ? LAB_TRIAD_KEY : (uint32_t)s0->size;
	uint32_t p = (uint32_t)s0->precision;
	/* Noise only lowers a rate: the best reading is the machine's. */
	if (rate_cache_get(&lab->rates, n, p, &old) == 0 && old > rate)
		rate = old;
	rate_cache_put(&lab->rates, n, p, rate);
	lab->ss_flops = s0->flops;
	lab->ss_busy = s0->busy_ns;
}

int lab_status_read(struct lab *lab, struct lab_status *st)
{
	memset(st, 0, sizeof(*st));
	st->settings = lab->set;
	st->settings.cpus = lab->quota.created ? lab->quota.cpus : 0;
	st->epoch = atomic_load(&lab->ctl->settings.epoch);
	/* Bounded: the counts come from another process's memory. */
	st->nslots = (int)atomic_load(&lab->shm->want_slots);
	if (st->nslots > CTL_MAX_STREAMS)
		st->nslots = CTL_MAX_STREAMS;
	st->results_equal = true;
	st->epoch_results_equal = true;
	st->applied = true;
	for (int i = 0; i < st->nslots; i++) {
		struct lab_stream_status *s = &st->stream[i];
		read_stream(lab, i, s);
		if (i < lab->set.streams && s->applied_epoch != st->epoch)
			st->applied = false;
		st->gemms += s->gemms;
		st->flops += s->flops;
		st->busy_ns += s->busy_ns;
		st->checked += s->checked;
		if (s->mismatches)
			st->results_equal = false;
		if (s->max_diff > st->max_diff)
			st->max_diff = s->max_diff;
		st->restarts += s->restarts;
		if (i >= lab->set.streams)
			continue;
		st->epoch_checked += s->epoch_checked;
		if (s->epoch_mismatches)
			st->epoch_results_equal = false;
		if (s->epoch_max_diff > st->epoch_max_diff)
			st->epoch_max_diff = s->epoch_max_diff;
	}
	for (int i = 0; i < st->nslots; i++) {
		/* Every slot: a counter that never goes back (a parked stream
		 * takes no batches, so its share does not move). */
		st->batches += st->stream[i].batches;
		st->input_wait_ns += st->stream[i].input_wait_ns;
	}
	read_loaders(lab, st);
	unsigned nw = atomic_load(&lab->shm->nworkers);
	st->nworkers = nw > LAB_MAX_WORKERS ? LAB_MAX_WORKERS : (int)nw;
	for (int i = 0; i < st->nworkers; i++)
		st->worker_pid[i] = atomic_load(&lab->shm->worker_pid[i]);
	st->blas_variant = "";
	if (atomic_load(&lab->ctl->blas_info_ready)) {
		snprintf(st->blas_config, sizeof(st->blas_config), "%.*s",
			 (int)sizeof(lab->ctl->blas_info) - 1, lab->ctl->blas_info);
		snprintf(st->blas_core, sizeof(st->blas_core), "%.*s",
			 (int)sizeof(lab->ctl->blas_core) - 1, lab->ctl->blas_core);
		st->blas_variant = variant_name(atomic_load(&lab->ctl->blas_parallel));
	}
	st->blas_in_effect =
	    atomic_load(&lab->ctl->blas_parallel) == 2 ? LAB_BLAS_OPENMP : LAB_BLAS_PTHREADS;
	st->blas_switching =
	    atomic_load(&lab->shm->gen_done) != atomic_load(&lab->shm->helper_gen) ||
	    !atomic_load(&lab->ctl->blas_info_ready);
	if (lab->quota.created) {
		snprintf(st->quota_dir, sizeof(st->quota_dir), "%s", lab->quota.top + 1);
		st->quota_version = lab->quota.version;
		st->quota_cpus = lab->quota.cpus;
	}
	snprintf(st->quota_error, sizeof(st->quota_error), "%s", lab->quota_error);
	st->anchor_pid = lab->anchor;
	st->pids[st->npids++] = lab->anchor;
	for (int i = 0; i < st->nslots; i++)
		if (st->stream[i].pid > 0 && !atomic_load(&lab->shm->helper_exited[i]))
			st->pids[st->npids++] = st->stream[i].pid;
	for (int i = 0; i < st->nworkers; i++)
		st->pids[st->npids++] = st->worker_pid[i];
	for (int k = 0; k < CTL_MAX_LOADERS; k++)
		if (st->loader[k].pid > 0)
			st->pids[st->npids++] = st->loader[k].pid;
	refine_rate(lab, st);
	if (lab->anchor <= 0 || kill(lab->anchor, 0) < 0)
		return -ESRCH;
	return 0;
}

/* Whether the anchor has ended, without reaping it (lab_recover() reaps
 * it and says how it ended). */
static bool lab_anchor_ended(const struct lab *lab)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	return lab->anchor > 0 &&
	       waitid(P_PID, (id_t)lab->anchor, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       si.si_pid == lab->anchor;
}

int lab_status_wait_ready(struct lab *lab, int timeout_ms, char *msg, size_t msglen)
{
	uint64_t base[CTL_MAX_STREAMS];
	bool seen[CTL_MAX_STREAMS] = {false};
	struct lab_status *st = xmalloc(sizeof(*st));
	int rc = -ETIMEDOUT;
	for (int waited = 0; waited <= timeout_ms; waited += 5) {
		if (lab_status_read(lab, st) < 0) {
			snprintf(msg, msglen, "the lab's processes have gone");
			rc = -ESRCH;
			break;
		}
		if (lab_anchor_ended(lab)) {
			snprintf(msg, msglen, "the lab's anchor (process %d) has ended",
				 (int)lab->anchor);
			rc = -ECHILD;
			break;
		}
		bool ready = true;
		for (int i = 0; i < lab->set.streams; i++) {
			const struct lab_stream_status *s = &st->stream[i];
			if (s->state == CTL_STREAM_FAILED) {
				snprintf(msg, msglen, "stream %d: %s", i,
					 s->error[0] ? s->error : "helper failed");
				free(st);
				return -EIO;
			}
			if (s->applied_epoch != st->epoch) {
				ready = false;
				continue;
			}
			if (!seen[i]) {
				seen[i] = true;
				base[i] = s->gemms;
			}
			if (!lab->set.paused && s->gemms <= base[i])
				ready = false;
		}
		if (ready) {
			rc = 0;
			break;
		}
		sleep_ms(5);
	}
	if (rc == -ETIMEDOUT)
		snprintf(msg, msglen, "the workload did not apply the settings within %d ms",
			 timeout_ms);
	free(st);
	return rc;
}

double lab_status_single_rate_cached(const struct lab *lab, int n, enum ctl_precision p)
{
	double r;
	struct rate_cache c = lab->rates; /* get() stamps the entry: work on a copy */
	return rate_cache_get(&c, (uint32_t)n, (uint32_t)p, &r) == 0 ? r : 0;
}

/* The best rate (FLOPs per ns inside GEMM = GFLOP/s) over windows of a few
 * calls during CAL_TOTAL_MS, or until one window when calls are long. */
static double calibrate(const struct ctl_stream *c, int timeout_ms)
{
	double best = 0;
	struct counts w0 = read_counts(c);
	for (int waited = 0; waited < timeout_ms; waited += CAL_POLL_MS) {
		sleep_ms(CAL_POLL_MS);
		struct counts k = read_counts(c);
		uint64_t calls = k.gemms - w0.gemms, busy = k.busy_ns - w0.busy_ns;
		if (calls >= CAL_WINDOW_CALLS || (calls >= 1 && busy >= CAL_LONG_NS)) {
			double rate = (double)(k.flops - w0.flops) / (double)busy;
			if (rate > best)
				best = rate;
			w0 = k;
		}
		if (best > 0 && waited >= CAL_TOTAL_MS)
			break;
	}
	return best;
}

/* The settings to calibrate under: 1 stream, not paused, no workers, no
 * loaders, quota lifted (the rest as held). */
static struct lab_settings cal_settings(const struct lab *lab, enum ctl_kernel k, int threads)
{
	struct lab_settings cal = lab->set;
	cal.kernel = k;
	cal.streams = 1;
	cal.threads = threads;
	cal.paused = false;
	cal.workers = 0;
	cal.cpus = 0;
	cal.loaders = 0;
	return cal;
}

/* Runs cal, takes the best rate (FLOPs per ns) and puts the settings
 * before back; 0 when it could not be measured. */
static double calibrate_under(struct lab *lab, const struct lab_settings *cal)
{
	struct lab_settings saved = lab->set;
	char msg[256];
	int timeout = lab_settings_ready_timeout_ms(cal);
	double r = 0;
	if (lab_apply(lab, cal, msg, sizeof(msg)) == 0 &&
	    lab_status_wait_ready(lab, timeout, msg, sizeof(msg)) == 0)
		r = calibrate(&lab->ctl->stream[0], timeout);
	saved.spin_off = lab->set.spin_off;
	lab_apply(lab, &saved, msg, sizeof(msg));
	return r;
}

double lab_status_single_rate(struct lab *lab, int n, enum ctl_precision p)
{
	double r;
	if (rate_cache_get(&lab->rates, (uint32_t)n, (uint32_t)p, &r) == 0)
		return r;
	/* Calibrate: 1 stream x 1 thread, no workers, quota lifted. */
	struct lab_settings cal = cal_settings(lab, n == LAB_TRIAD_KEY ? CTL_TRIAD : CTL_GEMM, 1);
	if (n != LAB_TRIAD_KEY)
		cal.size = n;
	cal.precision = p;
	r = calibrate_under(lab, &cal);
	if (r > 0)
		rate_cache_put(&lab->rates, (uint32_t)n, (uint32_t)p, r);
	return r;
}

int lab_status_rate_key(const struct lab_settings *s)
{
	return s->kernel == CTL_TRIAD ? LAB_TRIAD_KEY : s->size;
}

double lab_status_memory_gbs_cached(const struct lab *lab)
{
	return lab->memory_gbs;
}

double lab_status_memory_gbs(struct lab *lab)
{
	if (lab->memory_gbs > 0)
		return lab->memory_gbs;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	/* In the precision held: bytes are bytes, and its arrays are not made
	 * twice. */
	struct lab_settings cal = cal_settings(lab, CTL_TRIAD,
					       online < 1		  ? 1
					       : online > CTL_MAX_THREADS ? CTL_MAX_THREADS
									  : (int)online);
	/* 2 FLOPs and 3 elements of traffic per index. */
	lab->memory_gbs = calibrate_under(lab, &cal) * 1.5 * (cal.precision == CTL_DOUBLE ? 8 : 4);
	return lab->memory_gbs;
}
