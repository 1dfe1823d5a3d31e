/* sweep-fit.c — which sweep rows the Amdahl fit takes, and its caption
 * (sweep-fit.h). */
#include "sweep-fit.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool sweep_fit_left_out(enum verdict v, bool crowded)
{
	return v == VERDICT_CONTENDED || v == VERDICT_THROTTLED || crowded;
}

bool sweep_fit_marked(bool left_out, double workers, double cpus)
{
	return left_out || amdahl_beyond(workers, cpus);
}

/* A whole number above 0, or -1. */
static long sweep_fit_count(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	return *s && !*end && v > 0 ? v : -1;
}

int sweep_fit_cmd_knob(const struct sweep_cmd_opts *o)
{
	for (size_t k = 0; k < o->nknobs; k++) {
		const struct sweep_cmd_knob *kn = &o->knob[k];
		if (!strstr(kn->name, "THREADS") && strcmp(kn->name, "OMP_THREAD_LIMIT") != 0)
			continue;
		bool counts = kn->nvalues > 0;
		for (size_t v = 0; v < kn->nvalues && counts; v++)
			counts = sweep_fit_count(kn->values[v]) > 0;
		if (counts)
			return (int)k;
	}
	return -1;
}

double sweep_fit_cmd_threads(const struct sweep_cmd_opts *o, const struct sweep_cmd_row *r)
{
	int t = sweep_fit_cmd_knob(o);
	if (t < 0 || sweep_fit_count(o->knob[t].values[0]) != 1 || r->nknobs != o->nknobs)
		return NAN;
	for (size_t k = 0; k < o->nknobs; k++)
		if ((int)k != t && strcmp(r->value[k], o->knob[k].values[0]) != 0)
			return NAN;
	return (double)sweep_fit_count(r->value[t]);
}

double sweep_fit_cpus(double effective, double quota)
{
	return quota > 0 && quota < effective ? quota : effective;
}

double sweep_fit_labview_ref(const struct labview *v, int size, int precision, double single)
{
	for (size_t i = 0; i < v->npoints && i < LABVIEW_POINTS; i++) {
		const struct labview_point *p = &v->points[i];
		if (p->streams == 1 && p->threads == 1 && p->loaders == 0 && !p->left_out &&
		    p->gflops > 0 && labview_point_current(v, p, size, precision))
			return p->gflops;
	}
	return single;
}

int sweep_fit_labview(const struct labview *v, int size, int precision, double single,
		      double effective, struct amdahl_fit *out)
{
	struct amdahl_set set;
	amdahl_set_init(&set);
	single = sweep_fit_labview_ref(v, size, precision, single);
	for (size_t i = 0; single > 0 && i < v->npoints && i < LABVIEW_POINTS; i++) {
		const struct labview_point *p = &v->points[i];
		if (p->loaders == 0 && labview_point_current(v, p, size, precision))
			amdahl_set_add(&set, (double)p->streams * p->threads, p->gflops / single,
				       p->left_out);
	}
	return amdahl_fit(&set, effective, out);
}

