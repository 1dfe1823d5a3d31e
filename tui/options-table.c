/* options-table.c — the table of threadlab's options (options-table.h). */
#include "config.h"

#include "options-table.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "collector.h"
#include "format.h"
#include "labview.h"
#include "metrics.h"
#include "options.h"
#include "ranking-out.h"
#include "serve.h"
#include "sweep-cmd.h"
#include "sweep.h"

#define IN(m) OPTIONS_IN(MODE_##m)
/* Modes that sample live threads (the lab's --sweep samples its own). */
#define LIVE	(IN(DASHBOARD) | IN(BATCH) | IN(SWEEP) | IN(DIAGNOSE) | IN(HEADLESS))
#define SERVING (IN(DASHBOARD) | IN(BATCH) | IN(HEADLESS))
#define LAB	(OPTIONS_IN_ALL & ~IN(BUDGET))
/* The targets an option applies to. */
#define FOR(t) OPTIONS_FOR_##t

/* In --help's order within each section.  An entry whose help names no
 * default leaves def[] out. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct options_entry options_table_entries[] = {
    /* clang-format off */
    {"budget", OPT_BUDGET, OPTIONS_ARG_NONE, NULL, IN(BUDGET), NULL, OPTIONS_SEC_MODES, NULL,
     "print the effective CPU budget (a more honest nproc)", 0},
    {"batch", OPT_BATCH, OPTIONS_ARG_NONE, NULL, IN(BATCH), NULL, OPTIONS_SEC_MODES, NULL,
     "print samples on stdout instead of drawing a dashboard", 0},
    {"sweep", OPT_SWEEP, OPTIONS_ARG_NONE, NULL, IN(SWEEP), NULL, OPTIONS_SEC_MODES, NULL,
     "run the workload over thread counts, print a scaling table", 0},
    {"diagnose", OPT_DIAGNOSE, OPTIONS_ARG_NONE, NULL, IN(DIAGNOSE), NULL, OPTIONS_SEC_MODES, NULL,
     "sample S seconds (default %g), print the verdict: exit 0 fine or idle, 1 oversubscribed, "
     "throttled, contended or undersubscribed", 0, {OPTIONS_DIAGNOSE_SECONDS_DEFAULT}},
    {"headless", OPT_HEADLESS, OPTIONS_ARG_NONE, NULL, IN(HEADLESS), NULL, OPTIONS_SEC_MODES, NULL,
     "sample with nothing on screen (for --serve, --record)", 0},
    {"tour", OPT_TOUR, OPTIONS_ARG_NONE, NULL, IN(DASHBOARD) | IN(BATCH), NULL, OPTIONS_SEC_MODES,
     NULL, "a guided tour of the lab: lessons with captions written from the numbers just "
     "measured (--batch: print them)",
     FOR(LAB)},
    {"tour-step", OPT_TOUR_STEP, OPTIONS_ARG_DOUBLE, NULL, IN(DASHBOARD) | IN(BATCH), NULL,
     OPTIONS_SEC_MODES, "S", "seconds measured per tour step (default %g)",
     FOR(LAB), {OPTIONS_TOUR_STEP_DEFAULT}},
    {"tour-notes", OPT_TOUR_NOTES, OPTIONS_ARG_FILE, NULL, IN(DASHBOARD), NULL, OPTIONS_SEC_MODES,
     "FILE", "the dashboard's tour: append each step as JSON to FILE",
     FOR(LAB)},

    {"pid", 'p', OPTIONS_ARG_PID, NULL, OPTIONS_IN_ALL & ~IN(SWEEP), NULL, OPTIONS_SEC_TARGET,
     "PID", "monitor process PID",
     FOR(PID)},
    {"all", OPT_ALL, OPTIONS_ARG_NONE, NULL,
     IN(DASHBOARD) | IN(BATCH) | IN(DIAGNOSE) | IN(HEADLESS), NULL, OPTIONS_SEC_TARGET, NULL,
     "every process of the machine, ranked by its runnable threads over its own effective "
     "CPUs, each with its verdict",
     FOR(ALL)},
    {"top", OPT_TOP, OPTIONS_ARG_INT, NULL, IN(BATCH) | IN(DIAGNOSE), NULL, OPTIONS_SEC_TARGET,
     "N", "--all: the first N processes of the ranking (default: all in csv and json, %g in "
     "text; --diagnose: %g offenders in text)",
     FOR(ALL), {RANKING_OUT_TEXT_TOP, RANKING_OUT_DIAG_TOP}},
    {"kernel-threads", OPT_KERNEL_THREADS, OPTIONS_ARG_NONE, NULL, OPTIONS_IN_ALL & ~IN(SWEEP), NULL,
     OPTIONS_SEC_TARGET, NULL, "--all: rank kernel threads too (left out by default)",
     FOR(ALL)},
    {"tree", OPT_TREE, OPTIONS_ARG_NONE, NULL, OPTIONS_IN_ALL, NULL, OPTIONS_SEC_TARGET, NULL,
     "also monitor every descendant of the target (-- CMD: always, unless --no-tree)",
     FOR(PID) | FOR(CMD) | FOR(MATCH)},

    {"interval", 'i', OPTIONS_ARG_DOUBLE, NULL, SERVING | IN(DIAGNOSE), NULL, OPTIONS_SEC_OUTPUT,
     "SECONDS", NULL,
     FOR(LAB) | FOR(PID) | FOR(CMD) | FOR(MATCH) | FOR(ALL)},
    {"count", 'c', OPTIONS_ARG_INT, NULL, IN(BATCH), NULL, OPTIONS_SEC_OUTPUT, "N",
     "stop after N samples (batch; default: until the target exits)", 0},
    {"format", OPT_FORMAT, OPTIONS_ARG_ENUM, format_names, OPTIONS_IN_ALL & ~IN(DASHBOARD) &
     ~IN(HEADLESS), NULL, OPTIONS_SEC_OUTPUT, "FORMAT",
     "text, csv or json (JSON Lines in batch mode); default text", 0},
    {"no-color", OPT_NO_COLOR, OPTIONS_ARG_NONE, NULL, OPTIONS_IN_ALL, NULL, OPTIONS_SEC_OUTPUT,
     NULL, "no colours in the dashboard (so does NO_COLOR)", 0},
    {"root", OPT_ROOT, OPTIONS_ARG_DIR, NULL, IN(BUDGET) | IN(BATCH), NULL, OPTIONS_SEC_OUTPUT,
     "DIR", "read /proc and /sys under DIR (fixture trees; --budget, --batch)", 0},
    {"record", OPT_RECORD, OPTIONS_ARG_FILE, NULL, SERVING | IN(SWEEP), NULL, OPTIONS_SEC_OUTPUT,
     "FILE", "also write the session to FILE (JSON Lines; FILE.zst: zstd)",
     FOR(LAB) | FOR(PID) | FOR(CMD)},
    {"replay", OPT_REPLAY, OPTIONS_ARG_FILE, NULL, IN(DASHBOARD) | IN(BATCH), NULL,
     OPTIONS_SEC_OUTPUT, "FILE", "the dashboard (or --batch) on a recording instead of live",
     FOR(REPLAY)},

    {"serve", OPT_SERVE, OPTIONS_ARG_STRING, NULL, SERVING, NULL, OPTIONS_SEC_EXPORTER,
     "[ADDR:]PORT", "serve /metrics on ADDR (default %s) port PORT",
     FOR(LAB) | FOR(PID) | FOR(CMD) | FOR(MATCH) | FOR(ALL), {0}, SERVE_ADDR_DEFAULT},
    {"match", OPT_MATCH, OPTIONS_ARG_STRING, NULL, IN(HEADLESS), NULL, OPTIONS_SEC_EXPORTER,
     "REGEX", "--headless: follow every process whose name or command line matches (POSIX "
     "extended), found again each sample",
     FOR(MATCH)},
    {"tls-cert", OPT_TLS_CERT, OPTIONS_ARG_FILE, NULL, SERVING, NULL, OPTIONS_SEC_EXPORTER, "FILE",
     "serve HTTPS with this PEM certificate (and --tls-key)",
     FOR(LAB) | FOR(PID) | FOR(CMD) | FOR(MATCH) | FOR(ALL)},
    {"tls-key", OPT_TLS_KEY, OPTIONS_ARG_FILE, NULL, SERVING, NULL, OPTIONS_SEC_EXPORTER, "FILE",
     "the PEM private key of --tls-cert",
     FOR(LAB) | FOR(PID) | FOR(CMD) | FOR(MATCH) | FOR(ALL)},
    {"basic-auth", OPT_BASIC_AUTH, OPTIONS_ARG_FILE, NULL, SERVING, NULL, OPTIONS_SEC_EXPORTER,
     "FILE", "require user:HASH credentials (bcrypt or SHA-512 crypt)",
     FOR(LAB) | FOR(PID) | FOR(CMD) | FOR(MATCH) | FOR(ALL)},
    {"metrics-max-threads", OPT_METRICS_MAX_THREADS, OPTIONS_ARG_INT, NULL, SERVING, NULL,
     OPTIONS_SEC_EXPORTER, "N",
     "per-thread series per process (default %g); the rest only in name groups",
     FOR(LAB) | FOR(PID) | FOR(CMD) | FOR(MATCH), {METRICS_MAX_THREADS_DEFAULT}},
    {"metrics-max-processes", OPT_METRICS_MAX_PROCESSES, OPTIONS_ARG_INT, NULL, SERVING, NULL,
     OPTIONS_SEC_EXPORTER, "N",
     "--all: the first N processes of the ranking get series (default %g)",
     FOR(ALL), {METRICS_MAX_PROCESSES_DEFAULT}},

    {"progress", OPT_PROGRESS, OPTIONS_ARG_STRING, NULL, SERVING | IN(SWEEP), NULL,
     OPTIONS_SEC_TUNE, "REGEX", "count the job's progress from its output lines (POSIX "
     "extended; a match counts one step, a numeric group is a cumulative count such as "
     "'step ([0-9]+)'); with -- CMD",
     FOR(PID) | FOR(CMD)},
    {"progress-rate", OPT_PROGRESS_RATE, OPTIONS_ARG_NONE, NULL, SERVING | IN(SWEEP), NULL,
     OPTIONS_SEC_TUNE, NULL, "the group is a rate the job prints ('([0-9.]+)it/s')",
     FOR(PID) | FOR(CMD)},
    {"progress-file", OPT_PROGRESS_FILE, OPTIONS_ARG_FILE, NULL, SERVING | IN(SWEEP), NULL,
     OPTIONS_SEC_TUNE, "PATH", "with -p PID: read the lines from a file the job appends to "
     "(followed through rotation, like tail -F)",
     FOR(PID)},
    {"log", OPT_LOG, OPTIONS_ARG_FILE, NULL, IN(DASHBOARD) | IN(SWEEP), NULL, OPTIONS_SEC_TUNE,
     "FILE", "the dashboard's experiment log (m marks, e shows) is also appended to FILE as "
     "JSON Lines (read back at start); with --sweep -- CMD every row is appended to it", 0},
    {"env", OPT_ENV, OPTIONS_ARG_STRING, NULL, IN(SWEEP), NULL, OPTIONS_SEC_TUNE, "NAME=V1,V2",
     "--sweep -- CMD: run CMD once per value of the environment variable NAME (one --env per "
     "knob; one knob at a time from the first values) and print the table",
     FOR(CMD)},
    {"grid", OPT_GRID, OPTIONS_ARG_NONE, NULL, IN(SWEEP), NULL, OPTIONS_SEC_TUNE, NULL,
     "--sweep -- CMD: every combination of the --env values",
     FOR(CMD)},
    {"warmup", OPT_WARMUP, OPTIONS_ARG_DOUBLE, NULL, IN(SWEEP), NULL, OPTIONS_SEC_TUNE, "W",
     "--sweep -- CMD: seconds before measuring (default %g)",
     FOR(CMD), {SWEEP_CMD_WARMUP_DEFAULT}},
    {"repeat", OPT_REPEAT, OPTIONS_ARG_INT, NULL, IN(SWEEP), NULL, OPTIONS_SEC_TUNE, "R",
     "--sweep -- CMD: runs per setting, median and spread (1-9; default %g); --seconds S: "
     "measured (default %g)",
     FOR(CMD), {SWEEP_CMD_REPEAT_DEFAULT, SWEEP_CMD_SECONDS_DEFAULT}},

    {"collector", OPT_COLLECTOR, OPTIONS_ARG_ENUM, collector_want_names, LIVE, NULL,
     OPTIONS_SEC_COLLECTOR, "C", "auto (default): the BPF task iterator where it loads (root, "
     "or CAP_BPF and CAP_PERFMON), with each thread's run-queue latency (P50/P99/MAX), else "
     "/proc with a note; bpf: BPF or exit 2; proc: /proc only.  With --all, every thread of "
     "the machine in one read, no latency",
     FOR(LAB) | FOR(PID) | FOR(CMD) | FOR(MATCH) | FOR(ALL)},
    {"bpf-threads", OPT_BPF_THREADS, OPTIONS_ARG_INT, NULL, LIVE, NULL, OPTIONS_SEC_COLLECTOR,
     "N", "threads whose latency the BPF map holds (default %g); beyond that, events are "
     "counted as dropped",
     FOR(LAB) | FOR(PID) | FOR(CMD) | FOR(MATCH) | FOR(ALL), {COLLECTOR_BPF_THREADS_DEFAULT}},

    {"no-tree", OPT_NO_TREE, OPTIONS_ARG_NONE, NULL, OPTIONS_IN_ALL & ~IN(BUDGET), NULL,
     OPTIONS_SEC_DIAG, NULL, "-- CMD: follow the command's process alone (by default its whole "
     "tree: the workers it forks are part of the verdict)",
     FOR(CMD)},
    {"strict", OPT_STRICT, OPTIONS_ARG_NONE, NULL, IN(DIAGNOSE), NULL, OPTIONS_SEC_DIAG, NULL,
     "--diagnose: a borderline result (inside the band around a threshold, read as fine) "
     "exits 1 too, for CI",
     FOR(LAB) | FOR(PID) | FOR(CMD) | FOR(MATCH) | FOR(REPLAY)},

    {"threads", OPT_THREADS, OPTIONS_ARG_LIST, NULL, LAB, NULL, OPTIONS_SEC_KNOBS, "N",
     NULL, FOR(LAB)},
    {"streams", OPT_STREAMS, OPTIONS_ARG_LIST, NULL, LAB, NULL, OPTIONS_SEC_KNOBS, "N",
     NULL, FOR(LAB)},
    {"size", OPT_SIZE, OPTIONS_ARG_INT, NULL, LAB, NULL, OPTIONS_SEC_KNOBS, "N",
     NULL, FOR(LAB)},
    {"precision", OPT_PRECISION, OPTIONS_ARG_ENUM, options_args_precision_values, LAB, NULL,
     OPTIONS_SEC_KNOBS, "P", NULL, FOR(LAB)},
    {"kernel", OPT_KERNEL, OPTIONS_ARG_ENUM, settings_kernel_names, LAB, NULL, OPTIONS_SEC_KNOBS,
     "K", NULL,
     FOR(LAB)},
    {"roofline", OPT_ROOFLINE, OPTIONS_ARG_NONE, NULL, OPTIONS_IN_ALL, NULL, OPTIONS_SEC_KNOBS,
     NULL, "measure the memory roof (a short triad) at start, so every sample's roofline says "
     "compute- or memory-bound", 0},
    {"cpus", OPT_CPUS, OPTIONS_ARG_DOUBLE, NULL, LAB, NULL, OPTIONS_SEC_KNOBS, "X",
     NULL,
     FOR(LAB) | FOR(CMD)},
    {"workers", OPT_WORKERS, OPTIONS_ARG_INT, NULL, LAB, NULL, OPTIONS_SEC_KNOBS, "N",
     NULL, FOR(LAB)},
    {"loaders", OPT_LOADERS, OPTIONS_ARG_LIST, NULL, LAB, NULL, OPTIONS_SEC_KNOBS, "N",
     NULL,
     FOR(LAB)},
    {"prep-ms", OPT_PREP_MS, OPTIONS_ARG_INT, NULL, LAB, NULL, OPTIONS_SEC_KNOBS, "MS",
     NULL, FOR(LAB)},
    {"prefetch", OPT_PREFETCH, OPTIONS_ARG_INT, NULL, LAB, NULL, OPTIONS_SEC_KNOBS, "K",
     NULL, FOR(LAB)},
    {"blas", OPT_BLAS, OPTIONS_ARG_ENUM, settings_blas_names, LAB, NULL, OPTIONS_SEC_KNOBS, "BUILD",
     NULL, FOR(LAB)},
    {"blas-spin", OPT_BLAS_SPIN, OPTIONS_ARG_ENUM, options_args_spin_values, LAB, NULL,
     OPTIONS_SEC_KNOBS, "MODE", "default, or off: idle pool threads sleep instead of spinning "
     "(OPENBLAS_THREAD_TIMEOUT=1, OMP_WAIT_POLICY=PASSIVE)",
     FOR(LAB)},
    {"seconds", OPT_SECONDS, OPTIONS_ARG_DOUBLE, NULL, IN(SWEEP) | IN(DIAGNOSE), "use -i and -c",
     OPTIONS_SEC_KNOBS, "S", "--sweep: seconds measured per setting (default %g); --diagnose: "
     "seconds sampled (default %g)", 0, {SWEEP_SECONDS_DEFAULT, OPTIONS_DIAGNOSE_SECONDS_DEFAULT}},

    {"help", 'h', OPTIONS_ARG_NONE, NULL, OPTIONS_IN_ALL, NULL, OPTIONS_SEC_INFO, NULL,
     "show this help", 0},
    {"version", 'V', OPTIONS_ARG_NONE, NULL, OPTIONS_IN_ALL, NULL, OPTIONS_SEC_INFO, NULL,
     "show the version and the build's features", 0},
    {"list-options", OPT_LIST_OPTIONS, OPTIONS_ARG_NONE, NULL, OPTIONS_IN_ALL, NULL,
     OPTIONS_SEC_HIDDEN, NULL, "print the option table for the shell completions", 0},
    /* clang-format on */
};
#pragma GCC diagnostic pop
#define OPTIONS_TABLE_N (sizeof(options_table_entries) / sizeof(options_table_entries[0]))
_Static_assert(OPTIONS_TABLE_N <= OPTIONS_TABLE_MAX, "options.h's given[] is too short");

