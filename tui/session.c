/* session.c — start, sample and stop one monitoring target.
 *
 * Three kinds of target share one code path: the lab's workload is watched
 * exactly as an attached process is, through a sampler that follows the
 * lab's anchor process and its descendants.  Signals only set a flag; the
 * loops that own the session notice it and stop it, so cleanup runs in
 * normal code.  A second signal, or a fatal one, takes the emergency path:
 * kill the workload's process group and remove its cgroup from the handler. */
#include "config.h"

#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launch.h"
#include "procinfo.h"
#include "proctree.h"
#include "text-safe.h"
#include "xalloc.h"

volatile sig_atomic_t session_stop_signal;
static void (*session_on_fatal)(void);

void session_raise_nofile(void)
{
	launch_raise_nofile();
}

static void session_on_stop(int sig)
{
	if (session_stop_signal) {
		/* Second request: the user means it.  Nothing left behind still. */
		lab_emergency_stop();
		launch_emergency_stop(SIGKILL);
		if (session_on_fatal)
			session_on_fatal();
		_exit(128 + sig);
	}
	session_stop_signal = sig;
}

static void session_on_crash(int sig)
{
	lab_emergency_stop();
	launch_emergency_stop(SIGTERM);
	if (session_on_fatal)
		session_on_fatal();
	signal(sig, SIG_DFL);
	raise(sig);
}

