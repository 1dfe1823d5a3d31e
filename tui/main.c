/* main.c — threadlab's entry point: parse the command line, run one mode. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "options.h"
#include "text-safe.h"

int main(int argc, char **argv)
{
	struct options o;
	char err[512];

	setlocale(LC_ALL, "");
	text_safe_init();
	int rc = options_parse(argc, argv, &o, err, sizeof(err));
	if (rc != EXIT_OK) {
		fprintf(stderr, "threadlab: %s\n", err);
		fprintf(stderr, "Try 'threadlab --help' for more information.\n");
		return rc;
	}
	switch (o.mode) {
	case MODE_HELP:
		options_usage(stdout);
		return EXIT_OK;
	case MODE_VERSION:
		printf("%s\n", PACKAGE_STRING);
		return EXIT_OK;
	case MODE_BUDGET:
		return batch_budget(&o);
	case MODE_BATCH:
		return batch_run(&o);
	case MODE_SWEEP:
	case MODE_DASHBOARD:
	default:
		fprintf(stderr, "threadlab: this mode is not built yet; use --batch\n");
		return EXIT_RUNTIME;
	}
}
