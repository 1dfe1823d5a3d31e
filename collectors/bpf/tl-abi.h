/* tl-abi.h — what the BPF programs (threadlab.bpf.c) and their loader
 * (bpf-load.c, bpf-threads.c) share: the record the task iterator writes
 * per thread, the run-queue latency histogram and its bucket function.
 *
 * Both sides compile this header: the BPF side with clang's bpf target
 * (no libc), the loader with the project's C compiler.  Types are the
 * kernel's fixed-width ones from <linux/types.h>.
 *
 * Buckets are log-linear in nanoseconds: bucket 0 holds everything below
 * 2^10 ns (about 1 us); above that each power of two (octave) is cut into
 * TL_LAT_SUB equal sub-buckets, so a bucket is at most a quarter of its
 * lower bound wide and a quantile read from it is good to +-12.5 % (to
 * +-19 % against the octave's geometric steps).  The last bucket takes
 * everything from 2^37 ns (137 s) up. */
#ifndef THREADLAB_TL_ABI_H
#define THREADLAB_TL_ABI_H

#include <linux/types.h>

#define TL_LAT_SUB_BITS 2
#define TL_LAT_SUB	(1u << TL_LAT_SUB_BITS) /* sub-buckets per octave */
#define TL_LAT_MIN_LOG	10			/* bucket 0: below 2^10 ns */
#define TL_LAT_BUCKETS	112			/* 1 + 27 octaves x 4, 2^10 .. 2^37 ns */
#define TL_COMM_LEN	16

/* The bucket of a latency of ns nanoseconds.  A branch-free log2: the BPF
 * target has no count-leading-zeros instruction. */
static inline __u32 tl_lat_bucket(__u64 ns)
{
	__u64 v = ns;
	__u32 k = 0;

	if (ns < (1ull << TL_LAT_MIN_LOG))
		return 0;
	if (v >> 32) {
		k += 32;
		v >>= 32;
	}
	if (v >> 16) {
		k += 16;
		v >>= 16;
	}
	if (v >> 8) {
		k += 8;
		v >>= 8;
	}
	if (v >> 4) {
		k += 4;
		v >>= 4;
	}
	if (v >> 2) {
		k += 2;
		v >>= 2;
	}
	if (v >> 1)
		k += 1;
	/* k >= TL_LAT_MIN_LOG here, so k - TL_LAT_SUB_BITS >= 8 */
	__u32 sub = (__u32)(ns >> (k - TL_LAT_SUB_BITS)) & (TL_LAT_SUB - 1);
	__u32 b = 1 + (k - TL_LAT_MIN_LOG) * TL_LAT_SUB + sub;
	return b < TL_LAT_BUCKETS ? b : TL_LAT_BUCKETS - 1;
}

#define TL_PID_LIMIT (1u << 22) /* PID_MAX_LIMIT on 64-bit: the traced bitmap's size */

/* One traced thread's run-queue latency: an entry of the "hist" array,
 * the slot the thread's task storage names.  Counts only grow while the
 * thread lives (u32: the reader differences them modulo 2^32); the slot is
 * zeroed when the thread exits and may then serve another.  The largest
 * event is kept per generation (the reader bumps gen before each read), in
 * max slot gen & 1, so a read never races with that slot being refilled. */
struct tl_lat {
	__u64 owner;  /* the kernel TID the slot serves */
	__u64 events; /* latencies recorded */
	__u64 sum_ns; /* their sum */
	__u64 gen;    /* generation of the last event */
	__u64 max_ns[2], max_gen[2];
	__u32 count[TL_LAT_BUCKETS];
};

/* A traced thread's task storage: its histogram slot and where its
 * run_delay stood after its last arrival (0: unknown). */
struct tl_slot {
	__u32 slot1; /* slot + 1 in "hist"; 0: none (the array was full) */
	__u32 pad;
	__u64 mark;
};

/* tl_task.flags */
#define TL_TASK_LAT   0x1u /* the thread has a latency entry: lat_* are valid */
#define TL_TASK_HIST  0x2u /* its TL_LAT_BUCKETS counts (__u32 each) follow the record */
#define TL_TASK_SHORT 0x4u /* only struct tl_task_head: not due this read (the cadence) */

/* The first fields of every record the task iterator writes, and the
 * whole of a short one.  tid and tgid are numbers in the reader's PID
 * namespace, as its /proc shows them; gtgid the kernel's own (the initial
 * namespace's), which the tracepoints and maps use. */
struct tl_task_head {
	__u32 tid, tgid;
	__u32 gtgid;
	__u32 flags; /* TL_TASK_* */
};

/* What the task iterator writes for one thread, in one read for all. */
struct tl_task {
	struct tl_task_head h;
	__u32 gtid;
	__s32 cpu;     /* last CPU */
	__u64 run_ns;  /* se.sum_exec_runtime: schedstat field 1, and the
			* run of the slice under way (as /proc adds it) */
	__u64 wait_ns; /* sched_info.run_delay: schedstat field 2, and the
			* wait under way of a thread queued now (queued_ns) */
	__u64 queued_ns; /* of wait_ns, the wait under way (0: not queued) */
	__u64 slices;  /* sched_info.pcount: schedstat field 3 */
	__u64 utime_ns, stime_ns;
	__u64 start_ns; /* start_boottime: stat field 22, in ns */
	__u64 nvcsw, nivcsw;
	__u64 lat_events, lat_sum_ns;
	__u64 lat_max_ns[2], lat_max_gen[2];
	__u32 slot; /* its histogram's slot (TL_TASK_LAT) */
	char state; /* as /proc shows it: R S D T t X Z P I */
	char pad[3];
	/* A process's leader only (tid == tgid), else 0: what /proc/PID/stat
	 * would add, so that a reader of the machine needs no stat line. */
	__u32 ppid;	/* its parent's process, as the reader's namespace numbers it */
	__u32 nthreads; /* its live threads (signal->nr_threads) */
	__u64 ended_run_ns; /* signal->sum_sched_runtime: its ended threads' run */
	__u64 child_run_ns; /* signal->cutime + cstime: its reaped children's run */
	char comm[TL_COMM_LEN];
};

/* The cadence (bpf-threads.c): a thread is due at a read when its phase,
 * its TID times this odd constant modulo 2^32, falls in the read's range. */
#define TL_PHASE_MUL 2654435761u
#define TL_WANT_BITS 65536 /* the wanted TIDs' bitmap: a bit per TID modulo this */

#endif