size_t options_table_count(void)
{
	return OPTIONS_TABLE_N;
}

const struct options_entry *options_table_at(size_t i)
{
	return &options_table_entries[i];
}

int options_table_index(int val)
{
	for (size_t i = 0; i < OPTIONS_TABLE_N; i++)
		if (options_table_entries[i].val == val)
			return (int)i;
	return -1;
}

const struct option *options_table_getopt(void)
{
	static struct option lo[OPTIONS_TABLE_N + 1];
	if (!lo[0].name)
		for (size_t i = 0; i < OPTIONS_TABLE_N; i++) {
			const struct options_entry *e = &options_table_entries[i];
			lo[i] = (struct option){
			    e->name, e->arg == OPTIONS_ARG_NONE ? no_argument : required_argument,
			    NULL, e->val};
		}
	return lo;
}

const char *options_table_shorts(void)
{
	/* "+": stop at the first non-option (the command after "--"); ":":
	 * a missing value is ':', for long options as for short ones. */
	static char s[2 + 2 * OPTIONS_TABLE_N + 1];
	if (!s[0]) {
		size_t n = 0;
		s[n++] = '+';
		s[n++] = ':';
		for (size_t i = 0; i < OPTIONS_TABLE_N; i++) {
			const struct options_entry *e = &options_table_entries[i];
			if (e->val >= 256)
				continue;
			s[n++] = (char)e->val;
			if (e->arg != OPTIONS_ARG_NONE)
				s[n++] = ':';
		}
		s[n] = '\0';
	}
	return s;
}

