/* collector-impl.h — the collector path (collector.h) given to a sampler;
 * for monitor/ only (a sampler is the collectors' type). */
#ifndef THREADLAB_COLLECTOR_IMPL_H
#define THREADLAB_COLLECTOR_IMPL_H

#include <stdbool.h>

#include "collector.h"
#include "sampler.h"

/* Puts a new sampler on the chosen path (nothing on /proc). */
void collector_attach(struct sampler *s, bool live);

struct bpf_threads;
/* A reader of every thread of the machine through the loaded programs,
 * tracing none (bpf_threads_new_machine), owned by the caller; NULL on the
 * /proc path or when live is false (a fixture tree). */
struct bpf_threads *collector_machine_reader(bool live);

#endif
