/* launch.h — the command threadlab starts and monitors (-- CMD).
 *
 * The command must not outlive threadlab, nor what it starts: it runs in a
 * process group of its own (so it cannot read from the terminal), gets
 * PR_SET_PDEATHSIG, its group is stopped (SIGTERM, then SIGKILL) by
 * launch_stop() and killed from signal handlers by
 * launch_emergency_stop().  One command per process. */
#ifndef THREADLAB_LAUNCH_H
#define THREADLAB_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct lab_quota;

/* Where the command's standard streams go. */
enum launch_stdio {
	LAUNCH_STDIO_NULL,   /* stdin, stdout, stderr on /dev/null (under the dashboard
			      * its output would tear the screen) */
	LAUNCH_STDIO_STDERR, /* stdout onto threadlab's stderr, stdin and stderr kept
			      * (batch: stdout belongs to threadlab's samples) */
	LAUNCH_STDIO_PIPE,   /* stdout and stderr into a pipe threadlab reads
			      * (launch_read_output), stdin on /dev/null (--progress) */
};

/* How to start the command beyond its argv (launch_start_with). */
struct launch_opts {
	enum launch_stdio io;
	char *const *envp; /* the command's whole environment; NULL: threadlab's */
	double cpus;	   /* > 0: run it in a cgroup with this CPU quota (the lab's kind) */
};

struct launch {
	pid_t pid;   /* 0 when nothing was started */
	bool reaped; /* the command's exit was collected */
	int status;  /* its waitpid status once reaped */
	/* It ended but is left a zombie until launch_stop(): its PID, and so
	 * its process group's ID, cannot be reused by another process while
	 * launch_stop() signals the group. */
	bool zombie;
	bool stopped;  /* launch_stop() has run */
	bool out_open; /* LAUNCH_STDIO_PIPE: out_fd is the pipe's read end */
	int out_fd;
	bool sigterm_ignored;	 /* launch_stop() needed SIGKILL: the command outlived SIGTERM */
	bool left_behind;	 /* the command had ended, what it started still ran */
	struct lab_quota *quota; /* opts.cpus: the command's cgroup, or NULL */
	double started;		 /* CLOCK_MONOTONIC s at start */
};

/* Raises this process's soft RLIMIT_NOFILE to the hard limit (at most
 * 65536; the thread sampler holds three descriptors per thread) and
 * remembers the original, which launched commands get back. */
void launch_raise_nofile(void);

/* Starts argv[0] (looked up in PATH).  Returns 0, or -errno: exec's error
 * (no such program, not executable) or fork's; err says which in one line. */
int launch_start(struct launch *l, char *const argv[], enum launch_stdio io, char *err,
		 size_t errlen);

/* The same with options: the output to a pipe, another environment, a
 * CPU quota (a quota that cannot be set is an error: -errno, err says
 * why). */
int launch_start_with(struct launch *l, char *const argv[], const struct launch_opts *o, char *err,
		      size_t errlen);

/* Whether a command can be started under a quota of cpus here: makes the
 * cgroup, sets the quota and removes it again.  0, or -errno with the
 * reason (root or a delegated cgroup needed) in err. */
int launch_quota_check(double cpus, char *err, size_t errlen);

/* LAUNCH_STDIO_PIPE: reads what the command wrote since the last call
 * (never blocks).  Returns the bytes read, 0 when nothing is waiting or
 * the pipe is closed (the command and all it started have closed it). */
size_t launch_read_output(struct launch *l, char *buf, size_t cap);

/* Collects the command's exit if it has ended (never blocks).  Returns true
 * once it is reaped. */
bool launch_reap(struct launch *l);

/* The command was seen gone (a zombie counts): waits up to ms for the exit
 * to be collectable, then collects it. */
void launch_reap_wait(struct launch *l, int ms);

/* Stops the command's process group (the command too if it left it):
 * SIGTERM, then SIGKILL after 500 ms, and reaps the command.  The group is
 * signalled even when the command has ended, so what it left in the
 * background goes too.  Safe to call twice. */
void launch_stop(struct launch *l);
/* Whether process group pgid still has a member other than its leader
 * that has not ended: a member that ended stays a zombie until its parent
 * reaps it (launch_reap() keeps the leader one; PID 1 reaps orphans when
 * it gets to it), so kill(-pgid, 0) cannot tell.  A walk of /proc for a
 * process whose group is pgid, when kill(-pgid, 0) finds one at all. */
bool launch_group_alive(pid_t pgid);

/* Closes the read end of the command's output pipe.  Apart from
 * launch_stop(): a process the command left outside its group may still
 * write there, and would die of SIGPIPE, uncounted, before
 * launch_stop_orphans() found it. */
void launch_close_output(struct launch *l);

/* Makes this process the reaper of what its commands leave behind
 * (PR_SET_CHILD_SUBREAPER): a process that left the command's group and
 * lost its parent becomes a child of threadlab, so that its pid stays
 * ours until launch_stop_orphans() stops it (--sweep -- CMD). */
void launch_adopt_orphans(void);

/* Tells the guard of pid, a process outside l's group (the command moved
 * it out with setsid, or it lost its parent and came to us): should
 * threadlab be killed (SIGKILL, the OOM killer), the guard SIGKILLs it and
 * the group it leads, as it does the command's group, unless its PID is
 * another process's by then.  tree[0..ntree) is the scan pid came from:
 * pid is told only while its parent is threadlab or in it (not a PID
 * taken again since).  Each process once; one in l's group, or gone, is
 * not told; the slots of those that ended are used again. */
void launch_guard_watch(const struct launch *l, pid_t pid, const pid_t *tree, size_t ntree);

/* SIGKILLs and reaps pids, descendants of this process that the caller
 * found after launch_stop() (the guard is spared).  Returns how many were
 * stopped. */
int launch_stop_orphans(const pid_t *pids, size_t n);

/* For signal handlers: sig (SIGTERM or SIGKILL) to the running command.
 * Async-signal-safe. */
void launch_emergency_stop(int sig);

/* "exited with status 3", "killed by signal 9 (Killed)", or "" while it
 * runs.  Returns buf. */
const char *launch_status_text(const struct launch *l, char *buf, size_t cap);

#endif