/* Appends to buf at *len, as snprintf does, never past cap. */
static void sweep_fit_put(char *buf, size_t cap, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void sweep_fit_put(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
	if (*len >= cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
	va_end(ap);
	*len += n > 0 ? (size_t)n : 0;
	*len = *len < cap ? *len : cap;
}

/* Why points were left out: "contended or throttled", "more threads than
 * the 2 CPUs", or both with their counts. */
static void sweep_fit_why_out(char *buf, size_t cap, size_t *len, const struct amdahl_fit *f)
{
	if (f->points_excluded && f->points_beyond)
		sweep_fit_put(buf, cap, len, "%d contended or throttled, %d with more threads than "
					     "the %g CPUs",
			      f->points_excluded, f->points_beyond, f->cpus);
	else if (f->points_excluded)
		sweep_fit_put(buf, cap, len, "contended or throttled");
	else
		sweep_fit_put(buf, cap, len, "more threads than the %g CPUs", f->cpus);
}

void sweep_fit_caption(char *buf, size_t cap, const struct amdahl_fit *f)
{
	size_t len = 0;
	buf[0] = '\0';
	int out = f->points_excluded + f->points_beyond;
	if (!f->valid) {
		if (f->cpus <= 1)
			sweep_fit_put(buf, cap, &len,
				      "Amdahl fit: none (one CPU: more threads "
				      "cannot tell the serial fraction)");
		else if (f->points_slower)
			sweep_fit_put(buf, cap, &len,
				      "Amdahl fit: none (%d point%s above 1 thread slower than 1 "
				      "thread: the threads cost more than they share (overhead, "
				      "contention or a quota), which no serial fraction explains)",
				      f->points_slower, f->points_slower == 1 ? "" : "s");
		else if (out) {
			sweep_fit_put(buf, cap, &len, "Amdahl fit: none (%d point%s left out, ", out,
				      out == 1 ? "" : "s");
			sweep_fit_why_out(buf, cap, &len, f);
			sweep_fit_put(buf, cap, &len, "; none above 1 thread is left)");
		} else
			sweep_fit_put(buf, cap, &len, "Amdahl fit: none (no point above 1 thread)");
		return;
	}
	sweep_fit_put(buf, cap, &len, "Amdahl fit: serial fraction %.2f (", f->serial_fraction);
	if (isfinite(f->kf_min))
		sweep_fit_put(buf, cap, &len, "Karp-Flatt %.2f-%.2f, ", f->kf_min, f->kf_max);
	sweep_fit_put(buf, cap, &len, "%d point%s", f->points_used, f->points_used == 1 ? "" : "s");
	if (f->threads_min < f->threads_max)
		sweep_fit_put(buf, cap, &len, " at %g-%g threads", f->threads_min, f->threads_max);
	else
		sweep_fit_put(buf, cap, &len, " at %g thread%s", f->threads_min,
			      f->threads_min == 1 ? "" : "s");
	if (isfinite(f->r2))
		sweep_fit_put(buf, cap, &len, ", r2 %.2f", f->r2);
	if (out) {
		sweep_fit_put(buf, cap, &len, ", %d left out (marked *): ", out);
		sweep_fit_why_out(buf, cap, &len, f);
	}
	sweep_fit_put(buf, cap, &len, ")");
	const char *sep = ", predicts ";
	for (size_t i = 0; i < f->npred; i++)
		if (!f->pred[i].beyond) {
			sweep_fit_put(buf, cap, &len, "%s%.1fx at %g threads", sep,
				      f->pred[i].speedup, f->pred[i].threads);
			sep = ", ";
		}
	bool first = true;
	for (size_t i = 0; i < f->npred; i++)
		if (f->pred[i].beyond && f->pred[i].cpus > f->cpus) {
			if (first)
				sweep_fit_put(
				    buf, cap, &len,
				    "; a prediction beyond this box's %g CPUs: ", f->cpus);
			sweep_fit_put(buf, cap, &len, "%s%.1fx at %g CPUs", first ? "" : ", ",
				      f->pred[i].speedup, f->pred[i].cpus);
			first = false;
		}
}

void sweep_fit_caption_brief(char *buf, size_t cap, const struct amdahl_fit *f)
{
	size_t len = 0;
	buf[0] = '\0';
	if (!f->valid) {
		int out = f->points_excluded + f->points_beyond;
		sweep_fit_put(buf, cap, &len, "Amdahl: no fit (");
		if (f->points_slower)
			sweep_fit_put(buf, cap, &len, "%d slower than 1 thread)", f->points_slower);
		else if (!out)
			sweep_fit_put(buf, cap, &len, "no point above 1 thread)");
		else
			sweep_fit_put(buf, cap, &len, "%d left out: %s%s%s)", out,
				      f->points_excluded ? "contended/throttled" : "",
				      f->points_excluded && f->points_beyond ? ", " : "",
				      f->points_beyond ? "more threads than CPUs" : "");
		return;
	}
	sweep_fit_put(buf, cap, &len, "Amdahl s=%.2f (%d pt%s", f->serial_fraction,
		      f->points_used, f->points_used == 1 ? "" : "s");
	if (isfinite(f->kf_min))
		sweep_fit_put(buf, cap, &len, ", Karp-Flatt %.2f-%.2f", f->kf_min, f->kf_max);
	sweep_fit_put(buf, cap, &len, ")");
	const struct amdahl_pred *on = NULL, *beyond = NULL;
	for (size_t i = 0; i < f->npred; i++) {
		const struct amdahl_pred *p = &f->pred[i];
		if (!p->beyond && (!on || p->threads > on->threads))
			on = p;
		if (p->beyond && p->cpus > f->cpus && !beyond)
			beyond = p;
	}
	if (on)
		sweep_fit_put(buf, cap, &len, ": %.1fx at %g threads", on->speedup, on->threads);
	if (beyond)
		sweep_fit_put(buf, cap, &len, "%spredicted %.1fx at %g CPUs", on ? "; " : ": ",
			      beyond->speedup, beyond->cpus);
}
