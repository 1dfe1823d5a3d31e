/* dash-term.c — the dashboard's terminal (dash-term.h).
 *
 * Signals: SIGINT/SIGTERM/SIGHUP set stop_signal and interrupt the wait;
 * SIGWINCH interrupts it too and ncurses turns it into KEY_RESIZE.  They
 * are blocked from the stop check to the wait and unblocked by ppoll()
 * itself, so one arriving in between still ends the wait at once (blocked
 * only there: children never inherit the mask).  A fatal signal calls
 * dash_fatal(), which writes the terminal reset sequences (computed at
 * start) and restores the saved tty modes: both async-signal-safe. */
#include "config.h"

#include "dash-term.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "dash-paint.h"
#include "stop.h"

static char dash_reset_seq[256]; /* rmcup, cnorm, sgr0, rmkx: written on a fatal signal */
static size_t dash_reset_len;
static struct termios dash_saved_tty;
static volatile sig_atomic_t dash_have_tty;

static void dash_fatal(void)
{
	ssize_t r;

	if (dash_reset_len)
		r = write(STDOUT_FILENO, dash_reset_seq, dash_reset_len);
	if (dash_have_tty)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &dash_saved_tty);
	r = write(STDERR_FILENO, "\r\n", 2);
	(void)r;
}

/* Precomputes what dash_fatal() writes. */
static void dash_reset_prepare(void)
{
	static const char *const caps[] = {"sgr0", "cnorm", "rmkx", "rmcup"};

	dash_reset_len = 0;
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		char *v = tigetstr(caps[i]);
		if (!v || v == (char *)-1)
			continue;
		size_t n = strlen(v);
		if (dash_reset_len + n >= sizeof(dash_reset_seq))
			break;
		memcpy(dash_reset_seq + dash_reset_len, v, n);
		dash_reset_len += n;
	}
}

SCREEN *dash_term_open(struct dash *d, const struct dash_config *c)
{
	dash_have_tty = tcgetattr(STDIN_FILENO, &dash_saved_tty) == 0;
	/* Before newterm: ncurses then leaves our SIGINT/SIGTERM handlers alone. */
	stop_install(dash_fatal);
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		fprintf(stderr, "threadlab: cannot start the terminal (TERM=%s); use --batch\n",
			getenv("TERM") ? getenv("TERM") : "");
		return NULL;
	}
	set_term(scr);
	dash_reset_prepare();
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	const char *nc = getenv("NO_COLOR");
	if (!(c && c->no_color) && !(nc && nc[0]) && has_colors()) {
		start_color();
		use_default_colors();
		dash_paint_colors_init();
		d->color = true;
	}
	return scr;
}

void dash_term_close(SCREEN *scr)
{
	endwin();
	delscreen(scr);
	dash_reset_len = 0; /* the terminal is back: nothing to reset any more */
}

int dash_term_wait(struct pollfd *pfd, nfds_t n, int timeout)
{
	sigset_t block, old;
	struct timespec ts = {timeout / 1000, (long)(timeout % 1000) * 1000000L};

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGWINCH);
	sigprocmask(SIG_BLOCK, &block, &old);
	int r = -1;
	errno = EINTR;
	if (!stop_signal)
		r = ppoll(pfd, n, timeout < 0 ? NULL : &ts, &old);
	int e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return r;
}
