/* session-lab.c — the lab's side of a session: starting the workload,
 * reading it every tick into the lab view, its events as messages, the
 * anchor brought back when it died, and the settings asked for applied
 * and compared with those in effect. */
#include "config.h"

#include "session-lab-impl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "collector-impl.h"
#include "knobs.h"
#include "session-knob.h"
#include "session-progress-impl.h"
#include "stop.h"
#include "lab-settings.h"
#include "lab-status.h"
#include "labview-ref.h"
#include "session-impl.h"
#include "session-lab.h"
#include "session-roofline.h"

/* What the workload runs on, said once at start: the first two words of
 * the config are the library and its version. */
static void session_lab_hello(struct session *s)
{
	const struct lab_status *st = &s->impl->lab_status;
	const char *c = st->blas_config, *e = strchr(c, ' ');
	if (e)
		e = strchr(e + 1, ' ');
	int n = e ? (int)(e - c) : (int)strlen(c);
	session_say(s, false, "workload on %.*s, core %.63s, %s build, pool of %d thread(s)",
		    n > 120 ? 120 : n, c, st->blas_core, st->blas_variant ? st->blas_variant : "?",
		    st->stream[0].pool);
}

int session_lab_start(struct session *s, char *err, size_t errlen)
{
	struct settings *w = &s->want;
	struct lab_settings lw;
	*w = s->cfg.lab;
	if (session_knob_check_settings(s, w, err, errlen) < 0)
		return EXIT_USAGE;
	settings_to_lab(w, &lw);
	s->impl->lab = lab_start(&lw, err, errlen);
	if (!s->impl->lab)
		return errno == EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
	char msg[256] = "";
	int timeout_ms = lab_settings_ready_timeout_ms(&lw);
	int rc = lab_status_wait_ready(s->impl->lab, timeout_ms, msg, sizeof(msg));
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
		double r = lab_status_single_rate(s->impl->lab, lw.size, lw.precision);
		if (r > 0)
			labview_ref_single_put(&s->view, w->size, (int)w->precision, r);
		lab_status_wait_ready(s->impl->lab, timeout_ms, msg, sizeof(msg));
	}
	/* The triad's roofline needs both roofs; --roofline asks for them. */
	if (w->kernel == SETTINGS_TRIAD || s->cfg.roofline) {
		session_roofline_roofs(s);
		lab_status_wait_ready(s->impl->lab, timeout_ms, msg, sizeof(msg));
	}
	lab_status_read(s->impl->lab, &s->impl->lab_status);
	if (s->impl->lab_status.quota_error[0]) {
		session_say(s, true, "%s", s->impl->lab_status.quota_error);
		s->want.cpus = s->impl->lab_status.quota_cpus;
	} else if (s->impl->lab_status.blas_config[0]) {
		session_lab_hello(s);
	}
	for (int i = 0; i < SETTINGS_MAX_STREAMS; i++)
		s->impl->restarts_seen[i] = s->impl->lab_status.stream[i].restarts;
	s->target = lab_root_pid(s->impl->lab);
	s->tree = true;
	return EXIT_OK;
}

/* A helper the lab restarted, or a stream that failed for good: said
 * once per event. */
static void session_lab_events(struct session *s)
{
	const struct lab_status *st = &s->impl->lab_status;
	for (int i = 0; i < st->nslots && i < SETTINGS_MAX_STREAMS; i++) {
		const struct lab_stream_status *ss = &st->stream[i];
		if (ss->restarts > s->impl->restarts_seen[i]) {
			char m[SESSION_MESSAGE_LEN];
			session_lab_restart_text(m, sizeof(m), i, ss->restarts, ss->last_failure);
			session_say(s, true, "%s", m);
			/* The sample that saw it says so too (batch JSON "error"). */
			if (!s->work.error[0])
				snprintf(s->work.error, sizeof(s->work.error), "%.*s",
					 (int)sizeof(s->work.error) - 1, m);
		}
		s->impl->restarts_seen[i] = ss->restarts;
	}
	for (int k = 0; k < SETTINGS_MAX_LOADERS; k++) {
		const struct lab_loader_status *ls = &st->loader[k];
		if (ls->restarts > s->impl->loader_restarts_seen[k]) {
			session_say(s, true, "loader %d: %s, restarted (restart %u)", k,
				    ls->last_failure[0] ? ls->last_failure : "loader died",
				    ls->restarts);
			if (!s->work.error[0])
				snprintf(s->work.error, sizeof(s->work.error), "%.*s",
					 (int)sizeof(s->work.error) - 1, s->message);
		}
		s->impl->loader_restarts_seen[k] = ls->restarts;
	}
	if (s->impl->lab_event[0]) {
		/* Said already (session_lab_recover): into the sample only. */
		if (!s->work.error[0]) {
			snprintf(s->work.error, sizeof(s->work.error), "%s", s->impl->lab_event);
			snprintf(s->impl->error_seen, sizeof(s->impl->error_seen), "%s",
				 s->impl->lab_event);
		}
		s->impl->lab_event[0] = '\0';
	}
	const char *e = s->work.error;
	if (e[0] && strcmp(e, s->impl->error_seen) != 0)
		session_say(s, true, "workload failed: %s", e);
	snprintf(s->impl->error_seen, sizeof(s->impl->error_seen), "%s", e);
}

