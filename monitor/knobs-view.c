/* knobs-view.c — a value within a knob's range (knobs-view.h). */
#include "config.h"

#include "knobs-view.h"

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
