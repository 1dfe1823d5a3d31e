/* session-knob.c — settings checks and one knob's step (session-knob.h). */
#include "config.h"

#include "session-knob.h"

#include <stdio.h>

#include "procinfo.h"
#include "session-impl.h"
#include "settings-lab.h"
#include "lab-settings.h"

/* What the table cannot know: the build's presence, the memory and the
 * limits. */
static int session_check_fit(const struct session *s, const struct settings *asked_for, char *err,
			     size_t errlen)
{
	struct lab_settings want;
	settings_to_lab(asked_for, &want);
	int rc = lab_settings_check(&want, err, errlen);
	if (rc == 0 && s && s->impl)
		rc = lab_settings_check_mem(&want, procinfo_mem_available(&s->impl->root), err,
					    errlen);
	if (rc == 0)
		rc = lab_settings_check_rlimits(&want, err, errlen);
	return rc;
}

int session_knob_check_settings(const struct session *s, const struct settings *want, char *err,
				size_t errlen)
{
	int rc = knobs_check(want, err, errlen);
	return rc < 0 ? rc : session_check_fit(s, want, err, errlen);
}

/* What a step to t says. */
static void session_knob_said(enum knob_id k, const struct settings *t, char *msg, size_t cap)
{
	switch (k) {
	case KNOB_THREADS:
		snprintf(msg, cap, "intra-op threads %d", t->threads);
		break;
	case KNOB_STREAMS:
		snprintf(msg, cap, "inter-op streams %d", t->streams);
		break;
	case KNOB_SIZE:
		snprintf(msg, cap, "matrix size n=%d", t->size);
		break;
	case KNOB_PRECISION:
		snprintf(msg, cap, "precision %s",
			 t->precision == SETTINGS_DOUBLE ? "double (dgemm)" : "single (sgemm)");
		break;
	case KNOB_KERNEL:
		if (t->kernel == SETTINGS_TRIAD)
			snprintf(msg, cap,
				 "kernel triad: memory-bound, %.0f MiB arrays (o: the roofline)",
				 settings_triad_mib(t->precision));
		else
			snprintf(msg, cap, "kernel GEMM n=%d: compute-bound (o: the roofline)",
				 t->size);
		break;
	case KNOB_WORKERS:
		snprintf(msg, cap, "background workers %d", t->workers);
		break;
	case KNOB_CPUS:
		if (t->cpus > 0)
			snprintf(msg, cap, "quota %.1f CPUs", t->cpus);
		else
			snprintf(msg, cap, "quota removed");
		break;
	case KNOB_PAUSED:
		snprintf(msg, cap, "%s", t->paused ? "paused" : "running");
		break;
	case KNOB_LOADERS:
		if (t->loaders == 0)
			snprintf(msg, cap, "no input pipeline: GEMMs need no batches");
		else
			snprintf(msg, cap, "loaders %d, %d ms of CPU per batch", t->loaders,
				 t->prep_ms);
		break;
	case KNOB_PREP_MS:
		snprintf(msg, cap, "%d ms of CPU per batch%s", t->prep_ms,
			 t->loaders ? "" : " (no loaders yet: l adds one)");
		break;
	case KNOB_PREFETCH:
		snprintf(msg, cap, "prefetch %d batches per loader", t->prefetch);
		break;
	case KNOB_BLAS:
		snprintf(msg, cap, "the %s build of OpenBLAS: the helpers restart",
			 settings_blas_name(t->blas));
		break;
	case KNOB_SPIN:
		snprintf(msg, cap, "%s: the helpers restart",
			 t->spin_off
			     ? "spin off (OPENBLAS_THREAD_TIMEOUT=1, OMP_WAIT_POLICY=PASSIVE)"
			     : "spin default");
		break;
	default:
		snprintf(msg, cap, "%s", knobs_get(k) ? knobs_get(k)->name : "?");
		break;
	}
}

int session_knob_step(const struct session *s, struct settings *want, enum knob_id k, int dir,
		      int online, char *msg, size_t cap)
{
	const struct knob *e = knobs_get(k);
	double next;
	if (!e || !(e->flags & KNOB_LAB)) {
		snprintf(msg, cap, "not a setting of the lab");
		return 0;
	}
	if (knobs_step(k, knobs_value(want, k), dir, online, &next, msg, cap) < 0)
		return 0;
	struct settings t = *want;
	knobs_set(&t, k, next);
	if (knobs_check_value(k, next, msg, cap) < 0) {
		knobs_refusal(k, msg, cap);
		return 0;
	}
	/* Pausing changes neither memory nor limits. */
	if (k != KNOB_PAUSED && session_check_fit(s, &t, msg, cap) < 0)
		return 0;
	session_knob_said(k, &t, msg, cap);
	*want = t;
	return 1;
}
