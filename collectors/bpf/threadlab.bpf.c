/* threadlab.bpf.c — the BPF side of the collector: one task iterator and
 * the run-queue latency tracepoint.
 *
 * tl_tasks (iter/task) writes one struct tl_task per thread that the
 * reader asks for (its root process, with tree its descendants, with all
 * every thread), so one read() gives what /proc's stat, schedstat and
 * status give per thread; a thread whose latency histogram changed since
 * the reader's last read (its gen >= since_gen) has the counts appended.
 * The iterator only reads: the kernel may show a task twice when its
 * buffer overflows, so no state may change in it.
 *
 * Latency: the time a thread waits from becoming runnable (woken, new, or
 * preempted while runnable) to running.  The scheduler stamps that moment
 * itself (sched_info.last_queued, in its run queue's clock) and adds the
 * wait to run_delay when the thread gets the CPU, right after the
 * sched_switch tracepoint; so tl_switch, at that tracepoint, reads the
 * stamp and the run queue's clock and has the very wait schedstat is about
 * to count, with one program on the switch path and none on wake-ups.  A
 * wait cut by a migration (the kernel adds the part spent on the old CPU
 * to run_delay at the move) is made whole from run_delay's growth since
 * the thread's last arrival (the mark in its task storage).
 *
 * Only threads of processes in traced_bits (the loader's targets) or, with
 * trace_all, every thread are counted, each into a slot of the bounded
 * "hist" array named by its task storage; when no slot is free the wait is
 * counted in dropped, never recorded wrongly.  An exiting thread gives its
 * slot back (zeroed) at sched_process_exit, and takes none after it.  Only tracepoints with BTF
 * (tp_btf): no kprobes. */
#include <stdbool.h>

#include <linux/bpf.h>

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "tl-abi.h"
#include "tl-core.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by the loader (the skeleton maps .bss). */
__u64 gen;	 /* bumped by every read; events carry the value they saw */
__u64 since_gen; /* the reader's previous gen: histograms touched since are appended */
__u32 root_tgid; /* the reader's process */
__u32 want_tree; /* and its descendants */
__u32 want_all;	 /* every thread of the machine */
__u32 trace_all; /* latency of every thread (as far as the slots go) */
/* The cadence of this read: with lite, a thread that does not lead its
 * process, whose phase is outside [due_lo, due_lo + due_span), that
 * started before new_after (boot-time ns) and whose bit in want_bits is
 * clear gets a short record (the reader keeps what it read of it before).
 * A bit per TID modulo TL_WANT_BITS: one load to verify and to run (a
 * binary search of a sorted list made loading 100 times slower, 3 ms to
 * 270); another TID on the same bit is only read in full. */
__u32 lite;
__u32 due_lo;
__u64 due_span;
__u64 new_after;
__u64 want_bits[TL_WANT_BITS / 64];
__u32 capacity;			      /* slots in "hist" */
__u64 traced_bits[TL_PID_LIMIT / 64]; /* kernel tgids whose threads are traced */
/* Kept here. */
__u64 dropped;	  /* waits not recorded: no slot was free */
__u32 fresh;	  /* slots never used so far start here */
__s32 slots_used; /* slots serving a thread now */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16384); /* the loader sets the bound */
	__type(key, __u32);
	__type(value, struct tl_lat);
} hist SEC(".maps");

/* Slots given back by threads that exited. */
struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 16384); /* as hist */
	__type(value, __u32);
} free_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct tl_slot);
} slots SEC(".maps");

/* A zeroed histogram to clear a slot with (too big for the stack). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tl_lat);
} zero SEC(".maps");

/* Direct loads of the BTF pointers the tracepoint and the iterator hand
 * over (no helper call each, as BPF_CORE_READ would make); only the
 * fallbacks for older kernels read through helpers. */
static __always_inline unsigned int task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return t->__state;
	return (unsigned int)BPF_CORE_READ((struct task_struct___old *)t, state);
}

static __always_inline int task_cpu(struct task_struct *t)
{
	if (bpf_core_field_exists(t->thread_info.cpu))
		return (int)t->thread_info.cpu;
	return (int)BPF_CORE_READ((struct task_struct___cpu *)t, cpu);
}

/* The letter /proc shows (fs/proc/array.c task_state_array, in the order
 * of get_task_state()'s bit index). */
