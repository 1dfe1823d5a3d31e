/* options-diag.h — the command line of issue 16: whose processes a
 * verdict covers (--no-tree; -- CMD follows its tree by default) and how
 * strict --diagnose is (--strict: a borderline result is a problem).
 * options.c hands these over, as it does options-tune.h's. */
#ifndef THREADLAB_OPTIONS_DIAG_H
#define THREADLAB_OPTIONS_DIAG_H

#include <stdio.h>

#include "options.h"

enum {
	OPT_DIAG_FIRST = 600,
	OPT_NO_TREE = OPT_DIAG_FIRST,
	OPT_STRICT,
	OPT_DIAG_END,
};

/* getopt_long entries, for options.c's table. */
#define OPTIONS_DIAG_LONG                                                                          \
	{"no-tree", no_argument, NULL, OPT_NO_TREE},                                               \
	{                                                                                          \
		"strict", no_argument, NULL, OPT_STRICT                                            \
	}

/* One option c (OPT_DIAG_FIRST <= c < OPT_DIAG_END).  EXIT_OK. */
int options_diag_one(struct options *o, int c);

/* The checks of these options against the mode and target.  EXIT_OK, or
 * EXIT_USAGE with a one-line message. */
int options_diag_check(const struct options *o, char *err, size_t errlen);

/* Their share of the session's configuration: the tree a launched command
 * brings, the hysteresis of every face but --diagnose. */
void options_diag_session(const struct options *o, struct session_config *c);

/* The --help lines. */
void options_diag_usage(FILE *f);

#endif
