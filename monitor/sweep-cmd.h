/* sweep-cmd.h — threadlab --sweep --env NAME=V1,V2 … -- CMD: a real
 * command over environment settings.
 *
 * Settings: the baseline (the first value of every knob), then one knob
 * changed at a time from it, in the order given (--grid: every
 * combination, the first knob slowest).  Each setting runs the command
 * anew (repeat times) as a session of its own: its environment is
 * threadlab's with the knobs set, its output read for --progress, under
 * --cpus as a quota when asked.  After warmup seconds the window of
 * seconds is measured; then the command is stopped (SIGTERM to its process
 * group, SIGKILL after 500 ms; the quota cgroup is emptied; threadlab is
 * the child subreaper, so what left the group and lost its parent is its
 * child and is killed too), whatever happened to it.  A command that does not start, ends early or
 * prints no progress line gives a row that says so, and the sweep goes on.
 *
 * Row figures over the measured window: rate (steps/s, NAN without
 * --progress or without a matching line), speedup (rate / the baseline's
 * rate), cpu_pct (CPU of the command's tree, % of one CPU), runnable_mean,
 * wait_pct (run-queue wait as % of the time its threads were runnable),
 * throttled_pct (% of periods throttled; < 0 without a quota), the
 * diagnosis's verdict, and status (how the command ended).  With repeats:
 * the median of each figure and the rate's spread (max - min).
 *
 * Each row records the environment its command really ran with: the
 * swept knobs and the thread variables, read from /proc/PID/environ of
 * the command during its window (not threadlab's own).  After the last
 * row the sink hears which setting was best (sweep_cmd_best) and whether it
 * beats the next beyond the spread of the repeats. */
#ifndef THREADLAB_SWEEP_CMD_H
#define THREADLAB_SWEEP_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnosis.h"
#include "environment.h"

#define SWEEP_CMD_KNOBS	 8
#define SWEEP_CMD_VALUES 32
#define SWEEP_CMD_REPEAT 9
#define SWEEP_CMD_ENV	 (SWEEP_CMD_KNOBS + 8) /* variables a row records */

struct sweep_cmd_knob {
	char name[64];
	char values[SWEEP_CMD_VALUES][64];
	size_t nvalues;
};

struct sweep_cmd_opts {
	struct sweep_cmd_knob knob[SWEEP_CMD_KNOBS];
	size_t nknobs;
	bool grid;
	double seconds, warmup; /* s */
	const char *progress;	/* REGEX or NULL */
	bool progress_rate;
	double cpus; /* > 0: quota for every run */
	int repeat;  /* runs per setting, 1..SWEEP_CMD_REPEAT */
	char **command;
};

/* The defaults of --seconds, --warmup and --repeat with --sweep -- CMD. */
#define SWEEP_CMD_SECONDS_DEFAULT 10.0
#define SWEEP_CMD_WARMUP_DEFAULT  2.0
#define SWEEP_CMD_REPEAT_DEFAULT  1

/* The defaults above, no knobs. */
void sweep_cmd_opts_default(struct sweep_cmd_opts *o);

/* Parses "NAME=V1,V2,…" into the next knob.  Returns 0, or -EINVAL with a
 * one-line reason in err. */
int sweep_cmd_add_knob(struct sweep_cmd_opts *o, const char *spec, char *err, size_t errlen);

/* The settings in the order they run: values[i][k] is setting i's value
 * index of knob k.  Returns the count (at most cap). */
size_t sweep_cmd_settings(const struct sweep_cmd_opts *o, unsigned char (*values)[SWEEP_CMD_KNOBS],
			  size_t cap);

/* A variable of the environment a command ran with. */
struct sweep_cmd_var {
	const char *name; /* a knob's or one of environment_thread_vars */
	char value[64];	  /* raw bytes, cut to fit */
	bool set;	  /* false: the command ran without it */
};

/* The environment setting val (one value index per knob) runs with:
 * threadlab's, less its own definitions of the knobs, then NAME=VALUE for
 * every knob.  The knobs' strings are allocated, the rest borrowed from
 * environ; free with sweep_cmd_environ_free(e, o->nknobs). */
char **sweep_cmd_environ(const struct sweep_cmd_opts *o, const unsigned char *val);
void sweep_cmd_environ_free(char **e, size_t nknobs);

/* One setting's row: its figures, how it ended, what it ran with. */
struct sweep_cmd_row {
	size_t index;			    /* 0: the baseline */
	const char *name[SWEEP_CMD_KNOBS];  /* the knobs' names */
	const char *value[SWEEP_CMD_KNOBS]; /* this setting's values */
	size_t nknobs;
	double rate;	    /* steps/s; NAN: none */
	double rate_spread; /* max - min over the repeats, steps/s; NAN none */
	double speedup;	    /* NAN when either rate is missing */
	double cpu_pct, runnable_mean, wait_pct;
	double throttled_pct; /* < 0: no quota */
	enum verdict verdict; /* VERDICT_N: not judged (it did not run) */
	bool crowded;	      /* a run was crowded out by other processes too (oversubscribed and
			       * contended): left out of the Amdahl fit like a contended one */
	int runs;	      /* runs measured */
	char status[160];     /* "stopped by SIGTERM", "exited with status 1 after 0.3 s", … */
	struct sweep_cmd_var env[SWEEP_CMD_ENV]; /* as the command had it (last run) */
	size_t nenv;
	int env_error; /* 0: read; -EACCES, -ESRCH: not read; 1: the block was cut */
};

/* The best setting of a sweep: the highest rate, against the next. */
struct sweep_cmd_best {
	const struct sweep_cmd_row *best; /* NULL: no row has a rate */
	const struct sweep_cmd_row *next; /* the second highest; NULL: none */
	double margin;			  /* best - next rate, steps/s */
	double spread;			  /* the larger rate spread of the two; NAN: one run each */
	int beyond; /* 1: beats the next beyond the spread of repeats; 0: within it;
		     * -1: cannot tell (one run each, or no second row) */
	size_t rows; /* the rows judged (those that finished) */
};

/* The best of n rows (rates NAN are passed over) into *out. */
void sweep_cmd_best(const struct sweep_cmd_row *rows, size_t n, struct sweep_cmd_best *out);

struct sweep_cmd_env {
	struct env_record env;
	const struct sweep_cmd_opts *o;
};

/* Where the rows go (output/sweep-cmd-out.c).  As sweep.h's sink:
 * callbacks return 0, -EPIPE or -EIO. */
struct sweep_cmd_sink {
	void *arg;
	int (*begin)(void *arg, const struct sweep_cmd_env *env);
	int (*row)(void *arg, const struct sweep_cmd_row *r);
	int (*best)(void *arg, const struct sweep_cmd_best *b); /* before end; may be NULL */
	int (*end)(void *arg);
	int (*gone)(void *arg);
	void (*note)(void *arg, const char *line);
};

/* Runs the sweep.  Returns 0, -EINVAL (bad options), -EPERM (--cpus: no
 * quota can be set here; a note says why), -EINTR (a stop signal: the rows
 * so far are kept, end is called), -EPIPE or -EIO. */
int sweep_cmd_run(const struct sweep_cmd_opts *o, const struct sweep_cmd_sink *k);

#endif
