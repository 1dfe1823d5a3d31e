/* burn.c — the background CPU-burning worker, and dying with the parent.
 *
 * A worker stands for a DataLoader process or a noisy neighbour: one thread
 * that never sleeps.  It is a separate tiny program (threadlab-burn) so that
 * it carries no OpenBLAS pool; `threadlab-gemm --burn` runs the same loop. */
#define _GNU_SOURCE
#include "gemm.h"
#include "burn.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int burn_die_with_parent(pid_t expected)
{
	if (expected == 0)
		expected = getppid();
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		return -errno;
	/* The parent may have died before the prctl: then nobody sends it. */
	if (getppid() != expected)
		return -ESRCH;
	return 0;
}

int burn_main(const char *name, pid_t parent)
{
	if (name && prctl(PR_SET_NAME, name, 0, 0, 0) < 0) {
		fprintf(stderr, "threadlab-burn: cannot set the name %s: %s\n", name,
			strerror(errno));
		return 1;
	}
	if (parent == 0)
		parent = getppid();
	if (burn_die_with_parent(parent) < 0)
		return 1;
	volatile uint64_t x = 1;
	for (;;) {
		for (int i = 0; i < 10000000; i++)
			x = x * 6364136223846793005ull + 1;
		/* Belt and braces next to PDEATHSIG: stop once reparented. */
		if (getppid() != parent)
			return 0;
	}
}
