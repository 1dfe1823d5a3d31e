/* census.h — what each process of a target is: its executable, command
 * line, parent, the runtimes it loaded and its thread variables.
 *
 * The threads sampler knows threads; the diagnosis also needs processes.
 * A census entry is read when a process first appears (stat, cmdline,
 * exe) and its maps and environ again every CENSUS_REFRESH_S seconds
 * (libraries load late: "import torch" comes after start) — its maps only
 * when the size of its address space changed since they were read (a
 * library loaded or unloaded changes it), or CENSUS_MAPS_MAX_S passed:
 * the maps of a process with thousands of threads are tens of thousands of
 * lines, most of them thread stacks; and when a runtime's file is no
 * longer the one mapped (replaced by an upgrade: its inode changed), whose
 * symbols would point elsewhere in memory.  The pool counts runtimes keep
 * in memory are read at every refresh.  Processes that
 * left are dropped.  Everything is read through collectors/ under the
 * session's root (census-impl.h: the monitor's own); what may not be read
 * is recorded as such, never as absent. */
#ifndef THREADLAB_CENSUS_H
#define THREADLAB_CENSUS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "environment.h"
#include "model.h"
#include "runtimes.h"

#define CENSUS_REFRESH_S 5.0
#define CENSUS_MAPS_MAX_S 60.0
#define CENSUS_RUNTIMES	 12
#define CENSUS_LIB_MAX	 256
#define CENSUS_CMD_MAX	 1024

#define CENSUS_TEXT_RANGES 4

/* One runtime a process has mapped. */
struct census_runtime {
	enum runtime_id id;
	const char *variant;	  /* runtimes.h; static storage */
	char lib[CENSUS_LIB_MAX]; /* the file, as maps shows it */
	unsigned long long map_start, map_offset; /* its first mapping: address, file offset */
	unsigned long inode; /* the file's, as maps shows it: a file replaced since (a
			      * package upgrade) no longer has it */
	unsigned long long text[CENSUS_TEXT_RANGES][2]; /* its code: [start, end) */
	size_t ntext;
	/* The count the runtime holds in its memory (runtimes_pool_symbol),
	 * read at each refresh: pool_ok, and pool_read is it; else pool_err
	 * says why (an errno: EACCES may not read the process's memory,
	 * ENOENT no such symbol, ENOTSUP nothing to read; 0 not tried). */
	bool pool_ok;
	int pool_read;
	int pool_err;
};

/* How a process's environment read. */
enum census_env {
	CENSUS_ENV_UNKNOWN,    /* not read yet */
	CENSUS_ENV_OK,	       /* read: values below (NULL: unset) */
	CENSUS_ENV_UNREADABLE, /* permission denied (another user's process), or no view
				* of it left (its leader exited, no live thread) */
	CENSUS_ENV_TRUNCATED,  /* longer than ENVIRON_MAX: a value below is the one the
				* process sees; NULL means not in the part read, not unset */
};

struct census_proc {
	pid_t pid, ppid;
	uint64_t starttime;	   /* stat field 22, or the caller's (census_update_pids) */
	char comm[MODEL_NAME_MAX]; /* stat field 2, raw */
	char exe[CENSUS_LIB_MAX];  /* proc/PID/exe; "" when not readable */
	bool exe_readable;
	char cmdline[CENSUS_CMD_MAX]; /* arguments NUL-separated, raw */
	size_t cmdline_len;
	bool maps_readable; /* read whole: runtimes is every runtime it loaded */
	bool maps_cut;	    /* read, but longer than CENSUS_MAPS_MAX: runtimes may be missing */
	pid_t view;	    /* the live thread maps and environ were read through when the
			     * leader has exited (a zombie leader); 0: the process itself */
	size_t nruntimes;
	struct census_runtime runtimes[CENSUS_RUNTIMES];
	enum census_env env;
	bool env_truncated; /* longer than ENVIRON_MAX (env CENSUS_ENV_TRUNCATED) */
	bool env_denied;    /* UNREADABLE for want of permission (else for want of a view) */
	char *environ;	    /* the block read, owned */
	size_t environ_len;
	const char *vars[ENVIRONMENT_VARS_MAX]; /* environment_thread_vars values, into
						 * environ; NULL: unset */
	double read_at; /* CLOCK_MONOTONIC s of the last maps/environ read */
	double maps_at; /* ... of the last maps read; 0: none */
	unsigned long long maps_vm; /* procinfo_vm_pages then; 0: not known */
	bool seen;	/* in the latest update */
};

struct census {
	struct census_proc *p; /* sorted by pid */
	size_t n, cap;
	int cores; /* physical cores of the machine (0: unknown) */
};

/* The entry of pid, or NULL. */
const struct census_proc *census_find(const struct census *c, pid_t pid);

/* The value of a thread variable in p's initial environment (NULL unset or
 * unreadable: look at p->env). */
const char *census_var(const struct census_proc *p, const char *name);

/* p's environment as runtimes.h reads it. */
struct runtimes_env census_runtimes_env(const struct census_proc *p);

#endif
