/* test-sweep.c — threadlab --sweep's table is well-formed in every format,
 * uses its 1x1 row as the baseline, aligns its text columns, and stops on
 * write errors, a reader that went away, and a stop signal.
 *
 * Runs short real sweeps (n = 256, 1 and 2 threads, 0.3 s per setting)
 * into a memory stream or a pipe and checks the rows and keys. */
#define _GNU_SOURCE
#include "tl-test.h"

#include "session.h"
#include "stop.h"
#include "sweep-out.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void opts(struct sweep_opts *o)
{
	sweep_opts_default(o);
	o->size = 256;
	o->threads[0] = 2; /* 1 comes first all the same: the baseline */
	o->threads[1] = 1;
	o->nthreads = 2;
	o->seconds = 0.3;
	o->warmup = 0.1;
}

static char *run(enum format fmt, int *rc)
{
	struct sweep_opts o;
	opts(&o);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*rc = sweep_out_run(&o, f, fmt, NULL);
	fclose(f);
	printf("# %s", buf);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_json(void **state)
{
	(void)state;
	int rc;
	char *s = run(FORMAT_JSON, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(s, "\"env\": {"));
	assert_non_null(strstr(s, "\"OMP_NUM_THREADS\""));
	assert_non_null(strstr(s, "\"kernel\""));
	const char *keys[] = {"\"streams\": ",	"\"threads\": ",       "\"gflops\": ",
			      "\"speedup\": ",	"\"efficiency\": ",    "\"ceiling_pct\": ",
			      "\"wait_pct\": ", "\"throttled_pct\": ", "\"results_equal\": "};
	/* The rows come before the fit (whose predictions have threads too). */
	char *fit = strstr(s, "\"fit\": {");
	assert_non_null(fit);
	*fit = '\0';
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_int_equal(count(s, keys[i]), 2);
	assert_int_equal(count(s, "\"karp_flatt\": "), 2);
	assert_int_equal(count(s, "\"verdict\": \""), 2);
	assert_int_equal(count(s, "\"fit_left_out\": "), 2);
	assert_non_null(strstr(s, "\"threads\": 1, \"gflops\": "));
	*fit = '"';
	assert_non_null(strstr(fit, "\"serial_fraction\": "));
	assert_non_null(strstr(fit, "\"points_used\": "));
	assert_non_null(strstr(fit, "\"predicted\": ["));
	assert_int_equal(count(s, "{"), count(s, "}"));
	assert_int_equal(count(s, "["), count(s, "]"));
	assert_non_null(strstr(s, "\"threads\": 2"));
	/* The 1x1 row is measured first and is its own baseline. */
	assert_non_null(strstr(s, "\"baseline\": \"row_1x1\""));
	assert_non_null(strstr(s, "\"threads\": 1, \"gflops\": "));
	assert_true(strstr(s, "\"threads\": 1, ") < strstr(s, "\"threads\": 2, "));
	assert_non_null(strstr(s, "\"speedup\": 1.000,"));
	assert_non_null(strstr(s, "\"baseline_gflops\": "));
	assert_int_equal(count(s, "\"max_diff\": "), 2);
	free(s);
}

static void test_csv_and_text(void **state)
{
	(void)state;
	int rc;
	char *s = run(FORMAT_CSV, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(s, "\nstreams,threads,gflops,speedup,efficiency,ceiling_pct,"
				  "wait_pct,throttled_pct,results_equal,max_diff\n"));
	assert_non_null(strstr(s, "\n1,1,"));
	assert_non_null(strstr(s, "\n1,2,"));
	assert_non_null(strstr(s, "# cpu:"));
	assert_non_null(strstr(s, "# baseline: the 1x1 row"));
	assert_non_null(strstr(s, "\n# Amdahl fit: "));
	free(s);
	s = run(FORMAT_TEXT, &rc);
	assert_int_equal(rc, 0);
	char head[256];
	sweep_out_text_head(head, sizeof(head));
	assert_non_null(strstr(s, head));
	assert_non_null(strstr(s, "openblas: "));
	assert_non_null(strstr(s, "\n\nAmdahl fit: "));
	free(s);
}

/* The header and rows, extreme values included, end every column at the
 * same place; differences that are not finite print as "-" / empty / null. */
static void test_text_columns(void **state)
{
	(void)state;
	struct sweep_row rows[] = {
	    {1, 1, 104.2, 1.0, 1.0, 50.0, 0.3, -1, true, 0, false, 0, 0, 0, 0, VERDICT_N, false, 0},
	    {16, 64, 99999.9, 999.99, 9.99, 999.9, 100.0, 100.0, false, 1.5e-5, false, 0, 0, 0, 0,
	     VERDICT_N, false, 0},
	    {2, 3, 0, 0, 0, 0, 0, 0, false, HUGE_VAL, false, 0, 0, 0, 0, VERDICT_N, false, 0},
	    {2, 3, 0, 0, 0, 0, 0, 0, false, NAN, false, 0, 0, 0, 0, VERDICT_N, false, 0},
	};
	char head[256], line[256];
	sweep_out_text_head(head, sizeof(head));
	printf("# %s\n", head);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		sweep_out_text_row(line, sizeof(line), &rows[i]);
		printf("# %s\n", line);
		assert_int_equal(strlen(line), strlen(head));
		/* A column ends where the header's does: blank after, text before. */
		for (size_t k = 1; k < strlen(head); k++)
			if (head[k] == ' ' && head[k - 1] != ' ')
				assert_true(line[k] == ' ' && line[k - 1] != ' ');
	}
	assert_true(line[strlen(line) - 1] == '-' && line[strlen(line) - 2] == ' ');
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sweep_out wj, wc;
	sweep_out_init(&wj, f, FORMAT_JSON);
	sweep_out_init(&wc, f, FORMAT_CSV);
	assert_int_equal(sweep_out_row(&wj, &rows[3]), 0);
	assert_int_equal(sweep_out_row(&wc, &rows[2]), 0);
	assert_int_equal(sweep_out_row(&wc, &rows[1]), 0);
	fclose(f);
	printf("# %s", buf);
	assert_non_null(strstr(buf, "\"max_diff\": null, \"karp_flatt\": null"));
	assert_non_null(strstr(buf, "}2,3,0.000,0.000,0.0000,0.00,0.00,0.00,false,\n"));
	assert_non_null(strstr(buf, ",false,1.5e-05\n"));
	free(buf);
}

