/* options-table.h — every option of threadlab's command line, once.
 *
 * One entry per long option (and its short form): its name, the kind of
 * its value, the modes it applies to, the placeholder and the help line.
 * The parser's getopt_long table and short-option string, the --help text
 * (options-usage.h), the "X is for Y" check (options.c) and the listing
 * the shell completions are made from (--list-options) are all read from
 * it; tests/unit/test-options-table.sh compares it with --help, the man page
 * and the completions.
 *
 * `threadlab --list-options` (hidden) prints every option that is not
 * hidden, one a line, four fields separated by tabs:
 *
 *     --format<TAB>-<TAB>enum<TAB>text csv json
 *     --pid<TAB>-p<TAB>pid<TAB>-
 *
 * the long name, the short one or "-", the kind of value (none, value,
 * enum, pid, file, dir) and, for enum, the values separated by spaces,
 * else "-".  An enumerated option's values come from the list the parser
 * checks them against, so the completion cannot offer a value the parser
 * refuses. */
#ifndef THREADLAB_OPTIONS_TABLE_H
#define THREADLAB_OPTIONS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "options-args.h"

/* getopt_long's values of the options without a short form.  The ranges
 * (FIRST..END) are how options.c hands an option to its area's file. */
enum {
	OPT_BUDGET = 256,
	OPT_BATCH,
	OPT_SWEEP,
	OPT_TREE,
	OPT_FORMAT,
	OPT_THREADS, /* OPT_THREADS..OPT_BLAS_SPIN: the workload's knobs */
	OPT_STREAMS,
	OPT_SIZE,
	OPT_PRECISION,
	OPT_KERNEL,
	OPT_CPUS,
	OPT_WORKERS,
	OPT_LOADERS,
	OPT_PREP_MS,
	OPT_PREFETCH,
	OPT_BLAS,
	OPT_BLAS_SPIN,
	OPT_SECONDS,
	OPT_ROOT,
	OPT_NO_COLOR,
	OPT_ROOFLINE,
	OPT_RECORD,
	OPT_REPLAY,
	OPT_DIAGNOSE,
	OPT_SERVE,
	OPT_HEADLESS,
	OPT_MATCH,
	OPT_TLS_CERT,
	OPT_TLS_KEY,
	OPT_BASIC_AUTH,
	OPT_METRICS_MAX_THREADS,
	OPT_TOUR,
	OPT_TOUR_STEP,
	OPT_TOUR_NOTES,
	OPT_LIST_OPTIONS,

	/* options-tune.c */
	OPT_TUNE_FIRST = 512,
	OPT_PROGRESS = OPT_TUNE_FIRST,
	OPT_PROGRESS_RATE,
	OPT_PROGRESS_FILE,
	OPT_LOG,
	OPT_ENV,
	OPT_GRID,
	OPT_WARMUP,
	OPT_REPEAT,
	OPT_TUNE_END,

	/* options-diag.c */
	OPT_DIAG_FIRST = 600,
	OPT_NO_TREE = OPT_DIAG_FIRST,
	OPT_STRICT,
	OPT_DIAG_END,

	/* options-collector.c */
	OPT_COLLECTOR_FIRST = 640,
	OPT_COLLECTOR = OPT_COLLECTOR_FIRST,
	OPT_BPF_THREADS,
	OPT_COLLECTOR_END,

	/* options-all.c */
	OPT_ALL_FIRST = 680,
	OPT_ALL = OPT_ALL_FIRST,
	OPT_TOP,
	OPT_KERNEL_THREADS,
	OPT_METRICS_MAX_PROCESSES,
	OPT_ALL_END,
};

/* What an option's value is. */
enum options_arg {
	OPTIONS_ARG_NONE,
	OPTIONS_ARG_INT,
	OPTIONS_ARG_DOUBLE,
	OPTIONS_ARG_LIST,   /* integers: 1,2,4 or 1-4 (a list with --sweep) */
	OPTIONS_ARG_ENUM,   /* one of values() */
	OPTIONS_ARG_STRING, /* a regex, an address, NAME=V1,V2 */
	OPTIONS_ARG_PID,
	OPTIONS_ARG_FILE,
	OPTIONS_ARG_DIR,
};