/* The option's name as messages write it: "-c" for one with a short
 * form, else "--seconds". */
static void options_table_shown(const struct options_entry *e, char *buf, size_t len)
{
	if (e->val < 256)
		snprintf(buf, len, "-%c", e->val);
	else
		snprintf(buf, len, "--%s", e->name);
}

/* The modes' names in messages, by enum mode. */
static const char *const options_table_mode_names[] = {
    [MODE_DASHBOARD] = "the dashboard", [MODE_BUDGET] = "--budget",
    [MODE_BATCH] = "--batch",		[MODE_SWEEP] = "--sweep",
    [MODE_DIAGNOSE] = "--diagnose",	[MODE_HEADLESS] = "--headless",
};

/* A target as messages name it. */
static const char *options_table_target_name(unsigned target)
{
	switch (target) {
	case OPTIONS_FOR_PID:
		return "-p PID";
	case OPTIONS_FOR_CMD:
		return "-- CMD";
	case OPTIONS_FOR_MATCH:
		return "--match";
	case OPTIONS_FOR_REPLAY:
		return "--replay";
	case OPTIONS_FOR_ALL:
		return "--all";
	default:
		return "the built-in workload";
	}
}

int options_table_check(const bool *given, int mode, unsigned target, char *err, size_t errlen)
{
	char name[64];
	for (size_t i = 0; i < OPTIONS_TABLE_N; i++) {
		const struct options_entry *e = &options_table_entries[i];
		if (!given[i])
			continue;
		if (e->targets && !(e->targets & target)) {
			options_table_shown(e, name, sizeof(name));
			snprintf(err, errlen, "%s does not apply to %s", name,
				 options_table_target_name(target));
			return EXIT_USAGE;
		}
		if (e->modes & OPTIONS_IN(mode))
			continue;
		char list[256] = "";
		size_t left = 0;
		for (int m = MODE_DASHBOARD; m <= MODE_HEADLESS; m++)
			left += (e->modes & OPTIONS_IN(m)) != 0;
		for (int m = MODE_DASHBOARD; m <= MODE_HEADLESS; m++) {
			if (!(e->modes & OPTIONS_IN(m)))
				continue;
			left--;
			size_t n = strlen(list);
			snprintf(list + n, sizeof(list) - n, "%s%s", options_table_mode_names[m],
				 left > 1 ? ", "
				 : left	  ? " and "
					  : "");
		}
		options_table_shown(e, name, sizeof(name));
		snprintf(err, errlen, "%s is for %s%s%s", name, list, e->hint ? "; " : "",
			 e->hint ? e->hint : "");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static const char *options_table_kind(enum options_arg a)
{
	switch (a) {
	case OPTIONS_ARG_NONE:
		return "none";
	case OPTIONS_ARG_ENUM:
		return "enum";
	case OPTIONS_ARG_PID:
		return "pid";
	case OPTIONS_ARG_FILE:
		return "file";
	case OPTIONS_ARG_DIR:
		return "dir";
	default:
		return "value";
	}
}

int options_table_list(FILE *f)
{
	for (size_t i = 0; i < OPTIONS_TABLE_N; i++) {
		const struct options_entry *e = &options_table_entries[i];
		if (e->section == OPTIONS_SEC_HIDDEN)
			continue;
		char shortname[3] = "-";
		if (e->val < 256 && isalnum(e->val))
			snprintf(shortname, sizeof(shortname), "-%c", e->val);
		fprintf(f, "--%s\t%s\t%s\t", e->name, shortname, options_table_kind(e->arg));
		if (e->values) {
			const char *const *v = e->values();
			for (int k = 0; v[k]; k++)
				fprintf(f, "%s%s", k ? " " : "", v[k]);
		} else {
			fputc('-', f);
		}
		fputc('\n', f);
	}
	return fflush(f) == 0 && !ferror(f) ? 0 : -errno;
}
