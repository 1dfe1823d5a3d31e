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
 * The verdict comes from the first rule of diagnosis.c's table that holds:
 * idle, throttled, oversubscribed, undersubscribed, fine.  Each rule writes
 * its reasons and suggestions; suggestions name real settings and numbers. */
#ifndef THREADLAB_DIAGNOSIS_H
#define THREADLAB_DIAGNOSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "census.h"
#include "model.h"

enum verdict {
	VERDICT_FINE,
	VERDICT_OVERSUBSCRIBED,
	VERDICT_THROTTLED,
	VERDICT_UNDERSUBSCRIBED,
	VERDICT_IDLE,
	VERDICT_N,
};

/* "fine", "oversubscribed", "throttled", "undersubscribed", "idle". */
const char *diagnosis_verdict_name(enum verdict v);
/* The verdict of a name, or VERDICT_N. */
enum verdict diagnosis_verdict_of(const char *name);

#define DIAG_TEXT      256
#define DIAG_REASONS   10
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
	double runnable_mean;	    /* threads */
	double cpu_pct;		    /* % of one CPU */
	double wait_pct;	    /* % of one CPU */
	struct lat_summary latency; /* run-queue latency of its threads (BPF path) */
};

/* A runtime loaded, and the pool it runs by default. */
struct diag_runtime {
	enum runtime_id id;
	char name[40]; /* runtimes_name() */
	char variant[16];
	char library[CENSUS_LIB_MAX];
	pid_t pid;	     /* the first process (the target first) that maps it */
	int nprocs;	     /* processes that map it */
	int pool;	     /* threads by its default rule; 0: not counted */
	bool pool_unknown;   /* its process's environment could not be read whole: no rule
			      * applied, no suggestion rests on it */
	char why[DIAG_TEXT]; /* the rule applied, in one sentence */
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
	char name[TASK_NAME_MAX]; /* the shared name, or the stem and "*" */
	char stem[TASK_NAME_MAX]; /* diagnosis_stem() of the names */
	int threads;
	double runnable_mean;
	double cpu_pct;
	double wait_pct;
	struct lat_summary latency; /* run-queue latency of its threads (BPF path) */
};

struct diagnosis {
	enum verdict verdict;
	double window_s;      /* the interval judged, s */
	double factor;	      /* runnable_mean / effective CPUs */
	double runnable_mean; /* threads */
	int runnable_now;     /* threads in state R at the last sample (a detail) */
	int nthreads, nprocs;
	double effective; /* CPUs */
	enum budget_term binding;
	double cpu;	      /* CPUs in use */
	double wait;	      /* run-queue wait, s/s */
	double throttle_wait; /* the part of wait the quota explains, s/s */
	bool throttle_valid;  /* the cgroup counts periods */
	double throttled_pct; /* % of periods throttled */
	double throttled_s_per_s;
	bool lat_on;		      /* run-queue latency was traced (the BPF collector) */
	struct lat_summary latency;   /* of all the target's threads over the window */
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
};

/* What a diagnosis is made from.  census may be NULL (a replay of a file
 * without one): no roles, runtimes or variables then. */
struct diag_input {
	pid_t target;
	const struct budget *budget;
	const struct snapshot_rates *rates; /* over the window judged */
	const struct census *census;
	int cores;			/* physical cores, 0: unknown */
	const struct lab_settings *lab; /* the lab's knobs (its pools follow them, not the
					 * environment); NULL outside the lab */
	bool keys;			/* the lab's knobs are keys (the dashboard), else flags */
	int unfollowed;			/* descendants of the target not followed (no --tree) */
};

/* Diagnoses in into out (every field written). */
void diagnosis_make(const struct diag_input *in, struct diagnosis *out);

/* Thread demand: sum over threads of (cpu_pct + wait_pct) / 100, and the
 * part of wait a throttled cgroup explains (s/s). */
double diagnosis_runnable_mean(const struct snapshot_rates *r);
double diagnosis_throttle_wait(const struct snapshot_rates *r);

/* The stem of a thread name: trailing digits and the separators before
 * them removed ("pt_autograd_0" → "pt_autograd", "gemm0.w1" → "gemm0.w");
 * a name that is all digits stays.  Raw bytes in, raw bytes out. */
size_t diagnosis_stem(const char *name, size_t len, char *out, size_t cap);

/* One rule of the verdict table, for tests and the man page. */
struct diag_rule_doc {
	enum verdict verdict;
	const char *when; /* the condition, in words */
};
const struct diag_rule_doc *diagnosis_rules(size_t *n);

#endif
