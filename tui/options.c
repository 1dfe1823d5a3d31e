/* options.c — parse threadlab's command line into a struct options and
 * check the rules between options (options.h; each option's own modes are
 * the table's, options-table.h). */
#include "config.h"

#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "options-collector.h"
#include "options-diag.h"
#include "options-all.h"
#include "options-args.h"
#include "options-table.h"
#include "options-tune.h"

void options_session_config(const struct options *o, struct session_config *c)
{
	session_config_default(c);
	c->root = o->root;
	c->pid = o->pid;
	c->tree = o->tree;
	c->command = o->command;
	c->stdio = o->mode == MODE_BATCH || o->mode == MODE_DIAGNOSE || o->mode == MODE_HEADLESS
		       ? SESSION_STDIO_STDERR
		       : SESSION_STDIO_NULL;
	c->lab.threads = o->threads;
	c->lab.streams = o->streams;
	c->lab.size = o->size;
	c->lab.precision = (enum settings_precision)o->precision;
	c->lab.kernel = (enum settings_kernel)o->kernel;
	c->roofline = o->roofline;
	c->lab.workers = o->workers;
	c->lab.cpus = o->cpus;
	c->lab.spin_off = o->spin_off;
	c->lab.blas = (enum settings_blas)o->blas;
	c->lab.loaders = o->loaders;
	c->lab.prep_ms = o->prep_ms;
	c->lab.prefetch = o->prefetch;
	c->replay = o->replay;
	options_tune_session(o, c);
	options_diag_session(o, c);
	if (o->mode == MODE_DASHBOARD || o->mode == MODE_HEADLESS) {
		/* A screen shows some threads and a verdict that should not flip
		 * with each interval; batch output exports every thread.  The
		 * exporter's counters may be a second old, its verdict as the
		 * dashboard's. */
		c->diag_window = 5.0;
		c->detail_period = 1.0;
		c->keys = o->mode == MODE_DASHBOARD;
	}
	/* A recording holds every thread at every interval, as batch JSON
	 * does: read once a second, a thread's figures repeated for every
	 * sample of that second at -i 0.5, under a header that said 0.5. */
	if (o->record)
		c->detail_period = 0;
}

void options_sweep_opts(const struct options *o, struct sweep_opts *so)
{
	sweep_opts_default(so);
	for (size_t i = 0; i < o->nthread_list; i++)
		so->threads[so->nthreads++] = o->thread_list[i];
	for (size_t i = 0; i < o->nstream_list; i++)
		so->streams[so->nstreams++] = o->stream_list[i];
	so->size = o->size;
	so->precision = (enum settings_precision)o->precision;
	so->kernel = (enum settings_kernel)o->kernel;
	so->cpus = o->cpus;
	so->workers = o->workers;
	so->spin_off = o->spin_off;
	so->blas = (enum settings_blas)o->blas;
	for (size_t i = 0; i < o->nloader_list; i++)
		so->loaders[so->nloaders++] = o->loader_list[i];
	so->prep_ms = o->prep_ms;
	so->prefetch = o->prefetch;
	so->seconds = o->seconds;
}

int options_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

static void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = MODE_DASHBOARD;
	o->format = FORMAT_TEXT;
	o->root = "/";
	/* The knobs' defaults are the knob table's (monitor/knobs.c). */
	o->interval = knobs_get(KNOB_INTERVAL)->def;
	struct settings k = knobs_defaults();
	o->threads = k.threads;
	o->streams = k.streams;
	o->size = k.size;
	o->precision = k.precision;
	o->kernel = k.kernel;
	o->cpus = k.cpus;
	o->workers = k.workers;
	o->spin_off = k.spin_off;
	o->blas = k.blas;
	o->loaders = k.loaders;
	o->prep_ms = k.prep_ms;
	o->prefetch = k.prefetch;
	o->seconds = SWEEP_SECONDS_DEFAULT;
	o->metrics_max_threads = METRICS_MAX_THREADS_DEFAULT;
	o->metrics_max_processes = METRICS_MAX_PROCESSES_DEFAULT;
	o->tour_step = OPTIONS_TOUR_STEP_DEFAULT;
	options_tune_defaults(o);
	const char *nc = getenv("NO_COLOR");
	o->no_color = nc && *nc;
}

