/* tour-face.h — threadlab --tour --batch: the guided tour without a screen,
 * each step's caption and figures on stdout as soon as it is measured (text
 * or JSON Lines, output/tour-out.h).  The dashboard runs the same tour
 * (monitor/tour.h) with its captions on screen. */
#ifndef THREADLAB_TOUR_FACE_H
#define THREADLAB_TOUR_FACE_H

#include "options.h"

/* Runs the whole tour on the built-in workload.  Returns EXIT_OK (also
 * after a stop signal or a reader that went away), EXIT_RUNTIME when the
 * workload failed or stdout could not be written, or a start-up status. */
int tour_face_batch(const struct options *o);

#endif
