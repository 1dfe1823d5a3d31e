/* export.h — the exporter beside a mode: --serve started from the command
 * line, and each sample of the mode's sessions published to it.
 *
 * Every face that samples (the dashboard, --batch, --headless) calls
 * export_start() before its first sample and export_publish() after each
 * one; with no --serve both do nothing. */
#ifndef THREADLAB_EXPORT_H
#define THREADLAB_EXPORT_H

#include <stddef.h>

#include "metrics.h"
#include "options.h"
#include "serve.h"

struct export
{
	struct serve *srv; /* NULL: no --serve */
	struct metrics_opts mo;
};

/* Starts the server o asks for, before the mode's targets: a bad address,
 * a port in use or a file that cannot be read ends the run before a
 * command is started or a recording opened.  Returns EXIT_OK, or
 * EXIT_USAGE after saying why on stderr; e then serves nothing, and
 * export_stop() is not needed. */
int export_start(struct export *e, const struct options *o);

/* Says on stderr where e listens ("threadlab: serving URL"), once the
 * mode's targets are found: a target that is not there ends the run
 * before the line says it serves.  Nothing without --serve. */
void export_say(const struct export *e, const struct options *o);

/* Publishes one session's newest sample. */
void export_session(struct export *e, const struct session *s);

/* Publishes targets[0..n) (--match). */
void export_targets(struct export *e, const struct metrics_target *t, size_t n);

/* Publishes the machine's ranking (--all). */
void export_ranking(struct export *e, const struct ranking *k);

void export_stop(struct export *e);

#endif
