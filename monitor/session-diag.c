/* session-diag.c — a live session's census, window and diagnosis.
 *
 * The window (window.h) sums each interval's demand per thread over the
 * last half window to a whole one: that keeps the verdict from flipping
 * with each interval (one busy thread seen runnable at one instant and not
 * at the next) while it still follows a change within a window, and counts
 * threads that started or ended inside it.  Without a window (diag_window
 * 0) the diagnosis judges the last interval, as a batch sample does. */
#include "config.h"

#include "session-diag.h"
#include "window.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procinfo.h"
#include "proctree.h"
#include "settings-lab.h"
#include "xalloc.h"

#define SESSION_UNFOLLOWED_S 5.0

void session_diag_init(struct session *s)
{
	census_init(&s->census, &s->impl->root);
	history_init(&s->history);
	window_init(&s->impl->window, s->cfg.diag_window);
	neighbours_init(&s->impl->neighbours, s->cfg.diag_window);
	if (s->cfg.machine_from)
		neighbours_borrow(&s->impl->neighbours, s->cfg.machine_from);
	s->impl->activity = activity_tracker_new(&s->impl->root, true);
}

void session_diag_free(struct session *s)
{
	census_free(&s->census);
	window_free(&s->impl->window);
	neighbours_free(&s->impl->neighbours);
	activity_tracker_free(s->impl->activity);
	s->impl->activity = NULL;
	free(s->impl->act_secs);
	s->impl->act_secs = NULL;
	s->impl->act_cap = 0;
}

/* The rates to judge: the window's, or the last interval's. */
static const struct snapshot_rates *session_diag_window(struct session *s)
{
	if (s->cfg.diag_window <= 0)
		return &s->impl->rates;
	window_add(&s->impl->window, &s->impl->rates, &s->impl->cur, s->impl->act_secs);
	return window_rates(&s->impl->window);
}

/* What each thread does this interval, into the rates the faces show. */
static void session_diag_activity(struct session *s)
{
	s->impl->act_secs =
	    xreallocarray_grow(s->impl->act_secs, &s->impl->act_cap,
			       (s->impl->rates.nthreads + 1) * ACTIVITY_N, sizeof(double));
	activity_tracker_tick(s->impl->activity, &s->impl->prev.threads, &s->impl->cur.threads,
			      &s->impl->rates, s->impl->act_secs);
}

/* Each process's runtimes that tell spin from compute, from the census. */
static void session_diag_runtimes(struct session *s)
{
	for (size_t i = 0; i < s->census.n; i++) {
		const struct census_proc *p = &s->census.p[i];
		uint64_t ranges[16][2];
		size_t n = 0;
		bool ob = false;
		for (size_t k = 0; k < p->nruntimes; k++) {
			const struct census_runtime *rt = &p->runtimes[k];
			if (rt->id == RUNTIME_OPENBLAS && runtimes_pool_symbol(rt->id, rt->variant))
				ob = true;
			if (runtimes_kind(rt->id) != RUNTIME_KIND_OPENMP)
				continue;
			for (size_t t = 0; t < rt->ntext && n < 16; t++, n++) {
				ranges[n][0] = rt->text[t][0];
				ranges[n][1] = rt->text[t][1];
			}
		}
		activity_tracker_runtime(s->impl->activity, p->pid, &ranges[0][0], n, ob);
	}
}

