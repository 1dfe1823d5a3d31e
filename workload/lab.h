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
 * lab_read()'s quota_dir/quota_version go to sampler_set_cgroup_override().
 *
 * The anchor, helpers and workers run with /dev/null as stdin, stdout and
 * stderr; their errors come back through the shared blocks (lab_read).
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

/* "pthreads", "openmp"; parse: 0 or -EINVAL (also takes "pthread"). */
const char *lab_blas_name(enum lab_blas b);
int lab_blas_parse(const char *s, enum lab_blas *out);
/* Every build's name, NULL-terminated; a name's index is its enum lab_blas. */
const char *const *lab_blas_names(void);
/* The directory holding that build's libopenblas.so.0, or NULL when the
 * build is not installed (the pthreads build then falls back to the
 * library the helper was linked against). */
const char *lab_blas_dir(enum lab_blas b);

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

/* The settings' defaults and ranges are the knob table's (monitor/knobs.h:
 * knobs_defaults, knobs_check); the workload takes settings that passed
 * it and keeps its arrays' bounds (CTL_MAX_*, LAB_MAX_*) whatever it gets.
 * What only the system can say: the OpenBLAS build asked for is installed.
 * On error writes one line into err saying what to do and returns
 * -ENOENT, else 0.  Memory is checked apart (lab_settings_check_mem),
 * against a MemAvailable the caller reads. */
int lab_settings_check(const struct lab_settings *s, char *err, size_t errlen);

/* The memory check, against avail bytes (MemAvailable;
 * 0: unknown, always fits): -ENOMEM with a message when the matrices need
 * more than 80 % of it, else 0.  Pure, for tests. */
int lab_settings_check_mem(const struct lab_settings *s, unsigned long long avail, char *err,
			   size_t errlen);

/* The per-process limits: each helper holds its stream's 4 matrices and
 * OpenBLAS's own address space (LAB_HELPER_AS_MIB for the library, its
 * buffers and the driver, and LAB_THREAD_AS_MIB per pool thread: stacks
 * and buffers; measured on Debian 12's OpenBLAS 0.3.21).  as and data are
 * RLIMIT_AS and RLIMIT_DATA in bytes (RLIM_INFINITY or 0: none).  -ENOMEM
 * with a message naming the limit when a helper cannot fit, else 0.  Pure. */
#define LAB_HELPER_AS_MIB 320
#define LAB_THREAD_AS_MIB 16
int lab_settings_check_limits(const struct lab_settings *s, unsigned long long as,
			      unsigned long long data, char *err, size_t errlen);
/* The same against this process's limits (the helpers inherit them). */
int lab_settings_check_rlimits(const struct lab_settings *s, char *err, size_t errlen);

/* A generous timeout for lab_wait_ready() after starting or changing to s,
 * ms: the 1-thread reference and a first GEMM of every stream at a slow
 * rate, stretched by a quota below 1 CPU.  At least 10 s. */
int lab_ready_timeout_ms(const struct lab_settings *s);

/* Parses a --cpus argument: a real number > 0, or "max"/"none" for no
 * quota (*cpus = 0).  0, negative or non-numbers give -EINVAL with a
 * message in err. */
int lab_cpus_parse(const char *arg, double *cpus, char *err, size_t errlen);

/* ---- lab-triad.c: the kernels ------------------------------------------ */

#define LAB_TRIAD_MIN_MIB 128 /* each triad array holds at least this much */
/* "gemm", "triad"; NULL-terminated, a name's index is its enum ctl_kernel. */
const char *const *lab_kernel_names(void);
const char *lab_kernel_name(enum ctl_kernel k);
/* A cache size as sysfs writes it ("480M", "4096K", "32768"), bytes; 0 when
 * it does not read.  Pure. */
unsigned long long lab_cache_parse(const char *text);
/* The largest cache under cpu_dir/cache/index* /size, bytes; 0 when none
 * reads (cpu_dir: "/sys/devices/system/cpu/cpu0", or a fixture). */
unsigned long long lab_largest_cache(const char *cpu_dir);
/* Elements per triad array for precision p: 2 x the largest cache of CPU 0,
 * at least LAB_TRIAD_MIN_MIB, a multiple of 64 (read once per process). */
uint32_t lab_triad_length(enum ctl_precision p);

struct lab;

/* Starts the lab: control block, stale-cgroup cleanup, quota cgroup (when
 * s->cpus > 0), the anchor, and the helpers for s->streams streams.  Does
 * not wait for OpenBLAS to load (see lab_wait_ready).  A quota that cannot
 * be set up is not fatal: the lab runs without it and lab_read() gives the
 * reason in quota_error.  Returns NULL with a message in err (and errno set)
 * when the build asked for is missing (lab_settings_check) or the processes cannot be started; the
 * programs come from lab_programs_dir().  The caller owns the result and
 * frees it with lab_stop(). */
struct lab *lab_start(const struct lab_settings *s, char *err, size_t errlen);

/* Waits up to timeout_ms until every wanted stream has applied the newest
 * settings and done at least one GEMM with them (or failed).  Returns 0,
 * -ETIMEDOUT, -EIO when a helper failed (its error in msg), or -ECHILD
 * when the anchor has ended (lab_recover() then says how and restarts
 * it). */
