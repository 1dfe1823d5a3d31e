/* diagnose-all.h — threadlab --diagnose --all: the machine's verdict and
 * its ranked offenders over one window (diagnose-all.c). */
#ifndef THREADLAB_DIAGNOSE_ALL_H
#define THREADLAB_DIAGNOSE_ALL_H

#include "diagnose.h"

/* --diagnose --all (tui/diagnose-all.c): the machine over --seconds
 * (default 5), its verdict and its offenders and starved processes
 * (output/ranking-out.h), as text or JSON on stdout.  Returns 0 when the
 * machine is not oversubscribed and no process offends or starves, 1 when
 * one does, 2 on error (an unreadable proc/, a signal before the end). */
int diagnose_all_run(const struct options *o);

#endif
