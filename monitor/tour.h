/* tour.h — the guided tour: lessons that set the lab's knobs one step at a
 * time and explain, with the numbers just measured, what the screen shows.
 *
 * A tour is a list of steps built for the machine's effective CPUs when it
 * starts (tour_start): nine lessons, fifteen steps.  Each step sets the
 * lab's settings (session_lab_apply), waits until the workload applied them
 * (no pending mark) and a warm-up went by, measures for step_s seconds over
 * the session's ticks, and writes its caption from those figures
 * (tour_caption): never a canned number, and where the measurement
 * contradicts the lesson the caption says what was measured and names the
 * evidence (pressure, other processes' CPU, throttling).  A face calls
 * tour_tick() after every session_tick(); a face with a screen holds each
 * caption for hold_s seconds before the next step (0: go on at once, as
 * --tour --batch does).  tour_stop() puts back the settings the user had.
 *
 * Pure model: the tour reads the session's snapshots and the lab's status,
 * changes only s->want (through session_lab_apply), never draws or prints. */
#ifndef THREADLAB_TOUR_H
#define THREADLAB_TOUR_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

#define TOUR_LESSONS	 9
#define TOUR_STEPS_MAX	 16
#define TOUR_CAPTION_LEN 768
#define TOUR_SETTLE_S	 60.0 /* a step whose settings are not in effect by then is skipped */

enum tour_kind {
	TOUR_SINGLE,	    /* 1: one thread */
	TOUR_TWO,	    /* 2: two threads per GEMM */
	TOUR_OVER,	    /* 3: more threads than effective CPUs */
	TOUR_INTRA,	    /* 4a: small matrix, one stream x E threads */
	TOUR_INTER,	    /* 4b: small matrix, E streams x 1 thread */
	TOUR_QUOTA,	    /* 5: a quota below the core count */
	TOUR_INPUT_BOUND,   /* 6a: one loader, heavy preparation */
	TOUR_MORE_LOADERS,  /* 6b: two loaders */
	TOUR_STEAL,	    /* 6c: more loaders than the spare CPU */
	TOUR_SPIN_PTHREADS, /* 7a: pool threads idle between calls, pthreads build */
	TOUR_SPIN_OPENMP,   /* 7b: the same on the OpenMP build */
	TOUR_SPIN_PASSIVE,  /* 7c: OpenMP build, OMP_WAIT_POLICY=PASSIVE */
	TOUR_AMDAHL,	    /* 8: Amdahl's law fitted to lessons 1-3, then one more point */
	TOUR_TRIAD_ONE,	    /* 9a: the memory-bound triad, one thread */
	TOUR_TRIAD_ALL,	    /* 9b: the triad on every CPU */
};

/* What one step measured, over its window (rates per second of wall). */
struct tour_figures {
	double seconds;	       /* the window's length */
	double gflops;	       /* all streams */
	double single_gflops;  /* the tour's single-thread rate (lesson 1), <= 0 unknown */
	double best_single;    /* the lab's best 1-thread reading so far (its calibration), <= 0 */
	double speedup;	       /* gflops / single */
	double ideal_gflops;   /* single x min(threads x streams, effective) */
	double ceiling_gflops; /* single x effective */
	double ceiling_pct;    /* 100 x gflops / ceiling */
	double effective;      /* effective CPUs during the window */
	int online, affinity;  /* what nproc and os.cpu_count() are built from */
	double wait_pct;       /* helpers' run-queue wait, % of their runnable time */
	double ivcsw_per_s;    /* involuntary context switches a second of each helper
				* thread that ran (the table's IVCS/s), their mean */
	double throttled_pct;  /* % of quota periods throttled; < 0: no quota */
	double throttled_s;    /* throttled seconds per second */
	double batches_per_s;  /* input batches taken */
	double input_wait_pct; /* share of the streams' time waiting for input */
	double loader_cpu_pct; /* CPU of all loaders, % of one CPU */
	double useful_cpus;    /* helpers' CPU inside GEMM calls */
	double cpu_cpus;       /* helpers' CPU as /proc shows it */
	double spin_cpus;      /* cpu_cpus - useful_cpus: idle pool threads and overhead */
	double other_cpus;     /* CPU used by everything outside the lab, CPUs */
	double psi_some;       /* system CPU pressure, some avg10, %; < 0 unknown */
	bool results_checked;
	bool results_equal; /* since the setting took effect */
	double max_diff;
	const char *variant; /* OpenBLAS build that ran: "pthreads", "openmp", "" */
	/* Lesson 8 (made before its window, from the GEMM steps measured): */
	double fit_s;	     /* Amdahl's serial fraction; < 0 none */
	int fit_points;	     /* steps the fit used */
	int fit_busy;	     /* steps left out: other processes used CPUs meanwhile */
	int fit_beyond;	     /* steps left out: more threads than the CPUs (amdahl.h) */
	double predicted;    /* the speedup it predicts for this step's threads */
	double pred_err_pct; /* 100 x (measured - predicted) / predicted */
	/* Lesson 9: the roofline (roofline.h) of the step's kernel. */
	double gbs;	      /* gflops / intensity */
	double intensity;     /* FLOPs per byte */
	double ridge;	      /* FLOPs per byte; 0 unknown */
	double memory_roof;   /* GB/s; 0 unknown */
	double compute_roof;  /* GFLOP/s; 0 unknown */
	const char *bound;    /* "compute", "memory", "unknown" */
	double gemm_speedup;  /* lesson 9b: GEMM from 1 to 2 threads (steps 1, 2); < 0 none */
	double triad_speedup; /* lesson 9b: the triad from 1 thread to this step's */
};

