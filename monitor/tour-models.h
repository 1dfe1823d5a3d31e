/* tour-models.h — the tour's lessons on the two models, Amdahl's law and
 * the roofline (tour-models.c): their figures, predictions and captions.
 * Text is written into the caller's buffer, cut at its end. */
#ifndef THREADLAB_TOUR_MODELS_H
#define THREADLAB_TOUR_MODELS_H

#include "tour.h"

/* Lesson 8's prediction, before its window: Amdahl's law fitted to the
 * GEMM steps measured so far at the step's size (one stream, no quota, no
 * loaders), the speedup it gives for the step's threads on the effective
 * CPUs.  Fills st->pre's fit_s, fit_points and predicted (fit_s < 0: no
 * fit). */
void tour_models_predict(const struct tour *t, struct tour_step *st);
/* After the window: the model figures of st (prediction error, roofline,
 * speedups against the steps before) into st->fig, from the session's
 * roofline. */
void tour_models_figures(const struct tour *t, const struct session *s, struct tour_step *st);
/* The captions of lessons 8 and 9 into x's buffer (tour_caption). */
void tour_models_caption(const struct tour *t, const struct tour_step *st, char *out, size_t cap);
/* Their part of the figures line, appended to out (of cap, len used). */
size_t tour_models_figures_text(const struct tour_step *st, char *out, size_t cap, size_t len);

#endif
