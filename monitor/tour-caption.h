/* tour-caption.h — the tour's captions and the figures line beside them
 * (tour-caption.c).  Text is written into the caller's buffer, cut at its
 * end and always NUL-terminated. */
#ifndef THREADLAB_TOUR_CAPTION_H
#define THREADLAB_TOUR_CAPTION_H

#include "tour-impl.h"
#include "tour.h"

/* Appends printf-formatted text, cut at the buffer's end. */
void tour_caption_say(struct tour_text *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Writes the caption of step i of t from its figures (and the figures of
 * steps measured before it).  Pure: for tests. */
void tour_caption(const struct tour *t, size_t i, char *out, size_t cap);
/* Step i's figures, labelled, on one line ("measured 6.0 s: 62.2 GFLOP/s,
 * …"): every figure its caption may quote.  "" until it is measured.
 * Returns the bytes written. */
size_t tour_caption_figures_text(const struct tour *t, size_t i, char *out, size_t cap);
/* The measured step whose figures step st's caption compares with (2
 * threads for more threads, one stream of E threads for E streams, the
 * same compute without a quota or loaders, the build before), or NULL. */
const struct tour_step *tour_caption_compared(const struct tour *t, const struct tour_step *st);
/* Whether other processes used enough CPUs beside a step (0.3 or more)
 * that its figures read low: its caption says so, the Amdahl lesson
 * leaves it out.  Other processes' CPUs, not the machine's PSI, which
 * counts the lab's own waiting threads too (lesson 3 oversubscribes by
 * design) and, a 10-second average, the step before. */
bool tour_caption_busy(const struct tour_figures *f);

#endif