struct tour_step {
	int lesson; /* 1..TOUR_LESSONS */
	enum tour_kind kind;
	const char *title;   /* the lesson's title */
	char what[64];	     /* what this step sets, in a few words, for this box */
	struct settings set; /* filled when the step begins */
	bool measured;
	bool failed;		 /* not applied in time, or the workload failed */
	struct tour_figures fig; /* when measured */
	struct tour_figures pre; /* lesson 8: its prediction, made when the step begins */
	char caption[TOUR_CAPTION_LEN];
};

enum tour_state {
	TOUR_OFF,	/* no tour */
	TOUR_SETTLING,	/* settings asked for, waiting for them and the warm-up */
	TOUR_MEASURING, /* the window runs */
	TOUR_SHOWING,	/* caption written, held for hold_s */
	TOUR_DONE,	/* past the last step */
};

/* Counters at the start of a window, and sums over its ticks. */
struct tour_acc {
	double t0;
	uint64_t flops, batches, input_wait_ns, loader_cpu_ns, busy_cpu_ns;
	double ticks_dt, run, wait, ivcsw, cpu, thr_pct, thr_s, other, psi;
	double thr_dt, psi_n;
};

struct tour {
	enum tour_state state;
	bool paused;	       /* SHOWING does not move on */
	double step_s;	       /* measured per step */
	double warmup_s;       /* after the settings are in effect */
	double hold_s;	       /* a caption stays this long (0: next at once) */
	double t_state;	       /* when the state began */
	struct settings saved; /* the user's settings before the tour */
	int effective;	       /* effective CPUs at start, rounded down, >= 1 */
	bool have_openmp;      /* the OpenMP build is installed */
	struct tour_step step[TOUR_STEPS_MAX];
	size_t nsteps, cur;
	unsigned finished; /* steps measured so far (a face prints each once) */
	struct tour_acc acc;
};

/* Builds the steps for s (a running lab session) and begins the first at
 * time now.  step_s: seconds measured per step; hold_s as above. */
void tour_start(struct tour *t, struct session *s, double step_s, double hold_s, double now);

/* After each session_tick(): moves the current step along at time now
 * (CLOCK_MONOTONIC, s).  Returns true when the current step (t->cur) was
 * finished during this call: measured, or skipped (failed) with a caption
 * that says why.  Either way its caption is final. */
bool tour_tick(struct tour *t, struct session *s, double now);

/* n / p: the next or previous step (begins it at once); at the ends the
 * tour stays where it is (returns false). */
bool tour_next(struct tour *t, struct session *s, double now);
bool tour_prev(struct tour *t, struct session *s, double now);
/* Leaves the tour: the user's settings come back.  Safe on a tour that is
 * off. */
void tour_stop(struct tour *t, struct session *s);

/* The tour was started and not left (its end still shows its last words). */
bool tour_active(const struct tour *t);
/* The tour runs a step: it owns the knobs and its keys (not after its end). */
bool tour_running(const struct tour *t);

/* One line for the top of the screen: "tour 3/7 More threads than CPUs:
 * step 4/12, measuring 2.0 of 6 s" (or "…caption held, next in 3 s",
 * "paused", "done"). */
size_t tour_status(const struct tour *t, double now, char *out, size_t cap);

/* "threads 4, streams 1, n=768 single, quota none, loaders 0,
 * pthreads, spin default" for a step's settings. */
size_t tour_settings_text(const struct settings *s, char *out, size_t cap);

/* The first measured step of kind k, or NULL. */
const struct tour_step *tour_find(const struct tour *t, enum tour_kind k);

/* ---- tour-models.c: lessons 8 and 9 ------------------------------------- */

#endif
