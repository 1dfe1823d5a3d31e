/* session-roofline.c — the roofs the roofline needs, measured once.
 *
 * The memory roof is the triad's bandwidth (lab_status_memory_gbs: a second or
 * two, once per lab); the compute roof the single-thread GEMM rate, which
 * a GEMM session measures at start anyway and a triad session measures
 * here at the size it holds.  Both block while they run, as the start-up
 * calibration does; afterwards they come from the lab's caches. */
#include "config.h"

#include "session-impl.h"

#include <errno.h>

#include "session-progress-impl.h"
#include "settings-lab.h"
#include "lab-status.h"
#include "labview-ref.h"
#include "session-roofline.h"

int session_roofline_roofs(struct session *s)
{
	if (!s->impl->lab)
		return -ENOTSUP;
	struct settings *w = &s->want;
	if (labview_ref_single_gemm(&s->view, w->size, (int)w->precision) <= 0) {
		struct lab_settings l;
		settings_to_lab(w, &l);
		double r = lab_status_single_rate(s->impl->lab, l.size, l.precision);
		if (r > 0)
			labview_ref_single_put(&s->view, w->size, (int)w->precision, r);
	}
	if (s->view.memory_gbs > 0)
		return 0;
	double gbs = lab_status_memory_gbs(s->impl->lab);
	if (gbs <= 0) {
		session_say(s, true, "the memory bandwidth could not be measured: no memory roof");
		return -EIO;
	}
	labview_ref_memory_put(&s->view, gbs);
	session_say(s, false, "memory roof %.1f GB/s (the triad on every CPU, measured once)", gbs);
	return 0;
}
