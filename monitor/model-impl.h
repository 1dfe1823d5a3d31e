/* model-impl.h — the model's types (model.h) filled from the collectors':
 * the one place each conversion is made, for monitor/ only (a face
 * never includes this header: it names collectors/ types). */
#ifndef THREADLAB_MODEL_IMPL_H
#define THREADLAB_MODEL_IMPL_H

#include <stdbool.h>

#include "budget.h"
#include "cgroup.h"
#include "latency.h"
#include "model.h"
#include "snapshot.h"

/* What a sample was made from: the histograms its rows' lat_ref name. */
struct model_source {
	const struct snapshot_rates *rates; /* NULL: none (no interval yet) */
};

enum model_term model_term_of(enum budget_term t);
void model_budget_of(const struct budget *b, struct model_budget *out);
void model_latency_of(const struct lat_summary *l, struct model_latency *out);
/* p50, p99, max and mean of h (latency_summarize), as the model has them. */
void model_summarize(const struct lat_hist *h, struct model_latency *out);
void model_psi_of(const struct psi *p, struct model_psi *out);
enum model_psi_why model_psi_why_of(enum psi_why w);
enum psi_why model_psi_why_to(enum model_psi_why w);

/* Fills m from the newest sample cur and, when have_rates, the rates r
 * from the sample before to cur (r's threads are cur's, in its order; a
 * replayed sample has no threads, only rates).  m's rows name r's
 * histograms: r must outlive m's use until the next fill. */
void model_sample_fill(struct model_sample *m, const struct snapshot *cur,
		       const struct snapshot_rates *r, bool have_rates);

/* The rates m was filled from, or NULL. */
const struct snapshot_rates *model_rates(const struct model_sample *m);

#endif
