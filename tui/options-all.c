/* options-all.c — --all, --top and --kernel-threads (options-all.h). */
#include "config.h"

#include "options-all.h"

#include <limits.h>

#include "neighbours.h"
#include "options-args.h"
#include "options-tune.h"
#include "options.h"

int options_all_one(struct options *o, int c, const char *arg, char *err, size_t errlen)
{
	switch (c) {
	case OPT_ALL:
		o->all = true;
		return EXIT_OK;
	case OPT_KERNEL_THREADS:
		o->kernel_threads = true;
		return EXIT_OK;
	case OPT_METRICS_MAX_PROCESSES:
		if (!options_args_long_int(arg, 1, 1000000, &o->metrics_max_processes))
			return options_err(err, errlen,
					   "--metrics-max-processes takes 1 to 1000000, not '%s'", arg);
		o->metrics_max_processes_set = true;
		return EXIT_OK;
	default:
		if (!options_args_long_int(arg, 1, INT_MAX, &o->top))
			return options_err(err, errlen, "--top needs a count of 1 or more, not '%s'",
					   arg);
		return EXIT_OK;
	}
}

int options_all_check(const struct options *o, char *err, size_t errlen)
{
	if (o->metrics_max_processes_set && !o->serve)
		return options_err(err, errlen, "--metrics-max-processes goes with --serve");
	if (!o->all)
		return EXIT_OK;
	if (o->pid || o->command || o->match || o->replay || o->tour)
		return options_err(err, errlen,
				   "--all watches every process: drop -p, -- CMD, --match, --replay "
				   "and --tour");
	/* The dashboard's attach screens stop the ranking: /metrics would
	 * serve a stale one for as long as one is open. */
	if (o->mode == MODE_DASHBOARD && o->serve)
		return options_err(err, errlen,
				   "--all --serve exports from --headless or --batch (threadlab "
				   "--headless --all --serve %s): the dashboard's attach screens stop "
				   "the ranking",
				   o->serve);
	/* One window: the ranking at its start and at its end. */
	if (o->mode == MODE_DIAGNOSE && o->interval_set)
		return options_err(err, errlen,
				   "--diagnose --all measures the whole --seconds window at once: "
				   "drop -i");
	/* The machine is read at most once a second (neighbours.h). */
	if (o->mode == MODE_DIAGNOSE && o->seconds_set && o->seconds < NEIGHBOURS_PERIOD_S)
		return options_err(err, errlen,
				   "--all reads the whole machine at most once a second: --seconds 1 "
				   "or more, not %g",
				   o->seconds);
	if (o->interval_set && o->interval < NEIGHBOURS_PERIOD_S)
		return options_err(err, errlen,
				   "--all reads the whole machine at most once a second: -i 1 or "
				   "more, not %g",
				   o->interval);
	return EXIT_OK;
}