int lab_wait_ready(struct lab *lab, int timeout_ms, char *msg, size_t msglen);

/* Changes any knob live.  Helpers apply thread/size/precision/pause
 * changes between two GEMM calls; new streams start helpers; fewer streams
 * park them; workers are started or killed; the quota is changed, created
 * or removed (cpus <= 0); loaders are started or killed; another blas or
 * spin_off restarts every helper (msg says so).  A quota error leaves every other change in place,
 * returns the error (-EACCES, -EROFS, -ENOENT…) and explains it in msg; when one of the workload's
 * processes cannot be moved into the quota cgroup, no quota is in effect afterwards (lab_read:
 * quota_cpus 0, quota_error says why).  s is checked by the caller, once a change (the knob
 * table's checks, monitor/session-knob.h).  msg may be NULL.  Only more streams than slots started,
 * another worker or loader count, or another build or spin setting involve the anchor (lab_apply
 * waits for its answer, BELL_TIMEOUT_MS at most); the other knobs travel through the control block
 * alone. */
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

/* Fills st from the control block and the lab's own state.  Also feeds the
 * single-thread rate cache when the lab runs 1 stream x 1 thread in steady
 * state.  Returns 0, or -ESRCH when the anchor has gone. */
int lab_read(struct lab *lab, struct lab_status *st);

/* The single-thread rate for size n and precision p in GFLOP/s, the first
 * time it is asked for that size/precision measured, then cached.
 *
 * Method: the workload is switched to 1 stream x 1 thread (no workers, no
 * quota) and, once applied, the rate FLOPs / time inside GEMM calls is
 * taken over short windows of at least 3 calls (or 1 call of 0.2 s and
 * more) for about 0.6 s, and the best window is kept: noise from other
 * processes only lowers a rate, so the maximum is the machine's.  Large
 * sizes wait for at least one window (lab_ready_timeout_ms bounds it).
 * The settings before are restored.  While the lab later runs 1 x 1 in
 * steady state (no workers, no quota), each second of GEMM time refines
 * the cached value: it keeps the maximum.
 *
 * Returns a value <= 0 when it cannot be measured (helper failed). */
double lab_single_rate(struct lab *lab, int n, enum ctl_precision p);

/* The cached rate only, never measuring; <= 0 when unknown. */
double lab_single_rate_cached(const struct lab *lab, int n, enum ctl_precision p);
/* The rate-cache size key of the kernel in s: its n for GEMM, LAB_TRIAD_KEY
 * for the triad (lab_single_rate(lab, LAB_TRIAD_KEY, p) measures the triad). */
#define LAB_TRIAD_KEY 0
int lab_rate_key(const struct lab_settings *s);

/* The machine's memory bandwidth, GB/s (10^9 bytes a second): the triad in
 * the precision held on one stream with one thread per online CPU (no workers, quota
 * lifted), the best window over about a second, as lab_single_rate does;
 * bytes are 3 elements an index (the STREAM count).  Measured the first
 * time it is asked for, then cached for the lab's life; the settings
 * before are restored.  <= 0 when it cannot be measured. */
double lab_memory_gbs(struct lab *lab);
/* The cached bandwidth only, never measuring; <= 0 when unknown. */
double lab_memory_gbs_cached(const struct lab *lab);

/* The quota cgroup's cpu.stat directory and version (for the sweep and
 * batch: throttling of the workload); returns false when there is none. */
bool lab_quota_cgroup(const struct lab *lab, const char **dir, int *version);

/* The quota cgroup removed from under the workload (by another program):
 * made again, the workload moved back in under the same quota.  Returns
 * true when it had gone.  Cheap (one access(2)): call it every tick. */
bool lab_keep_quota(struct lab *lab);

/* The directory holding all of the lab's programs (threadlab-anchor,
 * threadlab-gemm, threadlab-burn), never found through $PATH: the one
 * $THREADLAB_LIBEXECDIR names when set; else the build tree this program
 * runs from; else the installed layout next to this program (bindir's
 * relative path to pkglibexecdir); else the configured pkglibexecdir (the
 * order and why: lab-find.c).  Writes the canonical path into out (cap
 * bytes) and, when how is not NULL, how it was found ("build tree",
 * "installed", "configured", "THREADLAB_LIBEXECDIR": static text).
 * Returns 0, -ENOENT when no directory holds them all, -ENAMETOOLONG. */
int lab_programs_dir(char *out, size_t cap, const char **how);
/* The pkglibexecdir configure chose (static text). */
const char *lab_programs_configured_dir(void);
/* The relative path from directory from to directory to, both absolute
 * ("/usr/bin", "/usr/libexec/threadlab": "../libexec/threadlab"; the same
 * directory: ".").  Pure.  Returns 0, -EINVAL (a relative argument),
 * -ENAMETOOLONG. */
int lab_find_relative(const char *from, const char *to, char *out, size_t cap);

/* The helper executable lab_start() found (for messages), or NULL. */
const char *lab_helper_path(const struct lab *lab);

#endif
