/* control.h — the shared-memory control block between threadlab and the
 * workload helper processes (threadlab-gemm).
 *
 * threadlab creates the block in a memfd, maps it MAP_SHARED and passes the
 * descriptor to every helper it execs.  One helper process runs one inter-op
 * stream (one GEMM at a time on its own OpenBLAS pool): separate processes
 * keep concurrent multi-threaded GEMMs from being serialised by OpenBLAS's
 * level3_lock, so K streams x T threads really run K x T threads at once.
 *
 * Settings flow in under a sequence lock on settings.epoch, whose only
 * writer is threadlab: it makes epoch odd (fetch_add 1, then a release
 * fence), stores the fields, and makes it even again (fetch_add 1,
 * release).  So an even epoch names exactly one set of values written
 * together; 0 means "not set yet" and the first write gives 2.  A helper
 * reads epoch (acquire), retries while it is odd, copies the fields, an
 * acquire fence, re-reads epoch and retries if it moved.  It applies the
 * copy between two GEMM calls and then stores that (even) epoch into its
 * stream's applied_epoch; "applied" always compares these even epochs.  A
 * paused helper applies thread counts at once, size and precision when it
 * runs again (their reference result is a GEMM); struct ctl_stream's size
 * and precision say what is in effect.
 *
 * While a helper applies a change, its applied_epoch is 0: it stores 0 and
 * a release fence before it touches threads, pool, size or precision, and
 * the new epoch (release) after.  A reader that reads applied_epoch
 * (acquire), those fields, an acquire fence and applied_epoch again, and
 * finds the same non-zero value both times, holds what that epoch put in
 * effect.

 * Counters flow out: each stream's helper owns its struct ctl_stream and is
 * its only writer.  All shared fields are C11 atomics; nothing else in the
 * block is written after start-up.
 *
 * A reader that needs gemms, flops and busy_ns of the same instant (a rate
 * over a short window) uses count_seq as a sequence lock: the helper makes
 * it odd, updates the three counters, makes it even again (release).  Read
 * count_seq (acquire), the counters, an acquire fence, count_seq again, and
 * retry while it was odd or moved.
 *
 * A helper that dies is restarted by the lab (lab.h) in the same slot: the
 * new helper keeps adding to the cumulative counters and max_diff_bits, and
 * sets applied_epoch to 0 until it has applied the settings again. */
#ifndef THREADLAB_CONTROL_H
#define THREADLAB_CONTROL_H

#include <stdatomic.h>
#include <stdint.h>

#define CTL_MAGIC	 0x544c4142u /* "TLAB" */
#define CTL_VERSION	 5u	     /* 5: the kernel (GEMM or triad) */
#define CTL_MAX_STREAMS	 16
#define CTL_MAX_THREADS	 64 /* intra-op threads per stream */
#define CTL_INFO_LEN	 160
#define CTL_MAX_SIZE	 32768 /* largest n a helper accepts (memory is checked too) */
#define CTL_MAX_LOADERS	 16    /* input-pipeline loader processes */
#define CTL_MAX_PREFETCH 8     /* ring slots per loader */
#define CTL_RING_SLOTS	 (CTL_MAX_LOADERS * CTL_MAX_PREFETCH)
#define CTL_BATCH_FLOATS 2048  /* one batch: 8 KiB of floats */
#define CTL_MAX_PREP_MS	 10000 /* CPU time a loader spends on one batch, at most */

enum ctl_precision {
	CTL_SINGLE = 0, /* sgemm */
	CTL_DOUBLE = 1, /* dgemm */
};

/* What one call of a stream computes.  The triad is OpenBLAS's axpy,
 * a[i] = a[i] + s * b[i] over two arrays of settings.length elements: the
 * STREAM triad's 2 FLOPs and 3 element transfers per index, on the same
 * pool threads as the GEMM (OpenBLAS splits axpy over its threads). */
enum ctl_kernel {
	CTL_GEMM = 0,  /* C = A x B, n x n, 2 n^3 FLOPs a call */
	CTL_TRIAD = 1, /* a += s * b, 2 length FLOPs a call */
};

