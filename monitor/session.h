/* session.h — one monitoring session: a target, its source, and the lab.
 *
 * Every face shares this: session_start() sets up the target (the built-in
 * lab workload, an attached PID, or a launched command) from a struct
 * session_config, session_tick() takes one sample and computes the rates
 * against the previous one and the views (lab view, steady state),
 * session_stop() undoes everything (workload, workers, quota cgroup,
 * launched command).  The faces read the struct's public fields directly
 * (the model's own types: model.h, settings.h, labview.h, diagnosis.h) and
 * change the session only through the functions here: session_lab_apply()
 * after changing want, session_lab_poll() between ticks, labview_reset() on the
 * view.  What the session keeps to sample, the collectors' snapshots and
 * rates, the lab manager and its status, is its own (session-impl.h).
 *
 * Messages: what the user should hear about the session (a setting
 * applied, a quota refused, a helper restarted, a stream failed) goes into
 * s->message with a sequence number, raw (made safe by whoever shows it):
 * a face shows or prints each new one once. */
#ifndef THREADLAB_SESSION_H
#define THREADLAB_SESSION_H

#include <stdbool.h>
#include <sys/types.h>

#include "census.h"
#include "diagnosis.h"
#include "history.h"
#include "labview.h"
#include "model.h"
#include "progress.h"
#include "recording.h"
#include "session-sweep.h"
#include "settings.h"
#include "stop.h"
#include "thread-groups.h"

/* Exit statuses of every mode, documented in threadlab(1). */
enum exit_status {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1, /* something failed while running (workload, I/O) */
	EXIT_USAGE = 2,	  /* bad arguments, no such PID, PID not readable, bad file */
	EXIT_NOMEM = 3,	  /* out of memory (xalloc) */
	EXIT_NO_TTY = 4,  /* dashboard asked for without a usable terminal */
};

enum session_kind {
	SESSION_LAB,	/* built-in workload (no -p, no -- CMD) */
	SESSION_ATTACH, /* -p PID */
	SESSION_LAUNCH, /* -- CMD */
};

/* Where a launched command's standard streams go. */
enum session_stdio {
	SESSION_STDIO_NULL,   /* stdin, stdout, stderr on /dev/null (under the dashboard
			       * its output would tear the screen) */
	SESSION_STDIO_STDERR, /* stdout onto threadlab's stderr, stdin and stderr kept
			       * (batch: stdout belongs to threadlab's samples) */
	SESSION_STDIO_PIPE,   /* stdout and stderr into a pipe threadlab reads, stdin on
			       * /dev/null (--progress) */
};

struct neighbours;

/* What to monitor.  Strings and argv are borrowed: they must outlive the
 * session (main's argv does). */
struct session_config {
	const char *root;	  /* collectors' root: "/" live, or a fixture tree */
	pid_t pid;		  /* > 0: attach to this process */
	bool tree;		  /* follow the target's descendants too */
	char **command;		  /* non-NULL: launch this argv */
	enum session_stdio stdio; /* where the launched command's output goes */
	struct settings lab;	  /* the lab's knobs at start (no pid, no command) */
	const char *replay;	  /* non-NULL: replay this recording instead of sampling */
	double diag_window;	  /* s the diagnosis judges (a sliding window of at least half this
				   * and at most this); 0: the last interval */
	double detail_period;	  /* cadence of the threads not shown, s (the sampler's); 0: every
				   * thread, every tick (what batch exports need) */
	bool keys;		  /* the face takes the lab's keys (suggestions name them) */
	/* The job's progress (progress.h): --progress REGEX on the launched
	 * command's output (stdio SESSION_STDIO_PIPE) or on progress_file. */
	const char *progress;	   /* NULL: none */
	bool progress_rate;	   /* --progress-rate */
	const char *progress_file; /* --progress-file PATH, or NULL */
	char *const *envp;	   /* the launched command's environment; NULL: ours */
	double launch_cpus;	   /* > 0: the launched command under this CPU quota */
	bool hysteresis;	   /* a verdict keeps while its figure stays in its band (the
				    * dashboard, batch, headless); false: each diagnosis on its own
				    * (--diagnose) */
	bool no_machine;	   /* do not read the rest of the machine (no neighbours) */
	/* A machine reader the caller lends (neighbours_borrow: the --all
	 * view's, so an attach from it is up without reading every thread of
	 * the machine first); NULL: the session reads the machine itself. */
	const struct neighbours *machine_from;
	bool roofline; /* lab: measure both roofs at start (session_roofline_roofs), so
			* every sample's roofline has its bound */
};

/* root "/", nothing to attach or launch, the lab's defaults, the launched
 * command's output to /dev/null. */
void session_config_default(struct session_config *c);

#define SESSION_MESSAGE_LEN 256

