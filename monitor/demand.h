/* demand.h — how many threads want a CPU, against how many there are.
 *
 * The oversubscription factor is demand over the effective CPUs (docs/design.md,
 * "Words"); every face shows this one figure. */
#ifndef THREADLAB_DEMAND_H
#define THREADLAB_DEMAND_H

#include <stdbool.h>

/* runnable / effective CPUs; 0 when effective is not known (<= 0). */
double demand_factor(double runnable, double effective);

/* Whether a factor means more threads want a CPU than there are. */
bool demand_oversubscribed(double factor);

#endif
