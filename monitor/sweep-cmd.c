/* sweep-cmd.c — a real command over environment settings (sweep-cmd.h).
 *
 * Each run is a session of its own (session.h): launch with the setting's
 * environment and the output on a pipe, tick every half second through the
 * warm-up and the window (the diagnosis judges the window: its length is
 * the session's diag_window), read the progress count at the window's two
 * ends, then session_stop(), which stops the process group and empties the
 * quota cgroup.  The output is drained every 100 ms in between, so a
 * chatty command never blocks on a full pipe. */
#define _GNU_SOURCE
#include "sweep-cmd.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "environ.h"
#include "proctree.h"
#include "session-progress-impl.h"
#include "session-impl.h"
#include "stop.h"
#include "sweep.h"
#include "environment-impl.h"
#include "xalloc.h"

extern char **environ;

#define SWEEP_CMD_TICK 0.5 /* s between samples */
#define SWEEP_CMD_SETTLE 0.5 /* s for the matcher's last answers of a row (progress.h) */

void sweep_cmd_opts_default(struct sweep_cmd_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seconds = SWEEP_CMD_SECONDS_DEFAULT;
	o->warmup = SWEEP_CMD_WARMUP_DEFAULT;
	o->repeat = SWEEP_CMD_REPEAT_DEFAULT;
}

static bool sweep_cmd_name_ok(const char *s, size_t n)
{
	if (n == 0 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

int sweep_cmd_add_knob(struct sweep_cmd_opts *o, const char *spec, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '=');
	size_t nl = eq ? (size_t)(eq - spec) : 0;
	if (!eq || !sweep_cmd_name_ok(spec, nl) || nl >= sizeof(o->knob[0].name)) {
		snprintf(err, errlen, "--env takes NAME=V1,V2,... with a variable name, not '%s'",
			 spec);
		return -EINVAL;
	}
	if (o->nknobs == SWEEP_CMD_KNOBS) {
		snprintf(err, errlen, "--env: at most %d variables", SWEEP_CMD_KNOBS);
		return -EINVAL;
	}
	struct sweep_cmd_knob *k = &o->knob[o->nknobs];
	memset(k, 0, sizeof(*k));
	memcpy(k->name, spec, nl);
	for (size_t i = 0; i < o->nknobs; i++)
		if (strcmp(o->knob[i].name, k->name) == 0) {
			snprintf(err, errlen, "--env %s is given twice", k->name);
			return -EINVAL;
		}
	const char *v = eq + 1;
	for (;;) {
		const char *c = strchr(v, ',');
		size_t vl = c ? (size_t)(c - v) : strlen(v);
		if (vl == 0 || vl >= sizeof(k->values[0]) || k->nvalues == SWEEP_CMD_VALUES) {
			snprintf(err, errlen,
				 "--env %s: values are non-empty, comma-separated, at most %d of "
				 "up to %zu bytes, not '%s'",
				 k->name, SWEEP_CMD_VALUES, sizeof(k->values[0]) - 1, eq + 1);
			return -EINVAL;
		}
		memcpy(k->values[k->nvalues++], v, vl);
		if (!c)
			break;
		v = c + 1;
	}
	o->nknobs++;
	return 0;
}

size_t sweep_cmd_settings(const struct sweep_cmd_opts *o, unsigned char (*values)[SWEEP_CMD_KNOBS],
			  size_t cap)
{
	size_t n = 0;
	unsigned char cur[SWEEP_CMD_KNOBS] = {0};
	if (cap == 0)
		return 0;
	memcpy(values[n++], cur, sizeof(cur));
	if (!o->grid) {
		for (size_t k = 0; k < o->nknobs; k++)
			for (size_t v = 1; v < o->knob[k].nvalues && n < cap; v++) {
				memset(values[n], 0, sizeof(values[n]));
				values[n++][k] = (unsigned char)v;
			}
		return n;
	}
	/* An odometer, the last knob fastest. */
	for (;;) {
		size_t k = o->nknobs;
		while (k-- > 0) {
			if (++cur[k] < o->knob[k].nvalues)
				break;
			cur[k] = 0;
		}
		if (k == (size_t)-1 || n == cap)
			return n;
		memcpy(values[n++], cur, sizeof(cur));
	}
}

#define sink_note(k, ...) sweep_note((k)->note, (k)->arg, __VA_ARGS__)

char **sweep_cmd_environ(const struct sweep_cmd_opts *o, const unsigned char *val)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **e = xcalloc(n + o->nknobs + 1, sizeof(*e));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		bool swept = false;
		for (size_t k = 0; k < o->nknobs; k++) {
			size_t l = strlen(o->knob[k].name);
			swept |=
			    strncmp(environ[i], o->knob[k].name, l) == 0 && environ[i][l] == '=';
		}
		if (!swept)
			e[m++] = environ[i];
	}
	for (size_t k = 0; k < o->nknobs; k++)
		e[m++] = xasprintf("%s=%s", o->knob[k].name, o->knob[k].values[val[k]]);
	return e;
}

