/* environment-impl.h — the environment record (environment.h) filled from
 * the machine, a budget and the lab's status: for monitor/ only (a face
 * reads the record a session or a sweep made). */
#ifndef THREADLAB_ENVIRONMENT_IMPL_H
#define THREADLAB_ENVIRONMENT_IMPL_H

#include "budget.h"
#include "environment.h"
#include "lab.h"
#include "sysroot.h"

/* Fills e: the machine from root (cpu model), the budget b, the lab's BLAS
 * from st (NULL outside the lab), this process's environment. */
void environment_fill(struct env_record *e, const struct sysroot *root, const struct budget *b,
		      const struct lab_status *st);

#endif
