/* dash-machine.c — the dashboard's machine view (dash-machine.h): the
 * ranking in the view's order, grouped or not, and its drawing.  Its keys
 * and threadlab --all's loop are dash-machine-run.c's. */
#include "config.h"

#include "dash-machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dash-keys.h"
#include "dash-paint.h"
#include "text-safe.h"
#include "xalloc.h"

static const char *const dash_msort_names[DASH_MSORT_N] = {
    [DASH_MSORT_FACTOR] = "factor", [DASH_MSORT_CPU] = "CPU%",	 [DASH_MSORT_WAIT] = "wait%",
    [DASH_MSORT_THREADS] = "threads", [DASH_MSORT_PID] = "PID", [DASH_MSORT_NAME] = "name",
};

int dash_machine_open(struct dash_machine *m, double interval, bool kernel, double now, char *err,
		      size_t cap)
{
	memset(m, 0, sizeof(*m));
	m->interval = interval < NEIGHBOURS_PERIOD_S ? NEIGHBOURS_PERIOD_S : interval;
	int rc = ranking_open(&m->k, "/", kernel, now, err, cap);
	if (rc < 0)
		return rc;
	m->open = true;
	/* The first screen within a second of the start: its interval is
	 * RANKING_FIRST_S, the later ones m->interval. */
	m->next = now + RANKING_FIRST_S;
	return 0;
}

void dash_machine_free(struct dash_machine *m)
{
	if (m->open)
		ranking_free(&m->k);
	free(m->rows);
	free(m->items);
	memset(m, 0, sizeof(*m));
}

void dash_machine_drop(struct dash *d)
{
	if (!d->machine || d->machine_only)
		return;
	dash_machine_free(d->machine);
	free(d->machine);
	d->machine = NULL;
	d->machine_view = false;
}

double dash_machine_due(const struct dash_machine *m, double now)
{
	return m->next > now ? m->next - now : 0;
}

/* ---- the view's order ---------------------------------------------------------- */

/* Descending by a figure, then by PID. */
static int dm_desc(double a, double b, pid_t pa, pid_t pb)
{
	if (a != b)
		return a > b ? -1 : 1;
	return (pa > pb) - (pa < pb);
}

static int dm_by_factor(const void *x, const void *y)
{
	const struct rank_row *a = x, *b = y;
	if (a->factor != b->factor)
		return a->factor > b->factor ? -1 : 1;
	return dm_desc(a->cpu, b->cpu, a->pid, b->pid);
}
static int dm_by_cpu(const void *x, const void *y)
{
	const struct rank_row *a = x, *b = y;
	return dm_desc(a->cpu, b->cpu, a->pid, b->pid);
}
static int dm_by_wait(const void *x, const void *y)
{
	const struct rank_row *a = x, *b = y;
	return dm_desc(a->wait, b->wait, a->pid, b->pid);
}
static int dm_by_threads(const void *x, const void *y)
{
	const struct rank_row *a = x, *b = y;
	return dm_desc(a->threads, b->threads, a->pid, b->pid);
}
static int dm_by_pid(const void *x, const void *y)
{
	const struct rank_row *a = x, *b = y;
	return (a->pid > b->pid) - (a->pid < b->pid);
}
static int dm_by_name(const void *x, const void *y)
{
	const struct rank_row *a = x, *b = y;
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = memcmp(a->name, b->name, n);
	if (c)
		return c;
	if (a->name_len != b->name_len)
		return a->name_len < b->name_len ? -1 : 1;
	return dm_by_pid(x, y);
}

static int (*const dm_cmp[DASH_MSORT_N])(const void *, const void *) = {
    [DASH_MSORT_FACTOR] = dm_by_factor, [DASH_MSORT_CPU] = dm_by_cpu,
    [DASH_MSORT_WAIT] = dm_by_wait,	[DASH_MSORT_THREADS] = dm_by_threads,
    [DASH_MSORT_PID] = dm_by_pid,	[DASH_MSORT_NAME] = dm_by_name,
};

