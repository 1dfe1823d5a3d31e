/* knobs.c — the knob table (knobs.h): defaults, ranges, step rules. */
#include "config.h"

#include "knobs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define LL (KNOB_LAB | KNOB_LOGGED)

/* clang-format off */
static const struct knob knob_table[KNOB_COUNT] = {
    [KNOB_THREADS] = {
	.name = "threads", .option = "threads", .label = "threads", .flags = LL,
	.up_key = '+', .down_key = '-', .min = 1, .max = SETTINGS_MAX_THREADS, .def = 1,
	.rule = KNOB_ADD, .step = 1, .unit = "",
	.help = "intra-op threads per GEMM (OpenBLAS threads)",
	.noun = "intra-op threads per stream", .within = "intra-op threads stay"},
    [KNOB_STREAMS] = {
	.name = "streams", .option = "streams", .label = "streams", .flags = LL,
	.up_key = ']', .down_key = '[', .min = 1, .max = SETTINGS_MAX_STREAMS, .def = 1,
	.rule = KNOB_ADD, .step = 1, .unit = "",
	.help = "inter-op streams: GEMMs running at once",
	.noun = "inter-op streams", .within = "inter-op streams stay"},
    [KNOB_SIZE] = {
	.name = "size", .option = "size", .label = "n", .flags = LL,
	.up_key = '>', .down_key = '<', .min = SETTINGS_MIN_SIZE, .max = SETTINGS_MAX_SIZE, .def = 768,
	.rule = KNOB_GROW, .factor = 1.25, .step = 64, .key_min = 256, .unit = "",
	.help = "matrix size n of the n x n GEMM",
	.noun = "matrix size n", .within = "matrix size stays"},
    [KNOB_PRECISION] = {
	.name = "precision", .option = "precision", .label = "precision", .flags = LL,
	.up_key = 'd', .min = SETTINGS_SINGLE, .max = SETTINGS_DOUBLE, .def = SETTINGS_SINGLE,
	.rule = KNOB_TOGGLE, .unit = "",
	.help = "single (sgemm) or double (dgemm)",
	.noun = "single or double"},
    [KNOB_WORKERS] = {
	.name = "workers", .option = "workers", .label = "workers", .flags = LL,
	.up_key = 'w', .down_key = 'W', .min = 0, .max = SETTINGS_MAX_WORKERS, .def = 0,
	.rule = KNOB_ADD, .step = 1, .unit = "",
	.help = "background CPU-burning processes in the same quota",
	.noun = "background workers", .within = "background workers stay"},
    [KNOB_CPUS] = {
	.name = "cpus", .option = "cpus", .label = "quota", .flags = LL,
	.up_key = '}', .down_key = '{', .min = 0.01, .max = 4096, .def = 0,
	.rule = KNOB_QUOTA, .step = 0.5, .unit = "CPUs",
	.help = "run the workload (or --sweep's CMD) under a quota of X CPUs",
	.noun = "a quota in CPUs such as 1.5"},
    [KNOB_SPIN] = {
	.name = "blas_spin", .option = "spin", .label = "spin", .flags = LL,
	.up_key = 'B', .min = 0, .max = 1, .def = 0,
	.rule = KNOB_TOGGLE, .unit = "",
	.help = "OpenBLAS's idle threads spin (default) or sleep (off)",
	.noun = "default or off"},
    [KNOB_BLAS] = {
	.name = "blas", .option = "blas", .label = "blas", .flags = LL,
	.up_key = 'b', .min = SETTINGS_BLAS_PTHREADS, .max = SETTINGS_BLAS_OPENMP, .def = SETTINGS_BLAS_PTHREADS,
	.rule = KNOB_TOGGLE, .unit = "",
	.help = "pthreads or openmp: which OpenBLAS build the helpers load",
	.noun = "pthreads or openmp"},
    [KNOB_LOADERS] = {
	.name = "loaders", .option = "loaders", .label = "loaders", .flags = LL,
	.up_key = 'l', .down_key = 'L', .min = 0, .max = SETTINGS_MAX_LOADERS, .def = 0,
	.rule = KNOB_ADD, .step = 1, .unit = "",
	.help = "input-pipeline loader processes preparing batches (0: no pipeline, GEMMs need no input)",
	.noun = "input-pipeline loaders", .within = "input-pipeline loaders stay"},
    [KNOB_PREP_MS] = {
	.name = "prep_ms", .option = "prep-ms", .label = "prep", .flags = LL,
	.up_key = 'x', .down_key = 'X', .min = 0, .max = SETTINGS_MAX_PREP_MS, .def = 20,
	.rule = KNOB_PREP, .factor = 1.5, .step = 1, .unit = "ms",
	.help = "CPU time a loader spends on one batch",
	.noun = "ms of CPU work per batch", .within = "batch preparation stays"},
    [KNOB_PREFETCH] = {
	.name = "prefetch", .option = "prefetch", .label = "prefetch", .flags = LL,
	.up_key = 'f', .down_key = 'F', .min = 1, .max = SETTINGS_MAX_PREFETCH, .def = 2,
	.rule = KNOB_ADD, .step = 1, .unit = "batches per loader",
	.help = "ring slots per loader (batches prepared ahead)",
	.noun = "ring slots per loader", .within = "prefetch stays"},
    [KNOB_KERNEL] = {
	.name = "kernel", .option = "kernel", .label = "kernel", .flags = LL,
	.up_key = 'k', .min = SETTINGS_GEMM, .max = SETTINGS_TRIAD, .def = SETTINGS_GEMM,
	.rule = KNOB_TOGGLE, .unit = "",
	.help = "gemm, or triad: a memory-bound STREAM-style triad over arrays far larger than the caches",
	.noun = "gemm or triad"},
    [KNOB_PAUSED] = {
	.name = "paused", .option = "paused", .label = "paused", .flags = KNOB_LAB,
	.up_key = ' ', .min = 0, .max = 1, .def = 0,
	.rule = KNOB_TOGGLE, .unit = "",
	.help = "pause / resume the workload",
	.noun = "running or paused"},
    [KNOB_INTERVAL] = {
	.name = "interval", .option = "interval", .label = "refresh",
	.up_key = 'I', .down_key = 'i', .min = 0.01, .max = 3600, .def = 1,
	.rule = KNOB_LIST, .unit = "s",
	.help = "time between samples (fractions such as 0.05 work; --all: 1 or more)",
	.noun = "seconds between samples", .within = "refresh interval stays"},
};
/* clang-format on */

