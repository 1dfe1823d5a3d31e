/* ranking.h — every process of the machine, ranked by its demand against
 * its own CPU budget (docs/design.md, "The whole machine").
 *
 * A struct ranking samples the machine with a struct neighbours of no
 * window (each tick's figures are the last interval's), so a process's
 * CPU and run-queue wait come from its threads' schedstat, and the view of
 * the rest of the machine each process is judged against is the one the
 * single-target diagnosis uses.  Per process it adds its budget
 * (collectors/budget.h: the least of online CPUs, affinity, cpuset and
 * the tightest quota over its cgroup's ancestors), read when the process
 * first has rates, when its name changes (an exec, which may have set its
 * affinity on the way) and again every RANKING_BUDGET_S seconds (all of them
 * together, so the processes of one cgroup share one read of its files:
 * budget_read_cached), and the
 * throttling of the cgroup whose quota binds (its cpu.stat, read once a
 * tick per such cgroup, however many processes share it).
 *
 * A row's factor is its mean runnable threads (CPU + wait) over its
 * effective CPUs; rows are ranked by factor, then by CPU.  Its verdict is
 * the diagnosis's table applied to the process's totals
 * (diagnosis_of_totals): there is no per-thread reading here, so no pool
 * runtime is named and none reads undersubscribed.  A process idle by the
 * table's first rule is given that verdict without the rest of the work.
 * The first RANKING_EXPLAIN rows that are neither fine nor idle are judged
 * again with their census entry (monitor/census.h: the runtimes they
 * loaded, their thread variables), so their suggestions name the pool
 * and the setting ("set OMP_NUM_THREADS=1"); their maps and environ are
 * read when they first lead and every CENSUS_REFRESH_S after.
 *
 * A process that ended between two ticks is gone from the next ranking; a
 * new one is ranked after its first whole interval; a PID whose start time
 * changed is a new process (its budget is read again).  Kernel threads are
 * left out unless asked for. */
#ifndef THREADLAB_RANKING_H
#define THREADLAB_RANKING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "diagnosis.h"
#include "neighbours.h"

#define RANKING_BUDGET_S   5.0 /* s between reads of a process's budget */
#define RANKING_FIRST_S	   0.5 /* s from ranking_open's baseline to the first ranking */
#define RANKING_CGROUP_MAX 64  /* bytes of a short cgroup name */
#define RANKING_EXPLAIN	   10  /* leading offenders whose runtimes are read */

/* One process over the last interval.  Plain data. */
struct rank_row {
	pid_t pid, ppid;
	char name[MODEL_NAME_MAX]; /* raw bytes */
	size_t name_len;
	char cgroup[RANKING_CGROUP_MAX];       /* ranking_cgroup_short() of the path */
	char cgroup_path[NEIGHBOUR_CGROUP_MAX]; /* as the process sees it; "" unknown */
	bool kernel;
	int threads;
	double cpu, wait;     /* CPUs, run-queue wait s/s */
	double runnable_mean; /* cpu + wait: threads */
	bool budget_known;    /* its budget could be read (else effective = online) */
	double effective;     /* CPUs */
	enum model_term binding;
	double factor; /* runnable_mean / effective */
	bool throttle_valid;
	double throttled_pct, throttled_s_per_s;
	enum verdict verdict;
	char headline[2 * DIAG_TEXT]; /* the verdict in one line, as the diagnosis's; "" idle */
	char suggestion[DIAG_TEXT]; /* the first suggestion; "" none */
	bool explained;		    /* judged with its runtimes and thread variables */
	size_t src, cached;	    /* ranking.c's: its sample and budget entries */
};

/* The machine over the last interval. */
struct rank_machine {
	bool valid;	      /* an interval was measured */
	double window_s;
	int online;	      /* CPUs online */
	double cpus_used;     /* CPUs busy (proc/stat) */
	double runnable_mean; /* CPUs busy plus every process's wait: threads */
	double factor;	      /* runnable_mean / online */
	double psi_some;      /* system CPU pressure, some avg10 %; < 0 unknown */
	size_t processes;     /* ranked (kernel threads only with kernel) */
	size_t threads;	      /* of those */
	enum verdict verdict; /* idle, oversubscribed or fine */
	char headline[DIAG_TEXT];
	bool bpf; /* its threads were read through BPF (collector.h), not /proc */
};

struct ranking_impl; /* ranking.c's: the machine reader, the budgets, the census */
struct neighbours;

struct ranking {
	bool kernel;	       /* rank kernel threads too (from the next tick) */
	struct rank_row *rows; /* ranked */
	size_t n, cap;
	struct rank_machine summary;
	uint64_t budget_reads; /* budgets read since ranking_init (the benchmark's figure) */
	/* What a face says once when note_seq moves: the BPF read failed
	 * and every process is read from /proc from then on. */
	char note[160];
	unsigned note_seq;
	struct ranking_impl *impl;
};

/* On the directory dir ("/": the live machine), opened here and
 * closed by ranking_free; and the machine sampled once, as the baseline.
 * The first ranking may come RANKING_FIRST_S after it (so a first screen
 * or line is up within a second; its figures are half a second's), the
 * later ones NEIGHBOURS_PERIOD_S apart at least.  Returns 0, or -errno with a one-line message in
 * err when dir or its proc/ cannot be read. */
int ranking_open(struct ranking *k, const char *dir, bool kernel, double now, char *err,
		 size_t cap);
void ranking_free(struct ranking *k);

/* Samples the machine at now (CLOCK_MONOTONIC s; at most once every
 * NEIGHBOURS_PERIOD_S, the first call sets the baseline) and ranks it.
 * Returns true when the rows are new. */
bool ranking_tick(struct ranking *k, double now);

/* A row whose demand exceeds its own budget: oversubscribed or throttled
 * (--diagnose --all's offenders). */
bool ranking_offends(const struct rank_row *r);
/* A row that waits for CPUs other processes hold: contended. */
bool ranking_starved(const struct rank_row *r);
/* The machine is oversubscribed, or a row offends or is starved:
 * --diagnose --all exits 1. */
bool ranking_problem(const struct ranking *k);

/* Pure: a short name for a cgroup path: a container ("docker 0123456789ab"
 * from a 64-hex id), a Kubernetes pod ("pod 1f2e3d4c" from its UID, with
 * the container's id when there is one), else the last component (a
 * systemd unit such as "nginx.service"), "/" for the root; "" for "".
 * Raw bytes in, raw bytes out (cut at cap). */
void ranking_cgroup_short(const char *path, char *out, size_t cap);

/* The ranking's reader of the machine, for a session to borrow
 * (session_config.machine_from, neighbours_borrow): k must not tick while
 * the session holds it. */
const struct neighbours *ranking_machine(const struct ranking *k);
/* Whether process pid has a child among the machine's processes of the
 * last tick. */
bool ranking_has_children(const struct ranking *k, pid_t pid);

#endif
