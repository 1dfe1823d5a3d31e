/* spawn.h — start a program and know at once whether exec worked.
 *
 * fork, then in the child: the signal mask cleared, SIGPIPE back to its
 * default, the caller's setup hook, exec.  A close-on-exec pipe carries
 * exec's errno back, so the caller learns of a missing or unrunnable
 * program from the call itself instead of from a child that exits 127.
 * Used by the lab's anchor (helpers, workers) and by launch.c (-- CMD). */
#ifndef THREADLAB_SPAWN_H
#define THREADLAB_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

struct spawn_opts {
	int keep_fd; /* a descriptor the child keeps across exec (its
		      * close-on-exec flag is cleared); -1 for none */
	bool path;   /* look the program up in PATH (execvp), else execv */
	char *const *envp; /* the child's environment; NULL: this process's (not with path) */
	/* Runs in the child just before exec (async-signal-safe calls only);
	 * returning non-zero makes the child exit 127 without exec. */
	int (*setup)(void *arg);
	void *arg;
};

/* Starts argv (argv[0] is the program unless path is given).  Returns the
 * child's pid, or -errno: exec's error (the child is reaped), or fork's or
 * pipe's.  o may be NULL: keep nothing, execv. */
pid_t spawn_start(const char *path, char *const argv[], const struct spawn_opts *o);

#endif
