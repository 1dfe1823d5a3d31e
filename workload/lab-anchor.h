/* lab-anchor.h — the protocol between threadlab (lab.c) and the anchor
 * process (threadlab-anchor, lab-anchor.c), and the anchor's worker pool
 * (lab-workers.c).  Internal to workload/: the rest of threadlab uses lab.h.
 *
 * threadlab execs the anchor with /dev/null as stdin, stdout and stderr
 * (it reports through struct lab_shm) and these descriptors:
 *   --ctl-fd N    the control block memfd (control.h), passed on to helpers
 *                 only (close-on-exec for every other child)
 *   --lab-fd N    a memfd holding struct lab_shm (below)
 *   --bell-fd N   read end of a pipe: one byte = "reconcile now"; EOF =
 *                 threadlab is gone or stopping: kill everything and exit
 *   --reply-fd N  write end of a pipe: one byte after each reconcile
 *   --gemm PATH   the helper executable (threadlab-gemm)
 *   --burn PATH   the worker executable (threadlab-burn)
 *   --parent PID  threadlab's pid (PDEATHSIG check)
 *
 * threadlab writes want_slots, want_workers, want_loaders and (to restart
 * every helper against another OpenBLAS build or spin setting) helper_libdir,
 * helper_spin_off and a new helper_gen, increments req_seq
 * (release), then rings the bell.  The anchor reads req_seq (acquire), starts
 * helpers for slots [0, want_slots) that were never started, starts or kills
 * workers until nworkers == want_workers, publishes the pids and
 * spawn_errno, stores the req_seq it read into done_seq (release) and
 * answers on the reply pipe.  Several rings may be handled by one pass.
 * threadlab waits for done_seq >= its request, not for a reply byte alone:
 * a byte may answer an earlier request that it stopped waiting for.  The
 * anchor is the only writer of every field but want_*, req_seq and magic.
 *
 * A helper that dies without being asked to (anything but exit status 0
 * after settings.quit) is restarted at once in its slot, at most
 * LAB_RESTART_MAX times per slot within LAB_RESTART_WINDOW_S seconds; then
 * the slot is left dead (helper_exited 1, helper_gave_up 1).  helper_status
 * keeps the status of the last death, also after a restart.  Nothing is
 * restarted once the anchor is shutting down.
 *
 * Loaders (threadlab-burn --loader K) are kept at want_loaders like the
 * workers, but restarted like helpers when they die unasked, within the same
 * budget per loader; fewer wanted kills the newest.  The anchor maps the
 * control block only to hand a reaped loader's half-filled ring slots back
 * (FILLING -> EMPTY) before anything restarts.
 *
 * A new helper_gen restarts every started helper (SIGKILL, reaped, started
 * again at once: not counted as a restart) with LD_LIBRARY_PATH starting
 * with helper_libdir (one of Debian's openblas-pthread / openblas-openmp
 * directories; "" leaves the path alone) and, with helper_spin_off,
 * OPENBLAS_THREAD_TIMEOUT=1 and OMP_WAIT_POLICY=PASSIVE; gen_done then
 * holds the generation in effect. */
#ifndef THREADLAB_LAB_ANCHOR_H
#define THREADLAB_LAB_ANCHOR_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "control.h"
#include "lab.h"

#define LAB_SHM_MAGIC 0x544c4143u /* "TLAC" */

struct lab_shm {
	uint32_t magic;
	_Atomic uint32_t want_slots;		     /* helpers wanted for slots [0, want_slots) */
	_Atomic uint32_t want_workers;		     /* background workers wanted */
	_Atomic int32_t helper_pid[CTL_MAX_STREAMS]; /* 0 never started, > 0 started */
	_Atomic uint32_t helper_exited[CTL_MAX_STREAMS];   /* 1 once reaped */
	_Atomic int32_t helper_status[CTL_MAX_STREAMS];	   /* waitpid status of the last exit */
	_Atomic uint32_t helper_restarts[CTL_MAX_STREAMS]; /* restarts after unexpected deaths */
	_Atomic uint32_t helper_gave_up[CTL_MAX_STREAMS];  /* 1: died too often, left dead */
	_Atomic int32_t helper_restart_errno[CTL_MAX_STREAMS]; /* a restart's exec failure */
	_Atomic uint32_t nworkers;			       /* workers running */
	_Atomic int32_t worker_pid[LAB_MAX_WORKERS];	       /* [0, nworkers) */
	_Atomic int32_t spawn_errno; /* last exec failure (errno), 0 if none */
	_Atomic uint32_t want_loaders;			    /* input-pipeline loaders wanted */
	_Atomic int32_t loader_pid[CTL_MAX_LOADERS];	    /* 0: not running */
	_Atomic int32_t loader_status[CTL_MAX_LOADERS];	    /* waitpid status of the last death */
	_Atomic uint32_t loader_restarts[CTL_MAX_LOADERS];  /* restarts after unexpected deaths */
	_Atomic uint32_t loader_gave_up[CTL_MAX_LOADERS];   /* 1: died too often, left dead */
	_Atomic uint32_t helper_gen;			    /* threadlab: helpers' environment */
	_Atomic uint32_t gen_done;			    /* anchor: generation in effect */
	_Atomic uint32_t helper_spin_off;		    /* with helper_gen */
	char helper_libdir[256];			    /* with helper_gen */
	_Atomic uint64_t req_seq;    /* threadlab: number of its latest request */
	_Atomic uint64_t done_seq;   /* anchor: the latest request handled */
};

/* ---- lab-workers.c: the anchor's pool of threadlab-burn workers -------- */

#endif
