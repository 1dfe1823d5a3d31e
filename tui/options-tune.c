/* options-tune.c — --progress, --log and the command sweep's options. */
#include "config.h"

#include "options-tune.h"
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "options-args.h"
#include "pattern.h"

int options_tune_regex_check(const char *opt, const char *re, char *err, size_t errlen)
{
	struct pattern *p = pattern_compile(opt, re, err, errlen);
	if (!p)
		return EXIT_USAGE;
	pattern_free(p);
	return EXIT_OK;
}

void options_tune_defaults(struct options *o)
{
	o->warmup = SWEEP_CMD_WARMUP_DEFAULT;
	o->repeat = SWEEP_CMD_REPEAT_DEFAULT;
}

int options_tune_one(struct options *o, int c, const char *arg, char *err, size_t errlen)
{
	char why[256];
	struct sweep_cmd_opts probe;
	switch (c) {
	case OPT_PROGRESS:
		o->progress = arg;
		return EXIT_OK;
	case OPT_PROGRESS_RATE:
		o->progress_rate = true;
		return EXIT_OK;
	case OPT_PROGRESS_FILE:
		if (!arg[0])
			return options_err(err, errlen, "--progress-file needs a file name");
		o->progress_file = arg;
		return EXIT_OK;
	case OPT_LOG:
		if (!arg[0])
			return options_err(err, errlen, "--log needs a file name");
		o->log = arg;
		return EXIT_OK;
	case OPT_ENV:
		/* Checked now, so the message names the bad one. */
		sweep_cmd_opts_default(&probe);
		if (sweep_cmd_add_knob(&probe, arg, why, sizeof(why)) < 0)
			return options_err(err, errlen, "%s", why);
		if (o->nenv == OPT_LIST_MAX || o->nenv == SWEEP_CMD_KNOBS)
			return options_err(err, errlen, "--env: at most %d variables",
					   SWEEP_CMD_KNOBS);
		o->env[o->nenv++] = arg;
		return EXIT_OK;
	case OPT_GRID:
		o->grid = true;
		return EXIT_OK;
	case OPT_WARMUP:
		if (!options_args_double(arg, 0, 3600, &o->warmup))
			return options_err(err, errlen,
					   "--warmup takes 0 to 3600 seconds, not '%s'", arg);
		o->warmup_set = true;
		return EXIT_OK;
	case OPT_REPEAT: {
		char *end;
		long v = strtol(arg, &end, 10);
		if (end == arg || *end || v < 1 || v > SWEEP_CMD_REPEAT)
			return options_err(err, errlen, "--repeat takes 1 to %d, not '%s'",
					   SWEEP_CMD_REPEAT, arg);
		o->repeat = (int)v;
		return EXIT_OK;
	}
	default:
		return EXIT_USAGE;
	}
}

int options_tune_check(const struct options *o, char *err, size_t errlen)
{
	bool cmd_sweep = o->mode == MODE_SWEEP && o->command;
	if (o->progress) {
		if (options_tune_regex_check("--progress", o->progress, err, errlen) != EXIT_OK)
			return EXIT_USAGE;
		if (!o->command && !o->progress_file)
			return options_err(err, errlen,
					   "--progress reads a job's output: give -- CMD, or "
					   "-p PID with --progress-file PATH");
		if (o->mode != MODE_DASHBOARD && o->mode != MODE_BATCH &&
		    o->mode != MODE_HEADLESS && o->mode != MODE_SWEEP)
			return options_err(err, errlen,
					   "--progress is for the dashboard, --batch, "
					   "--headless and --sweep");
	}
	if ((o->progress_rate || o->progress_file) && !o->progress)
		return options_err(err, errlen,
				   "--progress-rate and --progress-file go with --progress "
				   "REGEX");
	if (o->progress_file && (o->command || !o->pid))
		return options_err(err, errlen,
				   "--progress-file is for -p PID (with -- CMD the output "
				   "is read directly)");
	if (o->log && o->mode != MODE_DASHBOARD && !(o->mode == MODE_SWEEP && o->command))
		return options_err(err, errlen,
				   "--log is the experiment log of the dashboard (keys m and "
				   "e) or of --sweep --env … -- CMD");
	if (o->mode == MODE_SWEEP && o->command && !o->nenv)
		return options_err(err, errlen,
				   "--sweep -- CMD needs the settings: --env NAME=V1,V2");
	if ((o->nenv || o->grid || o->warmup_set || o->repeat > 1) && !cmd_sweep)
		return options_err(err, errlen,
				   "--env, --grid, --warmup and --repeat are for --sweep "
				   "--env NAME=V1,V2 -- CMD");
	if (cmd_sweep && (o->lab_flag_other || o->pid || o->record))
		return options_err(err, errlen,
				   "--sweep -- CMD takes --env, --seconds, --warmup, "
				   "--repeat, --progress, --cpus and --format");
	return EXIT_OK;
}

void options_tune_session(const struct options *o, struct session_config *c)
{
	c->progress = o->progress;
	c->progress_rate = o->progress_rate;
	c->progress_file = o->progress_file;
	if (o->progress && o->command)
		c->stdio = SESSION_STDIO_PIPE;
}

void options_tune_sweep(const struct options *o, struct sweep_cmd_opts *so)
{
	char err[256];
	sweep_cmd_opts_default(so);
	for (size_t i = 0; i < o->nenv; i++)
		sweep_cmd_add_knob(so, o->env[i], err, sizeof(err));
	so->grid = o->grid;
	so->seconds = o->seconds_set ? o->seconds : so->seconds;
	so->warmup = o->warmup;
	so->progress = o->progress;
	so->progress_rate = o->progress_rate;
	so->cpus = o->cpus;
	so->repeat = o->repeat;
	so->command = o->command;
}
