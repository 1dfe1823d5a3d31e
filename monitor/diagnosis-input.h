/* diagnosis-input.h — what a diagnosis is made from (diagnosis.h): the
 * rates of a window, the budget, the census; for monitor/ (and its tests)
 * only, in the collectors' types. */
#ifndef THREADLAB_DIAGNOSIS_INPUT_H
#define THREADLAB_DIAGNOSIS_INPUT_H

#include "budget.h"
#include "cgroup.h"
#include "diagnosis.h"
#include "model-impl.h"
#include "settings.h"
#include "snapshot.h"

/* What a diagnosis is made from.  census may be NULL (a replay of a file
 * without one): no roles, runtimes or variables then. */
struct diag_input {
	pid_t target;
	const struct budget *budget;
	const struct snapshot_rates *rates; /* over the window judged */
	const struct census *census;
	int cores;		    /* physical cores, 0: unknown */
	const struct settings *lab; /* the lab's knobs (its pools follow them, not the
				     * environment); NULL outside the lab */
	bool keys;		    /* the lab's knobs are keys (the dashboard), else flags */
	int unfollowed;		    /* descendants of the target not followed (no --tree) */
	const struct machine_view *machine; /* the rest of the machine; NULL: not measured */
	enum verdict prev; /* the verdict of the last window, for hysteresis; VERDICT_N: none
			    * (--diagnose judges once) */
};

/* Diagnoses in into out (every field written). */
void diagnosis_make(const struct diag_input *in, struct diagnosis *out);

/* A process judged from its totals alone (the whole machine's ranking,
 * ranking.h): no thread is read, so there are no roles, groups or latency,
 * and undersubscribed (a busy thread) is never found.  The part of the
 * wait throttling explains is estimated from the totals: each thread waits
 * at most the throttled share of one CPU's time (throttled_s_per_s over
 * the CPUs its threads ran on, up to 1), so it is min(wait, threads x that
 * share).  With a census its runtimes and thread variables are read as the
 * single-target diagnosis reads them (no team is seen working: a pool is
 * read from memory or is the default); without one no runtime is named. */
struct diag_totals {
	pid_t pid;
	int threads;
	double window_s;
	double cpu, wait; /* CPUs, s/s */
	const struct budget *budget;
	struct throttle_rate throttle;	    /* of the cgroup whose quota binds */
	int cpus_ran;			    /* distinct CPUs its threads ran on; <= 0: 1 */
	const struct machine_view *machine; /* the rest of the machine; NULL: not measured */
	const struct census *census;	    /* the process's own entry, for its runtimes and thread
					     * variables; NULL: not read (no runtime is named) */
};
/* Diagnoses t into out (every field written). */
void diagnosis_of_totals(const struct diag_totals *t, struct diagnosis *out);
/* Thread demand: sum over threads of (cpu_pct + wait_pct) / 100, and the
 * part of wait a throttled cgroup explains (s/s). */
double diagnosis_runnable_mean(const struct snapshot_rates *r);
double diagnosis_throttle_wait(const struct snapshot_rates *r);

#endif