static __always_inline char state_letter(struct task_struct *t)
{
	unsigned int st = task_state(t);
	unsigned int s = st & 0x7f;
	int i = 0;

	/* A task that sleeps or is stopped (a bit of 0x0f) shows that letter
	 * whatever its exit_state, so that field's cache line is read only
	 * for the others. */
	if (!(st & 0x0f))
		s = (st | (unsigned int)t->exit_state) & 0x7f;

	if ((st & 0x402) == 0x402) /* TASK_IDLE: uninterruptible, no load */
		return 'I';
	if (st & (0x1000 | 0x8000)) /* TASK_RTLOCK_WAIT, TASK_FROZEN: shown as D */
		s = 2;
	while (s && i < 8) {
		s >>= 1;
		i++;
	}
	switch (i) {
	case 0:
		return 'R';
	case 1:
		return 'S';
	case 2:
		return 'D';
	case 3:
		return 'T';
	case 4:
		return 't';
	case 5:
		return 'X';
	case 6:
		return 'Z';
	default:
		return 'P';
	}
}

/* ---- run-queue latency ------------------------------------------------ */

/* The run queue t is on, or was last on (NULL: none known). */
static __always_inline struct rq *rq_of(struct task_struct *t)
{
	struct cfs_rq *c = t->se.cfs_rq;
	if (!c)
		return NULL;
	if (bpf_core_field_exists(c->rq))
		return c->rq;
	return (struct rq *)((char *)c - bpf_core_field_offset(struct rq, cfs));
}

/* The clock of the run queue t is on (t is being switched in: this CPU's):
 * a direct load where the kernel names the queue (no helper call on the
 * switch path). */
static __always_inline __u64 rq_clock_of(struct task_struct *t)
{
	struct cfs_rq *c = t->se.cfs_rq;
	if (c && bpf_core_field_exists(c->rq)) {
		struct rq *rq = c->rq;
		return rq ? rq->clock : 0;
	}
	struct rq *rq = rq_of(t);
	return rq ? BPF_CORE_READ(rq, clock) : 0;
}

static __always_inline bool traced(__u32 tgid)
{
	return (traced_bits[(tgid >> 6) & (TL_PID_LIMIT / 64 - 1)] >> (tgid & 63)) & 1;
}

/* A free slot, or -1 (all in use: the caller counts the wait as dropped). */
static __always_inline long slot_take(void)
{
	__u32 s;
	if (bpf_map_pop_elem(&free_slots, &s) == 0)
		return s;
	s = __sync_fetch_and_add(&fresh, 1);
	return s < capacity ? (long)s : -1;
}

static __always_inline void lat_record(struct tl_lat *v, __u64 d)
{
	__u64 g = gen;
	__u32 s = (__u32)(g & 1);
	__u32 b = tl_lat_bucket(d);

	barrier_var(b); /* keep the bound check on the register used to index */
	if (b < TL_LAT_BUCKETS)
		v->count[b]++;
	v->events++;
	v->sum_ns += d;
	v->gen = g;
	if (v->max_gen[s] != g) {
		v->max_gen[s] = g;
		v->max_ns[s] = d;
	} else if (d > v->max_ns[s]) {
		v->max_ns[s] = d;
	}
}

