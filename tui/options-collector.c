/* options-collector.c — --collector and --bpf-threads (options-collector.h). */
#include "config.h"

#include "options-collector.h"

#include <stdlib.h>
#include <string.h>

#include "options-args.h"
#include "options-tune.h"
#include "options.h"

int options_collector_one(struct options *o, int c, const char *arg, char *err, size_t errlen)
{
	if (c == OPT_COLLECTOR) {
		int w = options_args_choice(collector_want_names(), arg);
		if (w < 0)
			return options_err(err, errlen,
					   "--collector takes auto, bpf or proc, not '%s'", arg);
		o->collector = w;
		o->collector_set = true;
		return EXIT_OK;
	}
	char *end;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || v < 16 || v > 262144)
		return options_err(err, errlen, "--bpf-threads takes 16 to 262144, not '%s'", arg);
	o->bpf_threads = (unsigned)v;
	return EXIT_OK;
}

bool options_collector_live(const struct options *o)
{
	if (o->replay)
		return false;
	switch (o->mode) {
	case MODE_DASHBOARD:
	case MODE_BATCH:
	case MODE_DIAGNOSE:
	case MODE_HEADLESS:
		return true;
	case MODE_SWEEP:
		return !o->command; /* the lab's sweep samples its workload */
	default:
		return false;
	}
}

int options_collector_check(const struct options *o, char *err, size_t errlen)
{
	if ((o->collector_set || o->bpf_threads) && !options_collector_live(o))
		return options_err(err, errlen,
				   "--collector and --bpf-threads are for modes that sample live "
				   "threads (not --budget, --replay or --sweep -- CMD)");
	if (o->collector == COLLECTOR_BPF && strcmp(o->root, "/") != 0)
		return options_err(err, errlen,
				   "--collector bpf reads the live machine: drop --root");
	if (o->bpf_threads && o->collector == COLLECTOR_PROC)
		return options_err(err, errlen, "--bpf-threads goes with --collector auto or bpf");
	return EXIT_OK;
}

void options_collector_opts(const struct options *o, struct collector_opts *co)
{
	co->want = (enum collector_want)o->collector;
	co->bpf_threads = o->bpf_threads;
	co->live = strcmp(o->root, "/") == 0;
}
