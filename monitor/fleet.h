/* fleet.h — the targets that --match finds, for machines where the PIDs are
 * not known.
 *
 * Every tick the processes under the root are listed again; each whose
 * name (comm) or command line (its arguments joined by spaces) matches a
 * POSIX extended regular expression becomes a member followed by a session
 * of its own (its own cgroup, budget, throttling, diagnosis), started as if
 * attached with -p; a member whose process ended is dropped, so its series
 * stop.  threadlab itself and its descendants are never members (its own
 * command line, "--match python.*train", matches "python.*train").  With
 * tree, a match whose ancestor is a member already is part of that
 * member's tree, not a member of its own.
 *
 * Each process's stat is read at every tick (parent, start time, name);
 * its command line only when it is new (a PID with another start time is
 * another process) or its name changed: an exec keeps the PID and the
 * start time, so a launcher that execs the job ("exec python train.py",
 * or a shell between fork and exec) is asked again as the job.  Command
 * lines are matched on a matcher thread (matcher.h), so an expression
 * that takes seconds on one cannot hold the tick: a process whose answer has not come is not a
 * member yet (nor is its child, with tree), and is asked again when the queue was full. */
#ifndef THREADLAB_FLEET_H
#define THREADLAB_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "matcher.h"
#include "pattern.h"
#include "session.h"

/* What the fleet knows of one process of the last listing. */
struct fleet_proc {
	pid_t pid, ppid;
	uint64_t starttime;
	bool asked;   /* its name and command line are with the matcher */
	bool known;   /* the matcher answered */
	bool matches; /* known: the answer */
	uint32_t name_hash; /* of its name (comm) when asked: an exec changes it */
};

struct fleet_member {
	struct session s;
	pid_t pid;
	uint64_t starttime;
};

struct fleet_root;

struct fleet {
	struct session_config base; /* copied; each member's pid set on start */
	struct pattern *re;	    /* NULL until compiled; then the matcher's */
	struct matcher *matcher;
	struct fleet_root *root; /* fleet.c's: the root the processes are listed under */
	pid_t self;
	struct fleet_member **m; /* sorted by pid */
	size_t n, cap;
	struct fleet_proc *procs; /* the last listing, sorted by pid */
	size_t nprocs, procs_cap;
	pid_t *pids;
	size_t pids_cap;
	char *buf; /* a record for the matcher: comm length (2 bytes), comm, command line */
	size_t buf_cap;
	unsigned long started, ended; /* members over the fleet's life */
};

/* Whether a process with this comm and command line (NUL-separated
 * arguments, raw) matches re.  Pure: the tests call it directly. */
bool fleet_matches(const struct pattern *re, const char *comm, size_t comm_len, const char *cmdline,
		   size_t cmdline_len);

/* Compiles regex (pattern.h: POSIX extended syntax, glibc's regcomp, its
 * cost bounded), starts its matcher and opens base->root.
 * Returns EXIT_OK, or EXIT_USAGE with a one-line message in err (a bad expression, a bad root).
 * fleet_stop() must be called either way. */
int fleet_start(struct fleet *f, const struct session_config *base, const char *regex, char *err,
		size_t errlen);

/* Lists the processes again, starts a session for each new match, ticks
 * every member and drops those whose process ended.  Returns the number of
 * members. */
size_t fleet_tick(struct fleet *f);

/* Stops every member's session and frees everything.  Safe to call twice. */
void fleet_stop(struct fleet *f);

#endif