size_t session_lab_restart_text(char *out, size_t cap, int stream, unsigned restarts,
				const char *failure)
{
	int n = snprintf(out, cap, "stream %d: %s, restarted (restart %u)", stream,
			 failure && failure[0] ? failure : "helper died", restarts);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

void session_lab_tick(struct session *s)
{
	const char *dir = NULL;
	int version = 0;
	if (lab_keep_quota(s->impl->lab))
		session_say(s, true,
			    "the quota cgroup was removed from outside: made again, "
			    "the workload back under %.2f CPUs",
			    s->want.cpus);
	if (lab_quota_cgroup(s->impl->lab, &dir, &version))
		sampler_set_cgroup_override(s->impl->sampler, dir, version);
	else
		sampler_set_cgroup_override(s->impl->sampler, NULL, 0);
	if (lab_status_read(s->impl->lab, &s->impl->lab_status) < 0)
		return;
	if (s->have_rates && s->impl->cur.cpus.n > 0) {
		/* Other processes' CPUs: the box's busy CPUs less the lab's. */
		double other =
		    s->impl->cur.cpus.total_busy_pct / 100.0 * (double)s->impl->cur.cpus.n -
		    s->impl->rates.total_cpu_pct / 100.0;
		labview_ref_conditions(&s->view, stop_now(), other > 0 ? other : 0);
	}
	/* The tour's reference is lesson 1's n and precision's: another
	 * size or kernel (lesson 4's n=256, lesson 9's triad) has its own. */
	bool ref = s->single_ref > 0 && settings_rate_key(&s->want) == s->single_ref_key &&
		   (int)s->want.precision == s->single_ref_precision;
	labview_feed(&s->view, &s->impl->lab_status, stop_now(), s->impl->cur.budget.effective,
		     ref ? s->single_ref : 0, &s->work);
	if (s->have_rates)
		labview_cpu(s->impl->rates.threads, s->impl->rates.nthreads, &s->work);
	session_lab_events(s);
}

bool session_lab_recover(struct session *s)
{
	char m[SESSION_MESSAGE_LEN];
	int rc = lab_recover(s->impl->lab, m, sizeof(m));
	if (rc == 0 || !m[0])
		return false;
	session_say(s, true, "%s", m);
	snprintf(s->impl->lab_event, sizeof(s->impl->lab_event), "%.*s",
		 (int)sizeof(s->impl->lab_event) - 1, m);
	if (rc < 0) {
		snprintf(s->gone_why, sizeof(s->gone_why), "%s", m);
		return false;
	}
	struct sampler *next = sampler_new(&s->impl->root, lab_root_pid(s->impl->lab), true);
	if (!next)
		return false;
	sampler_set_detail_period(next, s->cfg.detail_period);
	collector_attach(next, s->impl->root.live);
	sampler_free(s->impl->sampler);
	s->impl->sampler = next;
	s->target = lab_root_pid(s->impl->lab);
	s->have_rates = false;
	return true;
}

int session_lab_apply(struct session *s)
{
	if (!s->impl->lab)
		return -ENOTSUP;
	char msg[256] = "";
	/* The triad's first visit: its roof first (the lab then runs the
	 * settings before, and the new ones below). */
	if (s->want.kernel == SETTINGS_TRIAD && s->view.memory_gbs <= 0)
		session_roofline_roofs(s);
	struct lab_settings lw;
	settings_to_lab(&s->want, &lw);
	int rc = lab_apply(s->impl->lab, &lw, msg, sizeof(msg));
	if (msg[0])
		session_say(s, rc < 0, "%s", msg);
	/* A quota that could not be set must not be shown as asked for: the
	 * settings go back to the quota really in effect. */
	if (lab_status_read(s->impl->lab, &s->impl->lab_status) == 0 && rc < 0 &&
	    s->impl->lab_status.quota_cpus != (s->want.cpus > 0 ? s->want.cpus : 0))
		s->want.cpus = s->impl->lab_status.quota_cpus;
	return rc;
}

unsigned session_lab_pending_of(const struct settings *asked_for, const struct lab_status *st)
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

unsigned session_lab_pending(const struct session *s)
{
	if (s->kind != SESSION_LAB)
		return 0;
	return session_lab_pending_of(&s->want, &s->impl->lab_status);
}

unsigned session_lab_poll(struct session *s)
{
	if (s->kind == SESSION_LAB && s->impl->lab && !s->target_gone)
		lab_status_read(s->impl->lab, &s->impl->lab_status);
	return session_lab_pending(s);
}

bool session_lab_live(const struct session *s)
{
	return s->kind == SESSION_LAB && s->impl && s->impl->lab;
}

enum labview_mark session_lab_thread_mark(const struct session *s, const struct model_thread *t)
{
	const struct lab_status *st =
	    s->kind == SESSION_LAB && s->impl ? &s->impl->lab_status : NULL;
	return labview_mark(t->pid, t->name, t->name_len, st);
}