struct session_impl; /* session-impl.h: what the session keeps to sample */

struct session {
	enum session_kind kind;
	struct session_config cfg;
	pid_t target; /* the pid the sampler follows */
	bool tree;    /* sampler follows descendants too */

	struct model_sample model; /* the newest sample and the interval before it */
	bool have_rates;	   /* the model has an interval's rates */
	bool target_gone;	   /* the target exited (attach/launch) */
	int orphans_stopped;	   /* what the command left outside its group, stopped by
				    * session_stop() */
	struct progress progress;  /* the job's steps (cfg.progress), progress.on */

	/* lab mode */
	struct settings want;	     /* settings last asked for: the one copy (a face keeps none) */
	struct labview view;	     /* smoothed and steady-state throughput */
	struct workload_report work; /* what outputs show of the workload */
	struct session_sweep sweep;  /* the s key's thread-count sweep (session-sweep.h) */
	double single_ref;	     /* > 0: the single-thread rate ideal and ceiling use (the
				      * tour's, measured in its first lesson), GFLOP/s, at the
				      * rate key and precision below only; else the lab
				      * view's reference */
	int single_ref_key, single_ref_precision;

	/* replay: the source is a recording */
	long replay_pos;	 /* the sample shown (0-based) */
	long replay_count;	 /* samples in the recording */
	unsigned replay_skipped; /* lines that did not read */

	/* the diagnosis (not in a replay of a file without one) */
	struct census census;  /* the target's processes */
	struct diagnosis diag; /* over the window */
	bool have_diag;
	double runnable_mean;	     /* mean runnable threads over the last interval */
	struct history history;	     /* one point per interval, for the sparklines */
	struct thread_groups groups; /* threads by name stem, totals that only grow (live) */
	int unfollowed;		     /* descendants left out (no --tree) */

	char path_note[192];		    /* why the sampler left the BPF path, "" never */
	char message[SESSION_MESSAGE_LEN];  /* the newest message, raw; "" none */
	bool message_bad;		    /* it reports a failure */
	unsigned message_seq;		    /* counts messages: a face shows each once */
	char gone_why[SESSION_MESSAGE_LEN]; /* how the lab ended for good ("" not) */

	struct session_impl *impl; /* owned; NULL before session_start, after session_stop */
};

/* Raises the soft limit on open files (the thread sampler holds three
 * descriptors per thread); a launched command gets the original back. */
void session_raise_nofile(void);

/* Starts the target described by c (copied).  Returns EXIT_OK, or an exit
 * status with a one-line message in err.  session_stop() must be called
 * either way. */
int session_start(struct session *s, const struct session_config *c, char *err, size_t errlen);

/* One tick: reaps a launched command that exited, samples, computes rates
 * and (lab) reads the workload, updates the view and reports events as
 * messages.  Returns 0, or -ESRCH once the target has gone (s->target_gone;
 * cur keeps the last budget).  In a replay a tick moves to the next sample
 * (lines that do not read are skipped, said once); -ENODATA at the end. */
int session_tick(struct session *s);

/* The header of a recording of this session: mode, target and the
 * environment record (machine, BLAS, thread variables), sampling every
 * interval seconds. */
void session_recording_header(const struct session *s, double interval, struct recording_header *h);

/* The threads a face shows: their stat (state, last CPU) is read every
 * tick while the others follow the stat period. */
void session_show_threads(struct session *s, const pid_t *tids, size_t n);

/* Stops the workload, the launched command (SIGTERM, then SIGKILL after
 * 500 ms) with its process group, then what it moved out of the group
 * (setsid) and left to threadlab, the subreaper of every launch (counted
 * in orphans_stopped), and frees everything.  Safe to call twice. */
void session_stop(struct session *s);

/* The effective CPU budget of pid (0: threadlab itself) under root, for
 * --budget.  Returns EXIT_OK, or EXIT_USAGE with a one-line message in err
 * (no such process, may not be read, root not a directory). */
int session_budget(const char *root, pid_t pid, struct model_budget *b, char *err, size_t errlen);

/* Whether the session replays a recording (no target is sampled). */
bool session_replaying(const struct session *s);

/* Launch mode: a short description of how the command ended
 * ("exited with status 3", "killed by signal 9"), or "" while running. */
const char *session_child_status(const struct session *s, char *buf, size_t cap);

/* The target's name (attach: its comm; launch: the command line; lab:
 * "lab"), raw bytes, into buf. */
void session_target_name(const struct session *s, char *buf, size_t cap);
/* The same, but a launched command by its comm, as an attached process
 * (the name of the exporter's threadlab_target_info: a label that means
 * the same in every mode, and never the arguments, which may hold
 * secrets); the command's first word, cut to its file name, until its
 * thread is read. */
void session_target_comm(const struct session *s, char *buf, size_t cap);

#endif
