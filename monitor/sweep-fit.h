/* sweep-fit.h — Amdahl's law (amdahl.h) fitted to a sweep's rows.
 *
 * Which rows are scaling points, and at how many workers:
 *   the lab sweep (sweep.h): every row, at streams x threads workers;
 *   the command sweep (sweep-cmd.h): rows of the thread knob, the first
 *     knob whose name holds "THREADS" (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS,
 *     …) or is OMP_THREAD_LIMIT and whose values are all whole numbers
 *     above 0, when its baseline value is 1 (speedups are to the baseline)
 *     and every other knob holds its baseline value.
 * A row the diagnosis read as contended or throttled is a point left out
 * (amdahl.h), and so is a row of more workers than the whole CPUs: the fit
 * never takes them in, and says how many it left out and why.
 * The CPUs C are the budget's effective CPUs, or the sweep's --cpus quota
 * when that is lower. */
#ifndef THREADLAB_SWEEP_FIT_H
#define THREADLAB_SWEEP_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "amdahl.h"
#include "diagnosis.h"
#include "labview.h"
#include "sweep-cmd.h"

/* Contended or throttled, or crowded out by other processes besides
 * (oversubscribed and contended): the speedup measured the box, not the
 * program. */
bool sweep_fit_left_out(enum verdict v, bool crowded);
/* Whether a row or chart point at workers on cpus is left out of the fit,
 * by its verdict (left_out: sweep_fit_left_out) or by its workers (more
 * than the whole CPUs, amdahl_beyond): its star. */
bool sweep_fit_marked(bool left_out, double workers, double cpus);

/* The index of o's thread knob, or -1 when it has none (see above). */
int sweep_fit_cmd_knob(const struct sweep_cmd_opts *o);

/* The workers of a command-sweep row when it is a scaling point, else NAN. */
double sweep_fit_cmd_threads(const struct sweep_cmd_opts *o, const struct sweep_cmd_row *r);

/* C for a sweep: effective CPUs, or quota when it is above 0 and lower. */
double sweep_fit_cpus(double effective, double quota);

/* The rate the chart's speedups are to: its own 1x1 point at size/precision
 * when it holds one the fit keeps (current, no loaders, not left out), as
 * a sweep's speedups are to its 1x1 row; else single, the lab's one-thread
 * reference (labview_ref_single), which may come from other conditions. */
double sweep_fit_labview_ref(const struct labview *v, int size, int precision, double single);
/* The dashboard's chart: the fit of v's current points at size/precision
 * (labview_point_current; points with loaders are not scaling points) at
 * streams x threads workers, speedups against sweep_fit_labview_ref(), on
 * effective CPUs.  Returns what amdahl_fit returns (-EDOM also when no
 * reference is known). */
int sweep_fit_labview(const struct labview *v, int size, int precision, double single,
		      double effective, struct amdahl_fit *out);

/* The fit in one line, no newline, into buf:
 *   "Amdahl fit: serial fraction 0.06 (Karp-Flatt 0.04-0.08, 4 points at 1-4
 *    threads, r2 0.99), predicts 1.8x at 2 threads; prediction beyond this
 *    box's 4 CPUs: 3.1x at 8 CPUs, 4.4x at 16 CPUs"
 * with "N left out (marked *): contended or throttled" (or "more threads
 * than the C CPUs", or both counted) when some were, and "Amdahl fit:
 * none (…why…)" when no fit was made. */
void sweep_fit_caption(char *buf, size_t cap, const struct amdahl_fit *f);
/* The same for a narrow place (the dashboard's chart):
 *   "Amdahl s=0.06 (2 pts, Karp-Flatt 0.04-0.08): 1.9x at 2 threads;
 *    predicted 3.4x at 4 CPUs"
 * the serial fraction, the largest thread count on this box, the first
 * count beyond it. */
void sweep_fit_caption_brief(char *buf, size_t cap, const struct amdahl_fit *f);

#endif