void session_signals_install(void (*on_fatal)(void))
{
	struct sigaction sa;
	session_on_fatal = on_fatal;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = session_on_stop; /* no SA_RESTART: waits return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = session_on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	/* A closed output pipe is noticed as a write error and ends the run
	 * through the normal path, which cleans up. */
	signal(SIGPIPE, SIG_IGN);
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

static int session_start_lab(struct session *s, const struct options *o, char *err, size_t errlen)
{
	struct lab_settings *w = &s->want;
	*w = lab_settings_default();
	w->threads = o->threads;
	w->streams = o->streams;
	w->size = o->size;
	w->precision = (enum ctl_precision)o->precision;
	w->workers = o->workers;
	w->cpus = o->cpus;
	w->spin_off = o->spin_off;
	if (lab_settings_check(w, err, errlen) < 0)
		return EXIT_USAGE;
	if (lab_settings_check_mem(w, procinfo_mem_available(&s->root), err, errlen) < 0)
		return EXIT_USAGE;
	s->lab = lab_start(w, err, errlen);
	if (!s->lab)
		return errno == EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
	char msg[256] = "";
	int timeout_ms = lab_ready_timeout_ms(w);
	int rc = lab_wait_ready(s->lab, timeout_ms, msg, sizeof(msg));
	if (rc == -EIO) {
		snprintf(err, errlen, "the workload failed to start: %s", msg);
		return EXIT_RUNTIME;
	} else if (rc == -ETIMEDOUT) {
		snprintf(err, errlen,
			 "the workload did not start within %d s (n=%d may be too large for "
			 "this machine: try a smaller --size)",
			 timeout_ms / 1000, w->size);
		return EXIT_RUNTIME;
	}
	labview_init(&s->view);
	/* With one intra-op thread the single-thread rate is measured in
	 * passing (labview.h).  Otherwise measure it once now, before the
	 * first sample and the first screen; later size or precision changes
	 * never block: the rate then comes from a visit to one thread. */
	if (w->threads != 1) {
		double r = lab_single_rate(s->lab, w->size, w->precision);
		if (r > 0)
			labview_single_put(&s->view, w->size, (int)w->precision, r);
		lab_wait_ready(s->lab, timeout_ms, msg, sizeof(msg));
	}
	lab_read(s->lab, &s->lab_status);
	if (s->lab_status.quota_error[0]) {
		snprintf(s->message, sizeof(s->message), "%s", s->lab_status.quota_error);
		s->want.cpus = s->lab_status.quota_cpus;
	} else if (s->lab_status.blas_config[0]) {
		/* What the workload runs on, said once at start: the first two
		 * words of the config are the library and its version. */
		char cfg[128], core[64];
		const char *c = s->lab_status.blas_config, *e = strchr(c, ' ');
		if (e)
			e = strchr(e + 1, ' ');
		size_t n = e ? (size_t)(e - c) : strlen(c);
		text_safe(c, n, cfg, sizeof(cfg));
		text_safe(s->lab_status.blas_core, strlen(s->lab_status.blas_core), core,
			  sizeof(core));
		snprintf(s->message, sizeof(s->message),
			 "workload on %s, core %s, %s build, pool of %d thread(s)", cfg, core,
			 s->lab_status.blas_variant ? s->lab_status.blas_variant : "?",
			 s->lab_status.stream[0].pool);
	}
	s->target = lab_root_pid(s->lab);
	s->tree = true;
	return EXIT_OK;
}

int session_start(struct session *s, const struct options *o, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->opt = o;
	snapshot_init(&s->prev);
	snapshot_init(&s->cur);
	snapshot_rates_init(&s->rates);
	int rc = sysroot_open(&s->root, o->root);
	if (rc < 0) {
		snprintf(err, errlen, "cannot open root directory '%s': %s", o->root,
			 strerror(-rc));
		return EXIT_USAGE;
	}
	s->tree = o->tree;
	if (o->pid) {
		s->kind = SESSION_ATTACH;
		s->target = o->pid;
		if (s->root.live) {
			rc = session_check_pid(&s->root, o->pid, err, errlen);
			if (rc > 0)
				return rc;
			rc = proctree_check(&s->root, o->pid);
			if (rc == -ESRCH) {
				snprintf(err, errlen, "no process with PID %d", (int)o->pid);
				return EXIT_USAGE;
			} else if (rc < 0) {
				snprintf(err, errlen,
					 "may not read process %d: %s (run as its user or as root)",
					 (int)o->pid, strerror(-rc));
				return EXIT_USAGE;
			}
		}
	} else if (o->command) {
		s->kind = SESSION_LAUNCH;
		enum launch_stdio io = o->mode == MODE_BATCH ? LAUNCH_STDIO_STDERR : LAUNCH_STDIO_NULL;
		if (launch_start(&s->child, o->command, io, err, errlen) < 0)
			return EXIT_USAGE;
		s->target = s->child.pid;
	} else {
		s->kind = SESSION_LAB;
		if ((rc = session_start_lab(s, o, err, errlen)) != EXIT_OK)
			return rc;
	}
	s->sampler = sampler_new(&s->root, s->target, s->tree);
	if (!s->sampler) {
		int e = errno;
		if (e == ESRCH)
			snprintf(err, errlen, "no process with PID %d", (int)s->target);
		else
			snprintf(err, errlen,
				 "may not read process %d: %s (run as its user or as root)",
				 (int)s->target, strerror(e));
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

static void session_tick_lab(struct session *s)
{
	const char *dir = NULL;
	int version = 0;
	if (lab_quota_cgroup(s->lab, &dir, &version))
		sampler_set_cgroup_override(s->sampler, dir, version);
	else
		sampler_set_cgroup_override(s->sampler, NULL, 0);
	if (lab_read(s->lab, &s->lab_status) < 0)
		return;
	labview_feed(&s->view, &s->lab_status, session_now(), s->cur.budget.effective, 0, &s->work);
	if (s->have_rates)
		labview_cpu(s->rates.threads, s->rates.nthreads, &s->work);
}

int session_tick(struct session *s)
{
	launch_reap(&s->child);
	if (!s->target_gone) {
		struct snapshot next;
		snapshot_init(&next);
		int rc = sampler_sample(s->sampler, &next);
		if (rc == 0) {
			bool had = s->cur.time > 0;
			snapshot_move(&s->prev, &s->cur);
			snapshot_move(&s->cur, &next);
			if (had) {
				snapshot_rates(&s->prev, &s->cur, &s->rates);
				s->have_rates = true;
			}
		} else {
			s->target_gone = true;
			snapshot_free(&next);
			/* The sampler saw the command go (a zombie counts as gone):
			 * collect its status, waiting a little for the exit. */
			launch_reap_wait(&s->child, 1000);
		}
	}
	if (s->lab && !s->target_gone)
		session_tick_lab(s);
	return s->target_gone ? -ESRCH : 0;
}

int session_apply(struct session *s)
{
	if (!s->lab)
		return -ENOTSUP;
	char msg[256] = "";
	int rc = lab_apply(s->lab, &s->want, msg, sizeof(msg));
	snprintf(s->message, sizeof(s->message), "%s", msg);
	/* A quota that could not be set must not be shown as asked for: the
	 * settings go back to the quota really in effect. */
	if (rc < 0 && lab_read(s->lab, &s->lab_status) == 0 &&
	    s->lab_status.quota_cpus != (s->want.cpus > 0 ? s->want.cpus : 0))
		s->want.cpus = s->lab_status.quota_cpus;
	return rc;
}

void session_stop(struct session *s)
{
	if (s->lab) {
		lab_stop(s->lab);
		s->lab = NULL;
	}
	launch_stop(&s->child);
	sampler_free(s->sampler);
	s->sampler = NULL;
	snapshot_free(&s->prev);
	snapshot_free(&s->cur);
	snapshot_rates_free(&s->rates);
	if (s->root.fd > 0)
		sysroot_close(&s->root);
	s->root.fd = -1;
}

unsigned long long session_mem_available(const struct session *s)
{
	return procinfo_mem_available(&s->root);
}

const char *session_child_status(const struct session *s, char *buf, size_t cap)
{
	return launch_status_text(&s->child, buf, cap);
}
