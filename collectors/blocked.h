/* blocked.h — what a sleeping thread waits for.
 *
 * proc/PID/task/TID/syscall gives the system call a blocked thread is in
 * and its arguments ("0 0x3 ..." is read(3, ...)), or "running"; it needs
 * the ptrace attach check (the target's user, or root), and Yama may deny
 * even that.  For read-like calls the descriptor's link
 * (proc/PID/fd/N: "pipe:[...]", "socket:[...]") tells a pipe or a socket.
 * Where syscall cannot be read, wchan (the kernel function it sleeps in:
 * "anon_pipe_read", "futex_do_wait", "do_sys_poll"; names change between
 * kernels, so they are matched by parts) stands in; it needs only the
 * ptrace read check.  State D is waiting for I/O whatever the call. */
#ifndef THREADLAB_BLOCKED_H
#define THREADLAB_BLOCKED_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sysroot.h"

enum blocked_kind {
	BLOCKED_UNKNOWN, /* not readable, or not blocked */
	BLOCKED_FUTEX,	 /* futex: a lock or condition, a pool thread parked */
	BLOCKED_INPUT,	 /* reading a pipe or socket, or polling descriptors */
	BLOCKED_IO,	 /* state D: disk or other uninterruptible I/O */
	BLOCKED_SLEEP,	 /* a timed sleep, a wait for a child or a signal, anything else */
};

/* Pure: the system call number and first argument of a syscall buffer.
 * Returns 0, 1 for "running" (not blocked; *nr -1), or -EINVAL. */
int blocked_syscall_parse(const char *buf, long *nr, unsigned long *arg0);

/* Pure: the kind of a blocking call nr (this architecture's numbers) whose
 * first descriptor links to fdlink ("" when not read). */
enum blocked_kind blocked_of_syscall(long nr, const char *fdlink);
/* Pure: the kind of a wchan name ("0" or "": unknown). */
enum blocked_kind blocked_of_wchan(const char *wchan);
/* Whether system call nr takes a descriptor to read from first (read,
 * readv, recvfrom, recvmsg): its link is then worth reading. */
bool blocked_reads_fd(long nr);

/* The kind thread tid of pid waits for, its last known state (stat field
 * 3) given: D is I/O; otherwise syscall, then wchan (the state may be
 * older than the read: a thread found running is BLOCKED_UNKNOWN).  A
 * thread gone is BLOCKED_UNKNOWN. */
enum blocked_kind blocked_read(const struct sysroot *r, pid_t pid, pid_t tid, char state);

#endif