static int options_set_mode(struct options *o, enum mode m, char *err, size_t errlen)
{
	if (o->mode != MODE_DASHBOARD && o->mode != m)
		return options_err(
		    err, errlen,
		    "--budget, --batch, --sweep, --diagnose and --headless exclude each "
		    "other");
	o->mode = m;
	return EXIT_OK;
}

static int options_exporter(struct options *o, int c, const char *arg, char *err, size_t errlen)
{
	const char **to = c == OPT_SERVE	? &o->serve
			  : c == OPT_MATCH	? &o->match
			  : c == OPT_TLS_CERT	? &o->tls_cert
			  : c == OPT_TLS_KEY	? &o->tls_key
			  : c == OPT_BASIC_AUTH ? &o->basic_auth
						: NULL;
	if (!to) {
		if (!options_args_long_int(arg, 1, 1000000, &o->metrics_max_threads))
			return options_err(
			    err, errlen, "--metrics-max-threads takes 1 to 1000000, not '%s'", arg);
		o->metrics_max_threads_set = true;
		return EXIT_OK;
	}
	if (!arg[0])
		return options_err(err, errlen, "%s needs a value",
				   c == OPT_SERVE   ? "--serve"
				   : c == OPT_MATCH ? "--match"
						    : "a file option");
	*to = arg;
	return EXIT_OK;
}