void sweep_cmd_environ_free(char **e, size_t nknobs)
{
	size_t n = 0;
	while (e[n])
		n++;
	for (size_t i = n - nknobs; i < n; i++)
		free(e[i]);
	free(e);
}

/* One run's figures. */
struct sweep_cmd_run {
	double rate, cpu_pct, runnable_mean, wait_pct, throttled_pct;
	enum verdict verdict;
	bool crowded;  /* crowded out by other processes too (diagnosis also_contended) */
	bool measured; /* it ran into the window */
	char status[160];
	struct sweep_cmd_var env[SWEEP_CMD_ENV];
	size_t nenv;
	int env_error;
};

/* The environment the command pid runs with: every knob, then the thread
 * variables that are not knobs, from proc/PID/environ. */
static void sweep_cmd_read_env(const struct sweep_cmd_opts *o, pid_t pid, struct sweep_cmd_run *r)
{
	struct sysroot root;
	char *buf = NULL;
	bool cut = false;
	r->nenv = 0;
	for (size_t k = 0; k < o->nknobs && r->nenv < SWEEP_CMD_ENV; k++)
		r->env[r->nenv++].name = o->knob[k].name;
	for (size_t v = 0; environment_thread_vars[v] && r->nenv < SWEEP_CMD_ENV; v++) {
		bool knob = false;
		for (size_t k = 0; k < o->nknobs; k++)
			knob |= strcmp(o->knob[k].name, environment_thread_vars[v]) == 0;
		if (!knob)
			r->env[r->nenv++].name = environment_thread_vars[v];
	}
	if (sysroot_open(&root, "/") < 0) {
		r->env_error = -EIO;
		return;
	}
	ssize_t n = environ_read(&root, pid, &buf, &cut);
	sysroot_close(&root);
	r->env_error = n < 0 ? (int)n : cut ? 1 : 0;
	for (size_t i = 0; n >= 0 && i < r->nenv; i++) {
		const char *v = environ_get(buf, (size_t)n, r->env[i].name);
		r->env[i].set = v != NULL;
		snprintf(r->env[i].value, sizeof(r->env[i].value), "%s", v ? v : "");
	}
	free(buf);
}

/* Ticks the session for secs seconds (draining its output every 100 ms).
 * 0, -ESRCH when the command has gone, -EINTR on a stop signal, -EPIPE
 * when the sink's reader has gone. */
static int sweep_cmd_wait(struct session *s, double secs, double *next_tick,
			  const struct sweep_cmd_sink *k)
{
	double end = stop_now() + secs;
	for (;;) {
		if (stop_signal)
			return -EINTR;
		if (k->gone && k->gone(k->arg))
			return -EPIPE;
		double now = stop_now();
		if (now >= *next_tick) {
			*next_tick += SWEEP_CMD_TICK;
			if (session_tick(s) < 0)
				return -ESRCH;
		}
		if (now >= end)
			return 0;
		session_progress_drain(s);
		double until = now + 0.1;
		until = until > end ? end : until;
		stop_sleep_until(until < *next_tick ? until : *next_tick);
	}
}

