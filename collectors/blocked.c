/* blocked.c — what a sleeping thread waits for (blocked.h). */
#include "config.h"

#include "blocked.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int blocked_syscall_parse(const char *buf, long *nr, unsigned long *arg0)
{
	*nr = -1;
	*arg0 = 0;
	if (strncmp(buf, "running", 7) == 0)
		return 1;
	char *e;
	errno = 0;
	long n = strtol(buf, &e, 10);
	if (e == buf || errno)
		return -EINVAL;
	*nr = n;
	if (*e == ' ')
		*arg0 = strtoul(e + 1, NULL, 16);
	return 0;
}

bool blocked_reads_fd(long nr)
{
	switch (nr) {
#ifdef SYS_read
	case SYS_read:
#endif
#ifdef SYS_readv
	case SYS_readv:
#endif
#ifdef SYS_recvfrom
	case SYS_recvfrom:
#endif
#ifdef SYS_recvmsg
	case SYS_recvmsg:
#endif
		return true;
	default:
		return false;
	}
}

static bool blocked_polls(long nr)
{
	switch (nr) {
#ifdef SYS_poll
	case SYS_poll:
#endif
#ifdef SYS_ppoll
	case SYS_ppoll:
#endif
#ifdef SYS_select
	case SYS_select:
#endif
#ifdef SYS_pselect6
	case SYS_pselect6:
#endif
#ifdef SYS_epoll_wait
	case SYS_epoll_wait:
#endif
#ifdef SYS_epoll_pwait
	case SYS_epoll_pwait:
#endif
#ifdef SYS_epoll_pwait2
	case SYS_epoll_pwait2:
#endif
#ifdef SYS_recvmmsg
	case SYS_recvmmsg:
#endif
#ifdef SYS_accept
	case SYS_accept:
#endif
#ifdef SYS_accept4
	case SYS_accept4:
#endif
		return true;
	default:
		return false;
	}
}

enum blocked_kind blocked_of_syscall(long nr, const char *fdlink)
{
	if (nr < 0)
		return BLOCKED_UNKNOWN;
#ifdef SYS_futex
	if (nr == SYS_futex)
		return BLOCKED_FUTEX;
#endif
#ifdef SYS_futex_waitv
	if (nr == SYS_futex_waitv)
		return BLOCKED_FUTEX;
#endif
	if (blocked_polls(nr))
		return BLOCKED_INPUT;
	if (blocked_reads_fd(nr)) {
		/* an eventfd read is a wake-up call, not input */
		if (fdlink && strstr(fdlink, "eventfd"))
			return BLOCKED_FUTEX;
		return BLOCKED_INPUT;
	}
	return BLOCKED_SLEEP;
}

enum blocked_kind blocked_of_wchan(const char *w)
{
	if (!w[0] || strcmp(w, "0") == 0)
		return BLOCKED_UNKNOWN;
	if (strstr(w, "futex"))
		return BLOCKED_FUTEX;
	static const char *const input[] = {"pipe_read",
					    "pipe_wait",
					    "unix_stream_read",
					    "unix_dgram_recv",
					    "sk_wait_data",
					    "tcp_recv",
					    "skb_wait_for_more",
					    "poll",
					    "select",
					    "ep_poll",
					    "wait_woken",
					    "inet_csk_accept",
					    NULL};
	for (size_t i = 0; input[i]; i++)
		if (strstr(w, input[i]))
			return BLOCKED_INPUT;
	return BLOCKED_SLEEP;
}

enum blocked_kind blocked_read(const struct sysroot *r, pid_t pid, pid_t tid, char state)
{
	if (state == 'D')
		return BLOCKED_IO;
	if (state == 'Z' || state == 'X')
		return BLOCKED_UNKNOWN;
	char rel[80], buf[256];
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/syscall", (int)pid, (int)tid);
	long nr;
	unsigned long arg0;
	if (sysroot_read(r, rel, buf, sizeof(buf)) > 0 &&
	    blocked_syscall_parse(buf, &nr, &arg0) == 0) {
		char link[128] = "";
		if (blocked_reads_fd(nr) && arg0 < 1u << 20) {
			snprintf(rel, sizeof(rel), "proc/%d/fd/%lu", (int)pid, arg0);
			ssize_t n = readlinkat(r->fd, rel, link, sizeof(link) - 1);
			link[n > 0 ? n : 0] = '\0';
		}
		return blocked_of_syscall(nr, link);
	}
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/wchan", (int)pid, (int)tid);
	if (sysroot_read(r, rel, buf, sizeof(buf)) > 0)
		return blocked_of_wchan(buf);
	return BLOCKED_UNKNOWN;
}
