/* lab-status.c — reading the lab: counters, pids, readiness, and the
 * single-thread rate (measured by a short 1 x 1 calibration, cached per
 * size and precision, refined while the lab runs 1 x 1 in steady state). */
#define _GNU_SOURCE
#include "lab-internal.h"
#include "xalloc.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#define CAL_BUSY_NS 250000000ull /* calibration: 0.25 s inside GEMM calls */
#define CAL_MAX_MS  3000
#define SS_BUSY_NS  1000000000ull /* refinement window: 1 s inside GEMM calls */

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

static void read_stream(const struct lab *lab, int i, struct lab_stream_status *o)
{
	const struct ctl_stream *c = &lab->ctl->stream[i];
	memset(o, 0, sizeof(*o));
	o->state = (enum ctl_stream_state)atomic_load(&c->state);
	o->pid = atomic_load(&lab->shm->helper_pid[i]);
	o->applied_epoch = atomic_load(&c->applied_epoch);
	o->threads = (int)atomic_load(&c->threads);
	o->pool = (int)atomic_load(&c->pool);
	o->size = (int)atomic_load(&c->size);
	o->precision = (enum ctl_precision)atomic_load(&c->precision);
	o->gemms = atomic_load(&c->gemms);
	o->flops = atomic_load(&c->flops);
	o->busy_ns = atomic_load(&c->busy_ns);
	o->checked = atomic_load(&c->checked);
	o->mismatches = atomic_load(&c->mismatches);
	o->max_diff = u64_to_double_bits(atomic_load(&c->max_diff_bits));
	if (o->state == CTL_STREAM_FAILED)
		snprintf(o->error, sizeof(o->error), "%.*s", (int)sizeof(c->error) - 1, c->error);
	if (atomic_load(&lab->shm->helper_exited[i]) && o->state != CTL_STREAM_EXITED &&
	    o->state != CTL_STREAM_FAILED) {
		int st = atomic_load(&lab->shm->helper_status[i]);
		o->state = CTL_STREAM_FAILED;
		if (WIFSIGNALED(st))
			snprintf(o->error, sizeof(o->error), "helper killed by signal %d",
				 WTERMSIG(st));
		else
			snprintf(o->error, sizeof(o->error), "helper exited with status %d",
				 WEXITSTATUS(st));
	}
}

/* Feeds the cache while the lab runs 1 stream x 1 thread undisturbed. */
static void refine_rate(struct lab *lab, const struct lab_status *st)
{
	const struct lab_stream_status *s0 = &st->stream[0];
	bool clean = st->settings.streams == 1 && st->settings.threads == 1 &&
		     !st->settings.paused && st->nworkers == 0 && st->quota_cpus <= 0 &&
		     st->applied && s0->state == CTL_STREAM_RUNNING;
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
	uint32_t n = (uint32_t)s0->size, p = (uint32_t)s0->precision;
	if (tp_cache_get(&lab->rates, n, p, &old) == 0)
		rate = 0.8 * old + 0.2 * rate;
	tp_cache_put(&lab->rates, n, p, rate);
	lab->ss_flops = s0->flops;
	lab->ss_busy = s0->busy_ns;
}

int lab_read(struct lab *lab, struct lab_status *st)
{
	memset(st, 0, sizeof(*st));
	st->settings = lab->set;
	st->settings.cpus = lab->quota.created ? lab->quota.cpus : 0;
	st->epoch = atomic_load(&lab->ctl->settings.epoch);
	st->nslots = (int)atomic_load(&lab->shm->want_slots);
	st->results_equal = true;
	st->applied = true;
	for (int i = 0; i < st->nslots && i < CTL_MAX_STREAMS; i++) {
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
	}
	st->nworkers = (int)atomic_load(&lab->shm->nworkers);
	for (int i = 0; i < st->nworkers && i < LAB_MAX_WORKERS; i++)
		st->worker_pid[i] = atomic_load(&lab->shm->worker_pid[i]);
	st->blas_variant = "";
	if (atomic_load(&lab->ctl->blas_info_ready)) {
		snprintf(st->blas_config, sizeof(st->blas_config), "%.*s",
			 (int)sizeof(lab->ctl->blas_info) - 1, lab->ctl->blas_info);
		snprintf(st->blas_core, sizeof(st->blas_core), "%.*s",
			 (int)sizeof(lab->ctl->blas_core) - 1, lab->ctl->blas_core);
		st->blas_variant = variant_name(atomic_load(&lab->ctl->blas_parallel));
	}
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
	refine_rate(lab, st);
	if (lab->anchor <= 0 || kill(lab->anchor, 0) < 0)
		return -ESRCH;
	return 0;
}

int lab_wait_ready(struct lab *lab, int timeout_ms, char *msg, size_t msglen)
{
	uint64_t base[CTL_MAX_STREAMS];
	bool seen[CTL_MAX_STREAMS] = {false};
	struct lab_status *st = xmalloc(sizeof(*st));
	int rc = -ETIMEDOUT;
	for (int waited = 0; waited <= timeout_ms; waited += 5) {
		if (lab_read(lab, st) < 0) {
			snprintf(msg, msglen, "the lab's processes have gone");
			rc = -ESRCH;
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

double lab_single_rate_cached(const struct lab *lab, int n, enum ctl_precision p)
{
	double r;
	struct tp_cache c = lab->rates; /* get() stamps the entry: work on a copy */
	return tp_cache_get(&c, (uint32_t)n, (uint32_t)p, &r) == 0 ? r : 0;
}

double lab_single_rate(struct lab *lab, int n, enum ctl_precision p)
{
	double r;
	if (tp_cache_get(&lab->rates, (uint32_t)n, (uint32_t)p, &r) == 0)
		return r;
	/* Calibrate: 1 stream x 1 thread, no workers, quota lifted. */
	struct lab_settings saved = lab->set, cal = lab->set;
	cal.streams = 1;
	cal.threads = 1;
	cal.size = n;
	cal.precision = p;
	cal.paused = false;
	cal.workers = 0;
	cal.cpus = 0;
	char msg[256];
	r = 0;
	if (lab_apply(lab, &cal, msg, sizeof(msg)) == 0 &&
	    lab_wait_ready(lab, CAL_MAX_MS, msg, sizeof(msg)) == 0) {
		const struct ctl_stream *c = &lab->ctl->stream[0];
		uint64_t f0 = atomic_load(&c->flops), b0 = atomic_load(&c->busy_ns);
		for (int waited = 0; waited < CAL_MAX_MS; waited += 10) {
			sleep_ms(10);
			uint64_t b = atomic_load(&c->busy_ns);
			if (b - b0 >= CAL_BUSY_NS) {
				r = (double)(atomic_load(&c->flops) - f0) / (double)(b - b0);
				break;
			}
		}
	}
	if (r > 0)
		tp_cache_put(&lab->rates, (uint32_t)n, (uint32_t)p, r);
	saved.spin_off = lab->set.spin_off;
	lab_apply(lab, &saved, msg, sizeof(msg));
	return r;
}
