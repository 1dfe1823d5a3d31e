/* session.c — start, sample and stop one monitoring target.
 *
 * Three kinds of target share one code path: the lab's workload is watched
 * exactly as an attached process is, through a sampler that follows the
 * lab's anchor process and its descendants.  One tick: sample, difference
 * with the previous sample (rates), then (lab) the workload's status and
 * the lab view; events found on the way (a helper restarted, a stream that
 * failed) become messages. */
#include "config.h"

#include "session.h"

#include "sweep-fit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collector.h"
#include "environment.h"
#include "knobs.h"
#include "procinfo.h"
#include "proctree.h"
#include "session-diag.h"
#include "session-knob.h"
#include "session-progress.h"
#include "session-replay.h"
#include "settings-lab.h"
#include "xalloc.h"

void session_config_default(struct session_config *c)
{
	memset(c, 0, sizeof(*c));
	c->root = "/";
	c->stdio = LAUNCH_STDIO_NULL;
	c->lab = knobs_defaults();
}

void session_raise_nofile(void)
{
	launch_raise_nofile();
}

void session_say(struct session *s, bool bad, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->message, sizeof(s->message), fmt, ap);
	va_end(ap);
	s->message_bad = bad;
	s->message_seq++;
}

/* -p names a process: a thread ID of some other process is refused with
 * the process to use instead (its threads are all shown anyway). */
static int session_check_pid(const struct sysroot *r, pid_t pid, char *err, size_t errlen)
{
	int tgid = procinfo_tgid(r, pid);
	if (tgid > 0 && tgid != pid) {
		snprintf(err, errlen, "%d is a thread of process %d: use -p %d", (int)pid, tgid,
			 tgid);
		return EXIT_USAGE;
	}
	return 0; /* proctree_check says why when it failed */
}

/* Why a process cannot be read; the advice to change user fits only a
 * permission error (not EMFILE, EOPNOTSUPP, ...). */
static void session_unreadable(char *err, size_t errlen, pid_t pid, int e)
{
	bool perm = e == EACCES || e == EPERM;
	snprintf(err, errlen, "may not read process %d: %s%s", (int)pid, strerror(e),
		 perm ? " (run as its user or as root)" : "");
}

/* What the workload runs on, said once at start: the first two words of
 * the config are the library and its version. */
static void session_lab_hello(struct session *s)
{
	const struct lab_status *st = &s->lab_status;
	const char *c = st->blas_config, *e = strchr(c, ' ');
	if (e)
		e = strchr(e + 1, ' ');
	int n = e ? (int)(e - c) : (int)strlen(c);
	session_say(s, false, "workload on %.*s, core %.63s, %s build, pool of %d thread(s)",
		    n > 120 ? 120 : n, c, st->blas_core, st->blas_variant ? st->blas_variant : "?",
		    st->stream[0].pool);
}

static int session_start_lab(struct session *s, char *err, size_t errlen)
{
	struct settings *w = &s->want;
	struct lab_settings lw;
	*w = s->cfg.lab;
	if (session_check_settings(s, w, err, errlen) < 0)
		return EXIT_USAGE;
	settings_to_lab(w, &lw);
	s->lab = lab_start(&lw, err, errlen);
	if (!s->lab)
		return errno == EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
	char msg[256] = "";
	int timeout_ms = lab_ready_timeout_ms(&lw);
	int rc = lab_wait_ready(s->lab, timeout_ms, msg, sizeof(msg));
	if (rc == -EIO) {
		snprintf(err, errlen, "the workload failed to start: %s", msg);
		return EXIT_RUNTIME;
	} else if (rc == -ETIMEDOUT) {
		if (w->loaders > 0)
			snprintf(err, errlen,
				 "the workload did not start within %d s: its first GEMMs wait for "
				 "input (%d loader(s) x %d ms of CPU a batch); try a smaller "
				 "--prep-ms or fewer --loaders",
				 timeout_ms / 1000, w->loaders, w->prep_ms);
		else
			snprintf(err, errlen,
				 "the workload did not start within %d s (n=%d may be too large "
				 "for this machine: try a smaller --size)",
				 timeout_ms / 1000, w->size);
		return EXIT_RUNTIME;
	}
	labview_init(&s->view);
	/* With one intra-op thread the single-thread rate is measured in
	 * passing (labview.h).  Otherwise measure it once now, before the
	 * first sample and the first screen; later size or precision changes
	 * never block: the rate then comes from a visit to one thread. */
	if (w->threads != 1 && w->kernel == SETTINGS_GEMM) {
		double r = lab_single_rate(s->lab, lw.size, lw.precision);
		if (r > 0)
			labview_single_put(&s->view, w->size, (int)w->precision, r);
		lab_wait_ready(s->lab, timeout_ms, msg, sizeof(msg));
	}
	/* The triad's roofline needs both roofs; --roofline asks for them. */
	if (w->kernel == SETTINGS_TRIAD || s->cfg.roofline) {
		session_roofs(s);
		lab_wait_ready(s->lab, timeout_ms, msg, sizeof(msg));
	}
	lab_read(s->lab, &s->lab_status);
	if (s->lab_status.quota_error[0]) {
		session_say(s, true, "%s", s->lab_status.quota_error);
		s->want.cpus = s->lab_status.quota_cpus;
	} else if (s->lab_status.blas_config[0]) {
		session_lab_hello(s);
	}
	for (int i = 0; i < SETTINGS_MAX_STREAMS; i++)
		s->restarts_seen[i] = s->lab_status.stream[i].restarts;
	s->target = lab_root_pid(s->lab);
	s->tree = true;
	return EXIT_OK;
}

