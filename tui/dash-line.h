/* dash-line.h — a dashboard row as a line of fields fitted to a width.
 *
 * Each field has a full form, may have a brief form, and has a priority (0
 * the most important).  dash_line_render() fits the line to a width,
 * stopping as soon as it fits:
 *   1. for each priority, the least important first: its fields take their
 *      brief form (all together, so labels stay alike), then they are
 *      dropped, the rightmost first (priority 0 and DASH_LINE_KEEP fields
 *      are never dropped);
 *   2. shortened fields get their full form back where it still fits, the
 *      most important first;
 *   3. what is still too long is cut at a space, with an ellipsis.
 * Pure functions: no terminal, no system.  Foreign text must go through
 * text_safe() before it is added. */
#ifndef THREADLAB_DASH_LINE_H
#define THREADLAB_DASH_LINE_H

#include <stddef.h>

#include "dash-fit.h"

#define DASH_LINE_FIELDS 24
#define DASH_LINE_BYTES	 2048
#define DASH_LINE_KEEP	 0x100 /* or'ed into a priority: never dropped */
#define DASH_LINE_GLUE	 0x200 /* joined to the previous field by one space */
#define DASH_LINE_NONE	 ((size_t)-1)

struct dash_line_field {
	size_t text;  /* offset of the full form in buf */
	size_t brief; /* offset of the brief form, DASH_LINE_NONE when none */
	int prio;     /* 0 most important; may carry DASH_LINE_KEEP / _GLUE */
};

struct dash_line {
	const char *sep; /* between fields, e.g. " | "; static storage */
	struct dash_line_field f[DASH_LINE_FIELDS];
	size_t n;
	char buf[DASH_LINE_BYTES];
	size_t used;
};

void dash_line_init(struct dash_line *l, const char *sep);
/* Adds a field formatted with printf.  A field that does not fit the
 * line's storage is left out (no row needs that much). */
void dash_line_add(struct dash_line *l, int prio, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Gives the field added last a brief form. */
void dash_line_brief(struct dash_line *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Writes the line fitted to width columns (width <= 0: the full line).
 * Returns the bytes written. */
size_t dash_line_render(const struct dash_line *l, char *out, size_t cap, int width);

#endif
