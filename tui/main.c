/* main.c — threadlab's entry point: parse the command line, run one mode. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "collector.h"
#include "dash.h"
#include "dash-machine.h"
#include "dash-machine-run.h"
#include "diagnose.h"
#include "diagnose-all.h"
#include "explog.h"
#include "explog-load.h"
#include "export.h"
#include "face.h"
#include "headless.h"
#include "options.h"
#include "options-collector.h"
#include "options-table.h"
#include "options-usage.h"
#include "batch-all.h"
#include "record.h"
#include "session.h"
#include "sweep-out.h"
#include "sweep-cmd-out.h"
#include "options-tune.h"
#include "text-safe.h"
#include "tour-face.h"
#include "version.h"

static int main_dashboard_run(const struct options *o, FILE *log);

static int main_dashboard(const struct options *o)
{
	char err[512];
	/* A bad --log is a bad argument, whatever the terminal. */
	if (o->log && explog_load_check(o->log, err, sizeof(err)) < 0) {
		face_say(err);
		return EXIT_USAGE;
	}
	int rc = dash_check_terminal(err, sizeof(err));
	if (rc != EXIT_OK) {
		face_say(err);
		return rc;
	}
	FILE *log = NULL;
	if (o->log && !(log = fopen(o->log, "a"))) {
		snprintf(err, sizeof(err), "cannot open the log %s: %s", o->log, strerror(errno));
		face_say(err);
		return EXIT_USAGE;
	}
	rc = main_dashboard_run(o, log);
	if (log && fclose(log) == EOF)
		fprintf(stderr, "threadlab: cannot write the log %s: %s\n", o->log,
			strerror(errno));
	return rc;
}

static int main_dashboard_run(const struct options *o, FILE *log)
{
	if (o->all)
		return dash_machine_run_main(o);
	char err[512];
	int rc;
	struct session s;
	/* Installed before the workload starts: a signal during start-up
	 * still cleans up.  dash_run() adds its terminal restore. */
	stop_install(NULL);
	/* The exporter first: a port in use ends the run before the
	 * workload or a command starts (export.h). */
	struct export e;
	rc = export_start(&e, o);
	if (rc != EXIT_OK)
		return rc;
	rc = face_session_start(o, &s, NULL);
	if (rc != EXIT_OK) {
		export_stop(&e);
		return rc;
	}
	export_say(&e, o);
	char serving[512] = "";
	if (e.srv)
		snprintf(serving, sizeof(serving), "serving %s", serve_url(e.srv));
	if (collector_note()[0]) /* the fallback note first: it says what is missing */
		snprintf(serving + strlen(serving), sizeof(serving) - strlen(serving), "%s%s",
			 serving[0] ? " | " : "", collector_note());
	struct dash_config dc = {.interval = o->interval,
				 .no_color = o->no_color,
				 .export = &e,
				 .message = serving[0] ? serving : NULL,
				 .tour = o->tour,
				 .tour_step = o->tour_step,
				 .log_file = log,
				 .log_path = o->log};
	if (o->tour_notes && !(dc.tour_notes = fopen(o->tour_notes, "ae"))) {
		snprintf(err, sizeof(err), "--tour-notes %s: %s", o->tour_notes, strerror(errno));
		export_stop(&e);
		session_stop(&s);
		face_say(err);
		return EXIT_USAGE;
	}
	if (face_record_start(o, &s, &dc.record) != EXIT_OK) {
		export_stop(&e);
		session_stop(&s);
		return EXIT_USAGE;
	}
	rc = dash_run(&s, &dc);
	export_stop(&e);
	session_stop(&s);
	face_say_stopped(&s);
	return rc;
}

/* --sweep --env … -- CMD: a real command over settings. */
static int main_sweep_cmd(const struct options *o)
{
	struct sweep_cmd_opts so;
	options_tune_sweep(o, &so);
	stop_install(NULL);
	int rc = sweep_cmd_out_run(&so, stdout, o->format, o->log);
	if (rc == -EPIPE || rc == -EINTR)
		return EXIT_OK;
	if (rc == -EINVAL)
		return EXIT_USAGE;
	return rc < 0 ? EXIT_RUNTIME : EXIT_OK;
}

static int main_sweep(const struct options *o)
{
	if (o->command)
		return main_sweep_cmd(o);
	struct sweep_opts so;
	options_sweep_opts(o, &so);
	stop_install(NULL);
	struct record *rec = NULL;
	char err[512];
	if (o->record && !(rec = record_open(o->record, o->argc, o->argv, err, sizeof(err)))) {
		face_say(err);
		return EXIT_USAGE;
	}
	int rc = sweep_out_run(&so, stdout, o->format, rec);
	if (!face_record_close(rec, o))
		return EXIT_RUNTIME;
	/* -EPIPE: the reader went away; -EINTR: a stop signal.  Both end a
	 * sweep normally, with the rows so far written. */
	if (rc == -EPIPE || rc == -EINTR)
		return EXIT_OK;
	if (rc == -EINVAL || rc == -ENOMEM)
		return EXIT_USAGE;
	if (rc == 0 && fflush(stdout) == EOF) {
		fprintf(stderr, "threadlab: cannot write the output: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	return rc < 0 ? EXIT_RUNTIME : EXIT_OK;
}

static int main_mode(const struct options *o)
{
	switch (o->mode) {
	case MODE_HELP:
		options_usage(stdout);
		return EXIT_OK;
	case MODE_VERSION:
		version_print(stdout);
		return EXIT_OK;
	case MODE_LIST_OPTIONS:
		return options_table_list(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
	case MODE_BUDGET:
		return batch_budget(o);
	case MODE_BATCH:
		return o->tour ? tour_face_batch(o) : o->all ? batch_all_run(o) : batch_run(o);
	case MODE_SWEEP:
		return main_sweep(o);
	case MODE_DIAGNOSE:
		return o->all ? diagnose_all_run(o) : diagnose_run(o);
	case MODE_HEADLESS:
		return headless_run(o);
	case MODE_DASHBOARD:
	default:
		return main_dashboard(o);
	}
}

/* The collector path, chosen before any session: BPF loads here, and the
 * capabilities it needed go right after (collector.h). */
static int main_collector(const struct options *o)
{
	char err[512];
	struct collector_opts co;
	if (!options_collector_live(o))
		return EXIT_OK;
	options_collector_opts(o, &co);
	int rc = collector_choose(&co, err, sizeof(err));
	if (rc != EXIT_OK) {
		face_say(err);
		return rc;
	}
	/* The dashboard shows the note in its message line. */
	if (collector_note()[0] && o->mode != MODE_DASHBOARD)
		face_say(collector_note());
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct options o;
	char err[512];

	setlocale(LC_ALL, "");
	/* Numbers in and out (JSON, CSV, -i 0.5, --cpus 1.5) always use '.'. */
	setlocale(LC_NUMERIC, "C");
	text_safe_init();
	session_raise_nofile();
	int rc = options_parse(argc, argv, &o, err, sizeof(err));
	if (rc != EXIT_OK) {
		face_say(err);
		return rc;
	}
	rc = main_collector(&o);
	if (rc == EXIT_OK)
		rc = main_mode(&o);
	collector_release();
	return rc;
}
