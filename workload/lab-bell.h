/* lab-bell.h — threadlab's side of the conversation with the lab's anchor
 * (lab-bell.c), for lab.c; internal to workload/. */
#ifndef THREADLAB_LAB_BELL_H
#define THREADLAB_LAB_BELL_H

#include <stddef.h>
#include <sys/types.h>

#include "lab-internal.h"

/* Starts the anchor program (lab->anchor_path) in a process group of its
 * own, with the control block, the lab block and peer (the anchor's end of
 * the bell) as descriptors 3, 4 and 5 and /dev/null as 0 to 2.  Returns its
 * pid, or -errno. */
pid_t lab_bell_spawn(struct lab *lab, int peer);
/* Rings the bell with a new request number and waits (at most 5 s) until
 * the anchor has handled it.  Returns 0; -EPIPE when the anchor has gone,
 * -ETIMEDOUT when it did not answer, -errno of a process it could not
 * start; msg says which. */
int lab_bell_ring(struct lab *lab, char *msg, size_t msglen);
/* Clears what the dead anchor's children left in the shared blocks (their
 * pids, slots, the request counters) so that a new anchor starts afresh;
 * the counters that carry on stay. */
void lab_bell_forget(struct lab *lab);

#endif
