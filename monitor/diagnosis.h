/* diagnosis.h — is this job oversubscribed, why, and what to set instead.
 *
 * From the rates of a window (thread demand from schedstat), the CPU
 * budget, the cgroup's throttling and the census of the target's processes
 * (executables, runtimes loaded, thread variables) the diagnosis finds the
 * roles the processes play, the runtimes and what pool each would run, the
 * thread groups, and one verdict with its reasons and suggestions.
 *
 * Demand: a thread's run time plus its run-queue wait over the window,
 * divided by the window, is the share of it the thread was runnable; the
 * sum over threads is the mean number of runnable threads, and that over
 * the effective CPUs is the oversubscription factor.  Under a quota, wait
 * includes the time the cgroup was throttled (docs/design.md, "Wait and throttling"): while
 * throttled, each runnable thread of it waits, so a thread's wait up to the throttled seconds per
 * second is counted as throttling, the rest as contention.
 *
 * With the BPF collector each thread's run-queue latency is known too:
 * the groups, roles and the whole target carry its p50, p99 and max over
 * the window, the reasons quote the tail, and a factor between 1.0 and the
 * oversubscription threshold counts as oversubscribed when that tail is
 * long (diagnosis-rules.c).
 *
 * The verdict comes from the first rule of diagnosis-rules.c's table that
 * holds: idle, throttled, oversubscribed, contended, undersubscribed, fine.
 * Each threshold has a band around it (diagnosis-rules.c): a figure inside
 * the band does not give that verdict but reads borderline (the next rules
 * decide), unless the previous verdict was that one (diag_input.prev: the
 * dashboard's hysteresis).  Each rule writes its reasons and suggestions;
 * suggestions name real settings and numbers, and each is checked against
 * the figures it predicts before it is kept (diagnosis-advice.c).  What a
 * diagnosis is made from, in the collectors' types, is the monitor's own
 * (diagnosis-input.h): the faces read the diagnosis. */
#ifndef THREADLAB_DIAGNOSIS_H
#define THREADLAB_DIAGNOSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "activity.h"
#include "census.h"
#include "model.h"
#include "neighbours.h"

enum verdict {
	VERDICT_FINE,
	VERDICT_OVERSUBSCRIBED,
	VERDICT_THROTTLED,
	VERDICT_UNDERSUBSCRIBED,
	VERDICT_IDLE,
	VERDICT_CONTENDED,
	VERDICT_N,
};

/* "fine", "oversubscribed", "throttled", "undersubscribed", "idle",
 * "contended". */
const char *diagnosis_verdict_name(enum verdict v);
/* The verdict of a name, or VERDICT_N. */
enum verdict diagnosis_verdict_of(const char *name);

#define DIAG_TEXT      512
#define DIAG_REASONS   16
#define DIAG_SUGGEST   4
#define DIAG_ROLES     12
#define DIAG_RUNTIMES  12
#define DIAG_GROUPS    48
#define DIAG_ROLE_PIDS 16

/* A part the processes play. */
struct diag_role {
	char name[64]; /* "python3 (main)", "forked workers", "threadlab-gemm" */
	char kind[16]; /* "main", "workers" (forked, same command line), "children" */
	int nprocs;
	pid_t pids[DIAG_ROLE_PIDS];
	int threads;
	double runnable_mean; /* threads */
	double cpu_pct;	      /* % of one CPU */
	double wait_pct;      /* % of one CPU */
	/* Of the window, the share each process's working thread (the one
	 * that ran most) waited for input, averaged over the processes: %. */
	double input_wait_pct;
	int activity[ACTIVITY_N];     /* threads by their activity */
	struct model_latency latency; /* run-queue latency of its threads (BPF path) */
};

/* How a pool's size in effect was found. */
enum pool_source {
	POOL_UNKNOWN,  /* not found: pool < 0, pool_why says why */
	POOL_MEMORY,   /* read from the process (an exported variable) */
	POOL_OBSERVED, /* threads of the process seen working together */
	POOL_DEFAULT,  /* the runtime's default rule from the environment */
};