/* How the command ended: by itself, or by the stop. */
static void sweep_cmd_status(const struct session *s, bool ended, double t_end, char *out,
			     size_t cap)
{
	const struct launch *l = &s->impl->child;
	char how[96];
	launch_status_text(l, how, sizeof(how));
	if (ended)
		snprintf(out, cap, "%s after %.1f s%s", how, t_end - l->started,
			 l->left_behind ? "; what it left running was stopped" : "");
	else if (WIFSIGNALED(l->status) && WTERMSIG(l->status) == SIGKILL && l->sigterm_ignored)
		snprintf(out, cap, "ignored SIGTERM: killed (SIGKILL)");
	else if (WIFSIGNALED(l->status) && WTERMSIG(l->status) == SIGTERM)
		snprintf(out, cap, "stopped (SIGTERM)%s",
			 l->sigterm_ignored ? "; what it started ignored SIGTERM: killed" : "");
	else
		snprintf(out, cap, "stopped (%s on SIGTERM)%s", how,
			 l->sigterm_ignored ? "; what it started ignored SIGTERM: killed" : "");
}

static int sweep_cmd_once(const struct sweep_cmd_opts *o, const unsigned char *val,
			  const struct sweep_cmd_sink *k, struct sweep_cmd_run *r)
{
	struct session_config c;
	session_config_default(&c);
	char **envp = sweep_cmd_environ(o, val);
	c.command = o->command;
	c.tree = true;
	c.stdio = SESSION_STDIO_PIPE;
	c.progress = o->progress;
	c.progress_rate = o->progress_rate;
	c.envp = envp;
	c.launch_cpus = o->cpus;
	c.diag_window = o->seconds;
	memset(r, 0, sizeof(*r));
	r->rate = (double)NAN;
	r->throttled_pct = -1;
	r->verdict = VERDICT_N;
	struct session *s = xcalloc(1, sizeof(*s));
	char err[512];
	int rc = session_start(s, &c, err, sizeof(err));
	if (rc != EXIT_OK) {
		snprintf(r->status, sizeof(r->status), "did not start: %.140s", err);
		r->env_error = -ESRCH; /* no process: nothing was read */
		session_stop(s);
		free(s);
		sweep_cmd_environ_free(envp, o->nknobs);
		return 0;
	}
	double next = stop_now() + SWEEP_CMD_TICK;
	rc = sweep_cmd_wait(s, o->warmup, &next, k);
	double t0 = stop_now(), c0 = s->progress.count;
	if (rc == 0)
		rc = sweep_cmd_wait(s, o->seconds, &next, k);
	double t1 = stop_now();
	bool ended = rc == -ESRCH;
	if (ended)
		launch_reap_wait(&s->impl->child, 500);
	r->measured = t1 - t0 > 0.5 && s->have_diag;
	if (r->measured) {
		const struct diagnosis *d = &s->diag;
		r->cpu_pct = 100 * d->cpu;
		r->runnable_mean = d->runnable_mean;
		r->wait_pct = d->cpu + d->wait > 0 ? 100 * d->wait / (d->cpu + d->wait) : 0;
		r->throttled_pct = o->cpus > 0 && d->throttle_valid ? d->throttled_pct : -1;
		r->verdict = d->verdict;
		r->crowded = d->also_contended;
	}
	session_progress_drain(s);
	progress_flush(&s->progress);
	progress_settle(&s->progress, SWEEP_CMD_SETTLE);
	if (o->progress && s->progress.matches > 0 && t1 - t0 > 0.5)
		r->rate = (s->progress.count - c0) / (t1 - t0);
	if (!ended)
		sweep_cmd_read_env(o, s->impl->child.pid, r);
	else
		r->env_error = -ESRCH;
	session_halt(s); /* its launch record says how the command ended */
	int orphans = s->orphans_stopped;
	sweep_cmd_status(s, ended, t1, r->status, sizeof(r->status));
	session_stop(s);
	if (o->progress && s->progress.matches == 0)
		snprintf(r->status + strlen(r->status), sizeof(r->status) - strlen(r->status),
			 "; no progress lines matched");
	else if (ended && !r->measured)
		snprintf(r->status + strlen(r->status), sizeof(r->status) - strlen(r->status),
			 " (before the window)");
	if (orphans > 0)
		snprintf(r->status + strlen(r->status), sizeof(r->status) - strlen(r->status),
			 "; %d process%s it left outside its group stopped", orphans,
			 orphans == 1 ? "" : "es");
	free(s);
	sweep_cmd_environ_free(envp, o->nknobs);
	return rc == -ESRCH ? 0 : rc;
}