/* The machine beside the target over the window. */
static void session_diag_machine(struct session *s, const struct snapshot_rates *judged,
				 struct machine_view *v)
{
	if (s->cfg.no_machine) {
		memset(v, 0, sizeof(*v));
		return;
	}
	neighbours_tick(&s->impl->neighbours, &s->impl->root, &s->impl->cur.threads,
			s->impl->cur.time);
	pid_t *pids = xmalloc((s->impl->cur.threads.n + 1) * sizeof(*pids));
	size_t n = 0;
	for (size_t i = 0; i < s->impl->cur.threads.n; i++)
		if (n == 0 || pids[n - 1] != s->impl->cur.threads.v[i].pid)
			pids[n++] = s->impl->cur.threads.v[i].pid;
	/* The CPUs the target may run on (others there took them from it),
	 * else those its threads were seen on. */
	uint8_t cpus[MACHINE_SET_BYTES] = {0};
	if (procinfo_cpus_allowed(&s->impl->root, s->target, cpus, sizeof(cpus)) <= 0) {
		memset(cpus, 0, sizeof(cpus));
		for (size_t i = 0; i < judged->nthreads; i++) {
			int c = judged->threads[i].cpu;
			if (c >= 0 && c < MACHINE_CPUS_MAX)
				cpus[c / 8] |= (uint8_t)(1u << (c % 8));
		}
	}
	double psi = s->impl->cur.psi_system.available ? s->impl->cur.psi_system.some_avg10 : -1;
	neighbours_view(&s->impl->neighbours, s->target, pids, n, getpid(), cpus, psi, v);
	free(pids);
}

/* Descendants of an attached or launched target that is not followed with
 * its tree, counted again every few seconds (a scan of every process). */
static int session_diag_unfollowed(struct session *s)
{
	if (s->tree || s->kind == SESSION_LAB || !s->impl->root.live)
		return 0;
	if (s->impl->unfollowed_at > 0 &&
	    s->impl->cur.time - s->impl->unfollowed_at < SESSION_UNFOLLOWED_S)
		return s->unfollowed;
	pid_t *pids = NULL;
	size_t cap = 0;
	ssize_t n = proctree_descendants(&s->impl->root, s->target, &pids, &cap);
	free(pids);
	s->unfollowed = n > 1 ? (int)n - 1 : 0;
	s->impl->unfollowed_at = s->impl->cur.time;
	return s->unfollowed;
}

void session_diag_tick(struct session *s)
{
	if (!s->have_rates) {
		/* The first sample: the machine's first reading too, so that
		 * the first verdict has the neighbours of its window. */
		if (!s->cfg.no_machine)
			neighbours_tick(&s->impl->neighbours, &s->impl->root, &s->impl->cur.threads,
					s->impl->cur.time);
		return;
	}
	s->runnable_mean = diagnosis_runnable_mean(&s->impl->rates);
	const struct snapshot_rates *r = &s->impl->rates;
	history_push(&s->history, s->runnable_mean, r->total_cpu_pct / 100.0,
		     r->total_wait_pct / 100.0, r->throttle.valid ? r->throttle.throttled_pct : 0,
		     s->impl->cur.budget.effective);
	/* The lab's anchor waits for threadlab's bell and its children, not
	 * for input: the loaders' input is what its helpers wait for. */
	activity_tracker_supervisor(s->impl->activity, s->impl->lab ? s->target : 0);
	session_diag_activity(s);
	census_update(&s->census, &s->impl->root, &s->impl->cur.threads, s->impl->cur.time);
	session_diag_runtimes(s);
	struct machine_view machine;
	const struct snapshot_rates *judged = session_diag_window(s);
	session_diag_machine(s, judged, &machine);
	struct settings lab;
	if (s->kind == SESSION_LAB)
		settings_from_lab(&s->impl->lab_status.settings, &lab);
	struct diag_input in = {
	    .target = s->target,
	    .budget = &s->impl->cur.budget,
	    .rates = judged,
	    .census = &s->census,
	    .cores = s->census.cores,
	    .lab = s->kind == SESSION_LAB ? &lab : NULL,
	    .keys = s->cfg.keys,
	    .unfollowed = session_diag_unfollowed(s),
	    .machine = machine.valid ? &machine : NULL,
	    .prev = s->cfg.hysteresis && s->have_diag ? s->diag.verdict : VERDICT_N,
	};
	diagnosis_make(&in, &s->diag);
	s->have_diag = true;
}
