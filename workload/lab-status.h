/* lab-status.h — reading the lab (lab-status.c): counters, readiness, and
 * the single-thread rate (GFLOP/s) and memory bandwidth (GB/s), measured
 * once and cached.  int returns are 0 or -errno. */
#ifndef THREADLAB_LAB_STATUS_H
#define THREADLAB_LAB_STATUS_H

#include "lab.h"

/* Waits up to timeout_ms until every wanted stream has applied the newest
 * settings and done at least one GEMM with them (or failed).  Returns 0,
 * -ETIMEDOUT, -EIO when a helper failed (its error in msg), or -ECHILD
 * when the anchor has ended (lab_recover() then says how and restarts
 * it). */
int lab_status_wait_ready(struct lab *lab, int timeout_ms, char *msg, size_t msglen);
/* Fills st from the control block and the lab's own state.  Also feeds the
 * single-thread rate cache when the lab runs 1 stream x 1 thread in steady
 * state.  Returns 0, or -ESRCH when the anchor has gone. */
int lab_status_read(struct lab *lab, struct lab_status *st);
/* The single-thread rate for size n and precision p in GFLOP/s, the first
 * time it is asked for that size/precision measured, then cached.
 *
 * Method: the workload is switched to 1 stream x 1 thread (no workers, no
 * quota) and, once applied, the rate FLOPs / time inside GEMM calls is
 * taken over short windows of at least 3 calls (or 1 call of 0.2 s and
 * more) for about 0.6 s, and the best window is kept: noise from other
 * processes only lowers a rate, so the maximum is the machine's.  Large
 * sizes wait for at least one window (lab_settings_ready_timeout_ms bounds it).
 * The settings before are restored.  While the lab later runs 1 x 1 in
 * steady state (no workers, no quota), each second of GEMM time refines
 * the cached value: it keeps the maximum.
 *
 * Returns a value <= 0 when it cannot be measured (helper failed). */
double lab_status_single_rate(struct lab *lab, int n, enum ctl_precision p);
/* The cached rate only, never measuring; <= 0 when unknown. */
double lab_status_single_rate_cached(const struct lab *lab, int n, enum ctl_precision p);
/* The rate-cache size key of the kernel in s: its n for GEMM, LAB_TRIAD_KEY
 * for the triad (lab_status_single_rate(lab, LAB_TRIAD_KEY, p) measures the triad). */
#define LAB_TRIAD_KEY 0
int lab_status_rate_key(const struct lab_settings *s);
/* The machine's memory bandwidth, GB/s (10^9 bytes a second): the triad in
 * the precision held on one stream with one thread per online CPU (no workers, quota
 * lifted), the best window over about a second, as lab_status_single_rate does;
 * bytes are 3 elements an index (the STREAM count).  Measured the first
 * time it is asked for, then cached for the lab's life; the settings
 * before are restored.  <= 0 when it cannot be measured. */
double lab_status_memory_gbs(struct lab *lab);
/* The cached bandwidth only, never measuring; <= 0 when unknown. */
double lab_status_memory_gbs_cached(const struct lab *lab);

#endif
