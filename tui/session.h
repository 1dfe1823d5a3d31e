/* session.h — one monitoring session: a target, its sampler, and the lab.
 *
 * Batch mode and the dashboard share this: session_start() sets up the
 * target (the built-in lab workload, an attached PID, or a launched
 * command), session_tick() takes one sample and computes the rates against
 * the previous one, session_stop() undoes everything (workload, workers,
 * quota cgroup, launched command).  The struct's fields are read directly by
 * the outputs.  Besides the session functions, only the dashboard writes
 * here, and only three things: want (then session_apply()), view
 * (labview_reset() on the r key), and it may lab_read() between ticks into
 * its own copy to see a change applied sooner. */
#ifndef THREADLAB_SESSION_H
#define THREADLAB_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "lab.h"
#include "launch.h"
#include "labview.h"
#include "options.h"
#include "report.h"
#include "snapshot.h"

enum session_kind {
	SESSION_LAB,	/* built-in workload (no -p, no -- CMD) */
	SESSION_ATTACH, /* -p PID */
	SESSION_LAUNCH, /* -- CMD */
};

struct session {
	enum session_kind kind;
	const struct options *opt;
	struct sysroot root;
	pid_t target; /* the pid the sampler follows */
	bool tree;    /* sampler follows descendants too */
	struct sampler *sampler;

	struct snapshot prev, cur;   /* cur is the newest sample */
	bool have_rates;	     /* prev and cur both valid: rates is meaningful */
	struct snapshot_rates rates; /* prev -> cur */
	bool target_gone;	     /* the target exited (attach/launch) */

	struct launch child; /* launch mode: the command */

	/* lab mode */
	struct lab *lab;
	struct lab_settings want;     /* settings last asked for */
	struct lab_status lab_status; /* read at every tick */
	struct labview view;	      /* smoothed and steady-state throughput */
	struct workload_report work;  /* what outputs show of the workload */
	char message[256];	      /* last short message for the user ("" none) */
};

/* Set by the signal handlers session_signals_install() installs: the
 * signal that asked us to stop (SIGINT, SIGTERM, SIGHUP), 0 otherwise. */
extern volatile sig_atomic_t session_stop_signal;

/* SIGINT/SIGTERM/SIGHUP set session_stop_signal (a second one kills the
 * workload at once and exits); fatal signals (SIGSEGV, SIGBUS, SIGFPE,
 * SIGABRT) stop the workload, call on_fatal (may be NULL; must be
 * async-signal-safe, e.g. restore the terminal) and re-raise. */
void session_signals_install(void (*on_fatal)(void));

/* Raises the soft limit on open files (the thread sampler holds three
 * descriptors per thread); a launched command gets the original back. */
void session_raise_nofile(void);

/* Starts the target described by opt.  Returns EXIT_OK, or an exit status
 * (options.h) with a one-line message in err. */
int session_start(struct session *s, const struct options *opt, char *err, size_t errlen);

/* One tick: reaps a launched command that exited, samples, computes rates
 * and (lab) reads the workload.  Returns 0, or -ESRCH once the target has
 * gone (s->target_gone; cur keeps the last budget). */
int session_tick(struct session *s);

/* Lab only: applies s->want (after a key or a flag changed it).  Returns 0
 * or -errno; s->message says what happened in a few words either way. */
int session_apply(struct session *s);

/* Stops the workload, the launched command (SIGTERM, then SIGKILL after
 * 500 ms) and frees everything.  Safe to call twice. */
void session_stop(struct session *s);

/* MemAvailable of the machine, bytes; 0 when unknown (the lab's size
 * checks). */
unsigned long long session_mem_available(const struct session *s);

/* Launch mode: a short description of how the command ended
 * ("exited with status 3", "killed by signal 9"), or "" while running. */
const char *session_child_status(const struct session *s, char *buf, size_t cap);

#endif