static int sweep_cmd_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return isnan(x) ? (isnan(y) ? 0 : 1) : isnan(y) ? -1 : (x > y) - (x < y);
}

/* The median of the n values that are numbers; (double)NAN when none. */
static double sweep_cmd_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), sweep_cmd_cmp);
	while (n && isnan(v[n - 1]))
		n--;
	return n == 0 ? (double)NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Repeats of one setting into its row: medians, the rate's spread, the
 * status of the last run (of the first that failed, if one did). */
static void sweep_cmd_merge(const struct sweep_cmd_run *runs, size_t n, struct sweep_cmd_row *row)
{
	double v[5][SWEEP_CMD_REPEAT];
	size_t m = 0;
	const char *status = n ? runs[n - 1].status : "";
	row->verdict = VERDICT_N;
	row->crowded = false;
	for (size_t i = 0; i < n; i++) {
		if (!runs[i].measured) {
			status = runs[i].status;
			continue;
		}
		v[0][m] = runs[i].rate;
		v[1][m] = runs[i].cpu_pct;
		v[2][m] = runs[i].runnable_mean;
		v[3][m] = runs[i].wait_pct;
		v[4][m] = runs[i].throttled_pct;
		row->verdict = runs[i].verdict;
		row->crowded |= runs[i].crowded;
		m++;
	}
	row->runs = (int)m;
	snprintf(row->status, sizeof(row->status), "%s", status);
	if (n) {
		/* the environment the latest run that read one read (all runs
		 * of a row start with the same), else the last run's error */
		size_t e = n - 1;
		for (size_t i = n; i-- > 0;)
			if (runs[i].env_error >= 0) {
				e = i;
				break;
			}
		memcpy(row->env, runs[e].env, sizeof(row->env));
		row->nenv = runs[e].nenv;
		row->env_error = runs[e].env_error;
	}
	double lo = (double)NAN, hi = (double)NAN;
	for (size_t i = 0; i < m; i++) {
		lo = isnan(lo) || v[0][i] < lo ? v[0][i] : lo;
		hi = isnan(hi) || v[0][i] > hi ? v[0][i] : hi;
	}
	row->rate_spread = m > 1 ? hi - lo : (double)NAN;
	row->rate = sweep_cmd_median(v[0], m);
	row->cpu_pct = m ? sweep_cmd_median(v[1], m) : (double)NAN;
	row->runnable_mean = m ? sweep_cmd_median(v[2], m) : (double)NAN;
	row->wait_pct = m ? sweep_cmd_median(v[3], m) : (double)NAN;
	row->throttled_pct = m ? sweep_cmd_median(v[4], m) : -1;
}

void sweep_cmd_best(const struct sweep_cmd_row *rows, size_t n, struct sweep_cmd_best *out)
{
	memset(out, 0, sizeof(*out));
	out->margin = out->spread = (double)NAN;
	out->beyond = -1;
	out->rows = n;
	for (size_t i = 0; i < n; i++) {
		if (isnan(rows[i].rate))
			continue;
		if (!out->best || rows[i].rate > out->best->rate) {
			out->next = out->best;
			out->best = &rows[i];
		} else if (!out->next || rows[i].rate > out->next->rate) {
			out->next = &rows[i];
		}
	}
	if (!out->best || !out->next)
		return;
	out->margin = out->best->rate - out->next->rate;
	double a = out->best->rate_spread, b = out->next->rate_spread;
	if (isnan(a) || isnan(b))
		return; /* one run each: no spread to judge by */
	out->spread = a > b ? a : b;
	out->beyond = out->margin > out->spread;
}

