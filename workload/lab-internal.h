/* lab-internal.h — struct lab, shared by lab.c (processes), lab-bell.c (the
 * anchor conversation) and lab-status.c (reading counters, the
 * single-thread rate).  Internal to workload/. */
#ifndef THREADLAB_LAB_INTERNAL_H
#define THREADLAB_LAB_INTERNAL_H

#include <limits.h>

#include "lab.h"
#include "lab-anchor.h"
#include "lab-quota.h"
#include "rate-cache.h"

struct lab {
	struct ctl_block *ctl;
	int ctl_fd;
	struct lab_shm *shm;
	int shm_fd;
	int bell; /* threadlab's end of the socketpair */
	pid_t anchor;
	struct lab_settings set;
	struct lab_quota quota;
	char quota_error[256];
	char gemm[PATH_MAX], burn[PATH_MAX], anchor_path[PATH_MAX];
	struct rate_cache rates;
	double memory_gbs; /* lab_status_memory_gbs(), 0 until measured */
	/* steady-state 1 x 1 refinement of the single-thread rate */
	uint64_t ss_epoch, ss_flops, ss_busy;
	/* anchor restarts (lab_recover), within the helpers' budget */
	unsigned anchor_restarts;
	double anchor_restart_t[LAB_RESTART_MAX];
	bool anchor_gave_up;
};

#endif
