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

/* Starts the server o asks for and says on stderr where it listens.
 * Returns EXIT_OK, or EXIT_USAGE after saying why on stderr (a bad
 * address, a port in use, a file that cannot be read); e then serves
 * nothing, and export_stop() is not needed. */
int export_start(struct export *e, const struct options *o);

/* Publishes one session's newest sample. */
void export_session(struct export *e, const struct session *s);

/* Publishes targets[0..n) (--match). */
void export_targets(struct export *e, const struct metrics_target *t, size_t n);

/* Publishes the machine's ranking (--all). */
void export_ranking(struct export *e, const struct ranking *k);

void export_stop(struct export *e);

#endif