/* A sweep over loaders: the pipeline's columns lead every format, and
 * rows of a sweep without loaders never carry them. */
static void test_pipeline_columns(void **state)
{
	(void)state;
	struct sweep_row p = {1, 2,    40.5, 1.0,   0.5,  25.0,	 3.0,	    -1,	   true,
			      0, true, 3,    41.25, 12.5, 180.0, VERDICT_N, false, 0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sweep_out wt, wj, wc;
	sweep_out_init(&wt, f, FORMAT_TEXT);
	sweep_out_init(&wj, f, FORMAT_JSON);
	sweep_out_init(&wc, f, FORMAT_CSV);
	assert_int_equal(sweep_out_row(&wt, &p), 0);
	assert_int_equal(sweep_out_row(&wj, &p), 0);
	assert_int_equal(sweep_out_row(&wc, &p), 0);
	fclose(f);
	printf("# %s", buf);
	assert_non_null(strstr(buf, "      3      41.2    12.5   180.0        1        2"));
	assert_non_null(strstr(buf, "{\"loaders\": 3, \"batches_per_s\": 41.25, "
				    "\"input_wait_pct\": 12.50, \"loader_cpu_pct\": 180.00, "
				    "\"streams\": 1"));
	assert_non_null(strstr(buf, "}3,41.25,12.50,180.00,1,2,40.500,"));
	free(buf);
	char line[256];
	struct sweep_row q = p;
	q.pipeline = false;
	sweep_out_text_row(line, sizeof(line), &q);
	assert_null(strstr(line, "41.2"));
	/* A row the Amdahl fit leaves out (contended) ends with the '*' the
	 * fit's caption names, as the dashboard's chart marks it; a row it
	 * takes does not. */
	f = open_memstream(&buf, &len);
	sweep_out_init(&wt, f, FORMAT_TEXT);
	q.verdict = VERDICT_CONTENDED;
	assert_int_equal(sweep_out_row(&wt, &q), 0);
	q.verdict = VERDICT_FINE;
	assert_int_equal(sweep_out_row(&wt, &q), 0);
	fclose(f);
	char *nl = strchr(buf, '\n');
	assert_non_null(nl);
	assert_true(nl > buf + 2 && nl[-1] == '*' && nl[-2] == ' ');
	assert_true(buf[len - 1] == '\n' && buf[len - 2] != '*');
	free(buf);
}

/* Write errors: ENOSPC gives -EIO, a pipe without reader -EPIPE. */
static void test_write_errors(void **state)
{
	(void)state;
	struct sweep_row r = {1, 1,	104.2, 1.0, 1.0, 50.0, 0.3,	  -1,	 true,
			      0, false, 0,     0,   0,	 0,    VERDICT_N, false, 0};
	/* "r+": never made, where something removed the device (fopen "w"
	 * once left a regular /dev/full behind, which later runs wrote to) */
	struct stat st;
	if (stat("/dev/full", &st) != 0 || !S_ISCHR(st.st_mode))
		TL_SKIP("no /dev/full device here");
	FILE *full = fopen("/dev/full", "r+");
	if (!full)
		TL_SKIP("/dev/full does not open");
	struct sweep_out wt;
	sweep_out_init(&wt, full, FORMAT_TEXT);
	assert_int_equal(sweep_out_row(&wt, &r), -EIO);
	assert_int_equal(errno, ENOSPC);
	fclose(full);
	signal(SIGPIPE, SIG_IGN); /* as threadlab does */
	int p[2];
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	FILE *w = fdopen(p[1], "w");
	struct sweep_out wp;
	sweep_out_init(&wp, w, FORMAT_CSV);
	assert_int_equal(sweep_out_row(&wp, &r), -EPIPE);
	fclose(w);
	/* A whole sweep into /dev/full stops at the header with -EIO. */
	struct sweep_opts o;
	opts(&o);
	full = fopen("/dev/full", "r+");
	assert_non_null(full);
	assert_int_equal(sweep_out_run(&o, full, FORMAT_TEXT, NULL), -EIO);
	fclose(full);
}

struct reader {
	int fd;
	bool interrupt; /* after the first row set stop_signal; else close
			 * the pipe as soon as the header came (| head -n1) */
	char buf[16384];
	size_t len;
};

/* Reads the sweep's output until EOF or until it closes the pipe. */
static void *reader_main(void *arg)
{
	struct reader *r = arg;
	bool acted = false;
	ssize_t n;
	while ((n = read(r->fd, r->buf + r->len, sizeof(r->buf) - 1 - r->len)) > 0) {
		r->len += (size_t)n;
		r->buf[r->len] = '\0';
		if (!r->interrupt) {
			close(r->fd);
			return NULL;
		}
		if (!acted && strstr(r->buf, "{\"streams\"")) {
			acted = true;
			stop_signal = SIGINT;
		}
	}
	close(r->fd);
	return NULL;
}

static int run_piped(struct reader *r, double seconds, double *elapsed)
{
	signal(SIGPIPE, SIG_IGN);
	int p[2];
	assert_int_equal(pipe(p), 0);
	r->fd = p[0];
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, reader_main, r), 0);
	struct sweep_opts o;
	opts(&o);
	o.seconds = seconds;
	FILE *w = fdopen(p[1], "w");
	double t0 = tl_now_s();
	int rc = sweep_out_run(&o, w, FORMAT_JSON, NULL);
	*elapsed = tl_now_s() - t0;
	fclose(w);
	pthread_join(t, NULL);
	stop_signal = 0;
	return rc;
}