#undef LL

/* The dashboard's refresh intervals, narrower than the interval's range: the
 * command line's -i goes from 0.01 s (--batch, --record) to an hour. */
const double knobs_intervals[] = {0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10};
const size_t knobs_nintervals = sizeof(knobs_intervals) / sizeof(knobs_intervals[0]);

const struct knob *knobs_get(enum knob_id k)
{
	return k > KNOB_NONE && k < KNOB_COUNT ? &knob_table[k] : NULL;
}

enum knob_id knobs_of_key(int key, int *dir)
{
	for (int k = KNOB_NONE + 1; key && k < KNOB_COUNT; k++) {
		const struct knob *e = &knob_table[k];
		if (e->up_key == key || e->down_key == key) {
			*dir = e->rule == KNOB_TOGGLE ? 0 : e->up_key == key ? +1 : -1;
			return (enum knob_id)k;
		}
	}
	*dir = 0;
	return KNOB_NONE;
}

double knobs_value(const struct settings *s, enum knob_id k)
{
	switch (k) {
	case KNOB_THREADS:
		return s->threads;
	case KNOB_STREAMS:
		return s->streams;
	case KNOB_SIZE:
		return s->size;
	case KNOB_PRECISION:
		return s->precision;
	case KNOB_WORKERS:
		return s->workers;
	case KNOB_CPUS:
		return s->cpus;
	case KNOB_SPIN:
		return s->spin_off;
	case KNOB_BLAS:
		return s->blas;
	case KNOB_LOADERS:
		return s->loaders;
	case KNOB_PREP_MS:
		return s->prep_ms;
	case KNOB_PREFETCH:
		return s->prefetch;
	case KNOB_KERNEL:
		return s->kernel;
	case KNOB_PAUSED:
		return s->paused;
	default:
		return 0;
	}
}

void knobs_set(struct settings *s, enum knob_id k, double v)
{
	int i = (int)lround(v);
	switch (k) {
	case KNOB_THREADS:
		s->threads = i;
		break;
	case KNOB_STREAMS:
		s->streams = i;
		break;
	case KNOB_SIZE:
		s->size = i;
		break;
	case KNOB_PRECISION:
		s->precision = i ? SETTINGS_DOUBLE : SETTINGS_SINGLE;
		break;
	case KNOB_WORKERS:
		s->workers = i;
		break;
	case KNOB_CPUS:
		s->cpus = v;
		break;
	case KNOB_SPIN:
		s->spin_off = i != 0;
		break;
	case KNOB_BLAS:
		s->blas = i ? SETTINGS_BLAS_OPENMP : SETTINGS_BLAS_PTHREADS;
		break;
	case KNOB_LOADERS:
		s->loaders = i;
		break;
	case KNOB_PREP_MS:
		s->prep_ms = i;
		break;
	case KNOB_PREFETCH:
		s->prefetch = i;
		break;
	case KNOB_KERNEL:
		s->kernel = i ? SETTINGS_TRIAD : SETTINGS_GEMM;
		break;
	case KNOB_PAUSED:
		s->paused = i != 0;
		break;
	default:
		break;
	}
}