static int options_one(struct options *o, int c, const char *arg, char *err, size_t errlen)
{
	long v;
	int idx = options_table_index(c);
	if (idx >= 0)
		o->given[idx] = true;
	if (c >= OPT_THREADS && c <= OPT_BLAS_SPIN && !o->lab_flag)
		o->lab_flag = options_table_at((size_t)idx)->name;
	if (c >= OPT_THREADS && c <= OPT_BLAS_SPIN && c != OPT_CPUS && !o->lab_flag_other)
		o->lab_flag_other = "a workload knob";
	switch (c) {
	case 'p':
		if (!options_args_long_int(arg, 1, INT_MAX, &v))
			return options_err(err, errlen, "-p needs a process ID, not '%s'", arg);
		o->pid = (pid_t)v;
		return EXIT_OK;
	case 'i':
		if (!options_args_double(arg, knobs_get(KNOB_INTERVAL)->min,
					 knobs_get(KNOB_INTERVAL)->max, &o->interval))
			return options_err(err, errlen, "-i needs seconds from %g to %g, not '%s'",
					   knobs_get(KNOB_INTERVAL)->min,
					   knobs_get(KNOB_INTERVAL)->max, arg);
		o->interval_set = true;
		return EXIT_OK;
	case 'c':
		if (!options_args_long_int(arg, 1, LONG_MAX, &o->count))
			return options_err(err, errlen, "-c needs a count of 1 or more, not '%s'",
					   arg);
		return EXIT_OK;
	case 'h':
		o->mode = MODE_HELP;
		return EXIT_OK;
	case 'V':
		o->mode = MODE_VERSION;
		return EXIT_OK;
	case OPT_LIST_OPTIONS:
		o->mode = MODE_LIST_OPTIONS;
		return EXIT_OK;
	case OPT_BUDGET:
		return options_set_mode(o, MODE_BUDGET, err, errlen);
	case OPT_BATCH:
		return options_set_mode(o, MODE_BATCH, err, errlen);
	case OPT_SWEEP:
		return options_set_mode(o, MODE_SWEEP, err, errlen);
	case OPT_DIAGNOSE:
		return options_set_mode(o, MODE_DIAGNOSE, err, errlen);
	case OPT_HEADLESS:
		return options_set_mode(o, MODE_HEADLESS, err, errlen);
	case OPT_SERVE:
	case OPT_MATCH:
	case OPT_TLS_CERT:
	case OPT_TLS_KEY:
	case OPT_BASIC_AUTH:
	case OPT_METRICS_MAX_THREADS:
		return options_exporter(o, c, arg, err, errlen);
	case OPT_TREE:
		o->tree = true;
		return EXIT_OK;
	case OPT_FORMAT: {
		int f = options_args_choice(format_names(), arg);
		if (f < 0)
			return options_err(err, errlen,
					   "--format takes text, csv or json, not '%s'", arg);
		o->format = (enum format)f;
		o->format_set = true;
		return EXIT_OK;
	}
	case OPT_THREADS:
		o->nthread_list =
		    options_args_list(arg, options_args_knob_lo(KNOB_THREADS),
				      options_args_knob_hi(KNOB_THREADS), o->thread_list);
		if (!o->nthread_list)
			return options_err(
			    err, errlen,
			    "--threads takes %ld to %ld (or a list such as 1,2,4), not '%s'",
			    options_args_knob_lo(KNOB_THREADS), options_args_knob_hi(KNOB_THREADS),
			    arg);
		o->threads = o->thread_list[0];
		return EXIT_OK;
	case OPT_STREAMS:
		o->nstream_list =
		    options_args_list(arg, options_args_knob_lo(KNOB_STREAMS),
				      options_args_knob_hi(KNOB_STREAMS), o->stream_list);
		if (!o->nstream_list)
			return options_err(
			    err, errlen,
			    "--streams takes %ld to %ld (or a list such as 1,2), not '%s'",
			    options_args_knob_lo(KNOB_STREAMS), options_args_knob_hi(KNOB_STREAMS),
			    arg);
		o->streams = o->stream_list[0];
		return EXIT_OK;
	case OPT_SIZE:
		if (!options_args_long_int(arg, options_args_knob_lo(KNOB_SIZE),
					   options_args_knob_hi(KNOB_SIZE), &v))
			return options_err(err, errlen, "--size takes %ld to %ld, not '%s'",
					   options_args_knob_lo(KNOB_SIZE),
					   options_args_knob_hi(KNOB_SIZE), arg);
		o->size = (int)v;
		return EXIT_OK;
	case OPT_PRECISION: {
		int p = options_args_choice(options_args_precision_values(), arg);
		if (p < 0 && (strcmp(arg, "s") == 0 || strcmp(arg, "d") == 0))
			p = arg[0] == 'd' ? SETTINGS_DOUBLE : SETTINGS_SINGLE;
		if (p < 0)
			return options_err(err, errlen,
					   "--precision takes single or double, not '%s'", arg);
		o->precision = p;
		return EXIT_OK;
	}
	case OPT_KERNEL: {
		int k = options_args_choice(settings_kernel_names(), arg);
		if (k < 0)
			return options_err(err, errlen, "--kernel takes gemm or triad, not '%s'",
					   arg);
		o->kernel = k;
		return EXIT_OK;
	}
	case OPT_CPUS:
		if (!options_args_double(arg, knobs_get(KNOB_CPUS)->min, knobs_get(KNOB_CPUS)->max,
					 &o->cpus))
			return options_err(err, errlen,
					   "--cpus takes a CPU count above 0 such as 1.5, not '%s'",
					   arg);
		return EXIT_OK;
	case OPT_WORKERS:
		if (!options_args_long_int(arg, options_args_knob_lo(KNOB_WORKERS),
					   options_args_knob_hi(KNOB_WORKERS), &v))
			return options_err(err, errlen, "--workers takes %ld to %ld, not '%s'",
					   options_args_knob_lo(KNOB_WORKERS),
					   options_args_knob_hi(KNOB_WORKERS), arg);
		o->workers = (int)v;
		return EXIT_OK;
	case OPT_LOADERS:
		o->nloader_list =
		    options_args_list(arg, options_args_knob_lo(KNOB_LOADERS),
				      options_args_knob_hi(KNOB_LOADERS), o->loader_list);
		if (!o->nloader_list)
			return options_err(
			    err, errlen,
			    "--loaders takes %ld to %ld (or a list such as 1,2,3), not '%s'",
			    options_args_knob_lo(KNOB_LOADERS), options_args_knob_hi(KNOB_LOADERS),
			    arg);
		o->loaders = o->loader_list[0];
		return EXIT_OK;
	case OPT_PREP_MS:
		if (!options_args_long_int(arg, options_args_knob_lo(KNOB_PREP_MS),
					   options_args_knob_hi(KNOB_PREP_MS), &v))
			return options_err(err, errlen, "--prep-ms takes %ld to %ld ms, not '%s'",
					   options_args_knob_lo(KNOB_PREP_MS),
					   options_args_knob_hi(KNOB_PREP_MS), arg);
		o->prep_ms = (int)v;
		return EXIT_OK;
	case OPT_PREFETCH:
		if (!options_args_long_int(arg, options_args_knob_lo(KNOB_PREFETCH),
					   options_args_knob_hi(KNOB_PREFETCH), &v))
			return options_err(err, errlen, "--prefetch takes %ld to %ld, not '%s'",
					   options_args_knob_lo(KNOB_PREFETCH),
					   options_args_knob_hi(KNOB_PREFETCH), arg);
		o->prefetch = (int)v;
		return EXIT_OK;
	case OPT_BLAS: {
		enum settings_blas b;
		if (settings_blas_parse(arg, &b) < 0)
			return options_err(err, errlen, "--blas takes pthreads or openmp, not '%s'",
					   arg);
		o->blas = (int)b;
		return EXIT_OK;
	}
	case OPT_TOUR:
		o->tour = true;
		return EXIT_OK;
	case OPT_TOUR_STEP:
		if (!options_args_double(arg, 0.5, 600, &o->tour_step))
			return options_err(err, errlen,
					   "--tour-step takes 0.5 to 600 seconds, not '%s'", arg);
		o->tour_step_set = true;
		return EXIT_OK;
	case OPT_TOUR_NOTES:
		if (!arg[0])
			return options_err(err, errlen, "--tour-notes needs a file name");
		o->tour_notes = arg;
		return EXIT_OK;
	case OPT_BLAS_SPIN: {
		int m = options_args_choice(options_args_spin_values(), arg);
		if (m < 0)
			return options_err(err, errlen,
					   "--blas-spin takes default or off, not '%s'", arg);
		o->spin_off = m == 1;
		return EXIT_OK;
	}
	case OPT_SECONDS:
		if (!options_args_double(arg, 0.1, 3600, &o->seconds))
			return options_err(err, errlen,
					   "--seconds takes 0.1 to 3600 seconds, not '%s'", arg);
		o->seconds_set = true;
		return EXIT_OK;
	case OPT_ROOT:
		o->root = arg;
		return EXIT_OK;
	case OPT_NO_COLOR:
		o->no_color = true;
		return EXIT_OK;
	case OPT_ROOFLINE:
		o->roofline = true;
		return EXIT_OK;
	case OPT_RECORD:
		if (!arg[0])
			return options_err(err, errlen, "--record needs a file name");
		o->record = arg;
		return EXIT_OK;
	case OPT_REPLAY:
		if (!arg[0])
			return options_err(err, errlen, "--replay needs a file name");
		o->replay = arg;
		return EXIT_OK;
	default:
		if (c >= OPT_TUNE_FIRST && c < OPT_TUNE_END)
			return options_tune_one(o, c, arg, err, errlen);
		if (c >= OPT_COLLECTOR_FIRST && c < OPT_COLLECTOR_END)
			return options_collector_one(o, c, arg, err, errlen);
		if (c >= OPT_DIAG_FIRST && c < OPT_DIAG_END)
			return options_diag_one(o, c);
		if (c >= OPT_ALL_FIRST && c < OPT_ALL_END)
			return options_all_one(o, c, arg, err, errlen);
		return EXIT_USAGE;
	}
}

