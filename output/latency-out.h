/* latency-out.h — run-queue latency in the formats: a JSON object, text
 * cells.
 *
 * JSON: {"p50_ms", "p99_ms", "max_ms", "mean_ms", "events"} (the
 * quantiles null when there was no wait), and for a thread the interval's
 * histogram as "hist": [[low_ns, count], ...] over its non-empty buckets,
 * so that a replay sums threads into processes as the live session does.
 * Without the BPF collector the key's value is null. */
#ifndef THREADLAB_LATENCY_OUT_H
#define THREADLAB_LATENCY_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include "json-out.h"
#include "model.h"
#include "runqlat.h"

/* key: {…} for l (and h's buckets when h is not NULL), or null when !on. */
void latency_out_json(struct json_out *j, const char *key, bool on, const struct model_latency *l,
		      const struct runqlat_hist *h);

/* s in ms: "0.04" below 1 ms, "12.3" below 100 ms, "1234" above; "-"
 * without a wait; right-aligned in width columns. */
void latency_out_ms(char *out, size_t cap, int width, const struct model_latency *l, double s);

#endif
