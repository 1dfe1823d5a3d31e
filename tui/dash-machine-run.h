/* dash-machine-run.h — the machine view's keys and threadlab --all on the
 * terminal (dash-machine-run.c).  Key actions return DASH_KEY_* flags
 * (dash-keys-impl.h). */
#ifndef THREADLAB_DASH_MACHINE_RUN_H
#define THREADLAB_DASH_MACHINE_RUN_H

#include "dash-keys-impl.h"
#include "dash-machine.h"

/* The machine view's keys (dash-machine.c): A shows it (or goes back),
 * its sort column (arg +1 / -1), cursor (arg rows), page (arg pages),
 * first / last row (arg -1 / +1), g groups by cgroup, K shows kernel
 * threads, Enter attaches. */
int dash_machine_run_key(struct dash *d, struct settings *w, const struct dash_key_ctx *c, int arg);
int dash_machine_run_key_sort(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			      int arg);
int dash_machine_run_key_move(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			      int arg);
int dash_machine_run_key_page(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			      int arg);
int dash_machine_run_key_end(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			     int arg);
int dash_machine_run_key_group(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			       int arg);
int dash_machine_run_key_kernel(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
				int arg);
int dash_machine_run_key_enter(struct dash *d, struct settings *w, const struct dash_key_ctx *c,
			       int arg);
/* threadlab --all on the terminal: the view, and the attach screens
 * Enter opens from it, until q, F10 or a stop signal.  An exit status. */
int dash_machine_run_main(const struct options *o);

#endif
