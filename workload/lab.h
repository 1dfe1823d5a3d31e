/* lab.h — the lab manager: threadlab's side of the GEMM workload.
 *
 * threadlab never links OpenBLAS.  lab_start() creates the shared control
 * block (workload/control.h) in a memfd and execs one small process, the
 * anchor (threadlab-anchor, from workload/lab-anchor.c).  The anchor is the
 * leader of its own process group and the parent of everything the lab runs:
 * one helper (threadlab-gemm) per inter-op stream and the background CPU
 * workers.  So:
 *
 *   threadlab ── threadlab-anchor   (pgid leader, idle in poll())
 *                  ├── threadlab-gemm --stream 0   (threads gemm0, gemm0.w1 …)
 *                  ├── threadlab-gemm --stream 1
 *                  ├── tl-worker0, tl-worker1 …     (background CPU workers)
 *                  └── tl-loader0, tl-loader1 …     (input-pipeline loaders)
 *
 * MONITORING: the collectors follow lab_root_pid() (the anchor) with
 * tree = true: sampler_new(root, lab_root_pid(lab), true) sees every helper
 * and worker thread and none of threadlab's own.  The anchor's single
 * thread ("tl-anchor") sleeps and costs nothing.  With a quota,
 * lab_status_read()'s quota_dir/quota_version go to sampler_set_cgroup_override().
 *
 * The anchor, helpers and workers run with /dev/null as stdin, stdout and
 * stderr; their errors come back through the shared blocks (lab_status_read).
 *
 * LIFETIME: the anchor dies with threadlab (PR_SET_PDEATHSIG plus EOF on its
 * doorbell pipe), and kills its process group when it goes; helpers get
 * --parent <anchor pid> and die with the anchor.  lab_stop() and
 * lab_emergency_stop() kill the whole group.  The quota cgroup is named
 * threadlab-<threadlab's pid>; lab_start() removes any such cgroup whose pid
 * is no longer a live threadlab (a run killed with SIGKILL).
 *
 * Streams that are switched off are parked, not stopped: their helper stays,
 * state CTL_STREAM_PAUSED, threads asleep.  A helper is started the first
 * time its stream is wanted.
 *
 * A helper that dies unexpectedly (killed by a signal, a non-zero exit) is
 * restarted in its slot by the anchor at once: a new pid, which loads
 * OpenBLAS, recomputes its reference and applies the current settings, and
 * whose counters carry on from the dead one's.  At most LAB_RESTART_MAX
 * restarts per slot within LAB_RESTART_WINDOW_S seconds; the next death
 * leaves the stream CTL_STREAM_FAILED for good, with an error saying so.
 * Every restart stays visible in lab_status (restarts, last_failure).
 *
 * All functions returning int give 0 or -errno.  One struct lab is used from
 * one thread. */
#ifndef THREADLAB_LAB_H
#define THREADLAB_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "control.h"

#define LAB_MAX_WORKERS	     64
#define LAB_MIN_SIZE	     64
#define LAB_MAX_SIZE	     4096 /* a 1-thread reference: about 2 s sgemm, 4 s dgemm */
#define LAB_PATH_MAX	     1024
#define LAB_MAX_PIDS	     (1 + CTL_MAX_STREAMS + LAB_MAX_WORKERS + CTL_MAX_LOADERS)
#define LAB_RESTART_MAX	     3	/* restarts of one slot's helper ... */
#define LAB_RESTART_WINDOW_S 60 /* ... within this many seconds */

/* Which of Debian's OpenBLAS builds the helpers load (libopenblas0-pthread
 * or libopenblas0-openmp, side by side under /usr/lib/<multiarch>/). */
enum lab_blas {
	LAB_BLAS_PTHREADS = 0,
	LAB_BLAS_OPENMP = 1,
};

struct lab_settings {
	int threads;		      /* intra-op OpenBLAS threads per GEMM, 1..CTL_MAX_THREADS */
	int streams;		      /* inter-op streams (helper processes), 1..CTL_MAX_STREAMS */
	int size;		      /* n of the n x n x n GEMM, LAB_MIN_SIZE.. (memory bound) */
	enum ctl_precision precision; /* CTL_SINGLE (sgemm) or CTL_DOUBLE (dgemm) */
	bool paused;		      /* helpers finish their GEMM and wait */
	int workers;		      /* background CPU burners, 0..LAB_MAX_WORKERS */
	double cpus;		      /* quota in CPUs as a real number; <= 0: no quota */
	bool spin_off;		      /* idle pool threads sleep instead of spinning:
				       * OPENBLAS_THREAD_TIMEOUT=1 and OMP_WAIT_POLICY=PASSIVE.
				       * A change restarts the helpers. */
	enum lab_blas blas;	      /* OpenBLAS build; a change restarts the helpers */
	int loaders;		      /* input-pipeline loaders, 0..CTL_MAX_LOADERS; 0 = none:
				       * GEMMs need no input */
	int prep_ms;		      /* CPU time per batch, ms, 0..CTL_MAX_PREP_MS */
	int prefetch;		      /* ring slots per loader, 1..CTL_MAX_PREFETCH */
	enum ctl_kernel kernel;	      /* CTL_GEMM, or CTL_TRIAD over lab_triad_length()
				       * elements per array (size then unused) */
};

