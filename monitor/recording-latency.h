/* recording-latency.h — a recorded "latency" object read back, internal
 * to monitor/ (recording-parse.c, recording-diag.c call it).
 *
 * The object is latency-out.h's: quantiles in ms (null without a wait),
 * the count of waits, and for a thread its histogram as [low_ns, count]
 * pairs, so that a replay sums threads into processes as a live session
 * does.  Absent or null: not traced (the recording was made on /proc). */
#ifndef THREADLAB_RECORDING_LATENCY_H
#define THREADLAB_RECORDING_LATENCY_H

#include <stdbool.h>

#include "model-impl.h"
#include "recording-json.h"

/* o's member "latency" into out.  With r, a histogram goes into a new
 * entry of r's pool and *lat_ref names it (1-based; 0: none).  Returns
 * whether the member was an object (latency was traced).  A wrong type
 * fails p. */
bool recording_latency_parse(struct recording_json *p, json_object *o, struct lat_summary *out,
			     struct snapshot_rates *r, uint32_t *lat_ref);

#endif
