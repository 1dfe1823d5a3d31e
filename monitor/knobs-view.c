/* knobs-view.c — a value within a knob's range, and the lab's knobs in
 * the workload object (knobs-view.h). */
#include "config.h"

#include "knobs-view.h"

#include <string.h>

int knobs_view_clamp(enum knob_id k, int v, int lo)
{
	const struct knob *e = knobs_get(k);
	if (!e)
		return v;
	int min = (int)e->min, max = (int)e->max;
	if (lo < min)
		lo = min;
	return v < lo ? lo : v > max ? max : v;
}

/* The order, forms and keys recordings have had since each knob came
 * (the knob's name, but for the build): changing one would leave those
 * recordings unread. */
static const struct knobs_view_json knobs_view_json_table[] = {
    {KNOB_THREADS, NULL, KNOBS_VIEW_INT, 1},
    {KNOB_STREAMS, NULL, KNOBS_VIEW_INT, 1},
    {KNOB_SIZE, NULL, KNOBS_VIEW_INT, 0},
    {KNOB_PRECISION, NULL, KNOBS_VIEW_WORD, SETTINGS_SINGLE},
    {KNOB_KERNEL, NULL, KNOBS_VIEW_KERNEL, SETTINGS_GEMM},
    {KNOB_WORKERS, NULL, KNOBS_VIEW_INT, 0},
    {KNOB_CPUS, NULL, KNOBS_VIEW_QUOTA, 0},
    {KNOB_PAUSED, NULL, KNOBS_VIEW_BOOL, 0},
    {KNOB_SPIN, NULL, KNOBS_VIEW_WORD, 0},
    {KNOB_BLAS, "blas_build", KNOBS_VIEW_WORD, SETTINGS_BLAS_PTHREADS},
    {KNOB_LOADERS, NULL, KNOBS_VIEW_INT, 0},
    {KNOB_PREP_MS, NULL, KNOBS_VIEW_INT, 0},
    {KNOB_PREFETCH, NULL, KNOBS_VIEW_INT, 0},
};

const char *knobs_view_json_key(const struct knobs_view_json *e)
{
	return e->key ? e->key : knobs_get(e->knob)->name;
}

const struct knobs_view_json *knobs_view_json(size_t *n)
{
	*n = sizeof(knobs_view_json_table) / sizeof(knobs_view_json_table[0]);
	return knobs_view_json_table;
}

void knobs_view_of_report(const struct workload_report *w, struct settings *out)
{
	*out = (struct settings){
	    .threads = w->threads,
	    .streams = w->streams,
	    .size = w->size,
	    .precision = (enum settings_precision)knobs_view_of_word(
		KNOB_PRECISION, w->precision ? w->precision : ""),
	    .paused = w->paused,
	    .workers = w->workers,
	    .cpus = w->cpus,
	    .spin_off = w->spin_off,
	    .blas = (enum settings_blas)knobs_view_of_word(KNOB_BLAS, w->blas ? w->blas : ""),
	    .loaders = w->loaders,
	    .prep_ms = w->prep_ms,
	    .prefetch = w->prefetch,
	    .kernel =
		(enum settings_kernel)knobs_view_of_word(KNOB_KERNEL, w->kernel ? w->kernel : ""),
	};
}

void knobs_view_to_report(const struct settings *s, struct workload_report *w)
{
	w->threads = s->threads;
	w->streams = s->streams;
	w->size = s->size;
	w->precision = s->precision == SETTINGS_DOUBLE ? "double" : "single";
	w->paused = s->paused;
	w->workers = s->workers;
	w->cpus = s->cpus;
	w->spin_off = s->spin_off;
	w->blas = settings_blas_name(s->blas);
	w->loaders = s->loaders;
	w->prep_ms = s->prep_ms;
	w->prefetch = s->prefetch;
}

double knobs_view_of_word(enum knob_id k, const char *word)
{
	const struct knob *e = knobs_get(k);
	if (!e)
		return 0;
	struct settings s = knobs_defaults();
	char buf[32];
	for (int v = (int)e->min; v <= (int)e->max && v - (int)e->min < 16; v++) {
		knobs_set(&s, k, v);
		knobs_format(&s, k, buf, sizeof(buf));
		if (strcmp(buf, word) == 0)
			return v;
	}
	return e->def;
}