/* ---- lab-triad.c: the kernels ------------------------------------------ */

struct lab;

/* Starts the lab: control block, stale-cgroup cleanup, quota cgroup (when
 * s->cpus > 0), the anchor, and the helpers for s->streams streams.  Does
 * not wait for OpenBLAS to load (see lab_status_wait_ready).  A quota that cannot
 * be set up is not fatal: the lab runs without it and lab_status_read() gives the
 * reason in quota_error.  Returns NULL with a message in err (and errno set)
 * when the build asked for is missing (lab_settings_check) or the processes cannot be started; the
 * programs come from lab_find_programs_dir().  The caller owns the result and
 * frees it with lab_stop(). */
struct lab *lab_start(const struct lab_settings *s, char *err, size_t errlen);

/* Changes any knob live.  Helpers apply thread/size/precision/pause
 * changes between two GEMM calls; new streams start helpers; fewer streams
 * park them; workers are started or killed; the quota is changed, created
 * or removed (cpus <= 0); loaders are started or killed; another blas or
 * spin_off restarts every helper (msg says so).  A quota error leaves every other change in place,
 * returns the error (-EACCES, -EROFS, -ENOENT…) and explains it in msg; when one of the workload's
 * processes cannot be moved into the quota cgroup, no quota is in effect afterwards
 * (lab_status_read: quota_cpus 0, quota_error says why).  s is checked by the caller, once a change
 * (the knob table's checks, monitor/session-knob.h).  msg may be NULL.  Only more streams than
 * slots started, another worker or loader count, or another build or spin setting involve the
 * anchor (lab_apply waits for its answer, BELL_TIMEOUT_MS at most); the other knobs travel through
 * the control block alone. */
int lab_apply(struct lab *lab, const struct lab_settings *s, char *msg, size_t msglen);

/* When the anchor has died (killed from outside, crashed): reaps it, kills
 * what is left of its process group, and starts the workload again, the
 * same settings and the same quota cgroup, with a new anchor whose helpers,
 * workers and loaders come up as at start (their counters go on).  At most
 * LAB_RESTART_MAX restarts within LAB_RESTART_WINDOW_S seconds, as for a
 * helper.  Returns 0 when the anchor is alive (nothing done), 1 after a
 * restart, -EAGAIN when the budget is spent and -errno when the restart
 * failed (the lab is then gone for good); msg says what happened, with the
 * signal or exit status ("the lab's anchor (process 812) was killed by
 * signal 9: restarted the workload (restart 1)").  lab_root_pid() gives
 * the new anchor afterwards. */
int lab_recover(struct lab *lab, char *msg, size_t msglen);

/* Stops everything: quit flag, SIGTERM to the process group, SIGKILL after
 * a short grace (about 300 ms), reaps the anchor (which reaps the rest),
 * removes the quota cgroup, frees lab.  NULL is fine. */
void lab_stop(struct lab *lab);

/* For signal handlers: SIGKILL to the lab's process group and rmdir of the
 * quota cgroup (paths preformatted at start).  Async-signal-safe; does not
 * free memory; lab_stop() may still be called afterwards (normal path). */
void lab_emergency_stop(void);

/* What the collectors should monitor (with tree = true): the anchor. */
pid_t lab_root_pid(const struct lab *lab);

