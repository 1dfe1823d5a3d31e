/* model.h — the model's plain types, for the faces (tui/, output/).
 *
 * One tick gives a snapshot (collectors' snapshot.h: budget, cgroup,
 * pressure, threads, CPUs), the rates against the previous one, and in the
 * lab the workload's status (workload's lab.h) with the view the monitor
 * makes of it (labview.h: GFLOP/s, steady state, the scaling chart).  The
 * faces include this header, never a collectors/ or workload/ header
 * directly, and call monitor/ functions only. */
#ifndef THREADLAB_MODEL_H
#define THREADLAB_MODEL_H

#include "budget.h"
#include "cgroup.h"
#include "lab.h"
#include "labview.h"
#include "snapshot.h"

#endif