static struct dash_machine_item *dm_item(struct dash_machine *m)
{
	if (m->nitems == m->icap) {
		m->icap = m->icap ? 2 * m->icap : 64;
		m->items = xrealloc(m->items, m->icap * sizeof(*m->items));
	}
	struct dash_machine_item *it = &m->items[m->nitems++];
	memset(it, 0, sizeof(*it));
	return it;
}

/* Grouped: the cgroups in the order their first process comes in the
 * sorted rows, each cgroup's line with its sums, its processes under it. */
static void dm_group_items(struct dash_machine *m)
{
	bool *done = xcalloc(m->nrows ? m->nrows : 1, sizeof(*done));
	for (size_t i = 0; i < m->nrows; i++) {
		if (done[i])
			continue;
		struct dash_machine_item *g = dm_item(m);
		size_t gi = m->nitems - 1;
		g->group = true;
		snprintf(g->cgroup, sizeof(g->cgroup), "%s", m->rows[i].cgroup);
		for (size_t j = i; j < m->nrows; j++) {
			const struct rank_row *r = &m->rows[j];
			if (done[j] || strcmp(r->cgroup, m->rows[i].cgroup) != 0)
				continue;
			done[j] = true;
			struct dash_machine_item *it = dm_item(m);
			it->row = j;
			g = &m->items[gi]; /* dm_item may have moved it */
			g->nprocs++;
			g->threads += r->threads;
			g->runnable += r->runnable_mean;
			g->cpu += r->cpu;
			g->wait += r->wait;
			if (r->factor > g->factor)
				g->factor = r->factor;
		}
	}
	free(done);
}

/* The rows of the ranking in the view's order, the cursor on the same
 * process as before. */
static void dm_rebuild(struct dash_machine *m)
{
	if (m->k.n > m->rcap) {
		m->rcap = m->k.n;
		m->rows = xrealloc(m->rows, m->rcap * sizeof(*m->rows));
	}
	m->nrows = m->k.n;
	if (m->nrows)
		memcpy(m->rows, m->k.rows, m->nrows * sizeof(*m->rows));
	if (m->nrows > 1)
		qsort(m->rows, m->nrows, sizeof(*m->rows), dm_cmp[m->sort]);
	m->nitems = 0;
	if (m->group) {
		dm_group_items(m);
	} else {
		for (size_t i = 0; i < m->nrows; i++)
			dm_item(m)->row = i;
	}
	int at = -1;
	for (size_t i = 0; m->cursor_pid && i < m->nitems; i++)
		if (!m->items[i].group && m->rows[m->items[i].row].pid == m->cursor_pid)
			at = (int)i;
	if (at >= 0)
		m->cursor = at;
	if (m->cursor >= (int)m->nitems)
		m->cursor = m->nitems ? (int)m->nitems - 1 : 0;
	m->cursor_pid = dash_machine_cursor_pid(m);
}

/* The ranking's note (a failed BPF read) on d's message line, once; true
 * when it put one there. */
static bool dash_machine_say(struct dash_machine *m, struct dash *d)
{
	if (!m->open || m->k.note_seq == m->note_said)
		return false;
	m->note_said = m->k.note_seq;
	snprintf(d->message, sizeof(d->message), "%s", m->k.note);
	d->message_bad = true;
	return true;
}

bool dash_machine_tick(struct dash_machine *m, struct dash *d, double now)
{
	bool fresh = false;
	if (m->open && now >= m->next) {
		m->next += m->interval;
		if (m->next <= now)
			m->next = now + m->interval;
		fresh = ranking_tick(&m->k, now);
		if (fresh)
			dm_rebuild(m);
	}
	/* (also a note the opening's first read left) */
	return dash_machine_say(m, d) || fresh;
}

bool dash_machine_has_children(const struct dash_machine *m, pid_t pid)
{
	return ranking_has_children(&m->k, pid);
}

const char *dash_machine_sort_name(enum dash_machine_sort s)
{
	return dash_msort_names[s];
}

pid_t dash_machine_cursor_pid(const struct dash_machine *m)
{
	if (m->cursor < 0 || (size_t)m->cursor >= m->nitems || m->items[m->cursor].group)
		return 0;
	return m->rows[m->items[m->cursor].row].pid;
}