/* The footer's environment is threadlab's own: a swept variable there is
 * not what any row ran with, so it points to the rows instead; and under
 * --cpus every row ran in a quota threadlab's own budget does not have. */
static void sweep_cmd_env_footer(const struct sweep_cmd_opts *o, struct env_record *e)
{
	if (o->cpus > 0) {
		e->quota_cpus = o->cpus;
		if (e->effective <= 0 || o->cpus < e->effective)
			e->effective = o->cpus;
	}
	for (size_t i = 0; i < e->nvars; i++)
		for (size_t k = 0; k < o->nknobs; k++)
			if (strcmp(e->vars[i].name, o->knob[k].name) == 0)
				e->vars[i].value = "per row (each row's environment)";
}

int sweep_cmd_run(const struct sweep_cmd_opts *o, const struct sweep_cmd_sink *k)
{
	if (!o->command || o->nknobs == 0 || o->seconds <= 0 || o->warmup < 0 || o->repeat < 1 ||
	    o->repeat > SWEEP_CMD_REPEAT) {
		sink_note(k,
			  "sweep: needs --env NAME=V1,V2 and -- CMD, seconds above 0, "
			  "1 to %d repeats",
			  SWEEP_CMD_REPEAT);
		return -EINVAL;
	}
	char why[512];
	if (o->cpus > 0 && launch_quota_check(o->cpus, why, sizeof(why)) < 0) {
		/* Figures without the quota asked for would mislead. */
		sink_note(k, "sweep: --cpus %g: %s", o->cpus, why);
		return -EPERM;
	}
	launch_adopt_orphans();
	size_t cap = 256;
	unsigned char(*set)[SWEEP_CMD_KNOBS] = xcalloc(cap, sizeof(*set));
	size_t nset = sweep_cmd_settings(o, set, cap);
	struct sweep_cmd_env env = {.o = o};
	struct sysroot root;
	struct budget b;
	memset(&b, 0, sizeof(b));
	if (sysroot_open(&root, "/") == 0) {
		budget_read(&root, 0, &b);
		environment_fill(&env.env, &root, &b, NULL);
		sweep_cmd_env_footer(o, &env.env);
		sysroot_close(&root);
	}
	struct sweep_cmd_row *rows = xcalloc(nset ? nset : 1, sizeof(*rows));
	int rc = k->begin(k->arg, &env);
	double base = (double)NAN;
	size_t done = 0;
	for (size_t i = 0; rc == 0 && i < nset; i++) {
		struct sweep_cmd_run runs[SWEEP_CMD_REPEAT];
		size_t n = 0;
		for (int r = 0; rc == 0 && r < o->repeat; r++) {
			rc = sweep_cmd_once(o, set[i], k, &runs[n]);
			n += rc == 0;
		}
		if (rc != 0)
			break;
		struct sweep_cmd_row row = {.index = i, .nknobs = o->nknobs};
		for (size_t q = 0; q < o->nknobs; q++) {
			row.name[q] = o->knob[q].name;
			row.value[q] = o->knob[q].values[set[i][q]];
		}
		sweep_cmd_merge(runs, n, &row);
		if (i == 0)
			base = row.rate;
		row.speedup = base > 0 ? row.rate / base : (double)NAN;
		rc = k->row(k->arg, &row);
		rows[done] = row;
		done += rc == 0;
	}
	if ((rc == 0 || rc == -EINTR) && k->best) {
		struct sweep_cmd_best best;
		sweep_cmd_best(rows, done, &best);
		int w = k->best(k->arg, &best);
		rc = rc == 0 ? w : rc;
	}
	if (rc == -EINTR)
		sink_note(k, "sweep interrupted after %zu of %zu settings", done, nset);
	if (rc == 0 || rc == -EINTR) {
		int w = k->end(k->arg);
		rc = rc == 0 ? w : rc;
	}
	free(rows);
	free(set);
	return rc;
}
