/* dash-machine.h — the dashboard's machine view (docs/design.md,
 * "The whole machine"): every process of the machine ranked by its runnable threads
 * over its own effective CPUs (monitor/ranking.h), as a table that sorts,
 * groups by cgroup, and opens a process's attach screen.
 *
 * `threadlab --all` runs it alone (dash_machine_run_main: Enter attaches to
 * the process under the cursor, with --tree where it has children, and A
 * there comes back); from any other screen the A key shows it in place of
 * the panels and A again goes back.  Its keys are entries of the key table
 * in the mode DASH_KEYS_MODE_MACHINE. */
#ifndef THREADLAB_DASH_MACHINE_H
#define THREADLAB_DASH_MACHINE_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "dash.h"
#include "options.h"
#include "ranking.h"

#define DASH_MACHINE_MIN_COLS 80
#define DASH_MACHINE_MIN_ROWS 12

/* The columns the table sorts by (Tab / Shift-Tab). */
enum dash_machine_sort {
	DASH_MSORT_FACTOR,
	DASH_MSORT_CPU,
	DASH_MSORT_WAIT,
	DASH_MSORT_THREADS,
	DASH_MSORT_PID,
	DASH_MSORT_NAME,
	DASH_MSORT_N,
};

/* One line of the table: a process, or (grouped) a cgroup's total. */
struct dash_machine_item {
	bool group;
	size_t row;	/* a process: its index in rows */
	size_t nprocs;	/* a group: its processes */
	int threads;
	double runnable, cpu, wait, factor; /* a group: sums; factor its largest */
	char cgroup[RANKING_CGROUP_MAX];
};

struct dash_machine {
	struct ranking k;
	unsigned note_said; /* k's note_seq last put on the message line */
	bool open;
	double interval, next; /* s between rankings (1 or more); the next one's time */
	enum dash_machine_sort sort;
	bool group;	/* g: by cgroup */
	int cursor;	/* item under the cursor */
	int top;	/* first item shown */
	int body;	/* items the last draw showed at once */
	pid_t cursor_pid; /* the cursor's process, kept across rankings; 0 none */
	struct rank_row *rows; /* the ranking's, in the view's order */
	size_t nrows, rcap;
	struct dash_machine_item *items;
	size_t nitems, icap;
	pid_t enter; /* Enter: the process to attach to (the view's loop ends) */
};

/* Opens the ranking of the live machine (kernel threads with kernel),
 * sampled every interval (at least 1 s).  0, or -errno with a message. */
int dash_machine_open(struct dash_machine *m, double interval, bool kernel, double now, char *err,
		      size_t cap);
void dash_machine_free(struct dash_machine *m);

/* Frees the view d opened for A (d->machine), if any. */
void dash_machine_drop(struct dash *d);

/* Ranks the machine when it is due, and puts the ranking's note (a failed
 * BPF read) on d's message line once; true when the rows are new or the
 * note was put there. */
bool dash_machine_tick(struct dash_machine *m, struct dash *d, double now);

/* Seconds until the next ranking is due (0: now). */
double dash_machine_due(const struct dash_machine *m, double now);

/* Draws the view on all of w, with d's message line and the key bar. */
void dash_machine_draw(WINDOW *w, const struct dash *d, struct dash_machine *m);

/* The keys' actions on the view: the sort column one step (arg +1 / -1),
 * the cursor by arg rows or pages, the first / last row, grouping. */
void dash_machine_sort_step(struct dash_machine *m, int arg);
void dash_machine_move(struct dash_machine *m, int rows);
void dash_machine_group(struct dash_machine *m);
/* Whether pid had a child at the last sample of the machine, new ones
 * included (Enter then follows its tree). */
bool dash_machine_has_children(const struct dash_machine *m, pid_t pid);
/* "factor", "CPU%", ...: a sort column as the view names it. */
const char *dash_machine_sort_name(enum dash_machine_sort s);
/* The process under the cursor, 0 for none (a group's line). */
pid_t dash_machine_cursor_pid(const struct dash_machine *m);

#endif
