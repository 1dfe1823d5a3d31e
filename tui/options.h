/* options.h — threadlab's command line.
 *
 * options_parse() turns argv into a struct options or says, in one line,
 * what was wrong; the options themselves (names, values, modes, help) are
 * options-table.h's.  The modes turn a struct options into the monitor's
 * configurations.  The exit statuses every mode uses are session.h's,
 * documented in threadlab(1). */
#ifndef THREADLAB_OPTIONS_H
#define THREADLAB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "format.h"
#include "options-table.h"
#include "session.h"
#include "sweep.h"

enum mode {
	MODE_DASHBOARD, /* default */
	MODE_BUDGET,	/* --budget */
	MODE_BATCH,	/* --batch */
	MODE_SWEEP,	/* --sweep */
	MODE_DIAGNOSE,	/* --diagnose */
	MODE_HEADLESS,	/* --headless: sample and serve, nothing on screen */
	MODE_HELP,
	MODE_VERSION,
	MODE_LIST_OPTIONS, /* --list-options (hidden): for the shell completions */
};

#define OPT_LIST_MAX 32

/* Defaults of options that are no knob (the knobs' are monitor/knobs.c's);
 * the option table's help lines print them. */
#define OPTIONS_TOUR_STEP_DEFAULT	 6.0 /* --tour-step, s */
#define OPTIONS_DIAGNOSE_SECONDS_DEFAULT 5.0 /* --diagnose's --seconds, s */

struct options {
	enum mode mode;
	enum format format;
	bool format_set;
	pid_t pid;	    /* -p; 0 when not given */
	bool tree;	    /* --tree */
	bool no_tree;	    /* --no-tree: -- CMD without its descendants */
	bool strict;	    /* --strict: --diagnose counts borderline as a problem */
	char **command;	    /* after "--": argv of the command to launch, or NULL */
	double interval;    /* -i, seconds */
	long count;	    /* -c, samples; 0 = until the target exits or a signal */
	const char *root;   /* --root: collectors' root directory ("/" live) */
	bool no_color;	    /* --no-color or NO_COLOR set */
	bool roofline;	    /* --roofline */
	const char *record; /* --record FILE, or NULL */
	const char *replay; /* --replay FILE, or NULL */
	int argc;	    /* threadlab's own command line, for a recording's header */
	char **argv;
	bool interval_set;	    /* -i given */
	bool seconds_set;	    /* --seconds given */
	const char *lab_flag;	    /* first workload knob given ("--threads"), or NULL */
	const char *lab_flag_other; /* a workload knob other than --cpus was given */

	/* lab knobs; the *_list forms are --sweep's */
	int threads;
	int thread_list[OPT_LIST_MAX];
	size_t nthread_list;
	int streams;
	int stream_list[OPT_LIST_MAX];
	size_t nstream_list;
	int size;
	int precision; /* enum settings_precision */
	int kernel;    /* enum settings_kernel */
	double cpus;   /* --cpus; <= 0: no quota */
	int workers;
	bool spin_off; /* --blas-spin off */
	int blas;      /* --blas: enum settings_blas */
	int loaders;   /* --loaders (the first of a --sweep list) */
	int loader_list[OPT_LIST_MAX];
	size_t nloader_list;
	int prep_ms;	  /* --prep-ms */
	int prefetch;	  /* --prefetch */
	double seconds;	  /* --sweep: seconds measured per setting */
	bool tour;	  /* --tour */
	double tour_step; /* --tour-step, s */
	bool tour_step_set;
	const char *tour_notes; /* --tour-notes FILE */

	/* the exporter */
	const char *serve;	  /* --serve [ADDR:]PORT, or NULL */
	const char *match;	  /* --match REGEX, or NULL */
	const char *tls_cert;	  /* --tls-cert FILE */
	const char *tls_key;	  /* --tls-key FILE */
	const char *basic_auth;	  /* --basic-auth FILE */
	long metrics_max_threads; /* --metrics-max-threads */
	bool metrics_max_threads_set;
	long metrics_max_processes; /* --metrics-max-processes */
	bool metrics_max_processes_set;

	/* issue 11: the job's progress, the experiment log, the command sweep
	 * (options-tune.c) */
	const char *progress;	       /* --progress REGEX */
	bool progress_rate;	       /* --progress-rate */
	const char *progress_file;     /* --progress-file PATH */
	const char *log;	       /* --log FILE */
	const char *env[OPT_LIST_MAX]; /* --env NAME=V1,V2 (raw, checked) */
	size_t nenv;
	bool grid;     /* --grid */
	double warmup; /* --warmup S */
	bool warmup_set;
	int repeat; /* --repeat R */

	/* issue 20: the collector path (options-collector.c) */
	int collector; /* --collector: enum collector_want */
	bool collector_set;
	unsigned bpf_threads; /* --bpf-threads; 0: the default */

	/* issue 19: the whole machine (options-all.c) */
	bool all;	     /* --all */
	long top;	     /* --top N; 0: the format's default */
	bool kernel_threads; /* --kernel-threads */

	bool given[OPTIONS_TABLE_MAX]; /* by options-table.h's index: given */
};

/* Parses argv (kept in o: it must outlive o).  Returns EXIT_OK, or
 * EXIT_USAGE with a one-line message (no "threadlab:" prefix, no newline)
 * in err. */
int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen);

/* The session to start for o: target, root, the lab's knobs; the launched
 * command's output onto stderr in batch mode. */
void options_session_config(const struct options *o, struct session_config *c);
/* The sweep to run for o. */
void options_sweep_opts(const struct options *o, struct sweep_opts *so);

/* options.c's helper, shared: a one-line message into err (returns
 * EXIT_USAGE). */
int options_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