/* A runtime loaded, the pool it runs, and the one its defaults imply. */
struct diag_runtime {
	enum runtime_id id;
	char name[40]; /* runtimes_name() */
	char variant[16];
	char library[CENSUS_LIB_MAX];
	pid_t pid;	  /* the first process (the target first) that maps it */
	int nprocs;	  /* processes that map it */
	int pool;	  /* threads in effect; < 0 unknown (never 0) */
	int pool_default; /* threads by its default rule; < 0 unknown */
	enum pool_source source;
	int observed;		  /* threads of pid seen working together (>= 30 % runnable) */
	bool code_sets;		  /* the pool in effect differs from the default: the code (or a
				   * call) sets it */
	char why[DIAG_TEXT];	  /* the default rule applied, in one sentence */
	char pool_why[DIAG_TEXT]; /* how the pool in effect was found, or why not */
	bool pool_unknown;	  /* its process's environment could not be read whole: no default
				   * rule applied (pool_default < 0), no suggestion rests on it */
};

/* A thread variable of the target's initial environment. */
struct diag_env {
	const char *name;
	char value[128];
	int state; /* enum census_env; with OK, value "" and set false: unset; with
		    * TRUNCATED, not in the part of the environment read */
	bool set;
};

/* Threads of one process sharing a name stem. */
struct diag_group {
	pid_t pid;
	char name[MODEL_NAME_MAX]; /* the shared name, or the stem and "*" */
	char stem[MODEL_NAME_MAX]; /* diagnosis_stem() of the names */
	int threads;
	double runnable_mean;
	double cpu_pct;
	double wait_pct;
	struct model_latency latency; /* run-queue latency of its threads (BPF path) */
	int activity[ACTIVITY_N];     /* threads by their activity */
};

struct diagnosis {
	enum verdict verdict;
	double window_s;      /* the interval judged, s */
	double factor;	      /* runnable_mean / effective CPUs */
	double runnable_mean; /* threads */
	int runnable_now;     /* threads in state R at the last sample (a detail) */
	int nthreads, nprocs;
	double effective; /* CPUs */
	enum model_term binding;
	double cpu;	      /* CPUs in use */
	double wait;	      /* run-queue wait, s/s */
	double throttle_wait; /* the part of wait the quota explains, s/s */
	bool throttle_valid;  /* the cgroup counts periods */
	double throttled_pct; /* % of periods throttled */
	double throttled_s_per_s;
	bool lat_on;		      /* run-queue latency was traced (the BPF collector) */
	struct model_latency latency; /* of all the target's threads over the window */
	char headline[2 * DIAG_TEXT]; /* the verdict in one line a person can act on */
	size_t nreasons, nsuggestions, nroles, nruntimes, ngroups, nenv;
	char reasons[DIAG_REASONS][DIAG_TEXT];
	char suggestions[DIAG_SUGGEST][DIAG_TEXT];
	struct diag_role roles[DIAG_ROLES];
	struct diag_runtime runtimes[DIAG_RUNTIMES];
	struct diag_group groups[DIAG_GROUPS];
	struct diag_env env[ENVIRONMENT_VARS_MAX];
	int env_state;	     /* enum census_env of the target */
	bool env_denied;     /* UNREADABLE for want of permission (census.h) */
	int maps_unreadable; /* processes whose libraries (maps) could not be read */
	int maps_truncated;  /* processes whose maps were longer than what is read */
	int unfollowed;	     /* descendants of the target left out (no --tree) */
	/* The machine beside the target (valid false when not measured). */
	struct machine_view machine;
	double contention_wait;	 /* wait - throttle_wait: waiting for CPUs others hold, s/s */
	double unseen_cpu;	 /* of cpu, what threads that started and ended between reads
				  * ran (snapshot_rates' unseen_cpu), CPUs */
	double switches;	 /* its threads' context switches a second (each ends a run
				  * and, woken or preempted, begins a wait) */
	enum verdict borderline; /* a verdict whose band the figures are in, read as fine
				  * or the next rule; VERDICT_N: none */
	bool kept;		 /* the previous verdict held inside its band */
	bool also_contended;	 /* oversubscribed or throttled, and crowded out too */
	bool input_bound;	 /* the main process waits for its workers' input */
	int team;		 /* the largest pool seen working: threads of a process with an
				  * OpenMP or BLAS runtime each runnable 30 % or more */
	double team_factor;	 /* team / effective CPUs */
};

/* "memory", "observed", "default", or NULL for POOL_UNKNOWN. */
const char *diagnosis_pool_source_name(enum pool_source s);

/* The stem of a thread name: trailing digits and the separators before
 * them removed ("pt_autograd_0" → "pt_autograd", "gemm0.w1" → "gemm0.w");
 * a name that is all digits stays.  Raw bytes in, raw bytes out. */
size_t diagnosis_stem(const char *name, size_t len, char *out, size_t cap);

#endif