SEC("tp_btf/sched_switch")
int BPF_PROG(tl_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 tgid = (__u32)next->tgid;
	if (!trace_all && !traced(tgid))
		return 0;
	__u64 q = next->sched_info.last_queued;
	if (q == 0)
		return 0; /* not queued: the kernel counts no wait either */
	/* Past sched_process_exit (it may still be switched in before its
	 * end): its slot went back already, none is taken again. */
	if (next->flags & 0x4)
		return 0;
	__u64 now = rq_clock_of(next), rd = next->sched_info.run_delay;
	__u64 d = now > q ? now - q : 0;
	struct tl_slot *st = bpf_task_storage_get(&slots, next, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!st)
		return 0;
	if (st->slot1 == 0) {
		long s = slot_take();
		if (s < 0) {
			__sync_fetch_and_add(&dropped, 1);
			return 0;
		}
		st->slot1 = (__u32)s + 1;
		__sync_fetch_and_add(&slots_used, 1);
	}
	__u32 k = st->slot1 - 1;
	struct tl_lat *v = bpf_map_lookup_elem(&hist, &k);
	if (!v)
		return 0;
	/* The part of this wait the kernel added to run_delay already (a
	 * migration), known from where run_delay stood after the last arrival. */
	__u64 w = d + (st->mark && rd > st->mark ? rd - st->mark : 0);
	st->mark = rd + d;
	v->owner = (__u32)next->pid;
	lat_record(v, w);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(tl_exit, struct task_struct *p)
{
	__u32 z = 0;
	if (!trace_all && !traced((__u32)p->tgid))
		return 0;
	struct tl_slot *st = bpf_task_storage_get(&slots, p, 0, 0);
	if (!st)
		return 0;
	if (st->slot1) {
		__u32 k = st->slot1 - 1;
		struct tl_lat *init = bpf_map_lookup_elem(&zero, &z);
		if (init)
			bpf_map_update_elem(&hist, &k, init, BPF_ANY);
		bpf_map_push_elem(&free_slots, &k, 0);
		__sync_fetch_and_add(&slots_used, -1);
	}
	bpf_task_storage_delete(&slots, p);
	return 0;
}

/* ---- the task iterator ------------------------------------------------ */

/* The number of p in the reader's PID namespace, at level lv (0: the
 * initial namespace, where it is the kernel's own), 0 when it has none
 * there.  Outside the initial namespace the fields go through probe reads,
 * not direct loads: the verifier checks each direct load of a kernel
 * pointer against the whole kernel BTF by name, a millisecond or more
 * apiece, and loading is on the way to the first sample. */
static __always_inline __u32 pid_in_ns(struct pid *p, __u32 lv)
{
	int nr = 0;
	if (!p || BPF_CORE_READ(p, level) < lv)
		return 0;
	bpf_core_read(&nr, sizeof(nr), &p->numbers[lv & 31].nr);
	return (__u32)nr;
}

/* t's PID and process as the reader's namespace (level lv) numbers them;
 * the iterator only visits tasks of that namespace. */
static __always_inline __u32 ns_pid(struct task_struct *t, __u32 lv)
{
	if (lv == 0)
		return (__u32)t->pid;
	return pid_in_ns(BPF_CORE_READ(t, thread_pid), lv);
}

static __always_inline __u32 ns_tgid(struct task_struct *t, __u32 lv)
{
	if (lv == 0)
		return (__u32)t->tgid;
	return pid_in_ns(BPF_CORE_READ(t, group_leader, thread_pid), lv);
}

/* ns_tgid of a p that came from a probe read (no BTF pointer). */
static __always_inline __u32 ns_tgid_read(struct task_struct *p, __u32 lv)
{
	if (lv == 0)
		return (__u32)BPF_CORE_READ(p, tgid);
	return pid_in_ns(BPF_CORE_READ(p, group_leader, thread_pid), lv);
}

/* Whether t's process descends from root_tgid (up to 32 generations),
 * through probe reads as pid_in_ns: 32 unrolled generations of direct
 * loads made loading take 190 ms here. */
static __always_inline bool descends(struct task_struct *t, __u32 lv)
{
	struct task_struct *p = t;

	for (int i = 0; i < 32; i++) {
		p = BPF_CORE_READ(p, real_parent);
		if (!p)
			return false;
		__u32 pg = ns_tgid_read(p, lv);
		if (pg == root_tgid)
			return true;
		if (pg <= 1)
			return false;
	}
	return false;
}

/* Whether t (tid in the reader's namespace) gets only a short record. */
static __always_inline bool not_due(struct task_struct *t, __u32 tid, __u32 tgid)
{
	if (!lite || tid == tgid)
		return false;
	if ((__u64)(__u32)(tid * TL_PHASE_MUL - due_lo) < due_span)
		return false;
	return t->start_boottime <= new_after &&
	       !(want_bits[(tid / 64) % (TL_WANT_BITS / 64)] & (1ull << (tid % 64)));
}

/* What the kernel has not counted yet, as of its run queue's clock: the
 * wait of a thread queued now (added to run_delay only when it gets the
 * CPU) and the run of the thread on a CPU now (added to sum_exec_runtime at
 * the next tick or switch; /proc's schedstat adds it too).  Without it a
 * wait that began before a read and ended after it would be charged
 * whole to the next interval: on a crowded CPU (waits of 100 ms) four
 * busy threads read as 4.8 runnable over 0.6 s.  Both counters still only
 * grow: the run queue's clock is where the kernel's own addition will
 * start from. */
static __always_inline void pending(struct task_struct *t, struct tl_task *r)
{
	if (r->state != 'R')
		return; /* neither queued nor on a CPU: nothing under way */
	struct rq *rq = rq_of(t);
	if (!rq)
		return;
	__u64 q = *(volatile __u64 *)&t->sched_info.last_queued;
	if (q) {
		__u64 c = BPF_CORE_READ(rq, clock);
		r->queued_ns = c > q ? c - q : 0;
		r->wait_ns += r->queued_ns;
		return;
	}
	/* Not queued now.  The kernel zeroes last_queued before it adds the
	 * wait to run_delay (sched_info_arrive): a thread that got the CPU
	 * since run_delay was read above would lose that wait here for a
	 * whole interval; read again, its wait is in. */
	r->wait_ns = *(volatile __u64 *)&t->sched_info.run_delay;
	if (BPF_CORE_READ(rq, curr) == t) {
		__u64 c = BPF_CORE_READ(rq, clock_task), e = t->se.exec_start;
		r->run_ns += c > e ? c - e : 0;
	}
}

SEC("iter/task")
int tl_tasks(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *t = ctx->task;
	struct tl_task r = {};
	struct tl_lat *v;

	if (!t)
		return 0;
	/* The reader's PID namespace is its own (the program runs in its
	 * read()): its level, from the kernel rather than from /proc, which
	 * a container mounts for its own namespace. */
	__u32 lv = bpf_get_current_task_btf()->thread_pid->level;
	r.h.tgid = ns_tgid(t, lv);
	if (!want_all && r.h.tgid != root_tgid && !(want_tree && descends(t, lv)))
		return 0;
	r.h.tid = ns_pid(t, lv);
	r.h.gtgid = (__u32)t->tgid;
	if (not_due(t, r.h.tid, r.h.tgid)) {
		r.h.flags = TL_TASK_SHORT;
		bpf_seq_write(seq, &r.h, sizeof(r.h));
		return 0;
	}
	r.gtid = (__u32)t->pid;
	r.cpu = task_cpu(t);
	r.run_ns = t->se.sum_exec_runtime;
	r.wait_ns = t->sched_info.run_delay;
	r.slices = t->sched_info.pcount;
	r.utime_ns = t->utime;
	r.stime_ns = t->stime;
	r.start_ns = t->start_boottime;
	r.nvcsw = t->nvcsw;
	r.nivcsw = t->nivcsw;
	r.state = state_letter(t);
	pending(t, &r);
	if (r.h.tid == r.h.tgid) {
		struct task_struct *parent = BPF_CORE_READ(t, real_parent);
		r.ppid = parent ? ns_tgid_read(parent, lv) : 0;
		r.nthreads = (__u32)BPF_CORE_READ(t, signal, nr_threads);
		r.ended_run_ns = BPF_CORE_READ(t, signal, sum_sched_runtime);
		r.child_run_ns =
		    BPF_CORE_READ(t, signal, cutime) + BPF_CORE_READ(t, signal, cstime);
	}
	__builtin_memcpy(r.comm, t->comm, sizeof(r.comm));
	struct tl_slot *st = bpf_task_storage_get(&slots, t, 0, 0);
	__u32 k = st && st->slot1 ? st->slot1 - 1 : 0;
	v = st && st->slot1 ? bpf_map_lookup_elem(&hist, &k) : NULL;
	if (v) {
		r.h.flags = TL_TASK_LAT;
		r.slot = k;
		r.lat_events = v->events;
		r.lat_sum_ns = v->sum_ns;
		r.lat_max_ns[0] = v->max_ns[0];
		r.lat_max_ns[1] = v->max_ns[1];
		r.lat_max_gen[0] = v->max_gen[0];
		r.lat_max_gen[1] = v->max_gen[1];
		if (v->gen >= since_gen)
			r.h.flags |= TL_TASK_HIST;
	}
	bpf_seq_write(seq, &r, sizeof(r));
	if (v && (r.h.flags & TL_TASK_HIST))
		bpf_seq_write(seq, v->count, sizeof(v->count));
	return 0;
}