void dash_machine_sort_step(struct dash_machine *m, int arg)
{
	m->sort = (enum dash_machine_sort)(((int)m->sort + arg + DASH_MSORT_N) % DASH_MSORT_N);
	dm_rebuild(m);
}

void dash_machine_group(struct dash_machine *m)
{
	m->group = !m->group;
	dm_rebuild(m);
}

void dash_machine_move(struct dash_machine *m, int rows)
{
	long c = (long)m->cursor + rows;
	if (c < 0)
		c = 0;
	if (c >= (long)m->nitems)
		c = m->nitems ? (long)m->nitems - 1 : 0;
	m->cursor = (int)c;
	m->cursor_pid = dash_machine_cursor_pid(m);
}

/* ---- drawing -------------------------------------------------------------------- */


static enum dash_role dm_role(enum verdict v)
{
	switch (v) {
	case VERDICT_OVERSUBSCRIBED:
	case VERDICT_THROTTLED:
		return DASH_ROLE_BAD;
	case VERDICT_CONTENDED:
		return DASH_ROLE_WARN;
	case VERDICT_IDLE:
		return DASH_ROLE_DIM;
	default:
		return DASH_ROLE_PLAIN;
	}
}

/* The wide columns (binding, throttled) need 110 columns. */
#define DM_WIDE 110

static void dm_line(char *out, size_t cap, const struct dash_machine *m,
		    const struct dash_machine_item *it, int cols)
{
	bool wide = cols >= DM_WIDE;
	int cgw = wide ? 20 : 14;
	char name[4 * MODEL_NAME_MAX], cg[4 * RANKING_CGROUP_MAX];
	if (it->group) {
		char label[RANKING_CGROUP_MAX + 32];
		snprintf(label, sizeof(label), "+ %s (%zu processes)", it->cgroup[0] ? it->cgroup : "-",
			 it->nprocs);
		text_safe_cell(label, strlen(label), 16 + 1 + cgw, true, cg, sizeof(cg));
		snprintf(out, cap, "%7s %s %5d %6.2f %6s %s%6.2f %6.1f %6.1f", "", cg, it->threads,
			 it->runnable, "", wide ? "         " : "", it->factor, it->cpu * 100,
			 it->wait * 100);
		return;
	}
	const struct rank_row *r = &m->rows[it->row];
	text_safe_cell(r->name, r->name_len, 16, true, name, sizeof(name));
	text_safe_cell(r->cgroup, strlen(r->cgroup), cgw, true, cg, sizeof(cg));
	char binds[16] = "", thr[16] = "";
	if (wide) {
		snprintf(binds, sizeof(binds), "%-8s ", model_term_name(r->binding));
		if (r->throttle_valid)
			snprintf(thr, sizeof(thr), " %5.1f", r->throttled_pct);
		else
			snprintf(thr, sizeof(thr), " %5s", "-");
	}
	snprintf(out, cap, "%7d %s %s %5d %6.2f %6.2f %s%6.2f %6.1f %6.1f%s  %s", (int)r->pid, name,
		 cg, r->threads, r->runnable_mean, r->effective, binds, r->factor, r->cpu * 100,
		 r->wait * 100, thr, diagnosis_verdict_name(r->verdict));
}

