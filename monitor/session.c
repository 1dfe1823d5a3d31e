/* session.c — start, sample and stop one monitoring target.
 *
 * Three kinds of target share one code path: the lab's workload is watched
 * exactly as an attached process is, through a sampler that follows the
 * lab's anchor process and its descendants.  One tick: sample, difference
 * with the previous sample (rates), then (lab) the workload's status and
 * the lab view; events found on the way (a helper restarted, a stream that
 * failed) become messages. */
#include "config.h"

#include "session-impl.h"

#include "sweep-fit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "collector-impl.h"
#include "environment-impl.h"
#include "heap-huge.h"
#include "knobs.h"
#include "procinfo.h"
#include "proctree.h"
#include "session-diag.h"
#include "session-knob.h"
#include "session-lab-impl.h"
#include "session-progress-impl.h"
#include "session-replay-impl.h"
#include "settings-lab.h"
#include "stop.h"
#include "thread-set.h"
#include "xalloc.h"

void session_config_default(struct session_config *c)
{
	memset(c, 0, sizeof(*c));
	c->root = "/";
	c->stdio = SESSION_STDIO_NULL;
	c->lab = knobs_defaults();
}

/* The launcher's name for where the command's streams go. */
static enum launch_stdio session_launch_stdio(enum session_stdio io)
{
	switch (io) {
	case SESSION_STDIO_STDERR:
		return LAUNCH_STDIO_STDERR;
	case SESSION_STDIO_PIPE:
		return LAUNCH_STDIO_PIPE;
	case SESSION_STDIO_NULL:
		break;
	}
	return LAUNCH_STDIO_NULL;
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

static int session_start_attach(struct session *s, char *err, size_t errlen)
{
	s->kind = SESSION_ATTACH;
	s->target = s->cfg.pid;
	if (!s->impl->root.live)
		return EXIT_OK;
	int rc = session_check_pid(&s->impl->root, s->cfg.pid, err, errlen);
	if (rc > 0)
		return rc;
	rc = proctree_check(&s->impl->root, s->cfg.pid);
	if (rc == -ESRCH) {
		snprintf(err, errlen, "no process with PID %d", (int)s->cfg.pid);
		return EXIT_USAGE;
	} else if (rc < 0) {
		session_unreadable(err, errlen, s->cfg.pid, -rc);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The start's fresh memory is in place: later blocks as usual. */
static void session_warm(struct session *s)
{
	if (s->impl->warming) {
		s->impl->warming = false;
		heap_huge_end();
	}
}

int session_start(struct session *s, const struct session_config *c, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *c;
	s->impl = xcalloc(1, sizeof(*s->impl));
	s->impl->root.fd = -1;
	snapshot_init(&s->impl->prev);
	snapshot_init(&s->impl->cur);
	snapshot_rates_init(&s->impl->rates);
	model_sample_init(&s->model);
	thread_groups_init(&s->groups);
	int rc = sysroot_open(&s->impl->root, c->root);
	session_diag_init(s);
	if (rc < 0) {
		s->impl->root.fd = -1;
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
		struct launch_opts lo = {
		    .io = session_launch_stdio(c->stdio), .envp = c->envp, .cpus = c->launch_cpus};
		rc = launch_start_with(&s->impl->child, c->command, &lo, err, errlen) < 0
			 ? EXIT_USAGE
			 : EXIT_OK;
		s->target = s->impl->child.pid;
	} else {
		s->kind = SESSION_LAB;
		rc = session_lab_start(s, err, errlen);
	}
	if (rc != EXIT_OK)
		return rc;
	/* The reader's load and the first two reads touch fresh memory (some
	 * 20 MB on 10,000 threads): on huge pages until the first rates. */
	heap_huge_begin();
	s->impl->warming = true;
	s->impl->sampler = sampler_new(&s->impl->root, s->target, s->tree);
	if (s->impl->sampler)
		sampler_set_detail_period(s->impl->sampler, c->detail_period);
	collector_attach(s->impl->sampler, s->impl->root.live);
	if (!s->impl->sampler) {
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

/* Every SESSION_GUARD_S, what a launched command moved out of its group
 * (or left behind when it ended) is told to the guard, which kills it
 * should threadlab itself be killed (launch.h). */
#define SESSION_GUARD_S 2.0

static void session_guard_strays(struct session *s)
{
	double now = clock_seconds(CLOCK_MONOTONIC);
	if (s->kind != SESSION_LAUNCH || !s->impl->child.pid || s->impl->child.stopped ||
	    now - s->impl->guarded_at < SESSION_GUARD_S)
		return;
	s->impl->guarded_at = now;
	pid_t *pids = NULL;
	size_t cap = 0;
	ssize_t k = proctree_descendants(&s->impl->root, getpid(), &pids, &cap);
	for (ssize_t i = 1; i < k; i++)
		if (pids[i] != s->impl->child.pid)
			launch_guard_watch(&s->impl->child, pids[i], pids, (size_t)k);
	free(pids);
}

int session_tick(struct session *s)
{
	if (s->impl->rec)
		return session_replay_tick(s);
	launch_reap(&s->impl->child);
	session_guard_strays(s);
	if (s->impl->lab && !s->target_gone)
		session_lab_recover(s);
	bool sampled = false;
	if (!s->target_gone) {
		struct snapshot next;
		snapshot_init(&next);
		next.threads = s->impl->spare; /* filled again, not allocated */
		thread_set_init(&s->impl->spare);
		int rc = sampler_sample(s->impl->sampler, &next);
		if (rc == 0) {
			bool had = s->impl->cur.time > 0;
			s->impl->spare = s->impl->prev.threads;
			thread_set_init(&s->impl->prev.threads);
			snapshot_move(&s->impl->prev, &s->impl->cur);
			snapshot_move(&s->impl->cur, &next);
			if (s->impl->cur.path_note[0]) { /* the BPF path gave way to /proc */
				session_say(s, true, "%s", s->impl->cur.path_note);
				snprintf(s->path_note, sizeof(s->path_note), "%s",
					 s->impl->cur.path_note);
			}
			thread_groups_update(&s->groups, had ? &s->impl->prev.threads : NULL,
					     &s->impl->cur.threads);
			if (had) {
				snapshot_rates(&s->impl->prev, &s->impl->cur, &s->impl->rates);
				s->have_rates = true;
			}
			sampled = true;
		} else if (s->impl->lab && session_lab_recover(s)) {
			snapshot_free(&next); /* the next tick samples the new anchor */
		} else {
			s->target_gone = true;
			snapshot_free(&next);
			/* The sampler saw the command go (a zombie counts as gone):
			 * collect its status, waiting a little for the exit. */
			launch_reap_wait(&s->impl->child, 1000);
		}
	}
	session_progress_tick(s, stop_now());
	if (s->impl->lab && !s->target_gone)
		session_lab_tick(s);
	if (!s->target_gone)
		session_diag_tick(s);
	if (s->impl->lab && !s->target_gone && s->have_diag) {
		struct settings in_effect;
		settings_from_lab(&s->impl->lab_status.settings, &in_effect);
		labview_point_mark(&s->view, &in_effect,
				   sweep_fit_left_out(s->diag.verdict, s->diag.also_contended));
	}
	/* The faces' view of the sample, once the diagnosis has written each
	 * thread's activity into the rates. */
	if (sampled)
		model_sample_fill(&s->model, &s->impl->cur, &s->impl->rates, s->have_rates);
	if (s->have_rates || s->target_gone)
		session_warm(s);
	return s->target_gone ? -ESRCH : 0;
}

void session_show_threads(struct session *s, const pid_t *tids, size_t n)
{
	if (s->impl->sampler)
		sampler_want(s->impl->sampler, tids, n);
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
	ssize_t k = proctree_descendants(&s->impl->root, getpid(), &pids, &cap);
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
	session_halt(s);
	free(s->impl);
	s->impl = NULL;
}

void session_halt(struct session *s)
{
	if (!s->impl)
		return;
	session_warm(s);
	if (s->impl->lab) {
		lab_stop(s->impl->lab);
		s->impl->lab = NULL;
	}
	bool launched =
	    s->kind == SESSION_LAUNCH && s->impl->child.pid > 0 && !s->impl->child.stopped;
	pid_t pgid = s->impl->child.pid; /* the command leads its group (launch.h) */
	launch_stop(&s->impl->child);
	if (launched && s->impl->root.fd >= 0)
		s->orphans_stopped = session_stop_orphans(s, pgid);
	launch_close_output(&s->impl->child);
	session_progress_free(s);
	session_replay_stop(s);
	sampler_free(s->impl->sampler);
	s->impl->sampler = NULL;
	snapshot_free(&s->impl->prev);
	snapshot_free(&s->impl->cur);
	thread_set_free(&s->impl->spare);
	snapshot_rates_free(&s->impl->rates);
	model_sample_free(&s->model);
	thread_groups_free(&s->groups);
	session_diag_free(s);
	if (s->impl->root.fd >= 0)
		sysroot_close(&s->impl->root);
	s->impl->root.fd = -1;
}

bool session_replaying(const struct session *s)
{
	return s->impl && s->impl->rec;
}

int session_budget(const char *root, pid_t pid, struct model_budget *out, char *err, size_t errlen)
{
	struct budget b;
	struct sysroot r;
	int rc = sysroot_open(&r, root);
	if (rc < 0) {
		snprintf(err, errlen, "cannot open root directory '%s': %s", root, strerror(-rc));
		return EXIT_USAGE;
	}
	rc = budget_read(&r, pid, &b);
	sysroot_close(&r);
	if (rc == 0)
		model_budget_of(&b, out);
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
	return launch_status_text(&s->impl->child, buf, cap);
}

/* The target thread's name (its comm) into buf; false when not read. */
static bool session_target_thread_name(const struct session *s, char *buf, size_t cap)
{
	for (size_t i = 0; s->impl && i < s->impl->cur.threads.n; i++) {
		const struct thread_sample *t = &s->impl->cur.threads.v[i];
		if (t->tid == s->target) {
			size_t n = t->name_len < cap - 1 ? t->name_len : cap - 1;
			memcpy(buf, t->name, n);
			buf[n] = '\0';
			return true;
		}
	}
	return false;
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
	if (session_replaying(s) && s->impl->replay_target[0]) {
		snprintf(buf, cap, "%s", s->impl->replay_target);
		return;
	}
	if (s->kind == SESSION_LAUNCH && s->cfg.command) {
		for (char **a = s->cfg.command; *a && o + 1 < cap; a++) {
			int n = snprintf(buf + o, cap - o, "%s%s", o ? " " : "", *a);
			o += n > 0 ? (size_t)n : 0;
		}
		return;
	}
	session_target_thread_name(s, buf, cap);
}

void session_target_comm(const struct session *s, char *buf, size_t cap)
{
	if (cap == 0)
		return;
	if (s->kind != SESSION_LAUNCH || session_replaying(s)) {
		session_target_name(s, buf, cap);
		return;
	}
	if (session_target_thread_name(s, buf, cap))
		return;
	const char *a = s->cfg.command && s->cfg.command[0] ? s->cfg.command[0] : "";
	const char *slash = strrchr(a, '/');
	snprintf(buf, cap, "%s", slash ? slash + 1 : a);
}

void session_recording_header(const struct session *s, double interval, struct recording_header *h)
{
	static const char *const modes[] = {
	    [SESSION_LAB] = "lab", [SESSION_ATTACH] = "attach", [SESSION_LAUNCH] = "command"};
	struct env_record e;
	char target[512];
	environment_fill(&e, &s->impl->root, &s->impl->cur.budget,
			 s->kind == SESSION_LAB ? &s->impl->lab_status : NULL);
	session_target_name(s, target, sizeof(target));
	recording_header_fill(h, &e, modes[s->kind], (int)s->target, target, s->tree, interval);
}
