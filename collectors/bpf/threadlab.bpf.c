/* threadlab.bpf.c — the BPF side of the collector: one task iterator and
 * the run-queue latency tracepoints.
 *
 * tl_tasks (iter/task) writes one struct tl_task per thread that the
 * reader asks for (its root process, with tree its descendants, with all
 * every thread), so one read() gives what /proc's stat, schedstat and
 * status give per thread; a thread whose latency histogram changed since
 * the reader's last read (its gen >= since_gen) has the counts appended.
 * The iterator only reads: the kernel may show a task twice when its
 * buffer overflows, so no state may change in it.
 *
 * Latency (what libbpf-tools' runqlat measures, here per thread): a thread
 * becomes runnable at sched_wakeup, sched_wakeup_new, or sched_switch away
 * from it while runnable (preempted); it stops waiting at the sched_switch
 * to it.  Only threads of processes in "traced" (the loader's targets) or,
 * with trace_all, every thread get an entry in "lat", which is bounded:
 * when it is full an event that would need a new entry is counted in
 * dropped, never recorded wrongly.  An exiting thread's entry is deleted at
 * sched_process_exit.  Only tracepoints with BTF (tp_btf): no kprobes. */
#include <stdbool.h>

#include <linux/bpf.h>

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "tl-abi.h"
#include "tl-core.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by the loader before each read (the skeleton maps .bss). */
__u64 gen;	 /* bumped by every read; events carry the value they saw */
__u64 since_gen; /* the reader's previous gen: histograms touched since are appended */
__u32 root_tgid; /* the reader's process */
__u32 want_tree; /* and its descendants */
__u32 want_all;	 /* every thread of the machine */
__u32 trace_all; /* latency of every thread (as far as the map holds) */
__u64 dropped;	 /* events not recorded: the map was full */
__u32 ns_level;	 /* the reader's PID namespace level (0: the initial one) */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384); /* the loader sets the bound */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct tl_lat);
} lat SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);   /* tgid */
	__type(value, __u32); /* readers that want it */
} traced SEC(".maps");

/* A zeroed value to create entries from (a tl_lat is too big for the
 * 512-byte BPF stack). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tl_lat);
} zero SEC(".maps");

static __always_inline unsigned int task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return (unsigned int)BPF_CORE_READ((struct task_struct___old *)t, state);
}

static __always_inline int task_cpu(struct task_struct *t)
{
	if (bpf_core_field_exists(t->thread_info.cpu))
		return (int)BPF_CORE_READ(t, thread_info.cpu);
	return (int)BPF_CORE_READ((struct task_struct___cpu *)t, cpu);
}

/* The letter /proc shows (fs/proc/array.c task_state_array, in the order
 * of get_task_state()'s bit index). */