void dash_machine_draw(WINDOW *w, const struct dash *d, struct dash_machine *m)
{
	int rows, cols;
	getmaxyx(w, rows, cols);
	werase(w);
	char buf[1024];
	const struct rank_machine *s = &m->k.summary;
	if (rows < DASH_MACHINE_MIN_ROWS || cols < DASH_MACHINE_MIN_COLS) {
		snprintf(buf, sizeof(buf), "the machine view needs %dx%d (this is %dx%d); q quits",
			 DASH_MACHINE_MIN_COLS, DASH_MACHINE_MIN_ROWS, cols, rows);
		dash_paint_put(w, 0, 0, cols, buf, dash_paint_attr(d, DASH_ROLE_BOLD));
		wnoutrefresh(w);
		doupdate();
		return;
	}
	if (d->help) {
		size_t n;
		const struct dash_key_help *h = dash_keys_help(DASH_KEYS_MODE_MACHINE, &n);
		dash_paint_put(w, 0, 0, cols, " keys of the machine view (any key closes this)",
			       dash_paint_attr(d, DASH_ROLE_TITLE));
		for (size_t i = 0; i < n && (int)i + 2 < rows; i++) {
			snprintf(buf, sizeof(buf), "  %-12s %s", h[i].keys, h[i].what);
			dash_paint_put(w, (int)i + 2, 0, cols, buf, dash_paint_attr(d, DASH_ROLE_PLAIN));
		}
		wnoutrefresh(w);
		doupdate();
		return;
	}
	if (s->valid) {
		char psi[32] = "unavailable";
		if (s->psi_some >= 0)
			snprintf(psi, sizeof(psi), "%.1f%%", s->psi_some);
		snprintf(buf, sizeof(buf), " machine: %s; %zu processes, %zu threads, psi some %s",
			 s->headline, s->processes, s->threads, psi);
	} else {
		snprintf(buf, sizeof(buf),
			 " machine: reading every process; the first ranking comes after %g s",
			 RANKING_FIRST_S);
	}
	dash_paint_fill(w, &(struct dash_rect){0, 0, 1, cols}, 0, dash_paint_attr(d, DASH_ROLE_TITLE));
	dash_paint_put(w, 0, 0, cols, buf, dash_paint_attr(d, DASH_ROLE_TITLE));
	snprintf(buf, sizeof(buf), " ranked by runnable threads over each process's own CPUs; sort: %s%s",
		 dash_msort_names[m->sort], m->group ? "; grouped by cgroup" : "");
	dash_paint_put(w, 1, 0, cols, buf, dash_paint_attr(d, DASH_ROLE_PLAIN));
	bool wide = cols >= DM_WIDE;
	snprintf(buf, sizeof(buf), "%7s %-16s %-*s %5s %6s %6s %s%6s %6s %6s%s  %s", "PID", "NAME",
		 wide ? 20 : 14, "CGROUP", "THR", "RUN", "EFF", wide ? "BINDS    " : "", "FACTOR",
		 "CPU%", "WAIT%", wide ? "  THR%" : "", "VERDICT");
	dash_paint_put(w, 2, 0, cols, buf, dash_paint_attr(d, DASH_ROLE_BOLD));
	int body = rows - 5;
	m->body = body;
	if (m->cursor < m->top)
		m->top = m->cursor;
	if (m->cursor >= m->top + body)
		m->top = m->cursor - body + 1;
	if (m->top > 0 && m->top + body > (int)m->nitems)
		m->top = (int)m->nitems > body ? (int)m->nitems - body : 0;
	for (int i = 0; i < body && m->top + i < (int)m->nitems; i++) {
		const struct dash_machine_item *it = &m->items[m->top + i];
		dm_line(buf, sizeof(buf), m, it, cols);
		attr_t a = it->group ? dash_paint_attr(d, DASH_ROLE_BOLD)
				     : dash_paint_attr(d, dm_role(m->rows[it->row].verdict));
		if (m->top + i == m->cursor)
			a |= A_REVERSE;
		dash_paint_put(w, 3 + i, 0, cols, buf, a);
	}
	if (d->message[0])
		dash_paint_put(w, rows - 2, 0, cols, d->message,
			       dash_paint_attr(d, d->message_bad ? DASH_ROLE_BAD : DASH_ROLE_BOLD));
	dash_keys_bar(buf, sizeof(buf), cols, DASH_KEYS_MODE_MACHINE);
	dash_paint_fill(w, &(struct dash_rect){rows - 1, 0, 1, cols}, 0,
			dash_paint_attr(d, DASH_ROLE_TITLE));
	dash_paint_put(w, rows - 1, 0, cols, buf, dash_paint_attr(d, DASH_ROLE_TITLE));
	wnoutrefresh(w);
	doupdate();
}