/* The reader goes after the header (| head -n1): the sweep stops at once,
 * not after the first row's 5 s. */
static void test_reader_gone(void **state)
{
	(void)state;
	struct reader *r = calloc(1, sizeof(*r));
	double dt;
	int rc = run_piped(r, 5.0, &dt);
	printf("# reader gone: rc %d after %.1f s\n", rc, dt);
	assert_int_equal(rc, -EPIPE);
	assert_true(dt < 4.5);
	free(r);
}

/* A stop signal: the rows so far, JSON closed, a note on stderr. */
static void test_interrupted(void **state)
{
	(void)state;
	struct reader *r = calloc(1, sizeof(*r));
	r->interrupt = true;
	char path[] = "/tmp/tl-test-sweep-XXXXXX";
	int err = mkstemp(path), saved = dup(2);
	assert_true(err >= 0 && saved >= 0);
	unlink(path);
	dup2(err, 2);
	double dt;
	int rc = run_piped(r, 0.3, &dt);
	dup2(saved, 2);
	close(saved);
	char msg[1024] = "";
	ssize_t n = pread(err, msg, sizeof(msg) - 1, 0);
	msg[n > 0 ? n : 0] = '\0';
	close(err);
	printf("# %s# %s\n", msg, r->buf);
	assert_int_equal(rc, -EINTR);
	assert_non_null(strstr(msg, "sweep interrupted after 1 of 2 settings"));
	assert_int_equal(count(r->buf, "{\"streams\""), 1);
	assert_int_equal(count(r->buf, "{"), count(r->buf, "}"));
	assert_int_equal(count(r->buf, "["), count(r->buf, "]"));
	free(r);
}

