/* burn-main.c — threadlab-burn: a background CPU-burning worker.
 *
 *   threadlab-burn [--name NAME] [--parent PID]
 *   threadlab-burn --loader K --ctl-fd N [--parent PID]
 *
 * Burns one CPU until killed or until its parent dies (PR_SET_PDEATHSIG, and
 * a getppid() check against --parent, default the parent at start).  NAME
 * (up to 15 bytes, e.g. tl-worker0) becomes the process name.
 * Exit status: 1 if the parent was already gone or the name could not be
 * set, 2 for a usage error; otherwise it does not exit by itself.
 * With --loader it is input-pipeline loader K instead (loader.c). */
#include "gemm.h"
#include "loader.h"
#include "burn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int number(const char *opt, const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "threadlab-burn: %s %s: expected a number from %ld to %ld\n", opt, s,
			lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	const char *name = NULL;
	long parent = 0, loader = -1, fd = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc, r = 0;
		if (strcmp(a, "--name") == 0 && has)
			name = argv[++i];
		else if (strcmp(a, "--parent") == 0 && has)
			r = number(a, argv[++i], 1, 1L << 30, &parent);
		else if (strcmp(a, "--loader") == 0 && has)
			r = number(a, argv[++i], 0, CTL_MAX_LOADERS - 1, &loader);
		else if (strcmp(a, "--ctl-fd") == 0 && has)
			r = number(a, argv[++i], 0, 1 << 20, &fd);
		else
			r = -1, fprintf(stderr, "usage: threadlab-burn [--name NAME] [--parent PID]\n"
						"       threadlab-burn --loader K --ctl-fd N "
						"[--parent PID]\n");
		if (r < 0)
			return 2;
	}
	if (loader >= 0 || fd >= 0) {
		if (loader < 0 || fd < 0) {
			fprintf(stderr, "threadlab-burn: --loader and --ctl-fd go together\n");
			return 2;
		}
		return loader_main((int)fd, (unsigned)loader, (pid_t)parent);
	}
	return burn_main(name, (pid_t)parent);
}