struct lab_stream_status {
	enum ctl_stream_state state;
	pid_t pid;		/* helper pid, 0 before it reports */
	uint64_t applied_epoch; /* settings epoch in effect in this helper */
	int threads;		/* intra-op threads active */
	int pool;		/* OpenBLAS pool threads created (never shrinks) */
	int size;
	enum ctl_precision precision;
	enum ctl_kernel kernel; /* in effect */
	uint32_t length;	/* the triad's elements per array in effect */
	/* gemms, flops and busy_ns are read together (one instant); like
	 * checked, mismatches and max_diff they count since the slot's first
	 * helper started and carry on across restarts. */
	uint64_t gemms;	      /* GEMM calls completed */
	uint64_t flops;	      /* 2 n^3 per call, summed */
	uint64_t busy_ns;     /* wall time inside GEMM calls, ns */
	uint64_t busy_cpu_ns; /* CPU time of all the helper's threads inside GEMM calls, ns */
	uint64_t checked;     /* results compared with the reference */
	uint64_t mismatches;  /* results not bitwise equal */
	double max_diff;      /* largest |difference| seen; +inf: NaN or infinite */
	/* The same since applied_epoch took effect (reset at each change). */
	uint64_t epoch_checked;
	uint64_t epoch_mismatches;
	double epoch_max_diff;
	char error[CTL_INFO_LEN];	 /* when state is CTL_STREAM_FAILED */
	unsigned restarts;		 /* times the helper was restarted after dying */
	char last_failure[CTL_INFO_LEN]; /* the last unexpected death ("helper killed by
					  * signal 9"), kept after a restart; "" if none */
	uint64_t batches;		 /* input batches taken (one per GEMM with loaders) */
	uint64_t input_wait_ns;		 /* wall time waiting for a batch, ns */
};

struct lab_loader_status {
	pid_t pid;	  /* 0: not running */
	bool preparing;	  /* working on a batch now */
	uint64_t batches; /* prepared since the slot's first loader */
	uint64_t cpu_ns;  /* CPU time preparing them */
	unsigned restarts;
	bool gave_up;	       /* died too often: left dead */
	char last_failure[64]; /* "loader killed by signal 9", "" if none */
};

struct lab_status {
	struct lab_settings settings; /* as last requested (quota: as in effect, 0 = none) */
	uint64_t epoch;		      /* settings epoch written */
	bool applied;		      /* every wanted stream has applied epoch */
	int nslots;		      /* stream slots started (wanted or parked) */
	struct lab_stream_status stream[CTL_MAX_STREAMS];
	uint64_t gemms, flops, busy_ns; /* summed over all slots */
	bool results_equal;		/* no mismatch in any stream, ever */
	double max_diff;		/* largest over all streams, ever */
	uint64_t checked;		/* results compared, all streams */
	/* Over the wanted streams, since each applied its current epoch: */
	bool epoch_results_equal; /* no mismatch (true also while none was checked) */
	double epoch_max_diff;	  /* largest |difference|; +inf: NaN or infinite */
	uint64_t epoch_checked;	  /* results compared */
	unsigned restarts;	  /* helper restarts, all slots */
	int nworkers;		  /* workers running */
	pid_t worker_pid[LAB_MAX_WORKERS];
	struct lab_loader_status loader[CTL_MAX_LOADERS]; /* [0, settings.loaders) */
	uint64_t batches;				  /* taken by the streams, all slots */
	uint64_t input_wait_ns;				  /* summed over every slot (parked ones
							   * do not wait: they take no batches) */
	uint64_t loader_batches, loader_cpu_ns;		  /* summed over every loader slot */
	unsigned loader_restarts;			  /* summed */
	enum lab_blas blas_in_effect;			  /* build the helpers run (= settings.blas
							   * once restarted) */
	bool blas_switching;				  /* helpers restarting for another build
							   * or spin setting */
	char blas_config[CTL_INFO_LEN]; /* openblas_get_config(), "" until known */
	char blas_core[64];		/* openblas_get_corename() */
	const char *blas_variant;	/* "sequential", "pthreads", "openmp", "" */
	char quota_dir[LAB_PATH_MAX];	/* the quota cgroup relative to "/" (its cpu.max or
					 * cfs files and cpu.stat throttling), e.g.
					 * "sys/fs/cgroup/cpu/threadlab-1234" (v1) or
					 * "sys/fs/cgroup/threadlab-1234" (v2, whose
					 * processes sit in the leaf .../work);
					 * "" when there is none */
	int quota_version;		/* 1 or 2; 0 when no quota cgroup */
	double quota_cpus;		/* quota in effect, CPUs; 0 when none */
	char quota_error[256];		/* why a requested quota is not in effect, or "" */
	pid_t anchor_pid;
	size_t npids; /* anchor, helpers, workers, loaders */
	pid_t pids[LAB_MAX_PIDS];
};

/* The quota cgroup's cpu.stat directory and version (for the sweep and
 * batch: throttling of the workload); returns false when there is none. */
bool lab_quota_cgroup(const struct lab *lab, const char **dir, int *version);

/* The quota cgroup removed from under the workload (by another program):
 * made again, the workload moved back in under the same quota.  Returns
 * true when it had gone.  Cheap (one access(2)): call it every tick. */
bool lab_keep_quota(struct lab *lab);

/* The helper executable lab_start() found (for messages), or NULL. */
const char *lab_helper_path(const struct lab *lab);

#endif