static void test_bad_options(void **state)
{
	(void)state;
	struct sweep_opts o;
	sweep_opts_default(&o);
	o.threads[0] = 0;
	o.nthreads = 1;
	assert_int_equal(sweep_out_run(&o, stdout, FORMAT_TEXT, NULL), -EINVAL);
}

/* Waits up to 5 s for path to hold n pids; returns how many it read. */
static int read_pids(const char *path, pid_t *out, int n)
{
	int got = 0;
	for (int i = 0; i < 50 && got < n; i++) {
		FILE *f = fopen(path, "r");
		got = 0;
		while (f && got < n && fscanf(f, "%d", &out[got]) == 1)
			got++;
		if (f)
			fclose(f);
		if (got < n)
			nanosleep(&(struct timespec){0, 100000000}, NULL);
	}
	return got;
}

static bool gone(pid_t pid)
{
	for (int i = 0; i < 30; i++) {
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return true;
		nanosleep(&(struct timespec){0, 100000000}, NULL);
	}
	return false;
}

/* A launched command's descendants that left its process group (setsid),
 * one whose parent ended and one whose parent is such a process, are
 * stopped with it and counted: nothing it starts outlives threadlab. */
static void test_launch_setsid(void **state)
{
	(void)state;
	char path[] = "/tmp/tl-test-setsid-XXXXXX", script[512], err[512];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(script, sizeof(script),
		 "(setsid sh -c 'sleep 300 & echo $! >>%s; exec sleep 300' &); "
		 "setsid sleep 301 & echo $! >>%s; sleep 300",
		 path, path);
	char *argv[] = {(char *)"sh", (char *)"-c", script, NULL};
	struct session_config c;
	session_config_default(&c);
	c.command = argv;
	struct session s;
	assert_int_equal(session_start(&s, &c, err, sizeof(err)), EXIT_OK);
	pid_t p[2];
	assert_int_equal(read_pids(path, p, 2), 2);
	session_tick(&s);
	session_stop(&s);
	printf("# %d stopped\n", s.orphans_stopped);
	/* the setsid sh (which execs its last sleep: one process before and
	 * after, so the count does not race with it) and its background
	 * sleep, the setsid sleep */
	assert_int_equal(s.orphans_stopped, 3);
	assert_true(gone(p[0]));
	assert_true(gone(p[1]));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bad_options),	  cmocka_unit_test(test_text_columns),
	    cmocka_unit_test(test_write_errors),  cmocka_unit_test(test_reader_gone),
	    cmocka_unit_test(test_interrupted),	  cmocka_unit_test(test_json),
	    cmocka_unit_test(test_csv_and_text),  cmocka_unit_test(test_pipeline_columns),
	    cmocka_unit_test(test_launch_setsid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