enum ctl_stream_state {
	CTL_STREAM_OFF = 0,  /* slot unused */
	CTL_STREAM_STARTING, /* helper started, OpenBLAS loading, reference being computed */
	CTL_STREAM_RUNNING,  /* doing GEMMs */
	CTL_STREAM_PAUSED,   /* waiting: paused, or stream index >= settings.streams */
	CTL_STREAM_FAILED,   /* gave up on the settings; error holds why; tries the next epoch */
	CTL_STREAM_EXITED,   /* helper left cleanly */
};

struct ctl_settings {
	_Atomic uint64_t epoch;	    /* sequence lock: odd while written; 0 = not yet set */
	_Atomic uint32_t threads;   /* intra-op threads per GEMM, 1..CTL_MAX_THREADS */
	_Atomic uint32_t streams;   /* inter-op streams wanted, 1..CTL_MAX_STREAMS */
	_Atomic uint32_t size;	    /* n of the n x n x n GEMM */
	_Atomic uint32_t precision; /* enum ctl_precision */
	_Atomic uint32_t paused;    /* 1: helpers finish their GEMM and wait */
	_Atomic uint32_t quit;	    /* 1: helpers exit (read directly, outside the lock) */
	_Atomic uint32_t loaders;  /* input-pipeline loaders; 0: no pipeline, GEMMs need no input */
	_Atomic uint32_t prep_us;  /* CPU time a loader spends preparing one batch, us */
	_Atomic uint32_t prefetch; /* ring slots per loader, 1..CTL_MAX_PREFETCH */
	_Atomic uint32_t kernel;   /* enum ctl_kernel */
	_Atomic uint32_t length;   /* the triad's elements per array */
};

/* Plain values of the settings, as written or read under the lock. */
struct ctl_values {
	uint32_t threads, streams, size, precision, paused, quit;
	uint32_t loaders, prep_us, prefetch;
	uint32_t kernel, length;
};

/* The writer's side of the sequence lock (threadlab): makes the epoch odd,
 * stores every field, makes it even again.  Returns the new even epoch. */
uint64_t control_settings_write(struct ctl_settings *s, const struct ctl_values *v);
/* The stores alone, without moving the epoch: only control_settings_write and
 * tests that act out a broken writer call this. */
void control_settings_store(struct ctl_settings *s, const struct ctl_values *v);
/* The reader's side (helpers): a copy of the fields of one even epoch,
 * waiting while a write is under way.  Returns that epoch. */
uint64_t control_settings_read(struct ctl_settings *s, struct ctl_values *out);

struct ctl_stream {
	_Atomic uint32_t state;		/* enum ctl_stream_state */
	_Atomic int32_t pid;		/* helper process id */
	_Atomic uint64_t applied_epoch; /* settings epoch in effect (even); 0 while applying */
	_Atomic uint32_t threads;	/* intra-op threads in effect (active pool threads) */
	_Atomic uint32_t pool;		/* OpenBLAS threads created, counting the driver (never
					 * shrinks); those beyond threads are parked (gemmI.pK) */
	_Atomic uint32_t size;		/* n in effect (GEMM) */
	_Atomic uint32_t kernel;	/* enum ctl_kernel in effect */
	_Atomic uint32_t length;	/* the triad's elements per array in effect */
	_Atomic uint32_t precision;	/* in effect */
	_Atomic uint64_t gemms;		/* calls (GEMM or triad) completed since start */
	_Atomic uint64_t flops;		/* 2 n^3 (GEMM) or 2 length (triad) per call, summed */
	_Atomic uint64_t busy_ns;	/* wall time inside the calls, ns */
	_Atomic uint64_t checked;	/* results compared with the reference: the first after
					 * each applied change, then as many as fit in 1 % of
					 * the GEMM time, so checked <= gemms */
	_Atomic uint64_t mismatches;	/* results not bitwise equal to the reference */
	_Atomic uint64_t max_diff_bits; /* largest |difference| seen since start, a double's bits
					 * (+inf for a NaN or infinite difference) */
	char error[CTL_INFO_LEN];	/* written before state = FAILED */
	/* Since the settings epoch in applied_epoch took effect: set to 0 by the
	 * helper before it stores applied_epoch, so a reader that sees the new
	 * epoch sees only results of that setting. */
	_Atomic uint64_t epoch_checked;	      /* results compared */
	_Atomic uint64_t epoch_mismatches;    /* results not bitwise equal */
	_Atomic uint64_t epoch_max_diff_bits; /* largest |difference|, a double's bits */
	_Atomic uint64_t count_seq;	      /* sequence lock over gemms, flops, busy_ns */
	_Atomic uint64_t busy_cpu_ns;	      /* CPU time of the whole helper (all its threads)
					       * while inside GEMM calls, ns: the useful work.  What
					       * /proc shows beyond it is idle spinning and overhead */
	_Atomic uint64_t batches;	/* input batches taken, one per GEMM with a pipeline */
	_Atomic uint64_t input_wait_ns; /* wall time waiting for a batch (ring empty), ns */
};

