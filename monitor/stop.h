/* stop.h — how threadlab is asked to stop, and what a crash cleans up.
 *
 * Signals only set a flag; the loops that own a session notice it and stop
 * it, so cleanup runs in normal code.  A second signal, or a fatal one,
 * takes the emergency path from the handler itself: kill the workload's
 * process group, remove its cgroup, stop the launched command. */
#ifndef THREADLAB_STOP_H
#define THREADLAB_STOP_H

#include <signal.h>

/* The signal that asked us to stop (SIGINT, SIGTERM, SIGHUP, SIGQUIT), 0
 * otherwise.
 * Loops poll it; tests may set it. */
extern volatile sig_atomic_t stop_signal;

/* SIGINT/SIGTERM/SIGHUP/SIGQUIT set stop_signal (a second one kills the workload
 * at once and exits 128 + signal); fatal signals (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGABRT) stop the workload, call on_fatal (may be NULL; must be
 * async-signal-safe, e.g. restore the terminal) and re-raise.  SIGPIPE is
 * ignored: a closed output is a write error, handled in normal code.
 * Installing again replaces on_fatal. */
void stop_install(void (*on_fatal)(void));

/* CLOCK_MONOTONIC in seconds: the clock every loop keeps its time by. */
double stop_now(void);

/* Sleeps until stop_now() reaches t, or a stop signal arrives. */
void stop_sleep_until(double t);

#endif