/* --replay shows what was recorded: nothing of the live session applies. */
static int options_check_replay(const struct options *o, char *err, size_t errlen)
{
	if (o->pid || o->command || o->lab_flag || o->tour)
		return options_err(
		    err, errlen,
		    "--replay shows a recording: drop -p, -- CMD, --tour and workload "
		    "knobs");
	if (o->mode == MODE_SWEEP || o->mode == MODE_BUDGET)
		return options_err(err, errlen, "--replay takes the dashboard or --batch");
	if (o->record)
		return options_err(err, errlen, "--replay and --record exclude each other");
	if (o->interval_set)
		return options_err(err, errlen,
				   "-i does not apply to --replay: the recorded interval is kept "
				   "(keys 1 2 4 8 set the speed)");
	if (o->tree || strcmp(o->root, "/") != 0)
		return options_err(err, errlen, "--replay takes no --tree or --root");
	if (o->mode == MODE_DASHBOARD && o->format_set)
		return options_err(err, errlen, "--format is for --replay with --batch");
	return EXIT_OK;
}

/* --serve and its companions; --headless and --match. */
static int options_check_exporter(const struct options *o, char *err, size_t errlen)
{
	if (!o->serve && (o->tls_cert || o->tls_key || o->basic_auth || o->metrics_max_threads_set))
		return options_err(err, errlen,
				   "--tls-cert, --tls-key, --basic-auth and --metrics-max-threads "
				   "go with --serve");
	if (o->serve && o->replay)
		return options_err(err, errlen,
				   "--serve exports what is sampled live; --replay samples nothing: "
				   "drop --serve");
	if (o->serve && o->tour && o->mode == MODE_BATCH)
		return options_err(err, errlen,
				   "--tour --batch serves nothing: --serve goes with the tour in the "
				   "dashboard");
	if (o->serve && (o->mode == MODE_BUDGET || o->mode == MODE_SWEEP ||
			 o->mode == MODE_DIAGNOSE))
		return options_err(err, errlen,
				   "--serve goes with the dashboard, --batch or --headless");
	if (o->mode == MODE_HEADLESS && !o->serve && !o->record)
		return options_err(err, errlen,
				   "--headless shows nothing: give it --serve [ADDR:]PORT (or "
				   "--record FILE)");
	if (o->mode == MODE_HEADLESS && o->format_set)
		return options_err(err, errlen, "--headless prints nothing: drop --format");
	if (o->match && o->mode != MODE_HEADLESS)
		return options_err(err, errlen,
				   "--match follows many processes: use it with --headless "
				   "--serve");
	if (o->match && (o->pid || o->command || o->lab_flag))
		return options_err(err, errlen,
				   "--match finds its targets: drop -p, -- CMD and workload knobs");
	if (o->match && o->record)
		return options_err(err, errlen, "--record takes one target, not --match");
	return o->match ? options_tune_regex_check("--match", o->match, err, errlen) : EXIT_OK;
}

