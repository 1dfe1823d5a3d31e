/* collector-impl.h — the collector path (collector.h) given to a sampler;
 * for monitor/ only (a sampler is the collectors' type). */
#ifndef THREADLAB_COLLECTOR_IMPL_H
#define THREADLAB_COLLECTOR_IMPL_H

#include <stdbool.h>

#include "collector.h"
#include "sampler.h"

/* Puts a new sampler on the chosen path (nothing on /proc). */
void collector_attach(struct sampler *s, bool live);

#endif
