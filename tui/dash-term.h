/* dash-term.h — the dashboard's terminal (dash-term.c): ncurses opened on
 * stdin and stdout, restored on every path (a fatal signal included), and
 * the wait for input that a stop signal ends.  Shared by the dashboard's
 * loop (dash.c) and the machine view's (dash-machine.c). */
#ifndef THREADLAB_DASH_TERM_H
#define THREADLAB_DASH_TERM_H

#include <curses.h>
#include <poll.h>
#include <stdbool.h>

#include "dash.h"

/* Opens the terminal for d: raw keys, no echo, no cursor, colours unless
 * c->no_color or NO_COLOR (d->color says).  Installs the stop handlers with
 * a fatal hook that restores the terminal.  NULL, with a message on stderr,
 * when the terminal cannot be started. */
SCREEN *dash_term_open(struct dash *d, const struct dash_config *c);
/* Gives the terminal back as it was. */
void dash_term_close(SCREEN *scr);

/* Waits for input for at most timeout ms (-1: no limit) unless a stop
 * signal came first.  Returns poll's result (-1 with EINTR on a signal). */
int dash_term_wait(struct pollfd *pfd, nfds_t n, int timeout);

/* Whether poll's revents for the terminal say it went away.  A hung-up
 * terminal reads POLLIN too (read gives end of file), so POLLHUP alone
 * tells it: without this the loop read nothing forever whenever no SIGHUP
 * came (the session's leader ignoring it and staying, as strace does). */
static inline bool dash_term_gone(short revents)
{
	return (revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

#endif