static __always_inline char state_letter(struct task_struct *t)
{
	unsigned int st = task_state(t);
	unsigned int s = (st | (unsigned int)BPF_CORE_READ(t, exit_state)) & 0x7f;
	int i = 0;

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

static __always_inline struct tl_lat *lat_entry(struct task_struct *p, bool create)
{
	__u32 tid = (__u32)BPF_CORE_READ(p, pid);
	__u32 tgid, z = 0;
	struct tl_lat *v, *init;

	if (tid == 0)
		return NULL; /* the idle task */
	v = bpf_map_lookup_elem(&lat, &tid);
	if (v || !create)
		return v;
	tgid = (__u32)BPF_CORE_READ(p, tgid);
	if (!trace_all && !bpf_map_lookup_elem(&traced, &tgid))
		return NULL;
	init = bpf_map_lookup_elem(&zero, &z);
	if (!init)
		return NULL;
	if (bpf_map_update_elem(&lat, &tid, init, BPF_NOEXIST) != 0) {
		v = bpf_map_lookup_elem(&lat, &tid); /* another CPU made it */
		if (!v)
			__sync_fetch_and_add(&dropped, 1);
		return v;
	}
	return bpf_map_lookup_elem(&lat, &tid);
}

static __always_inline void lat_enqueue(struct task_struct *p)
{
	struct tl_lat *v = lat_entry(p, true);
	if (v)
		v->start_ns = bpf_ktime_get_ns();
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

SEC("tp_btf/sched_wakeup")
int BPF_PROG(tl_wakeup, struct task_struct *p)
{
	lat_enqueue(p);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(tl_wakeup_new, struct task_struct *p)
{
	lat_enqueue(p);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(tl_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct tl_lat *v;

	/* Preempted, or yielding while runnable: it waits from now. */
	if (preempt || task_state(prev) == 0)
		lat_enqueue(prev);
	v = lat_entry(next, false);
	if (v && v->start_ns) {
		__u64 now = bpf_ktime_get_ns();
		__u64 d = now > v->start_ns ? now - v->start_ns : 0;
		v->start_ns = 0;
		lat_record(v, d);
	}
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(tl_exit, struct task_struct *p)
{
	__u32 tid = (__u32)BPF_CORE_READ(p, pid);
	bpf_map_delete_elem(&lat, &tid);
	return 0;
}

/* ---- the task iterator ------------------------------------------------ */

/* t's PID as the reader's namespace numbers it (the iterator only visits
 * tasks of that namespace). */
static __always_inline __u32 ns_pid(struct task_struct *t)
{
	if (ns_level == 0)
		return (__u32)BPF_CORE_READ(t, pid);
	struct pid *p = BPF_CORE_READ(t, thread_pid);
	int nr = 0;
	if (!p || BPF_CORE_READ(p, level) < ns_level)
		return 0;
	bpf_core_read(&nr, sizeof(nr), &p->numbers[ns_level & 31].nr);
	return (__u32)nr;
}

static __always_inline __u32 ns_tgid(struct task_struct *t)
{
	if (ns_level == 0)
		return (__u32)BPF_CORE_READ(t, tgid);
	return ns_pid(BPF_CORE_READ(t, group_leader));
}

/* Whether t's process descends from root_tgid (up to 32 generations). */
static __always_inline bool descends(struct task_struct *t)
{
	struct task_struct *p = t;

	for (int i = 0; i < 32; i++) {
		p = BPF_CORE_READ(p, real_parent);
		if (!p)
			return false;
		__u32 pg = ns_tgid(p);
		if (pg == root_tgid)
			return true;
		if (pg <= 1)
			return false;
	}
	return false;
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
	r.tgid = ns_tgid(t);
	if (!want_all && r.tgid != root_tgid && !(want_tree && descends(t)))
		return 0;
	r.tid = ns_pid(t);
	r.ppid = ns_tgid(BPF_CORE_READ(t, real_parent));
	r.gtid = (__u32)BPF_CORE_READ(t, pid);
	r.gtgid = (__u32)BPF_CORE_READ(t, tgid);
	r.cpu = task_cpu(t);
	r.run_ns = BPF_CORE_READ(t, se.sum_exec_runtime);
	r.wait_ns = BPF_CORE_READ(t, sched_info.run_delay);
	r.slices = BPF_CORE_READ(t, sched_info.pcount);
	r.utime_ns = BPF_CORE_READ(t, utime);
	r.stime_ns = BPF_CORE_READ(t, stime);
	r.start_ns = BPF_CORE_READ(t, start_boottime);
	r.nvcsw = BPF_CORE_READ(t, nvcsw);
	r.nivcsw = BPF_CORE_READ(t, nivcsw);
	r.state = state_letter(t);
	BPF_CORE_READ_STR_INTO(&r.comm, t, comm);
	v = bpf_map_lookup_elem(&lat, &r.gtid);
	if (v) {
		r.flags = TL_TASK_LAT;
		r.lat_events = v->events;
		r.lat_sum_ns = v->sum_ns;
		r.lat_max_ns[0] = v->max_ns[0];
		r.lat_max_ns[1] = v->max_ns[1];
		r.lat_max_gen[0] = v->max_gen[0];
		r.lat_max_gen[1] = v->max_gen[1];
		if (v->gen >= since_gen)
			r.flags |= TL_TASK_HIST;
	}
	bpf_seq_write(seq, &r, sizeof(r));
	if (v && (r.flags & TL_TASK_HIST))
		bpf_seq_write(seq, v->count, sizeof(v->count));
	return 0;
}
