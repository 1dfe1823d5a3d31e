/* options-diag.h — the command line of issue 16: whose processes a
 * verdict covers (--no-tree; -- CMD follows its tree by default) and how
 * strict --diagnose is (--strict: a borderline result is a problem).
 * options.c hands these over, as it does options-tune.h's. */
#ifndef THREADLAB_OPTIONS_DIAG_H
#define THREADLAB_OPTIONS_DIAG_H

#include <stdio.h>

#include "options.h"

/* One option c (OPT_DIAG_FIRST <= c < OPT_DIAG_END).  EXIT_OK. */
int options_diag_one(struct options *o, int c);

/* The checks of these options against the mode and target.  EXIT_OK, or
 * EXIT_USAGE with a one-line message. */
int options_diag_check(const struct options *o, char *err, size_t errlen);

/* Their share of the session's configuration: the tree a launched command
 * brings, the hysteresis of every face but --diagnose. */
void options_diag_session(const struct options *o, struct session_config *c);

#endif
