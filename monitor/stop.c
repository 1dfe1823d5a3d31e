/* stop.c — signal handlers: a flag for the loops, an emergency path. */
#include "config.h"

#include "stop.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "lab.h"
#include "launch.h"

volatile sig_atomic_t stop_signal;
static void (*stop_on_fatal)(void);

static void stop_on_signal(int sig)
{
	if (stop_signal) {
		/* Second request: the user means it.  Nothing left behind still. */
		lab_emergency_stop();
		launch_emergency_stop(SIGKILL);
		if (stop_on_fatal)
			stop_on_fatal();
		_exit(128 + sig);
	}
	stop_signal = sig;
}

static void stop_on_crash(int sig)
{
	lab_emergency_stop();
	launch_emergency_stop(SIGTERM);
	if (stop_on_fatal)
		stop_on_fatal();
	signal(sig, SIG_DFL);
	raise(sig);
}

void stop_install(void (*on_fatal)(void))
{
	struct sigaction sa;
	stop_on_fatal = on_fatal;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = stop_on_signal; /* no SA_RESTART: waits return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a quit (Ctrl-\ in a shell, kill -QUIT) ends as cleanly as the rest:
	 * its default, a core dump, would leave the lab's cgroup behind */
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = stop_on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

double stop_now(void)
{
	return clock_seconds(CLOCK_MONOTONIC);
}

void stop_sleep_until(double t)
{
	while (!stop_signal) {
		double left = t - stop_now();
		if (left <= 0)
			return;
		struct timespec ts = {(time_t)left, (long)((left - floor(left)) * 1e9)};
		if (nanosleep(&ts, NULL) == 0)
			return;
	}
}
