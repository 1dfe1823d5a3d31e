/* gemm-main.c — threadlab-gemm, the workload helper: one GEMM stream.
 *
 *   threadlab-gemm --ctl-fd N --stream I [--parent PID]
 *   threadlab-gemm --burn [--name NAME] [--parent PID]   (as threadlab-burn)
 *
 * threadlab execs one helper per inter-op stream, passing the memfd of the
 * control block (control.h) as descriptor N.  The helper maps it, checks
 * magic and version, and from then on talks only through the block:
 *
 *   - Lifetime: PR_SET_PDEATHSIG(SIGKILL), then getppid() must equal --parent
 *     (default: the parent at start); it never forks (fork while OpenBLAS
 *     threads are busy deadlocks).  threadlab owns its process group.
 *   - Loop: when settings.epoch moves, copy the settings (the sequence lock
 *     of control.h: never while the epoch is odd, again if it moved), apply
 *     them between two GEMM calls, publish what is in effect (applied_epoch
 *     0 meanwhile), then store applied_epoch.  Thread counts are applied
 *     even while paused; size and precision only when the stream runs (their
 *     reference GEMM is work).  Paused, or I >= settings.streams: state
 *     PAUSED, polling every 5 ms, no GEMM.  quit: state EXITED, exit 0.
 *     A stream whose matrices are not prepared for the settings it holds
 *     never calls GEMM (defence against a copy that is not what was applied).
 *   - Names: the pool threads OpenBLAS made when it loaded are named (parked)
 *     at start, and parked again while a reference is computed with one
 *     thread, so no thread ever shows as a bare "threadlab-gemm".
 *   - Each call C = A x B is timed (CLOCK_MONOTONIC, busy_ns) and counted
 *     (gemms, flops += 2 n^3) under the count_seq sequence lock.  With
 *     settings.kernel = CTL_TRIAD a call is the triad instead (triad-run.c,
 *     flops += 2 length), on the same threads and counters; its arrays are
 *     freed when the stream goes back to GEMM (they are large).  The first
 *     result after every applied change is compared with the reference,
 *     later ones while the comparing stays within CHECK_BUDGET of the GEMM
 *     time (checked counts them; the epoch_* figures count since the change).
 *   - Input: with settings.loaders > 0 every GEMM first takes one batch from
 *     the ring of loaders' batches (control.h), waiting while it is empty;
 *     the wait is counted (input_wait_ns) and the batch is read.
 *   - Builds: the anchor starts the helper against the pthreads or the
 *     OpenMP build of OpenBLAS (library path at exec).  Under OpenMP the
 *     team appears at the first GEMM after a thread-count change, so the
 *     names are looked for again after the first few calls; threads libgomp
 *     lets go of vanish from the names (gemm_names_scan).
 *   - Idle spinning: OpenBLAS reads OPENBLAS_THREAD_TIMEOUT when it loads,
 *     libgomp OMP_WAIT_POLICY; the anchor sets them in the helper's
 *     environment (spin off).  The helper leaves the thread servers alone.
 *
 * Exit status: 0 after quit; 1 if the parent died or a system call failed;
 * 2 for a usage error or a descriptor that is not a valid control block. */
#define _GNU_SOURCE
#include "gemm.h"
#include "triad-run.h"
#include "gemm-run.h"
#include "gemm-names.h"
#include "burn.h"
#include "xalloc.h"

#include <cblas.h>
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define POLL_NS 5000000L /* 5 ms between looks at the block while idle */
/* Share of GEMM time the results check may take.  Comparing 2.4 MB (n = 768
 * single) costs ~0.2 ms against a ~4.3 ms GEMM at 2 threads: checking every
 * call would cost ~5 %, so after the first call of a setting, calls are
 * checked as long as the check stays within this budget. */
#define CHECK_BUDGET 0.01