/* ---- the input pipeline ------------------------------------------------
 *
 * Loaders (threadlab-burn --loader K, started by the anchor) prepare batches
 * into a ring of slots; each GEMM of a running stream first takes one batch.
 * A slot goes EMPTY -> FILLING (a loader claimed it by compare-and-swap,
 * owner = K + 1) -> READY (release store) -> TAKEN (a stream claimed it) ->
 * EMPTY.  Loaders fill only slots below loaders x prefetch; streams take any
 * READY slot.  After each READY a loader adds 1 to ready_seq and wakes its
 * futex; after each EMPTY a stream does the same with empty_seq, so both
 * sides sleep in FUTEX_WAIT on the counter they read before their scan
 * (a bounded wait: they look at the settings again every 20 ms).  A loader
 * that dies holding a FILLING slot leaves it to the anchor, which puts the
 * slots of a reaped loader back to EMPTY before anything is restarted, and
 * so does a stream killed between taking a batch and emptying its slot. */
enum ctl_slot_state {
	CTL_SLOT_EMPTY = 0,
	CTL_SLOT_FILLING,
	CTL_SLOT_READY,
	CTL_SLOT_TAKEN,
};

#define CTL_SLOT_TAKER 0x100u /* owner of a TAKEN slot: CTL_SLOT_TAKER + stream */

struct ctl_slot {
	_Atomic uint32_t state; /* enum ctl_slot_state */
	_Atomic uint32_t owner; /* loader index + 1 while FILLING, CTL_SLOT_TAKER +
				 * stream while TAKEN, else 0 */
	float data[CTL_BATCH_FLOATS];
};

struct ctl_loader {
	_Atomic int32_t pid;
	_Atomic uint32_t state;	  /* CTL_STREAM_RUNNING while preparing, PAUSED when not
				   * wanted or the ring is full, STARTING at start */
	_Atomic uint64_t batches; /* batches prepared, since the slot's first loader */
	_Atomic uint64_t cpu_ns;  /* CPU time spent preparing them, ns */
};

struct ctl_pipe {
	_Atomic uint32_t ready_seq; /* futex word: +1 after each READY */
	_Atomic uint32_t empty_seq; /* futex word: +1 after each EMPTY */
	struct ctl_loader loader[CTL_MAX_LOADERS];
	struct ctl_slot slot[CTL_RING_SLOTS];
};

struct ctl_block {
	uint32_t magic;	   /* CTL_MAGIC */
	uint32_t version;  /* CTL_VERSION */
	uint32_t spin_off; /* unused since version 4: the anchor sets each helper's environment */
	uint32_t reserved;
	struct ctl_settings settings;
	char blas_info[CTL_INFO_LEN];	  /* openblas_get_config(), written by stream 0 once */
	char blas_core[64];		  /* openblas_get_corename() */
	_Atomic uint32_t blas_parallel;	  /* openblas_get_parallel(): 0 seq, 1 pthreads, 2 OpenMP */
	_Atomic uint32_t blas_info_ready; /* 0 again while the helpers restart for another build */
	struct ctl_stream stream[CTL_MAX_STREAMS];
	struct ctl_pipe pipe;
};

/* Slots the loaders fill for these settings: loaders x prefetch, bounded. */
unsigned control_ring_capacity(const struct ctl_values *v);

/* Futex wait on a shared word while it holds val, at most timeout_ms;
 * wake every waiter.  Both work across processes (the block is MAP_SHARED). */
void control_futex_wait(_Atomic uint32_t *word, uint32_t val, int timeout_ms);
void control_futex_wake(_Atomic uint32_t *word);

/* Maps the control block behind fd (a helper's or loader's --ctl-fd) and
 * checks magic and version.  Returns 0, or exit status 2 after one line on
 * stderr naming prog. */
int control_map_fd(const char *prog, int fd, struct ctl_block **out);

#endif