static int options_check_rules(struct options *o, char *err, size_t errlen)
{
	int rc = options_check_exporter(o, err, errlen);
	if (rc == EXIT_OK)
		rc = options_tune_check(o, err, errlen);
	if (rc == EXIT_OK)
		rc = options_collector_check(o, err, errlen);
	if (rc == EXIT_OK)
		rc = options_diag_check(o, err, errlen);
	if (rc == EXIT_OK)
		rc = options_all_check(o, err, errlen);
	if (rc != EXIT_OK)
		return rc;
	bool cmd_sweep = o->mode == MODE_SWEEP && o->command; /* --cpus applies */
	if (o->replay)
		return options_check_replay(o, err, errlen);
	if (o->pid && o->command)
		return options_err(err, errlen, "-p and -- CMD exclude each other");
	if (o->mode == MODE_SWEEP && (o->pid || (o->command && !o->nenv)))
		return options_err(err, errlen,
				   "--sweep runs the built-in workload: drop -p / -- CMD");
	if (o->mode == MODE_BUDGET && o->command)
		return options_err(err, errlen, "--budget reads a running process: use -p PID");
	if (o->tree && !o->pid && !o->command && !o->match)
		return options_err(err, errlen,
				   "--tree needs a target (-p PID or -- CMD); the workload is "
				   "always followed whole");
	if ((cmd_sweep ? o->lab_flag_other : o->lab_flag) && (o->pid || o->command))
		return options_err(
		    err, errlen,
		    "--%s sets the built-in workload; it does not apply to -p / -- CMD",
		    o->lab_flag);
	if (o->lab_flag && o->mode == MODE_BUDGET)
		return options_err(err, errlen, "--budget takes -p and --format only, not --%s",
				   o->lab_flag);
	if (o->mode == MODE_DIAGNOSE && o->format == FORMAT_CSV)
		return options_err(err, errlen, "--diagnose prints text or json, not csv");
	if (o->interval_set && (o->mode == MODE_BUDGET || o->mode == MODE_SWEEP))
		return options_err(err, errlen, "-i is for --batch and the dashboard%s",
				   o->mode == MODE_SWEEP ? "; --sweep uses --seconds" : "");
	if (o->mode != MODE_SWEEP &&
	    (o->nthread_list > 1 || o->nstream_list > 1 || o->nloader_list > 1))
		return options_err(
		    err, errlen, "lists of --threads, --streams or --loaders are for --sweep only");
	if ((o->tour_step_set || o->tour_notes) && !o->tour)
		return options_err(err, errlen, "--tour-step and --tour-notes go with --tour");
	if (o->tour_notes && o->mode != MODE_DASHBOARD)
		return options_err(err, errlen,
				   "--tour-notes is for the dashboard's tour; --tour --batch "
				   "prints the same on stdout");
	if (o->tour && (o->pid || o->command || o->record || o->replay ||
			(o->mode != MODE_DASHBOARD && o->mode != MODE_BATCH)))
		return options_err(err, errlen,
				   "--tour runs the built-in workload in the dashboard or with "
				   "--batch: drop -p, -- CMD, --record, --replay and other modes");
	if (o->tour && o->count)
		return options_err(err, errlen, "--tour runs its own steps: drop -c");
	if (o->tour && o->format == FORMAT_CSV)
		return options_err(err, errlen, "--tour --batch prints text or json, not csv");
	if (o->tour && o->mode == MODE_DASHBOARD && o->format_set)
		return options_err(err, errlen, "--format is for --tour --batch");
	if (o->mode == MODE_BUDGET && o->format == FORMAT_CSV)
		return options_err(err, errlen, "--budget prints text or json, not csv");
	if (o->mode == MODE_DASHBOARD && o->format_set && !o->tour)
		return options_err(err, errlen, "--format is for --batch, --budget and --sweep");
	if (strcmp(o->root, "/") != 0 && o->mode != MODE_BUDGET && o->mode != MODE_BATCH)
		return options_err(err, errlen, "--root is for --budget and --batch");
	/* A tree other than / has no "this process": it names its own PIDs. */
	if (strcmp(o->root, "/") != 0 && !o->pid && !o->all)
		return options_err(err, errlen,
				   "--root needs -p PID (a process under DIR/proc to read) or --all");
	return EXIT_OK;
}