struct helper {
	struct ctl_block *ctl;
	struct ctl_stream *me;
	unsigned index;
	pid_t parent;
	uint64_t applied; /* epoch in effect */
	uint64_t failed;  /* epoch whose settings could not be applied, 0 none */
	struct ctl_values set;
	struct gemm_names names;
	struct gemm_run run;
	struct triad_run triad;
	double max_diff;       /* largest difference published so far */
	double epoch_max_diff; /* the same since the last applied change */
	/* Results-check budget since the last applied change, ns. */
	uint64_t gemm_ns, check_ns;
	unsigned rescans;	   /* looks for new pool threads left after a change (OpenMP) */
	volatile float input_sink; /* what the batches summed to: keeps the reads */
};

static const char *prog = "threadlab-gemm";

static void usage(void)
{
	fprintf(stderr,
		"usage: %s --ctl-fd N --stream I [--parent PID]\n"
		"       %s --burn [--name NAME] [--parent PID]\n"
		"threadlab starts this helper itself; it is not meant to be run by hand.\n",
		prog, prog);
}

static int parse_long(const char *opt, const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "%s: %s %s: expected a number from %ld to %ld\n", prog, opt, s, lo,
			hi);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static void sleep_poll(void)
{
	struct timespec ts = {0, POLL_NS};
	nanosleep(&ts, NULL);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time of every thread of this process, ns. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t diff_bits(double d)
{
	uint64_t bits;
	memcpy(&bits, &d, sizeof(bits));
	return bits;
}

static void set_state(struct helper *h, enum ctl_stream_state s)
{
	atomic_store_explicit(&h->me->state, (uint32_t)s, memory_order_release);
}

static void fail(struct helper *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(h->me->error, sizeof(h->me->error), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: stream %u: %s\n", prog, h->index, h->me->error);
	set_state(h, CTL_STREAM_FAILED);
}

static void report_blas(struct ctl_block *ctl)
{
	snprintf(ctl->blas_info, sizeof(ctl->blas_info), "%s", openblas_get_config());
	snprintf(ctl->blas_core, sizeof(ctl->blas_core), "%s", openblas_get_corename());
	atomic_store_explicit(&ctl->blas_parallel, (uint32_t)openblas_get_parallel(),
			      memory_order_relaxed);
	atomic_store_explicit(&ctl->blas_info_ready, 1, memory_order_release);
}

/* The settings ask this stream to do GEMMs. */
static int stream_wanted(const struct helper *h)
{
	return !h->set.paused && h->index < h->set.streams;
}

/* The matrices (or triad arrays) are ready for the kernel, size and
 * precision of h->set. */
static int stream_prepared(const struct helper *h)
{
	const struct gemm_run *r = &h->run;
	if (h->set.kernel == CTL_TRIAD)
		return h->triad.a && h->triad.length == h->set.length &&
		       h->triad.precision == h->set.precision;
	return h->set.kernel == CTL_GEMM && r->n != 0 && r->a && r->b && r->c && r->ref &&
	       r->n == h->set.size && r->precision == h->set.precision;
}

/* apply() prepares every wanted stream, so a wanted stream that is not
 * prepared holds settings that were never applied: it waits instead. */
static int stream_runs(const struct helper *h)
{
	return stream_wanted(h) && stream_prepared(h);
}

static void apply_threads(struct helper *h)
{
	uint32_t t = h->set.threads;
	if (t < 1)
		t = 1;
	if (t > CTL_MAX_THREADS)
		t = CTL_MAX_THREADS;
	openblas_set_num_threads((int)t);
	/* The pool grows inside openblas_set_num_threads; find the new workers. */
	if (t > h->names.nworkers + 1)
		gemm_names_scan(&h->names);
	gemm_names_apply(&h->names, t);
	atomic_store_explicit(&h->me->threads, t, memory_order_relaxed);
	atomic_store_explicit(&h->me->pool, h->names.nworkers + 1, memory_order_relaxed);
}

/* Applies h->set (read at epoch) between two GEMM calls. */
static void apply(struct helper *h, uint64_t epoch)
{
	/* 0 while the fields in effect change (control.h). */
	atomic_store_explicit(&h->me->applied_epoch, 0, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	if (stream_wanted(h) && !stream_prepared(h)) {
		char err[CTL_INFO_LEN];
		set_state(h, CTL_STREAM_STARTING);
		/* The reference runs on the driver alone: every worker is parked. */
		gemm_names_apply(&h->names, 1);
		int rc = h->set.kernel == CTL_TRIAD
			     ? triad_run_prepare(&h->triad, h->set.length, h->set.precision, err,
						 sizeof(err))
			     : gemm_run_prepare(&h->run, h->set.size, h->set.precision, err,
						sizeof(err));
		if (rc < 0) {
			fail(h, "%s", err);
			h->failed = epoch;
			return;
		}
		atomic_store_explicit(&h->me->precision, h->set.precision, memory_order_relaxed);
	}
	if (stream_prepared(h)) {
		/* Back to GEMM (its matrices may have stayed ready): the arrays go. */
		if (h->set.kernel == CTL_TRIAD)
			atomic_store_explicit(&h->me->length, h->triad.length,
					      memory_order_relaxed);
		else
			triad_run_free(&h->triad);
		if (h->set.kernel == CTL_GEMM)
			atomic_store_explicit(&h->me->size, h->run.n, memory_order_relaxed);
		atomic_store_explicit(&h->me->kernel, h->set.kernel, memory_order_relaxed);
		atomic_store_explicit(&h->me->precision, h->set.precision, memory_order_relaxed);
	}
	apply_threads(h);
	h->gemm_ns = h->check_ns = 0; /* the next result is checked */
	h->rescans = 3;
	h->failed = 0;
	h->applied = epoch;
	h->epoch_max_diff = 0;
	atomic_store_explicit(&h->me->epoch_checked, 0, memory_order_relaxed);
	atomic_store_explicit(&h->me->epoch_mismatches, 0, memory_order_relaxed);
	atomic_store_explicit(&h->me->epoch_max_diff_bits, 0, memory_order_relaxed);
	atomic_store_explicit(&h->me->applied_epoch, epoch, memory_order_release);
}

/* Compares the last result with the reference and publishes the outcome. */
static void check(struct helper *h)
{
	struct ctl_stream *me = h->me;
	uint64_t t0 = now_ns();
	double diff = 0;
	int differs = h->set.kernel == CTL_TRIAD ? triad_run_compare(&h->triad, &diff)
						 : gemm_run_compare(&h->run, &diff);
	if (differs) {
		atomic_fetch_add_explicit(&me->mismatches, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&me->epoch_mismatches, 1, memory_order_relaxed);
		if (diff > h->max_diff) {
			h->max_diff = diff;
			atomic_store_explicit(&me->max_diff_bits, diff_bits(diff),
					      memory_order_relaxed);
		}
		if (diff > h->epoch_max_diff) {
			h->epoch_max_diff = diff;
			atomic_store_explicit(&me->epoch_max_diff_bits, diff_bits(diff),
					      memory_order_relaxed);
		}
	}
	atomic_fetch_add_explicit(&me->checked, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&me->epoch_checked, 1, memory_order_relaxed);
	h->check_ns += now_ns() - t0;
}

static void one_gemm(struct helper *h)
{
	struct ctl_stream *me = h->me;
	uint64_t n = h->run.n, flops = 2 * n * n * n;
	if (!stream_prepared(h))
		return;
	bool triad = h->set.kernel == CTL_TRIAD;
	if (triad)
		flops = 2 * (uint64_t)h->triad.length;
	uint64_t c0 = cpu_ns();
	uint64_t t0 = now_ns();
	if (triad)
		triad_run_call(&h->triad);
	else
		gemm_run_call(&h->run);
	uint64_t t1 = now_ns();
	uint64_t c1 = cpu_ns();
	/* Sequence lock (control.h): odd while the three counters move. */
	uint64_t seq = atomic_load_explicit(&me->count_seq, memory_order_relaxed);
	atomic_store_explicit(&me->count_seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_fetch_add_explicit(&me->busy_ns, t1 - t0, memory_order_relaxed);
	atomic_fetch_add_explicit(&me->flops, flops, memory_order_relaxed);
	atomic_fetch_add_explicit(&me->gemms, 1, memory_order_release);
	atomic_store_explicit(&me->count_seq, seq + 2, memory_order_release);
	atomic_fetch_add_explicit(&me->busy_cpu_ns, c1 - c0, memory_order_relaxed);
	h->gemm_ns += t1 - t0;
	/* libgomp starts its team at the first parallel region, not in
	 * omp_set_num_threads: name the new threads after the first calls. */
	if (h->rescans && h->names.nworkers + 1 < h->set.threads) {
		h->rescans--;
		gemm_names_scan(&h->names);
		gemm_names_apply(&h->names, h->set.threads);
		atomic_store_explicit(&h->me->pool, h->names.nworkers + 1, memory_order_relaxed);
	}
	if ((double)h->check_ns <= CHECK_BUDGET * (double)h->gemm_ns)
		check(h);
}

/* Takes one input batch from the ring (control.h) before a GEMM, waiting
 * while it is empty; the wait is input_wait_ns.  Returns 0 with a batch
 * consumed, or -EAGAIN when the settings moved or quit was asked meanwhile
 * (the loop looks at them again first). */
static int take_batch(struct helper *h, uint64_t epoch)
{
	struct ctl_pipe *p = &h->ctl->pipe;
	uint64_t last = now_ns();
	for (;;) {
		uint32_t seq = atomic_load_explicit(&p->ready_seq, memory_order_acquire);
		for (unsigned i = 0; i < CTL_RING_SLOTS; i++) {
			struct ctl_slot *s = &p->slot[i];
			uint32_t want = CTL_SLOT_READY;
			if (atomic_load_explicit(&s->state, memory_order_relaxed) != want ||
			    !atomic_compare_exchange_strong_explicit(
				&s->state, &want, CTL_SLOT_TAKEN, memory_order_acquire,
				memory_order_relaxed))
				continue;
			/* Waiting ends here: what follows (reading the batch, waking a
			 * loader, which may take this CPU at once) is not input wait. */
			atomic_fetch_add_explicit(&h->me->input_wait_ns, now_ns() - last,
						  memory_order_relaxed);
			/* The anchor hands the slot back if this helper dies now. */
			atomic_store_explicit(&s->owner, CTL_SLOT_TAKER + h->index,
					      memory_order_relaxed);
			/* Collate: the batch is read, as a real step reads its input. */
			float sum = 0;
			for (unsigned j = 0; j < CTL_BATCH_FLOATS; j++)
				sum += s->data[j];
			h->input_sink += sum;
			atomic_store_explicit(&s->owner, 0, memory_order_relaxed);
			atomic_store_explicit(&s->state, CTL_SLOT_EMPTY, memory_order_release);
			atomic_fetch_add_explicit(&p->empty_seq, 1, memory_order_release);
			control_futex_wake(&p->empty_seq);
			atomic_fetch_add_explicit(&h->me->batches, 1, memory_order_relaxed);
			return 0;
		}
		if (atomic_load_explicit(&h->ctl->settings.quit, memory_order_acquire) ||
		    atomic_load_explicit(&h->ctl->settings.epoch, memory_order_acquire) != epoch ||
		    getppid() != h->parent)
			goto out;
		control_futex_wait(&p->ready_seq, seq, 20);
		/* Counted as it goes: a long wait shows in every interval it spans. */
		uint64_t t = now_ns();
		atomic_fetch_add_explicit(&h->me->input_wait_ns, t - last, memory_order_relaxed);
		last = t;
	}
out:
	atomic_fetch_add_explicit(&h->me->input_wait_ns, now_ns() - last, memory_order_relaxed);
	return -EAGAIN;
}

static int stream_loop(struct helper *h)
{
	for (;;) {
		if (atomic_load_explicit(&h->ctl->settings.quit, memory_order_acquire))
			break;
		if (getppid() != h->parent)
			return 1;
		uint64_t epoch = control_settings_read(&h->ctl->settings, &h->set);
		if (epoch == 0 || epoch == h->failed) {
			sleep_poll();
			continue;
		}
		if (epoch != h->applied)
			apply(h, epoch);
		if (h->failed)
			continue;
		if (!stream_runs(h)) {
			set_state(h, CTL_STREAM_PAUSED);
			sleep_poll();
			continue;
		}
		set_state(h, CTL_STREAM_RUNNING);
		if (h->set.loaders > 0 && take_batch(h, epoch) < 0)
			continue;
		one_gemm(h);
	}
	set_state(h, CTL_STREAM_EXITED);
	return 0;
}

int main(int argc, char **argv)
{
	long fd = -1, stream = -1, parent = 0;
	int burn = 0;
	const char *name = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;
		int r = 0;
		if (strcmp(a, "--burn") == 0)
			burn = 1;
		else if (strcmp(a, "--ctl-fd") == 0 && has)
			r = parse_long(a, argv[++i], 0, 1 << 20, &fd);
		else if (strcmp(a, "--stream") == 0 && has)
			r = parse_long(a, argv[++i], 0, CTL_MAX_STREAMS - 1, &stream);
		else if (strcmp(a, "--parent") == 0 && has)
			r = parse_long(a, argv[++i], 1, 1L << 30, &parent);
		else if (strcmp(a, "--name") == 0 && has)
			name = argv[++i];
		else
			r = -EINVAL, usage();
		if (r < 0)
			return 2;
	}
	if (burn)
		return burn_main(name, (pid_t)parent);
	if (fd < 0 || stream < 0) {
		usage();
		return 2;
	}
	if (burn_die_with_parent((pid_t)parent) < 0) {
		fprintf(stderr, "%s: parent %ld is gone\n", prog, parent);
		return 1;
	}
	struct helper *h = xcalloc(1, sizeof(*h));
	h->parent = parent ? (pid_t)parent : getppid();
	h->index = (unsigned)stream;
	int st = control_map_fd(prog, (int)fd, &h->ctl);
	if (st) {
		free(h);
		return st;
	}
	close((int)fd);
	h->me = &h->ctl->stream[h->index];
	/* A restarted helper (control.h) has applied nothing yet; it goes on
	 * from the cumulative figures of the one before. */
	atomic_store_explicit(&h->me->applied_epoch, 0, memory_order_relaxed);
	uint64_t bits = atomic_load_explicit(&h->me->max_diff_bits, memory_order_relaxed);
	memcpy(&h->max_diff, &bits, sizeof(h->max_diff));
	/* One killed mid-update left the sequence lock odd: even it out. */
	uint64_t seq = atomic_load_explicit(&h->me->count_seq, memory_order_relaxed);
	atomic_store_explicit(&h->me->count_seq, (seq + 1) & ~1ull, memory_order_release);
	atomic_store_explicit(&h->me->pid, (int32_t)getpid(), memory_order_relaxed);
	set_state(h, CTL_STREAM_STARTING);
	if (h->index == 0)
		report_blas(h->ctl);
	int r = gemm_names_init(&h->names, h->index);
	if (r < 0) {
		fail(h, "cannot name threads: %s", strerror(-r));
		free(h);
		return 1;
	}
	gemm_names_apply(&h->names, 1); /* nothing runs yet: all parked */
	st = stream_loop(h);
	gemm_run_free(&h->run);
	triad_run_free(&h->triad);
	munmap(h->ctl, sizeof(struct ctl_block));
	free(h);
	return st;
}
