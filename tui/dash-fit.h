/* dash-fit.h — text that fits a width without being cut mid-word.
 *
 * Widths are terminal columns of UTF-8 text, not bytes.  A dashboard row is
 * built as a line of fields (dash_line): each field has a full form, may
 * have a brief form, and has a priority (0 the most important).
 * dash_line_render() fits the line to a width, stopping as soon as it fits:
 *   1. for each priority, the least important first: its fields take their
 *      brief form (all together, so labels stay alike), then they are
 *      dropped, the rightmost first (priority 0 and DASH_LINE_KEEP fields
 *      are never dropped);
 *   2. shortened fields get their full form back where it still fits, the
 *      most important first;
 *   3. what is still too long is cut at a space, with an ellipsis.
 * Pure functions: no terminal, no system.  Foreign text must go through
 * text_safe() before it is added. */
#ifndef THREADLAB_DASH_FIT_H
#define THREADLAB_DASH_FIT_H

#include <stdbool.h>
#include <stddef.h>

/* Columns of UTF-8 text s (a wide character counts two, an unknown one). */
int dash_width(const char *s);
/* Copies s cut to at most width columns (at a character boundary) and, when
 * pad, padded with spaces to exactly width; right-aligns when right.
 * Returns the bytes written (without the NUL). */
size_t dash_fit(char *out, size_t cap, const char *s, int width, bool pad, bool right);
/* Copies s whole when it fits width columns; else cut after the last word
 * that fits, with trailing separators (" | : , ;") removed and an ellipsis
 * ("…" in UTF-8, "..." otherwise) appended.  A first word longer than the
 * width is cut at a character boundary.  Returns the bytes written. */
size_t dash_fit_words(char *out, size_t cap, const char *s, int width);

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
