/* options-usage.c — the --help text from the option table
 * (options-usage.h). */
#include "config.h"

#include "options-usage.h"

#include <string.h>

#include "options-table.h"

#define USAGE_WIDTH    86 /* lines of at most 85 columns */
#define USAGE_HELP_COL 24 /* where help lines start */

/* Each section's title and the lines after its options (NULL: none). */
static const struct {
	const char *title;
	const char *after;
} options_usage_sections[OPTIONS_SEC_END] = {
    [OPTIONS_SEC_MODES] = {"Modes:", NULL},
    [OPTIONS_SEC_TARGET] = {"Target (default: the built-in workload):",
			    "      -- CMD [ARG]...   start CMD and monitor it (it is stopped when "
			    "threadlab quits)\n"},
    [OPTIONS_SEC_OUTPUT] = {"Sampling and output:", NULL},
    [OPTIONS_SEC_EXPORTER] = {"Prometheus exporter (beside the dashboard, --batch or --headless):",
			      NULL},
    [OPTIONS_SEC_TUNE] = {"Tuning a real job (the job's progress, the experiment log, a command "
			  "sweep):",
			  NULL},
    [OPTIONS_SEC_COLLECTOR] = {"Collector (how threads are read):", NULL},
    [OPTIONS_SEC_DIAG] = {"Whose processes, how strict:", NULL},
    [OPTIONS_SEC_KNOBS] = {"Workload knobs (also keys in the dashboard):",
			   "      With --sweep, --threads, --streams and --loaders take lists such "
			   "as 1,2,3,4.\n"},
    [OPTIONS_SEC_INFO] = {"", NULL},
};

/* clang-format off */
static const char options_usage_synopsis[] =
	"Usage: threadlab [OPTION]...                  dashboard on the built-in GEMM workload\n"
	"       threadlab -p PID [--tree] [OPTION]...  attach to a running process\n"
	"       threadlab [OPTION]... -- CMD [ARG]...  launch CMD and monitor it\n"
	"       threadlab --budget [-p PID] [--format text|json]\n"
	"       threadlab --batch [-p PID | -- CMD] [-i SECONDS] [-c COUNT] [--format text|csv|json]\n"
	"       threadlab --sweep [--threads LIST] [--streams LIST] [--seconds S] [--format ...]\n"
	"       threadlab --sweep --env NAME=V1,V2 [--progress REGEX] [--cpus X] -- CMD [ARG]...\n"
	"       threadlab --replay FILE [--batch [--format text|csv|json]]\n"
	"       threadlab --diagnose [-p PID | -- CMD] [--tree] [--strict] [--seconds S] [--format text|json]\n"
	"       threadlab --headless --serve [ADDR:]PORT [-p PID | -- CMD | --match REGEX] [--tree]\n"
	"       threadlab --tour [--tour-step S] [--batch [--format text|json]]\n"
	"\n"
	"Shows how threads meet the CPU budget: per-thread CPU, run-queue wait and\n"
	"context switches, the cgroup's quota, throttling and pressure, and the\n"
	"GFLOP/s of an OpenBLAS workload against the core-count ceiling.\n";

static const char options_usage_status[] =
	"Exit status: 0 success; 1 failure while running; 2 bad arguments, no such\n"
	"process or a process that may not be read; 3 out of memory; 4 no usable\n"
	"terminal for the dashboard (use --batch).\n"
	"See threadlab(1).\n";
/* clang-format on */

/* Prints text from column col, wrapped at spaces before USAGE_WIDTH;
 * continuation lines start at USAGE_HELP_COL. */
static void options_usage_wrap(FILE *f, size_t col, const char *text)
{
	while (*text) {
		size_t room = col < USAGE_WIDTH - 20 ? USAGE_WIDTH - 1 - col : 20;
		size_t len = strlen(text), cut = len;
		if (len > room) {
			cut = room;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0) /* one long word: break after it */
				cut = strcspn(text, " ");
		}
		fprintf(f, "%.*s\n", (int)cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		if (*text)
			fprintf(f, "%*s", USAGE_HELP_COL, "");
		col = USAGE_HELP_COL;
	}
}

/* e's help line (a knob's: the knob table's) with each "%g" the next of
 * its defaults and "%s" its text default.  Returns the bytes written. */
static size_t options_usage_help(const struct options_entry *e, char *out, size_t cap)
{
	size_t n = 0, d = 0;
	const struct knob *k = knobs_get(knobs_of_option(e->name));
	const char *help = e->help ? e->help : k ? k->help : "";
	for (const char *p = help; *p && n + 1 < cap; p++) {
		if (p[0] == '%' && p[1] == 'g' && d < OPTIONS_DEFS) {
			int w = snprintf(out + n, cap - n, "%g", e->def[d++]);
			n = w < 0 ? n : n + (size_t)w < cap ? n + (size_t)w : cap - 1;
			p++;
		} else if (p[0] == '%' && p[1] == 's' && e->sdef) {
			int w = snprintf(out + n, cap - n, "%s", e->sdef);
			n = w < 0 ? n : n + (size_t)w < cap ? n + (size_t)w : cap - 1;
			p++;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = '\0';
	return n;
}

/* "  -p, --pid PID" or "      --tree", then its help line. */
static void options_usage_entry(FILE *f, const struct options_entry *e)
{
	char left[64];
	if (e->val < 256)
		snprintf(left, sizeof(left), "  -%c, --%s%s%s", e->val, e->name,
			 e->placeholder ? " " : "", e->placeholder ? e->placeholder : "");
	else
		snprintf(left, sizeof(left), "      --%s%s%s", e->name, e->placeholder ? " " : "",
			 e->placeholder ? e->placeholder : "");
	size_t n = strlen(left);
	if (n + 2 <= USAGE_HELP_COL) {
		fprintf(f, "%-*s", USAGE_HELP_COL, left);
		n = USAGE_HELP_COL;
	} else {
		fprintf(f, "%s  ", left);
		n += 2;
	}
	/* A knob option's range and default are the knob table's. */
	char help[512];
	size_t len = options_usage_help(e, help, sizeof(help));
	if (len < sizeof(help))
		knobs_describe(knobs_of_option(e->name), help + len, sizeof(help) - len);
	options_usage_wrap(f, n, help);
}

void options_usage(FILE *f)
{
	fputs(options_usage_synopsis, f);
	for (int s = 0; s < OPTIONS_SEC_HIDDEN; s++) {
		fputc('\n', f);
		if (options_usage_sections[s].title[0])
			fprintf(f, "%s\n", options_usage_sections[s].title);
		for (size_t i = 0; i < options_table_count(); i++)
			if (options_table_at(i)->section == (enum options_section)s)
				options_usage_entry(f, options_table_at(i));
		if (options_usage_sections[s].after)
			fputs(options_usage_sections[s].after, f);
	}
	fputc('\n', f);
	fputs(options_usage_status, f);
}
