/* burn-main.c — threadlab-burn: a background CPU-burning worker.
 *
 *   threadlab-burn [--name NAME] [--parent PID]
 *
 * Burns one CPU until killed or until its parent dies (PR_SET_PDEATHSIG, and
 * a getppid() check against --parent, default the parent at start).  NAME
 * (up to 15 bytes, e.g. tl-worker0) becomes the process name.
 * Exit status: 1 if the parent was already gone or the name could not be
 * set, 2 for a usage error; otherwise it does not exit by itself. */
#include "gemm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *name = NULL;
	long parent = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) {
			name = argv[++i];
		} else if (strcmp(argv[i], "--parent") == 0 && i + 1 < argc) {
			char *end;
			parent = strtol(argv[++i], &end, 10);
			if (*end || parent <= 0) {
				fprintf(stderr, "threadlab-burn: --parent %s: not a process id\n",
					argv[i]);
				return 2;
			}
		} else {
			fprintf(stderr, "usage: threadlab-burn [--name NAME] [--parent PID]\n");
			return 2;
		}
	}
	return burn_main(name, (pid_t)parent);
}
