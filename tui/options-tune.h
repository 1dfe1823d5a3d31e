/* options-tune.h — the command line of issue 11: the job's progress
 * (--progress, --progress-rate, --progress-file), the experiment log
 * (--log) and the sweep of a real command (--env, --grid, --warmup,
 * --repeat).  options.c hands these options over and asks for the checks
 * (their entries are in options-table.c). */
#ifndef THREADLAB_OPTIONS_TUNE_H
#define THREADLAB_OPTIONS_TUNE_H

#include <stdio.h>

#include "options.h"
#include "sweep-cmd.h"

/* A POSIX extended regular expression that compiles: EXIT_OK, or
 * EXIT_USAGE with "OPT 'RE': why". */
int options_tune_regex_check(const char *opt, const char *re, char *err, size_t errlen);

/* Defaults of these options in o. */
void options_tune_defaults(struct options *o);

/* One option c (OPT_TUNE_FIRST <= c < OPT_TUNE_END).  EXIT_OK, or
 * EXIT_USAGE with a one-line message. */
int options_tune_one(struct options *o, int c, const char *arg, char *err, size_t errlen);

/* The checks of these options against the mode and target.  EXIT_OK, or
 * EXIT_USAGE with a one-line message. */
int options_tune_check(const struct options *o, char *err, size_t errlen);

/* Their share of the session's configuration. */
void options_tune_session(const struct options *o, struct session_config *c);

/* The command sweep o asks for (o checked). */
void options_tune_sweep(const struct options *o, struct sweep_cmd_opts *so);

#endif
