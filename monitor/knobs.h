/* knobs.h — the knob table: one entry per setting the dashboard, the tour
 * and the sweeps change (the lab's settings and the refresh interval).
 *
 * An entry holds the knob's name (the experiment log's key), its label
 * (the tour's words), its keys up and down, its range and default, its
 * step rule and unit, its help line and the words of its messages.  The
 * defaults (knobs_defaults), the range check (knobs_check_value, knobs_check)
 * and one key press (knobs_step, session_knob_step in session.h) all read
 * the table, so a knob is added by one entry.  The command line's option
 * table is apart (tui/options.c). */
#ifndef THREADLAB_KNOBS_H
#define THREADLAB_KNOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "settings.h"

enum knob_id {
	KNOB_NONE = 0,
	/* The experiment log's order (explog.c): */
	KNOB_THREADS,
	KNOB_STREAMS,
	KNOB_SIZE,
	KNOB_PRECISION,
	KNOB_WORKERS,
	KNOB_CPUS,
	KNOB_SPIN,
	KNOB_BLAS,
	KNOB_LOADERS,
	KNOB_PREP_MS,
	KNOB_PREFETCH,
	KNOB_KERNEL,
	/* Not in the log: */
	KNOB_PAUSED,
	KNOB_INTERVAL,
	KNOB_COUNT
};

/* How a key moves a knob. */
enum knob_rule {
	KNOB_ADD,    /* value + dir * step, refused outside min..max */
	KNOB_GROW,   /* x1.25 up or down, a multiple of step, floor key_min, clamped */
	KNOB_PREP,   /* x1.5 up or down, steps of 1 below 3 */
	KNOB_QUOTA,  /* step CPUs up or down, top the online CPUs; dir 0 or down to 0: none */
	KNOB_TOGGLE, /* one key flips between min and max */
	KNOB_LIST,   /* the next value of knobs_intervals, shorter or longer */
};

#define KNOB_LAB    0x1u /* a lab setting (struct settings): a key cancels a sweep */
#define KNOB_LOGGED 0x2u /* a line of the experiment log's row */

struct knob {
	const char *name;   /* "threads": the experiment log's key, the recording's */
	const char *option; /* "threads": the command line's --option, the check's word */
	const char *label;  /* "threads": how the tour's settings line names it */
	unsigned flags;	    /* KNOB_LAB, KNOB_LOGGED */
	int up_key;	    /* the dashboard's key up (a toggle's one key); 0: none */
	int down_key;	    /* the key down; 0: none */
	double min, max;    /* the range knobs_check_value and the command line accept
			     * (KNOB_CPUS: 0 is none too); the keys' may be
			     * narrower (knobs_key_range) */
	double def;	    /* what a fresh session gets */
	enum knob_rule rule;
	double factor;	    /* KNOB_GROW, KNOB_PREP: times this up, over it down */
	double step;	    /* KNOB_ADD, KNOB_QUOTA: the step; KNOB_GROW: sizes are multiples */
	double key_min;	    /* KNOB_GROW: the keys' floor (the range may start lower) */
	const char *unit;   /* "ms", "CPUs", "s", "" */
	const char *help;   /* one line: what the knob changes (--help's, which appends
			     * knobs_describe) */
	const char *noun;   /* knobs_check_value's "give 1 to 64 <noun>"; toggles: the choices */
	const char *within; /* a key's refusal: "<within> within 1..64[ unit]" */
};

/* The entry of k (KNOB_NONE < k < KNOB_COUNT), or NULL. */
const struct knob *knobs_get(enum knob_id k);

/* The knob whose key up or key down is key (0: none); *dir +1 or -1 (0 for
 * a toggle's key). */
enum knob_id knobs_of_key(int key, int *dir);

/* The knob whose command-line option is --name ("threads", "prep-ms"),
 * or KNOB_NONE. */
enum knob_id knobs_of_option(const char *name);

/* The refresh intervals the interval keys step through, s, ascending: the
 * dashboard's range, inside the knob's (-i takes more for --batch). */
extern const double knobs_intervals[];
extern const size_t knobs_nintervals;

/* The lab's settings at the table's defaults. */
struct settings knobs_defaults(void);

/* The value of lab knob k in s (toggles 0 or 1, the enums as numbers), and
 * its setting.  KNOB_INTERVAL and KNOB_NONE: 0 and nothing. */
double knobs_value(const struct settings *s, enum knob_id k);
void knobs_set(struct settings *s, enum knob_id k, double v);

/* k's value in s as the experiment log writes it: "4", "double", "none"
 * (no quota) or "1.5", "off" / "default" (spin), "pthreads", "gemm".
 * Returns the bytes written. */
size_t knobs_format(const struct settings *s, enum knob_id k, char *out, size_t cap);

/* The range the keys move k within: min..max, but from key_min for
 * KNOB_GROW and the ends of knobs_intervals for KNOB_LIST (the dashboard's
 * refresh).  KNOB_NONE: 0..0. */
void knobs_key_range(enum knob_id k, double *lo, double *hi);

/* The figure of k's step rule, as help lines give it: "x1.25" (KNOB_GROW,
 * KNOB_PREP), "0.5" (the step of KNOB_ADD, KNOB_QUOTA), "" for the rest.
 * Returns the bytes written. */
size_t knobs_rule_words(enum knob_id k, char *out, size_t cap);

/* What --help says of k's values after its help line: ", 1-64; default 1"
 * for a knob a key adds to, grows or steps through a list, "; default
 * single" for a toggle, "; default none" for the quota; "" for KNOB_NONE.  The option
 * table's help lines carry no range or default of their own
 * (tui/options-usage.c appends this).  Returns the bytes written. */
size_t knobs_describe(enum knob_id k, char *out, size_t cap);

/* The one range check: v for knob k.  0, or -EINVAL with one line in err
 * saying what was wrong and what to do ("threads 0: give 1 to 64 intra-op
 * threads per stream"). */
int knobs_check_value(enum knob_id k, double v, char *err, size_t errlen);
/* knobs_check_value over every lab knob of s, in the table's order. */
int knobs_check(const struct settings *s, char *err, size_t errlen);

/* One step of knob k from cur by its rule: dir +1 up, -1 down, 0 a
 * toggle's flip or (KNOB_QUOTA) none.  top is the quota's upper end
 * (online CPUs).  Writes the next value in *next and returns 0 (KNOB_ADD
 * and KNOB_PREP: it may be out of range, knobs_check_value says), or returns
 * -ERANGE with the refusal in msg when a rule that stops at its ends
 * (KNOB_GROW, KNOB_QUOTA, KNOB_LIST) cannot move that way.  Pure. */
int knobs_step(enum knob_id k, double cur, int dir, double top, double *next, char *msg,
	       size_t cap);

/* A key's refusal of a step out of k's range, in msg: "intra-op threads
 * stay within 1..64" (the size's from the keys' floor).  Returns -ERANGE. */
int knobs_refusal(enum knob_id k, char *msg, size_t cap);

#endif