/* The --help section an option is listed in (options-usage.c titles them). */
enum options_section {
	OPTIONS_SEC_MODES,
	OPTIONS_SEC_TARGET,
	OPTIONS_SEC_OUTPUT,
	OPTIONS_SEC_EXPORTER,
	OPTIONS_SEC_TUNE,
	OPTIONS_SEC_COLLECTOR,
	OPTIONS_SEC_DIAG,
	OPTIONS_SEC_KNOBS,
	OPTIONS_SEC_INFO,   /* -h, -V */
	OPTIONS_SEC_HIDDEN, /* not in --help nor --list-options */
	OPTIONS_SEC_END,
};

/* The modes an option applies to, as bits of options.h's enum mode:
 * OPTIONS_IN(MODE_BATCH).  The bits are those of the modes that run
 * (dashboard to headless); an option given in a mode outside its bits is a
 * usage error. */
#define OPTIONS_IN(m)  (1u << (m))
#define OPTIONS_IN_ALL 0x3fu /* MODE_DASHBOARD .. MODE_HEADLESS */

/* The targets an option applies to (0: any).  A run has one: a recording
 * (--replay), the whole machine (--all), the processes --match finds,
 * -p PID, -- CMD, or else the built-in workload. */
enum options_target {
	OPTIONS_FOR_LAB = 1u << 0,
	OPTIONS_FOR_PID = 1u << 1,
	OPTIONS_FOR_CMD = 1u << 2,
	OPTIONS_FOR_MATCH = 1u << 3,
	OPTIONS_FOR_REPLAY = 1u << 4,
	OPTIONS_FOR_ALL = 1u << 5, /* --all: every process of the machine */
};

#define OPTIONS_DEFS 3 /* the most defaults one help line names */

struct options_entry {
	const char *name; /* long name, without "--" */
	int val;	  /* getopt_long's value: the short letter, or an OPT_* */
	enum options_arg arg;
	options_values_fn *values; /* OPTIONS_ARG_ENUM: the names it takes */
	unsigned modes;		   /* OPTIONS_IN() bits */
	const char *hint;	   /* after "X is for Y; ", or NULL */
	enum options_section section;
	const char *placeholder; /* "N", "FILE"; NULL without a value */
	const char *help;	 /* one line; --help wraps it; each "%g" in it prints
				  * the next of def[], "%s" prints sdef; NULL: a knob's,
				  * from the knob table (monitor/knobs.c) */
	unsigned targets;	 /* OPTIONS_FOR_* bits; 0: any */
	double def[OPTIONS_DEFS]; /* the defaults the help names, from the constants the
				   * code starts from: each written once */
	const char *sdef;	  /* a default that is text (an address), as def[] */
};

/* The number of entries; the longest table options.h's given[] holds. */
#define OPTIONS_TABLE_MAX 64
size_t options_table_count(void);
/* Entry i (i < options_table_count()). */
const struct options_entry *options_table_at(size_t i);
/* The index of the entry whose val is val, or -1. */
int options_table_index(int val);

/* getopt_long's table, ended by a NULL name, and its short-option string
 * ("+:" then each short letter, with ':' when it takes a value).  Both
 * static, built once. */
struct option;
const struct option *options_table_getopt(void);
const char *options_table_shorts(void);

/* Each option given (given[i]: entry i was on the command line) applies
 * to mode (an enum mode that runs) and to target (one OPTIONS_FOR_* bit).
 * EXIT_OK, or EXIT_USAGE with "X is for Y, Z and W[; hint]" or "X does not
 * apply to T" in err. */
int options_table_check(const bool *given, int mode, unsigned target, char *err, size_t errlen);

/* Prints the --list-options listing above.  Returns 0, or -errno when f
 * fails. */
int options_table_list(FILE *f);

#endif