static int session_start_attach(struct session *s, char *err, size_t errlen)
{
	s->kind = SESSION_ATTACH;
	s->target = s->cfg.pid;
	if (!s->root.live)
		return EXIT_OK;
	int rc = session_check_pid(&s->root, s->cfg.pid, err, errlen);
	if (rc > 0)
		return rc;
	rc = proctree_check(&s->root, s->cfg.pid);
	if (rc == -ESRCH) {
		snprintf(err, errlen, "no process with PID %d", (int)s->cfg.pid);
		return EXIT_USAGE;
	} else if (rc < 0) {
		session_unreadable(err, errlen, s->cfg.pid, -rc);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int session_start(struct session *s, const struct session_config *c, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *c;
	s->root.fd = -1;
	snapshot_init(&s->prev);
	snapshot_init(&s->cur);
	snapshot_rates_init(&s->rates);
	thread_groups_init(&s->groups);
	int rc = sysroot_open(&s->root, c->root);
	session_diag_init(s);
	if (rc < 0) {
		s->root.fd = -1;
		snprintf(err, errlen, "cannot open root directory '%s': %s", c->root,
			 strerror(-rc));
		return EXIT_USAGE;
	}
	s->tree = c->tree;
	rc = session_progress_start(s, err, errlen);
	if (rc != EXIT_OK)
		return rc;
	if (c->replay)
		return session_replay_start(s, err, errlen);
	if (c->pid) {
		rc = session_start_attach(s, err, errlen);
	} else if (c->command) {
		s->kind = SESSION_LAUNCH;
		/* What the command moves out of its group (setsid) comes to us
		 * when its parent ends, so session_stop() can find it. */
		launch_adopt_orphans();
		struct launch_opts lo = {.io = c->stdio, .envp = c->envp, .cpus = c->launch_cpus};
		rc = launch_start_with(&s->child, c->command, &lo, err, errlen) < 0 ? EXIT_USAGE
										    : EXIT_OK;
		s->target = s->child.pid;
	} else {
		s->kind = SESSION_LAB;
		rc = session_start_lab(s, err, errlen);
	}
	if (rc != EXIT_OK)
		return rc;
	s->sampler = sampler_new(&s->root, s->target, s->tree);
	if (s->sampler)
		sampler_set_detail_period(s->sampler, c->detail_period);
	collector_attach(s->sampler, s->root.live);
	if (!s->sampler) {
		int e = errno;
		if (e == ESRCH)
			snprintf(err, errlen, "no process with PID %d", (int)s->target);
		else
			session_unreadable(err, errlen, s->target, e);
		return EXIT_USAGE;
	}
	/* The first sample is the baseline every rate is measured from. */
	session_tick(s);
	return EXIT_OK;
}

static double session_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A helper the lab restarted, or a stream that failed for good: said
 * once per event. */
static void session_lab_events(struct session *s)
{
	const struct lab_status *st = &s->lab_status;
	for (int i = 0; i < st->nslots && i < SETTINGS_MAX_STREAMS; i++) {
		const struct lab_stream_status *ss = &st->stream[i];
		if (ss->restarts > s->restarts_seen[i]) {
			char m[SESSION_MESSAGE_LEN];
			session_restart_text(m, sizeof(m), i, ss->restarts, ss->last_failure);
			session_say(s, true, "%s", m);
			/* The sample that saw it says so too (batch JSON "error"). */
			if (!s->work.error[0])
				snprintf(s->work.error, sizeof(s->work.error), "%.*s",
					 (int)sizeof(s->work.error) - 1, m);
		}
		s->restarts_seen[i] = ss->restarts;
	}
	for (int k = 0; k < SETTINGS_MAX_LOADERS; k++) {
		const struct lab_loader_status *ls = &st->loader[k];
		if (ls->restarts > s->loader_restarts_seen[k]) {
			session_say(s, true, "loader %d: %s, restarted (restart %u)", k,
				    ls->last_failure[0] ? ls->last_failure : "loader died",
				    ls->restarts);
			if (!s->work.error[0])
				snprintf(s->work.error, sizeof(s->work.error), "%.*s",
					 (int)sizeof(s->work.error) - 1, s->message);
		}
		s->loader_restarts_seen[k] = ls->restarts;
	}
	if (s->lab_event[0]) {
		/* Said already (session_lab_recover): into the sample only. */
		if (!s->work.error[0]) {
			snprintf(s->work.error, sizeof(s->work.error), "%s", s->lab_event);
			snprintf(s->error_seen, sizeof(s->error_seen), "%s", s->lab_event);
		}
		s->lab_event[0] = '\0';
	}
	const char *e = s->work.error;
	if (e[0] && strcmp(e, s->error_seen) != 0)
		session_say(s, true, "workload failed: %s", e);
	snprintf(s->error_seen, sizeof(s->error_seen), "%s", e);
}

size_t session_restart_text(char *out, size_t cap, int stream, unsigned restarts,
			    const char *failure)
{
	int n = snprintf(out, cap, "stream %d: %s, restarted (restart %u)", stream,
			 failure && failure[0] ? failure : "helper died", restarts);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static void session_tick_lab(struct session *s)
{
	const char *dir = NULL;
	int version = 0;
	if (lab_keep_quota(s->lab))
		session_say(s, true,
			    "the quota cgroup was removed from outside: made again, "
			    "the workload back under %.2f CPUs",
			    s->want.cpus);
	if (lab_quota_cgroup(s->lab, &dir, &version))
		sampler_set_cgroup_override(s->sampler, dir, version);
	else
		sampler_set_cgroup_override(s->sampler, NULL, 0);
	if (lab_read(s->lab, &s->lab_status) < 0)
		return;
	if (s->have_rates && s->cur.cpus.n > 0) {
		/* Other processes' CPUs: the box's busy CPUs less the lab's. */
		double other = s->cur.cpus.total_busy_pct / 100.0 * (double)s->cur.cpus.n -
			       s->rates.total_cpu_pct / 100.0;
		labview_conditions(&s->view, session_now(), other > 0 ? other : 0);
	}
	labview_feed(&s->view, &s->lab_status, session_now(), s->cur.budget.effective,
		     s->single_ref, &s->work);
	if (s->have_rates)
		labview_cpu(s->rates.threads, s->rates.nthreads, &s->work);
	session_lab_events(s);
}

/* The lab's anchor died: the lab starts it again (lab_recover) and the
 * sampler follows the new one.  Returns true when the lab runs again. */
static bool session_lab_recover(struct session *s)
{
	char m[SESSION_MESSAGE_LEN];
	int rc = lab_recover(s->lab, m, sizeof(m));
	if (rc == 0 || !m[0])
		return false;
	session_say(s, true, "%s", m);
	snprintf(s->lab_event, sizeof(s->lab_event), "%.*s", (int)sizeof(s->lab_event) - 1, m);
	if (rc < 0) {
		snprintf(s->gone_why, sizeof(s->gone_why), "%s", m);
		return false;
	}
	struct sampler *next = sampler_new(&s->root, lab_root_pid(s->lab), true);
	if (!next)
		return false;
	sampler_set_detail_period(next, s->cfg.detail_period);
	collector_attach(next, s->root.live);
	sampler_free(s->sampler);
	s->sampler = next;
	s->target = lab_root_pid(s->lab);
	s->have_rates = false;
	return true;
}

int session_tick(struct session *s)
{
	if (s->rec)
		return session_replay_tick(s);
	launch_reap(&s->child);
	if (s->lab && !s->target_gone)
		session_lab_recover(s);
	if (!s->target_gone) {
		struct snapshot next;
		snapshot_init(&next);
		int rc = sampler_sample(s->sampler, &next);
		if (rc == 0) {
			bool had = s->cur.time > 0;
			snapshot_move(&s->prev, &s->cur);
			snapshot_move(&s->cur, &next);
			if (s->cur.path_note[0]) { /* the BPF path gave way to /proc */
				session_say(s, true, "%s", s->cur.path_note);
				snprintf(s->path_note, sizeof(s->path_note), "%s",
					 s->cur.path_note);
			}
			thread_groups_update(&s->groups, had ? &s->prev.threads : NULL,
					     &s->cur.threads);
			if (had) {
				snapshot_rates(&s->prev, &s->cur, &s->rates);
				s->have_rates = true;
			}
		} else if (s->lab && session_lab_recover(s)) {
			snapshot_free(&next); /* the next tick samples the new anchor */
		} else {
			s->target_gone = true;
			snapshot_free(&next);
			/* The sampler saw the command go (a zombie counts as gone):
			 * collect its status, waiting a little for the exit. */
			launch_reap_wait(&s->child, 1000);
		}
	}
	session_progress_tick(s, session_now());
	if (s->lab && !s->target_gone)
		session_tick_lab(s);
	if (!s->target_gone)
		session_diag_tick(s);
	if (s->lab && !s->target_gone && s->have_diag) {
		struct settings in_effect;
		settings_from_lab(&s->lab_status.settings, &in_effect);
		labview_point_mark(&s->view, &in_effect,
				   sweep_fit_left_out(s->diag.verdict, s->diag.also_contended));
	}
	return s->target_gone ? -ESRCH : 0;
}

void session_show_threads(struct session *s, const pid_t *tids, size_t n)
{
	if (s->sampler)
		sampler_want(s->sampler, tids, n);
}

int session_apply(struct session *s)
{
	if (!s->lab)
		return -ENOTSUP;
	char msg[256] = "";
	/* The triad's first visit: its roof first (the lab then runs the
	 * settings before, and the new ones below). */
	if (s->want.kernel == SETTINGS_TRIAD && s->view.memory_gbs <= 0)
		session_roofs(s);
	struct lab_settings lw;
	settings_to_lab(&s->want, &lw);
	int rc = lab_apply(s->lab, &lw, msg, sizeof(msg));
	if (msg[0])
		session_say(s, rc < 0, "%s", msg);
	/* A quota that could not be set must not be shown as asked for: the
	 * settings go back to the quota really in effect. */
	if (lab_read(s->lab, &s->lab_status) == 0 && rc < 0 &&
	    s->lab_status.quota_cpus != (s->want.cpus > 0 ? s->want.cpus : 0))
		s->want.cpus = s->lab_status.quota_cpus;
	return rc;
}

unsigned session_pending_of(const struct settings *asked_for, const struct lab_status *st)
{
	const struct lab_stream_status *s0 = &st->stream[0];
	struct lab_settings w;
	settings_to_lab(asked_for, &w);
	const struct lab_settings *want = &w;
	bool s0_up = s0->state == CTL_STREAM_RUNNING || s0->state == CTL_STREAM_PAUSED;
	unsigned p = 0;

	if (!s0_up || (int)s0->threads != want->threads)
		p |= SESSION_PEND_THREADS;
	if (!s0_up || (want->kernel == CTL_GEMM && s0->size != want->size))
		p |= SESSION_PEND_SIZE;
	if (!s0_up || s0->kernel != want->kernel)
		p |= SESSION_PEND_KERNEL;
	if (!s0_up || s0->precision != want->precision)
		p |= SESSION_PEND_PRECISION;
	if (!st->applied || st->settings.streams != want->streams)
		p |= SESSION_PEND_STREAMS;
	if (!st->applied || st->settings.paused != want->paused)
		p |= SESSION_PEND_PAUSED;
	if (st->nworkers != want->workers)
		p |= SESSION_PEND_WORKERS;
	if (st->blas_switching || (s0_up && st->blas_in_effect != want->blas))
		p |= SESSION_PEND_BLAS;
	int loaders = 0;
	for (int k = 0; k < SETTINGS_MAX_LOADERS; k++)
		loaders += st->loader[k].pid > 0;
	if (loaders != want->loaders)
		p |= SESSION_PEND_LOADERS;
	double have = st->quota_cpus > 0 ? st->quota_cpus : 0;
	double asked = want->cpus > 0 ? want->cpus : 0;
	if ((have > asked + 1e-6 || have < asked - 1e-6) && st->quota_error[0] == '\0')
		p |= SESSION_PEND_QUOTA;
	return p;
}

unsigned session_pending(const struct session *s)
{
	if (s->kind != SESSION_LAB)
		return 0;
	return session_pending_of(&s->want, &s->lab_status);
}

unsigned session_poll(struct session *s)
{
	if (s->kind == SESSION_LAB && s->lab && !s->target_gone)
		lab_read(s->lab, &s->lab_status);
	return session_pending(s);
}

/* What the command left behind, adopted by threadlab and so among its
 * descendants once the group is gone: stopped.  Only those outside the
 * command's process group pgid (setsid) are counted: workers that share
 * the group (a DataLoader's) were stopped with it and are only late to
 * go.  Returns how many were outside. */
static int session_stop_orphans(struct session *s, pid_t pgid)
{
	pid_t *pids = NULL;
	size_t cap = 0;
	int n = 0;
	ssize_t k = proctree_descendants(&s->root, getpid(), &pids, &cap);
	if (k > 1) {
		pid_t *group = xcalloc((size_t)k, sizeof(*group));
		pid_t *other = xcalloc((size_t)k, sizeof(*other));
		size_t ng = 0, no = 0;
		for (ssize_t i = 1; i < k; i++) {
			if (pgid > 0 && getpgid(pids[i]) == pgid)
				group[ng++] = pids[i];
			else
				other[no++] = pids[i];
		}
		launch_stop_orphans(group, ng);
		n = launch_stop_orphans(other, no);
		free(group);
		free(other);
	}
	free(pids);
	return n;
}

void session_stop(struct session *s)
{
	if (s->lab) {
		lab_stop(s->lab);
		s->lab = NULL;
	}
	bool launched = s->kind == SESSION_LAUNCH && s->child.pid > 0 && !s->child.stopped;
	pid_t pgid = s->child.pid; /* the command leads its group (launch.h) */
	launch_stop(&s->child);
	if (launched && s->root.fd >= 0)
		s->orphans_stopped = session_stop_orphans(s, pgid);
	launch_close_output(&s->child);
	session_progress_free(s);
	session_replay_stop(s);
	sampler_free(s->sampler);
	s->sampler = NULL;
	snapshot_free(&s->prev);
	snapshot_free(&s->cur);
	snapshot_rates_free(&s->rates);
	thread_groups_free(&s->groups);
	session_diag_free(s);
	if (s->root.fd >= 0)
		sysroot_close(&s->root);
	s->root.fd = -1;
}

int session_budget(const char *root, pid_t pid, struct budget *b, char *err, size_t errlen)
{
	struct sysroot r;
	int rc = sysroot_open(&r, root);
	if (rc < 0) {
		snprintf(err, errlen, "cannot open root directory '%s': %s", root, strerror(-rc));
		return EXIT_USAGE;
	}
	rc = budget_read(&r, pid, b);
	sysroot_close(&r);
	if (rc == -ESRCH) {
		snprintf(err, errlen, "no process with PID %d", (int)pid);
		return EXIT_USAGE;
	} else if (rc < 0) {
		snprintf(err, errlen, "cannot read the CPU budget of %s %d: %s",
			 pid ? "process" : "this process", (int)pid, strerror(-rc));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

const char *session_child_status(const struct session *s, char *buf, size_t cap)
{
	return launch_status_text(&s->child, buf, cap);
}

void session_target_name(const struct session *s, char *buf, size_t cap)
{
	size_t o = 0;

	if (cap == 0)
		return;
	buf[0] = '\0';
	if (s->kind == SESSION_LAB) {
		snprintf(buf, cap, "lab");
		return;
	}
	if (s->rec && s->replay_target[0]) {
		snprintf(buf, cap, "%s", s->replay_target);
		return;
	}
	if (s->kind == SESSION_LAUNCH && s->cfg.command) {
		for (char **a = s->cfg.command; *a && o + 1 < cap; a++) {
			int n = snprintf(buf + o, cap - o, "%s%s", o ? " " : "", *a);
			o += n > 0 ? (size_t)n : 0;
		}
		return;
	}
	for (size_t i = 0; i < s->cur.threads.n; i++) {
		const struct thread_sample *t = &s->cur.threads.v[i];
		if (t->tid == s->target) {
			size_t n = t->name_len < cap - 1 ? t->name_len : cap - 1;
			memcpy(buf, t->name, n);
			buf[n] = '\0';
			return;
		}
	}
}

void session_recording_header(const struct session *s, double interval, struct recording_header *h)
{
	static const char *const modes[] = {
	    [SESSION_LAB] = "lab", [SESSION_ATTACH] = "attach", [SESSION_LAUNCH] = "command"};
	struct env_record e;
	char target[512];
	environment_fill(&e, &s->root, &s->cur.budget,
			 s->kind == SESSION_LAB ? &s->lab_status : NULL);
	session_target_name(s, target, sizeof(target));
	recording_header_fill(h, &e, modes[s->kind], (int)s->target, target, s->tree, interval);
}
