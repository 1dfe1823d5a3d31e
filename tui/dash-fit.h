/* dash-fit.h — text that fits a width without being cut mid-word.
 *
 * Widths are terminal columns of UTF-8 text, not bytes.  Pure functions: no
 * terminal, no system.  Foreign text must go through text_safe() first. */
#ifndef THREADLAB_DASH_FIT_H
#define THREADLAB_DASH_FIT_H

#include <stdbool.h>
#include <stddef.h>

/* Columns of UTF-8 text s (a wide character counts two, an unknown one). */
int dash_fit_width(const char *s);
/* Copies s cut to at most width columns (at a character boundary) and, when
 * pad, padded with spaces to exactly width; right-aligns when right.
 * Returns the bytes written (without the NUL). */
size_t dash_fit(char *out, size_t cap, const char *s, int width, bool pad, bool right);
/* Copies s whole when it fits width columns; else cut after the last word
 * that fits, with trailing separators (" | : , ;") removed and an ellipsis
 * ("…" in UTF-8, "..." otherwise) appended.  A first word longer than the
 * width is cut at a character boundary.  Returns the bytes written. */
size_t dash_fit_words(char *out, size_t cap, const char *s, int width);

#endif