size_t knobs_format(const struct settings *s, enum knob_id k, char *out, size_t cap)
{
	int n;
	switch (k) {
	case KNOB_PRECISION:
		n = snprintf(out, cap, "%s", s->precision == SETTINGS_DOUBLE ? "double" : "single");
		break;
	case KNOB_CPUS:
		n = s->cpus > 0 ? snprintf(out, cap, "%g", s->cpus) : snprintf(out, cap, "none");
		break;
	case KNOB_SPIN:
		n = snprintf(out, cap, "%s", s->spin_off ? "off" : "default");
		break;
	case KNOB_BLAS:
		n = snprintf(out, cap, "%s", settings_blas_name(s->blas));
		break;
	case KNOB_KERNEL:
		n = snprintf(out, cap, "%s", s->kernel == SETTINGS_TRIAD ? "triad" : "gemm");
		break;
	case KNOB_PAUSED:
		n = snprintf(out, cap, "%s", s->paused ? "paused" : "running");
		break;
	default:
		n = snprintf(out, cap, "%g", knobs_value(s, k));
		break;
	}
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

enum knob_id knobs_of_option(const char *name)
{
	for (int k = KNOB_NONE + 1; k < KNOB_COUNT; k++)
		if (knob_table[k].option && strcmp(knob_table[k].option, name) == 0)
			return (enum knob_id)k;
	return KNOB_NONE;
}

size_t knobs_rule_words(enum knob_id k, char *out, size_t cap)
{
	const struct knob *e = knobs_get(k);
	int n = 0;
	if (cap == 0)
		return 0;
	out[0] = '\0';
	if (e && (e->rule == KNOB_GROW || e->rule == KNOB_PREP))
		n = snprintf(out, cap, "x%g", e->factor);
	else if (e && (e->rule == KNOB_ADD || e->rule == KNOB_QUOTA))
		n = snprintf(out, cap, "%g", e->step);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

size_t knobs_describe(enum knob_id k, char *out, size_t cap)
{
	const struct knob *e = knobs_get(k);
	if (!e || cap == 0) {
		if (cap)
			out[0] = '\0';
		return 0;
	}
	struct settings s = knobs_defaults();
	char def[32];
	if (e->flags & KNOB_LAB)
		knobs_format(&s, k, def, sizeof(def));
	else
		snprintf(def, sizeof(def), "%g", e->def);
	int n;
	if (e->rule == KNOB_ADD || e->rule == KNOB_GROW || e->rule == KNOB_PREP ||
	    e->rule == KNOB_LIST)
		n = snprintf(out, cap, ", %g-%g; default %s", e->min, e->max, def);
	else
		n = snprintf(out, cap, "; default %s", def);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

struct settings knobs_defaults(void)
{
	struct settings s = {0};
	for (int k = KNOB_NONE + 1; k < KNOB_COUNT; k++)
		if (knob_table[k].flags & KNOB_LAB)
			knobs_set(&s, (enum knob_id)k, knob_table[k].def);
	return s;
}

int knobs_check_value(enum knob_id k, double v, char *err, size_t errlen)
{
	const struct knob *e = knobs_get(k);
	if (!e)
		return -EINVAL;
	if (k == KNOB_CPUS) {
		/* 0 (or below, from a caller) is no quota. */
		if (isnan(v) || v > e->max) {
			snprintf(err, errlen, "%s: give %s (or none)", e->option, e->noun);
			return -EINVAL;
		}
		if (v > 0 && v < e->min) {
			snprintf(err, errlen, "%s %g: the smallest quota is %g %s", e->option, v,
				 e->min, e->unit);
			return -EINVAL;
		}
		return 0;
	}
	if (v >= e->min && v <= e->max)
		return 0;
	if (e->rule == KNOB_TOGGLE)
		snprintf(err, errlen, "%s %g: use %s", e->option, v, e->noun);
	else if (k == KNOB_SIZE)
		snprintf(err, errlen,
			 "%s %g: give a %s from %g to %g (at n = %g the 1-thread reference GEMM "
			 "alone takes seconds)",
			 e->option, v, e->noun, e->min, e->max, e->max);
	else
		snprintf(err, errlen, "%s %g: give %g to %g %s", e->option, v, e->min, e->max,
			 e->noun);
	return -EINVAL;
}

int knobs_check(const struct settings *s, char *err, size_t errlen)
{
	for (int k = KNOB_NONE + 1; k < KNOB_COUNT; k++) {
		if (!(knob_table[k].flags & KNOB_LAB))
			continue;
		int rc = knobs_check_value((enum knob_id)k, knobs_value(s, (enum knob_id)k), err,
					   errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void knobs_key_range(enum knob_id k, double *lo, double *hi)
{
	const struct knob *e = knobs_get(k);
	*lo = e ? e->min : 0;
	*hi = e ? e->max : 0;
	if (e && e->rule == KNOB_GROW)
		*lo = e->key_min;
	if (e && e->rule == KNOB_LIST) {
		*lo = knobs_intervals[0];
		*hi = knobs_intervals[knobs_nintervals - 1];
	}
}

/* The refusal of a key that cannot move e: "<within> within lo..hi unit",
 * the keys' range. */
static int knob_refuse(const struct knob *e, char *msg, size_t cap)
{
	double lo, hi;
	knobs_key_range((enum knob_id)(e - knob_table), &lo, &hi);
	snprintf(msg, cap, "%s within %g..%g%s%s", e->within, lo, hi, *e->unit ? " " : "", e->unit);
	return -ERANGE;
}

int knobs_refusal(enum knob_id k, char *msg, size_t cap)
{
	const struct knob *e = knobs_get(k);
	if (!e || !e->within) {
		snprintf(msg, cap, "%s cannot go further", e ? e->name : "that knob");
		return -ERANGE;
	}
	return knob_refuse(e, msg, cap);
}

static int knob_step_list(const struct knob *e, double cur, int dir, double *next, char *msg,
			  size_t cap)
{
	double v = cur;
	if (dir < 0) {
		for (size_t i = knobs_nintervals; i-- > 0;)
			if (knobs_intervals[i] < cur - 1e-9) {
				v = knobs_intervals[i];
				break;
			}
	} else {
		for (size_t i = 0; i < knobs_nintervals; i++)
			if (knobs_intervals[i] > cur + 1e-9) {
				v = knobs_intervals[i];
				break;
			}
	}
	if (v == cur)
		return knob_refuse(e, msg, cap);
	*next = v;
	return 0;
}

/* Up from no quota starts at one step; down from no quota one step below
 * the top; down to 0 (or dir 0) lifts the quota. */
static int knob_step_quota(const struct knob *e, double cur, int dir, double top, double *next,
			   char *msg, size_t cap)
{
	double v;
	if (top <= 0)
		top = 1;
	if (dir == 0)
		v = 0;
	else if (cur <= 0)
		v = dir > 0 ? e->step : top - e->step;
	else
		v = cur + dir * e->step;
	if (v > top + 1e-9) {
		snprintf(msg, cap, "quota is at the online CPU count (%g); u removes it", top);
		return -ERANGE;
	}
	if (v < e->step - 1e-9)
		v = 0;
	if (v <= 0 && cur <= 0) {
		snprintf(msg, cap, "no quota to remove");
		return -ERANGE;
	}
	*next = v;
	return 0;
}

int knobs_step(enum knob_id k, double cur, int dir, double top, double *next, char *msg, size_t cap)
{
	const struct knob *e = knobs_get(k);
	if (!e) {
		snprintf(msg, cap, "no such knob");
		return -EINVAL;
	}
	double v = cur;
	switch (e->rule) {
	case KNOB_TOGGLE:
		*next = cur == e->max ? e->min : e->max;
		return 0;
	case KNOB_LIST:
		return knob_step_list(e, cur, dir, next, msg, cap);
	case KNOB_QUOTA:
		return knob_step_quota(e, cur, dir, top, next, msg, cap);
	case KNOB_ADD:
		v = cur + dir * e->step;
		break;
	case KNOB_GROW:
		if (dir > 0)
			v = ceil(ceil(cur * e->factor) / e->step) * e->step;
		else
			v = floor(floor(cur / e->factor) / e->step) * e->step;
		v = fmax(v, e->key_min);
		v = fmin(v, e->max);
		/* Started below the key range (--size 128): down never grows. */
		if (dir < 0 && v > cur)
			v = cur;
		if (v == cur)
			return knob_refuse(e, msg, cap);
		break;
	case KNOB_PREP:
		if (dir > 0)
			v = cur < 2 ? cur + 1 : (double)lround(cur * e->factor);
		else
			v = cur <= 2 ? cur - 1 : (double)lround(cur / e->factor);
		break;
	}
	*next = v;
	return 0;
}