/* The rules between options first (their messages say more), then the
 * table's modes and targets of each option given. */
static int options_check(struct options *o, char *err, size_t errlen)
{
	if (o->mode == MODE_HELP || o->mode == MODE_VERSION || o->mode == MODE_LIST_OPTIONS)
		return EXIT_OK;
	int rc = options_check_rules(o, err, errlen);
	unsigned target = o->replay    ? OPTIONS_FOR_REPLAY
			  : o->all     ? OPTIONS_FOR_ALL
			  : o->match   ? OPTIONS_FOR_MATCH
			  : o->pid     ? OPTIONS_FOR_PID
			  : o->command ? OPTIONS_FOR_CMD
				       : OPTIONS_FOR_LAB;
	return rc == EXIT_OK ? options_table_check(o->given, o->mode, target, err, errlen) : rc;
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	options_defaults(o);
	o->argc = argc;
	o->argv = argv;
	err[0] = '\0';
	opterr = 0;
	optind = 1;
	for (;;) {
		int idx = 0;
		/* The leading ':' makes getopt return ':' for a missing value,
		 * for long options as for short ones. */
		int c =
		    getopt_long(argc, argv, options_table_shorts(), options_table_getopt(), &idx);
		if (c == -1)
			break;
		if (c == ':') {
			if (optopt > 0 && optopt < 256 && options_table_index(optopt) >= 0)
				return options_err(err, errlen, "option -%c needs a value", optopt);
			return options_err(err, errlen, "%s needs a value", argv[optind - 1]);
		}
		if (c == '?')
			return options_err(err, errlen, "unknown option '%s' (see --help)",
					   argv[optind - 1]);
		int rc = options_one(o, c, optarg, err, errlen);
		if (rc != EXIT_OK)
			return rc;
	}
	if (optind < argc) {
		/* getopt stops at "--" and consumes it; anything else left is stray */
		if (strcmp(argv[optind - 1], "--") != 0)
			return options_err(
			    err, errlen,
			    "unexpected argument '%s' (to launch a command, put -- before it)",
			    argv[optind]);
		o->command = &argv[optind];
	} else if (optind > 1 && strcmp(argv[optind - 1], "--") == 0) {
		return options_err(err, errlen, "-- must be followed by a command to launch");
	}
	return options_check(o, err, errlen);
}
