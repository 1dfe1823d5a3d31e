/* tl-core.h — the kernel types threadlab's BPF programs read, declared by
 * hand for CO-RE.
 *
 * Instead of a vmlinux.h generated from the build machine's BTF (130,000
 * lines that pin the build to one kernel's headers), only the fields used
 * are declared here, with preserve_access_index: libbpf relocates every
 * access against the running kernel's BTF (/sys/kernel/btf/vmlinux) at
 * load time, so the objects build on any machine, with or without BTF, and
 * load on any kernel that has the fields.  Fields that moved between
 * kernels have a ___flavor struct and a bpf_core_field_exists() test. */
#ifndef THREADLAB_TL_CORE_H
#define THREADLAB_TL_CORE_H

#include <linux/types.h>

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

struct thread_info {
	__u32 cpu; /* 5.16+ with THREAD_INFO_IN_TASK */
};

struct cfs_rq;

struct sched_entity {
	__u64 exec_start; /* rq clock_task when sum_exec_runtime was last brought up to date */
	__u64 sum_exec_runtime;
	struct cfs_rq *cfs_rq; /* the CFS queue of the CPU it is on */
};

struct sched_info {
	unsigned long pcount;
	unsigned long long run_delay;
	unsigned long long last_queued; /* rq clock when it was queued; 0: not queued */
};

/* A CPU's CFS queue, and the run queue it belongs to: with group
 * scheduling cfs_rq names it, else the cfs_rq is the run queue's member
 * "cfs".  The run queue's clock (updated at each schedule) is the one
 * last_queued and run_delay count in.  (The per-CPU "runqueues" symbol
 * would be shorter, but needs CONFIG_KALLSYMS_ALL.) */
struct cfs_rq {
	struct rq *rq;
};

struct task_struct;

struct rq {
	__u64 clock;
	__u64 clock_task;	   /* the clock exec_start and runtime count in */
	struct task_struct *curr; /* the thread on this CPU now */
	struct cfs_rq cfs;
};

struct pid_namespace;

struct upid {
	int nr;
	struct pid_namespace *ns;
};

struct pid {
	unsigned int level;
	struct upid numbers[1]; /* level + 1 of them */
};

/* What a thread group shares: its live thread count (/proc's num_threads). */
struct signal_struct {
	int nr_threads;
	__u64 sum_sched_runtime; /* the run of its threads that ended */
	__u64 cutime, cstime;	 /* of its reaped children, ns */
};

struct task_struct {
	struct thread_info thread_info;
	unsigned int __state; /* 5.14+; "state" before */
	unsigned int flags;   /* PF_*: PF_EXITING 0x4 */
	int exit_state;
	int pid;
	int tgid;
	struct task_struct *real_parent;
	struct task_struct *group_leader;
	struct pid *thread_pid;
	struct signal_struct *signal;
	struct sched_entity se;
	struct sched_info sched_info;
	__u64 utime, stime;
	__u64 start_boottime;
	unsigned long nvcsw, nivcsw;
	char comm[16];
};

/* Before 5.14 the state was a long named "state". */
struct task_struct___old {
	long state;
};

/* Before 5.16 (or without THREAD_INFO_IN_TASK) the CPU sat in task_struct. */
struct task_struct___cpu {
	unsigned int cpu;
};

struct seq_file;

struct bpf_iter_meta {
	struct seq_file *seq;
	__u64 session_id;
	__u64 seq_num;
};

struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
};

#pragma clang attribute pop

#endif
